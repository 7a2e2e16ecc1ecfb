package datasets

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// Limits that keep a malformed file (one 1 GB line, a quote that never
// closes) from hanging the loader or eating memory.
const (
	maxField  = 1 << 20  // bytes in one field
	maxRecord = 16 << 20 // bytes in one line (or one quoted multi-line record)
)

// ParseError is a loader error tied to a place in a file. Its message is one
// line: "file:line: what is wrong", or "file: what is wrong" when it concerns
// the whole file.
type ParseError struct {
	File string // the name the loader was given (a path for LoadFile)
	Line int    // 1-based; 0 when no line applies
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

func errAt(file string, line int, format string, args ...any) error {
	return &ParseError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// LoadFile reads a table from a file, choosing the parser by extension:
// .arff is ARFF (see readARFF); .csv, .tsv, .txt and anything else are
// delimited text with a sniffed delimiter (see ReadDelimited), the extension
// breaking ties (.tsv prefers tabs, .csv commas), unless the text starts like
// ARFF (% comments, then @relation). Gzip is undone transparently, whether the name ends in .gz or the
// bytes start with the gzip magic number.
//
// Table.Name is the base name without its .gz and format extensions
// ("data/x.csv.gz" -> "x"); Table.Source is path. Errors name path and, where
// one applies, the line.
func LoadFile(path string) (*Table, error) { return loadFile(path, "") }

// loadFile is LoadFile with the format forced unless format is "".
func loadFile(path, format string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // *PathError: "open x.csv: no such file or directory"
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, errAt(path, 0, "is a directory, not a data file")
	}
	var hint int64
	if st.Mode().IsRegular() {
		hint = st.Size()
	}
	return readStream(f, path, format, hint)
}

// Formats that ReadFrom accepts; "" means tell by the name and the bytes.
var Formats = []string{"csv", "tsv", "arff"}

// ReadFrom reads a table from a stream that cannot seek (standard input, a
// pipe), as LoadFile reads a file: gzip is undone when the bytes start with
// its magic number, and format ("csv", "tsv", "arff", or "" to tell ARFF
// from delimited text by the bytes, the name's extension breaking ties)
// chooses the parser. name is used in messages and for Table.Name.
func ReadFrom(r io.Reader, name, format string) (*Table, error) {
	switch format {
	case "", "csv", "tsv", "arff":
	default:
		return nil, fmt.Errorf("format %q: use one of %s", format, strings.Join(Formats, ", "))
	}
	return readStream(r, name, format, 0)
}

// readStream reads a table without seeking: the first bytes are peeked
// through a buffer to recognise gzip and ARFF. hint is the input's size in
// bytes when known (0 otherwise), to size the matrix once.
func readStream(in io.Reader, path, format string, hint int64) (*Table, error) {
	h := sha256.New()
	t, err := parseStream(in, io.TeeReader(in, h), path, format, hint)
	if err != nil {
		return nil, err
	}
	// The parsers stop at the end of the data; what follows (a gzip
	// stream's padding) is part of the bytes the fingerprint covers.
	if _, err := io.Copy(h, in); err != nil {
		return nil, errAt(path, 0, "%v", err)
	}
	t.SHA256 = hex.EncodeToString(h.Sum(nil))
	return t, nil
}

// parseStream is readStream's parsing. It reads the bytes from in, which
// tees them to the fingerprint; file is the input itself, for what reads a
// file by offset without moving it (countLines, gzipSizeHint).
func parseStream(file, in io.Reader, path, format string, hint int64) (*Table, error) {
	name, ext, gzExt := splitExt(path)
	switch format {
	case "csv":
		ext = ".csv"
	case "tsv":
		ext = ".tsv"
	case "arff":
		ext = ".arff"
	}
	var lines int64
	if f, ok := file.(*os.File); ok && hint > 0 && !gzExt && ext != ".arff" {
		lines = countLines(f, hint) // before anything reads f
	}
	br := bufio.NewReaderSize(in, 256<<10)
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, errAt(path, 0, "%v", err)
	}
	isGzip := len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	if gzExt && !isGzip {
		if len(magic) == 0 {
			return nil, errAt(path, 0, "is empty")
		}
		return nil, errAt(path, 0, "bad gzip data: the name ends in .gz but the file is not gzip-compressed")
	}
	var r io.Reader = br
	if isGzip {
		lines = 0
		if f, ok := file.(*os.File); ok && hint > 0 {
			hint = gzipSizeHint(f, hint)
		} else {
			hint = 0
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, errAt(path, 0, "bad gzip data: %v", err)
		}
		defer zr.Close()
		r = gzipErrReader{zr}
	}

	if ext == ".arff" {
		return readARFF(r, path, name)
	}
	// Any other name: the text tells ARFF from delimited.
	tb := bufio.NewReaderSize(r, 64<<10)
	head, _ := tb.Peek(64 << 10)
	if looksARFF(head) {
		return readARFF(tb, path, name)
	}
	prefer := byte(',')
	if ext == ".tsv" || ext == ".tab" {
		prefer = '\t'
	}
	return readDelimited(tb, delimOpts{file: path, name: name, prefer: prefer, sizeHint: hint, lines: lines})
}

// countLines counts the line feeds in the next size bytes of f, without
// moving its offset: one more is at least the number of records, so the
// matrix can be allocated once at its size rather than at an estimate that
// must be trimmed (a copy as large as the table) or outgrown. 0 when f
// cannot be read so.
func countLines(f *os.File, size int64) int64 {
	start, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	buf := make([]byte, 256<<10)
	n := int64(0)
	for off := int64(0); off < size; {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], start+off)
		n += int64(bytes.Count(buf[:k], []byte{'\n'}))
		off += int64(k)
		if err != nil && !(err == io.EOF && off >= size) {
			return 0
		}
	}
	return n
}

// splitExt returns the base name without extensions, the format extension
// (lower case, ".csv"...) and whether a .gz extension was present.
func splitExt(path string) (name, ext string, gz bool) {
	name = filepath.Base(path)
	if e := strings.ToLower(filepath.Ext(name)); e == ".gz" || e == ".gzip" {
		gz = true
		name = name[:len(name)-len(e)]
	}
	ext = strings.ToLower(filepath.Ext(name))
	switch ext {
	case ".csv", ".tsv", ".txt", ".tab", ".dat", ".data", ".arff":
		name = name[:len(name)-len(ext)]
	}
	if name == "" {
		name = filepath.Base(path)
	}
	return name, ext, gz
}

// tableName derives a Table.Name from the name given to a Read function.
func tableName(name string) string {
	if name == "" {
		return "data"
	}
	n, _, _ := splitExt(name)
	return n
}

// gzipSizeHint reads the gzip trailer's ISIZE (uncompressed size mod 2^32)
// as a capacity hint; 0 when it is not plausible.
func gzipSizeHint(f *os.File, size int64) int64 {
	if size < 18 {
		return 0
	}
	var b [4]byte
	if _, err := f.ReadAt(b[:], size-4); err != nil {
		return 0
	}
	n := int64(binary.LittleEndian.Uint32(b[:]))
	// Wrapped past 4 GiB, a multi-member file, or a trailer that lies: the
	// hint sizes one allocation, so it must be believable (text tables
	// compress 2-10x).
	if n < size/2 || n > 20*size {
		return 0
	}
	return n
}

// gzipErrReader marks errors of the gzip stream so that a truncated or
// corrupt .gz reads as such, with the line it broke at.
type gzipErrReader struct{ r io.Reader }

func (g gzipErrReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("bad gzip data: %w", err)
	}
	return n, err
}

// looksARFF reports whether text starts like an ARFF file: after blank lines
// and % comments, an @relation line.
func looksARFF(head []byte) bool {
	head = bytes.TrimPrefix(head, utf8BOM)
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '%' {
			continue
		}
		return len(line) >= 9 && strings.EqualFold(string(line[:9]), "@relation")
	}
	return false
}

var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// checkStart looks at the first bytes of an input for things that are not
// UTF-8 text and says what they are.
func checkStart(file string, b []byte) error {
	switch {
	case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		return errAt(file, 0, "not a text file: the data is gzip-compressed (name it .gz, or gunzip it)")
	case len(b) >= 2 && (b[0] == 0xff && b[1] == 0xfe || b[0] == 0xfe && b[1] == 0xff):
		return errAt(file, 0, "not a text file: UTF-16 text; convert it to UTF-8 (iconv -f utf-16 -t utf-8)")
	case len(b) >= 4 && string(b[:4]) == "PK\x03\x04":
		return errAt(file, 0, "not a text file: a zip archive (unzip it first)")
	}
	return nil
}

// checkText returns an error if a record holds a NUL byte or invalid UTF-8.
func checkText(file string, line int, rec []byte) error {
	if i := bytes.IndexByte(rec, 0); i >= 0 {
		return errAt(file, line+bytes.Count(rec[:i], nl), "not a text file (NUL byte)")
	}
	if !utf8.Valid(rec) {
		i := 0
		for i < len(rec) {
			r, size := utf8.DecodeRune(rec[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return errAt(file, line+bytes.Count(rec[:i], nl),
			"not a text file: invalid UTF-8 (if it is Latin-1, convert it: iconv -f latin1 -t utf-8)")
	}
	return nil
}

var nl = []byte{'\n'}

// MissingRule is how the loaders read a numeric cell: a finite number is a
// value; anything else that reads as a number (NaN, inf, -Infinity, 1e999)
// is missing, as are the markers empty, ?, NA, N/A, n/a, NULL and null. A
// value that is not a finite measurement cannot be used as one, whichever
// way it is spelt; describe counts it under MISSING, and the models impute
// or route it like any missing value.
const MissingRule = "NaN, infinite numbers, empty, ?, NA, N/A, NULL are missing"

// isMissing reports whether a field is one of the missing-value markers:
// empty, ?, NA, N/A, n/a, NaN, nan, NULL, null.
func isMissing(b []byte) bool {
	switch len(b) {
	case 0:
		return true
	case 1:
		return b[0] == '?'
	case 2:
		return b[0] == 'N' && b[1] == 'A'
	case 3:
		return string(b) == "NaN" || string(b) == "nan" || string(b) == "N/A" || string(b) == "n/a"
	case 4:
		return string(b) == "NULL" || string(b) == "null"
	}
	return false
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNumber parses a decimal number ([+-]digits[.digits][e[+-]digits]) or
// what strconv.ParseFloat accepts besides (inf, nan, hex floats). It returns
// ok=false for anything else, without allocating. Results equal
// strconv.ParseFloat's: the fast path is Clinger's exact case (a mantissa of
// at most 2^53 and a power of ten of at most 22, each exactly representable,
// so one correctly rounded multiply or divide); all else goes to strconv.
func parseNumber(b []byte) (float64, bool) {
	n := len(b)
	if n == 0 {
		return 0, false
	}
	i := 0
	neg := false
	if b[0] == '+' || b[0] == '-' {
		neg = b[0] == '-'
		i++
		if i == n {
			return 0, false
		}
	}
	switch c := b[i]; {
	case c == 'i' || c == 'I' || c == 'n' || c == 'N':
		if r := b[i:]; (len(r) == 3 || len(r) == 8) && (strings.EqualFold(string(r), "inf") ||
			strings.EqualFold(string(r), "infinity") || strings.EqualFold(string(r), "nan")) {
			return parseSlow(b)
		}
		return 0, false
	case c == '0' && i+1 < n && (b[i+1] == 'x' || b[i+1] == 'X'):
		return parseSlow(b)
	}
	var mant uint64
	ds := i
	for i < n {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		mant = mant*10 + uint64(d)
		i++
	}
	nd, exp := i-ds, 0 // digits read; decimal exponent
	if i < n && b[i] == '.' {
		i++
		fs := i
		for i < n {
			d := b[i] - '0'
			if d > 9 {
				break
			}
			mant = mant*10 + uint64(d)
			i++
		}
		nd += i - fs
		exp = fs - i
	}
	if nd == 0 {
		return 0, false
	}
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i == n {
			return 0, false
		}
		eneg := false
		if b[i] == '+' || b[i] == '-' {
			eneg = b[i] == '-'
			i++
		}
		if i == n || b[i] < '0' || b[i] > '9' {
			return 0, false
		}
		e := 0
		for ; i < n && b[i] >= '0' && b[i] <= '9'; i++ {
			if e < 100000 {
				e = e*10 + int(b[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != n {
		if b[i] == '_' { // Go-style digit separators, which strconv takes
			return parseSlow(b)
		}
		return 0, false
	}
	if nd > 19 || mant > 1<<53 || exp < -22 || exp > 22 { // mant may have overflowed, or is inexact
		return parseSlow(b)
	}
	f := float64(mant)
	if exp >= 0 {
		f *= pow10[exp]
	} else {
		f /= pow10[-exp]
	}
	if neg {
		f = -f
	}
	return f, true
}

func parseSlow(b []byte) (float64, bool) {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// rowStore grows a table's values row by row in chunks, so that a large
// load never holds a slice being doubled beside its copy; dense joins them.
type rowStore struct {
	p      int
	chunks [][]float64 // full chunks, each a whole number of rows
	cur    []float64
	rows   int
	next   int // capacity (rows) of the next chunk
}

const chunkFloats = 1 << 20 // 8 MiB per chunk once the table is large

func newRowStore(p, hintRows int) *rowStore {
	s := &rowStore{p: p, next: max(min(256, chunkFloats/max(p, 1)), 1)}
	if hintRows > 0 {
		s.next = hintRows
	}
	return s
}

// newRow returns the slice to fill with the next row's p values.
func (s *rowStore) newRow() []float64 {
	n := len(s.cur)
	if n+s.p > cap(s.cur) {
		if n > 0 {
			s.chunks = append(s.chunks, s.cur)
		}
		rows := s.next
		s.cur = make([]float64, 0, rows*s.p)
		s.next = min(max(s.rows, 256), max(chunkFloats/s.p, 1))
		n = 0
	}
	s.cur = s.cur[:n+s.p]
	s.rows++
	return s.cur[n : n+s.p : n+s.p]
}

// column calls fn on every stored value of column j, in row order, except
// those of the last exclude rows.
func (s *rowStore) column(j, exclude int, fn func(v *float64)) {
	left := s.rows - exclude
	for _, ch := range append(s.chunks, s.cur) {
		for k := j; k < len(ch) && left > 0; k += s.p {
			fn(&ch[k])
			left--
		}
	}
}

// dense returns the rows as a matrix; the store must not be used after.
func (s *rowStore) dense() *mat.Dense {
	if len(s.chunks) == 0 {
		data := s.cur[:s.rows*s.p]
		// A hint that overshot: give the memory back (the table lives as long
		// as the data, and its copy now costs less than its slack later).
		if cap(data) > len(data)+len(data)/64+4096 {
			data = append([]float64(nil), data...)
		}
		return mat.NewDense(s.rows, s.p, data)
	}
	data := make([]float64, 0, s.rows*s.p)
	for i, ch := range s.chunks {
		data = append(data, ch...)
		s.chunks[i] = nil
	}
	data = append(data, s.cur...)
	s.cur = nil
	return mat.NewDense(s.rows, s.p, data)
}

// nan is the missing value.
var nan = math.NaN()

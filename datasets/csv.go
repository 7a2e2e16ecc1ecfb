package datasets

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// ReadDelimited reads a delimited text table (CSV, TSV...). name is used in
// error messages ("name:line: ...") and, without its extension, as
// Table.Name. delim 0 sniffs the delimiter among comma, tab, semicolon and
// pipe: the one that splits the first lines into the same number (> 1) of
// fields wins, commas first on a tie (tabs for a name ending in .tsv).
//
// The rules, in the order they apply:
//   - Text: UTF-8 (a BOM is skipped), LF or CRLF line ends, RFC 4180 quoting
//     (delimiters, doubled quotes "" and line breaks inside quoted fields).
//     Excel's "sep=;" first line sets the delimiter.
//     Spaces around unquoted fields are trimmed; blank lines are skipped.
//   - Missing values: an empty field, ?, NA, N/A, n/a, NaN, nan, NULL, null.
//   - Types: a column is numeric when every non-missing value is a number;
//     otherwise it is nominal, its levels in order of first appearance. In a
//     nominal column a number is named by its shortest form ("2.0" and "2"
//     are the level "2").
//   - A typo guard: a column in which 1 to 3 values are not numbers while at
//     least 90% of its values are is almost always a typo, not a nominal
//     column, so it is an error naming the first such value's line.
//   - Header: the first line names the columns unless it looks like data:
//     it holds a number, and none of its fields is a word standing in a
//     column whose next (up to 100) lines are all numbers, or a word never
//     seen in a column whose next lines repeat a few words. Headerless
//     columns are named col1..colN; an empty or repeated name gets a
//     col<N> name or a ".1", ".2"... suffix.
//   - Row names: a first column with an empty header field and a distinct
//     value in every row is the rows' names (Table.RowNames), not a column:
//     R's write.csv and pandas' to_csv write row names so (1..n, 0..n-1,
//     or labels such as car names). Table.RowNamesAsColumn reads them back
//     as a column named col1. An unnamed first column whose values repeat
//     stays a column (Column.Unnamed).
//   - Limits: a field may hold 1 MiB, a line 16 MiB; NUL bytes and invalid
//     UTF-8 are "not a text file". Each of these is an error naming the line.
func ReadDelimited(r io.Reader, name string, delim rune) (*Table, error) {
	file := name
	if file == "" {
		file = "input"
	}
	o := delimOpts{file: file, name: tableName(name), prefer: ',', sizeHint: sizeOf(r)}
	if f, ok := r.(*os.File); ok && o.sizeHint > 0 {
		o.lines = countLines(f, o.sizeHint)
	}
	if strings.HasSuffix(strings.ToLower(name), ".tsv") || strings.HasSuffix(strings.ToLower(name), ".tsv.gz") {
		o.prefer = '\t'
	}
	if delim != 0 {
		if delim >= 0x80 || delim == '"' || delim == '\n' || delim == '\r' {
			return nil, fmt.Errorf("%s: delimiter %q: use one ASCII character other than a quote or a line break", file, delim)
		}
		o.delim = byte(delim)
	}
	return readDelimited(r, o)
}

// sizeOf guesses the bytes left in r (files, bytes and strings readers), so
// that the matrix can be allocated once; 0 when it cannot tell.
func sizeOf(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case io.Seeker:
		cur, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0
		}
		if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > cur {
				return fi.Size() - cur
			}
		}
	}
	return 0
}

type delimOpts struct {
	file     string // name in error messages
	name     string // Table.Name
	delim    byte   // 0 = sniff
	prefer   byte   // sniffing tie-breaker
	sizeHint int64  // expected input size in bytes, to size the matrix once; 0 = unknown
	lines    int64  // line feeds in the input, when counted (0 = not): records are at most one more
}

const (
	readChunk  = 256 << 10
	sniffBytes = 64 << 10
	maxFields  = 1 << 18 // columns in one record
	sampleRows = 100     // lines after the first that decide whether it is a header
)

func readDelimited(r io.Reader, o delimOpts) (*Table, error) {
	size := sniffBytes + 4096
	if o.sizeHint > 0 && o.sizeHint < int64(size) {
		size = int(o.sizeHint) + 512 // a small input: a small buffer
	}
	s := &scanner{r: r, file: o.file, buf: make([]byte, size), line: 1}
	s.fillTo(sniffBytes)
	if s.end == 0 && s.rerr != nil {
		return nil, errAt(o.file, 0, "%v", s.rerr)
	}
	head := s.buf[:s.end]
	if err := checkStart(o.file, head); err != nil {
		return nil, err
	}
	if bytes.HasPrefix(head, utf8BOM) {
		s.pos = len(utf8BOM)
	}
	if err := checkHead(o.file, head, s.eof); err != nil {
		return nil, err
	}
	d := o.delim
	if sep, n := excelSep(s.buf[s.pos:s.end]); sep != 0 {
		s.pos += n
		s.consumed += int64(n)
		s.line++
		if d == 0 {
			d = sep
		}
	}
	if d == 0 {
		d = s.sniff(o.prefer)
	}
	s.setDelim(d)
	if !s.eof { // a large input: read it in bigger pieces
		nb := make([]byte, readChunk)
		s.end = copy(nb, s.buf[s.pos:s.end])
		s.buf, s.pos = nb, 0
	}

	first, line1, err := s.nextNonBlank()
	if err != nil {
		return nil, err
	}
	if first == nil {
		return nil, errAt(o.file, 0, "empty file")
	}
	p := len(s.fields)
	row1 := s.record(first, line1)
	var sample []record
	for len(sample) < sampleRows {
		rec, line, err := s.nextNonBlank()
		if err != nil {
			return nil, err
		}
		if rec == nil {
			break
		}
		if len(s.fields) != p {
			return nil, raggedErr(o.file, line, len(s.fields), p, line1, d)
		}
		sample = append(sample, s.record(rec, line))
	}
	header := isHeader(row1, sample)

	hintRows := 0
	if o.lines > 1 {
		hintRows = int(o.lines) + 1
	} else if o.sizeHint > s.consumed && s.consumed > 0 {
		bpr := float64(s.consumed) / float64(1+len(sample))
		est := float64(o.sizeHint-s.consumed)/bpr*1.1 + float64(len(sample)) + 64
		if limit := float64(4*o.sizeHint+(1<<20)) / 8 / float64(p); est > limit {
			est = limit
		}
		hintRows = int(est)
	}
	b := newBuilder(p, hintRows)
	if header {
		b.setNames(&row1)
	} else {
		b.setNames(nil)
		b.add(row1.rec, row1.fields, line1)
	}
	for _, r := range sample {
		b.add(r.rec, r.fields, r.line)
	}
	sample, s.recArena, s.fieldArena = nil, nil, nil
	for {
		rec, line, err := s.next()
		if err != nil {
			return nil, err
		}
		if rec == nil {
			break
		}
		if s.blank() {
			continue
		}
		if len(s.fields) != p {
			return nil, raggedErr(o.file, line, len(s.fields), p, line1, d)
		}
		b.add(rec, s.fields, line)
	}
	if b.store.rows == 0 {
		return nil, errAt(o.file, line1, "a header but no data rows")
	}
	cols, err := b.finish(o.file)
	if err != nil {
		return nil, err
	}
	t := &Table{Name: o.name, Source: o.file, Columns: cols, Data: b.store.dense()}
	t.takeRowNames()
	return t, nil
}

// excelSep recognises the "sep=;" first line that Excel writes and reads,
// returning the delimiter and the line's length.
func excelSep(b []byte) (byte, int) {
	if len(b) < 6 || !bytes.EqualFold(b[:4], []byte("sep=")) || b[4] >= 0x80 || b[4] == '"' {
		return 0, 0
	}
	switch {
	case b[5] == '\n':
		return b[4], 6
	case b[5] == '\r' && len(b) > 6 && b[6] == '\n':
		return b[4], 7
	}
	return 0, 0
}

func raggedErr(file string, line, got, want, line1 int, d byte) error {
	if got > want {
		return errAt(file, line, "%s, expected %d as on line %d (a stray %s, or a value holding one that should be quoted?)",
			plural(got, "field"), want, line1, delimName(d))
	}
	return errAt(file, line, "%s, expected %d as on line %d", plural(got, "field"), want, line1)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func delimName(d byte) string {
	switch d {
	case ',':
		return "comma"
	case '\t':
		return "tab"
	case ';':
		return "semicolon"
	case '|':
		return "pipe"
	}
	return strconv.QuoteRune(rune(d))
}

// checkHead rejects binary data early, before a long line can hide it.
func checkHead(file string, head []byte, eof bool) error {
	if !eof {
		if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
			head = head[:i+1]
		}
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return errAt(file, 1+bytes.Count(head[:i], nl), "not a text file (NUL byte)")
	}
	return checkText(file, 1, head)
}

// isHeader decides whether the first record names the columns (see
// ReadDelimited for the rule), given the records after it.
func isHeader(row1 record, sample []record) bool {
	numbers := 0
	for j := range row1.fields {
		v := row1.val(j)
		if isMissing(v) {
			continue
		}
		if x, ok := parseNumber(v); ok && x == x {
			numbers++
			continue
		}
		nums, words := 0, 0
		seen := map[string]bool{}
		for _, rec := range sample {
			w := rec.val(j)
			if isMissing(w) {
				continue
			}
			if x, ok := parseNumber(w); ok && x == x {
				nums++
			} else {
				words++
				seen[string(w)] = true
			}
		}
		if nums > 0 && words == 0 {
			return true // a word above a numeric column
		}
		if words >= 4 && 2*len(seen) <= words && !seen[string(v)] {
			return true // a new word above a column of a few repeated words
		}
	}
	return numbers == 0
}

// colState is what a column has shown so far.
type colState struct {
	name    string
	unnamed bool // the header left the name empty
	nominal bool
	index   map[string]int
	levels  []string
	missing int
	nums    int // non-missing values that are numbers
	words   int // non-missing values that are not
	badLine int // first word: its line and text
	badVal  string
}

// builder infers column types while it stores values: numbers are parsed as
// they come, and a column keeps strings only once a word shows up in it.
type builder struct {
	p       int
	cols    []colState
	store   *rowStore
	scratch []byte
}

func newBuilder(p, hintRows int) *builder {
	return &builder{p: p, cols: make([]colState, p), store: newRowStore(p, hintRows)}
}

// setNames names the columns from a header record, or col1..colN for nil.
func (b *builder) setNames(header *record) {
	used := make(map[string]bool, b.p)
	for j := range b.cols {
		name := ""
		if header != nil {
			name = string(header.val(j))
		}
		if name == "" {
			name = "col" + strconv.Itoa(j+1)
			b.cols[j].unnamed = header != nil
		}
		if used[name] {
			base := name
			for k := 1; used[name]; k++ {
				name = base + "." + strconv.Itoa(k)
			}
		}
		used[name] = true
		b.cols[j].name = name
	}
}

// add stores one record. A numeric column counts only its missing values;
// toNominal works out how many numbers it held.
func (b *builder) add(rec []byte, fields []field, line int) {
	row := b.store.newRow()
	cols := b.cols[:len(fields)]
	for j, f := range fields {
		v := rec[f.s:f.e]
		c := &cols[j]
		if !c.nominal {
			x, ok := parseNumber(v)
			if ok && x-x == 0 { // finite
				row[j] = x
				continue
			}
			if ok || isMissing(v) { // NaN and ±Inf are missing (MissingRule)
				row[j] = nan
				c.missing++
				continue
			}
			b.toNominal(j)
		}
		row[j] = b.level(c, v, line)
	}
}

// level returns the level code of v in nominal column c, adding the level if
// it is new.
func (b *builder) level(c *colState, v []byte, line int) float64 {
	key := v
	if x, ok := parseNumber(v); ok {
		if x != x {
			c.missing++
			return nan
		}
		c.nums++
		b.scratch = strconv.AppendFloat(b.scratch[:0], x, 'g', -1, 64)
		key = b.scratch
	} else {
		if isMissing(v) {
			c.missing++
			return nan
		}
		c.words++
		if c.words == 1 {
			c.badLine, c.badVal = line, string(v)
		}
	}
	if k, ok := c.index[string(key)]; ok {
		return float64(k)
	}
	s := string(key)
	k := len(c.levels)
	c.levels = append(c.levels, s)
	c.index[s] = k
	return float64(k)
}

// toNominal turns numeric column j into a nominal one: the numbers stored so
// far become levels named by their shortest form.
func (b *builder) toNominal(j int) {
	c := &b.cols[j]
	c.nominal = true
	c.nums = b.store.rows - 1 - c.missing // the rows before the current one
	c.index = map[string]int{}
	b.store.column(j, 1, func(v *float64) {
		if *v != *v {
			return
		}
		b.scratch = strconv.AppendFloat(b.scratch[:0], *v, 'g', -1, 64)
		k, ok := c.index[string(b.scratch)]
		if !ok {
			k = len(c.levels)
			s := string(b.scratch)
			c.levels = append(c.levels, s)
			c.index[s] = k
		}
		*v = float64(k)
	})
}

// finish applies the typo guard and describes the columns.
func (b *builder) finish(file string) ([]Column, error) {
	cols := make([]Column, b.p)
	for j := range b.cols {
		c := &b.cols[j]
		if c.nominal && c.words >= 1 && c.words <= 3 && 10*c.nums >= 9*(c.nums+c.words) {
			return nil, errAt(file, c.badLine,
				"column %q: %q is not a number, but %d of the column's %d values are; fix it, or mark a missing value with ?, NA or an empty field",
				c.name, c.badVal, c.nums, c.nums+c.words)
		}
		cols[j] = Column{Name: c.name, Kind: Numeric, Missing: c.missing, Unnamed: c.unnamed}
		if c.nominal {
			cols[j].Kind = Nominal
			cols[j].Levels = c.levels
		}
		c.index = nil
	}
	return cols, nil
}

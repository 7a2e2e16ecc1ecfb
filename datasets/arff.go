package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

type attrKind uint8

const (
	attrNumeric attrKind = iota
	attrNominal
	attrString
	attrDate
)

type arffAttr struct {
	name   string
	line   int
	kind   attrKind
	levels []string
	index  map[string]int
	layout string // Go layout of a date attribute
	format string // its Java pattern, for messages
}

// readARFF reads Weka's ARFF format (Witten, Frank & Hall, Data Mining, ch. 2
// and Weka's ArffLoader, whose tokenizer it follows); LoadFile and ReadFrom
// call it. file names the input in error messages; name is Table.Name.
//
//   - Keywords (@relation, @attribute, @data) and types are case-insensitive.
//   - Names and values may be quoted with ' or " (escapes \' \" \\ \t \n \r);
//     % starts a comment anywhere outside quotes; commas, spaces and tabs all
//     separate values, as in Weka.
//   - numeric, integer and real attributes are numeric; {a, b, 'c d'} is
//     nominal with the declared levels, in order.
//   - string attributes are loaded as nominal, their levels the distinct
//     values in order of first appearance.
//   - date ["pattern"] attributes become numeric Unix seconds (UTC unless the
//     pattern has a zone). The pattern is Java's SimpleDateFormat, default
//     "yyyy-MM-dd'T'HH:mm:ss"; the letters y M d H h m s S a E z Z X are
//     understood.
//   - relational attributes are an error.
//   - ? is a missing value (a quoted '?' is the text "?").
//   - Sparse rows {3 1.5, 7 yes} list the non-default values by 0-based
//     index; unlisted numeric and date values are 0, nominal ones the first
//     level, string ones missing. A trailing instance weight {w} is ignored.
//
// Every error names the line, and for values the column, at fault; a value
// outside a nominal attribute's levels lists the valid levels.
func readARFF(r io.Reader, file, name string) (*Table, error) {
	lr := &lineReader{br: bufio.NewReaderSize(r, 64<<10), file: file}
	head, perr := lr.br.Peek(64 << 10)
	if len(head) > 0 {
		if err := checkStart(file, head); err != nil {
			return nil, err
		}
		if i := bytes.IndexByte(head, 0); i >= 0 {
			return nil, errAt(file, 1+bytes.Count(head[:i], nl), "not a text file (NUL byte)")
		}
		if bytes.HasPrefix(head, utf8BOM) {
			lr.br.Discard(len(utf8BOM))
		}
	} else {
		if perr != nil && perr != io.EOF {
			return nil, errAt(file, 0, "%v", perr)
		}
		return nil, errAt(file, 0, "empty file")
	}
	tk := &arffTokenizer{file: file}
	var attrs []arffAttr
	byName := map[string]int{}
	dataLine := 0
	sawText := false
	for dataLine == 0 {
		line, toks, err := tk.next(lr)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		sawText = true
		kw := ""
		if toks[0].kind == tokWord {
			kw = strings.ToLower(string(toks[0].text))
		}
		switch kw {
		case "@relation":
			if len(toks) < 2 || toks[1].kind > tokQuoted {
				return nil, errAt(file, lr.line, "@relation needs a name")
			}
		case "@attribute":
			a, err := parseAttribute(file, lr.line, toks[1:])
			if err != nil {
				return nil, err
			}
			if prev, dup := byName[a.name]; dup {
				return nil, errAt(file, lr.line, "attribute %q is declared twice (first on line %d)", a.name, attrs[prev].line)
			}
			byName[a.name] = len(attrs)
			attrs = append(attrs, a)
		case "@data":
			if len(attrs) == 0 {
				return nil, errAt(file, lr.line, "@data before any @attribute")
			}
			if len(toks) > 1 {
				return nil, errAt(file, lr.line, "put the data on the lines after @data")
			}
			dataLine = lr.line
		case "@end":
			return nil, errAt(file, lr.line, "@end without a relational attribute")
		default:
			return nil, errAt(file, lr.line, "expected @relation, @attribute or @data, found %q", clip(line, 40))
		}
	}
	if dataLine == 0 {
		if !sawText {
			return nil, errAt(file, 0, "empty file")
		}
		return nil, errAt(file, 0, "no @data section")
	}

	p := len(attrs)
	store := newRowStore(p, 0)
	defaults := make([]float64, p)
	for j := range attrs {
		if attrs[j].kind == attrString {
			defaults[j] = nan
		}
	}
	missing := make([]int, p)
	for {
		_, toks, err := tk.next(lr)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		toks = dropWeight(toks)
		row := store.newRow()
		if toks[0].kind == tokOpen {
			if err := sparseRow(file, lr.line, toks, attrs, defaults, row); err != nil {
				return nil, err
			}
		} else {
			if len(toks) != p {
				return nil, errAt(file, lr.line, "%s, expected %d (one per @attribute)", plural(len(toks), "value"), p)
			}
			for j := range toks {
				if row[j], err = attrs[j].value(file, lr.line, toks[j]); err != nil {
					return nil, err
				}
			}
		}
		for j, v := range row {
			if v != v {
				missing[j]++
			}
		}
	}
	if store.rows == 0 {
		return nil, errAt(file, dataLine, "no data rows after @data")
	}
	cols := make([]Column, p)
	for j, a := range attrs {
		cols[j] = Column{Name: a.name, Kind: Numeric, Missing: missing[j]}
		if a.kind == attrNominal || a.kind == attrString {
			cols[j].Kind = Nominal
			cols[j].Levels = a.levels
			if cols[j].Levels == nil {
				cols[j].Levels = []string{}
			}
		}
	}
	return &Table{Name: name, Source: file, Columns: cols, Data: store.dense()}, nil
}

// dropWeight removes a trailing instance weight "{w}" (Weka 3.6+).
func dropWeight(toks []token) []token {
	n := len(toks)
	if n >= 4 && toks[n-3].kind == tokOpen && toks[n-2].kind == tokWord && toks[n-1].kind == tokClose {
		if _, ok := parseNumber(toks[n-2].text); ok {
			// A sparse row's own closing brace comes before the weight.
			if toks[0].kind != tokOpen || toks[n-4].kind == tokClose {
				return toks[:n-3]
			}
		}
	}
	return toks
}

func sparseRow(file string, line int, toks []token, attrs []arffAttr, defaults, row []float64) error {
	copy(row, defaults)
	p := len(attrs)
	i, last := 1, -1
	for {
		if i >= len(toks) {
			return errAt(file, line, "sparse row without its closing }")
		}
		if toks[i].kind == tokClose {
			if i != len(toks)-1 {
				return errAt(file, line, "text after the closing } of a sparse row")
			}
			return nil
		}
		if toks[i].kind != tokWord || i+1 >= len(toks) || toks[i+1].kind > tokQuoted {
			return errAt(file, line, "sparse row: expected \"index value\" pairs, found %q", clip(toks[i].text, 20))
		}
		idx, err := strconv.Atoi(string(toks[i].text))
		if err != nil || idx < 0 || idx >= p {
			return errAt(file, line, "sparse row: index %q is not an attribute number 0..%d", toks[i].text, p-1)
		}
		if idx <= last {
			return errAt(file, line, "sparse row: index %d after %d; indices must increase", idx, last)
		}
		last = idx
		if row[idx], err = attrs[idx].value(file, line, toks[i+1]); err != nil {
			return err
		}
		i += 2
	}
}

// value converts one data token for attribute a.
func (a *arffAttr) value(file string, line int, t token) (float64, error) {
	if t.kind > tokQuoted {
		return 0, errAt(file, line, "column %q: unexpected %q", a.name, t.text)
	}
	if t.kind == tokWord && len(t.text) == 1 && t.text[0] == '?' {
		return nan, nil
	}
	switch a.kind {
	case attrNumeric:
		x, ok := parseNumber(t.text)
		if !ok {
			return 0, errAt(file, line, "column %q: %q is not a number", a.name, clip(t.text, 40))
		}
		if math.IsInf(x, 0) {
			return nan, nil // missing, as NaN is (MissingRule)
		}
		return x, nil
	case attrNominal:
		if k, ok := a.index[string(t.text)]; ok {
			return float64(k), nil
		}
		return 0, errAt(file, line, "column %q: %q is not one of its levels {%s}", a.name, clip(t.text, 40), levelList(a.levels))
	case attrString:
		if k, ok := a.index[string(t.text)]; ok {
			return float64(k), nil
		}
		s := string(t.text)
		a.index[s] = len(a.levels)
		a.levels = append(a.levels, s)
		return float64(len(a.levels) - 1), nil
	default: // date
		tm, err := time.ParseInLocation(a.layout, string(t.text), time.UTC) // a zone in the value wins
		if err != nil {
			return 0, errAt(file, line, "column %q: %q does not match the date pattern %q", a.name, clip(t.text, 40), a.format)
		}
		return float64(tm.UnixNano()) / 1e9, nil
	}
}

func levelList(levels []string) string {
	var sb strings.Builder
	for i, l := range levels {
		if i > 0 {
			sb.WriteString(", ")
		}
		if i == 20 && len(levels) > 22 {
			fmt.Fprintf(&sb, "... %d more", len(levels)-20)
			break
		}
		if strings.ContainsFunc(l, func(r rune) bool { return r < ' ' || r == 0x7f || r == ',' || r == '{' || r == '}' }) {
			l = strconv.Quote(l) // keep the message on one line and unambiguous
		}
		sb.WriteString(l)
	}
	return sb.String()
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

func parseAttribute(file string, line int, toks []token) (arffAttr, error) {
	if len(toks) == 0 || toks[0].kind > tokQuoted {
		return arffAttr{}, errAt(file, line, "@attribute needs a name and a type")
	}
	a := arffAttr{name: string(toks[0].text), line: line}
	if len(toks) < 2 {
		return a, errAt(file, line, "attribute %q has no type", a.name)
	}
	t := toks[1]
	if t.kind == tokOpen {
		a.kind = attrNominal
		a.index = map[string]int{}
		i := 2
		for ; i < len(toks) && toks[i].kind != tokClose; i++ {
			if toks[i].kind == tokOpen {
				return a, errAt(file, line, "attribute %q: unexpected { in its levels", a.name)
			}
			l := string(toks[i].text)
			if _, dup := a.index[l]; dup {
				return a, errAt(file, line, "attribute %q: level %q is declared twice", a.name, l)
			}
			a.index[l] = len(a.levels)
			a.levels = append(a.levels, l)
		}
		if i == len(toks) {
			return a, errAt(file, line, "attribute %q: its levels have no closing }", a.name)
		}
		if len(a.levels) == 0 {
			return a, errAt(file, line, "attribute %q: a nominal attribute needs at least one level", a.name)
		}
		if i != len(toks)-1 {
			return a, errAt(file, line, "attribute %q: text %q after the closing }", a.name, toks[i+1].text)
		}
		return a, nil
	}
	typ := strings.ToLower(string(t.text))
	extra := toks[2:]
	switch typ {
	case "numeric", "integer", "real":
		a.kind = attrNumeric
	case "string":
		a.kind = attrString
		a.index = map[string]int{}
	case "date":
		a.kind = attrDate
		a.format = "yyyy-MM-dd'T'HH:mm:ss"
		if len(extra) > 0 {
			a.format = string(extra[0].text)
			extra = extra[1:]
		}
		layout, err := javaDateLayout(a.format)
		if err != nil {
			return a, errAt(file, line, "attribute %q: date pattern %q: %v", a.name, a.format, err)
		}
		a.layout = layout
	case "relational":
		return a, errAt(file, line, "attribute %q: relational (multi-instance) attributes are not supported", a.name)
	default:
		return a, errAt(file, line, "attribute %q: unknown type %q (valid: numeric, integer, real, string, date, {level, ...})", a.name, clip(t.text, 40))
	}
	if len(extra) > 0 {
		return a, errAt(file, line, "attribute %q: unexpected %q after its type", a.name, clip(extra[0].text, 40))
	}
	return a, nil
}

// javaDateLayout translates a Java SimpleDateFormat pattern to a Go layout.
func javaDateLayout(pat string) (string, error) {
	var sb strings.Builder
	for i := 0; i < len(pat); {
		c := pat[i]
		if c == '\'' { // quoted literal; '' is a quote
			j := i + 1
			if j < len(pat) && pat[j] == '\'' {
				sb.WriteByte('\'')
				i += 2
				continue
			}
			for j < len(pat) && pat[j] != '\'' {
				j++
			}
			if j == len(pat) {
				return "", errors.New("unterminated quoted text")
			}
			lit := pat[i+1 : j]
			if strings.ContainsAny(lit, "0123456789") || lit != "T" && strings.ContainsAny(lit, "JFMASONDjfmasondPpZ") {
				return "", fmt.Errorf("literal text %q is not supported", lit)
			}
			sb.WriteString(lit)
			i = j + 1
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			if c >= '0' && c <= '9' {
				return "", fmt.Errorf("literal digit %q is not supported", c)
			}
			sb.WriteByte(c)
			i++
			continue
		}
		n := 1
		for i+n < len(pat) && pat[i+n] == c {
			n++
		}
		var s string
		switch c {
		case 'y':
			s = "2006"
			if n == 2 {
				s = "06"
			}
		case 'M':
			s = [...]string{"1", "01", "Jan", "January"}[min(n, 4)-1]
		case 'd':
			s = "2"
			if n >= 2 {
				s = "02"
			}
		case 'H':
			s = "15"
		case 'h':
			s = "3"
			if n >= 2 {
				s = "03"
			}
		case 'm':
			s = "4"
			if n >= 2 {
				s = "04"
			}
		case 's':
			s = "5"
			if n >= 2 {
				s = "05"
			}
		case 'S':
			if sb.Len() == 0 || !strings.HasSuffix(sb.String(), ".") && !strings.HasSuffix(sb.String(), ",") {
				return "", errors.New("S (milliseconds) must follow a . or ,")
			}
			s = strings.Repeat("0", n)
		case 'a':
			s = "PM"
		case 'E':
			s = "Mon"
			if n >= 4 {
				s = "Monday"
			}
		case 'z':
			s = "MST"
		case 'Z':
			s = "-0700"
		case 'X':
			s = [...]string{"Z07", "Z0700", "Z07:00"}[min(n, 3)-1]
		default:
			return "", fmt.Errorf("pattern letter %q is not supported", c)
		}
		sb.WriteString(s)
		i += n
	}
	return sb.String(), nil
}

type tokKind uint8

const (
	tokWord tokKind = iota
	tokQuoted
	tokOpen  // {
	tokClose // }
)

type token struct {
	kind tokKind
	text []byte
}

// arffTokenizer splits a line the way Weka's ArffLoader does; tokens are
// valid until the next call.
type arffTokenizer struct {
	file    string
	toks    []token
	scratch []byte
}

// next reads up to the next line that has tokens (blank and comment lines are
// skipped) and returns it with its tokens, or io.EOF.
func (t *arffTokenizer) next(lr *lineReader) ([]byte, []token, error) {
	for {
		line, err := lr.next()
		if err != nil {
			return nil, nil, err
		}
		toks, err := t.tokenize(line, lr.line)
		if err != nil || len(toks) > 0 {
			return line, toks, err
		}
	}
}

func isARFFSpace(c byte) bool { return c <= ' ' || c == ',' }

func (t *arffTokenizer) tokenize(line []byte, lineNo int) ([]token, error) {
	t.toks = t.toks[:0]
	if cap(t.scratch) < len(line) {
		t.scratch = make([]byte, 0, len(line))
	}
	t.scratch = t.scratch[:0]
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case isARFFSpace(c):
			i++
		case c == '%':
			return t.toks, nil
		case c == '{':
			t.toks = append(t.toks, token{tokOpen, line[i : i+1]})
			i++
		case c == '}':
			t.toks = append(t.toks, token{tokClose, line[i : i+1]})
			i++
		case c == '\'' || c == '"':
			q := c
			start := len(t.scratch)
			j := i + 1
			for ; j < len(line) && line[j] != q; j++ {
				b := line[j]
				if b == '\\' && j+1 < len(line) {
					j++
					switch b = line[j]; b {
					case 'n':
						b = '\n'
					case 't':
						b = '\t'
					case 'r':
						b = '\r'
					}
				}
				t.scratch = append(t.scratch, b) // within capacity: never longer than line
			}
			if j == len(line) {
				return nil, errAt(t.file, lineNo, "the quoted text %q is not closed on this line", clip(line[i:], 20))
			}
			t.toks = append(t.toks, token{tokQuoted, t.scratch[start:len(t.scratch):len(t.scratch)]})
			i = j + 1
		default:
			j := i
			for j < len(line) {
				b := line[j]
				if isARFFSpace(b) || b == '%' || b == '{' || b == '}' || b == '\'' || b == '"' {
					break
				}
				j++
			}
			t.toks = append(t.toks, token{tokWord, line[i:j]})
			i = j
		}
	}
	return t.toks, nil
}

// lineReader reads lines of at most maxRecord bytes, checking that they are
// text.
type lineReader struct {
	br   *bufio.Reader
	file string
	line int
	long []byte
}

// next returns the next line without its line end, or io.EOF.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			if len(l.long) > maxRecord {
				return nil, errAt(l.file, l.line+1, "line longer than 16 MiB (is this an ARFF file?)")
			}
			b, err = l.br.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if err != nil && err != io.EOF {
		return nil, errAt(l.file, l.line+1, "%v", err)
	}
	if len(b) == 0 {
		return nil, io.EOF
	}
	l.line++
	if len(b) > maxRecord {
		return nil, errAt(l.file, l.line, "line longer than 16 MiB (is this an ARFF file?)")
	}
	b = bytes.TrimSuffix(b, nl)
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if err := checkText(l.file, l.line, b); err != nil {
		return nil, err
	}
	return b, nil
}

package datasets

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The expected values in these tests are read off the inputs by hand; the
// fixtures' counts and levels are cross-checked with Python's csv module and
// scipy.io.arff by testdata/verify_fixtures.py.

func readString(t *testing.T, name, text string, delim rune) *Table {
	t.Helper()
	tb, err := ReadDelimited(strings.NewReader(text), name, delim)
	if err != nil {
		t.Fatalf("ReadDelimited(%q): %v", name, err)
	}
	checkDims(t, tb)
	return tb
}

func checkDims(t *testing.T, tb *Table) {
	t.Helper()
	r, c := tb.Data.Dims()
	if c != len(tb.Columns) || r == 0 {
		t.Fatalf("Data is %dx%d for %d columns", r, c, len(tb.Columns))
	}
}

// wantErr checks that err is a one-line message holding every part.
func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", parts)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not contain %q", msg, p)
		}
	}
}

// colValues copies column j of the table.
func colValues(tb *Table, j int) []float64 {
	n := tb.Rows()
	out := make([]float64, n)
	for i := range out {
		out[i] = tb.Data.At(i, j)
	}
	return out
}

// sameFloats compares with NaN equal to NaN.
func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

func names(tb *Table) []string {
	out := make([]string, len(tb.Columns))
	for i, c := range tb.Columns {
		out[i] = c.Name
	}
	return out
}

var NaN = math.NaN()

func TestReadDelimitedQuirks(t *testing.T) {
	// testdata/quirks.csv: UTF-8 BOM, CRLF, a quoted header name with spaces
	// around it, an embedded comma, doubled quotes, a line break inside quotes,
	// ?, NA, empty and N/A as missing, a blank line, spaces to trim.
	tb, err := LoadFile("testdata/quirks.csv")
	if err != nil {
		t.Fatal(err)
	}
	checkDims(t, tb)
	if got, want := names(tb), []string{"id", "sepal length", "species", "note"}; !reflect.DeepEqual(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	if tb.Name != "quirks" || tb.Source != "testdata/quirks.csv" {
		t.Errorf("Name %q Source %q", tb.Name, tb.Source)
	}
	if !sameFloats(colValues(tb, 0), []float64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("id = %v", colValues(tb, 0))
	}
	if got := colValues(tb, 1); !sameFloats(got, []float64{5.1, 4.9, NaN, NaN, NaN, 6.3}) {
		t.Errorf("sepal length = %v", got)
	}
	want := []Column{
		{Name: "id", Kind: Numeric},
		{Name: "sepal length", Kind: Numeric, Missing: 3},
		{Name: "species", Kind: Nominal, Levels: []string{"setosa", "versicolor", "virginica"}},
		{Name: "note", Kind: Nominal, Levels: []string{"plain", "with, comma", `say "hi"`, "two\r\nlines"}, Missing: 2},
	}
	if !reflect.DeepEqual(tb.Columns, want) {
		t.Errorf("columns\n got %+v\nwant %+v", tb.Columns, want)
	}
	if got := colValues(tb, 2); !sameFloats(got, []float64{0, 0, 1, 1, 2, 2}) {
		t.Errorf("species codes %v", got)
	}
	if got := colValues(tb, 3); !sameFloats(got, []float64{0, 1, 2, 3, NaN, NaN}) {
		t.Errorf("note codes %v", got)
	}
}

func TestReadDelimitedHeader(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
		rows       int
	}{
		{"words over numbers", "a,b,c\n1,2,3\n4,5,6\n", []string{"a", "b", "c"}, 2},
		{"numbers only", "1,2,3\n4,5,6\n", []string{"col1", "col2", "col3"}, 2},
		{"one numeric row", "1,2,3\n", []string{"col1", "col2", "col3"}, 1},
		{"data with a nominal column", "5.1,3.5,setosa\n4.9,3.0,setosa\n6.3,2.9,virginica\n",
			[]string{"col1", "col2", "col3"}, 3},
		{"all nominal: header by default", "x,y\nred,big\nblue,small\n", []string{"x", "y"}, 2},
		{"numeric names over data", "0,1,label\n3,4,a\n5,6,b\n7,8,a\n9,9,b\n1,1,a\n",
			[]string{"0", "1", "label"}, 5},
		{"a word over a numeric column", "x1,2020\n1,2\n3,4\n", []string{"x1", "2020"}, 2},
		{"missing names", "a,,c,\n1,2,3,4\n", []string{"a", "col2", "c", "col4"}, 1},
		{"repeated names", "x,x,y,x\n1,2,3,4\n", []string{"x", "x.1", "y", "x.2"}, 1},
		{"blank lines first", "\n\n  \na,b\n1,2\n", []string{"a", "b"}, 1},
		{"header with missing marker", "NA,b\n1,2\n", []string{"NA", "b"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := readString(t, "h.csv", c.text, 0)
			if got := names(tb); !reflect.DeepEqual(got, c.want) {
				t.Errorf("names %q, want %q", got, c.want)
			}
			if tb.Rows() != c.rows {
				t.Errorf("%d rows, want %d", tb.Rows(), c.rows)
			}
		})
	}
}

func TestReadDelimitedSniff(t *testing.T) {
	cases := []struct {
		name, file, text string
		cols             int
	}{
		{"comma", "a.csv", "a,b,c\n1,2,3\n", 3},
		{"tab", "a.csv", "a\tb\n1\t2\n", 2},
		{"semicolon", "a.csv", "a;b;c\n1;2;3\n", 3},
		{"semicolon, decimal commas", "a.csv", "a;b;c\n1,5;2,25;x\n3,5;4,0;y\n", 3},
		{"pipe", "a.txt", "a|b\n1|2\n", 2},
		{"commas inside quotes", "a.csv", "\"x,y\";b\n\"1,2\";3\n", 2},
		{"tie goes to the extension: tsv", "a.tsv", "a,b\tc,d\n1,2\t3,4\n", 2},
		{"tie goes to the extension: csv", "a.csv", "a,b\tc,d\n1,2\t3,4\n", 3},
		{"single column", "a.csv", "value\n1\n2\n3\n", 1},
		{"single column with a stray semicolon", "a.csv", "value\n1\n2\nx;y\n3\nz\n", 1},
		{"one ragged line", "a.csv", "a,b,c\n1,2,3\n4,5,6\n7,8,9\n", 3},
		{"Excel's sep= line", "a.csv", "sep=;\r\na;b,c\r\n1;2,5\r\n", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := readString(t, c.file, c.text, 0)
			if len(tb.Columns) != c.cols {
				t.Errorf("%d columns %q, want %d", len(tb.Columns), names(tb), c.cols)
			}
		})
	}
	// The sniffed delimiter of a long, mostly consistent file reports the
	// ragged line instead of silently reading one column.
	text := "a,b,c\n" + strings.Repeat("1,2,3\n", 10) + "1,2\n" + strings.Repeat("1,2,3\n", 10)
	_, err := ReadDelimited(strings.NewReader(text), "r.csv", 0)
	wantErr(t, err, "r.csv:12:", "2 fields, expected 3 as on line 1")
}

func TestReadDelimitedExplicitDelimiter(t *testing.T) {
	tb := readString(t, "x", "a;b,c\n1;2,3\n", ';')
	if got := names(tb); !reflect.DeepEqual(got, []string{"a", "b,c"}) {
		t.Errorf("names %q", got)
	}
	tb = readString(t, "x", "a b  c\n1 2  3\n", ' ')
	if len(tb.Columns) != 4 { // a space per field: the doubled one makes an empty field
		t.Errorf("names %q", names(tb))
	}
	for _, d := range []rune{'"', '\n', 'é'} {
		_, err := ReadDelimited(strings.NewReader("a\n1\n"), "x.csv", d)
		wantErr(t, err, "x.csv", "delimiter")
	}
}

func TestReadDelimitedMissing(t *testing.T) {
	text := "a,b\n1,x\n?,?\nNA,NA\nN/A,N/A\nn/a,n/a\nNaN,NaN\nnan,nan\nNULL,NULL\nnull,null\n,\n\"\",\"\"\n2,y\n"
	tb := readString(t, "m.csv", text, 0)
	if tb.Rows() != 12 {
		t.Fatalf("%d rows", tb.Rows())
	}
	if tb.Columns[0].Kind != Numeric || tb.Columns[0].Missing != 10 {
		t.Errorf("column a: %+v", tb.Columns[0])
	}
	if tb.Columns[1].Kind != Nominal || tb.Columns[1].Missing != 10 || !reflect.DeepEqual(tb.Columns[1].Levels, []string{"x", "y"}) {
		t.Errorf("column b: %+v", tb.Columns[1])
	}
	if got := colValues(tb, 0); !math.IsNaN(got[5]) || got[11] != 2 {
		t.Errorf("a = %v", got)
	}
}

func TestReadDelimitedTypes(t *testing.T) {
	// A nominal column whose first values are numbers: the levels keep the
	// order of first appearance, numbers in their shortest form.
	tb := readString(t, "car.csv", "doors,persons\n2,2\n3,4\n4,more\n5more,2\n2.0,4\n5more,more\n02,2\n4,more\n5more,4\n5more,more\n", 0)
	want := []Column{
		{Name: "doors", Kind: Nominal, Levels: []string{"2", "3", "4", "5more"}},
		{Name: "persons", Kind: Nominal, Levels: []string{"2", "4", "more"}},
	}
	if !reflect.DeepEqual(tb.Columns, want) {
		t.Errorf("columns\n got %+v\nwant %+v", tb.Columns, want)
	}
	if got := colValues(tb, 0); !sameFloats(got, []float64{0, 1, 2, 3, 0, 3, 0, 2, 3, 3}) {
		t.Errorf("doors codes %v", got)
	}

	// The same, with the first word after several chunks of numbers.
	var sb strings.Builder
	sb.WriteString("x,y\n")
	const n = 5000
	for i := range n {
		fmt.Fprintf(&sb, "%d,%d\n", i%7, i)
	}
	for range 500 {
		sb.WriteString("many,1\nmore,2\n")
	}
	tb = readString(t, "big.csv", sb.String(), 0)
	c := tb.Columns[0]
	if c.Kind != Nominal || !reflect.DeepEqual(c.Levels, []string{"0", "1", "2", "3", "4", "5", "6", "many", "more"}) {
		t.Errorf("x: %+v", c)
	}
	got := colValues(tb, 0)
	for i := range n {
		if got[i] != float64(i%7) {
			t.Fatalf("x[%d] = %v, want %d", i, got[i], i%7)
		}
	}
	if got[n] != 7 || got[n+1] != 8 || got[len(got)-1] != 8 {
		t.Errorf("x tail %v", got[n:n+2])
	}
	if tb.Columns[1].Kind != Numeric || tb.Rows() != n+1000 {
		t.Errorf("y: %+v, %d rows", tb.Columns[1], tb.Rows())
	}

	// Finite numbers in every form strconv accepts are numbers (infinities
	// are rejected: TestReadNonFinite).
	tb = readString(t, "f.csv", "v\n1\n-2.5\n+.5\n1e3\n-1E-2\n0x1p-2\n1e-400\n", 0)
	want2 := []float64{1, -2.5, .5, 1000, -0.01, 0.25, 0}
	if c := tb.Columns[0]; c.Kind != Numeric || !sameFloats(colValues(tb, 0), want2) {
		t.Errorf("v: %+v %v", c, colValues(tb, 0))
	}
}

func TestReadDelimitedTypoGuard(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("sepal,petal_width,species\n")
	for i := range 30 {
		w := strconv.FormatFloat(0.1*float64(i%25+1), 'f', 1, 64)
		if i == 16 {
			w = "0.2o" // line 18
		}
		fmt.Fprintf(&sb, "5.%d,%s,setosa\n", i%10, w)
	}
	_, err := ReadDelimited(strings.NewReader(sb.String()), "data.csv", 0)
	wantErr(t, err, `data.csv:18: column "petal_width": "0.2o" is not a number`, "29 of the column's 30 values are", "?, NA")

	// Four words, or fewer than 90% numbers: a nominal column, no error.
	for _, text := range []string{
		"a,b\n1,x\n2,y\n3,z\n4,w\n5,1\n6,2\n7,3\n8,4\n9,5\n10,6\n11,7\n12,8\n13,9\n14,10\n15,11\n16,12\n17,13\n18,14\n19,15\n20,16\n21,17\n22,18\n23,19\n24,20\n25,21\n26,22\n27,23\n28,24\n29,25\n30,26\n31,27\n32,28\n33,29\n34,30\n35,31\n36,32\n37,33\n38,34\n39,35\n40,36\n",
		"a,b\n1,1\n2,2\n3,3\n4,4\n5,5\n6,6\n7,7\n8,8\n9,x\n",
	} {
		tb := readString(t, "ok.csv", text, 0)
		if tb.Columns[1].Kind != Nominal {
			t.Errorf("b: %+v", tb.Columns[1])
		}
	}
}

func TestReadDelimitedErrors(t *testing.T) {
	cases := []struct {
		name, text string
		parts      []string
	}{
		{"empty", "", []string{"data.csv: empty file"}},
		{"only blank lines", "\n \r\n\n", []string{"data.csv: empty file"}},
		{"only a BOM", "\ufeff", []string{"data.csv: empty file"}},
		{"header only", "a,b,c\n", []string{"data.csv:1:", "a header but no data rows"}},
		{"header and blank lines", "\n\na,b,c\n\n\n", []string{"data.csv:3:", "no data rows"}},
		{"too many fields", "a,b,c\n1,2,3\n4,5,6\n1,2,3,4\n", []string{"data.csv:4:", "4 fields, expected 3 as on line 1", "stray comma"}},
		{"too few fields", "a,b,c\n1,2,3\n1,2\n", []string{"data.csv:3:", "2 fields, expected 3 as on line 1"}},
		{"ragged after Excel's sep= line", "sep=;\na;b\n1;2\n3\n", []string{"data.csv:4:", "1 field, expected 2 as on line 2"}},
		{"too few, late", "a,b,c\n" + strings.Repeat("1,2,3\n", 150) + "1,2\n", []string{"data.csv:152:", "2 fields, expected 3"}},
		{"ragged after a quoted line break", "a,b\n\"x\ny\",1\n3\n", []string{"data.csv:4:", "1 field, expected 2"}},
		{"unterminated quote", "a,b\n1,2\n3,\"four\n5,6\n7,8\n", []string{"data.csv:3:", "quoted field opened on this line is never closed"}},
		{"unterminated quote after a quoted break", "a,b\n\"x\ny\",\"z\n", []string{"data.csv:3:", "never closed"}},
		{"text after closing quote", "a,b\n1,\"x\"y\n", []string{"data.csv:2:", `field 2: text "y" after its closing quote`}},
		{"NUL byte", "a,b\n1,2\n3,\x004\n", []string{"data.csv:3:", "not a text file (NUL byte)"}},
		{"invalid UTF-8", "a,b\n1,caf\xe9\n", []string{"data.csv:2:", "not a text file: invalid UTF-8", "iconv"}},
		{"UTF-16", "\xff\xfea\x00,\x00b\x00", []string{"data.csv:", "UTF-16"}},
		{"gzip bytes", "\x1f\x8b\x08\x00\x00\x00", []string{"data.csv:", "gzip-compressed"}},
		{"zip bytes", "PK\x03\x04rest", []string{"data.csv:", "zip archive"}},
		{"binary garbage", "\x00\x01\x02\x03\xff\xfe\xfd", []string{"data.csv:1:", "not a text file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadDelimited(strings.NewReader(c.text), "data.csv", 0)
			wantErr(t, err, c.parts...)
		})
	}
}

// endless yields the same bytes forever, like a huge file of one line.
type endless struct {
	pattern []byte
	off     int
	read    int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.pattern[e.off]
		e.off = (e.off + 1) % len(e.pattern)
	}
	e.read += len(p)
	return len(p), nil
}

func TestReadDelimitedLimits(t *testing.T) {
	cases := []struct {
		name   string
		prefix string
		repeat string
		parts  []string
		max    int // bytes it may read before giving up
	}{
		{"one endless field", "a,b\n1,", "x", []string{"data.csv:2:", "field 2 is longer than 1 MiB"}, 2 << 20},
		{"one endless line of short fields", "", "1,", []string{"data.csv:1:", "more than 262144 fields on one line"}, 2 << 20},
		{"one endless line of 100-byte fields", "", strings.Repeat("9", 99) + ",", []string{"data.csv:1:", "longer than 16 MiB"}, 20 << 20},
		{"an endless quoted field", "a,b\n1,2\n3,\"", "x\n", []string{"data.csv:3:", "quoted field opened on this line runs past 1 MiB", "closing quote missing"}, 2 << 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := &endless{pattern: []byte(c.repeat)}
			_, err := ReadDelimited(io.MultiReader(strings.NewReader(c.prefix), src), "data.csv", ',')
			wantErr(t, err, c.parts...)
			if src.read > c.max {
				t.Errorf("read %d bytes before failing, want at most %d", src.read, c.max)
			}
		})
	}
	// A line just under the limits loads.
	long := strings.Repeat("y", maxField-10)
	tb := readString(t, "ok.csv", "a,b\n1,"+long+"\n2,z\n", 0)
	if len(tb.Columns[1].Levels[0]) != maxField-10 {
		t.Errorf("long level has %d bytes", len(tb.Columns[1].Levels[0]))
	}
}

type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestReadDelimitedReadError(t *testing.T) {
	data := "a,b\n" + strings.Repeat("1,2\n", 100000) + "3,"
	_, err := ReadDelimited(&failingReader{[]byte(data), errors.New("disk on fire")}, "data.csv", 0)
	wantErr(t, err, "data.csv:100002:", "disk on fire")
	_, err = ReadDelimited(&failingReader{nil, errors.New("disk on fire")}, "data.csv", 0)
	wantErr(t, err, "data.csv:", "disk on fire")
}

func TestReadDelimitedLineNumbers(t *testing.T) {
	// Lines are counted through CRLF, blank lines and quoted line breaks.
	text := "a,b\r\n\r\n\"x\r\ny\",1\r\n\"p\n\nq\",2\r\n\r\n3\r\n"
	_, err := ReadDelimited(strings.NewReader(text), "n.csv", 0)
	wantErr(t, err, `n.csv:9: 1 field, expected 2 as on line 1`)
}

func TestReadDelimitedDatasetMessages(t *testing.T) {
	tb := readString(t, "iris.csv", "sepal,petal,species\n5.1,1.4,setosa\n4.9,1.3,setosa\n6.3,6.0,setosa\n", 0)
	_, err := tb.Dataset("specie", Auto)
	wantErr(t, err, "iris", `no target column "specie"`, "sepal, petal, species")
	one, err := tb.Dataset("species", Auto)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, one.Trainable(), "iris", `target "species" is "setosa" in every row`)
	_, err = tb.Dataset("species", Regression)
	wantErr(t, err, `target "species" is nominal`)
	d, err := tb.Dataset("", Auto)
	if err != nil || d.Trainable() == nil {
		t.Errorf("one-class last column: %v, trainable", err)
	}
	d, err = tb.Dataset("petal", Auto)
	if err != nil || d.Task != Regression || d.Rows() != 3 {
		t.Errorf("petal target: %v %+v", err, d)
	}
}

// A Table built by code (the loaders reject infinities) with an infinite
// target: an error naming the column and the row, for every task.
func TestDatasetInfiniteTarget(t *testing.T) {
	tb := &Table{Name: "made", Columns: []Column{{Name: "x"}, {Name: "y"}},
		Data: mat.NewDense(3, 2, []float64{1, 0, 2, 1, 3, math.Inf(-1)})}
	for _, task := range []Task{Auto, Regression, Classification} {
		_, err := tb.Dataset("y", task)
		wantErr(t, err, "made", `target column "y"`, "-Inf in row 3 is not a finite number")
	}
}

func TestParseNumber(t *testing.T) {
	cases := []string{
		"0", "-0", "+0", "1", "-1", "1.", ".5", "-.5", "+.5", "0.1", "1e3", "1E+3", "1e-3",
		"123456789012345678", "1234567890123456789", "12345678901234567890", "9007199254740993",
		"0.000001234", "1.7976931348623157e308", "4.9e-324", "1e-400", "1e400", "2.2250738585072014e-308",
		"123.456e-7", "00012", "000.000", "1_000", "0x1p-2", "0X1P+3", "0x10", "inf", "-Inf", "+infinity",
		"nan", "NaN", "Nan", "info", "nano", "in", "i", "n", "", "+", "-", ".", "e5", "1e", "1e+", "1.2.3",
		"1..2", "--1", "1-", " 1", "1 ", "abc", "5more", "3.14159265358979323846264338327950288",
		"0.30000000000000004", "4503599627370496.5", "9007199254740992", "1e22", "1e23", "1e-22", "1e-23",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var s string
		switch r.IntN(4) {
		case 0:
			s = strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(40)-20)), 'g', -1, 64)
		case 1:
			s = strconv.FormatFloat(r.Float64()*1000, 'f', r.IntN(12), 64)
		case 2:
			s = strconv.FormatFloat(r.ExpFloat64(), 'e', r.IntN(20), 64)
		default:
			s = strconv.FormatInt(r.Int64N(1<<62)-1<<61, 10)
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		want, err := strconv.ParseFloat(s, 64)
		wantOK := err == nil || errors.Is(err, strconv.ErrRange)
		got, ok := parseNumber([]byte(s))
		if ok != wantOK || ok && math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("parseNumber(%q) = %v, %v; strconv says %v, %v", s, got, ok, want, wantOK)
		}
	}
}

func TestParseNumberAllocs(t *testing.T) {
	inputs := [][]byte{[]byte("3.25"), []byte("Iris-setosa"), []byte("no"), []byte("5more"), []byte("1.2.3")}
	allocs := testing.AllocsPerRun(100, func() {
		for _, b := range inputs {
			parseNumber(b)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run", allocs)
	}
}

// TestReadDelimitedRoundTrip writes random tables with awkward text (quotes,
// delimiters, line breaks, spaces, non-ASCII) as RFC 4180 text large enough
// to cross many buffer refills, and reads them back, from memory and from a
// file, with the delimiter given and sniffed.
func TestReadDelimitedRoundTrip(t *testing.T) {
	words := []string{"plain", "a,b", "semi;colon", "pi|pe", "tab\there", `say "hi"`, "two\nlines", "crlf\r\nline",
		"  spaced  ", "café", "日本", `""`, "x"}
	for ci, d := range []byte{',', '\t', ';', '|'} {
		r := rand.New(rand.NewPCG(uint64(ci), 9))
		const n = 6000
		num := make([]float64, n)
		word := make([]string, n)
		var sb strings.Builder
		sep := string(d)
		sb.WriteString("num" + sep + "\"the word\"" + sep + "int\r\n")
		quote := func(s string) string {
			if strings.ContainsAny(s, "\"\r\n"+sep) || strings.TrimSpace(s) != s {
				return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
			}
			return s
		}
		for i := range n {
			num[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(10)-5))
			if r.IntN(20) == 0 {
				num[i] = NaN
			}
			word[i] = words[r.IntN(len(words))]
			if i > 0 && r.IntN(10) == 0 {
				word[i] = strings.Repeat("long ", 200) + strconv.Itoa(i) // fields that straddle refills
			}
			ns := strconv.FormatFloat(num[i], 'g', -1, 64)
			if math.IsNaN(num[i]) {
				ns = []string{"", "?", "NA"}[r.IntN(3)]
			}
			sb.WriteString(ns + sep + quote(word[i]) + sep + strconv.Itoa(i))
			if r.IntN(2) == 0 {
				sb.WriteString("\r\n")
			} else {
				sb.WriteString("\n")
			}
		}
		text := sb.String()
		path := writeFile(t, t.TempDir(), "rt.txt", []byte(text))
		for _, delim := range []rune{rune(d), 0} {
			tb1 := readString(t, "rt.csv", text, delim)
			tb2, err := LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, tb := range []*Table{tb1, tb2} {
				if got := names(tb); !reflect.DeepEqual(got, []string{"num", "the word", "int"}) {
					t.Fatalf("delim %q: names %q", d, got)
				}
				if tb.Rows() != n {
					t.Fatalf("delim %q: %d rows", d, tb.Rows())
				}
				if !sameFloats(colValues(tb, 0), num) {
					t.Errorf("delim %q: numbers differ", d)
				}
				lv := tb.Columns[1].Levels
				for i, v := range colValues(tb, 1) {
					if lv[int(v)] != word[i] {
						t.Fatalf("delim %q: row %d word %q, want %q", d, i, lv[int(v)], word[i])
					}
					if tb.Data.At(i, 2) != float64(i) {
						t.Fatalf("delim %q: row %d int %v", d, i, tb.Data.At(i, 2))
					}
				}
			}
		}
	}
}

// An infinite number, written (inf, -Infinity) or overflowing (1e999), is
// missing in a numeric column, as NaN is (one rule: MissingRule); loaded as
// a value it would turn the imputer's and the scaler's means into ±Inf. In
// a nominal column it is just a label.
func TestReadNonFinite(t *testing.T) {
	for _, c := range []struct {
		text    string
		missing []int
	}{
		{"a,b\n1,2\n1e999,3\n", []int{1, 0}},
		{"a,b\n1,2\n3,-1e400\n4,5\n", []int{0, 1}},
		{"a,b\n1,inf\n3,4\n", []int{0, 1}},
		{"a,b\n1,2\n?,4\n-Infinity,5\ninf,6\nNaN,7\n", []int{4, 0}},
		{"1,2\n3,+Inf\n", []int{0, 1}},
	} {
		tb := readString(t, "f.csv", c.text, 0)
		for j, want := range c.missing {
			if got := tb.Columns[j]; got.Kind != Numeric || got.Missing != want {
				t.Errorf("%q: column %d %+v, want numeric with %d missing", c.text, j, got, want)
			}
		}
	}
	tb := readString(t, "f.csv", "a,b\n1,x\n2,inf\n3,y\n4,x\n", 0)
	if c := tb.Columns[1]; c.Kind != Nominal || !slices.Contains(c.Levels, "+Inf") {
		t.Errorf("inf in a nominal column: %+v", c)
	}
}

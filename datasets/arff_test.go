package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Row counts, levels and missing counts of the fixtures were read off the
// files and cross-checked with scipy.io.arff.loadarff where scipy can read
// the file (testdata/verify_fixtures.py).

func loadFixture(t *testing.T, path string) *Table {
	t.Helper()
	tb, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkDims(t, tb)
	return tb
}

func levelCounts(tb *Table, j int) map[string]int {
	out := map[string]int{}
	for i := 0; i < tb.Rows(); i++ {
		v := tb.Data.At(i, j)
		if math.IsNaN(v) {
			out["?"]++
			continue
		}
		out[tb.Columns[j].Levels[int(v)]]++
	}
	return out
}

func TestReadARFFFixtures(t *testing.T) {
	cases := []struct {
		file    string
		name    string
		rows    int
		cols    []Column // Levels and Missing checked; nil Levels for numeric
		classes map[string]int
	}{
		{"weather.nominal.arff", "weather.nominal", 14, []Column{
			{Name: "outlook", Kind: Nominal, Levels: []string{"sunny", "overcast", "rainy"}},
			{Name: "temperature", Kind: Nominal, Levels: []string{"hot", "mild", "cool"}},
			{Name: "humidity", Kind: Nominal, Levels: []string{"high", "normal"}},
			{Name: "windy", Kind: Nominal, Levels: []string{"TRUE", "FALSE"}},
			{Name: "play", Kind: Nominal, Levels: []string{"yes", "no"}},
		}, map[string]int{"yes": 9, "no": 5}},
		{"weather.numeric.arff", "weather.numeric", 14, []Column{
			{Name: "outlook", Kind: Nominal, Levels: []string{"sunny", "overcast", "rainy"}},
			{Name: "temperature", Kind: Numeric},
			{Name: "humidity", Kind: Numeric},
			{Name: "windy", Kind: Nominal, Levels: []string{"TRUE", "FALSE"}},
			{Name: "play", Kind: Nominal, Levels: []string{"yes", "no"}},
		}, map[string]int{"yes": 9, "no": 5}},
		{"contact-lenses.arff", "contact-lenses", 24, []Column{
			{Name: "age", Kind: Nominal, Levels: []string{"young", "pre-presbyopic", "presbyopic"}},
			{Name: "spectacle-prescrip", Kind: Nominal, Levels: []string{"myope", "hypermetrope"}},
			{Name: "astigmatism", Kind: Nominal, Levels: []string{"no", "yes"}},
			{Name: "tear-prod-rate", Kind: Nominal, Levels: []string{"reduced", "normal"}},
			{Name: "contact-lenses", Kind: Nominal, Levels: []string{"soft", "hard", "none"}},
		}, map[string]int{"soft": 5, "hard": 4, "none": 15}},
		{"cpu.arff", "cpu", 12, []Column{
			{Name: "MYCT"}, {Name: "MMIN"}, {Name: "MMAX"}, {Name: "CACH"}, {Name: "CHMIN"}, {Name: "CHMAX"}, {Name: "class"},
		}, nil},
		{"labor.arff", "labor", 11, []Column{
			{Name: "duration", Missing: 1},
			{Name: "wage increase first year", Missing: 1},
			{Name: "wage increase second year", Missing: 4},
			{Name: "cost-of-living-adjustment", Kind: Nominal, Levels: []string{"none", "tcf", "tc"}, Missing: 7},
			{Name: "working-hours", Missing: 3},
			{Name: "pension", Kind: Nominal, Levels: []string{"none", "ret_allw", "empl_contr"}, Missing: 5},
			{Name: "statutory-holidays", Missing: 1},
			{Name: "vacation", Kind: Nominal, Levels: []string{"below_average", "average", "generous"}, Missing: 1},
			{Name: "contribution-to-health-plan", Kind: Nominal, Levels: []string{"none", "half", "full"}, Missing: 4},
			{Name: "class", Kind: Nominal, Levels: []string{"bad", "good"}},
		}, map[string]int{"good": 7, "bad": 4}},
		{"sparse.arff", "sparse", 8, []Column{
			{Name: "the"}, {Name: "ball"}, {Name: "goal"}, {Name: "vote"}, {Name: "polling station", Missing: 1},
			{Name: "topic", Kind: Nominal, Levels: []string{"sport", "politics"}},
		}, map[string]int{"sport": 4, "politics": 4}},
		{"reviews.arff", "reviews", 6, []Column{
			{Name: "text", Kind: Nominal, Levels: []string{"a gripping, well-acted film", "the plot's holes are wide", "dull", "say \"wow\"\tthen leave"}, Missing: 1},
			{Name: "star rating"},
			{Name: "class", Kind: Nominal, Levels: []string{"pos", "neg"}},
		}, map[string]int{"pos": 3, "neg": 3}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			tb := loadFixture(t, "testdata/"+c.file)
			if tb.Name != c.name || tb.Rows() != c.rows {
				t.Errorf("name %q rows %d, want %q %d", tb.Name, tb.Rows(), c.name, c.rows)
			}
			if !reflect.DeepEqual(tb.Columns, c.cols) {
				t.Errorf("columns\n got %+v\nwant %+v", tb.Columns, c.cols)
			}
			if c.classes != nil {
				if got := levelCounts(tb, len(tb.Columns)-1); !reflect.DeepEqual(got, c.classes) {
					t.Errorf("classes %v, want %v", got, c.classes)
				}
			}
		})
	}
}

func TestReadARFFValues(t *testing.T) {
	tb := loadFixture(t, "testdata/weather.numeric.arff")
	// Means by hand: temperatures sum to 1030, humidities to 1143.
	var st, sh float64
	for i := 0; i < 14; i++ {
		st += tb.Data.At(i, 1)
		sh += tb.Data.At(i, 2)
	}
	if st != 1030 || sh != 1143 {
		t.Errorf("sums %v %v, want 1030 1143", st, sh)
	}

	// Column sums from testdata/verify_fixtures.py (scipy.io.arff.loadarff, nansum).
	for _, c := range []struct {
		file string
		sums []float64
	}{
		{"cpu.arff", []float64{1159, 121768, 348500, 772, 138, 440, 4023}},
		{"labor.arff", []float64{20, 35.3, 29.2, 0, 304, 0, 112}},
	} {
		tb := loadFixture(t, "testdata/"+c.file)
		for j, want := range c.sums {
			if tb.Columns[j].Kind != Numeric {
				continue
			}
			sum := 0.0
			for _, v := range colValues(tb, j) {
				if !math.IsNaN(v) {
					sum += v
				}
			}
			if math.Abs(sum-want) > 1e-9 {
				t.Errorf("%s column %d sums to %v, want %v", c.file, j, sum, want)
			}
		}
	}

	tb = loadFixture(t, "testdata/sparse.arff")
	want := [][]float64{
		{3, 2, 1, 0, 0, 0},
		{1, 0, 0, 2, 1, 1},
		{0, 1, 2, 0, 0, 0},
		{0, 0, 0, 1, 0, 1},
		{0, 0, 0, 0, 0, 0},
		{0, 0, 0, 0, 1, 1},
		{2, 0, 0, 0, NaN, 1},
		{0, 0, 1.5, 0, 0, 0},
	}
	for i, w := range want {
		if got := tb.Data.RawRowView(i); !sameFloats(got, w) {
			t.Errorf("sparse row %d = %v, want %v", i, got, w)
		}
	}

	tb = loadFixture(t, "testdata/reviews.arff")
	if got := colValues(tb, 0); !sameFloats(got, []float64{0, 1, 2, 0, NaN, 3}) {
		t.Errorf("text codes %v", got)
	}
	if got := colValues(tb, 1); !sameFloats(got, []float64{5, 2, 1, 4, 3, 2}) {
		t.Errorf("stars %v", got)
	}

	// Unix seconds by Python: calendar.timegm(datetime(2001,4,3,12,12,12).timetuple()) = 986299932.
	tb = loadFixture(t, "testdata/events.arff")
	want = [][]float64{{986299932, 0, 986299932, 0}, {86400, 86400, NaN, 1}}
	for i, w := range want {
		if got := tb.Data.RawRowView(i); !sameFloats(got, w) {
			t.Errorf("events row %d = %v, want %v", i, got, w)
		}
	}
	if tb.Columns[0].Kind != Numeric || tb.Columns[2].Missing != 1 {
		t.Errorf("events columns %+v", tb.Columns)
	}
}

func TestReadARFFSyntax(t *testing.T) {
	cases := []struct {
		name, text string
		rows       [][]float64
		cols       []Column
	}{
		{"keywords in any case, tabs, comments",
			"% c\n@RELATION r % trailing\n\n@Attribute\tx\tNUMERIC\n@ATTRIBUTE y {a,b}\t% levels\n@DATA\n% c\n1,a % c\n\t2 , b\n",
			[][]float64{{1, 0}, {2, 1}},
			[]Column{{Name: "x"}, {Name: "y", Kind: Nominal, Levels: []string{"a", "b"}}}},
		{"quoted names and levels with escapes",
			"@relation 'my data'\n@attribute 'a b' real\n@attribute \"c\" {'x y', \"it's\", 'q\\'s', 'p%'}\n@data\n1,'x y'\n2,\"it's\"\n3,'q\\'s'\n4,'p%'\n",
			[][]float64{{1, 0}, {2, 1}, {3, 2}, {4, 3}},
			[]Column{{Name: "a b"}, {Name: "c", Kind: Nominal, Levels: []string{"x y", "it's", "q's", "p%"}}}},
		{"spaces separate values, as in Weka",
			"@relation r\n@attribute x numeric\n@attribute y numeric\n@data\n1 2\n3\t4\n",
			[][]float64{{1, 2}, {3, 4}},
			[]Column{{Name: "x"}, {Name: "y"}}},
		{"missing values and a quoted ?",
			"@relation r\n@attribute x numeric\n@attribute y {a,'?'}\n@data\n?,?\n1,'?'\n",
			[][]float64{{NaN, NaN}, {1, 1}},
			[]Column{{Name: "x", Missing: 1}, {Name: "y", Kind: Nominal, Levels: []string{"a", "?"}, Missing: 1}}},
		{"instance weights are ignored",
			"@relation r\n@attribute x numeric\n@attribute y {a,b}\n@data\n1,a,{2}\n{0 5, 1 b},{0.5}\n",
			[][]float64{{1, 0}, {5, 1}},
			[]Column{{Name: "x"}, {Name: "y", Kind: Nominal, Levels: []string{"a", "b"}}}},
		{"CRLF, BOM, no final newline",
			"\ufeff@relation r\r\n@attribute x integer\r\n@data\r\n7\r\n8",
			[][]float64{{7}, {8}},
			[]Column{{Name: "x"}}},
		{"nominal spec without a space",
			"@relation r\n@attribute y{a,b}\n@data\nb\n",
			[][]float64{{1}},
			[]Column{{Name: "y", Kind: Nominal, Levels: []string{"a", "b"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, err := ReadFrom(strings.NewReader(c.text), "t.arff", "arff")
			if err != nil {
				t.Fatal(err)
			}
			checkDims(t, tb)
			if !reflect.DeepEqual(tb.Columns, c.cols) {
				t.Errorf("columns\n got %+v\nwant %+v", tb.Columns, c.cols)
			}
			for i, w := range c.rows {
				if got := tb.Data.RawRowView(i); !sameFloats(got, w) {
					t.Errorf("row %d = %v, want %v", i, got, w)
				}
			}
			if tb.Rows() != len(c.rows) {
				t.Errorf("%d rows", tb.Rows())
			}
		})
	}
}

func TestReadARFFErrors(t *testing.T) {
	head := "@relation r\n@attribute outlook {sunny, overcast, rainy}\n@attribute temp numeric\n@data\n"
	cases := []struct {
		name, text string
		parts      []string
	}{
		{"empty", "", []string{"w.arff: empty file"}},
		{"comments only", "% nothing\n\n%\n", []string{"w.arff: empty file"}},
		{"no @data", "@relation r\n@attribute x numeric\n", []string{"w.arff: no @data section"}},
		{"no attributes", "@relation r\n@data\n1\n", []string{"w.arff:2:", "@data before any @attribute"}},
		{"no rows", head + "% none\n\n", []string{"w.arff:4:", "no data rows after @data"}},
		{"unknown type", "@relation r\n@attribute when datetime\n@data\n", []string{"w.arff:2:", `attribute "when": unknown type "datetime"`, "numeric, integer, real, string, date"}},
		{"relational", "@relation r\n@attribute bag relational\n@attribute x numeric\n@end bag\n@data\n", []string{"w.arff:2:", `attribute "bag": relational`, "not supported"}},
		{"bad date pattern", "@relation r\n@attribute d date 'yyyy-ww'\n@data\n", []string{"w.arff:2:", `attribute "d": date pattern "yyyy-ww"`, "'w' is not supported"}},
		{"date not matching", "@relation r\n@attribute d date 'yyyy-MM-dd'\n@data\n2020-01-02\n2020/01/03\n", []string{"w.arff:5:", `column "d": "2020/01/03" does not match the date pattern "yyyy-MM-dd"`}},
		{"undeclared level", head + "sunny,85\ncloudy,80\n", []string{"w.arff:6:", `column "outlook": "cloudy" is not one of its levels {sunny, overcast, rainy}`}},
		{"level case matters", head + "Sunny,85\n", []string{"w.arff:5:", `"Sunny" is not one of its levels`}},
		{"not a number", head + "sunny,85\nrainy,hot\n", []string{"w.arff:6:", `column "temp": "hot" is not a number`}},
		{"too many values", head + "sunny,85,1\n", []string{"w.arff:5:", "3 values, expected 2"}},
		{"too few values", head + "sunny\n", []string{"w.arff:5:", "1 value, expected 2"}},
		{"unterminated quote", head + "'sunny,85\n", []string{"w.arff:5:", `quoted text "'sunny,85" is not closed on this line`}},
		{"odd levels are quoted", "@relation r\n@attribute x {'a,b', 'c\\nd', e}\n@data\nf\n", []string{"w.arff:4:", `"f" is not one of its levels {"a,b", "c\nd", e}`}},
		{"sparse without }", head + "{0 sunny, 1 3\n", []string{"w.arff:5:", "sparse row without its closing }"}},
		{"sparse bad index", head + "{2 3}\n", []string{"w.arff:5:", `index "2" is not an attribute number 0..1`}},
		{"sparse index order", head + "{1 3, 0 sunny}\n", []string{"w.arff:5:", "index 0 after 1; indices must increase"}},
		{"sparse odd pair", head + "{0}\n", []string{"w.arff:5:", "expected \"index value\" pairs"}},
		{"duplicate attribute", "@relation r\n@attribute x numeric\n@attribute x real\n@data\n", []string{"w.arff:3:", `attribute "x" is declared twice (first on line 2)`}},
		{"duplicate level", "@relation r\n@attribute x {a, b, a}\n@data\n", []string{"w.arff:2:", `level "a" is declared twice`}},
		{"no closing brace", "@relation r\n@attribute x {a, b\n@data\n", []string{"w.arff:2:", "no closing }"}},
		{"empty levels", "@relation r\n@attribute x {}\n@data\n", []string{"w.arff:2:", "at least one level"}},
		{"missing type", "@relation r\n@attribute x\n@data\n", []string{"w.arff:2:", `attribute "x" has no type`}},
		{"stray text in header", "@relation r\nhello world\n", []string{"w.arff:2:", `expected @relation, @attribute or @data, found "hello world"`}},
		{"data on the @data line", "@relation r\n@attribute x numeric\n@data 1\n", []string{"w.arff:3:", "after @data"}},
		{"NUL byte", head + "sunny,\x00\n", []string{"w.arff:5:", "not a text file (NUL byte)"}},
		{"invalid UTF-8", head + "sunny,8\xff5\n", []string{"w.arff:5:", "invalid UTF-8"}},
		{"gzip bytes", "\x1f\x8b\x08\x00", []string{"w.arff:", "bad gzip data"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadFrom(strings.NewReader(c.text), "w.arff", "arff")
			wantErr(t, err, c.parts...)
		})
	}
}

func TestReadARFFLongLine(t *testing.T) {
	src := &endless{pattern: []byte("1,")}
	_, err := ReadFrom(src, "big.arff", "arff")
	wantErr(t, err, "big.arff:1:", "longer than 16 MiB")
	if src.read > 20<<20 {
		t.Errorf("read %d bytes before failing", src.read)
	}
}

func TestReadARFFDatasetMessages(t *testing.T) {
	tb := loadFixture(t, "testdata/weather.nominal.arff")
	d, err := tb.Dataset("", Auto)
	if err != nil || d.Task != Classification || !reflect.DeepEqual(d.Classes, []string{"yes", "no"}) {
		t.Fatalf("%v %+v", err, d)
	}
	if got := d.ClassCounts(); !reflect.DeepEqual(got, []int{9, 5}) {
		t.Errorf("class counts %v", got)
	}
	_, err = tb.Dataset("Play", Auto)
	wantErr(t, err, `no target column "Play"`, "outlook, temperature, humidity, windy, play")
	_, err = tb.Dataset("play", Regression)
	wantErr(t, err, `target "play" is nominal (2 levels)`)

	tb, err = ReadFrom(strings.NewReader("@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n1,a\n2,a\n3,?\n"), "one.arff", "arff")
	if err != nil {
		t.Fatal(err)
	}
	d, err = tb.Dataset("c", Auto) // describing one class is allowed
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, d.Trainable(), "one", `target "c" is "a" in every row`, "two classes")
}

func TestJavaDateLayout(t *testing.T) {
	cases := []struct{ java, goLayout string }{
		{"yyyy-MM-dd'T'HH:mm:ss", "2006-01-02T15:04:05"},
		{"dd/MM/yy", "02/01/06"},
		{"d MMM yyyy h:mm a", "2 Jan 2006 3:04 PM"},
		{"EEEE, MMMM d, yyyy HH:mm:ss.SSS Z", "Monday, January 2, 2006 15:04:05.000 -0700"},
		{"yyyy-MM-dd HH:mm:ssXXX", "2006-01-02 15:04:05Z07:00"},
		{"yyyy''MM", "2006'01"},
	}
	for _, c := range cases {
		got, err := javaDateLayout(c.java)
		if err != nil || got != c.goLayout {
			t.Errorf("javaDateLayout(%q) = %q, %v; want %q", c.java, got, err, c.goLayout)
		}
	}
	for _, bad := range []string{"yyyy-ww", "'unterminated", "SSS", "yyyy'12'", "yyyy1"} {
		if got, err := javaDateLayout(bad); err == nil {
			t.Errorf("javaDateLayout(%q) = %q, want an error", bad, got)
		}
	}
}

// TestReadARFFRoundTrip writes random data as ARFF, dense and sparse rows
// mixed, levels needing quotes and escapes, and reads it back.
func TestReadARFFRoundTrip(t *testing.T) {
	levels := []string{"plain", "with space", "it's", `dq"`, "a,b", "pct%", "tab\tx", "brace{", "back\\slash", "?"}
	quote := func(s string) string {
		r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\t", `\t`)
		return "'" + r.Replace(s) + "'"
	}
	rnd := rand.New(rand.NewPCG(4, 4))
	const n = 3000
	var sb strings.Builder
	sb.WriteString("% round trip\n@relation 'round trip'\n@attribute 'x 1' numeric\n@attribute y {")
	for i, l := range levels {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(quote(l))
	}
	sb.WriteString("}\n@attribute z real\n@data\n")
	want := make([][]float64, n)
	for i := range n {
		x := rnd.NormFloat64()
		if rnd.IntN(10) == 0 {
			x = 0
		}
		y := float64(rnd.IntN(len(levels)))
		z := math.NaN()
		if rnd.IntN(5) > 0 {
			z = float64(rnd.IntN(100))
		}
		want[i] = []float64{x, y, z}
		zs := "?"
		if !math.IsNaN(z) {
			zs = strconv.FormatFloat(z, 'g', -1, 64)
		}
		if rnd.IntN(2) == 0 {
			fmt.Fprintf(&sb, "%s,%s,%s\n", strconv.FormatFloat(x, 'g', -1, 64), quote(levels[int(y)]), zs)
			continue
		}
		sb.WriteString("{")
		sep := ""
		if x != 0 {
			sb.WriteString("0 " + strconv.FormatFloat(x, 'g', -1, 64))
			sep = ", "
		}
		if y != 0 {
			sb.WriteString(sep + "1 " + quote(levels[int(y)]))
			sep = ", "
		}
		if z != 0 {
			sb.WriteString(sep + "2 " + zs)
		}
		sb.WriteString("}\n")
	}
	tb, err := ReadFrom(strings.NewReader(sb.String()), "rt.arff", "arff")
	if err != nil {
		t.Fatal(err)
	}
	checkDims(t, tb)
	if tb.Rows() != n || !reflect.DeepEqual(tb.Columns[1].Levels, levels) || tb.Columns[0].Name != "x 1" {
		t.Fatalf("%d rows, columns %+v", tb.Rows(), tb.Columns)
	}
	for i, w := range want {
		if got := tb.Data.RawRowView(i); !sameFloats(got, w) {
			t.Fatalf("row %d = %v, want %v", i, got, w)
		}
	}
}

// An infinite number in a numeric attribute is missing, as NaN and ? are
// (MissingRule), dense or sparse.
func TestReadARFFNonFinite(t *testing.T) {
	for _, c := range []struct {
		text    string
		missing []int
	}{
		{"@relation r\n@attribute a numeric\n@attribute b real\n@data\n1,2\n3,1e999\n", []int{0, 1}},
		{"@relation r\n@attribute a numeric\n@data\n-inf\n1\n", []int{1}},
		{"@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{1 Infinity}\n{0 2}\n", []int{0, 1}},
		{"@relation r\n@attribute a numeric\n@data\nNaN\n?\n3\n", []int{2}},
	} {
		tb, err := ReadFrom(strings.NewReader(c.text), "t.arff", "arff")
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		for j, want := range c.missing {
			if got := tb.Columns[j].Missing; got != want {
				t.Errorf("%q: column %d has %d missing, want %d", c.text, j, got, want)
			}
		}
	}
}

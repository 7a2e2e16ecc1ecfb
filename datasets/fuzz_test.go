package datasets

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"
)

// checkTable is the fuzzers' property: a loader either fails with a one-line
// error naming the input, or returns a table whose matrix matches its
// columns, whose nominal codes index their levels, whose missing counts are
// right, and which holds no infinity.
func checkTable(t *testing.T, name string, tb *Table, err error) {
	t.Helper()
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, name) || strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("bad error message %q", msg)
		}
		if tb != nil {
			t.Fatalf("both a table and an error")
		}
		return
	}
	if tb == nil || tb.Data == nil {
		t.Fatalf("no table and no error")
	}
	r, c := tb.Data.Dims()
	if r == 0 || c != len(tb.Columns) {
		t.Fatalf("Data %dx%d for %d columns", r, c, len(tb.Columns))
	}
	for j, col := range tb.Columns {
		missing := 0
		for i := 0; i < r; i++ {
			v := tb.Data.At(i, j)
			if math.IsNaN(v) {
				missing++
				continue
			}
			if math.IsInf(v, 0) {
				t.Fatalf("column %q: %v in row %d; infinities must be rejected at load", col.Name, v, i)
			}
			if col.Kind == Nominal && (v != math.Trunc(v) || v < 0 || int(v) >= len(col.Levels)) {
				t.Fatalf("column %q: code %v outside its %d levels", col.Name, v, len(col.Levels))
			}
		}
		if missing != col.Missing {
			t.Fatalf("column %q: Missing %d, counted %d", col.Name, col.Missing, missing)
		}
	}
}

var fuzzDelims = [...]rune{0, ',', '\t', ';', '|'}

func FuzzReadDelimited(f *testing.F) {
	for _, s := range []string{
		"a,b,c\n1,2,x\n3,4,y\n",
		"1,2\n3,4\n",
		"\ufeff\"a b\",c\r\n\"1,5\",\"x\"\"y\"\r\n2,\"p\nq\"\r\n",
		"a;b\n1;?\nNA;2\n",
		"x\ty\n1\t\n\t2\n",
		"a,b\n1,\"x\"y\n",
		"a,b\n1,\"open\n",
		"a\n1\n2\n3\n4\n5\n6\n7\n8\n9\nx\n",
		"doors,persons\n2,2\n3,4\n5more,more\n",
		"v\n0x1p-2\ninf\n1e400\n-0\n",
	} {
		for d := range fuzzDelims {
			f.Add([]byte(s), uint8(d))
		}
	}
	if b, err := os.ReadFile("testdata/quirks.csv"); err == nil {
		f.Add(b, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, d uint8) {
		tb, err := ReadDelimited(bytes.NewReader(data), "fuzz.csv", fuzzDelims[int(d)%len(fuzzDelims)])
		checkTable(t, "fuzz.csv", tb, err)
	})
}

func FuzzReadARFF(f *testing.F) {
	for _, name := range []string{"weather.nominal.arff", "weather.numeric.arff", "labor.arff", "sparse.arff", "reviews.arff", "events.arff"} {
		if b, err := os.ReadFile("testdata/" + name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"@relation r\n@attribute x numeric\n@attribute y {a,b}\n@data\n1,a\n?,b\n{0 2}\n{1 b},{3}\n",
		"@RELATION 'a b'\n@ATTRIBUTE 'c d' STRING\n@DATA\n'x\\'y'\n\"z\"\n",
		"@relation r\n@attribute d date 'yyyy-MM-dd HH:mm:ss.SSS Z'\n@data\n'2020-01-02 03:04:05.678 +0100'\n",
		"@relation r\n@attribute x {a}\n@data\n{}\n{0 a}\n",
		"% c\n@relation r % c\n@attribute\tx\treal\n@data\n1 % c\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := ReadFrom(bytes.NewReader(data), "fuzz.arff", "arff")
		checkTable(t, "fuzz.arff", tb, err)
	})
}

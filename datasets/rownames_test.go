package datasets

import (
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
)

// The fixtures are written as the tools write them with their defaults:
// iris_r.csv as R's write.csv(iris, ...) (a quoted empty first header
// field, quoted row names "1".."150", quoted strings), iris_pandas.csv as
// pandas' DataFrame.to_csv (an empty first header field, 0..149, floats
// with a decimal point), mtcars_r.csv as write.csv(head(mtcars, 12)), whose
// row names are the cars. The measurements are the built-in iris's.

func TestRowNamesOfRAndPandas(t *testing.T) {
	for _, tc := range []struct {
		file        string
		cols        int
		first, last string
	}{
		{"testdata/iris_r.csv", 5, "1", "150"},
		{"testdata/iris_pandas.csv", 5, "0", "149"},
		{"testdata/mtcars_r.csv", 11, "Mazda RX4", "Merc 450SE"},
	} {
		tb, err := LoadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		checkDims(t, tb)
		if len(tb.Columns) != tc.cols || tb.ColumnIndex(RowNamesColumn) >= 0 {
			t.Errorf("%s: columns %v, want %d without the row names", tc.file, columnList(tb.Columns), tc.cols)
		}
		n := tb.Rows()
		if len(tb.RowNames) != n || tb.RowNames[0] != tc.first || tb.RowNames[n-1] != tc.last {
			t.Fatalf("%s: %d row names %q..., want %d from %q to %q", tc.file, len(tb.RowNames), tb.RowNames[:min(3, len(tb.RowNames))], n, tc.first, tc.last)
		}
		d, err := tb.Dataset("", Auto)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Features) != tc.cols-1 || !reflect.DeepEqual(d.RowNames, tb.RowNames) {
			t.Errorf("%s: features %v and %d row names, want %d features and the table's row names", tc.file, d.FeatureNames(), len(d.RowNames), tc.cols-1)
		}
		if w := d.ColumnWarnings(); len(w) > 0 {
			t.Errorf("%s: warnings %q, want none", tc.file, w)
		}
	}
	// The measurements are the built-in's, column for column.
	r, _ := LoadFile("testdata/iris_r.csv")
	b, _ := Open("iris")
	for j := range b.Columns {
		if !reflect.DeepEqual(colValues(r, j), colValues(b, j)) {
			t.Errorf("iris_r.csv column %d (%s) differs from the built-in's", j, r.Columns[j].Name)
		}
	}
}

// An unnamed first column whose values repeat is a feature, with a warning.
func TestUnnamedColumnThatRepeats(t *testing.T) {
	tb := readString(t, "u.csv", ",x,y\n"+strings.Repeat("a,1,p\nb,2,q\na,3,p\n", 4), 0)
	if tb.RowNames != nil || len(tb.Columns) != 3 || !tb.Columns[0].Unnamed || tb.Columns[0].Name != "col1" {
		t.Fatalf("columns %+v, row names %q: want col1 kept as an unnamed column", tb.Columns, tb.RowNames)
	}
	d, err := tb.Dataset("", Auto)
	if err != nil {
		t.Fatal(err)
	}
	if w := d.ColumnWarnings(); len(w) != 1 || !strings.Contains(w[0].Text, `"col1" has no name in the header`) || !reflect.DeepEqual(w[0].Remedies, []advice.Remedy{{Kind: advice.Drop, Columns: []string{"col1"}}}) {
		t.Errorf("warnings %q, want one about col1", w)
	}
	// A named first column is never row names; a missing value stops them too.
	for _, text := range []string{"id,x\n1,5\n2,6\n", ",x\n1,5\n,6\n"} {
		if tb := readString(t, "n.csv", text, 0); tb.RowNames != nil {
			t.Errorf("%q: row names %q, want none", text, tb.RowNames)
		}
	}
}

// Asked for by name or by RowNamesAsColumn, the row names are a column again.
func TestRowNamesChosenExplicitly(t *testing.T) {
	tb, err := LoadFile("testdata/iris_r.csv")
	if err != nil {
		t.Fatal(err)
	}
	full := tb.RowNamesAsColumn()
	checkDims(t, full)
	if c := full.Columns[0]; c.Name != RowNamesColumn || c.Kind != Numeric || full.Data.At(149, 0) != 150 || full.RowNames != nil {
		t.Errorf("RowNamesAsColumn: first column %+v, last value %v; want col1, numeric, 150", c, full.Data.At(149, 0))
	}
	d, err := full.Dataset("", Auto)
	if err != nil {
		t.Fatal(err)
	}
	if w := d.ColumnWarnings(); len(w) != 1 || !strings.Contains(w[0].Text, `column "col1" looks like a row identifier (150 distinct integers 1..150)`) {
		t.Errorf("warnings %q, want col1 named as an identifier", w)
	}
	if d, err := tb.Dataset(RowNamesColumn, Auto); err != nil || d.Target.Name != RowNamesColumn || d.Task != Regression || len(d.Features) != 5 {
		t.Errorf("row names as the target: %v, %+v", err, d)
	}
	dropped, err := tb.Drop(RowNamesColumn)
	if err != nil || dropped.RowNames != nil || len(dropped.Columns) != 5 {
		t.Errorf("Drop(col1): %v; want the row names gone and the 5 columns kept", err)
	}
	cars, _ := LoadFile("testdata/mtcars_r.csv")
	if c := cars.RowNamesAsColumn().Columns[0]; c.Kind != Nominal || c.Levels[0] != "Mazda RX4" || len(c.Levels) != 12 {
		t.Errorf("mtcars' names as a column: %+v, want nominal, one level per car", c)
	}
}

// Row names follow the rows: dropped targets, subsets and permutations.
func TestRowNamesFollowRows(t *testing.T) {
	tb := readString(t, "r.csv", "\"\",x,y\n\"a\",1,p\n\"b\",2,\n\"c\",3,q\n\"d\",4,p\n", 0)
	d, err := tb.Dataset("y", Auto)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "c", "d"}; !reflect.DeepEqual(d.RowNames, want) {
		t.Fatalf("row names %q with the row of missing target dropped, want %q", d.RowNames, want)
	}
	if s := d.Subset([]int{2, 0}); !reflect.DeepEqual(s.RowNames, []string{"d", "a"}) || s.X.At(0, 0) != 4 {
		t.Errorf("Subset: row names %q, first x %v; want d, a and 4", s.RowNames, s.X.At(0, 0))
	}
	d.Permute([]int{1, 2, 0})
	if !reflect.DeepEqual(d.RowNames, []string{"c", "d", "a"}) || d.X.At(0, 0) != 3 {
		t.Errorf("Permute: row names %q, first x %v", d.RowNames, d.X.At(0, 0))
	}
	if p := tb.Printable(); !reflect.DeepEqual(p.RowNames, tb.RowNames) {
		t.Errorf("Printable changed plain row names: %q", p.RowNames)
	}
}

func TestIdentifierColumns(t *testing.T) {
	n := 30
	col := func(f func(i int) float64) *Dataset {
		d := &Dataset{Features: []Column{{Name: "c"}}}
		d.X = mat.NewDense(n, 1, nil)
		for i := range n {
			d.X.Set(i, 0, f(i))
		}
		return d
	}
	for _, tc := range []struct {
		name string
		f    func(i int) float64
		want string // "" for no warning
	}{
		{"1..n", func(i int) float64 { return float64(i + 1) }, "30 distinct integers 1..30"},
		{"0..n-1 reversed", func(i int) float64 { return float64(n - 1 - i) }, "30 distinct integers 0..29"},
		{"shuffled, step 5", func(i int) float64 { return float64(1000 + 5*((i*7)%n)) }, "30 distinct integers 1000..1145 in steps of 5"},
		{"distinct measurements", func(i int) float64 { return 1.5 + float64(i)*1.01 }, ""},
		{"distinct counts with gaps", func(i int) float64 { return float64(i * i) }, ""},
		{"repeated integers", func(i int) float64 { return float64(i % 10) }, ""},
	} {
		w := advice.All(col(tc.f).ColumnWarnings(), advice.Remedy.String)
		switch {
		case tc.want == "" && len(w) > 0:
			t.Errorf("%s: warnings %q, want none", tc.name, w)
		case tc.want != "" && (len(w) != 1 || !strings.Contains(w[0], tc.want) || !strings.HasSuffix(w[0], ": drop it")):
			t.Errorf("%s: warnings %q, want one with %q", tc.name, w, tc.want)
		}
	}
	// Nominal: a distinct level in every row; fewer rows than the minimum never warn.
	names := &Dataset{Features: []Column{{Name: "car", Kind: Nominal, Levels: make([]string, n)}}, X: mat.NewDense(n, 1, nil)}
	for i := range n {
		names.X.Set(i, 0, float64(i))
	}
	if w := names.ColumnWarnings(); len(w) != 1 || !strings.Contains(w[0].Text, `"car" looks like a row identifier (30 distinct values, one per row)`) {
		t.Errorf("nominal ids: warnings %q", w)
	}
	if w := names.Subset([]int{0, 1, 2, 3, 4}).ColumnWarnings(); len(w) > 0 {
		t.Errorf("5 rows: warnings %q, want none", w)
	}
}

// No built-in set has a feature that looks like an identifier.
func TestIdentifiersNotInBuiltins(t *testing.T) {
	for _, name := range builtinNames() {
		tb, err := Open(name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := tb.Dataset("", Auto)
		if err != nil {
			t.Fatal(err)
		}
		if w := d.ColumnWarnings(); len(w) > 0 {
			t.Errorf("%s: warnings %q, want none", name, w)
		}
		if tb.RowNames != nil {
			t.Errorf("%s has row names", name)
		}
	}
	if len(builtinNames()) != 5 {
		t.Errorf("built-ins %v: this test expects five", builtinNames())
	}
}

package datasets

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func readCSV(t *testing.T, name, text string) *Table {
	t.Helper()
	tab, err := ReadFrom(strings.NewReader(text), name, "csv")
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func trainingSet(t *testing.T) *Dataset {
	t.Helper()
	d, err := readCSV(t, "train", "size,colour,kind\n1,red,a\n2,green,b\n3,blue,a\n4,red,b\n").Dataset("", Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The test file's columns come in another order, with a column the
// training data lack, its levels first seen in another order and a row
// without a target: the rows come back in the training data's codes.
func TestAlignByName(t *testing.T) {
	d := trainingSet(t)
	got, err := d.Align(readCSV(t, "test.csv", "kind,extra,colour,size\nb,9,blue,5\na,8,red,\n,7,green,6\na,6,green,7\n"))
	if err != nil {
		t.Fatal(err)
	}
	// colour levels in training: red 0, green 1, blue 2; classes a 0, b 1.
	want := mat.NewDense(3, 2, []float64{5, 2, nan, 0, 7, 1})
	if !sameWithNaN(got.X, want) {
		t.Errorf("X = %v, want %v", mat.Formatted(got.X), mat.Formatted(want))
	}
	if len(got.Y) != 3 || got.Y[0] != 1 || got.Y[1] != 0 || got.Y[2] != 0 {
		t.Errorf("Y = %v, want [1 0 0]", got.Y)
	}
	if got.Dropped != 1 || got.Name != "test" || got.Rows() != 3 || len(got.Classes) != 2 {
		t.Errorf("dropped %d name %q rows %d classes %v", got.Dropped, got.Name, got.Rows(), got.Classes)
	}
	all := d.Append(got)
	if all.Rows() != 7 || all.Y[4] != 1 || all.X.At(4, 0) != 5 || d.Rows() != 4 {
		t.Errorf("Append: %d rows, Y %v", all.Rows(), all.Y)
	}
}

func sameWithNaN(a, b *mat.Dense) bool {
	r, c := a.Dims()
	for i := range r {
		for j := range c {
			x, y := a.At(i, j), b.At(i, j)
			if x != y && !(x != x && y != y) {
				return false
			}
		}
	}
	return true
}

func TestAlignErrors(t *testing.T) {
	d := trainingSet(t)
	for _, c := range []struct{ csv, want string }{
		{"kind,colour\na,red\n", `test.csv: no column "size", which the training data have`},
		{"size,colour\n1,red\n", `test.csv: no target column "kind", which the training data train have`},
		{"size,colour,kind\n1,purple,a\n", `test.csv: column "colour" has level "purple" (row 1), which the training data do not have (levels: red, green, blue)`},
		{"size,colour,kind\n1,red,c\n", `test.csv: target column "kind" has class "c" (row 1), which the training data train do not have (classes: a, b)`},
		{"size,colour,kind\nbig,red,a\n", `test.csv: column "size" is nominal here (big) but numeric in the training data`},
	} {
		_, err := d.Align(readCSV(t, "test.csv", c.csv))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want it to start %q", c.csv, err, c.want)
		}
	}
}

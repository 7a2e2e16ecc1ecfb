package svm

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// The generated sets the reference script (testdata/sklearn_svm.py) reads:
// tealab's own moons, circles and sine, written with every digit so that
// scikit-learn fits the very same rows. Rewrite them with
// TEALAB_WRITE_SVM_DATA=1 go test ./engine/svm -run TestWriteGeneratedSets.
var smoGeneratedSets = []struct {
	name string
	task datasets.Task
}{{"moons", datasets.Classification}, {"circles", datasets.Classification}, {"sine", datasets.Regression}}

func TestWriteGeneratedSets(t *testing.T) {
	if os.Getenv("TEALAB_WRITE_SVM_DATA") == "" {
		t.Skip("set TEALAB_WRITE_SVM_DATA=1 to rewrite testdata/{moons,circles,sine}.csv")
	}
	for _, g := range smoGeneratedSets {
		d := smoOpenSet(t, g.name, g.task)
		var b strings.Builder
		for i := range d.Rows() {
			for _, v := range d.X.RawRowView(i) {
				b.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + ",")
			}
			b.WriteString(strconv.FormatFloat(d.Y[i], 'g', -1, 64) + "\n")
		}
		if err := os.WriteFile(filepath.Join("testdata", g.name+".csv"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// smoOpenSet is a built-in or generated set as training rows (seed 1).
func smoOpenSet(t *testing.T, name string, task datasets.Task) engine.Train {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", task)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Train{X: d.X, Y: d.Y, Classes: d.Classes, Features: d.FeatureNames(), Seed: 1}
}

// smoReadSet reads testdata/NAME.csv (features, then the target; no header).
func smoReadSet(t *testing.T, name string, classes []string) engine.Train {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	var x, y []float64
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, line := range lines {
		f := strings.Split(line, ",")
		for j, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			if j == len(f)-1 {
				y = append(y, v)
			} else {
				x = append(x, v)
			}
		}
	}
	d := len(x) / len(y)
	feat := make([]string, d)
	for j := range feat {
		feat[j] = fmt.Sprintf("x%d", j+1)
	}
	return engine.Train{X: mat.NewDense(len(y), d, x), Y: y, Classes: classes, Features: feat, Seed: 1}
}

// smoStandardised is d with each column centred and scaled to unit
// (population) variance, as scikit-learn's StandardScaler.
func smoStandardised(d engine.Train) engine.Train {
	n, p := d.X.Dims()
	X := mat.DenseCopyOf(d.X)
	for j := 0; j < p; j++ {
		var s, ss float64
		for i := 0; i < n; i++ {
			s += X.At(i, j)
		}
		mean := s / float64(n)
		for i := 0; i < n; i++ {
			v := X.At(i, j) - mean
			ss += v * v
		}
		sd := 1.0
		if ss > 0 {
			sd = math.Sqrt(ss / float64(n))
		}
		for i := 0; i < n; i++ {
			X.Set(i, j, (X.At(i, j)-mean)/sd)
		}
	}
	d.X = X
	return d
}

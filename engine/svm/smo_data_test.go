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

// The reference data are written by go generate, never by a test: the
// generated sets (moons, circles, sine and kridge_sine.csv) by
// testdata/sets.go, so that scikit-learn fits the very rows tealab draws;
// kridge_ref.json by kridge_ref.py; linear_clf.csv.gz by linear_ref.py,
// which also prints the numbers linear_test.go quotes (as sklearn_svm.py
// prints those of the SMO tests, by hand: /usr/bin/python3
// testdata/sklearn_svm.py from engine/svm).
//go:generate go run ./testdata/sets.go
//go:generate sh -c "cd testdata && /usr/bin/python3 kridge_ref.py > kridge_ref.json.new && mv kridge_ref.json.new kridge_ref.json"
//go:generate sh -c "cd testdata && /usr/bin/python3 linear_ref.py"

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

package svm

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// kmFit builds model with settings and fits it on tr.
func kmFit(t *testing.T, model string, settings map[string]string, tr engine.Train) engine.Model {
	t.Helper()
	_, _, m, err := engine.New(model, settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Fit(context.Background(), tr, nil); err != nil {
		t.Fatalf("%s %v: %v", model, settings, err)
	}
	return m
}

// kmCSV reads a CSV of numbers with a header: every column but the last
// is a feature, the last the target.
func kmCSV(t *testing.T, path string) engine.Train {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	recs = recs[1:]
	p := len(recs[0]) - 1
	X := mat.NewDense(len(recs), p, nil)
	y := make([]float64, len(recs))
	for i, r := range recs {
		for j, s := range r {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			if j < p {
				X.Set(i, j, v)
			} else {
				y[i] = v
			}
		}
	}
	return engine.Train{X: X, Y: y}
}

// Kernel ridge regression against scikit-learn 1.2's KernelRidge
// (testdata/kridge_ref.py wrote testdata/kridge_ref.json): predictions on
// the training rows (and, for sine, on a grid beyond them) agree to 1e-8
// relative, with and without centring y, with sample weights, and with a
// sigmoid kernel whose K + λI is not positive definite (scikit-learn falls
// back to least squares, this model to LU).
func TestKRidgeMatchesScikitLearn(t *testing.T) {
	raw, err := os.ReadFile("testdata/kridge_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []struct {
		Data        string
		Params      map[string]string
		Weighted    bool
		Predictions []float64
	}
	if err := json.Unmarshal(raw, &refs); err != nil {
		t.Fatal(err)
	}
	diabetes, err := datasets.Open("diabetes")
	if err != nil {
		t.Fatal(err)
	}
	dd, err := diabetes.Dataset("", datasets.Regression)
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]engine.Train{"sine": kmCSV(t, "testdata/kridge_sine.csv"), "diabetes": {X: dd.X, Y: dd.Y}}
	grid := mat.NewDense(9, 1, nil)
	for i := range 9 {
		grid.Set(i, 0, -1+float64(i))
	}
	for _, ref := range refs {
		tr := sets[ref.Data]
		at := mat.Matrix(tr.X)
		if ref.Data == "sine" {
			var both mat.Dense
			both.Stack(tr.X, grid)
			at = &both
		}
		if ref.Weighted {
			tr.Weights = make([]float64, len(tr.Y))
			for i := range tr.Weights {
				tr.Weights[i] = 1 + float64(i%3)
			}
		}
		m := kmFit(t, "kridge", ref.Params, tr)
		got, err := m.(engine.Predictor).Predict(at)
		if err != nil {
			t.Fatal(err)
		}
		scale := 0.0
		for _, v := range ref.Predictions {
			scale = math.Max(scale, math.Abs(v))
		}
		for i, want := range ref.Predictions {
			if math.Abs(got[i]-want) > 1e-8*scale {
				t.Errorf("%s %v weighted=%v: prediction %d = %.12g, scikit-learn %.12g", ref.Data, ref.Params, ref.Weighted, i, got[i], want)
				break
			}
		}
	}
}

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
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
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
		if w := m.(engine.Warner).Warnings(); (ref.Params["kernel"] == Sigmoid) != (len(w) == 1) {
			t.Errorf("%s %v: warnings %q; want one, of the LU fallback, for the sigmoid kernel only", ref.Data, ref.Params, w)
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

// With the linear kernel and no centring, kernel ridge is ridge regression
// without an intercept (Shewchuk, lecture 16): Xᵀa = w = (XᵀX + λI)⁻¹Xᵀy,
// so both predict Xw. Checked on diabetes against the normal equations.
func TestKRidgeLinearKernelIsRidge(t *testing.T) {
	tab, err := datasets.Open("diabetes")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Regression)
	if err != nil {
		t.Fatal(err)
	}
	const lambda = 3.0
	var A mat.Dense
	A.Mul(d.X.T(), d.X)
	_, p := d.X.Dims()
	for j := range p {
		A.Set(j, j, A.At(j, j)+lambda)
	}
	var xty, w mat.VecDense
	xty.MulVec(d.X.T(), mat.NewVecDense(len(d.Y), d.Y))
	if err := w.SolveVec(&A, &xty); err != nil {
		t.Fatal(err)
	}
	var want mat.VecDense
	want.MulVec(d.X, &w)
	m := kmFit(t, "kridge", map[string]string{"kernel": "linear", "lambda": "3", "center_y": "false"}, engine.Train{X: d.X, Y: d.Y})
	got, err := m.(engine.Predictor).Predict(d.X)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if math.Abs(g-want.AtVec(i)) > 1e-8*math.Max(1, math.Abs(want.AtVec(i))) {
			t.Fatalf("row %d: kernel ridge %.12g, ridge %.12g", i+1, g, want.AtVec(i))
		}
	}
}

// Kernel ridge with its defaults fits the sine wave: R² above 0.9 on the
// rows, and within 0.25 of sin x across the middle of [0, 2π] where the
// rows are (the noise is 0.2).
func TestKRidgeFitsSine(t *testing.T) {
	tr := kmCSV(t, "testdata/kridge_sine.csv")
	m := kmFit(t, "kridge", nil, tr).(*KRidge)
	fit, _ := m.Predict(tr.X)
	mean := 0.0
	for _, v := range tr.Y {
		mean += v / float64(len(tr.Y))
	}
	var res, tot float64
	for i, v := range tr.Y {
		res += (v - fit[i]) * (v - fit[i])
		tot += (v - mean) * (v - mean)
	}
	if r2 := 1 - res/tot; r2 < 0.9 {
		t.Errorf("R² %.3f on the rows", r2)
	}
	for x := 0.5; x < 5.8; x += 0.25 {
		got, _ := m.Predict(mat.NewDense(1, 1, []float64{x}))
		if math.Abs(got[0]-math.Sin(x)) > 0.25 {
			t.Errorf("f(%.2f) = %.3f, sin = %.3f", x, got[0], math.Sin(x))
		}
	}
	if a, icept := m.Coef(); len(a) != len(tr.Y) || math.Abs(icept-mean) > 1e-12 {
		t.Errorf("%d coefficients and intercept %g; want one a row and the mean of y, %g", len(a), icept, mean)
	}
}

package linear

// Test helpers shared by the perceptron, centroid and logistic tests.

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// linLoad reads testdata/name (header row, numeric features, class name in
// the last column) as a classification Train whose classes are the sorted
// names, as scikit-learn's classes_. standardize centres and scales every
// feature by its population standard deviation (StandardScaler).
func linLoad(t testing.TB, name string, standardize bool) engine.Train {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header, rows := recs[0], recs[1:]
	p := len(header) - 1
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r[p]] = true
	}
	var classes []string
	for c := range seen {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	code := map[string]float64{}
	for i, c := range classes {
		code[c] = float64(i)
	}
	X := mat.NewDense(len(rows), p, nil)
	y := make([]float64, len(rows))
	for i, r := range rows {
		for j := 0; j < p; j++ {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				t.Fatalf("%s row %d: %v", name, i+1, err)
			}
			X.Set(i, j, v)
		}
		y[i] = code[r[p]]
	}
	if standardize {
		linStandardize(X)
	}
	return engine.Train{X: X, Y: y, Classes: classes, Features: header[:p], Seed: 1}
}

// linStandardize scales the columns of X in place to mean 0 and population
// standard deviation 1.
func linStandardize(X *mat.Dense) {
	n, p := X.Dims()
	for j := 0; j < p; j++ {
		mean := 0.0
		for i := 0; i < n; i++ {
			mean += X.At(i, j)
		}
		mean /= float64(n)
		ss := 0.0
		for i := 0; i < n; i++ {
			d := X.At(i, j) - mean
			ss += d * d
		}
		sd := math.Sqrt(ss / float64(n))
		for i := 0; i < n; i++ {
			X.Set(i, j, (X.At(i, j)-mean)/sd)
		}
	}
}

// linJSON decodes testdata/name into v.
func linJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// linRec records steps; it fails with err from step stopAt on (0: never).
type linRec struct {
	steps  []engine.Step
	stopAt int
	err    error
}

func (r *linRec) Step(s engine.Step) error {
	r.steps = append(r.steps, s)
	if r.stopAt > 0 && len(r.steps) >= r.stopAt {
		return r.err
	}
	return nil
}

// linClose fails unless |got−want| <= tol·max(1, |want|) elementwise.
func linClose(t testing.TB, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(got[i] - want[i]); !(d <= tol*math.Max(1, math.Abs(want[i]))) {
			t.Fatalf("%s[%d] = %.12g, want %.12g (diff %.3g > tol %.3g)", what, i, got[i], want[i], d, tol)
		}
	}
}

// linFlat flattens a matrix given as rows.
func linFlat(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// linAccuracy is the fraction of predictions equal to y.
func linAccuracy(t testing.TB, m engine.Predictor, d engine.Train) float64 {
	t.Helper()
	pred, err := m.Predict(d.X)
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for i, v := range pred {
		if v == d.Y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(pred))
}

// linSubset keeps the rows idx of d.
func linSubset(d engine.Train, idx []int) engine.Train {
	_, p := d.X.Dims()
	X := mat.NewDense(len(idx), p, nil)
	y := make([]float64, len(idx))
	for r, i := range idx {
		X.SetRow(r, d.X.RawRowView(i))
		y[r] = d.Y[i]
	}
	d.X, d.Y, d.Weights = X, y, nil
	return d
}

// linBadInputs runs the error checks every classifier of the package shares.
func linBadInputs(t *testing.T, newModel func() engine.Predictor) {
	t.Helper()
	good := func() engine.Train {
		X := mat.NewDense(6, 2, []float64{0, 1, 1, 0, 2, 1, 5, 6, 6, 5, 7, 6})
		return engine.Train{X: X, Y: []float64{0, 0, 0, 1, 1, 1}, Classes: []string{"a", "b"}, Features: []string{"u", "v"}}
	}
	ctx := context.Background()
	m := newModel()
	if _, err := m.Predict(good().X); !errors.Is(err, engine.ErrNotFitted) {
		t.Errorf("Predict before Fit: %v, want ErrNotFitted", err)
	}
	if s, ok := m.(engine.Scorer); ok {
		if _, err := s.DecisionFunction(good().X); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("DecisionFunction before Fit: %v, want ErrNotFitted", err)
		}
	}
	if p, ok := m.(engine.Prober); ok {
		if _, err := p.PredictProba(good().X); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("PredictProba before Fit: %v, want ErrNotFitted", err)
		}
	}
	cases := []struct {
		name string
		edit func(d *engine.Train)
		want string
	}{
		{"one class", func(d *engine.Train) { d.Y = []float64{1, 1, 1, 1, 1, 1} }, `at least two classes; the training rows have only one ("b")`},
		{"NaN", func(d *engine.Train) { d.X.Set(2, 1, math.NaN()) }, `row 3, feature "v" is NaN`},
		{"Inf", func(d *engine.Train) { d.X.Set(0, 0, math.Inf(1)) }, `row 1, feature "u" is +Inf`},
		{"zero rows", func(d *engine.Train) { d.X = &mat.Dense{}; d.Y = nil }, "no training rows"},
		{"no X", func(d *engine.Train) { d.X = nil }, "no training data"},
		{"short Y", func(d *engine.Train) { d.Y = d.Y[:5] }, "5 targets for 6 rows"},
		{"bad code", func(d *engine.Train) { d.Y[4] = 2 }, "row 5: class code 2 is not one of 0..1"},
		{"regression", func(d *engine.Train) { d.Classes = nil }, "is a classifier"},
		{"bad weight", func(d *engine.Train) { d.Weights = []float64{1, 1, -1, 1, 1, 1} }, "row 3: sample weight -1"},
		{"weights length", func(d *engine.Train) { d.Weights = []float64{1} }, "1 sample weights for 6 rows"},
		{"weights zero", func(d *engine.Train) { d.Weights = []float64{1, 1, 1, 0, 0, 0} }, "at least two classes"},
	}
	for _, c := range cases {
		d := good()
		c.edit(&d)
		err := engine.Fit(ctx, newModel(), d, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Fit error %v, want it to contain %q", c.name, err, c.want)
		}
	}
	// A cancelled context stops the fit before any work.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := engine.Fit(cctx, newModel(), good(), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v, want context.Canceled", err)
	}
	// A recorder error ends the fit at once with that error, and the model
	// stays unfitted.
	stop := errors.New("stop")
	rec := &linRec{stopAt: 1, err: stop}
	m = newModel()
	if err := engine.Fit(ctx, m, good(), rec); !errors.Is(err, stop) {
		t.Errorf("recorder error: Fit returned %v", err)
	}
	if len(rec.steps) != 1 {
		t.Errorf("recorder error: %d steps after the error, want 1", len(rec.steps))
	}
	if _, err := m.Predict(good().X); !errors.Is(err, engine.ErrNotFitted) {
		t.Errorf("Predict after a stopped fit: %v, want ErrNotFitted", err)
	}
	// Predict validates its input.
	m = newModel()
	if err := engine.Fit(ctx, m, good(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(mat.NewDense(1, 3, nil)); err == nil || !strings.Contains(err.Error(), "3 features; the model was fitted on 2") {
		t.Errorf("Predict on 3 columns: %v", err)
	}
	if _, err := m.Predict(mat.NewDense(1, 2, []float64{1, math.NaN()})); err == nil || !strings.Contains(err.Error(), `row 1, feature "v" is NaN`) {
		t.Errorf("Predict on NaN: %v", err)
	}
	if pred, err := m.Predict(good().X); err != nil || len(pred) != 6 {
		t.Errorf("Predict: %v %v", pred, err)
	}
}

// linBuiltinStd is a built-in dataset with standardised features, as eval
// gives it to a model whose spec standardises.
func linBuiltinStd(t testing.TB, name string) engine.Train {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	prep, X, err := datasets.FitApplyPrepOwned(mat.DenseCopyOf(d.X), d.Features, datasets.PrepOptions{Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	return engine.Train{X: X, Y: d.Y, Classes: d.Classes, Features: prep.Features(), Seed: 1}
}

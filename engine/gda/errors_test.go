package gda

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

var modelNames = []string{"lda", "qda", "gnb"}

// blobs makes k Gaussian classes of rows each in d dimensions, with random
// means and a random correlation per class.
func blobs(seed uint64, k, rows, d int) engine.Train {
	rng := rand.New(rand.NewPCG(seed, 0x9da))
	n := k * rows
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	mix := make([][]float64, k) // per-class mixing matrix rows
	means := make([][]float64, k)
	for c := 0; c < k; c++ {
		mix[c] = make([]float64, d*d)
		means[c] = make([]float64, d)
		for j := range means[c] {
			means[c][j] = 2 * rng.NormFloat64()
		}
		for j := range mix[c] {
			mix[c][j] = 0.3 * rng.NormFloat64()
		}
		for j := 0; j < d; j++ {
			mix[c][j*d+j] += 1
		}
	}
	z := make([]float64, d)
	for i := 0; i < n; i++ {
		c := rng.IntN(k)
		y[i] = float64(c)
		for j := range z {
			z[j] = rng.NormFloat64()
		}
		row := X.RawRowView(i)
		for j := 0; j < d; j++ {
			v := means[c][j]
			for l := 0; l < d; l++ {
				v += mix[c][j*d+l] * z[l]
			}
			row[j] = v
		}
	}
	classes := make([]string, k)
	for c := range classes {
		classes[c] = string(rune('a' + c))
	}
	features := make([]string, d)
	for j := range features {
		features[j] = "f" + string(rune('0'+j%10))
		if j >= 10 {
			features[j] = "g" + string(rune('0'+j%10))
		}
	}
	return engine.Train{X: X, Y: y, Classes: classes, Features: features, Seed: seed}
}

func fitErr(t *testing.T, name string, params map[string]string, tr engine.Train) error {
	t.Helper()
	m := newModel(t, name, params)
	return engine.Fit(context.Background(), m, tr, nil)
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not contain %q", err, p)
		}
	}
}

func TestDataErrors(t *testing.T) {
	for _, name := range modelNames {
		t.Run(name, func(t *testing.T) {
			tr := blobs(1, 3, 30, 4)

			one := subset(tr, func(i int) bool { return tr.Y[i] == 1 })
			wantErr(t, fitErr(t, name, nil, one), `only one class ("b")`, "at least two")

			nan := tr
			nan.X = mat.DenseCopyOf(tr.X)
			nan.X.Set(6, 2, math.NaN())
			wantErr(t, fitErr(t, name, nil, nan), `row 7, feature "f2": value is missing (NaN)`)
			nan.X.Set(6, 2, math.Inf(1))
			wantErr(t, fitErr(t, name, nil, nan), `row 7, feature "f2": value is infinite`)

			bad := tr
			bad.Y = append([]float64(nil), tr.Y...)
			bad.Y[3] = 7
			wantErr(t, fitErr(t, name, nil, bad), "row 4: class code 7 is not one of 0..2")
			bad.Y = tr.Y[:5]
			wantErr(t, fitErr(t, name, nil, bad), "5 targets for 90 rows")
			wantErr(t, fitErr(t, name, nil, engine.Train{}), "no training data")

			neg := tr
			neg.Weights = make([]float64, 90)
			neg.Weights[0] = -1
			wantErr(t, fitErr(t, name, nil, neg), "row 1: weight -1")

			wantErr(t, fitErr(t, name, map[string]string{"loss": "0,1;1,0"}, tr),
				"loss is set but decision is map")
			wantErr(t, fitErr(t, name, map[string]string{"decision": "risk", "loss": "0,1;5,0"}, tr),
				"loss matrix is 2x2 but the data has 3 classes (a, b, c)")

			m := newModel(t, name, nil)
			if _, err := m.Predict(tr.X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("Predict before Fit: %v, want ErrNotFitted", err)
			}
			if _, err := m.PredictProba(tr.X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("PredictProba before Fit: %v, want ErrNotFitted", err)
			}
			if _, err := m.DecisionFunction(tr.X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("DecisionFunction before Fit: %v, want ErrNotFitted", err)
			}
			if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
				t.Fatal(err)
			}
			_, err := m.Predict(mat.NewDense(2, 3, nil))
			wantErr(t, err, "X has 3 columns; the model was fitted on 4 features (f0, f1, f2, f3)")
			_, err = m.PredictProba(mat.NewDense(1, 4, []float64{1, math.NaN(), 0, 0}))
			wantErr(t, err, `row 1, feature "f1": value is missing`)

			// A failed fit leaves the model unfitted, not holding the old fit.
			if err := engine.Fit(context.Background(), m, one, nil); err == nil {
				t.Fatal("fit on one class succeeded")
			}
			if _, err := m.Predict(tr.X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("Predict after a failed Fit: %v, want ErrNotFitted", err)
			}
		})
	}
}

func TestBadParams(t *testing.T) {
	// The registry rejects them before any fit.
	for _, tc := range []struct {
		model, param, value, want string
	}{
		{"lda", "priors", "bogus", `parameter priors: "bogus" is not one of empirical, uniform`},
		{"lda", "estimator", "x", `parameter estimator: "x"`},
		{"lda", "reg", "1.5", `parameter reg: "1.5" is out of range (float in [0, 1])`},
		{"qda", "reg", "-0.1", `parameter reg: "-0.1" is out of range`},
		{"qda", "decision", "vote", `parameter decision: "vote" is not one of map, risk`},
		{"gnb", "var_smoothing", "-1", `parameter var_smoothing: "-1" is out of range`},
		{"gnb", "loss", "0,1;a,0", `parameter loss: loss matrix row 2, entry 1: "a" is not a number`},
		{"qda", "loss", "1,2;3", "parameter loss: loss matrix row 2 has 1 entries, row 1 has 2"},
	} {
		_, _, _, err := engine.New(tc.model, map[string]string{tc.param: tc.value})
		wantErr(t, err, tc.want)
	}
}

func TestSingularCovariance(t *testing.T) {
	tr := blobs(3, 3, 40, 4)
	// Feature f1 is constant within class "b" only.
	cst := tr
	cst.X = mat.DenseCopyOf(tr.X)
	for i, c := range tr.Y {
		if c == 1 {
			cst.X.Set(i, 1, 0.1)
		}
	}
	wantErr(t, fitErr(t, "qda", nil, cst), `class "b": covariance is singular (feature "f1" is constant within the class); set reg > 0`)
	if err := fitErr(t, "qda", map[string]string{"reg": "0.01"}, cst); err != nil {
		t.Errorf("QDA with reg: %v", err)
	}
	if err := fitErr(t, "lda", nil, cst); err != nil {
		t.Errorf("LDA pools the classes and should fit: %v", err)
	}
	if err := fitErr(t, "gnb", nil, cst); err != nil {
		t.Errorf("GaussianNB smooths variances and should fit: %v", err)
	}

	// f3 = f0 - 2 f2: collinear in every class.
	col := tr
	col.X = mat.DenseCopyOf(tr.X)
	for i := range tr.Y {
		col.X.Set(i, 3, col.X.At(i, 0)-2*col.X.At(i, 2))
	}
	wantErr(t, fitErr(t, "qda", nil, col), `class "a": covariance is singular (feature "f3" is a linear combination of "f0", "f1", "f2"`, "set reg > 0")
	if err := fitErr(t, "qda", map[string]string{"reg": "0.1"}, col); err != nil {
		t.Errorf("qda with reg: %v", err)
	}
	// LDA drops the null direction: the same posteriors as without f3.
	sameAsWithout(t, col, 3, 3)

	// A feature constant everywhere.
	flat := tr
	flat.X = mat.DenseCopyOf(tr.X)
	for i := range tr.Y {
		flat.X.Set(i, 2, 7)
	}
	wantErr(t, fitErr(t, "qda", nil, flat), `class "a": covariance is singular (feature "f2" is constant within the class); set reg > 0`)
	sameAsWithout(t, flat, 2, 3)
	if err := fitErr(t, "lda", map[string]string{"reg": "0.5"}, flat); err != nil {
		t.Errorf("LDA with shrinkage: %v", err)
	}
	wantErr(t, fitErr(t, "lda", nil, allFlatTrain(tr)), "the pooled within-class covariance is zero: every feature is constant within every class")
	wantErr(t, fitErr(t, "gnb", nil, allFlatTrain(tr)), "every feature is constant")

	// A class with a single row: keep only the first row of class "c".
	first := -1
	for i, c := range tr.Y {
		if c == 2 && first < 0 {
			first = i
		}
	}
	single := subset(tr, func(i int) bool { return tr.Y[i] != 2 || i == first })
	wantErr(t, fitErr(t, "qda", nil, single), `class "c" has a single row, so its covariance is undefined; set reg > 0`)
	wantErr(t, fitErr(t, "qda", map[string]string{"estimator": "unbiased", "reg": "0.5"}, single),
		`class "c" has a single row: its unbiased covariance`, "use estimator=mle with reg > 0")
	if err := fitErr(t, "qda", map[string]string{"reg": "0.5"}, single); err != nil {
		t.Errorf("QDA with reg on a single-row class: %v", err)
	}
	if err := fitErr(t, "lda", nil, single); err != nil {
		t.Errorf("LDA with a single-row class: %v", err)
	}
	if err := fitErr(t, "gnb", nil, single); err != nil {
		t.Errorf("GaussianNB with a single-row class: %v", err)
	}
}

func allFlatTrain(tr engine.Train) engine.Train {
	n, d := tr.X.Dims()
	tr.X = mat.NewDense(n, d, nil)
	return tr
}

// sameAsWithout checks that LDA on tr, whose feature drop is constant or a
// linear combination of the others, fits with rank want and gives the
// posteriors of LDA on tr without that feature: the null direction of the
// pooled covariance is dropped (Shewchuk, Concise Machine Learning, lecture 7), as scikit-learn's svd solver does.
func sameAsWithout(t *testing.T, tr engine.Train, drop, want int) {
	t.Helper()
	n, d := tr.X.Dims()
	less := tr
	less.X = mat.NewDense(n, d-1, nil)
	less.Features = nil
	for i := 0; i < n; i++ {
		row := less.X.RawRowView(i)
		c := 0
		for j, v := range tr.X.RawRowView(i) {
			if j != drop {
				row[c] = v
				c++
			}
		}
	}
	var a, b LDA
	var rec stepRecorder
	if err := engine.Fit(context.Background(), &a, tr, &rec); err != nil {
		t.Fatal(err)
	}
	if got := rec.steps[0].Detail.(LDAFit).Rank; got != want {
		t.Errorf("rank %v, want %d", got, want)
	}
	if err := engine.Fit(context.Background(), &b, less, nil); err != nil {
		t.Fatal(err)
	}
	pa, _ := a.PredictProba(tr.X)
	pb, _ := b.PredictProba(less.X)
	if !mat.EqualApprox(pa, pb, 1e-9) {
		t.Errorf("LDA with feature %d (constant or collinear) differs from LDA without it", drop)
	}
}

// TestScaleInvariance: without reg, LDA and QDA posteriors do not depend on
// the features' units (the reason singularity is judged on the correlation
// matrix). Naive Bayes is left out: its var_smoothing adds a fraction of the
// largest variance to all features, which depends on their units.
func TestScaleInvariance(t *testing.T) {
	tr := blobs(4, 3, 50, 5)
	scaled := tr
	scaled.X = mat.DenseCopyOf(tr.X)
	units := []float64{1e-6, 1, 1e3, 1e6, 3}
	for i := range tr.Y {
		row := scaled.X.RawRowView(i)
		for j := range row {
			row[j] = row[j]*units[j] + 100*units[j]
		}
	}
	for _, name := range []string{"lda", "qda"} {
		a, b := newModel(t, name, nil), newModel(t, name, nil)
		if err := engine.Fit(context.Background(), a, tr, nil); err != nil {
			t.Fatal(err)
		}
		if err := engine.Fit(context.Background(), b, scaled, nil); err != nil {
			t.Fatal(err)
		}
		pa, _ := a.PredictProba(tr.X)
		pb, _ := b.PredictProba(scaled.X)
		if !mat.EqualApprox(pa, pb, 1e-7) {
			t.Errorf("%s: posteriors change with the features' units", name)
		}
	}
}

// TestNearlySingularWarns: a class covariance that passes the singularity
// test but has almost no room left (nearly collinear features) fits, with a
// warning that names the class and what to set.
func TestNearlySingularWarns(t *testing.T) {
	tr := blobs(3, 3, 40, 4)
	near := tr
	near.X = mat.DenseCopyOf(tr.X)
	for i := range tr.Y {
		near.X.Set(i, 3, near.X.At(i, 0)-2*near.X.At(i, 2)+1e-6*float64(i%7))
	}
	m := newModel(t, "qda", nil)
	if err := engine.Fit(context.Background(), m, near, nil); err != nil {
		t.Fatal(err)
	}
	w := m.(*QDA).Warnings()
	if len(w) != 3 || !strings.Contains(w[0], `class "a": its covariance is nearly singular`) || !strings.Contains(w[0], "set reg") {
		t.Errorf("warnings %q", w)
	}
	m = newModel(t, "qda", map[string]string{"reg": "0.01"})
	if err := engine.Fit(context.Background(), m, near, nil); err != nil || len(m.(*QDA).Warnings()) != 0 {
		t.Errorf("with reg: %v, warnings %q", err, m.(*QDA).Warnings())
	}
	m = newModel(t, "qda", nil)
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil || len(m.(*QDA).Warnings()) != 0 {
		t.Errorf("well-conditioned: %v, warnings %q", err, m.(*QDA).Warnings())
	}
}

// TestRegIsRelative: QDA's reg, like LDA's, shrinks toward the identity
// scaled to each covariance's size, so the same small reg does the same
// thing whatever the units: data in metres or in micrometres give the same
// posteriors. (Adding reg·I in the features' units, scikit-learn's
// reg_param, would swamp data in metres and vanish in micrometres.)
func TestRegIsRelative(t *testing.T) {
	tr := blobs(4, 3, 50, 5)
	for _, unit := range []float64{1e-6, 1e6} {
		scaled := tr
		scaled.X = mat.DenseCopyOf(tr.X)
		scaled.X.Scale(unit, scaled.X)
		for _, name := range []string{"lda", "qda"} {
			a, b := newModel(t, name, map[string]string{"reg": "0.05"}), newModel(t, name, map[string]string{"reg": "0.05"})
			if err := engine.Fit(context.Background(), a, tr, nil); err != nil {
				t.Fatal(err)
			}
			if err := engine.Fit(context.Background(), b, scaled, nil); err != nil {
				t.Fatal(err)
			}
			pa, _ := a.PredictProba(tr.X)
			pb, _ := b.PredictProba(scaled.X)
			if !mat.EqualApprox(pa, pb, 1e-7) {
				t.Errorf("%s reg=0.05: posteriors change when the data are in units %g times larger", name, unit)
			}
		}
	}
}

// TestAbsentClass: a class named in Classes without training rows (as in a
// fold of cross-validation) gets probability zero; the rest still works.
func TestAbsentClass(t *testing.T) {
	tr := blobs(5, 3, 30, 3)
	two := subset(tr, func(i int) bool { return tr.Y[i] != 1 })
	for _, name := range modelNames {
		for _, priors := range []string{"empirical", "uniform"} {
			m := newModel(t, name, map[string]string{"priors": priors})
			if err := engine.Fit(context.Background(), m, two, nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			P, err := m.PredictProba(tr.X)
			if err != nil {
				t.Fatal(err)
			}
			L, _ := m.DecisionFunction(tr.X)
			pred, _ := m.Predict(tr.X)
			for i := range tr.Y {
				if P.At(i, 1) != 0 || !math.IsInf(L.At(i, 1), -1) || pred[i] == 1 {
					t.Fatalf("%s: row %d: P(b) = %v, log %v, predicted %v", name, i, P.At(i, 1), L.At(i, 1), pred[i])
				}
				if s := P.At(i, 0) + P.At(i, 2); math.Abs(s-1) > 1e-12 {
					t.Fatalf("%s: row %d: posteriors sum to %v", name, i, s)
				}
			}
			type prior interface{ PriorProbs() []float64 }
			if p := m.(prior).PriorProbs(); p[1] != 0 || math.Abs(p[0]+p[2]-1) > 1e-15 {
				t.Errorf("%s: priors %v", name, p)
			}
		}
	}
	var m LDA
	if err := engine.Fit(context.Background(), &m, two, nil); err != nil {
		t.Fatal(err)
	}
	if c := m.Coefficients(); len(c.Outputs) != 2 || c.Outputs[0] != "a" || c.Outputs[1] != "c" {
		t.Errorf("coefficients of %v, want a and c", c.Outputs)
	}
}

// TestWeights: integer weights are frequency weights, the same as repeating
// the rows.
func TestWeights(t *testing.T) {
	tr := blobs(6, 3, 20, 3)
	n := len(tr.Y)
	w := make([]float64, n)
	var rep []int
	for i := range w {
		w[i] = float64(i % 3) // 0, 1 or 2 copies
		for r := 0; r < int(w[i]); r++ {
			rep = append(rep, i)
		}
	}
	weighted := tr
	weighted.Weights = w
	repeated := tr
	repeated.X = mat.NewDense(len(rep), 3, nil)
	repeated.Y = make([]float64, len(rep))
	for r, i := range rep {
		repeated.X.SetRow(r, tr.X.RawRowView(i))
		repeated.Y[r] = tr.Y[i]
	}
	for _, name := range modelNames {
		for _, params := range []map[string]string{nil, {"priors": "uniform"}} {
			a, b := newModel(t, name, params), newModel(t, name, params)
			var ra, rb stepRecorder
			if err := engine.Fit(context.Background(), a, weighted, &ra); err != nil {
				t.Fatal(err)
			}
			if err := engine.Fit(context.Background(), b, repeated, &rb); err != nil {
				t.Fatal(err)
			}
			pa, _ := a.PredictProba(tr.X)
			pb, _ := b.PredictProba(tr.X)
			if !mat.EqualApprox(pa, pb, 1e-10) {
				t.Errorf("%s %v: weights differ from repeated rows", name, params)
			}
			if math.Abs(ra.steps[0].TrainLoss-rb.steps[0].TrainLoss) > 1e-10 {
				t.Errorf("%s %v: NLL %v vs %v", name, params, ra.steps[0].TrainLoss, rb.steps[0].TrainLoss)
			}
		}
	}
}

type failRecorder struct{ err error }

func (r failRecorder) Step(engine.Step) error { return r.err }

func TestCancel(t *testing.T) {
	tr := blobs(7, 3, 30, 3)
	for _, name := range modelNames {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		m := newModel(t, name, nil)
		if err := engine.Fit(ctx, m, tr, engine.ContextRecorder{Ctx: ctx}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Fit with a cancelled context: %v", name, err)
		}
		stop := errors.New("stop")
		if err := engine.Fit(context.Background(), m, tr, failRecorder{stop}); !errors.Is(err, stop) {
			t.Errorf("%s: Fit returned %v, want the recorder's error", name, err)
		}
		if _, err := m.Predict(tr.X); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("%s: a stopped fit left a model: %v", name, err)
		}
	}
}

// insideRec predicts from inside the one step of a fit (engine/model.go: the
// model is predictable before each Step) and can cancel the fit's context
// there while returning nil, or fail the step.
type insideRec struct {
	m      probModel
	X      mat.Matrix
	cancel context.CancelFunc
	err    error
	steps  int
	pred   []float64
	proba  *mat.Dense
	score  *mat.Dense
	errs   []error
}

func (r *insideRec) Step(engine.Step) error {
	r.steps++
	var e1, e2, e3 error
	r.pred, e1 = r.m.Predict(r.X)
	r.proba, e2 = r.m.PredictProba(r.X)
	r.score, e3 = r.m.DecisionFunction(r.X)
	r.errs = append(r.errs, e1, e2, e3)
	if r.cancel != nil {
		r.cancel()
	}
	return r.err
}

// TestPredictInsideStep: the single step's predictions are the fit's.
func TestPredictInsideStep(t *testing.T) {
	tr := blobs(7, 3, 30, 3)
	for _, name := range modelNames {
		m := newModel(t, name, nil)
		rec := &insideRec{m: m, X: tr.X}
		if err := engine.Fit(context.Background(), m, tr, rec); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, err := range rec.errs {
			if err != nil {
				t.Errorf("%s: predicting inside Step: %v", name, err)
			}
		}
		pred, _ := m.Predict(tr.X)
		proba, _ := m.PredictProba(tr.X)
		score, _ := m.DecisionFunction(tr.X)
		if rec.steps != 1 || !floatsSame(rec.pred, pred) || rec.proba == nil || !mat.Equal(rec.proba, proba) ||
			rec.score == nil || !mat.Equal(rec.score, score) {
			t.Errorf("%s: %d steps; the step's predictions differ from the fit's", name, rec.steps)
		}
		// A failing step leaves the model unfitted although it predicted.
		stop := errors.New("stop")
		rec = &insideRec{m: m, X: tr.X, err: stop}
		if err := engine.Fit(context.Background(), m, tr, rec); !errors.Is(err, stop) {
			t.Errorf("%s: Fit returned %v, want the recorder's error", name, err)
		}
		if rec.errs[0] != nil {
			t.Errorf("%s: Predict inside a failing step: %v", name, rec.errs[0])
		}
		if _, err := m.Predict(tr.X); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("%s: a stopped fit left a model: %v", name, err)
		}
	}
}

func floatsSame(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCancelledInsideStep: a recorder that cancels the context and returns
// nil still stops the fit with context.Canceled and no model.
func TestCancelledInsideStep(t *testing.T) {
	tr := blobs(7, 3, 30, 3)
	for _, name := range modelNames {
		ctx, cancel := context.WithCancel(context.Background())
		m := newModel(t, name, nil)
		rec := &insideRec{m: m, X: tr.X, cancel: cancel}
		if err := engine.Fit(ctx, m, tr, rec); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Fit returned %v, want context.Canceled", name, err)
		}
		cancel()
		if rec.steps != 1 {
			t.Errorf("%s: %d steps, want 1", name, rec.steps)
		}
		if _, err := m.Predict(tr.X); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("%s: a cancelled fit left a model: %v", name, err)
		}
	}
}

// TestDeterministic: the same data gives bit-identical fits, and a refit
// replaces the previous one.
func TestDeterministic(t *testing.T) {
	a, b := blobs(8, 4, 25, 3), blobs(9, 2, 25, 3)
	for _, name := range modelNames {
		m1, m2 := newModel(t, name, nil), newModel(t, name, nil)
		if err := engine.Fit(context.Background(), m1, b, nil); err != nil {
			t.Fatal(err)
		}
		for _, m := range []probModel{m1, m2} {
			if err := engine.Fit(context.Background(), m, a, nil); err != nil {
				t.Fatal(err)
			}
		}
		p1, _ := m1.PredictProba(a.X)
		p2, _ := m2.PredictProba(a.X)
		if !mat.Equal(p1, p2) {
			t.Errorf("%s: two fits differ", name)
		}
		if _, k := p1.Dims(); k != 4 {
			t.Errorf("%s: %d classes after refit, want 4", name, k)
		}
	}
}

func TestRegistry(t *testing.T) {
	for _, name := range modelNames {
		s, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Family != "generative models" || s.Unit != "fit" || s.Notes == "" || len(s.Tasks) != 1 {
			t.Errorf("%s: spec %+v", name, s)
		}
		m, err := s.New(s.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(engine.Prober); !ok {
			t.Errorf("%s is not a Prober", name)
		}
		if _, ok := m.(engine.Scorer); !ok {
			t.Errorf("%s is not a Scorer", name)
		}
	}
	var _ engine.Coefficienter = (*LDA)(nil)
}

// TestDigits: digits has pixels that are constant within a class, the case
// the QDA error message is written for; LDA drops them (see TestReference).
func TestDigits(t *testing.T) {
	tr := loadCSV(t, "digits")
	wantErr(t, fitErr(t, "qda", nil, tr), `class "0": covariance is singular (feature "px0_0" is constant within the class); set reg > 0`)
	m := newModel(t, "qda", map[string]string{"reg": "0.5"})
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
		t.Fatalf("QDA with reg on digits: %v", err)
	}
}

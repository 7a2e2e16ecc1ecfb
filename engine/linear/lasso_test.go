package linear

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

// The lasso path on the standardised diabetes features: scikit-learn's
// Lasso(alpha, tol=1e-12, max_iter=1_000_000).fit(Xs, y), from
// testdata/leastsquares_ref.py. The zeros must be exact zeros, the other
// weights agree to 1e-6 of the largest.
func TestLassoPath(t *testing.T) {
	d := lsqDiabetes(t)
	d.X = lsqStandardise(d.X, d.X)
	const icept = 152.133484162896 // ȳ, for every α
	for _, tc := range []struct {
		alpha float64
		coef  []float64
	}{
		{0.01, []float64{-0.4532216898854332, -11.386124158044616, 24.735973782807175, 15.40771885727802, -36.06414571091279, 21.433219386767572, 4.035075251610957, 8.138117813048522, 35.151886563339026, 3.2132696226697535}},
		{0.1, []float64{-0.2775522783841656, -11.160779416152888, 24.853286360954932, 15.24210711098982, -26.477593360873513, 13.75670764946617, 0.0, 7.043017538093263, 31.588975454661504, 3.1587959114381623}},
		{0.5, []float64{0.0, -10.287405374903724, 24.985350980786077, 14.66921357845493, -7.77509332099833, 0.0, -8.432177461833824, 3.3024172610355746, 24.95505482068667, 2.906938196917164}},
		{1, []float64{0.0, -9.319329544909769, 24.831503728185538, 14.08898551228472, -4.838946192438969, 0.0, -10.622756297297796, 0.0, 24.420933398189778, 2.5618755134460134}},
		{2, []float64{0.0, -7.568198382747162, 24.622831566248998, 13.177846873985255, -2.7168997139606654, 0.0, -10.05358833593897, 0.0, 23.1479230125915, 1.690371440916796}},
		{5, []float64{0.0, -2.155407208311194, 24.21564461657314, 10.331495700276946, 0.0, 0.0, -7.027194975250593, 0.0, 21.22925483701435, 0.0}},
		{10, []float64{0.0, 0.0, 22.599024609075116, 6.8018724591972335, 0.0, 0.0, -3.0890723573727277, 0.0, 19.58587289451401, 0.0}},
		{20, []float64{0.0, 0.0, 18.03498133832645, 0.8930024687545352, 0.0, 0.0, 0.0, 0.0, 15.178407549667972, 0.0}},
		{50, []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		m := &Lasso{Alpha: tc.alpha, Tol: 1e-12, MaxIter: 1_000_000}
		rec := &lsqSteps{}
		if err := engine.Fit(context.Background(), m, d, rec); err != nil {
			t.Fatal(err)
		}
		coef, b := lsqCoefOf(t, m)
		if tc.alpha == 50 {
			// All weights are zero: compare absolutely.
			for j, c := range coef {
				if c != 0 {
					t.Errorf("alpha 50: coef[%d] = %v, want 0", j, c)
				}
			}
		} else {
			lsqClose(t, "coef", coef, tc.coef, 1e-6)
		}
		if math.Abs(b-icept) > 1e-9 {
			t.Errorf("alpha %v: intercept %v, want %v", tc.alpha, b, icept)
		}
		zeros, wantZeros := 0, 0
		for j := range coef {
			if coef[j] == 0 {
				zeros++
			}
			if tc.coef[j] == 0 {
				wantZeros++
			}
			if (coef[j] == 0) != (tc.coef[j] == 0) {
				t.Errorf("alpha %v: coef[%d] = %v, want %v", tc.alpha, j, coef[j], tc.coef[j])
			}
		}
		if !m.Converged() || len(m.Warnings()) != 0 {
			t.Errorf("alpha %v: not converged after %d sweeps: %q", tc.alpha, m.Sweeps(), m.Warnings())
		}
		// Progress: one step per sweep, the objective never rises, and the
		// last step counts the non-zero weights.
		if len(rec.steps) != m.Sweeps() {
			t.Errorf("alpha %v: %d steps for %d sweeps", tc.alpha, len(rec.steps), m.Sweeps())
		}
		for i := 1; i < len(rec.steps); i++ {
			if rec.steps[i].TrainLoss > rec.steps[i-1].TrainLoss*(1+1e-12) {
				t.Errorf("alpha %v: objective rose at sweep %d: %v -> %v", tc.alpha, i+1, rec.steps[i-1].TrainLoss, rec.steps[i].TrainLoss)
			}
		}
		last := rec.steps[len(rec.steps)-1]
		if sweep := last.Detail.(LassoSweep); sweep.Nonzero != len(coef)-zeros {
			t.Errorf("alpha %v: nonzero %v, want %d", tc.alpha, sweep.Nonzero, len(coef)-zeros)
		}
		if math.IsNaN(last.Detail.(LassoSweep).DualGap) {
			t.Errorf("alpha %v: the last step has no dual gap", tc.alpha)
		}
		// The objective of the last step is (1/2n)‖y − Xw − b‖² + α‖w‖₁.
		pred, _ := m.Predict(d.X)
		obj := 0.0
		for i, v := range d.Y {
			obj += (v - pred[i]) * (v - pred[i])
		}
		obj /= 2 * float64(len(d.Y))
		for _, c := range coef {
			obj += tc.alpha * math.Abs(c)
		}
		if math.Abs(last.TrainLoss-obj) > 1e-9*obj {
			t.Errorf("alpha %v: TrainLoss %v, want the objective %v", tc.alpha, last.TrainLoss, obj)
		}
	}
}

// At the default tolerance the iterates are scikit-learn's: Lasso(alpha=1.0)
// stops after n_iter_ = 21 sweeps with these weights.
func TestLassoDefaults(t *testing.T) {
	d := lsqDiabetes(t)
	d.X = lsqStandardise(d.X, d.X)
	m := &Lasso{Alpha: 1, MaxIter: 1000, Tol: 1e-4}
	if err := engine.Fit(context.Background(), m, d, nil); err != nil {
		t.Fatal(err)
	}
	if m.Sweeps() != 21 {
		t.Errorf("%d sweeps, want 21", m.Sweeps())
	}
	coef, _ := lsqCoefOf(t, m)
	lsqClose(t, "coef", coef, []float64{0.0, -9.319412530356498, 24.831276305943256, 14.08870568389941, -4.838928079864788, 0.0, -10.62279918883993, 0.0, 24.42081057431234, 2.5621298669139114}, 1e-9)
}

// Lasso(alpha=0.5, tol=1e-12).fit(Xs, y, sample_weight=1 + arange(n) % 5).
func TestLassoWeighted(t *testing.T) {
	d := lsqDiabetes(t)
	d.X = lsqStandardise(d.X, d.X)
	d.Weights = lsqWeights(d.Rows())
	m := &Lasso{Alpha: 0.5, Tol: 1e-12, MaxIter: 1_000_000}
	if err := engine.Fit(context.Background(), m, d, nil); err != nil {
		t.Fatal(err)
	}
	coef, b := lsqCoefOf(t, m)
	lsqClose(t, "coef", coef, []float64{-0.16600412989035368, -8.649377059512352, 25.246930260840042, 14.025035050664798, -7.534935869843155, 0.0, -8.70251167998219, 0.748385541811169, 26.54248716034785, 3.6782763984073092}, 1e-6)
	lsqClose(t, "intercept", []float64{b}, []float64{152.3103090536437}, 1e-9)
	if coef[5] != 0 {
		t.Errorf("coef[5] = %v, want 0", coef[5])
	}
}

// With orthogonal columns, XᵀX = nI, the lasso is soft-thresholding of the
// least-squares weights (a standard result: Hastie, Tibshirani & Friedman 2009, table 3.4):
// wⱼ = S(xⱼ·y/n, α). The columns are Hadamard ±1 vectors.
func TestLassoOrthogonal(t *testing.T) {
	const n = 8
	h := [][]float64{
		{1, 1, 1, 1, 1, 1, 1, 1},
		{1, -1, 1, -1, 1, -1, 1, -1},
		{1, 1, -1, -1, 1, 1, -1, -1},
		{1, -1, -1, 1, 1, -1, -1, 1},
	}
	X := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			X.Set(i, j, h[j+1][i])
		}
	}
	y := []float64{3, -1, 2, 0.5, 4, 1, -2, 0}
	const alpha = 0.4
	m := &Lasso{Alpha: alpha, Tol: 1e-14, MaxIter: 1000}
	if err := engine.Fit(context.Background(), m, engine.Train{X: X, Y: y}, nil); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, 3)
	for j := range want {
		z := 0.0
		for i := 0; i < n; i++ {
			z += h[j+1][i] * y[i]
		}
		z /= n
		want[j] = math.Copysign(max(math.Abs(z)-alpha, 0), z)
	}
	coef, _ := lsqCoefOf(t, m)
	lsqClose(t, "soft-threshold", coef, want, 1e-12)
	if m.Sweeps() > 2 {
		t.Errorf("%d sweeps: orthogonal columns converge in one sweep plus a check", m.Sweeps())
	}
}

// 10-fold CV R² matches cross_val_score(make_pipeline(StandardScaler(),
// Lasso(alpha=0.1)), X, y, cv=KFold(10)) fold by fold (mean 0.462824094230636).
func TestLassoCV(t *testing.T) {
	got := lsqCV(t, lsqDiabetes(t), 10, true, func() engine.Predictor { return &Lasso{Alpha: 0.1, MaxIter: 1000, Tol: 1e-4} })
	lsqClose(t, "CV R²", got, []float64{0.5507601460877742, 0.2399595334200464, 0.3645621096401547, 0.6145275360486261, 0.2689436972538337, 0.6227056807674054, 0.42466489503736427, 0.42722885669793886, 0.43074054611305057, 0.6841479412401659}, 1e-6)
}

func TestLassoStops(t *testing.T) {
	d := lsqDiabetes(t)
	d.X = lsqStandardise(d.X, d.X)
	// A recorder error at sweep 3 ends the fit there.
	stop := errors.New("stop")
	rec := &lsqSteps{stop: 3, err: stop}
	m := &Lasso{Alpha: 0.01, Tol: 1e-14, MaxIter: 1000}
	if err := engine.Fit(context.Background(), m, d, rec); !errors.Is(err, stop) || len(rec.steps) != 3 {
		t.Errorf("error %v after %d steps, want stop after 3", err, len(rec.steps))
	}
	// Running out of sweeps keeps the fit, with a warning.
	m = &Lasso{Alpha: 0.01, MaxIter: 2, Tol: 1e-4}
	if err := engine.Fit(context.Background(), m, d, nil); err != nil {
		t.Fatal(err)
	}
	if m.Converged() || len(m.Warnings()) != 1 || !strings.Contains(m.Warnings()[0], "did not converge in 2 sweeps") {
		t.Errorf("converged %v warnings %q", m.Converged(), m.Warnings())
	}
	if _, err := m.Predict(d.X); err != nil {
		t.Error(err)
	}
}

func TestLassoBadInput(t *testing.T) {
	lsqBadInputs(t, func() engine.Predictor { return &Lasso{Alpha: 1, MaxIter: 1000, Tol: 1e-4} })
	d := lsqDiabetes(t)
	// A constant column keeps a zero weight.
	X := mat.DenseCopyOf(d.X)
	for i := 0; i < d.Rows(); i++ {
		X.Set(i, 3, 7)
	}
	m := &Lasso{Alpha: 0.1, MaxIter: 1000, Tol: 1e-4}
	if err := engine.Fit(context.Background(), m, engine.Train{X: X, Y: d.Y}, nil); err != nil {
		t.Fatal(err)
	}
	if c, _ := lsqCoefOf(t, m); c[3] != 0 {
		t.Errorf("constant column weight %v, want 0", c[3])
	}
	_, v, lm, err := engine.New("lasso", map[string]string{"alpha": "0.1", "max_iter": "50", "tol": "1e-6", "intercept": "false"})
	if err != nil {
		t.Fatal(err)
	}
	if l := lm.(*Lasso); l.Alpha != 0.1 || l.MaxIter != 50 || l.Tol != 1e-6 || !l.NoIntercept {
		t.Errorf("values %v model %+v", v, l)
	}
}

// BenchmarkLasso20kx50 is the bench case lasso, alpha = 0.1 (scikit-learn's
// Lasso: 12.7 ms on 16k x 50 on this machine).
func BenchmarkLasso20kx50(b *testing.B) {
	d := lsqBenchData(20_000, 50, 10, 6)
	for b.Loop() {
		if err := engine.Fit(context.Background(), (&Lasso{Alpha: 0.1, MaxIter: 1000, Tol: 1e-4}), d, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The residual is kept exact: after many sweeps it still equals y − Xw.
func TestLassoResidualDrift(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	d := lsqBenchData(500, 20, 5, 7)
	for i := range d.Y {
		d.Y[i] += 1000 * r.Float64()
	}
	m := &Lasso{Alpha: 0.01, Tol: 1e-14, MaxIter: 5000}
	rec := &lsqSteps{}
	if err := engine.Fit(context.Background(), m, d, rec); err != nil {
		t.Fatal(err)
	}
	pred, _ := m.Predict(d.X)
	coef, _ := lsqCoefOf(t, m)
	obj := 0.0
	for i, v := range d.Y {
		obj += (v - pred[i]) * (v - pred[i])
	}
	obj /= 2 * float64(len(d.Y))
	for _, c := range coef {
		obj += 0.01 * math.Abs(c)
	}
	if got := rec.steps[len(rec.steps)-1].TrainLoss; math.Abs(got-obj) > 1e-9*obj {
		t.Errorf("objective from the residual %v, from the data %v", got, obj)
	}
}

// The Gram layout (many rows) and the residual layout give the same fit,
// with and without sample weights.
func TestLassoLayoutsAgree(t *testing.T) {
	d := lsqDiabetes(t)
	w := make([]float64, d.Rows())
	for i := range w {
		w[i] = 0.5 + float64(i%5)
	}
	for _, weights := range [][]float64{nil, w} {
		d.Weights = weights
		var fits [2]Lasso
		for k, ratio := range []int{1, 1 << 30} {
			fits[k] = Lasso{Alpha: 0.05, Tol: 1e-10, MaxIter: 1000, gramRatio: ratio}
			if err := engine.Fit(context.Background(), &fits[k], d, nil); err != nil {
				t.Fatal(err)
			}
		}
		a, b := fits[0].Coefficients(), fits[1].Coefficients()
		if !mat.EqualApprox(a.Weights, b.Weights, 1e-8) || math.Abs(a.Intercept[0]-b.Intercept[0]) > 1e-8 {
			t.Errorf("weights %v: gram %v %v, residual %v %v", weights != nil, mat.Formatted(a.Weights), a.Intercept, mat.Formatted(b.Weights), b.Intercept)
		}
		if fits[0].Sweeps() != fits[1].Sweeps() {
			t.Errorf("weights %v: %d and %d sweeps", weights != nil, fits[0].Sweeps(), fits[1].Sweeps())
		}
	}
}

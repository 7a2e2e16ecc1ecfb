package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/internal/sweep"
)

// logitRef is one entry of testdata/logistic_ref.json, made by
// testdata/logistic_ref.py with scikit-learn 1.2.1 (newton-cg, tol 1e-10; the
// script checks every solution's scaled gradient is below 1e-10).
type logitRef struct {
	C         float64
	Coef      [][]float64
	Intercept []float64
	Proba1    []float64 // binary: P(class 1)
	Proba     [][]float64
	Pred      []float64
}

func logitRefs(t testing.TB) map[string]logitRef {
	var ref map[string]logitRef
	linJSON(t, "logistic_ref.json", &ref)
	return ref
}

// logitWeights are the weights of the "weighted" reference: 1, 2, 3, 1, ...
func logitWeights(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = float64(1 + i%3)
	}
	return w
}

func TestLogisticSklearn(t *testing.T) {
	refs := logitRefs(t)
	for _, tc := range []struct {
		ref, file, multi string
		weighted         bool
		tol              float64 // on coefficients and probabilities
	}{
		{"breast_cancer_C1", "logistic_breast_cancer.csv", "", false, 1e-7},
		{"breast_cancer_C0.1", "logistic_breast_cancer.csv", "", false, 1e-7},
		{"breast_cancer_C100", "logistic_breast_cancer.csv", "", false, 1e-6},
		{"breast_cancer_weighted", "logistic_breast_cancer.csv", "", true, 1e-7},
		{"iris_multinomial_C1", "logistic_iris.csv", "multinomial", false, 1e-7},
		{"iris_multinomial_C10", "logistic_iris.csv", "", false, 1e-7},
		{"iris_ovr_C1", "logistic_iris.csv", "ovr", false, 1e-7},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			r := refs[tc.ref]
			d := linLoad(t, tc.file, true)
			if tc.weighted {
				d.Weights = logitWeights(len(d.Y))
			}
			m := Logistic{C: r.C, Multi: tc.multi, Tol: 1e-10, Solver: "auto", MaxIter: 100, LR: 0.1}
			rec := &linRec{}
			if err := engine.Fit(context.Background(), &m, d, rec); err != nil {
				t.Fatal(err)
			}
			c := m.Coefficients()
			linClose(t, "coef", c.Weights.RawMatrix().Data, linFlat(r.Coef), tc.tol)
			linClose(t, "intercept", c.Intercept, r.Intercept, tc.tol)
			P, err := m.PredictProba(d.X)
			if err != nil {
				t.Fatal(err)
			}
			if r.Proba1 != nil {
				linClose(t, "proba", mat.Col(nil, 1, P), r.Proba1, tc.tol)
			} else {
				linClose(t, "proba", P.RawMatrix().Data, linFlat(r.Proba), tc.tol)
			}
			pred, err := m.Predict(d.X)
			if err != nil {
				t.Fatal(err)
			}
			linClose(t, "pred", pred, r.Pred, 0)
			t.Logf("%d Newton iterations", len(rec.steps))

			// At the default tolerance (1e-4 on the scaled gradient, as
			// scikit-learn's) the fit stops a step earlier: J/n is within
			// 2e-4 (relative) of the optimum and probabilities within 5e-3
			// (1e-4 on the well-conditioned problems). The criterion is
			// relative to C·n, so it is looser for large C.
			m.Tol = 0
			rec = &linRec{}
			if err := engine.Fit(context.Background(), &m, d, rec); err != nil {
				t.Fatal(err)
			}
			P, _ = m.PredictProba(d.X)
			if r.Proba1 != nil {
				linClose(t, "proba at tol 1e-4", mat.Col(nil, 1, P), r.Proba1, 5e-3)
			} else {
				linClose(t, "proba at tol 1e-4", P.RawMatrix().Data, linFlat(r.Proba), 5e-3)
			}
			if tc.multi != "ovr" && !tc.weighted {
				got, want := rec.steps[len(rec.steps)-1].TrainLoss, logitRefLoss(r, d)
				if rel := (got - want) / want; rel < -1e-12 || rel > 2e-4 {
					t.Errorf("J/n at tol 1e-4: %.12f, optimum %.12f", got, want)
				}
			}
		})
	}
}

// logitRefLoss is J/n = (½‖W‖² + C Σ −ln p_i(y_i)) / n at a binary or
// multinomial reference solution.
func logitRefLoss(r logitRef, d engine.Train) float64 {
	J := 0.5 * floats.Dot(linFlat(r.Coef), linFlat(r.Coef))
	for i, y := range d.Y {
		switch {
		case r.Proba1 == nil:
			J -= r.C * math.Log(r.Proba[i][int(y)])
		case y == 1:
			J -= r.C * math.Log(r.Proba1[i])
		default:
			J -= r.C * math.Log(1-r.Proba1[i])
		}
	}
	return J / float64(len(d.Y))
}

// Newton/IRLS on standardised breast_cancer converges in a handful of
// iterations; the history shows J/n falling to the reference optimum.
func TestLogisticNewtonHistory(t *testing.T) {
	r := logitRefs(t)["breast_cancer_C1"]
	d := linLoad(t, "logistic_breast_cancer.csv", true)
	J := logitRefLoss(r, d)

	m := Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}
	rec := &linRec{}
	if err := engine.Fit(context.Background(), &m, d, rec); err != nil {
		t.Fatal(err)
	}
	prev := math.Log(2) // J/n at w = 0
	for _, s := range rec.steps {
		t.Logf("iteration %d: J/n = %.10f, grad = %.3g", s.Step, s.TrainLoss, s.Detail.(LogisticIteration).Grad)
		if !(s.TrainLoss < prev) {
			t.Errorf("iteration %d: J/n %v did not decrease from %v", s.Step, s.TrainLoss, prev)
		}
		if s.Total != 100 {
			t.Errorf("Total %d, want max_iter 100", s.Total)
		}
		prev = s.TrainLoss
	}
	last := rec.steps[len(rec.steps)-1]
	if len(rec.steps) > 10 || last.Detail.(LogisticIteration).Grad > 1e-4 {
		t.Errorf("%d iterations, final scaled gradient %g: want <= 10 and <= 1e-4", len(rec.steps), last.Detail.(LogisticIteration).Grad)
	}
	if rel := (last.TrainLoss - J) / J; rel < -1e-12 || rel > 1e-5 {
		t.Errorf("final J/n %.12f, reference %.12f", last.TrainLoss, J)
	}
}

// Gradient descent converges to the same optimum, only slower; SGD with a
// constant rate gets close to it. Coefficients are compared where the problem
// is well conditioned (iris), the objective J/n elsewhere.
func TestLogisticGradientSolvers(t *testing.T) {
	refs := logitRefs(t)
	for _, tc := range []struct {
		ref, file string
		m         Logistic
		coefTol   float64 // on coefficients, if > 0
		lossTol   float64 // relative, on J/n, if > 0
	}{
		{"iris_multinomial_C1", "logistic_iris.csv", Logistic{Solver: "gd", LR: 1, MaxIter: 50000, Tol: 1e-9, C: 1, Multi: "multinomial"}, 1e-6, 1e-12},
		{"iris_ovr_C1", "logistic_iris.csv", Logistic{Solver: "gd", Multi: "ovr", LR: 1, MaxIter: 50000, Tol: 1e-9, C: 1}, 1e-6, 0},
		{"breast_cancer_C1", "logistic_breast_cancer.csv", Logistic{Solver: "gd", LR: 0.5, MaxIter: 20000, Tol: 1e-7, C: 1, Multi: "multinomial"}, 0, 1e-6},
		{"iris_multinomial_C1", "logistic_iris.csv", Logistic{Solver: "sgd", LR: 0.01, MaxIter: 300, C: 1, Multi: "multinomial", Tol: 1e-4}, 0.1, 1e-3},
		{"breast_cancer_C1", "logistic_breast_cancer.csv", Logistic{Solver: "sgd", LR: 0.002, MaxIter: 300, C: 1, Multi: "multinomial", Tol: 1e-4}, 0, 0.02},
	} {
		t.Run(tc.m.Solver+" "+tc.ref, func(t *testing.T) {
			r := refs[tc.ref]
			d := linLoad(t, tc.file, true)
			m := tc.m
			rec := &linRec{}
			if err := engine.Fit(context.Background(), &m, d, rec); err != nil {
				t.Fatal(err)
			}
			last := rec.steps[len(rec.steps)-1]
			t.Logf("%d steps, J/n %.10f, grad %.3g", len(rec.steps), last.TrainLoss, last.Detail.(LogisticIteration).Grad)
			if tc.coefTol > 0 {
				c := m.Coefficients()
				linClose(t, "coef", c.Weights.RawMatrix().Data, linFlat(r.Coef), tc.coefTol)
				linClose(t, "intercept", c.Intercept, r.Intercept, tc.coefTol)
			}
			if tc.lossTol > 0 {
				want := logitRefLoss(r, d)
				if rel := (last.TrainLoss - want) / want; rel < -1e-12 || rel > tc.lossTol {
					t.Errorf("J/n %.10f, optimum %.10f (relative excess %.3g > %g)", last.TrainLoss, want, rel, tc.lossTol)
				}
			}
		})
	}
}

// gd with a huge learning rate diverges: the recorder sees a non-finite loss
// and Fit returns an error wrapping engine.ErrDiverged that suggests a
// smaller learning rate.
func TestLogisticDiverges(t *testing.T) {
	d := linLoad(t, "logistic_breast_cancer.csv", true)
	for _, solver := range []string{"gd", "sgd"} {
		m := Logistic{Solver: solver, LR: 1e6, MaxIter: 1000, C: 1, Multi: "multinomial", Tol: 1e-4}
		rec := &linRec{}
		err := engine.Fit(context.Background(), &m, d, rec)
		if !errors.Is(err, engine.ErrDiverged) || !strings.Contains(err.Error(), "smaller learning rate") {
			t.Fatalf("%s: Fit error %v, want ErrDiverged", solver, err)
		}
		last := rec.steps[len(rec.steps)-1].TrainLoss
		if !math.IsNaN(last) && !math.IsInf(last, 0) {
			t.Errorf("%s: last reported loss %v, want NaN or Inf", solver, last)
		}
		if _, err := m.Predict(d.X); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("%s: Predict after divergence: %v", solver, err)
		}
		t.Logf("%s: %v after %d steps", solver, err, len(rec.steps))
	}
}

// sgd is seeded: same seed, same weights.
func TestLogisticSeeded(t *testing.T) {
	d := linLoad(t, "logistic_iris.csv", true)
	fit := func(seed uint64) []float64 {
		d.Seed = seed
		m := Logistic{Solver: "sgd", MaxIter: 3, C: 1, Multi: "multinomial", Tol: 1e-4, LR: 0.1}
		if err := engine.Fit(context.Background(), &m, d, nil); err != nil {
			t.Fatal(err)
		}
		return m.Coefficients().Weights.RawMatrix().Data
	}
	a, b, c := fit(1), fit(1), fit(2)
	linClose(t, "same seed", a, b, 0)
	if floats.Equal(a, c) {
		t.Error("seeds 1 and 2 gave the same weights")
	}
}

// An integer sample weight counts a row that many times: newton and gd give
// the fit on the data with each row repeated (weight 0 drops it).
func TestLogisticWeightsAreCounts(t *testing.T) {
	for _, file := range []string{"logistic_iris.csv", "logistic_breast_cancer.csv"} {
		d := linLoad(t, file, true)
		w := make([]float64, len(d.Y))
		var idx []int
		for i := range w {
			w[i] = float64(i % 3)
			for k := 0; k < i%3; k++ {
				idx = append(idx, i)
			}
		}
		dw := d
		dw.Weights = w
		for _, m := range []Logistic{{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}, {Multi: "ovr", Solver: "auto", C: 1, MaxIter: 100, Tol: 1e-4, LR: 0.1}, {Solver: "gd", LR: 0.5, MaxIter: 300, C: 1, Multi: "multinomial", Tol: 1e-4}} {
			a, b := m, m
			if err := engine.Fit(context.Background(), &a, dw, nil); err != nil {
				t.Fatal(err)
			}
			if err := engine.Fit(context.Background(), &b, linSubset(d, idx), nil); err != nil {
				t.Fatal(err)
			}
			linClose(t, file+" "+m.Solver+" weighted vs repeated", a.Coefficients().Weights.RawMatrix().Data, b.Coefficients().Weights.RawMatrix().Data, 1e-8)
		}
	}
}

// A class with no training rows gets probability 0 and the others are fitted
// exactly as if it did not exist.
func TestLogisticAbsentClass(t *testing.T) {
	d := linLoad(t, "logistic_iris.csv", true)
	a := Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}
	if err := engine.Fit(context.Background(), &a, d, nil); err != nil {
		t.Fatal(err)
	}
	d4 := d
	d4.Classes = []string{"setosa", "unseen", "versicolor", "virginica"}
	d4.Y = make([]float64, len(d.Y))
	for i, v := range d.Y {
		d4.Y[i] = v
		if v > 0 {
			d4.Y[i] = v + 1
		}
	}
	b := Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}
	if err := engine.Fit(context.Background(), &b, d4, nil); err != nil {
		t.Fatal(err)
	}
	Pa, _ := a.PredictProba(d.X)
	Pb, err := b.PredictProba(d.X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Y {
		ra, rb := Pa.RawRowView(i), Pb.RawRowView(i)
		if rb[1] != 0 || ra[0] != rb[0] || ra[1] != rb[2] || ra[2] != rb[3] {
			t.Fatalf("row %d: %v vs %v", i, ra, rb)
		}
	}
	F, _ := b.DecisionFunction(d.X)
	if F.At(0, 1) != -math.MaxFloat64 {
		t.Errorf("absent class scores %v", F.At(0, 1))
	}
}

// The derivatives the Newton solver uses agree with finite differences of J,
// for the binary and the multinomial objective, with sample weights.
func TestLogisticDerivatives(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	n, p, m := 40, 3, 3
	X := mat.NewDense(n, p, nil)
	cls := make([]int, n)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			X.Set(i, j, r.NormFloat64())
		}
		cls[i] = r.IntN(m)
	}
	sw := make([]float64, n)
	for i := range sw {
		sw[i] = 0.5 + r.Float64()
	}
	data := newLogitData(X, 0.7, sw)
	for _, obj := range []logitObjective{newLogitBin(data, cls, 1), newLogitMulti(data, m, cls)} {
		k := obj.dim()
		theta := make([]float64, k)
		for j := range theta {
			theta[j] = r.NormFloat64()
		}
		if mo, ok := obj.(*logitMulti); ok { // intercepts summing to zero
			s := 0.0
			for c := 0; c < m; c++ {
				s += theta[c*mo.q+p]
			}
			for c := 0; c < m; c++ {
				theta[c*mo.q+p] -= s / float64(m)
			}
		}
		g := make([]float64, k)
		obj.eval(theta, g)
		H := make([]float64, k*k)
		obj.hessian(H, n)
		// Direction with intercept parts summing to zero: the multinomial
		// Hessian's gauge term γuuᵀ vanishes on it.
		v := make([]float64, k)
		for j := range v {
			v[j] = r.NormFloat64()
		}
		if mo, ok := obj.(*logitMulti); ok {
			s := 0.0
			for c := 0; c < m; c++ {
				s += v[c*mo.q+p]
			}
			for c := 0; c < m; c++ {
				v[c*mo.q+p] -= s / float64(m)
			}
		}
		const h = 1e-5
		tp, tm := make([]float64, k), make([]float64, k)
		gp, gm := make([]float64, k), make([]float64, k)
		floats.AddScaledTo(tp, theta, h, v)
		floats.AddScaledTo(tm, theta, -h, v)
		Jp, Jm := obj.eval(tp, gp), obj.eval(tm, gm)
		if fd, an := (Jp-Jm)/(2*h), floats.Dot(g, v); math.Abs(fd-an) > 1e-6*math.Max(1, math.Abs(an)) {
			t.Errorf("%T: directional derivative %v, finite difference %v", obj, an, fd)
		}
		// H v (H holds the upper triangle) against (∇J(θ+hv) − ∇J(θ−hv)) / 2h.
		for a := 0; a < k; a++ {
			hv := 0.0
			for b := 0; b < k; b++ {
				hab := H[a*k+b]
				if b < a {
					hab = H[b*k+a]
				}
				hv += hab * v[b]
			}
			if fd := (gp[a] - gm[a]) / (2 * h); math.Abs(fd-hv) > 1e-5*math.Max(1, math.Abs(hv)) {
				t.Errorf("%T: (Hv)[%d] = %v, finite difference %v", obj, a, hv, fd)
			}
		}
	}
}

// logitBenchData is a make_classification-like problem: Gaussian features,
// 10 of which drive a logistic label, with 2% of labels flipped.
func logitBenchData(n, p int, seed uint64) engine.Train {
	r := rand.New(rand.NewPCG(seed, 2))
	w := make([]float64, p)
	for j := 0; j < min(p, 10); j++ {
		w[j] = r.NormFloat64()
	}
	X := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		row := X.RawRowView(i)
		for j := range row {
			row[j] = r.NormFloat64()
		}
		if r.Float64() < 1/(1+math.Exp(-2*floats.Dot(w, row))) {
			y[i] = 1
		}
		if r.Float64() < 0.02 {
			y[i] = 1 - y[i]
		}
	}
	return engine.Train{X: X, Y: y, Classes: []string{"0", "1"}, Seed: seed}
}

// With more than 16384 rows the Newton Hessian is subsampled; the fit still
// reaches the exact optimum (a tiny gradient) in few iterations.
func TestLogisticLargeNewton(t *testing.T) {
	d := logitBenchData(40000, 10, 9)
	d.Weights = logitWeights(40000)
	for _, multi := range []string{"binary", "multinomial"} {
		dd := d
		if multi == "multinomial" { // three classes: split class 1 by the sign of x0
			dd.Classes = []string{"0", "1", "2"}
			dd.Y = append([]float64(nil), d.Y...)
			for i := range dd.Y {
				if dd.Y[i] == 1 && d.X.At(i, 0) > 0 {
					dd.Y[i] = 2
				}
			}
		}
		m := Logistic{Tol: 1e-9, Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, LR: 0.1}
		rec := &linRec{}
		if err := engine.Fit(context.Background(), &m, dd, rec); err != nil {
			t.Fatal(err)
		}
		last := rec.steps[len(rec.steps)-1]
		if last.Detail.(LogisticIteration).Grad > 1e-9 || len(rec.steps) > 15 {
			t.Errorf("%s: %d iterations, final scaled gradient %g", multi, len(rec.steps), last.Detail.(LogisticIteration).Grad)
		}
		for _, s := range rec.steps {
			t.Logf("%s iteration %d: J/n = %.12f, grad = %.3g", multi, s.Step, s.TrainLoss, s.Detail.(LogisticIteration).Grad)
		}
	}
}

func TestLogisticBadInput(t *testing.T) {
	for _, s := range []string{"auto", "newton", "lbfgs", "gd", "sgd"} {
		linBadInputs(t, func() engine.Predictor {
			return &Logistic{Solver: s, C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}
		})
	}
	// Newton refuses systems it cannot solve in reasonable time.
	wide := engine.Train{X: mat.NewDense(4, 3000, nil), Y: []float64{0, 1, 0, 1}, Classes: []string{"a", "b"}}
	m := Logistic{Solver: "newton", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}
	if err := engine.Fit(context.Background(), &m, wide, nil); err == nil || !strings.Contains(err.Error(), "use solver=gd or sgd") {
		t.Errorf("3000 features: %v", err)
	}
	// The default chooses L-BFGS for such a system.
	m = Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}
	if err := engine.Fit(context.Background(), &m, wide, nil); err != nil || m.SolverUsed() != "lbfgs" {
		t.Errorf("3000 features, solver=auto: %v, used %q", err, m.SolverUsed())
	}
}

// L-BFGS minimises the same objective as Newton: the same coefficients on
// real data, binary and multinomial (and the auto choice picks each where
// the doc comment says).
func TestLogisticLBFGSMatchesNewton(t *testing.T) {
	lbfgsMatchesNewton(t, "breast_cancer", "wine")
	// Too few iterations: a warning that says so.
	d := linBuiltinStd(t, "digits")
	m := Logistic{Solver: "lbfgs", MaxIter: 3, C: 1, Multi: "multinomial", Tol: 1e-4, LR: 0.1}
	if err := engine.Fit(context.Background(), &m, d, nil); err != nil {
		t.Fatal(err)
	}
	if w := m.Warnings(); len(w) != 1 || !strings.Contains(w[0], "raise max_iter") {
		t.Errorf("warnings %q", w)
	}
}

// The same on digits, 10 classes x 65 unknowns.
func TestLogisticLBFGSMatchesNewtonOnDigitsLong(t *testing.T) {
	sweep.Skip(t, "Newton and L-BFGS on digits")
	lbfgsMatchesNewton(t, "digits")
}

func lbfgsMatchesNewton(t *testing.T, builtins ...string) {
	t.Helper()
	for _, name := range builtins {
		d := linBuiltinStd(t, name)
		a, b := Logistic{Solver: "newton", Tol: 1e-8, C: 1, Multi: "multinomial", MaxIter: 100, LR: 0.1}, Logistic{Solver: "lbfgs", Tol: 1e-8, MaxIter: 1000, C: 1, Multi: "multinomial", LR: 0.1}
		if err := engine.Fit(context.Background(), &a, d, nil); err != nil {
			t.Fatal(err)
		}
		if err := engine.Fit(context.Background(), &b, d, nil); err != nil {
			t.Fatal(err)
		}
		ca, cb := a.Coefficients(), b.Coefficients()
		if !mat.EqualApprox(ca.Weights, cb.Weights, 1e-4) || !floats.EqualApprox(ca.Intercept, cb.Intercept, 1e-4) {
			t.Errorf("%s: lbfgs and newton coefficients differ", name)
		}
		auto := Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}
		if err := engine.Fit(context.Background(), &auto, d, nil); err != nil {
			t.Fatal(err)
		}
		want := "newton"
		if name == "digits" {
			want = "lbfgs" // 10 classes x 65 unknowns
		}
		if auto.SolverUsed() != want || len(auto.Warnings()) != 0 {
			t.Errorf("%s: auto used %s (warnings %q), want %s", name, auto.SolverUsed(), auto.Warnings(), want)
		}
	}
}

func TestLogisticRegistered(t *testing.T) {
	spec, _, m, err := engine.New("logistic", map[string]string{"solver": "sgd", "C": "2", "multi": "ovr", "max_iter": "5", "tol": "1e-6", "lr": "0.01"})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.(*Logistic); got.Solver != "sgd" || got.C != 2 || got.Multi != "ovr" || got.MaxIter != 5 || got.Tol != 1e-6 || got.LR != 0.01 {
		t.Errorf("New gave %+v", got)
	}
	if !spec.Standardize || !strings.Contains(spec.Notes, "Shewchuk") {
		t.Errorf("spec %+v", spec)
	}
	_, _, m, _ = engine.New("logistic", nil)
	var _ engine.Prober = m.(*Logistic)
	var _ engine.Scorer = m.(*Logistic)
	var _ engine.Coefficienter = m.(*Logistic)
}

// BenchmarkLogisticNewton is the bench case "logistic" (C = 1, Newton) on
// synthetic 50k × 20 data.
func BenchmarkLogisticNewton(b *testing.B) {
	d := logitBenchData(50000, 20, 1)
	m := Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := engine.Fit(context.Background(), &m, d, nil); err != nil {
			b.Fatal(err)
		}
	}
}

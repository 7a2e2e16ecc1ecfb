package linear

// The contract of engine/model.go: before each Recorder.Step the model
// predicts with the state of that step (how eval draws live validation
// curves), and a Fit that fails leaves the model unfitted. The reference
// values here are the models' own: the TrainLoss a step reports, recomputed
// from what Predict and PredictProba return inside that step, and the
// predictions after Fit, which the last step's must equal (bit for bit but
// for Stepwise, whose final refit may differ in rounding).

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// midfitRec calls Predict (and PredictProba, DecisionFunction when the model
// has them) on d.X from inside every Step, and checks the step's TrainLoss
// against loss(step's predictions) when loss is set.
type midfitRec struct {
	t     *testing.T
	m     engine.Predictor
	d     engine.Train
	loss  func(d engine.Train, m engine.Predictor, pred []float64) float64
	tol   float64
	steps int
	pred  []float64
	proba *mat.Dense
	score *mat.Dense
}

func (r *midfitRec) Step(s engine.Step) error {
	r.t.Helper()
	r.steps++
	pred, err := r.m.Predict(r.d.X)
	if err != nil {
		r.t.Fatalf("step %d: Predict: %v", s.Step, err)
	}
	r.pred = pred
	if p, ok := r.m.(engine.Prober); ok {
		if r.proba, err = p.PredictProba(r.d.X); err != nil {
			r.t.Fatalf("step %d: PredictProba: %v", s.Step, err)
		}
	}
	if sc, ok := r.m.(engine.Scorer); ok {
		if r.score, err = sc.DecisionFunction(r.d.X); err != nil {
			r.t.Fatalf("step %d: DecisionFunction: %v", s.Step, err)
		}
	}
	if r.loss != nil {
		got := r.loss(r.d, r.m, pred)
		if d := math.Abs(got - s.TrainLoss); !(d <= r.tol*math.Abs(s.TrainLoss)) {
			r.t.Errorf("step %d: TrainLoss %.15g, but the step's predictions give %.15g", s.Step, s.TrainLoss, got)
		}
	}
	return nil
}

func midfitWeight(d engine.Train, i int) float64 {
	if d.Weights == nil {
		return 1
	}
	return d.Weights[i]
}

// midfitLogitLoss is Logistic's TrainLoss, (½‖W‖² + C Σ ω_i (−ln P(y_i|x_i)))
// / Σω, from the step's PredictProba and Coefficients (binary and
// multinomial; ovr sums per-class objectives that PredictProba does not show).
func midfitLogitLoss(C float64) func(engine.Train, engine.Predictor, []float64) float64 {
	return func(d engine.Train, m engine.Predictor, _ []float64) float64 {
		P, err := m.(engine.Prober).PredictProba(d.X)
		if err != nil {
			return math.NaN()
		}
		W := m.(engine.Coefficienter).Coefficients().Weights
		pen := 0.0
		for _, w := range W.RawMatrix().Data {
			pen += 0.5 * w * w
		}
		ll, sw := 0.0, 0.0
		for i, y := range d.Y {
			ll -= midfitWeight(d, i) * math.Log(P.At(i, int(y)))
			sw += midfitWeight(d, i)
		}
		return (pen + C*ll) / sw
	}
}

// midfitMSE is Σω(y−ŷ)²/Σω, Stepwise's TrainLoss.
func midfitMSE(d engine.Train, _ engine.Predictor, pred []float64) float64 {
	ss, sw := 0.0, 0.0
	for i, y := range d.Y {
		w := midfitWeight(d, i)
		ss += w * (y - pred[i]) * (y - pred[i])
		sw += w
	}
	return ss / sw
}

// midfitLassoLoss is Lasso's TrainLoss, Σω(y−ŷ)²/(2Σω) + α‖w‖₁.
func midfitLassoLoss(alpha float64) func(engine.Train, engine.Predictor, []float64) float64 {
	return func(d engine.Train, m engine.Predictor, pred []float64) float64 {
		l1 := 0.0
		for _, w := range m.(engine.Coefficienter).Coefficients().Weights.RawMatrix().Data {
			l1 += math.Abs(w)
		}
		return midfitMSE(d, m, pred)/2 + alpha*l1
	}
}

func midfitSame(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func midfitSameDense(a, b *mat.Dense) bool {
	if a == nil || b == nil {
		return a == b
	}
	return midfitSame(a.RawMatrix().Data, b.RawMatrix().Data)
}

func TestPredictDuringFit(t *testing.T) {
	breast := linLoad(t, "logistic_breast_cancer.csv", true)
	breastW := breast
	breastW.Weights = logitWeights(breast.Rows())
	iris := linLoad(t, "logistic_iris.csv", true)
	diabetes := lsqDiabetes(t)
	diabetesStd := diabetes
	diabetesStd.X = lsqStandardise(diabetes.X, diabetes.X)
	diabetesW := diabetes
	diabetesW.Weights = lsqWeights(diabetes.Rows())
	flat := diabetes
	flat.Y = make([]float64, diabetes.Rows())
	for i := range flat.Y {
		flat.Y[i] = 7
	}

	for _, tc := range []struct {
		name     string
		m        engine.Predictor
		d        engine.Train
		loss     func(engine.Train, engine.Predictor, []float64) float64
		tol      float64
		minSteps int
		// predTol: how far the last step's predictions may be from those
		// after Fit, relative to max(1, |ŷ|); 0 means bit for bit. Stepwise
		// publishes the coefficients its sweeps leave, and refits by Cholesky
		// at the end.
		predTol float64
	}{
		{"logistic newton binary", &Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}, breast, midfitLogitLoss(1), 1e-6, 3, 0},
		{"logistic newton weighted", &Logistic{C: 0.1, Solver: "auto", Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}, breastW, midfitLogitLoss(0.1), 1e-6, 3, 0},
		{"logistic newton multinomial", &Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}, iris, midfitLogitLoss(1), 1e-6, 3, 0},
		{"logistic newton ovr", &Logistic{Multi: "ovr", Solver: "auto", C: 1, MaxIter: 100, Tol: 1e-4, LR: 0.1}, iris, nil, 0, 3, 0},
		{"logistic gd", &Logistic{Solver: "gd", MaxIter: 20, C: 1, Multi: "multinomial", Tol: 1e-4, LR: 0.1}, breast, midfitLogitLoss(1), 1e-6, 20, 0},
		{"logistic sgd multinomial", &Logistic{Solver: "sgd", LR: 0.01, MaxIter: 5, C: 1, Multi: "multinomial", Tol: 1e-4}, iris, midfitLogitLoss(1), 1e-6, 5, 0},
		{"perceptron stochastic binary", &Perceptron{Epochs: 10, Mode: "stochastic", LR: 1}, breast, nil, 0, 2, 0},
		{"perceptron batch ovr", &Perceptron{Mode: "batch", Epochs: 10, LR: 1}, iris, nil, 0, 10, 0},
		{"perceptron stochastic ovr", &Perceptron{Epochs: 10, Mode: "stochastic", LR: 1}, iris, nil, 0, 10, 0},
		{"lasso", &Lasso{Alpha: 0.1, MaxIter: 1000, Tol: 1e-4}, diabetesStd, midfitLassoLoss(0.1), 1e-9, 3, 0},
		{"lasso weighted", &Lasso{Alpha: 1, MaxIter: 1000, Tol: 1e-4}, func() engine.Train { d := diabetesStd; d.Weights = diabetesW.Weights; return d }(), midfitLassoLoss(1), 1e-9, 3, 0},
		{"stepwise rss", &Stepwise{Criterion: "rss", Folds: 5, Holdout: 0.2}, diabetes, midfitMSE, 1e-9, 10, 1e-9},
		{"stepwise cv weighted", &Stepwise{Criterion: "cv", Folds: 5, Holdout: 0.2}, diabetesW, midfitMSE, 1e-9, 3, 1e-9},
		{"stepwise nothing to add", &Stepwise{Criterion: "cv", Folds: 5, Holdout: 0.2}, flat, midfitMSE, 0, 1, 1e-9},
		// One-step models publish their fit before the step.
		{"least squares", &LeastSquares{Solver: "normal", Degree: 1}, diabetesW, midfitMSE, 1e-9, 1, 0},
		{"least squares degree 2", &LeastSquares{Degree: 2, Solver: "normal"}, diabetes, midfitMSE, 1e-9, 1, 0},
		{"ridge", &Ridge{Alpha: 0.5}, diabetesW, midfitMSE, 1e-9, 1, 0},
		{"centroid", &Centroid{}, iris, nil, 0, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &midfitRec{t: t, m: tc.m, d: tc.d, loss: tc.loss, tol: tc.tol}
			if err := engine.Fit(context.Background(), tc.m, tc.d, rec); err != nil {
				t.Fatal(err)
			}
			if rec.steps < tc.minSteps {
				t.Fatalf("%d steps, want at least %d", rec.steps, tc.minSteps)
			}
			pred, err := tc.m.Predict(tc.d.X)
			if err != nil {
				t.Fatal(err)
			}
			if tc.predTol > 0 {
				linClose(t, "last step's predictions", rec.pred, pred, tc.predTol)
			} else if !midfitSame(rec.pred, pred) {
				t.Error("the last step's predictions differ from those after Fit")
			}
			if p, ok := tc.m.(engine.Prober); ok {
				if P, _ := p.PredictProba(tc.d.X); !midfitSameDense(rec.proba, P) {
					t.Error("the last step's probabilities differ from those after Fit")
				}
			}
			if s, ok := tc.m.(engine.Scorer); ok {
				if S, _ := s.DecisionFunction(tc.d.X); !midfitSameDense(rec.score, S) {
					t.Error("the last step's scores differ from those after Fit")
				}
			}
		})
	}
}

// midfitStop fails the fit at its first step, after checking that the model
// predicts there.
type midfitStop struct {
	m         engine.Predictor
	x         mat.Matrix
	predicted bool
}

var errMidfitStop = errors.New("stopped by the test")

func (r *midfitStop) Step(engine.Step) error {
	_, err := r.m.Predict(r.x)
	r.predicted = err == nil
	return errMidfitStop
}

// A fit stopped by its recorder leaves the model unfitted, even after an
// earlier successful fit and although it was predictable inside Step.
func TestFailedFitLeavesModelUnfitted(t *testing.T) {
	breast := linLoad(t, "logistic_breast_cancer.csv", true)
	diabetes := lsqDiabetes(t)
	for _, tc := range []struct {
		name string
		m    engine.Predictor
		d    engine.Train
	}{
		{"logistic", &Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}, breast},
		{"perceptron", &Perceptron{Mode: "stochastic", LR: 1, Epochs: 100}, breast},
		{"lasso", &Lasso{Alpha: 1, MaxIter: 1000, Tol: 1e-4}, diabetes},
		{"stepwise", &Stepwise{Criterion: "cv", Folds: 5, Holdout: 0.2}, diabetes},
		{"least squares", &LeastSquares{Solver: "normal", Degree: 1}, diabetes},
		{"ridge", &Ridge{Alpha: 1}, diabetes},
		{"centroid", &Centroid{}, breast},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := engine.Fit(context.Background(), tc.m, tc.d, nil); err != nil {
				t.Fatal(err)
			}
			rec := &midfitStop{m: tc.m, x: tc.d.X}
			if err := engine.Fit(context.Background(), tc.m, tc.d, rec); !errors.Is(err, errMidfitStop) {
				t.Fatalf("Fit returned %v, want the recorder's error", err)
			}
			if !rec.predicted {
				t.Error("Predict failed inside Step")
			}
			if _, err := tc.m.Predict(tc.d.X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("Predict after a failed fit: %v, want ErrNotFitted", err)
			}
			if c := tc.m.(engine.Coefficienter).Coefficients(); c.Weights != nil {
				t.Error("Coefficients after a failed fit are not empty")
			}
		})
	}
}

// cancelRec cancels the fit's context at its first step but, unlike
// engine.ContextRecorder, returns nil: the model must notice the cancelled
// context itself.
type cancelRec struct {
	cancel context.CancelFunc
	steps  int
}

func (r *cancelRec) Step(engine.Step) error {
	r.steps++
	r.cancel()
	return nil
}

// A context cancelled during a step stops the fit after that step, with
// context.Canceled and an unfitted model, even when the recorder returns nil.
func TestCancelledInsideStep(t *testing.T) {
	breast := linLoad(t, "logistic_breast_cancer.csv", true)
	diabetes := lsqDiabetes(t)
	diabetesStd := diabetes
	diabetesStd.X = lsqStandardise(diabetes.X, diabetes.X)
	for _, tc := range []struct {
		name string
		m    engine.Predictor
		d    engine.Train
	}{
		{"logistic", &Logistic{Solver: "auto", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}, breast},
		{"logistic gd", &Logistic{Solver: "gd", C: 1, Multi: "multinomial", MaxIter: 100, Tol: 1e-4, LR: 0.1}, breast},
		{"perceptron", &Perceptron{Mode: "stochastic", LR: 1, Epochs: 100}, breast},
		{"lasso", &Lasso{Alpha: 0.01, Tol: 1e-12, MaxIter: 1000}, diabetesStd},
		{"stepwise", &Stepwise{Criterion: "rss", Folds: 5, Holdout: 0.2}, diabetes},
		{"least squares", &LeastSquares{Solver: "normal", Degree: 1}, diabetes},
		{"ridge", &Ridge{Alpha: 1}, diabetes},
		{"centroid", &Centroid{}, breast},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rec := &cancelRec{cancel: cancel}
			if err := engine.Fit(ctx, tc.m, tc.d, rec); !errors.Is(err, context.Canceled) {
				t.Errorf("Fit returned %v, want context.Canceled", err)
			}
			if rec.steps != 1 {
				t.Errorf("%d steps reported, want 1 (the one that cancelled)", rec.steps)
			}
			if _, err := tc.m.Predict(tc.d.X); !errors.Is(err, engine.ErrNotFitted) {
				t.Errorf("Predict after a cancelled fit: %v, want ErrNotFitted", err)
			}
		})
	}
}

package svm

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// KLogistic is kernel logistic regression (Shewchuk, Concise Machine
// Learning, lecture 16): logistic regression with w = Σ_i a_i Φ(x_i), so
// that f = K a on the training rows, fitted by Shewchuk's batch gradient
// ascent a ← a + ε (y − s(K a)) with y in {0, 1} and s the logistic
// function. Two changes keep one setting good for any data: the step is
// taken on the mean log-loss (ε/n for Shewchuk's ε), and an L2 penalty
// (λ/2)‖w‖² (lambda) keeps a bounded on separable data:
//
//	a ← (1 − ελ) a + (ε/n) (y − s(K a)).
//
// With sample weights, row i's term is scaled by w_i and n is Σ w_i. The
// bias comes from lifting, as the kernel perceptron's: k(a, b) + 1, so
// f(x) = Σ_i a_i k(x_i, x) + Σ_i a_i. Training starts at a = 0, where
// every probability is ½. More than two classes: one model per class
// against the rest, whose probabilities are normalised to sum to 1.
//
// Each epoch is one product K·A with the n × n kernel matrix, which the fit
// holds (Spec.Memory refuses data too large for it). TrainLoss is the mean
// log-loss after the epoch's update.
type KLogistic struct {
	LR       float64
	Epochs   int
	Lambda   float64
	NoBias   bool
	kernelOf engine.Values

	kmClassifier
}

const klName = "klogistic"

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     klName,
		Title:    "kernel logistic regression",
		Family:   "kernel methods",
		Summary:  "batch gradient steps a ← a + ε(y − s(Ka)): logistic regression with a kernel (one-vs-rest for more classes)",
		Notes:    "Shewchuk, Concise Machine Learning, lecture 16; Recht, Malik & Tu, CS 189, section 10",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "epoch",
		Loss:     "log-loss",
		// Kernel values of unscaled features are dominated by the widest.
		Standardize: true,
		// RBF by default: its values lie in (0, 1], so the step is stable
		// for any data while ε < 4 (the mean loss's curvature is at most ¼
		// of (K + 1)'s largest eigenvalue over n, which is at most 2); a
		// linear or polynomial kernel's values grow with the features.
		Params: append(KernelParams(RBF, Poly, Sigmoid, Linear),
			engine.Param{Name: "lr", Kind: engine.Float, Default: 3.0, Min: 1e-6, Max: 1e3, Log: true,
				Help: "step size ε on the mean log-loss (Shewchuk's ε times the rows)"},
			engine.Param{Name: "epochs", Kind: engine.Int, Default: 300, Min: 1, Max: 100000,
				Help: "gradient steps, each one product K·a"},
			engine.Param{Name: "lambda", Kind: engine.Float, Default: 1e-4, Min: 0, Max: 1e3, Simpler: engine.SimplerHigher,
				Help: "L2 penalty λ/2 ‖w‖² on the mean log-loss: keeps a bounded on separable data"},
			engine.Param{Name: "bias", Kind: engine.Bool, Default: true,
				Help: "learn an offset by lifting (k(a,b) + 1)"}),
		Memory: func(s engine.Shape, v engine.Values) engine.Need { return kmGramNeed(s.Rows) },
		New: func(v engine.Values) (engine.Model, error) {
			return &KLogistic{LR: v.Float("lr"), Epochs: v.Int("epochs"), Lambda: v.Float("lambda"), NoBias: !v.Bool("bias"), kernelOf: v}, nil
		},
	})
}

// Fit implements engine.Model.
func (m *KLogistic) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	k, present, err := kmBegin(ctx, d, klName, true, m.kernelOf, kmGramNeed)
	if err != nil {
		return err
	}
	n, _ := d.X.Dims()
	K := kmGram(k, d.X, ctx.Done())
	if K == nil {
		return ctx.Err()
	}
	labels := kmTargets(d, present)
	machines := len(labels)
	wsum := 0.0
	for i := range n {
		wsum += kmWeight(d, i)
	}
	// a and f of each model are rows of At and Ft: the epoch's product is
	// Ft = At K (K is symmetric), whose inner loop runs along K's rows.
	At := mat.NewDense(machines, n, nil)
	Ft := mat.NewDense(machines, n, nil)
	F := mat.NewDense(n, machines, nil)
	lift := 0.0
	if !m.NoBias {
		lift = 1
	}
	m.features, m.classes, m.present = d.Features, d.Classes, present
	m.exp = kmExpansion{kernel: k, rows: mat.DenseCopyOf(d.X), coef: mat.NewDense(n, machines, nil), bias: make([]float64, machines), norms: kmNorms(d.X)}
	shrink, step := 1-m.LR*m.Lambda, m.LR/wsum
	m.warnings = nil
	best, bestEpoch := math.Inf(1), 0
	defer func() { m.warnings = klUnsettled(best, bestEpoch, m.LR, F, d, present, m.Fitted) }()
	for epoch := 1; epoch <= m.Epochs; epoch++ {
		for c := range machines {
			a, f := At.RawRowView(c), Ft.RawRowView(c)
			for i := range a {
				y := (labels[c][i] + 1) / 2
				a[i] = shrink*a[i] + step*kmWeight(d, i)*(y-klSigmoid(f[i]))
			}
		}
		klProduct(Ft, At, K)
		for c := range machines {
			a, f := At.RawRowView(c), Ft.RawRowView(c)
			m.exp.bias[c] = lift * floats.Sum(a)
			for i := range f {
				f[i] += m.exp.bias[c]
			}
		}
		F.Copy(Ft.T())
		m.exp.coef.Copy(At.T())
		loss := klLogLoss(F, d, present)
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return fmt.Errorf("%s: %w: the coefficients overflowed at epoch %d; try a smaller learning rate (lr=%g)", klName, engine.ErrDiverged, epoch, m.LR)
		}
		if loss < best {
			best, bestEpoch = loss, epoch
		}
		m.Fitted = true
		if err := kmStep(ctx, rec, engine.Step{Step: epoch, Total: m.Epochs, TrainLoss: loss}); err != nil {
			return err
		}
	}
	return nil
}

// klUnsettled warns when the fit ended well above the least log-loss it
// reached: steps too large for the kernel make the loss jump about rather
// than fall (the default lr is stable for the RBF kernel only).
func klUnsettled(best float64, bestEpoch int, lr float64, F *mat.Dense, d engine.Train, present []int, fitted bool) []string {
	if !fitted || bestEpoch == 0 {
		return nil
	}
	last := klLogLoss(F, d, present)
	if last <= 1.5*best || last-best < 0.05 {
		return nil
	}
	return []string{fmt.Sprintf("%s: the training log-loss ended at %s after reaching %s at epoch %d: the step is too large to settle; lower lr (%s)",
		klName, numfmt.Sig(last, 3), numfmt.Sig(best, 3), bestEpoch, engine.Format(lr))}
}

// klProduct sets Ft = At K, K symmetric n × n: row by row of K, each
// added to every model's f while it is in the cache, so that K is read
// from memory once an epoch whatever the number of models.
func klProduct(Ft, At, K *mat.Dense) {
	Ft.Zero()
	machines, n := At.Dims()
	for l := range n {
		row := K.RawRowView(l)
		for c := range machines {
			if a := At.At(c, l); a != 0 {
				floats.AddScaled(Ft.RawRowView(c), a, row)
			}
		}
	}
}

func klSigmoid(f float64) float64 { return 1 / (1 + math.Exp(-f)) }

// klProba is the class probabilities (n × classes) of the scores F: with
// one model s(f) for the second class, with more s(f_c) normalised.
func klProba(F *mat.Dense, present []int, classes int) *mat.Dense {
	n, machines := F.Dims()
	P := mat.NewDense(n, classes, nil)
	for i := range n {
		f, p := F.RawRowView(i), P.RawRowView(i)
		if machines == 1 {
			s := klSigmoid(f[0])
			p[present[0]], p[present[1]] = 1-s, s
			continue
		}
		sum := 0.0
		for _, v := range f {
			sum += klSigmoid(v)
		}
		for c, code := range present {
			p[code] = klSigmoid(f[c]) / sum
		}
	}
	return P
}

// klLogLoss is the weighted mean of −log p(y_i) over the training rows.
func klLogLoss(F *mat.Dense, d engine.Train, present []int) float64 {
	P := klProba(F, present, len(d.Classes))
	loss, wsum := 0.0, 0.0
	for i, y := range d.Y {
		w := kmWeight(d, i)
		loss -= w * math.Log(math.Max(P.At(i, int(y)), 1e-15))
		wsum += w
	}
	return loss / wsum
}

// Predict implements engine.Predictor: class codes.
func (m *KLogistic) Predict(X mat.Matrix) ([]float64, error) { return m.predict(klName, X) }

// PredictProba implements engine.Prober.
func (m *KLogistic) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	F, err := m.scores(klName, X)
	if err != nil || F == nil {
		return &mat.Dense{}, err
	}
	return klProba(F, m.present, len(m.classes)), nil
}

// DecisionFunction implements engine.Scorer: f per class (with two
// classes −f and f).
func (m *KLogistic) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return m.decisionFunction(klName, X)
}

// Coef is a, one row per training row and one column per model.
func (m *KLogistic) Coef() *mat.Dense {
	if !m.Fitted {
		return nil
	}
	return mat.DenseCopyOf(m.exp.coef)
}

// MarshalState implements engine.Persistent: every training row, a and
// the lifted biases.
func (m *KLogistic) MarshalState() ([]byte, error) {
	return engine.MarshalFitted(klName, m.Fitted, func() any { return m.state() })
}

// UnmarshalState implements engine.Persistent.
func (m *KLogistic) UnmarshalState(data []byte) error {
	var s kmClassState
	if err := engine.DecodeState(klName, data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck(klName)
	var fresh kmClassifier
	fresh.load(c, s, m.kernelOf)
	if err := c.Err(); err != nil {
		return err
	}
	m.kmClassifier = fresh
	return nil
}

package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// Logistic is L2-penalised logistic regression, Shewchuk, Concise Machine Learning, lectures 10-11:
// the logistic function s(X_i·w + α) fitted with the logistic loss. It
// minimises, like scikit-learn's LogisticRegression,
//
//	J(w, α) = ½‖w‖² + C Σ_i ω_i L_i(w, α)
//
// where L_i is the log-loss of row i, ω_i its sample weight (1 without
// weights) and the intercept α is not penalised. With two classes L_i is
// Shewchuk's −y ln s − (1−y) ln(1−s) (lecture 10). With more, Multi chooses
//
//   - "multinomial" (default): softmax regression, one (w_c, α_c) per class
//     and L_i = −ln softmax_{y_i}(z_i) (Shewchuk names it, Discussion 6); the
//     intercepts are kept summing to zero, as scikit-learn's are;
//   - "ovr": one binary model per class against the rest; probabilities are
//     the binary ones normalised to sum to one (as OneVsRestClassifier).
//
// Solvers (all start at w = 0, as Shewchuk advises):
//
//   - "auto" (default): newton when its linear system has at most
//     logitAutoNewton unknowns (features+1, times the classes for
//     multinomial), where a few exact steps win; lbfgs above, where a Newton
//     step costs n·unknowns² and L-BFGS steps cost n·unknowns.
//   - "newton": Newton's method, i.e. iteratively reweighted least
//     squares (lecture 11): solve (∇²J) e = −∇J by Cholesky and step w ← w + e,
//     halving the step only if it would not decrease J (rare). With more than
//     16384 rows the Hessian — not the gradient — is estimated on a random
//     subsample (seeded from Train.Seed) that grows every iteration,
//     Shewchuk's speed-up for large n (lecture 11): the iteration still converges to the
//     exact minimiser and its last steps use every row.
//   - "gd": batch gradient descent (lecture 10), w ← w − lr ∇J/Σω. The gradient is
//     averaged over rows so that a good lr does not depend on n (Shewchuk's
//     ε is lr/n).
//   - "sgd": stochastic gradient descent (lecture 10), one row at a time in a seeded
//     random order, w ← w − lr (w/Σω + (n/Σω) C ω_i ∇L_i); constant lr. One
//     step is one epoch.
//   - "lbfgs": limited-memory BFGS (gonum/optimize, 10 correction pairs, a
//     Moré–Thuente line search), the quasi-Newton method scikit-learn uses by
//     default; not in Shewchuk's lectures. It also stops when J stops decreasing
//     (relative change below 64ε, scikit-learn's ftol). One-vs-rest models
//     are fitted one after the other.
//
// Every solver stops when max|∇J| / (C Σω) <= Tol (the criterion
// scikit-learn's lbfgs applies to its scaled objective J/(C n)), or after
// MaxIter steps (then Warnings says so). Each step reports TrainLoss = J/Σω (the penalised objective
// per row: for ovr the sum of the per-class objectives) and a
// LogisticIteration, the quantity compared with Tol. A loss that becomes NaN or infinite is
// reported, then ends the fit with an error wrapping engine.ErrDiverged.
type Logistic struct {
	Solver  string  // "auto", "newton", "lbfgs", "gd" or "sgd"
	C       float64 // inverse penalty strength
	Multi   string  // "multinomial" or "ovr"; ignored with two classes
	MaxIter int     // most iterations (epochs for sgd)
	Tol     float64 // gradient tolerance
	LR      float64 // learning rate of gd and sgd
	Lift    int     // fit on the monomials of degree 1..Lift (see lifted); <= 1: none

	linearClassifier
	kind     int    // logitBinary, logitMultinomial or logitOvR
	used     string // the solver that ran (auto resolved)
	warnings []string
}

const logitName = "logistic regression"

const (
	logitBinary = iota
	logitMultinomial
	logitOvR
)

// Newton systems larger than this are refused (the Hessian would not fit
// comfortably in memory or time).
const logitMaxNewton = 3000

// logitAutoNewton is the largest Newton system solver=auto picks newton
// for; above it, lbfgs.
const logitAutoNewton = 200

// Rows from which the Hessian is subsampled (see the Logistic doc comment).
const logitHessMin = 8192

func init() {
	engine.Register(engine.Spec{
		Weighted:    true,
		Name:        "logistic",
		Title:       "logistic regression",
		Family:      "linear models",
		Summary:     "L2-penalised logistic (or softmax) regression by Newton/IRLS, L-BFGS, gradient descent or SGD",
		Notes:       "Shewchuk, Concise Machine Learning, lectures 10-11; Hocking, CS499 Optimization Algorithms for ML, section 9",
		Tasks:       []engine.Task{datasets.Classification},
		Unit:        "iteration",
		Standardize: true,
		Params: []engine.Param{
			{Name: "solver", Kind: engine.Choice, Default: "auto", Choices: []string{"auto", "newton", "lbfgs", "gd", "sgd"},
				Help:   "auto: by size; newton: IRLS; lbfgs: quasi-Newton; gd: batch gradient descent; sgd: stochastic gradient descent",
				Detail: "auto takes newton while its linear system has at most 200 unknowns (features+1, times the classes for multinomial), lbfgs above. newton is Newton's method (iteratively reweighted least squares), lbfgs limited-memory BFGS; sgd takes one row at a time."},
			{Name: "C", Kind: engine.Float, Default: 1.0, Min: 1e-6, Max: 1e6, Log: true, Simpler: engine.SimplerLower,
				Help: "inverse penalty strength: minimise ½‖w‖² + C·Σ log-loss (larger C, less shrinkage)"},
			{Name: "multi", Kind: engine.Choice, Default: "multinomial", Choices: []string{"multinomial", "ovr"},
				Help: "more than two classes: softmax over all classes, or one-vs-rest binary models"},
			{Name: "max_iter", Kind: engine.Int, Default: 100, Min: 1, Max: 100000,
				Help: "most iterations (epochs for sgd)"},
			{Name: "tol", Kind: engine.Float, Default: 1e-4, Min: 1e-14, Max: 1, Log: true,
				Help: "stop when max|gradient| of J/(C·n) falls below this"},
			{Name: "lr", Kind: engine.Float, Default: 0.1, Min: 1e-8, Max: 1e6, Log: true,
				When: &engine.Applies{Param: "solver", In: []string{"gd", "sgd"}},
				Help: "gd and sgd: learning rate (gradient averaged over rows)"},
			liftParam,
		},
		Bench:  []engine.BenchCase{{Name: "logistic", Data: "clf_50k_20", Task: datasets.Classification, Params: map[string]string{"C": "1", "max_iter": "100"}}},
		Memory: liftMemory(logisticMemory),
		New: func(v engine.Values) (engine.Model, error) {
			return &Logistic{
				Solver:  v.String("solver"),
				C:       v.Float("C"),
				Multi:   v.String("multi"),
				MaxIter: v.Int("max_iter"),
				Tol:     v.Float("tol"),
				LR:      v.Float("lr"),
				Lift:    v.Int("lift"),
			}, nil
		},
	})
}

type logitSettings struct {
	solver, multi string
	C, tol, lr    float64
	maxIter       int
}

func (m *Logistic) settings() logitSettings {
	return logitSettings{solver: m.Solver, multi: m.Multi, C: m.C, tol: m.Tol, lr: m.LR, maxIter: m.MaxIter}
}

// Fit implements engine.Model.
func (m *Logistic) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.used, m.warnings = "", nil
	set := m.settings()
	present, err := presentClasses(d, logitName)
	if err != nil {
		return err
	}
	d, lift, err := liftTrain(d, m.Lift, true, logitName)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	n, p := d.X.Dims()
	q := p + 1
	kind := logitBinary
	if len(present) > 2 {
		kind = logitMultinomial
		if set.multi == "ovr" {
			kind = logitOvR
		}
	}
	size := q // unknowns of one Newton system
	if kind == logitMultinomial {
		size = len(present) * q
	}
	if set.solver == "auto" {
		set.solver = "newton"
		if size > logitAutoNewton {
			set.solver = "lbfgs"
		}
	}
	m.used = set.solver
	newton := set.solver == "newton"
	if newton {
		if size > logitMaxNewton {
			return engine.Limitf("logistic regression: the newton solver would solve %d×%d systems (%d features, %d classes); use solver=gd or sgd, or multi=ovr",
				size, size, p, len(present))
		}
	}
	rng := rand.New(rand.NewPCG(d.Seed, 0x6a09e667f3bcc909))

	data := newLogitData(d.X, set.C, d.Weights)
	if newton && data.hessRows(0) < n {
		// The subsampled Hessian takes the leading rows of a shuffled order.
		data.sample = rng.Perm(n)
	}
	index := make([]int, len(d.Classes))
	for j, c := range present {
		index[c] = j
	}
	cls := make([]int, n) // class index of each row
	for i := range cls {
		// A row of a class absent from training has weight 0: index 0 is harmless.
		cls[i] = index[int(d.Y[i])]
	}

	var runs []*logitRun
	switch kind {
	case logitMultinomial:
		runs = append(runs, newLogitRun(newLogitMulti(data, len(present), cls), newton))
	default:
		targets := []int{1} // binary: the larger class code is positive
		if kind == logitOvR {
			targets = make([]int, len(present))
			for c := range targets {
				targets[c] = c
			}
		}
		for _, t := range targets {
			runs = append(runs, newLogitRun(newLogitBin(data, cls, t), newton))
		}
	}

	// W and b are what Predict reads: they are refreshed from θ before every
	// step, so that the recorder can validate the current iterate.
	outs := len(runs)
	if kind == logitMultinomial {
		outs = len(present)
	}
	W := mat.NewDense(outs, p, nil)
	b := make([]float64, outs)
	publish := func() {
		for o := 0; o < outs; o++ {
			var th []float64
			if kind == logitMultinomial {
				th = runs[0].theta[o*q : (o+1)*q]
			} else {
				th = runs[o].theta
			}
			copy(W.RawRowView(o), th[:p])
			b[o] = th[p]
		}
		m.Fitted = true
	}
	m.nFeat, m.features, m.classes, m.present, m.kind, m.lift = p, d.Features, d.Classes, present, kind, lift
	m.w, m.b = W, b

	gradTol := set.tol * set.C * data.wsum
	var sgdOrder []int
	if set.solver == "sgd" {
		for r := 0; r < n; r++ {
			if data.weight(r) > 0 {
				sgdOrder = append(sgdOrder, r)
			}
		}
	}
	step := func(it int) error {
		J, gmax := 0.0, 0.0
		for _, r := range runs {
			J += r.J
			g := floats.Norm(r.grad, math.Inf(1))
			gmax = math.Max(gmax, g)
			if g <= gradTol {
				r.done = true
			}
		}
		loss := J / data.wsum
		publish()
		total := set.maxIter
		if set.solver == "lbfgs" {
			total *= len(runs)
		}
		if err := rec.Step(engine.Step{Step: it, Total: total, TrainLoss: loss,
			Detail: LogisticIteration{Grad: gmax / (set.C * data.wsum)}}); err != nil {
			return err
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return fmt.Errorf("logistic regression: %w: the loss is %v at iteration %d; try a smaller learning rate (lr=%g)",
				engine.ErrDiverged, loss, it, set.lr)
		}
		return ctx.Err()
	}
	if set.solver == "lbfgs" {
		if err := logitLBFGS(runs, set.maxIter, gradTol, step); err != nil {
			return err
		}
	}
	for it := 1; it <= set.maxIter && set.solver != "lbfgs"; it++ {
		if set.solver == "sgd" {
			rng.Shuffle(len(sgdOrder), func(i, j int) { sgdOrder[i], sgdOrder[j] = sgdOrder[j], sgdOrder[i] })
		}
		for _, r := range runs {
			if r.done {
				continue
			}
			switch set.solver {
			case "newton":
				if err := r.newton(data.hessRows(it - 1)); err != nil {
					return err
				}
			case "gd":
				r.gd(set.lr / data.wsum)
			case "sgd":
				shrink := set.lr / data.wsum
				for _, row := range sgdOrder {
					r.obj.sgdStep(r.theta, d.X.RawRowView(row)[:p], row, set.lr, shrink)
				}
				r.J = r.obj.eval(r.theta, r.grad)
			}
		}
		if err := step(it); err != nil {
			return err
		}
		done := true
		for _, r := range runs {
			done = done && r.done
		}
		if done {
			break
		}
	}

	publish() // θ has not moved since the last step; this is its state
	if !finiteSlice(W.RawMatrix().Data) || !finiteSlice(b) {
		return fmt.Errorf("logistic regression: %w: the weights overflowed; try a smaller learning rate (lr=%g)", engine.ErrDiverged, set.lr)
	}
	gmax := 0.0
	for _, r := range runs {
		if !r.done {
			gmax = math.Max(gmax, floats.Norm(r.grad, math.Inf(1)))
		}
	}
	if gmax > gradTol {
		m.warnings = append(m.warnings, fmt.Sprintf("logistic regression (%s) stopped after max_iter=%d iterations before converging (gradient %s, tol %s): raise max_iter, or standardise the features",
			set.solver, set.maxIter, numfmt.Sig(gmax/(set.C*data.wsum), 2), numfmt.Sig(set.tol, 2)))
	}
	return nil
}

// Warnings says when the solver stopped before converging; nil otherwise.
func (m *Logistic) Warnings() []string { return m.warnings }

// SolverUsed is the solver the last fit ran (auto resolved).
func (m *Logistic) SolverUsed() string { return m.used }

// Predict implements engine.Model: the most probable class.
func (m *Logistic) Predict(X mat.Matrix) ([]float64, error) { return m.predict(logitName, X) }

// PredictProba implements engine.Prober (n × classes; classes absent from
// training get 0).
func (m *Logistic) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	Z, err := m.scores(logitName, X)
	if err != nil {
		return nil, err
	}
	if Z == nil {
		return &mat.Dense{}, nil
	}
	n, outs := Z.Dims()
	P := mat.NewDense(n, len(m.classes), nil)
	for i := 0; i < n; i++ {
		z, row := Z.RawRowView(i), P.RawRowView(i)
		switch {
		case outs == 1:
			s := logitSigmoid(z[0])
			row[m.present[0]], row[m.present[1]] = 1-s, s
		case m.kind == logitMultinomial:
			mx := floats.Max(z)
			sum := 0.0
			for j := range z {
				sum += math.Exp(z[j] - mx)
			}
			for j, c := range m.present {
				row[c] = math.Exp(z[j]-mx) / sum
			}
		default: // one-vs-rest: normalised binary probabilities
			sum := 0.0
			for j := range z {
				sum += logitSigmoid(z[j])
			}
			if sum == 0 { // every logit below -745: the largest wins
				row[m.present[floats.MaxIdx(z)]] = 1
				continue
			}
			for j, c := range m.present {
				row[c] = logitSigmoid(z[j]) / sum
			}
		}
	}
	return P, nil
}

func logitSigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// DecisionFunction implements engine.Scorer: the logits w_c·x + α_c (n ×
// classes); with two classes −z and z. Absent classes score -math.MaxFloat64.
func (m *Logistic) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return m.decisionFunction(logitName, X)
}

// Coefficients implements engine.Coefficienter: one row with two classes
// (the positive class's logit), else one per class.
func (m *Logistic) Coefficients() engine.Coefficients { return m.coefficients() }

package linear

// engine.Persistent for every model of the package. A state holds what a
// fit learned (weights, classes, feature names, what the fit reported);
// values a fit derives from them again (a centroid's ‖μ‖²/2, the monomials
// of a polynomial fit) are recomputed on loading by the code Fit runs, so
// they come out bit for bit the same.

import (
	"slices"
	"strconv"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// Every model of the package can be saved.
var (
	_ engine.Persistent = (*LeastSquares)(nil)
	_ engine.Persistent = (*Ridge)(nil)
	_ engine.Persistent = (*Lasso)(nil)
	_ engine.Persistent = (*Stepwise)(nil)
	_ engine.Persistent = (*Logistic)(nil)
	_ engine.Persistent = (*Perceptron)(nil)
	_ engine.Persistent = (*Centroid)(nil)
)

// lsqState is the state of the least-squares models: x·Coef + Intercept.
type lsqState struct {
	Features  []string  `json:"features"` // one per coefficient
	Coef      []float64 `json:"coef"`
	Intercept float64   `json:"intercept"`
	Warnings  []string  `json:"warnings,omitempty"`
}

func (m *lsqModel) state() lsqState {
	return lsqState{Features: m.names, Coef: m.coef, Intercept: m.icept, Warnings: m.warnings}
}

// check validates s for a model with or without an intercept.
func (s *lsqState) check(c *engine.StateCheck, intercept bool) {
	c.That(len(s.Coef) > 0, "coef is empty")
	c.Vector("coef", s.Coef, len(s.Coef))
	c.That(len(s.Features) == len(s.Coef), "features has %d names and coef %d values; want one name per coefficient", len(s.Features), len(s.Coef))
	c.Finite("intercept", s.Intercept)
	c.That(intercept || s.Intercept == 0, "intercept is %v, but the model is fitted without one", s.Intercept)
}

func (m *lsqModel) load(s lsqState) {
	m.names, m.coef, m.icept, m.warnings = s.Features, s.Coef, s.Intercept, s.Warnings
	m.lift, m.Fitted = nil, true
}

// encodeFitted is engine.EncodeState, or ErrNotFitted before a fit.
func encodeFitted(fitted bool, model string, state any) ([]byte, error) {
	if !fitted {
		return nil, engine.ErrNotFitted
	}
	return engine.EncodeState(model, state)
}

// lsModelState is LeastSquares' state. Inputs is the number of features
// the model reads: with Degree > 1 Features are their monomials, the first
// Inputs of them the features themselves.
type lsModelState struct {
	lsqState
	Inputs int    `json:"inputs"`
	Solver string `json:"solver"`
	Rank   int    `json:"rank"`
}

// MarshalState implements engine.Persistent.
func (m *LeastSquares) MarshalState() ([]byte, error) {
	return encodeFitted(m.Fitted, "linear", lsModelState{lsqState: m.state(), Inputs: m.inputs(), Solver: m.solver, Rank: m.rank})
}

// UnmarshalState implements engine.Persistent.
func (m *LeastSquares) UnmarshalState(data []byte) error {
	var s lsModelState
	if err := engine.DecodeState("linear", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("linear")
	s.check(c, !m.NoIntercept)
	c.That(s.Solver == "normal" || s.Solver == "pinv", "solver is %q; want normal or pinv", s.Solver)
	c.That(m.Solver != "pinv" || s.Solver == "pinv", "solver is %q, but the model's solver is pinv", s.Solver)
	c.Range("rank", s.Rank, 0, len(s.Coef))
	var lift *lifted
	if m.Degree <= 1 {
		c.That(s.Inputs == len(s.Coef), "inputs is %d; a fit of degree 1 has one coefficient per input, %d", s.Inputs, len(s.Coef))
	} else {
		lift = liftState{Inputs: s.Inputs}.load(c, m.Degree, s.Features, false)
	}
	if err := c.Err(); err != nil {
		return err
	}
	m.solver, m.rank = s.Solver, s.Rank
	m.load(s.lsqState)
	m.lift = lift
	return nil
}

// ridgeState is Ridge's state: its weights, and its lift.
type ridgeState struct {
	lsqState
	liftState
}

// MarshalState implements engine.Persistent.
func (m *Ridge) MarshalState() ([]byte, error) {
	return encodeFitted(m.Fitted, "ridge", ridgeState{lsqState: m.state(), liftState: m.lift.state()})
}

// UnmarshalState implements engine.Persistent.
func (m *Ridge) UnmarshalState(data []byte) error {
	var s ridgeState
	if err := engine.DecodeState("ridge", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("ridge")
	s.check(c, !m.NoIntercept)
	lift := s.liftState.load(c, m.Lift, s.Features, true)
	if err := c.Err(); err != nil {
		return err
	}
	m.load(s.lsqState)
	m.lift = lift
	return nil
}

// lassoState is Lasso's state and how its coordinate descent ended.
type lassoState struct {
	lsqState
	liftState
	Sweeps    int     `json:"sweeps"`
	DualGap   float64 `json:"dual_gap"`
	Converged bool    `json:"converged"`
}

// MarshalState implements engine.Persistent.
func (m *Lasso) MarshalState() ([]byte, error) {
	return encodeFitted(m.Fitted, "lasso",
		lassoState{lsqState: m.state(), liftState: m.lift.state(), Sweeps: m.sweeps, DualGap: m.gap, Converged: m.converged})
}

// UnmarshalState implements engine.Persistent.
func (m *Lasso) UnmarshalState(data []byte) error {
	var s lassoState
	if err := engine.DecodeState("lasso", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("lasso")
	s.check(c, !m.NoIntercept)
	c.Range("sweeps", s.Sweeps, 1, m.MaxIter)
	c.Finite("dual_gap", s.DualGap)
	lift := s.liftState.load(c, m.Lift, s.Features, true)
	if err := c.Err(); err != nil {
		return err
	}
	m.load(s.lsqState)
	m.lift = lift
	m.sweeps, m.gap, m.converged = s.Sweeps, s.DualGap, s.Converged
	return nil
}

// stepwiseState is Stepwise's state: the features selected, in the order
// they were added (every other coefficient is zero).
type stepwiseState struct {
	lsqState
	Selected []int `json:"selected,omitempty"`
}

// MarshalState implements engine.Persistent.
func (m *Stepwise) MarshalState() ([]byte, error) {
	return encodeFitted(m.Fitted, "stepwise", stepwiseState{lsqState: m.state(), Selected: m.selected})
}

// UnmarshalState implements engine.Persistent.
func (m *Stepwise) UnmarshalState(data []byte) error {
	var s stepwiseState
	if err := engine.DecodeState("stepwise", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("stepwise")
	s.check(c, true)
	if m.MaxFeatures > 0 {
		c.That(len(s.Selected) <= m.MaxFeatures, "%d features are selected; max_features is %d", len(s.Selected), m.MaxFeatures)
	}
	chosen := make([]bool, len(s.Coef))
	for i, j := range s.Selected {
		if !c.Range("selected entry "+strconv.Itoa(i+1), j, 0, len(s.Coef)-1) ||
			!c.That(!chosen[j], "selected names feature %d twice", j) {
			break
		}
		chosen[j] = true
	}
	for j, w := range s.Coef {
		if c.OK() && !chosen[j] {
			c.That(w == 0, "coef entry %d is %v, but its feature is not selected", j+1, w)
		}
	}
	if err := c.Err(); err != nil {
		return err
	}
	m.load(s.lsqState)
	m.selected = s.Selected
	return nil
}

// classifierState is the state of a linear classifier scoring x·Wᵀ + b:
// with two classes present one row of Weights (the larger code positive),
// with more one row per present class; x lifted first with a lift.
type classifierState struct {
	Features []string    `json:"features,omitempty"`
	Classes  []string    `json:"classes"`
	Present  []int       `json:"present"` // the class codes seen in training, increasing
	Weights  [][]float64 `json:"weights"`
	Bias     []float64   `json:"bias"`
	liftState
}

func (m *linearClassifier) state() classifierState {
	return classifierState{Features: m.features, Classes: m.classes, Present: m.present,
		Weights: engine.StateRows(m.w), Bias: m.b, liftState: m.lift.state()}
}

// checkPresent validates the present class codes: at least two, increasing,
// each one of the classes.
func checkPresent(c *engine.StateCheck, present []int, classes int) {
	c.That(len(present) >= 2, "present names %d classes; a classifier is fitted on at least two", len(present))
	for i, code := range present {
		if !c.Range("present entry "+strconv.Itoa(i+1), code, 0, classes-1) ||
			!c.That(i == 0 || code > present[i-1], "present is not increasing at entry %d", i+1) {
			return
		}
	}
}

// load validates s for a model of this lift and returns the classifier it
// describes.
func (s *classifierState) load(c *engine.StateCheck, lift int) linearClassifier {
	checkPresent(c, s.Present, len(s.Classes))
	rows := len(s.Present)
	if rows == 2 {
		rows = 1
	}
	p := 0
	if len(s.Weights) > 0 {
		p = len(s.Weights[0])
	}
	W := c.Matrix("weights", s.Weights, rows, p)
	c.Vector("bias", s.Bias, rows)
	c.Names("features", s.Features, p)
	l := s.liftState.load(c, lift, s.Features, true)
	return linearClassifier{nFeat: p, features: s.Features, classes: s.Classes, present: s.Present,
		w: W, b: s.Bias, FitState: engine.FitState{Fitted: true}, lift: l}
}

// logisticState is Logistic's state and the solver that ran.
type logisticState struct {
	classifierState
	Solver   string   `json:"solver"`
	Warnings []string `json:"warnings,omitempty"`
}

// MarshalState implements engine.Persistent.
func (m *Logistic) MarshalState() ([]byte, error) {
	return encodeFitted(m.Fitted, "logistic",
		logisticState{classifierState: m.linearClassifier.state(), Solver: m.used, Warnings: m.warnings})
}

// UnmarshalState implements engine.Persistent. Whether more than two
// classes are multinomial or one-vs-rest is the model's multi setting.
func (m *Logistic) UnmarshalState(data []byte) error {
	var s logisticState
	if err := engine.DecodeState("logistic", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("logistic")
	lc := s.classifierState.load(c, m.Lift)
	c.That(slices.Contains([]string{"newton", "lbfgs", "gd", "sgd"}, s.Solver), "solver is %q; want newton, lbfgs, gd or sgd", s.Solver)
	c.That(m.Solver == "auto" || s.Solver == m.Solver, "solver is %q, but the model's solver is %s", s.Solver, m.Solver)
	if err := c.Err(); err != nil {
		return err
	}
	kind := logitBinary
	if len(lc.present) > 2 {
		kind = logitMultinomial
		if m.Multi == "ovr" {
			kind = logitOvR
		}
	}
	m.linearClassifier, m.kind, m.used, m.warnings = lc, kind, s.Solver, s.Warnings
	return nil
}

// MarshalState implements engine.Persistent.
func (m *Perceptron) MarshalState() ([]byte, error) {
	return encodeFitted(m.Fitted, "perceptron", m.linearClassifier.state())
}

// UnmarshalState implements engine.Persistent.
func (m *Perceptron) UnmarshalState(data []byte) error {
	var s classifierState
	if err := engine.DecodeState("perceptron", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("perceptron")
	lc := s.load(c, m.Lift)
	if m.NoBias {
		for i, b := range s.Bias {
			if !c.That(b == 0, "bias entry %d is %v, but the model has no bias", i+1, b) {
				break
			}
		}
	}
	if err := c.Err(); err != nil {
		return err
	}
	m.linearClassifier = lc
	return nil
}

// centroidState is Centroid's state: the mean of every present class.
type centroidState struct {
	Features []string    `json:"features,omitempty"`
	Classes  []string    `json:"classes"`
	Present  []int       `json:"present"`
	Means    [][]float64 `json:"means"` // one row per present class
}

// MarshalState implements engine.Persistent.
func (m *Centroid) MarshalState() ([]byte, error) {
	return encodeFitted(m.Fitted, "centroid", centroidState{Features: m.features, Classes: m.classes,
		Present: m.present, Means: engine.StateRows(m.mu)})
}

// UnmarshalState implements engine.Persistent.
func (m *Centroid) UnmarshalState(data []byte) error {
	var s centroidState
	if err := engine.DecodeState("centroid", data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck("centroid")
	checkPresent(c, s.Present, len(s.Classes))
	p := 0
	if len(s.Means) > 0 {
		p = len(s.Means[0])
	}
	mu := c.Matrix("means", s.Means, len(s.Present), p)
	c.Names("features", s.Features, p)
	if err := c.Err(); err != nil {
		return err
	}
	m.nFeat, m.features, m.classes, m.present, m.mu = p, s.Features, s.Classes, s.Present, mu
	m.half = centroidHalves(mu)
	m.Fitted = true
	return nil
}

// centroidHalves is ‖μ_c‖²/2 for every row of mu.
func centroidHalves(mu *mat.Dense) []float64 {
	r, _ := mu.Dims()
	half := make([]float64, r)
	for j := range half {
		row := mu.RawRowView(j)
		half[j] = floats.Dot(row, row) / 2
	}
	return half
}

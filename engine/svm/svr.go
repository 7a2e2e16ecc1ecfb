package svm

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// SVR is ε-support vector regression as LIBSVM and scikit-learn's SVR
// solve it: f(x) = Σ (α_i − α*_i) k(x_i, x) − ρ from the dual over the 2n
// variables (α, α*),
//
//	min ½ (α−α*)ᵀK(α−α*) + ε Σ(α_i + α*_i) − Σ y_i (α_i − α*_i)
//	s.t. Σ(α_i − α*_i) = 0,  0 ≤ α_i, α*_i ≤ C_i,
//
// by the same SMO solver (smo.go): errors within ε cost nothing.
type SVR struct {
	values    engine.Values
	C         float64
	Epsilon   float64
	CacheMB   float64
	Shrinking bool
	Tol       float64
	MaxIter   int

	engine.FitState
	fit      *svrFit
	warnings []string
}

const svrName = "svr"

// svrFit is a fitted SVR: its support vectors and their coefficients.
type svrFit struct {
	features []string
	kernel   Kernel
	sv       *smoRows
	svRow    []int
	coef     []float64
	atBound  []bool
	rho      float64
	iters    int
}

func init() {
	params := append(KernelParams(RBF, Linear, Poly, Sigmoid),
		engine.Param{Name: "C", Kind: engine.Float, Default: 1.0, Min: 1e-6, Max: 1e6, Log: true, Simpler: engine.SimplerLower,
			Help: "upper bound of each α: the price of an error beyond ε"},
		engine.Param{Name: "epsilon", Kind: engine.Float, Default: 0.1, Min: 0, Max: 1e6,
			Help: "half-width of the tube within which errors cost nothing"},
	)
	engine.Register(engine.Spec{
		Weighted:    true,
		Name:        svrName,
		Title:       "support vector regression",
		Family:      "support vector machines",
		Summary:     "ε-insensitive kernel regression by SMO (as LIBSVM's epsilon-SVR)",
		Notes:       "Smola & Schölkopf, A tutorial on support vector regression (2004); Chang & Lin, LIBSVM (2011); Shewchuk, Concise Machine Learning, lecture 16",
		Tasks:       []engine.Task{datasets.Regression},
		Unit:        "SMO round", // smoStepIters iterations
		Loss:        "dual objective",
		Standardize: true,
		Params:      append(params, smoParams(1e-3, false)...),
		Memory: func(s engine.Shape, v engine.Values) engine.Need {
			return smoMemory(s.Rows, 2*s.Rows, s.Cols, v)
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &SVR{values: v, C: v.Float("C"), Epsilon: v.Float("epsilon"), CacheMB: v.Float("cache_mb"),
				Shrinking: v.Bool("shrinking"), Tol: v.Float("tol"), MaxIter: v.Int("max_iter")}, nil
		},
	})
}

// Fit implements engine.Model.
func (m *SVR) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.fit, m.warnings = nil, nil
	if err := engine.CheckTrain(d, svrName, true); err != nil {
		return err
	}
	kern := KernelOf(m.values, d.X)
	var rows []int
	for i := range d.Y {
		if d.Weights == nil || d.Weights[i] > 0 {
			rows = append(rows, i)
		}
	}
	n := len(rows)
	if err := smoCheckCache(svrName, m.CacheMB, n); err != nil {
		return err
	}
	p, y, c := make([]float64, 2*n), make([]float64, 2*n), make([]float64, 2*n)
	for t, i := range rows {
		p[t], p[t+n] = m.Epsilon-d.Y[i], m.Epsilon+d.Y[i]
		y[t], y[t+n] = 1, -1
		c[t] = m.C
		if d.Weights != nil {
			c[t] *= d.Weights[i]
		}
		c[t+n] = c[t]
	}
	data := newSMORows(d.X, rows, kern)
	steps := 0
	o := smoOptions{Tol: m.Tol, Shrinking: m.Shrinking, MaxIter: m.MaxIter, Step: func(s *smoSolver) error {
		m.fit, m.Fitted = svrFromDual(d, kern, rows, s.alphas(), c, s.rho()), true
		steps++
		return rec.Step(engine.Step{Step: steps, TrainLoss: s.objective(), Detail: s.progress()})
	}}
	res, err := solveSMO(ctx, smoProblem{Q: newSVRQ(data, smoBudget(m.CacheMB)), P: p, Y: y, Upper: c}, o)
	if err != nil {
		return err
	}
	if !res.Converged {
		m.warnings = append(m.warnings, fmt.Sprintf("%s: SMO stopped at max_iter=%d iterations before the KKT conditions held within tol; raise max_iter or tol", svrName, res.Iters))
	}
	m.fit, m.Fitted = svrFromDual(d, kern, rows, res.Alpha, c, res.Rho), true
	m.fit.iters = res.Iters
	return nil
}

// svrFromDual keeps the rows whose α_i − α*_i is not zero.
func svrFromDual(d engine.Train, kern Kernel, rows []int, alpha, upper []float64, rho float64) *svrFit {
	n := len(rows)
	fit := &svrFit{features: d.Features, kernel: kern, rho: rho, svRow: []int{}, coef: []float64{}, atBound: []bool{}}
	for t, i := range rows {
		if c := alpha[t] - alpha[t+n]; c != 0 {
			fit.svRow = append(fit.svRow, i)
			fit.coef = append(fit.coef, c)
			fit.atBound = append(fit.atBound, alpha[t] >= upper[t] || alpha[t+n] >= upper[t+n])
		}
	}
	fit.sv = newSMORows(d.X, fit.svRow, kern)
	return fit
}

// Predict implements engine.Predictor.
func (m *SVR) Predict(X mat.Matrix) ([]float64, error) {
	fit := m.fit
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, d := X.Dims()
	if d != fit.sv.d {
		return nil, fmt.Errorf("%s: got %d features, fitted on %d", svrName, d, fit.sv.d)
	}
	out := make([]float64, n)
	x := make([]float64, d)
	kv := make([]float64, len(fit.svRow))
	for i := range out {
		mat.Row(x, i, X)
		fit.sv.eval(kv, x, kernel.Dot(x, x))
		out[i] = kernel.Dot(fit.coef, kv) - fit.rho
	}
	return out, nil
}

// SupportVectors implements engine.SupportVectorer: Coef is α_i − α*_i.
func (m *SVR) SupportVectors() *engine.SupportVectors {
	fit := m.fit
	if fit == nil {
		return nil
	}
	sv := &engine.SupportVectors{Features: fit.features, Rows: fit.svRow, Kernel: fit.kernel.String(), AtBound: fit.atBound}
	for s, c := range fit.coef {
		sv.X = append(sv.X, append([]float64(nil), fit.sv.row(s)...))
		sv.Coef = append(sv.Coef, []float64{c})
	}
	return sv
}

// Warnings implements engine.Warner.
func (m *SVR) Warnings() []string { return m.warnings }

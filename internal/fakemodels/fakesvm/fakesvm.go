// Package fakesvm is a small linear two-class SVM for the tests of the
// views that show kernel machines (margin band, support vectors, objective
// curves) without the real svm model. Unlike fakemodels it registers
// nothing: a test registers LinearSVM or runs it by its spec.
package fakesvm

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/svm"
)

// LinearSVM fits by dual coordinate descent on the soft-margin dual (the
// bias a constant feature), reporting svm.Progress each epoch; with
// primal_only it reports no dual, as SGD would not.
var LinearSVM = engine.Spec{Name: "fake-linsvm", Title: "linear SVM (test)", Family: "test",
	Summary: "a linear SVM by dual coordinate descent, for tests", Notes: "none (tests)",
	Tasks: []engine.Task{datasets.Classification}, Unit: "epoch",
	Params: []engine.Param{
		{Name: "C", Kind: engine.Float, Default: 1.0, Min: 1e-6, Max: 1e6, Help: "box constraint 0 ≤ α ≤ C"},
		{Name: "epochs", Kind: engine.Int, Default: 20, Min: 1, Max: 10000, Help: "passes over the rows"},
		{Name: "primal_only", Kind: engine.Bool, Default: false, Help: "report the primal objective only"},
	},
	New: func(v engine.Values) (engine.Model, error) {
		return &linearSVM{c: v.Float("C"), epochs: v.Int("epochs"), primalOnly: v.Bool("primal_only")}, nil
	}}

type linearSVM struct {
	c          float64
	epochs     int
	primalOnly bool

	w        []float64 // weights, the bias last
	alpha    []float64
	x        [][]float64
	y        []float64 // ±1
	classes  []string
	features []string
}

func (m *linearSVM) Fit(ctx context.Context, tr engine.Train, rec engine.Recorder) error {
	m.w = nil
	if len(tr.Classes) != 2 {
		return engine.Limitf("the test SVM takes two classes, not %d", len(tr.Classes))
	}
	n, p := tr.X.Dims()
	x, y := make([][]float64, n), make([]float64, n)
	for i := range n {
		x[i] = append(mat.Row(nil, i, tr.X), 1)
		y[i] = 2*tr.Y[i] - 1
	}
	w, alpha := make([]float64, p+1), make([]float64, n)
	for epoch := 1; epoch <= m.epochs; epoch++ {
		for i := range n {
			q := svmDot(x[i], x[i])
			if q == 0 {
				continue
			}
			a := math.Min(math.Max(alpha[i]-(y[i]*svmDot(w, x[i])-1)/q, 0), m.c)
			for j, v := range x[i] {
				w[j] += (a - alpha[i]) * y[i] * v
			}
			alpha[i] = a
		}
		m.w, m.alpha, m.x, m.y, m.classes, m.features = w, alpha, x, y, tr.Classes, tr.Features
		if err := rec.Step(engine.Step{Step: epoch, Total: m.epochs, TrainLoss: m.primal() / float64(n), Detail: m.progress()}); err != nil {
			return err
		}
	}
	return nil
}

// primal is ½‖w‖² + C Σ max(0, 1 − y_i w·x_i).
func (m *linearSVM) primal() float64 {
	s := svmDot(m.w, m.w) / 2
	for i, xi := range m.x {
		s += m.c * math.Max(0, 1-m.y[i]*svmDot(m.w, xi))
	}
	return s
}

func (m *linearSVM) progress() svm.Progress {
	p := svm.Progress{Primal: m.primal(), Dual: math.NaN(), Gap: math.NaN()}
	if !m.primalOnly {
		p.Dual = -svmDot(m.w, m.w) / 2
		for _, a := range m.alpha {
			p.Dual += a
		}
		p.Gap = p.Primal - p.Dual
	}
	for _, a := range m.alpha {
		if a > 0 {
			p.SupportVectors++
		}
	}
	return p
}

func (m *linearSVM) Margin(X mat.Matrix) ([]float64, error) {
	if m.w == nil {
		return nil, engine.ErrNotFitted
	}
	n, p := X.Dims()
	f := make([]float64, n)
	for i := range n {
		f[i] = m.w[p]
		for j := range p {
			f[i] += m.w[j] * X.At(i, j)
		}
	}
	return f, nil
}

func (m *linearSVM) Predict(X mat.Matrix) ([]float64, error) {
	f, err := m.Margin(X)
	for i, v := range f {
		f[i] = 0
		if v > 0 {
			f[i] = 1
		}
	}
	return f, err
}

func (m *linearSVM) SupportVectors() *engine.SupportVectors {
	sv := &engine.SupportVectors{Features: m.features, Kernel: svm.Kernel{Kind: svm.Linear}.String()}
	for i, a := range m.alpha {
		if a <= 0 {
			continue
		}
		sv.Rows = append(sv.Rows, i)
		sv.Class = append(sv.Class, m.classes[(int(m.y[i])+1)/2])
		sv.X = append(sv.X, m.x[i][:len(m.x[i])-1])
		sv.Coef = append(sv.Coef, []float64{m.y[i] * a})
		sv.AtBound = append(sv.AtBound, a >= m.c)
	}
	return sv
}

func svmDot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

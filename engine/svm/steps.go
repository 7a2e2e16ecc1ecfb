package svm

import "github.com/tealab/tealab/engine"

// Progress is what an SVM solver says of each step (engine.Step.Detail),
// so that convergence shows as it happens: the primal objective
// ½‖w‖² + C Σ ξ_i, the dual objective, the duality gap between them (zero
// at the optimum; the dual never exceeds the primal), and how many rows
// are support vectors so far. A quantity a solver does not compute (SGD
// has no dual; dcd, and SMO while it has shrunk variables, evaluate the
// primal on a budget) is NaN and left out of Figures.
type Progress struct {
	Primal, Dual, Gap float64
	SupportVectors    int
}

// Figures: primal, dual, gap and support vectors, those that are known.
func (p Progress) Figures() []engine.Figure {
	out := make([]engine.Figure, 0, 4)
	for _, f := range []engine.Figure{{Name: "primal", Value: p.Primal}, {Name: "dual", Value: p.Dual},
		{Name: "gap", Value: p.Gap}, {Name: "support vectors", Value: float64(p.SupportVectors)}} {
		if f.Value == f.Value { // not NaN
			out = append(out, f)
		}
	}
	return out
}

package linear

import (
	"math"

	"github.com/tealab/tealab/engine"
)

// What the linear family's fits say of each step besides its loss
// (engine.Step.Detail). The figure names are those run files keep; a
// quantity that is NaN was not computed on the step and is left out.

// LassoSweep is one sweep of coordinate descent.
type LassoSweep struct {
	Nonzero   int     // weights that are not zero
	MaxChange float64 // the largest change of a weight in the sweep
	DualGap   float64 // the duality gap over n; NaN on sweeps that did not compute it
}

// Figures: nonzero, max_change, dual_gap.
func (s LassoSweep) Figures() []engine.Figure {
	return withFinite([]engine.Figure{{Name: "nonzero", Value: float64(s.Nonzero)}, {Name: "max_change", Value: s.MaxChange}}, "dual_gap", s.DualGap)
}

// LeastSquaresFit is the one step of ordinary least squares.
type LeastSquaresFit struct {
	Pinv bool // the SVD (pseudo-inverse) was used
	Rank int  // the numerical rank found
}

// Figures: pinv (1 or 0), rank.
func (f LeastSquaresFit) Figures() []engine.Figure {
	pinv := 0.0
	if f.Pinv {
		pinv = 1
	}
	return []engine.Figure{{Name: "pinv", Value: pinv}, {Name: "rank", Value: float64(f.Rank)}}
}

// RidgeFit is the one step of ridge regression.
type RidgeFit struct {
	Objective float64 // the penalised objective Σ ωᵢrᵢ² + α‖w‖²
}

// Figures: objective.
func (f RidgeFit) Figures() []engine.Figure {
	return []engine.Figure{{Name: "objective", Value: f.Objective}}
}

// PerceptronEpoch is one epoch of the perceptron.
type PerceptronEpoch struct {
	Mistakes int // (point, perceptron) pairs misclassified during the epoch
}

// Figures: mistakes.
func (e PerceptronEpoch) Figures() []engine.Figure {
	return []engine.Figure{{Name: "mistakes", Value: float64(e.Mistakes)}}
}

// LogisticIteration is one iteration of a logistic regression solver.
type LogisticIteration struct {
	Grad float64 // max|∇J| / (C Σω), the quantity compared with Tol
}

// Figures: grad.
func (it LogisticIteration) Figures() []engine.Figure {
	return []engine.Figure{{Name: "grad", Value: it.Grad}}
}

// StepwiseStep is a feature added by forward selection, or the
// intercept-only model when none is worth adding.
type StepwiseStep struct {
	Features int     // features selected so far
	Feature  int     // the 0-based column just added; -1 when none was
	ValMSE   float64 // held-out mean squared error; NaN without held-out rows
}

// Figures: features, feature, val_mse.
func (s StepwiseStep) Figures() []engine.Figure {
	f := []engine.Figure{{Name: "features", Value: float64(s.Features)}}
	if s.Feature >= 0 {
		f = append(f, engine.Figure{Name: "feature", Value: float64(s.Feature)})
	}
	return withFinite(f, "val_mse", s.ValMSE)
}

// withFinite appends the figure name = v to f unless v is NaN.
func withFinite(f []engine.Figure, name string, v float64) []engine.Figure {
	if math.IsNaN(v) {
		return f
	}
	return append(f, engine.Figure{Name: name, Value: v})
}

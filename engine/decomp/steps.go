package decomp

import (
	"math"

	"github.com/tealab/tealab/engine"
)

// Reduction is the one step of a reduction's fit (engine.Step.Detail).
type Reduction struct {
	Components int // directions kept
	// WorstDistortion is a random projection's largest relative change of
	// a squared distance between sampled rows; NaN for the others.
	WorstDistortion float64
}

// Figures: components, and worst_distortion where it was measured.
func (r Reduction) Figures() []engine.Figure {
	f := []engine.Figure{{Name: "components", Value: float64(r.Components)}}
	if !math.IsNaN(r.WorstDistortion) {
		f = append(f, engine.Figure{Name: "worst_distortion", Value: r.WorstDistortion})
	}
	return f
}

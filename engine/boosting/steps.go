package boosting

import (
	"math"

	"github.com/tealab/tealab/engine"
)

// Round is one boosting round (engine.Step.Detail).
type Round struct {
	Trees     int     // trees so far
	Leaves    int     // leaves of the round's trees
	Gain      float64 // summed split gain of the round's trees: what they took off the loss's second-order model
	ValidLoss float64 // the held-out rows' loss with early stopping; NaN without
}

// Figures: trees, leaves, gain, and valid_loss with early stopping.
func (r Round) Figures() []engine.Figure {
	out := []engine.Figure{{Name: "trees", Value: float64(r.Trees)}, {Name: "leaves", Value: float64(r.Leaves)},
		{Name: "gain", Value: r.Gain}}
	if !math.IsNaN(r.ValidLoss) {
		out = append(out, engine.Figure{Name: "valid_loss", Value: r.ValidLoss})
	}
	return out
}

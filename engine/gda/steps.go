package gda

import "github.com/tealab/tealab/engine"

// LDAFit is the one step of linear discriminant analysis
// (engine.Step.Detail).
type LDAFit struct {
	Rank int // eigen-directions of the within-class correlation kept
}

// Figures: rank.
func (f LDAFit) Figures() []engine.Figure {
	return []engine.Figure{{Name: "rank", Value: float64(f.Rank)}}
}

package neighbors

import "github.com/tealab/tealab/engine"

// KChoice is a step of k-nearest neighbours (engine.Step.Detail): the k
// its leave-one-out error was measured for.
type KChoice struct {
	K int
	// LOORows is how many training rows the leave-one-out error was
	// measured on when k is given; 0 in a sweep over k, which uses them all.
	LOORows int
}

// Figures: k, and loo_rows when k is given.
func (c KChoice) Figures() []engine.Figure {
	f := []engine.Figure{{Name: "k", Value: float64(c.K)}}
	if c.LOORows > 0 {
		f = append(f, engine.Figure{Name: "loo_rows", Value: float64(c.LOORows)})
	}
	return f
}

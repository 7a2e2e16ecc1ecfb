package nn

import (
	"math"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// Epoch is what a network's fit says of each step (engine.Step.Detail)
// besides its training loss: the learning rate it used and, for every
// layer with weights, the norm of its weights and the norms of their
// gradients over the epoch's mini-batches, so that vanishing or exploding
// gradients show as they happen. (One mini-batch's norm alone swings by
// orders of magnitude from batch to batch when batches are small.)
type Epoch struct {
	LR     float64
	Layers []LayerNorms
}

// LayerNorms are one layer's Frobenius norms over an epoch.
type LayerNorms struct {
	Name    string  // "dense 1", "conv 1", "output"
	Weight  float64 // ‖W‖ of the layer's weights (biases left out) after the epoch
	Grad    float64 // the mean ‖∂L/∂W‖ of the epoch's mini-batches
	GradMin float64 // the least of them
	GradMax float64 // the greatest
}

// Figures: lr, then each layer's "NAME |W|", "NAME |grad|" (the mean),
// "NAME |grad| min" and "NAME |grad| max".
func (e Epoch) Figures() []engine.Figure {
	out := make([]engine.Figure, 0, 1+4*len(e.Layers))
	out = append(out, engine.Figure{Name: "lr", Value: e.LR})
	for _, l := range e.Layers {
		out = append(out, engine.Figure{Name: l.Name + " |W|", Value: l.Weight},
			engine.Figure{Name: l.Name + " |grad|", Value: l.Grad},
			engine.Figure{Name: l.Name + " |grad| min", Value: l.GradMin},
			engine.Figure{Name: l.Name + " |grad| max", Value: l.GradMax})
	}
	return out
}

// gradNorms gathers each layer's gradient norm over an epoch's
// mini-batches: their sum, least and greatest. A layer is a range of the
// flat weight vector.
type gradNorms struct {
	ranges      [][2]int
	batches     int
	sum, lo, hi []float64
}

func newGradNorms(ranges [][2]int) *gradNorms {
	n := len(ranges)
	g := &gradNorms{ranges: ranges, sum: make([]float64, n), lo: make([]float64, n), hi: make([]float64, n)}
	g.reset()
	return g
}

// reset starts an epoch.
func (g *gradNorms) reset() {
	g.batches = 0
	for l := range g.sum {
		g.sum[l], g.lo[l], g.hi[l] = 0, math.Inf(1), math.Inf(-1)
	}
}

// add counts one mini-batch's gradient (over the whole weight vector).
func (g *gradNorms) add(grad []float64) {
	g.batches++
	for l, r := range g.ranges {
		v := norm(grad[r[0]:r[1]])
		g.sum[l] += v
		g.lo[l], g.hi[l] = math.Min(g.lo[l], v), math.Max(g.hi[l], v)
	}
}

// layer is layer l's norms: ‖W‖ of the weights w and the epoch's mean,
// least and greatest gradient norm (NaN before any batch).
func (g *gradNorms) layer(l int, name string, w []float64) LayerNorms {
	r := g.ranges[l]
	out := LayerNorms{Name: name, Weight: norm(w[r[0]:r[1]]), Grad: math.NaN(), GradMin: math.NaN(), GradMax: math.NaN()}
	if g.batches > 0 {
		out.Grad, out.GradMin, out.GradMax = g.sum[l]/float64(g.batches), g.lo[l], g.hi[l]
	}
	return out
}

// norm is the Euclidean norm of v (four running sums: it is taken of
// every mini-batch's gradient).
func norm(v []float64) float64 { return math.Sqrt(kernel.Dot(v, v)) }

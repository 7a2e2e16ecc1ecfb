package nn

import "github.com/tealab/tealab/engine"

// Epoch is what a network's fit says of each step (engine.Step.Detail)
// besides its training loss: the learning rate it used and, for every
// layer with weights, the norms of its weights and of their last gradient,
// so that vanishing or exploding gradients show as they happen.
type Epoch struct {
	LR     float64
	Layers []LayerNorms
}

// LayerNorms are one layer's Frobenius norms after an epoch.
type LayerNorms struct {
	Name   string  // "dense 1", "conv 1", "output"
	Weight float64 // ‖W‖ of the layer's weights (biases left out)
	Grad   float64 // ‖∂L/∂W‖ of the epoch's last mini-batch
}

// Figures: lr, then each layer's "NAME |W|" and "NAME |grad|".
func (e Epoch) Figures() []engine.Figure {
	out := make([]engine.Figure, 0, 1+2*len(e.Layers))
	out = append(out, engine.Figure{Name: "lr", Value: e.LR})
	for _, l := range e.Layers {
		out = append(out, engine.Figure{Name: l.Name + " |W|", Value: l.Weight},
			engine.Figure{Name: l.Name + " |grad|", Value: l.Grad})
	}
	return out
}

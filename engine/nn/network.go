package nn

import "github.com/tealab/tealab/engine"

// Network describes a fitted network for people: its layers in order, from
// the inputs to the outputs, and, for a convolutional network, its first
// layer's filters as images. The lab draws it; the report lists it.
type Network struct {
	Inputs int     `json:"inputs"`
	Layers []Layer `json:"layers"`
	// Filters are the first convolution's masks, each FilterH x FilterW
	// values row by row (nil for a multilayer perceptron).
	Filters          [][]float64 `json:"filters,omitempty"`
	FilterH, FilterW int         `json:"-"`
}

// Layer is one layer of a Network.
type Layer struct {
	Kind       string `json:"kind"`                 // "dense", "conv", "pool", "output"
	Units      int    `json:"units"`                // outputs (dense), masks (conv)
	Activation string `json:"activation,omitempty"` // relu, tanh, sigmoid, leaky_relu, softmax, identity
	Shape      []int  `json:"shape,omitempty"`      // output shape of a conv or pool layer: channels, height, width
	Weights    int    `json:"weights,omitempty"`    // the layer's learned values, biases included (0 for pooling)
}

// Describer is a network that describes itself (CapNetwork).
type Describer interface {
	Network() Network
}

// CapNetwork is a fitted network's layers (and filters).
var CapNetwork = engine.DefineCapability("network", "network", 380, func(m engine.Model) (Network, bool) {
	if d, ok := m.(Describer); ok {
		return d.Network(), true
	}
	return Network{}, false
})

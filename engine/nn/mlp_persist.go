package nn

import (
	"fmt"
	"slices"

	"github.com/tealab/tealab/engine"
)

var _ engine.Persistent = (*MLP)(nil)

// mlpState is a fitted perceptron: each layer's weights (inputs x units)
// and biases, what its outputs are, how its regression targets were scaled,
// and how the fit went.
type mlpState struct {
	Inputs     int           `json:"inputs"`
	Hidden     []int         `json:"hidden"`
	Classes    int           `json:"classes"` // 0 for regression
	Activation string        `json:"activation"`
	Output     string        `json:"output"` // softmax, identity or sigmoid
	Weights    [][][]float64 `json:"weights"`
	Biases     [][]float64   `json:"biases"`
	Shift      float64       `json:"shift"`
	Scale      float64       `json:"scale"`
	Epochs     int           `json:"epochs"`
	Best       int           `json:"best"`
}

var mlpOutputs = [...]string{outSoftmax: "softmax", outLinear: "identity", outSigmoid: "sigmoid"}

// MarshalState implements engine.Persistent.
func (m *MLP) MarshalState() ([]byte, error) {
	return engine.MarshalFitted(mlpName, m.Fitted, func() any {
		net := m.net
		s := mlpState{Inputs: net.sizes[0], Hidden: net.sizes[1 : len(net.sizes)-1], Classes: m.classes,
			Activation: net.act.Name(), Output: mlpOutputs[net.out], Shift: m.shift, Scale: m.scale,
			Epochs: m.epochs, Best: m.best}
		for l := 1; l <= net.layers(); l++ {
			W := make([][]float64, net.sizes[l-1])
			for j := range W {
				W[j] = make([]float64, net.sizes[l])
				for u := range W[j] {
					W[j][u] = net.w[net.weight(l, j, u)]
				}
			}
			s.Weights = append(s.Weights, W)
			s.Biases = append(s.Biases, slices.Clone(net.w[net.boff[l]:net.boff[l]+net.sizes[l]]))
		}
		return s
	})
}

// UnmarshalState implements engine.Persistent.
func (m *MLP) UnmarshalState(data []byte) error {
	var s mlpState
	if err := engine.DecodeState(mlpName, data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck(mlpName)
	c.That(s.Inputs >= 1, "inputs is %d; want at least 1", s.Inputs)
	c.That(slices.Equal(s.Hidden, m.Hidden), "hidden is %v, but the model's hidden is %v", s.Hidden, m.Hidden)
	c.That(s.Activation == m.Activation, "activation is %q, but the model's is %q", s.Activation, m.Activation)
	c.That(s.Classes == 0 || s.Classes >= 2, "classes is %d; want 0 (regression) or at least 2", s.Classes)
	out := m.outKind(s.Classes > 0)
	c.That(s.Output == mlpOutputs[out], "output is %q; want %q for loss=%s", s.Output, mlpOutputs[out], m.Loss)
	c.Finite("shift", s.Shift)
	c.Finite("scale", s.Scale)
	c.That(s.Scale > 0, "scale is %v; want a positive number", s.Scale)
	c.Range("epochs", s.Epochs, 0, m.Epochs)
	c.Range("best", s.Best, 0, s.Epochs)
	if !c.OK() {
		return c.Err()
	}
	sizes := m.sizes(s.Inputs, max(s.Classes, 1))
	act, err := NewActivation(s.Activation)
	if err != nil {
		return fmt.Errorf("mlp state: %w", err)
	}
	// The weights must have the declared sizes before the network is made
	// at those sizes: inputs or classes edited to 1e9 are refused here.
	layers := len(sizes) - 1
	c.Len("weights", len(s.Weights), layers)
	c.Len("biases", len(s.Biases), layers)
	for l := 1; c.OK() && l <= layers; l++ {
		c.Shape(fmt.Sprintf("weights layer %d", l), s.Weights[l-1], sizes[l-1], sizes[l])
		c.Vector(fmt.Sprintf("biases layer %d", l), s.Biases[l-1], sizes[l])
	}
	if err := c.Err(); err != nil {
		return err
	}
	net := newMLPNet(sizes, act, out)
	for l := 1; l <= layers; l++ {
		for j, row := range s.Weights[l-1] {
			for u, w := range row {
				net.w[net.weight(l, j, u)] = w
			}
		}
		copy(net.w[net.boff[l]:], s.Biases[l-1])
	}
	m.net, m.classes, m.shift, m.scale, m.epochs, m.best = net, s.Classes, s.Shift, s.Scale, s.Epochs, s.Best
	m.Fitted = true
	return nil
}

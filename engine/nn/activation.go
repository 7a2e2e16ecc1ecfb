package nn

import (
	"fmt"
	"math"
)

// The activations of hidden units, by the names the models' parameters take.
const (
	ReLU      = "relu"
	LeakyReLU = "leaky_relu"
	Sigmoid   = "sigmoid"
	Tanh      = "tanh"
)

// Activations lists the hidden activations, the default first.
var Activations = []string{ReLU, LeakyReLU, Sigmoid, Tanh}

// leakySlope is leaky ReLU's slope below zero.
const leakySlope = 0.01

// Activation applies a unit's nonlinearity to a slice in place and, given
// the outputs it produced, multiplies a backpropagated gradient by its
// derivative: every derivative here is a function of the output alone, so
// a backward pass needs no copy of the inputs.
type Activation struct {
	name string
	kind int
}

const (
	actReLU = iota
	actLeaky
	actSigmoid
	actTanh
)

// NewActivation is the activation of that name.
func NewActivation(name string) (Activation, error) {
	for k, n := range Activations {
		if n == name {
			return Activation{name: name, kind: k}, nil
		}
	}
	return Activation{}, fmt.Errorf("unknown activation %q (valid: relu, leaky_relu, sigmoid, tanh)", name)
}

// Name is the activation's parameter value.
func (a Activation) Name() string { return a.name }

// Apply sets z[i] = f(z[i]).
func (a Activation) Apply(z []float64) {
	switch a.kind {
	case actReLU:
		for i, v := range z {
			z[i] = max(v, 0)
		}
	case actLeaky:
		for i, v := range z {
			if v < 0 {
				z[i] = leakySlope * v
			}
		}
	case actSigmoid:
		for i, v := range z {
			z[i] = Logistic(v)
		}
	case actTanh:
		for i, v := range z {
			z[i] = math.Tanh(v)
		}
	}
}

// Backward sets g[i] *= f'(x) where out[i] = f(x).
func (a Activation) Backward(g, out []float64) {
	out = out[:len(g)]
	switch a.kind {
	case actReLU:
		// Branch-free (half the units are off, at random): o is +0 or
		// positive, and only +0's bits minus one have the sign bit set.
		for i, o := range out {
			off := uint64(int64(math.Float64bits(o)-1) >> 63)
			g[i] = math.Float64frombits(math.Float64bits(g[i]) &^ off)
		}
	case actLeaky:
		for i, o := range out {
			if o < 0 {
				g[i] *= leakySlope
			}
		}
	case actSigmoid:
		for i, o := range out {
			g[i] *= o * (1 - o)
		}
	case actTanh:
		for i, o := range out {
			g[i] *= 1 - o*o
		}
	}
}

// Logistic is 1/(1+e^-t), computed without overflow for either sign.
func Logistic(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// Softmax replaces z by softmax(z), shifted by its maximum so that no
// exponential overflows.
func Softmax(z []float64) {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = max(mx, v)
	}
	sum := 0.0
	for i, v := range z {
		z[i] = math.Exp(v - mx)
		sum += z[i]
	}
	for i := range z {
		z[i] /= sum
	}
}

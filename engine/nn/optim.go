// Package nn is tealab's neural networks: multilayer perceptrons and a
// small convolutional network, trained by backpropagation on mini-batches
// (Shewchuk, Concise Machine Learning, lectures 17-19; Hocking's
// backpropagation as matrix products; Alpaydin, Introduction to Machine
// Learning, ch. 11, for the optimisers).
//
// A network keeps every weight in one flat slab and its gradient in
// another of the same shape, so that one Optimizer updates them all and a
// model file stores them as one vector.
package nn

import (
	"fmt"
	"math"
)

// The optimisers, as the `optimizer` parameter names them.
const (
	SGD      = "sgd"
	Momentum = "momentum"
	RMSprop  = "rmsprop"
	Adam     = "adam"
)

// Optimizers lists the optimiser names in the order the form offers them.
var Optimizers = []string{SGD, Momentum, RMSprop, Adam}

// Optimizer updates a slab of weights from its gradient, in place. Its
// state (velocities, moment estimates) has the slab's length; a step
// allocates nothing.
type Optimizer struct {
	kind         string
	beta1, beta2 float64 // Adam's moment decays; beta1 is momentum's too
	rho          float64 // RMSprop's decay of the squared gradient
	eps          float64
	m, v         []float64
	t            int // steps taken, for Adam's bias correction
}

// NewOptimizer makes an optimiser of kind for a slab of n weights, with
// the usual constants: momentum 0.9; RMSprop ρ = 0.9; Adam β1 = 0.9,
// β2 = 0.999; ε = 1e-8 (scikit-learn's and Keras's defaults).
func NewOptimizer(kind string, n int) (*Optimizer, error) {
	o := &Optimizer{kind: kind, beta1: 0.9, beta2: 0.999, rho: 0.9, eps: 1e-8}
	switch kind {
	case SGD:
	case Momentum:
		o.m = make([]float64, n)
	case RMSprop:
		o.v = make([]float64, n)
	case Adam:
		o.m, o.v = make([]float64, n), make([]float64, n)
	default:
		return nil, fmt.Errorf("unknown optimizer %q (valid: sgd, momentum, rmsprop, adam)", kind)
	}
	return o, nil
}

// Step moves w against gradient g with learning rate lr:
//
//	sgd       w ← w − lr·g
//	momentum  m ← β1·m − lr·g;  w ← w + m
//	rmsprop   v ← ρ·v + (1−ρ)·g²;  w ← w − lr·g/(√v + ε)
//	adam      m ← β1·m + (1−β1)·g;  v ← β2·v + (1−β2)·g²;
//	          w ← w − lr·m̂/(√v̂ + ε), m̂ = m/(1−β1ᵗ), v̂ = v/(1−β2ᵗ)
//
// Adam's bias correction makes its first step lr·sign(g) for every weight
// with a gradient well above ε.
func (o *Optimizer) Step(w, g []float64, lr float64) {
	w = w[:len(g)]
	switch o.kind {
	case SGD:
		for i, gi := range g {
			w[i] -= lr * gi
		}
	case Momentum:
		m := o.m[:len(g)]
		for i, gi := range g {
			m[i] = o.beta1*m[i] - lr*gi
			w[i] += m[i]
		}
	case RMSprop:
		v := o.v[:len(g)]
		for i, gi := range g {
			v[i] = o.rho*v[i] + (1-o.rho)*gi*gi
			w[i] -= lr * gi / (math.Sqrt(v[i]) + o.eps)
		}
	case Adam:
		o.t++
		m, v := o.m[:len(g)], o.v[:len(g)]
		c1 := 1 - math.Pow(o.beta1, float64(o.t))
		c2 := 1 - math.Pow(o.beta2, float64(o.t))
		step := lr * math.Sqrt(c2) / c1 // the corrections folded into the rate
		epsHat := o.eps * math.Sqrt(c2)
		for i, gi := range g {
			m[i] = o.beta1*m[i] + (1-o.beta1)*gi
			v[i] = o.beta2*v[i] + (1-o.beta2)*gi*gi
			w[i] -= step * m[i] / (math.Sqrt(v[i]) + epsHat)
		}
	}
}

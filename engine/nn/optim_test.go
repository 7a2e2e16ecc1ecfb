package nn

import (
	"math"
	"testing"
)

// Adam's first step has size exactly the learning rate in every
// coordinate, whatever the gradient's scale (Kingma & Ba 2015, section 2.1: the
// bias correction makes m̂ = g and v̂ = g²), up to ε.
func TestAdamFirstStepIsTheLearningRate(t *testing.T) {
	o, err := NewOptimizer(Adam, 3)
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{1, 1, 1}
	o.Step(w, []float64{1e-3, -50, 7}, 0.01)
	for i, want := range []float64{0.99, 1.01, 0.99} {
		if math.Abs(w[i]-want) > 1e-6 { // lr·ε/|g| = 1e-7 for the smallest gradient
			t.Errorf("w[%d] = %.12f, want %.12f", i, w[i], want)
		}
	}
}

// Each optimiser, on f(w) = ½‖w − c‖², reaches c (the minimum); SGD's
// first step is exactly lr·g.
func TestOptimizersMinimiseAQuadratic(t *testing.T) {
	c := []float64{3, -2}
	for _, kind := range Optimizers {
		o, _ := NewOptimizer(kind, 2)
		w, g := []float64{0, 0}, make([]float64, 2)
		for range 2000 {
			for i := range w {
				g[i] = w[i] - c[i]
			}
			o.Step(w, g, 0.01)
		}
		if math.Abs(w[0]-c[0]) > 1e-3 || math.Abs(w[1]-c[1]) > 1e-3 {
			t.Errorf("%s ends at %v, want %v", kind, w, c)
		}
	}
	o, _ := NewOptimizer(SGD, 1)
	w := []float64{2}
	o.Step(w, []float64{4}, 0.5)
	if w[0] != 0 {
		t.Errorf("sgd: w = %v, want 0", w[0])
	}
	if _, err := NewOptimizer("adagrad", 1); err == nil {
		t.Error("an unknown optimizer was accepted")
	}
}

func TestOptimizerStepAllocatesNothing(t *testing.T) {
	o, _ := NewOptimizer(Adam, 1000)
	w, g := make([]float64, 1000), make([]float64, 1000)
	if n := testing.AllocsPerRun(10, func() { o.Step(w, g, 0.01) }); n != 0 {
		t.Errorf("a step allocates %v times", n)
	}
}

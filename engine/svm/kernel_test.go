package svm

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// The degree-2 polynomial kernel (1 + a·b)² is the inner product of the
// explicit lift Φ(x) = (1, √2x₁, √2x₂, x₁², √2x₁x₂, x₂²) (Shewchuk,
// lecture 16).
func TestPolyKernelIsTheLiftedDotProduct(t *testing.T) {
	k := Kernel{Kind: Poly, Degree: 2, Gamma: 1, Coef0: 1}
	phi := func(x []float64) []float64 {
		r2 := math.Sqrt2
		return []float64{1, r2 * x[0], r2 * x[1], x[0] * x[0], r2 * x[0] * x[1], x[1] * x[1]}
	}
	pts := [][]float64{{0, 0}, {1, 2}, {-3, 0.5}, {2.5, -1.25}, {0.1, 7}}
	for _, a := range pts {
		for _, b := range pts {
			if got, want := k.Eval(a, b), kernel.Dot(phi(a), phi(b)); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("k(%v,%v) = %g, Φ(a)·Φ(b) = %g", a, b, got, want)
			}
		}
	}
}

func TestKernelValues(t *testing.T) {
	a, b := []float64{1, 2}, []float64{3, -1}
	for _, c := range []struct {
		k    Kernel
		want float64
	}{
		{Kernel{Kind: Linear}, 1},
		{Kernel{Kind: RBF, Gamma: 0.5}, math.Exp(-0.5 * 13)},
		{Kernel{Kind: Poly, Degree: 3, Gamma: 2, Coef0: 1}, 27},
		{Kernel{Kind: Sigmoid, Gamma: 0.1, Coef0: -1}, math.Tanh(-0.9)},
	} {
		if got := c.k.Eval(a, b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %g, want %g", c.k, got, c.want)
		}
	}
}

// gamma "scale" is scikit-learn's 1 / (n_features · X.var()): for
// X = [[0, 1], [2, 5]], X.var() = 3.5, so γ = 1/7 (numpy: 1/(2*X.var()) = 0.142857...).
func TestGammaScaleAsScikitLearn(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{0, 1, 2, 5})
	v := engine.Values{"kernel": RBF, "degree": 3, "gamma": "scale", "coef0": 0.0}
	if got := KernelOf(v, X).Gamma; math.Abs(got-1.0/7) > 1e-12 {
		t.Errorf("scale: γ = %g, want %g", got, 1.0/7)
	}
	v["gamma"] = "auto"
	if got := KernelOf(v, X).Gamma; got != 0.5 {
		t.Errorf("auto: γ = %g, want 0.5", got)
	}
	v["gamma"] = "0.25"
	if got := KernelOf(v, X).Gamma; got != 0.25 {
		t.Errorf("0.25: γ = %g", got)
	}
	for _, bad := range []string{"0", "-1", "wide", "inf"} {
		if checkGamma(bad) == nil {
			t.Errorf("gamma %q accepted", bad)
		}
	}
}

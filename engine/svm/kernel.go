package svm

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// The kernels a kernel method may use, as the kernel parameter spells them.
const (
	Linear  = "linear"  // a·b
	Poly    = "poly"    // (γ a·b + coef0)^degree
	RBF     = "rbf"     // exp(−γ ‖a − b‖²)
	Sigmoid = "sigmoid" // tanh(γ a·b + coef0)
)

// Kernel is k(a, b) with its parameters resolved: Gamma is a number here,
// never "scale".
type Kernel struct {
	Kind   string
	Degree int
	Gamma  float64
	Coef0  float64
}

// Eval is k(a, b).
func (k Kernel) Eval(a, b []float64) float64 {
	switch k.Kind {
	case RBF:
		var s float64
		for i, ai := range a {
			d := ai - b[i]
			s += d * d
		}
		return math.Exp(-k.Gamma * s)
	case Poly:
		return powInt(k.Gamma*kernel.Dot(a, b)+k.Coef0, k.Degree)
	case Sigmoid:
		return math.Tanh(k.Gamma*kernel.Dot(a, b) + k.Coef0)
	default:
		return kernel.Dot(a, b)
	}
}

// fromDot is k(a, b) from a·b and the squared norms ‖a‖², ‖b‖² (only the
// RBF reads them: ‖a − b‖² = ‖a‖² + ‖b‖² − 2a·b, rounding below 0 taken
// as 0), for code that has the dot products already.
func (k Kernel) fromDot(ab, sqa, sqb float64) float64 {
	switch k.Kind {
	case RBF:
		return kernel.Exp(-k.Gamma * max(0, sqa+sqb-2*ab))
	case Poly:
		return powInt(k.Gamma*ab+k.Coef0, k.Degree)
	case Sigmoid:
		return math.Tanh(k.Gamma*ab + k.Coef0)
	}
	return ab
}

// String is the kernel as a formula, for reports: "exp(−0.5‖a−b‖²)".
func (k Kernel) String() string {
	g := engine.Format(engine.Tidy(k.Gamma))
	c := engine.Format(k.Coef0)
	switch k.Kind {
	case RBF:
		return "exp(−" + g + "‖a−b‖²)"
	case Poly:
		return fmt.Sprintf("(%s a·b + %s)^%d", g, c, k.Degree)
	case Sigmoid:
		return "tanh(" + g + " a·b + " + c + ")"
	default:
		return "a·b"
	}
}

// powInt is x^n for a small whole n ≥ 0, by squaring.
func powInt(x float64, n int) float64 {
	r := 1.0
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
	}
	return r
}

// KernelParams are the parameters every kernel method shares, in the order
// forms show them. kinds lists the kernels the method offers (its first is
// the default); degree, gamma and coef0 apply only to the kernels that use
// them.
func KernelParams(kinds ...string) []engine.Param {
	return []engine.Param{
		{Name: "kernel", Kind: engine.Choice, Default: kinds[0], Choices: kinds,
			Help: "k(a,b): linear a·b, poly (γa·b+coef0)^degree, rbf exp(−γ‖a−b‖²), sigmoid tanh(γa·b+coef0)"},
		{Name: "degree", Kind: engine.Int, Default: 3, Min: 1, Max: 10,
			Help: "degree of the polynomial kernel",
			When: &engine.Applies{Param: "kernel", In: []string{Poly}}},
		{Name: "gamma", Kind: engine.Text, Default: "scale", Check: checkGamma, Number: true, Log: true,
			Help: "γ: scale = 1/(features × variance of X), auto = 1/features, or a number > 0",
			When: &engine.Applies{Param: "kernel", In: []string{Poly, RBF, Sigmoid}}},
		{Name: "coef0", Kind: engine.Float, Default: 0.0, Min: -100, Max: 100,
			Help: "constant term of the poly and sigmoid kernels",
			When: &engine.Applies{Param: "kernel", In: []string{Poly, Sigmoid}}},
	}
}

// checkGamma accepts scale, auto or a positive number.
func checkGamma(s string) error {
	s = strings.TrimSpace(s)
	if s == "scale" || s == "auto" {
		return nil
	}
	g, err := strconv.ParseFloat(s, 64)
	if err != nil || !(g > 0) || math.IsInf(g, 0) {
		return fmt.Errorf("gamma %q: want scale, auto or a number above 0", s)
	}
	return nil
}

// KernelOf is the kernel v asks for, with gamma resolved on the training
// rows X as scikit-learn does: scale is 1/(d · Var(X)) over every entry of
// X (1/d when X is constant), auto is 1/d.
func KernelOf(v engine.Values, X mat.Matrix) Kernel {
	k := Kernel{Kind: v.String("kernel"), Degree: 3, Gamma: 1, Coef0: 0}
	if _, ok := v["degree"]; ok {
		k.Degree = v.Int("degree")
	}
	if _, ok := v["coef0"]; ok {
		k.Coef0 = v.Float("coef0")
	}
	_, d := X.Dims()
	if d == 0 {
		return k
	}
	switch g := strings.TrimSpace(v.String("gamma")); g {
	case "auto":
		k.Gamma = 1 / float64(d)
	case "scale", "":
		k.Gamma = 1 / float64(d)
		if s := variance(X); s > 0 {
			k.Gamma = 1 / (float64(d) * s)
		}
	default:
		k.Gamma, _ = strconv.ParseFloat(g, 64) // checked by checkGamma
	}
	return k
}

// variance is the variance of every entry of X taken together.
func variance(X mat.Matrix) float64 {
	n, d := X.Dims()
	var sum, sq float64
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x := X.At(i, j)
			sum += x
			sq += x * x
		}
	}
	m := float64(n * d)
	if m == 0 {
		return 0
	}
	mean := sum / m
	return math.Max(0, sq/m-mean*mean)
}

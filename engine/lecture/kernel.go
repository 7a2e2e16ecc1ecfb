package lecture

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// The kernel trick, seen: two concentric circles no line separates are
// lifted by a degree-2 map into three coordinates, where a plane does
// (Shewchuk's lecture 4: the parabolic lifting map Φ(x) = [x; ‖x‖²], whose
// separating planes are the circles of x-space; lecture 16: the degree-2
// monomials of the polynomial kernel, (xᵀz)² = Φ(x)ᵀΦ(z)).

// KernelResult is the data, their lift, and the separators fitted in
// either space.
type KernelResult struct {
	Map     string       `json:"map"`    // parabolic or quadratic
	View    string       `json:"view"`   // rotate or projections
	Coords  [3]string    `json:"coords"` // the lifted coordinates' names
	X       [][2]float64 `json:"x"`      // the points, inner circle first
	Labels  []int        `json:"labels"` // 0 inner, 1 outer
	Lifted  [][3]float64 `json:"lifted"` // Φ(x) of each point
	Plane   KernelPlane  `json:"plane"`  // the separator in the lifted space
	Line    KernelLine   `json:"line"`   // the best a line does in x-space
	Acc3D   float64      `json:"lifted_accuracy"`
	Acc2D   float64      `json:"linear_accuracy"`
	Circle  *KernelConic `json:"induced_conic,omitempty"` // the plane seen in x-space
	Penalty float64      `json:"penalty"`                 // the L2 penalty of both logistic fits
}

// KernelPlane is wᵀz + b = 0.
type KernelPlane struct {
	W [3]float64 `json:"w"`
	B float64    `json:"b"`
}

// KernelLine is wᵀx + b = 0.
type KernelLine struct {
	W [2]float64 `json:"w"`
	B float64    `json:"b"`
}

// KernelConic is the plane's preimage a·x1² + b·x1x2 + c·x2² + d·x1 + e·x2 + f = 0;
// for the parabolic map a circle of Center and Radius (Radius 0: none).
type KernelConic struct {
	A      float64    `json:"a"`
	B      float64    `json:"b"`
	C      float64    `json:"c"`
	D      float64    `json:"d"`
	E      float64    `json:"e"`
	F      float64    `json:"f"`
	Center [2]float64 `json:"center"`
	Radius float64    `json:"radius"`
}

// kernelPenalty is the small L2 penalty (on the weights, not the bias)
// that keeps a logistic fit of separable data finite.
const kernelPenalty = 1e-3

func init() {
	Register(Experiment{
		Name:    "kernel",
		Title:   "the kernel trick, seen",
		Summary: "two concentric circles no line separates, lifted by a degree-2 map into three coordinates where a plane does: the plane, and the circle it is in the plane of the data",
		Source:  "Shewchuk, Concise Machine Learning, lecture 4 (the parabolic lifting map: separable by a sphere iff lifted points separable by a plane) and lecture 16 (the polynomial kernel (xᵀz)² = Φ(x)ᵀΦ(z))",
		Knobs: []engine.Param{
			{Name: "points", Kind: engine.Int, Default: 60, Min: 5, Max: 2000, Help: "points on each circle"},
			{Name: "inner", Kind: engine.Float, Default: 1.0, Min: 0.01, Max: 100, Help: "the inner circle's radius"},
			{Name: "outer", Kind: engine.Float, Default: 2.5, Min: 0.01, Max: 100, Help: "the outer circle's radius"},
			{Name: "noise", Kind: engine.Float, Default: 0.2, Min: 0, Max: 100, Help: "σ of the radial jitter of each point"},
			{Name: "map", Kind: engine.Choice, Default: "parabolic", Choices: []string{"parabolic", "quadratic"},
				Help:   "the lift: parabolic (x1, x2, x1²+x2²) or quadratic (x1², √2·x1x2, x2²)",
				Detail: "parabolic: Φ(x) = [x; ‖x‖²], Φ(x)ᵀΦ(z) = xᵀz + ‖x‖²‖z‖², its planes circles in x-space; quadratic: the degree-2 monomials, Φ(x)ᵀΦ(z) = (xᵀz)², its planes conics centred on the origin"},
			{Name: "view", Kind: engine.Choice, Default: "rotate", Choices: []string{"rotate", "projections"},
				Help: "the lifted points turning about the vertical axis, or their three 2-D projections"},
			SeedKnob(),
		},
		Run:    runKernel,
		Decode: DecodeAs[KernelResult],
	})
}

// KernelLiftOf is Φ(x) for map m ("parabolic" or "quadratic").
func KernelLiftOf(m string, x [2]float64) [3]float64 { return kernelLift(m, x) }

// kernelLift is Φ(x) for map m.
func kernelLift(m string, x [2]float64) [3]float64 {
	if m == "quadratic" {
		return [3]float64{x[0] * x[0], math.Sqrt2 * x[0] * x[1], x[1] * x[1]}
	}
	return [3]float64{x[0], x[1], x[0]*x[0] + x[1]*x[1]}
}

func runKernel(ctx context.Context, in In, show func(Frame)) (any, error) {
	v := in.Values
	n, m := v.Int("points"), v.String("map")
	rng := rand.New(rand.NewPCG(uint64(v.Int("seed")), 0x6b65726e))
	res := &KernelResult{Map: m, View: v.String("view"), Penalty: kernelPenalty}
	res.Coords = [3]string{"x1", "x2", "x1²+x2²"}
	if m == "quadratic" {
		res.Coords = [3]string{"x1²", "√2·x1x2", "x2²"}
	}
	for c, r := range []float64{v.Float("inner"), v.Float("outer")} {
		for range n {
			a := 2 * math.Pi * rng.Float64()
			rad := r + v.Float("noise")*rng.NormFloat64()
			x := [2]float64{rad * math.Cos(a), rad * math.Sin(a)}
			res.X = append(res.X, x)
			res.Labels = append(res.Labels, c)
			res.Lifted = append(res.Lifted, kernelLift(m, x))
		}
	}
	show(Frame{Result: res, Done: 1, Total: 3})
	if err := ctx.Err(); err != nil {
		return res, err
	}
	rows := make([][]float64, len(res.X))
	for i, x := range res.X {
		rows[i] = []float64{x[0], x[1]}
	}
	w2, b2 := kernelLogistic(rows, res.Labels)
	res.Line = KernelLine{W: [2]float64{w2[0], w2[1]}, B: b2}
	res.Acc2D = kernelAccuracy(rows, res.Labels, w2, b2)
	out := *res
	show(Frame{Result: &out, Done: 2, Total: 3})
	if err := ctx.Err(); err != nil {
		return res, err
	}
	for i, z := range res.Lifted {
		rows[i] = []float64{z[0], z[1], z[2]}
	}
	w3, b3 := kernelLogistic(rows, res.Labels)
	res.Plane = KernelPlane{W: [3]float64{w3[0], w3[1], w3[2]}, B: b3}
	res.Acc3D = kernelAccuracy(rows, res.Labels, w3, b3)
	res.Circle = kernelConic(m, res.Plane)
	return res, nil
}

// kernelConic is the plane's preimage in x-space.
func kernelConic(m string, p KernelPlane) *KernelConic {
	w, b := p.W, p.B
	c := &KernelConic{F: b}
	if m == "quadratic" {
		c.A, c.B, c.C = w[0], math.Sqrt2*w[1], w[2]
		return c
	}
	c.A, c.C, c.D, c.E = w[2], w[2], w[0], w[1]
	if w[2] != 0 {
		c.Center = [2]float64{-w[0] / (2 * w[2]), -w[1] / (2 * w[2])}
		if r2 := c.Center[0]*c.Center[0] + c.Center[1]*c.Center[1] - b/w[2]; r2 > 0 {
			c.Radius = math.Sqrt(r2)
		}
	}
	return c
}

// kernelLogistic fits L2-penalised logistic regression (the bias not
// penalised) by Newton's method: labels 1 on the positive side of
// wᵀx + b.
func kernelLogistic(x [][]float64, y []int) ([]float64, float64) {
	d := len(x[0])
	theta := make([]float64, d+1) // weights, then the bias
	n := float64(len(x))
	for range 100 {
		g := make([]float64, d+1)
		h := mat.NewSymDense(d+1, nil)
		for i, xi := range x {
			z := theta[d]
			for j := range d {
				z += theta[j] * xi[j]
			}
			p := 1 / (1 + math.Exp(-z))
			r := p - float64(y[i])
			s := p * (1 - p)
			for j := 0; j <= d; j++ {
				aj := 1.0
				if j < d {
					aj = xi[j]
				}
				g[j] += r * aj / n
				for k := j; k <= d; k++ {
					ak := 1.0
					if k < d {
						ak = xi[k]
					}
					h.SetSym(j, k, h.At(j, k)+s*aj*ak/n)
				}
			}
		}
		for j := range d {
			g[j] += kernelPenalty * theta[j]
			h.SetSym(j, j, h.At(j, j)+kernelPenalty)
		}
		var step mat.VecDense
		if err := step.SolveVec(h, mat.NewVecDense(d+1, g)); err != nil {
			break
		}
		size := 0.0
		for j := range theta {
			theta[j] -= step.AtVec(j)
			size = math.Max(size, math.Abs(step.AtVec(j)))
		}
		if size < 1e-12 {
			break
		}
	}
	return theta[:d], theta[d]
}

func kernelAccuracy(x [][]float64, y []int, w []float64, b float64) float64 {
	right := 0
	for i, xi := range x {
		z := b
		for j := range w {
			z += w[j] * xi[j]
		}
		if (z > 0) == (y[i] == 1) {
			right++
		}
	}
	return float64(right) / float64(len(x))
}

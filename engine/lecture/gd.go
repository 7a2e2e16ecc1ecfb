package lecture

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// Gradient descent on a two-weight cost surface: Shewchuk's lecture 5
// bowls (2w1² + w2² with ε = 0.105 converges; 10w1² + w2² with the same ε
// diverges in w1, and with ε = 0.055 crawls in w2), Hocking's least-squares
// surface in (intercept, slope), and a logistic loss, each walked by plain
// GD and by the adaptive methods the notes name (momentum, RMSprop, Adam)
// and Newton's method beside them.

// GDResult is the run: the surface, its minimum and the paths taken.
type GDResult struct {
	Surface string `json:"surface"` // quadratic, ill, bowl, logistic, leastsquares
	Formula string `json:"formula"` // the cost, written out
	// A holds the bowl's coefficients a1, a2 of a1·w1² + a2·w2² (the
	// quadratic and ill surfaces are bowls too).
	A *[2]float64 `json:"a,omitempty"`
	// Data are the points of a logistic or least-squares surface, so that
	// a recorded result can redraw its contours.
	Data    *GDData    `json:"data,omitempty"`
	Minimum [2]float64 `json:"minimum"`
	MinCost float64    `json:"min_cost"`
	Start   [2]float64 `json:"start"`
	Steps   int        `json:"steps"`
	// Window is the contour grid's bounds, [w1 low, w1 high] and [w2 low,
	// w2 high]: the start and minimum and every point whose cost is at most
	// the start's (a diverging path is clipped at it).
	Window       [2][2]float64  `json:"window"`
	Tol          float64        `json:"tol"` // "converged" is cost − min cost below it
	Trajectories []GDTrajectory `json:"trajectories"`
}

// GDData is a data set of two features (logistic: x1, x2 and y = ±1;
// least squares: x in X[i][0] and y).
type GDData struct {
	X [][2]float64 `json:"x"`
	Y []float64    `json:"y"`
}

// GDTrajectory is one method's path at one learning rate.
type GDTrajectory struct {
	Method string  `json:"method"` // gd, momentum, rmsprop, adam, newton
	LR     float64 `json:"lr"`     // Newton's is 1: its full step
	// Points are the iterates w_0 (the start), w_1, ..., steps+1 of them
	// unless the path diverged; Cost[t] is the cost at Points[t].
	Points [][2]float64 `json:"points"`
	Cost   []float64    `json:"cost"`
	// Diverged says the iterate of step DivergedAt left the bound (|w_i|
	// above Bound, or a cost that is not a number) and the path stopped
	// there; that iterate is not among Points.
	Diverged   bool    `json:"diverged"`
	DivergedAt int     `json:"diverged_at,omitempty"`
	Bound      float64 `json:"bound"`
	// Rising says the last cost is above the start's: the path moves away
	// from the minimum even if it has not yet left the bound.
	Rising bool `json:"rising"`
	// StepsToTol is the first step whose cost is within Tol of the
	// minimum's (absent: never within the steps run).
	StepsToTol *int `json:"steps_to_tol,omitempty"`
	// Factors are plain GD's per-axis factors on a bowl, w_t = f^t·w_0 with
	// f = 1 − 2·ε·a_i.
	Factors *[2]float64 `json:"factors,omitempty"`
}

// gdTol is the cost gap to the minimum counted as converged.
const gdTol = 1e-6

// gdMaxTrajectories bounds the paths of one run: each needs a glyph.
const gdMaxTrajectories = 12

var gdMethods = []string{"gd", "momentum", "rmsprop", "adam", "newton"}

var gdLR = ListKnob("lr", "0.105,0.055", "learning rates ε: a path for each (method, ε)", 1e-6, 100, false, true)

func init() {
	onlyBowl := &engine.Applies{Param: "surface", In: []string{"bowl"}}
	onlyData := &engine.Applies{Param: "surface", In: []string{"logistic", "leastsquares"}}
	seed := SeedKnob()
	seed.When = onlyData
	Register(Experiment{
		Name:    "gd",
		Title:   "gradient descent on a cost surface",
		Summary: "gradient descent's path over a cost surface's contours for several learning rates: convergence, zig-zag, divergence, and what momentum, RMSprop, Adam and Newton do instead",
		Source:  "Shewchuk, Concise Machine Learning, lecture 5 (gradient descent, ill-conditioning); Hocking, gradient descent for least squares (step sizes on a cost contour)",
		Knobs: []engine.Param{
			{Name: "surface", Kind: engine.Choice, Default: "quadratic", Choices: []string{"quadratic", "ill", "bowl", "logistic", "leastsquares"},
				Help: "the cost: quadratic 2w1²+w2², ill 10w1²+w2², bowl a1·w1²+a2·w2², logistic loss or least squares of seeded data",
				Detail: "quadratic and ill are the notes' bowls; logistic is the mean logistic loss of 100 points, y = ±1 with x ~ N(y·(1, 0.5), I), weights w1, w2 and no intercept; " +
					"leastsquares is half the mean squared residual of the line w1 + w2·x through 100 points, x ~ U(0, 3), y = 1 + 0.5x + N(0, 0.5²), x not scaled (tilted contours)"},
			{Name: "a1", Kind: engine.Float, Default: 3.0, Min: 1e-3, Max: 1e3, Log: true, Help: "the bowl's w1 coefficient a1", When: onlyBowl},
			{Name: "a2", Kind: engine.Float, Default: 0.5, Min: 1e-3, Max: 1e3, Log: true, Help: "the bowl's w2 coefficient a2", When: onlyBowl},
			gdLR,
			{Name: "steps", Kind: engine.Int, Default: 20, Min: 1, Max: 10000, Help: "iterations of each path"},
			{Name: "start", Kind: engine.Text, Default: "-4,3", Help: "the starting weights w1,w2", Check: func(s string) error { _, err := gdReadStart(s); return err },
				Detail: "two numbers w1,w2, each within [-1000, 1000]"},
			{Name: "methods", Kind: engine.Text, Default: "gd", Help: "methods, a comma list of gd, momentum, rmsprop, adam, newton",
				Check: func(s string) error { _, err := gdReadMethods(s); return err },
				Detail: "gd: w ← w − ε∇f; momentum (heavy ball): v ← βv + ∇f, w ← w − εv; rmsprop: r ← ρr + (1−ρ)∇f², w ← w − ε∇f/(√r + eps); " +
					"adam: bias-corrected moments, w ← w − ε·m̂/(√v̂ + eps); newton: w ← w − H⁻¹∇f with step 1, once (ε ignored)"},
			{Name: "momentum", Kind: engine.Float, Default: 0.9, Min: 0, Max: 0.999, Help: "momentum's β (v ← βv + ∇f)"},
			{Name: "rho", Kind: engine.Float, Default: 0.9, Min: 0, Max: 0.9999, Help: "RMSprop's decay ρ of the mean squared gradient"},
			{Name: "beta1", Kind: engine.Float, Default: 0.9, Min: 0, Max: 0.9999, Help: "Adam's β1 (first moment's decay)"},
			{Name: "beta2", Kind: engine.Float, Default: 0.999, Min: 0, Max: 0.99999, Help: "Adam's β2 (second moment's decay)"},
			{Name: "eps", Kind: engine.Float, Default: 1e-8, Min: 0, Max: 1, Help: "RMSprop's and Adam's ε in the denominator"},
			seed,
		},
		Run:    runGD,
		Decode: DecodeAs[GDResult],
	})
}

func gdReadStart(s string) ([2]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return [2]float64{}, fmt.Errorf("%q: give two numbers w1,w2", s)
	}
	var w [2]float64
	for i, p := range parts {
		x, err := number(p)
		if err != nil {
			return w, err
		}
		if math.Abs(x) > 1000 {
			return w, fmt.Errorf("%s is out of range [-1000, 1000]", numfmt.Param(x))
		}
		w[i] = x
	}
	return w, nil
}

func gdReadMethods(s string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(s, ",") {
		m := strings.ToLower(strings.TrimSpace(p))
		if !slices.Contains(gdMethods, m) {
			return nil, fmt.Errorf("%q is not a method (valid: %s)", m, strings.Join(gdMethods, ", "))
		}
		if slices.Contains(out, m) {
			return nil, fmt.Errorf("%s is listed twice", m)
		}
		out = append(out, m)
	}
	return out, nil
}

// gdSurface is a cost over (w1, w2) with its gradient and Hessian.
type gdSurface struct {
	kind string
	a    [2]float64 // a bowl's coefficients
	data *GDData
}

// surface rebuilds the cost of a result (a recorded one too).
func (r *GDResult) surface() *gdSurface {
	s := &gdSurface{kind: r.Surface, data: r.Data}
	if r.A != nil {
		s.a = *r.A
	}
	return s
}

// Cost is the surface's cost at (w1, w2): what the contours are drawn of.
func (r *GDResult) Cost(w1, w2 float64) float64 { return r.surface().cost([2]float64{w1, w2}) }

// gdSoftplus is log(1 + e^z) without overflow.
func gdSoftplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// gdSigmoid is 1/(1 + e^−z) without overflow.
func gdSigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

func (s *gdSurface) cost(w [2]float64) float64 {
	switch s.kind {
	case "logistic":
		sum := 0.0
		for i, x := range s.data.X {
			sum += gdSoftplus(-s.data.Y[i] * (w[0]*x[0] + w[1]*x[1]))
		}
		return sum / float64(len(s.data.X))
	case "leastsquares":
		sum := 0.0
		for i, x := range s.data.X {
			r := w[0] + w[1]*x[0] - s.data.Y[i]
			sum += r * r
		}
		return sum / (2 * float64(len(s.data.X)))
	}
	return s.a[0]*w[0]*w[0] + s.a[1]*w[1]*w[1]
}

func (s *gdSurface) grad(w [2]float64) [2]float64 {
	var g [2]float64
	switch s.kind {
	case "logistic":
		for i, x := range s.data.X {
			y := s.data.Y[i]
			c := -y * gdSigmoid(-y*(w[0]*x[0]+w[1]*x[1]))
			g[0] += c * x[0]
			g[1] += c * x[1]
		}
	case "leastsquares":
		for i, x := range s.data.X {
			r := w[0] + w[1]*x[0] - s.data.Y[i]
			g[0] += r
			g[1] += r * x[0]
		}
	default:
		return [2]float64{2 * s.a[0] * w[0], 2 * s.a[1] * w[1]}
	}
	n := float64(len(s.data.X))
	return [2]float64{g[0] / n, g[1] / n}
}

func (s *gdSurface) hess(w [2]float64) [2][2]float64 {
	var h [2][2]float64
	switch s.kind {
	case "logistic":
		for _, x := range s.data.X {
			p := gdSigmoid(w[0]*x[0] + w[1]*x[1])
			c := p * (1 - p)
			h[0][0] += c * x[0] * x[0]
			h[0][1] += c * x[0] * x[1]
			h[1][1] += c * x[1] * x[1]
		}
	case "leastsquares":
		for _, x := range s.data.X {
			h[0][0]++
			h[0][1] += x[0]
			h[1][1] += x[0] * x[0]
		}
	default:
		return [2][2]float64{{2 * s.a[0], 0}, {0, 2 * s.a[1]}}
	}
	n := float64(len(s.data.X))
	h[0][0] /= n
	h[0][1] /= n
	h[1][1] /= n
	h[1][0] = h[0][1]
	return h
}

// gdNewtonStep is H⁻¹g; ok is false when H is not positive definite (to
// working precision), where Newton's step means nothing.
func gdNewtonStep(h [2][2]float64, g [2]float64) ([2]float64, bool) {
	det := h[0][0]*h[1][1] - h[0][1]*h[1][0]
	if !(h[0][0] > 0) || !(det > 1e-14*h[0][0]*h[1][1]) {
		return [2]float64{}, false
	}
	return [2]float64{(h[1][1]*g[0] - h[0][1]*g[1]) / det, (h[0][0]*g[1] - h[1][0]*g[0]) / det}, true
}

// gdSettings are the methods' constants.
type gdSettings struct {
	beta, rho, beta1, beta2, eps float64
}

// walk runs one method from start for steps steps. Each step's update is
// the one the knob's Detail states; the path stops at the first iterate
// past bound (or whose cost is not finite).
func (s *gdSurface) walk(ctx context.Context, method string, lr float64, start [2]float64, steps int, bound float64, k gdSettings) (GDTrajectory, error) {
	tr := GDTrajectory{Method: method, LR: lr, Bound: bound, Points: [][2]float64{start}, Cost: []float64{s.cost(start)}}
	w := start
	var v, m, r [2]float64 // momentum's velocity, Adam's moments, RMSprop's and Adam's mean squares
	for t := 1; t <= steps; t++ {
		if t%256 == 0 {
			if err := ctx.Err(); err != nil {
				return tr, err
			}
		}
		g := s.grad(w)
		next := w
		ok := true
		switch method {
		case "gd":
			for i := range 2 {
				next[i] = w[i] - lr*g[i]
			}
		case "momentum":
			for i := range 2 {
				v[i] = k.beta*v[i] + g[i]
				next[i] = w[i] - lr*v[i]
			}
		case "rmsprop":
			for i := range 2 {
				r[i] = k.rho*r[i] + (1-k.rho)*g[i]*g[i]
				next[i] = w[i] - lr*gdRatio(g[i], math.Sqrt(r[i])+k.eps)
			}
		case "adam":
			c1, c2 := 1-math.Pow(k.beta1, float64(t)), 1-math.Pow(k.beta2, float64(t))
			for i := range 2 {
				m[i] = k.beta1*m[i] + (1-k.beta1)*g[i]
				r[i] = k.beta2*r[i] + (1-k.beta2)*g[i]*g[i]
				next[i] = w[i] - lr*gdRatio(m[i]/c1, math.Sqrt(r[i]/c2)+k.eps)
			}
		case "newton":
			var d [2]float64
			d, ok = gdNewtonStep(s.hess(w), g)
			next = [2]float64{w[0] - d[0], w[1] - d[1]}
		}
		c := s.cost(next)
		if !ok || math.IsNaN(next[0]+next[1]) || math.Abs(next[0]) > bound || math.Abs(next[1]) > bound || math.IsNaN(c) || math.IsInf(c, 0) {
			tr.Diverged, tr.DivergedAt = true, t
			break
		}
		w = next
		tr.Points = append(tr.Points, w)
		tr.Cost = append(tr.Cost, c)
	}
	tr.Rising = tr.Cost[len(tr.Cost)-1] > tr.Cost[0]
	return tr, nil
}

// gdRatio is a/b, and 0 for 0/0: with eps = 0 a coordinate whose
// gradient has been 0 throughout (a start on the minimum) stays put.
func gdRatio(a, b float64) float64 {
	if b == 0 && a == 0 {
		return 0
	}
	return a / b
}

func runGD(ctx context.Context, in In, show func(Frame)) (any, error) {
	v := in.Values
	start, err := gdReadStart(v.String("start"))
	if err != nil {
		return nil, err
	}
	methods, err := gdReadMethods(v.String("methods"))
	if err != nil {
		return nil, err
	}
	lrs := List(v, gdLR)
	steps := v.Int("steps")
	k := gdSettings{beta: v.Float("momentum"), rho: v.Float("rho"), beta1: v.Float("beta1"), beta2: v.Float("beta2"), eps: v.Float("eps")}

	type job struct {
		method string
		lr     float64
	}
	var jobs []job
	for _, m := range methods {
		if m == "newton" {
			jobs = append(jobs, job{m, 1})
			continue
		}
		for _, lr := range lrs {
			jobs = append(jobs, job{m, lr})
		}
	}
	if len(jobs) > gdMaxTrajectories {
		return nil, engine.Limitf("%d paths (methods × learning rates) but a picture holds at most %d: give fewer lr or methods", len(jobs), gdMaxTrajectories)
	}

	res := &GDResult{Surface: v.String("surface"), Start: start, Steps: steps, Tol: gdTol}
	surf := &gdSurface{kind: res.Surface}
	switch res.Surface {
	case "quadratic", "ill", "bowl":
		a := map[string][2]float64{"quadratic": {2, 1}, "ill": {10, 1}}[res.Surface]
		if res.Surface == "bowl" {
			a = [2]float64{v.Float("a1"), v.Float("a2")}
		}
		res.A, surf.a = &a, a
		res.Formula = "f(w) = " + gdCoef(a[0]) + "w1² + " + gdCoef(a[1]) + "w2²"
	case "logistic":
		res.Data = gdLogisticData(uint64(v.Int("seed")))
		res.Formula = "f(w) = mean log(1 + exp(−y·(w1·x1 + w2·x2))), 100 points, y = ±1, x ~ N(y·(1, 0.5), I)"
	case "leastsquares":
		res.Data = gdLeastSquaresData(uint64(v.Int("seed")))
		res.Formula = "f(w) = ½·mean (w1 + w2·x − y)², 100 points, x ~ U(0, 3), y = 1 + 0.5x + N(0, 0.5²)"
	}
	surf.data = res.Data
	res.Minimum, err = surf.minimum()
	if err != nil {
		return nil, err
	}
	res.MinCost = surf.cost(res.Minimum)

	// The bound is far beyond the picture: a path past it is diverging,
	// and stopping there keeps every number finite.
	scale := math.Max(1, math.Max(math.Max(math.Abs(start[0]), math.Abs(start[1])), math.Max(math.Abs(res.Minimum[0]), math.Abs(res.Minimum[1]))))
	bound := 1e6 * scale

	var trs []GDTrajectory
	emit := func() {
		out := *res
		out.Trajectories = slices.Clone(trs)
		out.Window = gdWindow(surf, &out)
		show(Frame{Result: &out, Done: len(trs), Total: len(jobs)})
	}
	for _, j := range jobs {
		tr, err := surf.walk(ctx, j.method, j.lr, start, steps, bound, k)
		if err != nil {
			out := *res
			out.Trajectories = trs
			out.Window = gdWindow(surf, &out)
			return &out, err
		}
		for t, c := range tr.Cost {
			if c-res.MinCost < gdTol {
				t := t
				tr.StepsToTol = &t
				break
			}
		}
		if j.method == "gd" && res.A != nil {
			tr.Factors = &[2]float64{1 - 2*j.lr*res.A[0], 1 - 2*j.lr*res.A[1]}
		}
		trs = append(trs, tr)
		emit()
	}
	res.Trajectories = trs
	res.Window = gdWindow(surf, res)
	return res, nil
}

// gdCoef writes a bowl's coefficient before its term ("2·", "" for 1).
func gdCoef(a float64) string {
	if a == 1 {
		return ""
	}
	return numfmt.Param(a) + "·"
}

// minimum finds the surface's minimum: the origin of a bowl, the normal
// equations' solution for least squares, Newton's method run to the end
// for the logistic loss (whose data overlap, so the minimum is finite).
func (s *gdSurface) minimum() ([2]float64, error) {
	switch s.kind {
	case "leastsquares":
		d, ok := gdNewtonStep(s.hess([2]float64{}), s.grad([2]float64{}))
		if !ok {
			return [2]float64{}, engine.Limitf("the data's x are all equal: no single least-squares line; change seed")
		}
		return [2]float64{-d[0], -d[1]}, nil
	case "logistic":
		var w [2]float64
		for range 100 {
			d, ok := gdNewtonStep(s.hess(w), s.grad(w))
			if !ok {
				break
			}
			w = [2]float64{w[0] - d[0], w[1] - d[1]}
			if math.Abs(d[0])+math.Abs(d[1]) < 1e-13*(1+math.Abs(w[0])+math.Abs(w[1])) {
				return w, nil
			}
		}
		return w, engine.Limitf("the seed's two classes are separable by a line through the origin: the logistic loss has no minimum; change seed")
	}
	return [2]float64{}, nil
}

// gdLogisticData draws 50 points of each class y = ±1 from N(y·(1, 0.5), I).
func gdLogisticData(seed uint64) *GDData {
	rng := rand.New(rand.NewPCG(seed, 0x6764)) // "gd"
	d := &GDData{}
	for i := range 100 {
		y := 1.0
		if i%2 == 1 {
			y = -1
		}
		d.X = append(d.X, [2]float64{y*1 + rng.NormFloat64(), y*0.5 + rng.NormFloat64()})
		d.Y = append(d.Y, y)
	}
	return d
}

// gdLeastSquaresData draws 100 points x ~ U(0, 3), y = 1 + 0.5x + N(0, 0.5²).
func gdLeastSquaresData(seed uint64) *GDData {
	rng := rand.New(rand.NewPCG(seed, 0x6764))
	d := &GDData{}
	for range 100 {
		x := 3 * rng.Float64()
		d.X = append(d.X, [2]float64{x, 0})
		d.Y = append(d.Y, 1+0.5*x+0.5*rng.NormFloat64())
	}
	return d
}

// gdWindow is the contour grid's bounds: symmetric about the minimum and
// reaching the start, widened to every iterate no costlier than the start
// (so a converging path's overshoot shows and a diverging one is clipped),
// and padded by a tenth.
func gdWindow(s *gdSurface, r *GDResult) [2][2]float64 {
	var lo, hi [2]float64
	for i := range 2 {
		d := math.Abs(r.Start[i] - r.Minimum[i])
		lo[i], hi[i] = r.Minimum[i]-d, r.Minimum[i]+d
	}
	c0 := s.cost(r.Start)
	for _, tr := range r.Trajectories {
		for t, p := range tr.Points {
			if tr.Cost[t] <= c0 {
				for i := range 2 {
					lo[i], hi[i] = math.Min(lo[i], p[i]), math.Max(hi[i], p[i])
				}
			}
		}
	}
	var out [2][2]float64
	span := math.Max(hi[0]-lo[0], hi[1]-lo[1])
	if span == 0 {
		span = 2
	}
	for i := range 2 {
		pad := 0.1 * (hi[i] - lo[i])
		if hi[i]-lo[i] < 0.05*span { // start and minimum level on this axis
			pad = 0.25 * span
		}
		out[i] = [2]float64{lo[i] - pad, hi[i] + pad}
	}
	return out
}

// StepsText is how many steps a path took to come within Tol of the
// minimum's cost, as a table says it.
func (t *GDTrajectory) StepsText() string {
	switch {
	case t.Diverged:
		return "diverged at step " + strconv.Itoa(t.DivergedAt)
	case t.StepsToTol != nil:
		return strconv.Itoa(*t.StepsToTol)
	case t.Rising:
		return "never (cost rising)"
	}
	return "not in " + strconv.Itoa(len(t.Points)-1)
}

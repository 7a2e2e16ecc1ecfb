package lecture

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/tealab/tealab/engine"
)

// The kernel trick, seen: two concentric circles of points, which no line
// in the plane separates, lifted into 3-D by a feature map where a plane
// does. Shewchuk's lecture 4: the parabolic lifting map Φ(x) = [x; ‖x‖²]
// makes the lifted points linearly separable iff the points are separable
// by a circle; lecture 16: the degree-2 monomials, whose inner product is
// a polynomial kernel (here (xᵀz)², the homogeneous one). The plane is a
// soft-margin linear SVM fitted on the lifted points by SMO; the best line
// in the plane is found exactly, by enumeration.

// KernelResult is the run: the data, its lift, the plane and what it
// induces in the plane, and the best line in 2-D for comparison.
type KernelResult struct {
	Map    string       `json:"map"`  // parabolic or quadratic
	View   string       `json:"view"` // rotate or projections: how it is drawn
	Inner  float64      `json:"inner_radius"`
	Outer  float64      `json:"outer_radius"`
	Noise  float64      `json:"noise"`
	X      [][2]float64 `json:"x"`
	Y      []int        `json:"y"` // +1 inner circle, −1 outer
	Z      [][3]float64 `json:"z"` // Φ(x)
	Fitted bool         `json:"fitted"`
	Plane  KernelPlane  `json:"plane"`
	// LiftedAccuracy is the plane's training accuracy in 3-D;
	// LineAccuracy the best line's in 2-D; Majority the rate of the
	// larger class (a constant guess).
	LiftedAccuracy float64        `json:"lifted_accuracy"`
	Searched       bool           `json:"line_searched"`
	Line           KernelLine     `json:"best_line"`
	LineAccuracy   float64        `json:"line_accuracy"`
	Majority       float64        `json:"majority_rate"`
	Boundary       KernelBoundary `json:"induced_boundary"`
}

// KernelPlane is the SVM's plane W·z + B = 0 in the lifted space, the
// inner circle on its positive side.
type KernelPlane struct {
	W          [3]float64 `json:"w"`
	B          float64    `json:"b"`
	C          float64    `json:"c"`
	Margin     float64    `json:"margin"` // 1/‖W‖: from the plane to the margin's edge
	Support    int        `json:"support_vectors"`
	Iterations int        `json:"iterations"`
	Converged  bool       `json:"converged"`
	Gap        float64    `json:"kkt_gap"` // the largest violation of the optimality conditions left
}

// KernelLine is the line Normal·x = Offset in the plane; the inner class
// is predicted on the side Normal·x > Offset. It passes through two of the
// points: the best line is that one nudged, which puts both on their
// right sides.
type KernelLine struct {
	Normal [2]float64 `json:"normal"`
	Offset float64    `json:"offset"`
	Errors int        `json:"errors"`
}

// KernelBoundary is the curve the plane induces in the plane: the
// preimage {x : W·Φ(x) + B = 0}. Kind is circle (Centre, Radius), ellipse
// (centred at 0, semi-axes Axes, the first at Angle radians), line,
// hyperbola, or empty (the plane misses the lifted surface).
type KernelBoundary struct {
	Kind   string     `json:"kind"`
	Centre [2]float64 `json:"centre"`
	Radius float64    `json:"radius,omitempty"`
	Axes   [2]float64 `json:"axes,omitempty"`
	Angle  float64    `json:"angle,omitempty"`
}

// KernelFrames is how many frames the rotating view turns through.
const KernelFrames = 36

// kernelTol is the SMO's stopping tolerance on the optimality conditions'
// violation (LIBSVM stops at 1e-3).
const kernelTol = 1e-6

func init() {
	Register(Experiment{
		Name:    "kernel",
		Title:   "the kernel trick, seen: circles lifted until a plane separates them",
		Summary: "two concentric circles of points, which no line separates, lifted into 3-D by a feature map where a linear SVM's plane separates them; the plane induces a circle (or an ellipse) back in the plane",
		Source:  "Shewchuk, Concise Machine Learning, lecture 4 (features: the parabolic lifting map) and lecture 16 (kernels: the degree-2 polynomial map)",
		Knobs: []engine.Param{
			{Name: "points", Kind: engine.Int, Default: 60, Min: 3, Max: 300, Help: "points per class"},
			{Name: "inner", Kind: engine.Float, Default: 1.0, Min: 0.05, Max: 10, Help: "the inner circle's radius"},
			{Name: "outer", Kind: engine.Float, Default: 2.0, Min: 0.05, Max: 10, Help: "the outer circle's radius"},
			{Name: "noise", Kind: engine.Float, Default: 0.1, Min: 0, Max: 5, Help: "the sd of Gaussian noise added to each coordinate"},
			{Name: "map", Kind: engine.Choice, Default: "parabolic", Choices: []string{"parabolic", "quadratic"},
				Help:   "the feature map Φ into 3-D",
				Detail: "parabolic: (x1, x2, x1² + x2²), the lifting onto a paraboloid; quadratic: (x1², √2·x1·x2, x2²), the degree-2 monomials, whose inner product is the kernel (xᵀz)²"},
			{Name: "c", Kind: engine.Float, Default: 10.0, Min: 1e-3, Max: 100, Log: true, Simpler: engine.SimplerLower, Help: "the SVM's C: how much a point inside the margin costs"},
			{Name: "view", Kind: engine.Choice, Default: "rotate", Choices: []string{"rotate", "projections"},
				Help: "the lifted points turning about the vertical axis, or the three 2-D projections"},
			SeedKnob(),
		},
		Run:    runKernel,
		Decode: DecodeAs[KernelResult],
	})
}

// KernelLift is Φ(x) under map name.
func KernelLift(name string, x [2]float64) [3]float64 {
	if name == "quadratic" {
		return [3]float64{x[0] * x[0], math.Sqrt2 * x[0] * x[1], x[1] * x[1]}
	}
	return [3]float64{x[0], x[1], x[0]*x[0] + x[1]*x[1]}
}

// Decision is W·z + B at z = Φ(x): positive on the inner class's side.
func (p KernelPlane) Decision(z [3]float64) float64 {
	return p.W[0]*z[0] + p.W[1]*z[1] + p.W[2]*z[2] + p.B
}

// KernelSVM fits the soft-margin linear SVM min ½‖w‖² + C Σ ξ_i on z
// (labels ±1) by SMO on its dual, the pair chosen as the maximal violating
// one for its first index and by the second-order rule for its second (as LIBSVM: Fan, Chen and Lin 2005), until the violation is below tol or
// maxIter pairs are taken; the bias is unpenalised, as in LIBSVM. stop is
// asked every thousand steps.
func KernelSVM(z [][3]float64, y []int, C, tol float64, maxIter int, stop func() bool) KernelPlane {
	n := len(z)
	alpha := make([]float64, n)
	var w [3]float64
	p := KernelPlane{C: C}
	dot := func(a [3]float64) float64 { return w[0]*a[0] + w[1]*a[1] + w[2]*a[2] }
	up := func(t int) bool { return y[t] > 0 && alpha[t] < C || y[t] < 0 && alpha[t] > 0 }
	low := func(t int) bool { return y[t] < 0 && alpha[t] < C || y[t] > 0 && alpha[t] > 0 }
	var hiF, loF float64
	f := make([]float64, n)
	for p.Iterations = 0; ; p.Iterations++ {
		// F_t = y_t − w·z_t, whose spread over the working sets is the
		// violation of the optimality conditions
		i, j := -1, -1
		for t := range n {
			f[t] = float64(y[t]) - dot(z[t])
			if up(t) && (i < 0 || f[t] > hiF) {
				i, hiF = t, f[t]
			}
			if low(t) && (j < 0 || f[t] < loF) {
				j, loF = t, f[t]
			}
		}
		// j by the second-order rule: the largest decrease of the dual
		// along the pair's direction, (F_i − F_t)²/‖z_i − z_t‖²
		if i >= 0 && j >= 0 && hiF-loF >= tol {
			gain := -1.0
			for t := range n {
				if !low(t) || f[t] >= hiF {
					continue
				}
				d0, d1, d2 := z[i][0]-z[t][0], z[i][1]-z[t][1], z[i][2]-z[t][2]
				g := (hiF - f[t]) * (hiF - f[t]) / math.Max(d0*d0+d1*d1+d2*d2, 1e-12)
				if g > gain {
					gain, j = g, t
				}
			}
		}
		if i < 0 || j < 0 {
			p.Converged = true
			break
		}
		p.Gap = hiF - loF
		if p.Gap < tol {
			p.Converged = true
			break
		}
		if p.Iterations >= maxIter || p.Iterations%1000 == 999 && stop != nil && stop() {
			break
		}
		d := [3]float64{z[i][0] - z[j][0], z[i][1] - z[j][1], z[i][2] - z[j][2]}
		quad := math.Max(d[0]*d[0]+d[1]*d[1]+d[2]*d[2], 1e-12)
		// α_i += y_i·t, α_j −= y_j·t keeps Σ y α; the step is the
		// unconstrained minimum clipped to the box
		t := (hiF - f[j]) / quad
		if y[i] > 0 {
			t = math.Min(t, C-alpha[i])
		} else {
			t = math.Min(t, alpha[i])
		}
		if y[j] > 0 {
			t = math.Min(t, alpha[j])
		} else {
			t = math.Min(t, C-alpha[j])
		}
		alpha[i] += float64(y[i]) * t
		alpha[j] -= float64(y[j]) * t
		for _, k := range []int{i, j} { // clip rounding at the box's faces
			if alpha[k] < 1e-15*C {
				alpha[k] = 0
			} else if alpha[k] > C*(1-1e-15) {
				alpha[k] = C
			}
		}
		for k := range 3 {
			w[k] += t * d[k]
		}
	}
	// the bias: the mean of F over the free support vectors, on which it
	// is exact, else the middle of the interval the conditions leave
	var sum float64
	var free int
	for t := range n {
		if alpha[t] > 0 {
			p.Support++
			if alpha[t] < C {
				sum += float64(y[t]) - dot(z[t])
				free++
			}
		}
	}
	if free > 0 {
		p.B = sum / float64(free)
	} else {
		p.B = (hiF + loF) / 2
	}
	p.W = w
	if nw := math.Sqrt(w[0]*w[0] + w[1]*w[1] + w[2]*w[2]); nw > 0 {
		p.Margin = 1 / nw
	}
	return p
}

// KernelBestLine is the line that misclassifies fewest of x (labels ±1),
// exactly: an optimal line can be moved until it passes through two
// points, and nudged back it puts those two on either side at will, so
// the best over the lines through pairs (both ways round) is the best of
// all, or the constant guess when that is better. A point exactly on a
// pair's line (other than the pair) counts on its positive side. stop is
// asked between pairs' rows.
func KernelBestLine(x [][2]float64, y []int, stop func() bool) (KernelLine, bool) {
	n := len(x)
	pos := 0
	for _, v := range y {
		if v > 0 {
			pos++
		}
	}
	// the constant guess: a line off to the side of every point
	best := KernelLine{Normal: [2]float64{1, 0}, Offset: math.Inf(-1), Errors: n - pos}
	if pos < n-pos {
		best.Offset, best.Errors = math.Inf(1), pos
	}
	for i := range n {
		if stop != nil && stop() {
			return best, false
		}
		for j := i + 1; j < n; j++ {
			d := [2]float64{x[j][0] - x[i][0], x[j][1] - x[i][1]}
			if d[0] == 0 && d[1] == 0 {
				continue
			}
			// normal (−d_y, d_x): positive on the left of i→j
			var leftNeg, rightPos, leftPos, rightNeg int
			for k := range n {
				if k == i || k == j {
					continue
				}
				cross := d[0]*(x[k][1]-x[i][1]) - d[1]*(x[k][0]-x[i][0])
				switch {
				case cross >= 0 && y[k] > 0:
					leftPos++
				case cross >= 0:
					leftNeg++
				case y[k] > 0:
					rightPos++
				default:
					rightNeg++
				}
			}
			nrm := [2]float64{-d[1], d[0]}
			off := nrm[0]*x[i][0] + nrm[1]*x[i][1]
			if e := leftNeg + rightPos; e < best.Errors { // inner on the left
				best = KernelLine{Normal: nrm, Offset: off, Errors: e}
			}
			if e := leftPos + rightNeg; e < best.Errors { // inner on the right
				best = KernelLine{Normal: [2]float64{-nrm[0], -nrm[1]}, Offset: -off, Errors: e}
			}
		}
	}
	if l := math.Hypot(best.Normal[0], best.Normal[1]); l > 0 && !math.IsInf(best.Offset, 0) {
		best.Normal[0], best.Normal[1], best.Offset = best.Normal[0]/l, best.Normal[1]/l, best.Offset/l
	}
	return best, true
}

// KernelInduced is the curve plane p induces in the plane under map name.
func KernelInduced(name string, p KernelPlane) KernelBoundary {
	w, b := p.W, p.B
	scale := math.Max(math.Max(math.Abs(w[0]), math.Abs(w[1])), math.Max(math.Abs(w[2]), math.Abs(b)))
	if scale == 0 {
		return KernelBoundary{Kind: "empty"}
	}
	if name != "quadratic" {
		// w3‖x‖² + w1x1 + w2x2 + b = 0: a circle about −(w1, w2)/(2w3)
		if math.Abs(w[2]) <= 1e-12*scale {
			if math.Hypot(w[0], w[1]) <= 1e-12*scale {
				return KernelBoundary{Kind: "empty"}
			}
			return KernelBoundary{Kind: "line"}
		}
		c := [2]float64{-w[0] / (2 * w[2]), -w[1] / (2 * w[2])}
		r2 := c[0]*c[0] + c[1]*c[1] - b/w[2]
		if r2 <= 0 {
			return KernelBoundary{Kind: "empty", Centre: c}
		}
		return KernelBoundary{Kind: "circle", Centre: c, Radius: math.Sqrt(r2)}
	}
	// xᵀAx + b = 0 with A = [[w1, w2/√2], [w2/√2, w3]]
	a, off, d := w[0], w[1]/math.Sqrt2, w[2]
	mid, rad := (a+d)/2, math.Hypot((a-d)/2, off)
	l1, l2 := mid+rad, mid-rad
	angle := 0.5 * math.Atan2(2*off, a-d) // of l1's eigenvector
	tiny := 1e-12 * scale
	switch {
	case math.Abs(l1) <= tiny && math.Abs(l2) <= tiny:
		return KernelBoundary{Kind: "empty"}
	case math.Abs(l1) <= tiny || math.Abs(l2) <= tiny || l1*l2 < 0:
		if math.Abs(l1) <= tiny || math.Abs(l2) <= tiny {
			return KernelBoundary{Kind: "lines"} // a pair of parallel lines (or none)
		}
		return KernelBoundary{Kind: "hyperbola", Angle: angle}
	case -b/l1 <= 0:
		return KernelBoundary{Kind: "empty"}
	}
	return KernelBoundary{Kind: "ellipse", Axes: [2]float64{math.Sqrt(-b / l1), math.Sqrt(-b / l2)}, Angle: angle}
}

// kernelCircles draws n points round each circle, at uniform angles, with
// Gaussian noise on each coordinate: the inner class +1, the outer −1.
func kernelCircles(n int, rin, rout, noise float64, seed uint64) ([][2]float64, []int) {
	r := rand.New(rand.NewPCG(seed, 0x6b65726e656c))
	var x [][2]float64
	var y []int
	for _, c := range []struct {
		r float64
		y int
	}{{rin, 1}, {rout, -1}} {
		for range n {
			a := 2 * math.Pi * r.Float64()
			x = append(x, [2]float64{c.r*math.Cos(a) + noise*r.NormFloat64(), c.r*math.Sin(a) + noise*r.NormFloat64()})
			y = append(y, c.y)
		}
	}
	return x, y
}

func runKernel(ctx context.Context, in In, show func(Frame)) (any, error) {
	v := in.Values
	res := KernelResult{Map: v.String("map"), View: v.String("view"), Inner: v.Float("inner"), Outer: v.Float("outer"), Noise: v.Float("noise")}
	n := v.Int("points")
	res.X, res.Y = kernelCircles(n, res.Inner, res.Outer, res.Noise, uint64(v.Int("seed")))
	for _, x := range res.X {
		res.Z = append(res.Z, KernelLift(res.Map, x))
	}
	res.Majority = 0.5
	first := res
	show(Frame{Result: &first, Done: 0, Total: 2})
	stop := func() bool { return ctx.Err() != nil }
	res.Plane = KernelSVM(res.Z, res.Y, v.Float("c"), kernelTol, 400*len(res.Z), stop)
	if err := ctx.Err(); err != nil {
		return &first, err
	}
	res.Fitted = true
	right := 0
	for i, z := range res.Z {
		if (res.Plane.Decision(z) > 0) == (res.Y[i] > 0) {
			right++
		}
	}
	res.LiftedAccuracy = float64(right) / float64(len(res.Z))
	res.Boundary = KernelInduced(res.Map, res.Plane)
	second := res
	show(Frame{Result: &second, Done: 1, Total: 2})
	line, ok := KernelBestLine(res.X, res.Y, stop)
	if !ok {
		return &second, ctx.Err()
	}
	res.Line, res.Searched = line, true
	res.LineAccuracy = 1 - float64(line.Errors)/float64(len(res.X))
	if math.IsInf(res.Line.Offset, 0) { // the constant guess won: no line to store as ±Inf
		res.Line.Offset = 0
		res.Line.Normal = [2]float64{}
	}
	return &res, nil
}

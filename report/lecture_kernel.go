package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// Experiment kernel's picture: the lifted points in 3-D, turning about
// the vertical axis frame by frame (or as the three 2-D projections),
// with the SVM's plane as a grid of dots, beside the data in the plane
// with the curve the plane induces there and the best line. The 3-D view
// scales each lifted axis to the data's range: an affine map, so the
// plane stays a plane and what it separates stays separated.

const (
	knIn    = '●'
	knOut   = '○'
	knPlane = '·'
	knLine  = '▪'
	knAxis  = '.'
	knTilt  = 0.45        // radians the 3-D view looks down
	knStart = math.Pi / 6 // the turn of the last frame, where z1 and z2 both show
)

var knInks = map[rune]int{knIn: 0, knOut: 1, knPlane: 2, knLine: 3}

func init() {
	RegisterLecture("kernel", LectureDrawing{Draw: knDraw, Tables: knTables, Frames: knFrames})
}

func knResult(result any) *lecture.KernelResult { return resultAs[lecture.KernelResult](result) }

func knFrames(result any) int {
	if r := knResult(result); r != nil && r.View == "rotate" && len(r.Z) > 0 {
		return lecture.KernelFrames
	}
	return 0
}

// knAngle is frame f's turn about the vertical axis: a full turn over the
// frames, the last (the picture a report shows) back at knStart.
func knAngle(f int) float64 {
	f = ((f % lecture.KernelFrames) + lecture.KernelFrames) % lecture.KernelFrames
	return math.Mod(knStart+2*math.Pi*float64(f+1)/lecture.KernelFrames, 2*math.Pi)
}

func knMapText(m string) string {
	if m == "quadratic" {
		return "Φ(x) = (x1², √2·x1x2, x2²)"
	}
	return "Φ(x) = (x1, x2, x1²+x2²)"
}

func knPct(x float64) string { return numfmt.Sig(100*x, 3) + "%" }

func knDraw(result any, v LectureView) Picture {
	r := knResult(result)
	if r == nil || len(r.Z) == 0 {
		return Picture{Lines: []string{"(nothing to draw yet)"}}
	}
	w, h := max(v.Width, 10), max(v.Height, 2)
	var head []string
	if h >= 12 {
		head = append(head, hfFit(w,
			string(knIn)+" inner circle  "+string(knOut)+" outer circle  "+string(knPlane)+" the SVM's plane in 3-D, its preimage in 2-D  "+string(knLine)+" the best line in 2-D",
			string(knIn)+" inner  "+string(knOut)+" outer  "+string(knPlane)+" SVM plane / its preimage  "+string(knLine)+" best line",
			string(knIn)+" in "+string(knOut)+" out "+string(knPlane)+" plane "+string(knLine)+" line"))
	}
	if h >= 8 {
		long, short := "fitting the plane…", "fitting…"
		if r.Fitted {
			long = "training accuracy: the plane in 3-D " + knPct(r.LiftedAccuracy)
			short = "accuracy: plane (3-D) " + knPct(r.LiftedAccuracy)
			if r.Searched {
				long += ", the best line in 2-D " + knPct(r.LineAccuracy)
				short += ", best line (2-D) " + knPct(r.LineAccuracy)
			}
			long += ", a constant guess " + knPct(r.Majority)
			short += ", constant " + knPct(r.Majority)
			if !r.Plane.Converged {
				long += " (the SVM did not converge)"
				short += " (SVM not converged)"
			}
		}
		head = append(head, hfFit(w, long, short))
	}
	rest := h - len(head)
	var body []string
	switch {
	case r.View == "projections" && w >= 60 && rest >= 18:
		cw := (w - 2) / 2
		top := Beside(knProjection(r, 0, 1, cw, rest/2), knProjection(r, 0, 2, w-cw-2, rest/2), cw, 2)
		bottom := Beside(knProjection(r, 1, 2, cw, rest-rest/2), knPlanePanel(r, w-cw-2, rest-rest/2), cw, 2)
		body = append(top, bottom...)
	case r.View == "projections" && w >= 90:
		cw := (w - 4) / 3
		body = Beside(Beside(knProjection(r, 0, 1, cw, rest), knProjection(r, 0, 2, cw, rest), cw, 2), knProjection(r, 1, 2, w-2*cw-4, rest), 2*cw+2, 2)
	case r.View == "projections":
		body = knProjection(r, 0, 2, w, rest)
	case w >= 70:
		lw := w / 2
		body = Beside(knRotated(r, v.Frame, lw, rest), knPlanePanel(r, w-lw-2, rest), lw, 2)
	default:
		body = knRotated(r, v.Frame, w, rest)
	}
	lines := append(head, body...)
	for i := range lines {
		lines[i] = strings.TrimRight(gdCut(lines[i], w), " ")
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return Picture{Lines: lines, Inks: knInks}
}

// knBox is the lifted points' range on each axis: mid and half-width.
func knBox(r *lecture.KernelResult) (mid, half [3]float64) {
	for k := range 3 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, z := range r.Z {
			lo, hi = math.Min(lo, z[k]), math.Max(hi, z[k])
		}
		mid[k], half[k] = (lo+hi)/2, (hi-lo)/2
		if !(half[k] > 0) {
			half[k] = 1
		}
	}
	return mid, half
}

// knRotated is the lifted points, scaled to [−1, 1]³, turned by frame's
// angle about z3 and tilted, drawn orthographically far points first; the
// plane a grid of dots; the axes dotted from the box's centre.
func knRotated(r *lecture.KernelResult, frame, w, h int) []string {
	theta := knAngle(frame)
	title := hfFit(w, knMapText(r.Map)+", turned "+fmt.Sprint(int(math.Round(theta*180/math.Pi))%360)+"° about z3; axes scaled to the data",
		knMapText(r.Map)+", turned "+fmt.Sprint(int(math.Round(theta*180/math.Pi))%360)+"°", "lifted, 3-D")
	gh := max(1, h-1)
	grid := make([][]rune, gh)
	for i := range grid {
		grid[i] = []rune(strings.Repeat(" ", w))
	}
	// a unit across is two units up: cells are about twice as tall as wide
	reach := math.Cos(knTilt) + math.Sqrt2*math.Sin(knTilt)
	ky := math.Min(float64(gh-1)/2/reach, float64(w-1)/2/math.Sqrt2/2)
	kx := 2 * ky
	cx, cy := float64(w-1)/2, float64(gh-1)/2
	project := func(u [3]float64) (col, row int, depth float64) {
		a := u[0]*math.Cos(theta) - u[1]*math.Sin(theta)
		d := u[0]*math.Sin(theta) + u[1]*math.Cos(theta)
		sy := u[2]*math.Cos(knTilt) + d*math.Sin(knTilt)
		return int(math.Round(cx + a*kx)), int(math.Round(cy - sy*ky)), d
	}
	set := func(col, row int, g rune, over bool) {
		if row >= 0 && row < gh && col >= 0 && col < w && (over || grid[row][col] == ' ') {
			grid[row][col] = g
		}
	}
	for k, name := range []string{"z1", "z2", "z3"} {
		var u [3]float64
		for s := 0; s <= 12; s++ {
			u[k] = float64(s) / 12
			col, row, _ := project(u)
			set(col, row, knAxis, true)
		}
		u[k] = 1.15
		col, row, _ := project(u)
		for i, c := range name {
			set(col+i, row, c, true)
		}
	}
	mid, half := knBox(r)
	if r.Fitted {
		// the plane in scaled coordinates: Σ W_k·half_k·u_k + (W·mid + B) = 0
		var wn [3]float64
		b := r.Plane.B
		for k := range 3 {
			wn[k] = r.Plane.W[k] * half[k]
			b += r.Plane.W[k] * mid[k]
		}
		solve := 0
		for k := range 3 {
			if math.Abs(wn[k]) > math.Abs(wn[solve]) {
				solve = k
			}
		}
		if wn[solve] != 0 {
			a, c := (solve+1)%3, (solve+2)%3
			n := max(5, min(11, w/6)) // sparse: a grid the points show through
			for i := range n {
				for j := range n {
					var u [3]float64
					u[a], u[c] = -1+2*float64(i)/float64(n-1), -1+2*float64(j)/float64(n-1)
					u[solve] = -(b + wn[a]*u[a] + wn[c]*u[c]) / wn[solve]
					if math.Abs(u[solve]) <= 1.05 {
						col, row, _ := project(u)
						set(col, row, knPlane, true)
					}
				}
			}
		}
	}
	type dot struct {
		col, row int
		depth    float64
		g        rune
	}
	dots := make([]dot, len(r.Z))
	for i, z := range r.Z {
		var u [3]float64
		for k := range 3 {
			u[k] = (z[k] - mid[k]) / half[k]
		}
		col, row, d := project(u)
		g := knOut
		if r.Y[i] > 0 {
			g = knIn
		}
		dots[i] = dot{col, row, d, g}
	}
	sort.SliceStable(dots, func(a, b int) bool { return dots[a].depth > dots[b].depth })
	for _, d := range dots {
		set(d.col, d.row, d.g, true)
	}
	out := []string{title}
	for _, row := range grid {
		out = append(out, string(row))
	}
	return out
}

// knSigned marks the cells of c whose corners the function f puts on both
// sides of zero: where its zero set crosses the canvas.
func knSigned(c *Canvas, f func(x, y float64) float64, g rune) {
	dx, dy := (c.X1-c.X0)/float64(max(c.W-1, 1))/2, (c.Y1-c.Y0)/float64(max(c.H-1, 1))/2
	for row := range c.H {
		for col := range c.W {
			x, y := c.At(col, row)
			pos, neg := false, false
			for _, d := range [][2]float64{{-dx, -dy}, {-dx, dy}, {dx, -dy}, {dx, dy}} {
				if f(x+d[0], y+d[1]) > 0 {
					pos = true
				} else {
					neg = true
				}
			}
			if pos && neg {
				c.Set(col, row, g)
			}
		}
	}
}

// knPlanePanel is the data in the plane with the plane's preimage and the
// best line, x1 and x2 on one scale.
func knPlanePanel(r *lecture.KernelResult, w, h int) []string {
	what := "the data in 2-D"
	if r.Fitted {
		switch b := r.Boundary; b.Kind {
		case "circle":
			what += "; · circle r = " + numfmt.Sig(b.Radius, 3)
		case "ellipse":
			what += "; · ellipse " + numfmt.Sig(b.Axes[0], 3) + " × " + numfmt.Sig(b.Axes[1], 3)
		default:
			what += "; · a " + b.Kind
		}
	}
	title := hfFit(w, what, "the data in 2-D", "2-D")
	labelled := h-1 >= 9
	reach := 0.0
	for _, x := range r.X {
		reach = math.Max(reach, math.Max(math.Abs(x[0]), math.Abs(x[1])))
	}
	reach = math.Max(reach*1.08, 1e-9)
	cw, ch := CanvasSize(w, h-1, 6, labelled)
	ax, ay := math.Max(1, float64(cw)/float64(2*ch)), math.Max(1, float64(2*ch)/float64(cw))
	c := gdCanvas(w, h-1, -reach*ax, reach*ax, -reach*ay, reach*ay, false, labelled)
	if r.Fitted {
		knSigned(c, func(x, y float64) float64 { return r.Plane.Decision(lecture.KernelLift(r.Map, [2]float64{x, y})) }, knPlane)
	}
	if r.Searched && (r.Line.Normal[0] != 0 || r.Line.Normal[1] != 0) {
		n, o := r.Line.Normal, r.Line.Offset
		p := [2]float64{n[0] * o, n[1] * o}
		far := 10 * reach * math.Max(ax, ay)
		gdSegment(c, [2]float64{p[0] - far*n[1], p[1] + far*n[0]}, [2]float64{p[0] + far*n[1], p[1] - far*n[0]}, knLine)
	}
	for i, x := range r.X {
		g := knOut
		if r.Y[i] > 0 {
			g = knIn
		}
		c.Point(x[0], x[1], g)
	}
	label := ""
	if labelled {
		label = "x1 across, x2 up"
	}
	return append([]string{title}, c.Lines(label)...)
}

// knProjection is the lifted points on axes a (across) and b (up), with
// the plane's trace where the third coordinate is at its mean.
func knProjection(r *lecture.KernelResult, a, b, w, h int) []string {
	third := 3 - a - b
	mean := 0.0
	for _, z := range r.Z {
		mean += z[third]
	}
	mean /= float64(len(r.Z))
	names := []string{"z1", "z2", "z3"}
	title := hfFit(w, names[a]+" across, "+names[b]+" up; · the plane at "+names[third]+" = "+numfmt.Sig(mean, 3)+" (its mean)",
		names[a]+"–"+names[b]+"; · plane at "+names[third]+" = "+numfmt.Sig(mean, 3), names[a]+"–"+names[b])
	mid, half := knBox(r)
	pad := func(k int) (float64, float64) { return mid[k] - 1.08*half[k], mid[k] + 1.08*half[k] }
	x0, x1 := pad(a)
	y0, y1 := pad(b)
	c := gdCanvas(w, h-1, x0, x1, y0, y1, false, false)
	if r.Fitted {
		knSigned(c, func(x, y float64) float64 {
			var z [3]float64
			z[a], z[b], z[third] = x, y, mean
			return r.Plane.Decision(z)
		}, knPlane)
	}
	for i, z := range r.Z {
		g := knOut
		if r.Y[i] > 0 {
			g = knIn
		}
		c.Point(z[a], z[b], g)
	}
	return append([]string{title}, c.Lines("")...)
}

// knEquation writes the plane as w1·z1 + w2·z2 + w3·z3 + b = 0.
func knEquation(p lecture.KernelPlane) string {
	s := ""
	for k, w := range p.W {
		term := numfmt.Sig(math.Abs(w), 4) + "·z" + fmt.Sprint(k+1)
		switch {
		case k == 0 && w < 0:
			s = "−" + term
		case k == 0:
			s = term
		case w < 0:
			s += " − " + term
		default:
			s += " + " + term
		}
	}
	if p.B < 0 {
		return s + " − " + numfmt.Sig(-p.B, 4) + " = 0"
	}
	return s + " + " + numfmt.Sig(p.B, 4) + " = 0"
}

func knTables(result any) []Table {
	r := knResult(result)
	if r == nil {
		return nil
	}
	acc := Table{Columns: []string{"space", "classifier", "training accuracy"}}
	if r.Searched {
		acc.Rows = append(acc.Rows, []string{"x in 2-D", "the best line (exact, over all lines)", knPct(r.LineAccuracy)})
	}
	if r.Fitted {
		acc.Rows = append(acc.Rows, []string{"Φ(x) in 3-D", "linear SVM, C = " + numfmt.Sig(r.Plane.C, 3), knPct(r.LiftedAccuracy)})
	}
	acc.Rows = append(acc.Rows, []string{"—", "a constant guess", knPct(r.Majority)})
	if !r.Fitted {
		return []Table{acc}
	}
	conv := "yes"
	if !r.Plane.Converged {
		conv = "no (KKT gap " + numfmt.Sig(r.Plane.Gap, 3) + ")"
	}
	plane := Table{Columns: []string{"map", "the plane W·Φ(x) + B = 0", "margin 1/‖W‖", "support vectors", "SMO steps", "converged"}, Rows: [][]string{{
		knMapText(r.Map), knEquation(r.Plane), numfmt.Sig(r.Plane.Margin, 4), fmt.Sprint(r.Plane.Support), fmt.Sprint(r.Plane.Iterations), conv,
	}}}
	b := r.Boundary
	induced := Table{Columns: []string{"induced boundary in 2-D", "centre", "radius or semi-axes", "inner radius", "outer radius"}}
	size := "—"
	switch b.Kind {
	case "circle":
		size = numfmt.Sig(b.Radius, 4)
	case "ellipse":
		size = numfmt.Sig(b.Axes[0], 4) + " × " + numfmt.Sig(b.Axes[1], 4) + " at " + numfmt.Sig(b.Angle*180/math.Pi, 3) + "°"
	}
	induced.Rows = [][]string{{b.Kind, "(" + numfmt.Sig(b.Centre[0], 3) + ", " + numfmt.Sig(b.Centre[1], 3) + ")", size, numfmt.Sig(r.Inner, 3), numfmt.Sig(r.Outer, 3)}}
	return []Table{acc, plane, induced}
}

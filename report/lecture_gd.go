package report

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// Experiment gd's picture: the surface's contours with each path drawn
// over them step by step, beside the cost per step on a log scale.

func init() {
	RegisterLecture("gd", LectureDrawing{Draw: gdDraw, Tables: gdTables, Frames: gdFrames})
}

// gdGlyphs are the paths' glyphs, one per trajectory (the engine allows
// at most this many).
var gdGlyphs = []rune{'*', 'o', '+', 'x', '#', '@', '%', '&', '=', '~', '$', '^'}

const (
	gdContour = '·' // a contour line
	gdMin     = '◆' // the minimum
	gdStart   = '●' // the start
	// gdLevels is how many contour levels, each half the one outside it,
	// are drawn inside the start's (ellipses of a bowl √2 apart).
	gdLevels = 5
)

func gdResult(result any) *lecture.GDResult { return resultAs[lecture.GDResult](result) }

func gdFrames(result any) int {
	if r := gdResult(result); r != nil {
		return r.Steps + 1
	}
	return 0
}

// gdFrame is the last step drawn: the view's frame, or every step when
// the frame is out of range.
func gdFrame(r *lecture.GDResult, v LectureView) int {
	if v.Frame < 0 || v.Frame > r.Steps {
		return r.Steps
	}
	return v.Frame
}

func gdDraw(result any, v LectureView) Picture {
	r := gdResult(result)
	if r == nil {
		return Picture{Lines: []string{"(nothing to draw yet)"}}
	}
	w, h := max(v.Width, 8), max(v.Height, 3)
	frame := gdFrame(r, v)
	pic := Picture{Inks: map[rune]int{}}
	for i := range r.Trajectories {
		pic.Inks[gdGlyphs[i%len(gdGlyphs)]] = i
	}

	legend := gdLegend(r, w)
	if h < 12 {
		legend = nil // a small view keeps the picture
	}
	body := h - len(legend)
	var lines []string
	switch {
	case w >= 70 && body >= 8:
		lw := w * 57 / 100
		left := gdContourPanel(r, frame, lw, body)
		right := gdCostPanel(r, frame, w-lw-2, len(left))
		lines = Beside(left, right, lw, 2)
	case body >= 24:
		top := body * 3 / 5
		lines = append(gdContourPanel(r, frame, w, top), gdCostPanel(r, frame, w, body-top)...)
	default:
		lines = gdContourPanel(r, frame, w, body)
	}
	lines = append(lines, legend...)
	for i := range lines {
		lines[i] = strings.TrimRight(gdCut(lines[i], w), " ")
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	pic.Lines = lines
	return pic
}

func gdCut(s string, w int) string {
	if utf8.RuneCountInString(s) <= w {
		return s
	}
	return string([]rune(s)[:w])
}

// gdContourPanel is the title, the contours, the paths up to step frame,
// the minimum and the start, in w × h cells.
func gdContourPanel(r *lecture.GDResult, frame, w, h int) []string {
	title := gdShortName(r) + ": contours and paths; w1 across, w2 up"
	labelled := h >= 9
	win := r.Window
	c := gdCanvas(w, h-1, win[0][0], win[0][1], win[1][0], win[1][1], false, labelled)
	if c.W%2 == 0 && c.W > 4 { // an odd count of cells has one in the middle: the minimum's
		c = NewCanvas(c.W-1, c.H, c.X0, c.X1, c.Y0, c.Y1)
	}
	if c.H%2 == 0 && c.H > 2 {
		c = NewCanvas(c.W, c.H-1, c.X0, c.X1, c.Y0, c.Y1)
	}
	gdContours(c, r)
	for i, tr := range r.Trajectories {
		g := gdGlyphs[i%len(gdGlyphs)]
		last := min(frame, len(tr.Points)-1)
		if last == 0 {
			c.Point(tr.Points[0][0], tr.Points[0][1], g)
		}
		for t := 1; t <= last; t++ {
			if gdInside(c, tr.Points[t-1]) || gdInside(c, tr.Points[t]) {
				gdSegment(c, tr.Points[t-1], tr.Points[t], g)
			}
		}
	}
	// Each path's iterates over every path's segments, so that paths
	// sharing a way still show their own steps.
	for i, tr := range r.Trajectories {
		for t := 1; t <= min(frame, len(tr.Points)-1); t++ {
			c.Point(tr.Points[t][0], tr.Points[t][1], gdGlyphs[i%len(gdGlyphs)])
		}
	}
	c.Point(r.Minimum[0], r.Minimum[1], gdMin)
	c.Point(r.Start[0], r.Start[1], gdStart)
	label := ""
	if labelled {
		label = "w1"
	}
	return append([]string{title}, c.Lines(label)...)
}

// gdContours draws the contour lines f − f* = L·2^k, k = 0, −1, …, −7 and
// above, L the start's gap f(w0) − f*: the start lies on one, and the
// ellipses of a bowl shrink by √2 a level. A cell is on a line when its
// level differs from its right or lower neighbour's.
func gdContours(c *Canvas, r *lecture.GDResult) {
	ref := r.Cost(r.Start[0], r.Start[1]) - r.MinCost
	if !(ref > 0) {
		x, y := c.At(0, 0)
		ref = (r.Cost(x, y) - r.MinCost) / 4
	}
	if !(ref > 0) || math.IsInf(ref, 0) {
		return
	}
	level := make([][]int, c.H)
	for row := range c.H {
		level[row] = make([]int, c.W)
		for col := range c.W {
			x, y := c.At(col, row)
			gap := (r.Cost(x, y) - r.MinCost) / ref
			k := -gdLevels
			if gap > 0 && !math.IsNaN(gap) {
				k = max(k, int(math.Floor(math.Log2(gap))))
			}
			level[row][col] = min(k, 60)
		}
	}
	for row := range c.H {
		for col := range c.W {
			k := level[row][col]
			if (col+1 < c.W && level[row][col+1] != k) || (row+1 < c.H && level[row+1][col] != k) {
				c.Set(col, row, gdContour)
			}
		}
	}
}

// gdCanvas is the canvas whose drawing, y labels and all, fills w × h
// cells: the labels' width depends on the rows, so it is found in turn.
func gdCanvas(w, h int, x0, x1, y0, y1 float64, logY, labelled bool) *Canvas {
	lw := 1
	var c *Canvas
	for range 3 {
		cw, ch := CanvasSize(w, h, lw, labelled)
		c = NewCanvas(cw, ch, x0, x1, y0, y1)
		c.LogY = logY
		if c.labelWidth() == lw {
			break
		}
		lw = c.labelWidth()
	}
	return c
}

// gdInside says whether p lies in the canvas's window. A step from
// outside to outside is not drawn: a diverging zig-zag would cover the
// picture with segments crossing it (the legend says where it left).
func gdInside(c *Canvas, p [2]float64) bool {
	return p[0] >= c.X0 && p[0] <= c.X1 && p[1] >= c.Y0 && p[1] <= c.Y1
}

// gdSegment draws the segment a–b clipped to the canvas's window (Liang
// and Barsky), so that a path that leaves the window runs to its edge.
func gdSegment(c *Canvas, a, b [2]float64, g rune) {
	t0, t1 := 0.0, 1.0
	d := [2]float64{b[0] - a[0], b[1] - a[1]}
	lo := [2]float64{c.X0, c.Y0}
	hi := [2]float64{c.X1, c.Y1}
	for i := range 2 {
		for _, pq := range [][2]float64{{-d[i], a[i] - lo[i]}, {d[i], hi[i] - a[i]}} {
			p, q := pq[0], pq[1]
			if p == 0 {
				if q < 0 {
					return
				}
				continue
			}
			t := q / p
			if p < 0 {
				t0 = math.Max(t0, t)
			} else {
				t1 = math.Min(t1, t)
			}
		}
	}
	if t0 > t1 {
		return
	}
	c.Line(a[0]+t0*d[0], a[1]+t0*d[1], a[0]+t1*d[0], a[1]+t1*d[1], g)
}

// gdCostPanel is the cost per step of every path up to step frame, on a
// log axis: f − f* (f itself on a bowl, whose minimum is 0), a rising
// path clipped at the top.
func gdCostPanel(r *lecture.GDResult, frame, w, h int) []string {
	hi, lo, zero := gdCostRange(r)
	title := "cost f(w_t) by step t, log scale"
	if r.MinCost != 0 {
		title = "f(w_t) − f* by step t (log), f* = " + numfmt.Sig(r.MinCost, 4)
	}
	if zero {
		title += "; 0 at the bottom"
	}
	labelled := h >= 9
	c := gdCanvas(w, h-1, 0, math.Max(1, float64(r.Steps)), lo, hi, true, labelled)
	for i, tr := range r.Trajectories {
		g := gdGlyphs[i%len(gdGlyphs)]
		last := min(frame, len(tr.Cost)-1)
		xs := make([]float64, last+1)
		ys := make([]float64, last+1)
		for t := 0; t <= last; t++ {
			xs[t], ys[t] = float64(t), math.Max(tr.Cost[t]-r.MinCost, lo)
		}
		c.Curve(xs, ys, g)
	}
	label := ""
	if labelled {
		label = "step t"
	}
	return append([]string{title}, c.Lines(label)...)
}

// gdCostRange is the cost axis: from the smallest gap any path reaches
// (at least 1e-15 of the top; below 1e-12 of it when a path reaches the
// minimum exactly, zero says so) to the largest a path that does not rise
// reaches (at least the start's).
func gdCostRange(r *lecture.GDResult) (hi, lo float64, zero bool) {
	hi = r.Cost(r.Start[0], r.Start[1]) - r.MinCost
	lo = math.Inf(1)
	for _, tr := range r.Trajectories {
		for _, c := range tr.Cost {
			gap := c - r.MinCost
			if !tr.Rising && !tr.Diverged {
				hi = math.Max(hi, gap)
			}
			if gap > 0 {
				lo = math.Min(lo, gap)
			} else {
				zero = true
			}
		}
	}
	if !(hi > 0) || math.IsInf(hi, 0) {
		hi = 1
	}
	hi *= 1.5
	if zero {
		lo = math.Min(lo, hi*1e-12)
	}
	lo = math.Max(lo, hi*1e-15)
	if lo > hi/100 {
		lo = hi / 100
	}
	return hi, lo, zero
}

// gdLegend names each glyph: the path's method and ε, GD's factors per
// axis on a bowl, and where it left the picture or the bound.
func gdLegend(r *lecture.GDResult, w int) []string {
	var items []string
	for i, tr := range r.Trajectories {
		s := string(gdGlyphs[i%len(gdGlyphs)]) + " " + gdName(tr)
		if tr.Factors != nil {
			s += ": w1 ×" + numfmt.Sig(tr.Factors[0], 2) + ", w2 ×" + numfmt.Sig(tr.Factors[1], 2)
		}
		switch {
		case tr.Diverged:
			s += ", diverged at step " + gdItoa(tr.DivergedAt)
		case gdOffFrame(r, tr) > 0:
			s += ", off the frame at step " + gdItoa(gdOffFrame(r, tr))
		}
		items = append(items, s)
	}
	items = append(items, string(gdContour)+" contours, f − f* halving inward", string(gdMin)+" minimum ("+numfmt.Sig(r.Minimum[0], 3)+", "+numfmt.Sig(r.Minimum[1], 3)+")",
		string(gdStart)+" start ("+numfmt.Sig(r.Start[0], 3)+", "+numfmt.Sig(r.Start[1], 3)+")")
	var lines []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case utf8.RuneCountInString(line)+3+utf8.RuneCountInString(it) <= w:
			line += "   " + it
		default:
			lines = append(lines, line)
			line = it
		}
	}
	return append(lines, line)
}

// gdShortName names the surface in a title: a bowl by its formula.
func gdShortName(r *lecture.GDResult) string {
	switch r.Surface {
	case "logistic":
		return "mean logistic loss"
	case "leastsquares":
		return "least squares (w1 intercept, w2 slope)"
	}
	return r.Formula
}

func gdName(tr lecture.GDTrajectory) string {
	if tr.Method == "newton" {
		return "newton (full step)"
	}
	return tr.Method + " ε=" + numfmt.Param(tr.LR)
}

// gdOffFrame is the first step whose iterate lies outside the contour
// window (0: none).
func gdOffFrame(r *lecture.GDResult, tr lecture.GDTrajectory) int {
	for t, p := range tr.Points {
		if p[0] < r.Window[0][0] || p[0] > r.Window[0][1] || p[1] < r.Window[1][0] || p[1] > r.Window[1][1] {
			return t
		}
	}
	return 0
}

func gdItoa(n int) string { return numfmt.Value(float64(n)) }

func gdTables(result any) []Table {
	r := gdResult(result)
	if r == nil {
		return nil
	}
	t := Table{Columns: []string{"glyph", "method", "ε", "final cost", "final w1", "final w2", "steps to f − f* < " + numfmt.Sig(r.Tol, 2)}}
	for i, tr := range r.Trajectories {
		lr := numfmt.Param(tr.LR)
		if tr.Method == "newton" {
			lr = "1 (full step)"
		}
		n := len(tr.Points) - 1
		t.Rows = append(t.Rows, []string{string(gdGlyphs[i%len(gdGlyphs)]), tr.Method, lr, numfmt.Sig(tr.Cost[n], 4),
			numfmt.Sig(tr.Points[n][0], 4), numfmt.Sig(tr.Points[n][1], 4), tr.StepsText()})
	}
	s := Table{Columns: []string{"surface", "minimum w*", "f(w*)", "start", "f(start)"}, Rows: [][]string{{
		r.Formula,
		"(" + numfmt.Sig(r.Minimum[0], 4) + ", " + numfmt.Sig(r.Minimum[1], 4) + ")", numfmt.Sig(r.MinCost, 4),
		"(" + numfmt.Sig(r.Start[0], 4) + ", " + numfmt.Sig(r.Start[1], 4) + ")", numfmt.Sig(r.Cost(r.Start[0], r.Start[1]), 4),
	}}}
	return []Table{s, t}
}

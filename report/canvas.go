package report

import (
	"math"
	"strings"

	"github.com/tealab/tealab/numfmt"
)

// Canvas is a plot area of text cells over a rectangle of the plane,
// framed by axes with their ticks: what the lectures' pictures are drawn
// on. Points and lines are glyphs; a later glyph covers an earlier one,
// so draw the background (contours, faint curves) first.
type Canvas struct {
	W, H       int // plot cells, inside the axes
	X0, X1     float64
	Y0, Y1     float64
	LogX, LogY bool
	cells      [][]rune
}

// NewCanvas is a blank canvas of w×h cells (the whole drawing, axes
// included, is Width() × Height()) over [x0, x1] × [y0, y1]; a log axis
// needs positive bounds.
func NewCanvas(w, h int, x0, x1, y0, y1 float64) *Canvas {
	w, h = max(w, 4), max(h, 2)
	c := &Canvas{W: w, H: h, X0: x0, X1: x1, Y0: y0, Y1: y1}
	if !(x1 > x0) {
		c.X0, c.X1 = x0-1, x0+1
	}
	if !(y1 > y0) {
		c.Y0, c.Y1 = y0-1, y0+1
	}
	c.cells = make([][]rune, h)
	for i := range c.cells {
		c.cells[i] = []rune(strings.Repeat(" ", w))
	}
	return c
}

func (c *Canvas) unit(v, lo, hi float64, log bool) float64 {
	if log {
		if v <= 0 || lo <= 0 {
			return math.NaN()
		}
		return (math.Log(v) - math.Log(lo)) / (math.Log(hi) - math.Log(lo))
	}
	return (v - lo) / (hi - lo)
}

// Cell is the cell (column, row) of the point (x, y); ok is false outside
// the canvas.
func (c *Canvas) Cell(x, y float64) (col, row int, ok bool) {
	u, v := c.unit(x, c.X0, c.X1, c.LogX), c.unit(y, c.Y0, c.Y1, c.LogY)
	if math.IsNaN(u) || math.IsNaN(v) {
		return 0, 0, false
	}
	col = int(math.Round(u * float64(c.W-1)))
	row = c.H - 1 - int(math.Round(v*float64(c.H-1)))
	return col, row, col >= 0 && col < c.W && row >= 0 && row < c.H
}

// At is the point at the centre of cell (col, row).
func (c *Canvas) At(col, row int) (x, y float64) {
	u := float64(col) / float64(max(c.W-1, 1))
	v := float64(c.H-1-row) / float64(max(c.H-1, 1))
	if c.LogX {
		x = math.Exp(math.Log(c.X0) + u*(math.Log(c.X1)-math.Log(c.X0)))
	} else {
		x = c.X0 + u*(c.X1-c.X0)
	}
	if c.LogY {
		y = math.Exp(math.Log(c.Y0) + v*(math.Log(c.Y1)-math.Log(c.Y0)))
	} else {
		y = c.Y0 + v*(c.Y1-c.Y0)
	}
	return x, y
}

// Set puts glyph g in cell (col, row), if it is on the canvas.
func (c *Canvas) Set(col, row int, g rune) {
	if col >= 0 && col < c.W && row >= 0 && row < c.H {
		c.cells[row][col] = g
	}
}

// Get is the glyph in cell (col, row) (a space off the canvas).
func (c *Canvas) Get(col, row int) rune {
	if col >= 0 && col < c.W && row >= 0 && row < c.H {
		return c.cells[row][col]
	}
	return ' '
}

// Point puts glyph g at (x, y); a point off the canvas is left out.
func (c *Canvas) Point(x, y float64, g rune) {
	if col, row, ok := c.Cell(x, y); ok {
		c.Set(col, row, g)
	}
}

// Line draws glyph g from (x0, y0) to (x1, y1), cell by cell, clipped to
// the canvas.
func (c *Canvas) Line(x0, y0, x1, y1 float64, g rune) {
	u0, v0 := c.unit(x0, c.X0, c.X1, c.LogX)*float64(c.W-1), c.unit(y0, c.Y0, c.Y1, c.LogY)*float64(c.H-1)
	u1, v1 := c.unit(x1, c.X0, c.X1, c.LogX)*float64(c.W-1), c.unit(y1, c.Y0, c.Y1, c.LogY)*float64(c.H-1)
	if math.IsNaN(u0+v0+u1+v1) || math.IsInf(u0+v0+u1+v1, 0) {
		return
	}
	n := int(math.Ceil(math.Max(math.Abs(u1-u0), math.Abs(v1-v0))))
	n = min(n, 4*(c.W+c.H)) // a line far off the canvas is not walked cell by cell
	for i := 0; i <= n; i++ {
		t := 0.0
		if n > 0 {
			t = float64(i) / float64(n)
		}
		col := int(math.Round(u0 + t*(u1-u0)))
		row := c.H - 1 - int(math.Round(v0+t*(v1-v0)))
		c.Set(col, row, g)
	}
}

// Curve draws the polyline through (xs[i], ys[i]) with glyph g, skipping
// NaN points.
func (c *Canvas) Curve(xs, ys []float64, g rune) {
	for i := 1; i < len(xs) && i < len(ys); i++ {
		if math.IsNaN(ys[i-1]) || math.IsNaN(ys[i]) {
			continue
		}
		c.Line(xs[i-1], ys[i-1], xs[i], ys[i], g)
	}
	if len(xs) == 1 && len(ys) == 1 {
		c.Point(xs[0], ys[0], g)
	}
}

// Lines renders the canvas with its axes: a y axis of labelW-wide tick
// labels (top, middle, bottom) on the left, an x axis with its low, middle
// and high ticks below and xLabel under it; the result is Height() lines
// of Width() cells.
func (c *Canvas) Lines(xLabel string) []string {
	lw := c.labelWidth()
	out := make([]string, 0, c.H+3)
	for r := 0; r < c.H; r++ {
		label := ""
		switch r {
		case 0:
			label = tick(c.Y1)
		case c.H - 1:
			label = tick(c.Y0)
		case c.midRow():
			label = tick(c.midY())
		}
		out = append(out, padLeft(label, lw)+" ┤"+string(c.cells[r]))
	}
	out = append(out, strings.Repeat(" ", lw)+" └"+strings.Repeat("─", c.W))
	lo, hi := tick(c.X0), tick(c.X1)
	mx := nice(c.X0, c.X1, c.LogX)
	mid := tick(mx)
	midCol, _, _ := c.Cell(mx, c.Y0)
	axis := []rune(strings.Repeat(" ", c.W+2))
	place := func(s string, at int) {
		rs := []rune(s)
		at = max(0, min(at, len(axis)-len(rs)))
		copy(axis[at:], rs)
	}
	place(lo, 2)
	if c.W >= 3*(len(mid)+len(lo)) {
		place(mid, 2+midCol-len(mid)/2)
	}
	place(hi, c.W+2-len(hi))
	out = append(out, strings.Repeat(" ", lw)+string(axis))
	if xLabel != "" {
		out = append(out, strings.Repeat(" ", lw+2)+centre(xLabel, c.W))
	}
	return out
}

// Width is the drawing's width with its axis labels.
func (c *Canvas) Width() int { return c.labelWidth() + 2 + c.W }

func (c *Canvas) labelWidth() int {
	w := 1
	for _, v := range []float64{c.Y0, c.Y1} {
		w = max(w, len(tick(v)))
	}
	if c.midRow() >= 0 {
		w = max(w, len(tick(c.midY())))
	}
	return w
}

// midY is the value the y axis labels between its ends: a round number
// near the middle (nice); midRow is its row, -1 when the axis is too short
// for a third label.
func (c *Canvas) midY() float64 { return nice(c.Y0, c.Y1, c.LogY) }

func (c *Canvas) midRow() int {
	if c.H < 7 {
		return -1
	}
	_, row, ok := c.Cell(c.X0, c.midY())
	if !ok || row <= 1 || row >= c.H-2 {
		return -1
	}
	return row
}

// nice is a round number near the middle of [lo, hi]: the middle rounded
// to the range's order of magnitude (a power of ten on a log axis), or the
// middle itself when rounding leaves the range.
func nice(lo, hi float64, log bool) float64 {
	if log && lo > 0 && hi > lo {
		m := math.Pow(10, math.Round((math.Log10(lo)+math.Log10(hi))/2))
		if m > lo && m < hi {
			return m
		}
		return math.Sqrt(lo * hi)
	}
	mid := (lo + hi) / 2
	step := math.Pow(10, math.Floor(math.Log10(hi-lo)))
	for _, s := range []float64{step, step / 2, step / 10} {
		if m := math.Round(mid/s) * s; m > lo+(hi-lo)/4 && m < hi-(hi-lo)/4 {
			return m + 0 // no -0
		}
	}
	return mid
}

// CanvasSize is the plot area that fits a drawing of w × h cells whose y
// labels take labelW cells, with an x label line when labelled.
func CanvasSize(w, h, labelW int, labelled bool) (int, int) {
	rows := h - 2
	if labelled {
		rows--
	}
	return max(4, w-labelW-2), max(2, rows)
}

func tick(v float64) string { return numfmt.Sig(v, 3) }

func padLeft(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

func centre(s string, w int) string {
	n := len([]rune(s))
	if n >= w {
		return string([]rune(s)[:w])
	}
	return strings.Repeat(" ", (w-n)/2) + s
}

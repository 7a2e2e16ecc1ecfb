package widgets

import (
	"math"
	"strings"

	"github.com/tealab/tealab/themes"
)

// Arrow is one feature's loadings on the two components drawn, and its
// name.
type Arrow struct {
	X, Y  float64
	Label string
}

// Biplot draws rows' scores on two components as dots, with arrows from
// the origin for features' loadings, labelled. The view is symmetric
// about the origin, so that the arrows start at the centre; the arrows are
// scaled together so that the longest reaches most of the way to the
// farthest row. The picture is drawn when the data or the size change;
// View only paints it.
type Biplot struct {
	st     *themes.Styles
	xs, ys []float64
	arrows []Arrow
	w, h   int
	cv     *canvas
}

// Styles of the biplot's cells, in the order View registers them.
const (
	biplotPoint = iota
	biplotArrow
	biplotLabel
)

// NewBiplot builds an empty biplot.
func NewBiplot(st *themes.Styles) Biplot { return Biplot{st: defaultStyles(st)} }

// SetData replaces the rows' scores (xs, ys) and the arrows.
func (b *Biplot) SetData(xs, ys []float64, arrows []Arrow) {
	b.xs, b.ys, b.arrows = xs, ys, arrows
	b.draw()
}

// SetSize sets the grid's cells.
func (b *Biplot) SetSize(w, h int) {
	b.w, b.h = w, h
	b.draw()
}

func (b *Biplot) draw() {
	w, h := b.w, b.h
	b.cv = newCanvas(w, h)
	for i := range b.cv.style {
		b.cv.style[i] = biplotPoint
	}
	ext := 0.0
	for i := range min(len(b.xs), len(b.ys)) {
		ext = math.Max(ext, math.Max(math.Abs(b.xs[i]), math.Abs(b.ys[i])))
	}
	if ext == 0 || math.IsNaN(ext) || math.IsInf(ext, 0) {
		ext = 1
	}
	col := func(x float64) int { return int(math.Round((x/ext + 1) / 2 * float64(w-1))) }
	row := func(y float64) int { return int(math.Round((1 - y/ext) / 2 * float64(h-1))) }
	for i := range min(len(b.xs), len(b.ys)) {
		b.cv.set(col(b.xs[i]), row(b.ys[i]), "·", biplotPoint)
	}
	longest := 0.0
	for _, a := range b.arrows {
		longest = math.Max(longest, math.Hypot(a.X, a.Y))
	}
	scale := 0.85 * ext / math.Max(longest, 1e-300)
	for _, a := range b.arrows {
		x, y := a.X*scale, a.Y*scale
		b.stroke(col(0), row(0), col(x), row(y))
		b.cv.set(col(x), row(y), "●", biplotArrow)
	}
	for _, a := range b.arrows { // labels last: over the points and strokes
		x, y := a.X*scale, a.Y*scale
		b.label(col(x), row(y), x < 0, a.Label)
	}
}

// stroke draws an arrow's shaft from (x0, y0) to (x1, y1) with the
// character of its slope.
func (b *Biplot) stroke(x0, y0, x1, y1 int) {
	dx, dy := x1-x0, y1-y0
	steps := max(abs(dx), abs(dy))
	c := "─"
	switch {
	case abs(dy)*2 > abs(dx)*2 && abs(dx)*3 < abs(dy):
		c = "│"
	case abs(dy)*3 >= abs(dx) && dx*dy < 0:
		c = "╱" // up and right on the screen: y grows downwards
	case abs(dy)*3 >= abs(dx):
		c = "╲"
	}
	for s := 1; s < steps; s++ {
		b.cv.set(x0+dx*s/steps, y0+dy*s/steps, c, biplotArrow)
	}
}

// label writes text beside (x, y): to its left when left, else to its
// right; arrow heads stay visible.
func (b *Biplot) label(x, y int, left bool, text string) {
	cv := b.cv
	r := []rune(text)
	start := x + 1
	if left {
		start = x - len(r)
	}
	start = min(max(start, 0), max(cv.w-len(r), 0))
	for i, c := range r {
		if x := start + i; !cv.in(x, y) || cv.glyphs[y*cv.w+x] != '●' {
			cv.set(x, y, string(c), biplotLabel)
		}
	}
}

// View paints the grid in the current theme.
func (b Biplot) View() string {
	if b.cv == nil || b.cv.w <= 0 || b.cv.h <= 0 {
		return ""
	}
	st := b.st
	b.cv.styles = []paint{newPaint(st.Muted), newPaint(st.Accent), newPaint(st.Text)}
	lines := make([]string, b.cv.h)
	for y := range lines {
		lines[y] = b.cv.row(y)
	}
	return strings.Join(lines, "\n")
}

package widgets

import (
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// lineMark is a vertical line at x across a LineChart's plot, labelled: the
// k a model chose, the knee of a curve.
type lineMark struct {
	x     float64
	label string
}

// SetMark draws a vertical line at x across the plot with label beside it
// (in the title when the plot has no room); a NaN x takes it away.
func (m *LineChart) SetMark(x float64, label string) {
	m.mark = nil
	if finite(x) {
		m.mark = &lineMark{x: clean(x), label: oneLine(label)}
	}
}

// drawMark overlays the mark on the plot rows lines[top:top+rows] and the x
// axis row (axis < 0: none), whose plot columns start at left and span pw
// cells for x from a to b: ┊ in the empty cells of its column, ┼ on the
// axis, the label in the top row beside it. It returns the label when it
// found no room there, for the title.
func (m LineChart) drawMark(lines []string, top, rows, axis, left, pw int, a, b float64) string {
	mk := m.mark
	if mk == nil || pw < 1 || mk.x < math.Min(a, b) || mk.x > math.Max(a, b) {
		return ""
	}
	col := left
	if b != a {
		col += int(math.Round((mk.x - a) / (b - a) * float64(pw-1)))
	}
	paint := newPaint(m.st.Accent)
	for r := top; r < top+rows && r < len(lines); r++ {
		if cellsBlank(lines[r], col, 1) {
			lines[r] = overlay(lines[r], col, paint.render("┊"))
		}
	}
	if axis >= 0 && axis < len(lines) {
		lines[axis] = overlay(lines[axis], col, newPaint(m.st.Muted).render("┼"))
	}
	w := ansi.StringWidth(mk.label)
	switch {
	case w == 0:
		return ""
	case rows > 0 && col+1+w <= left+pw && cellsBlank(lines[top], col+1, w):
		lines[top] = overlay(lines[top], col+1, paint.render(mk.label))
	case rows > 0 && col-w >= left && cellsBlank(lines[top], col-w, w):
		lines[top] = overlay(lines[top], col-w, paint.render(mk.label))
	default:
		return mk.label
	}
	return ""
}

// cellsBlank reports whether cells [from, from+w) of line are spaces (or
// beyond its end).
func cellsBlank(line string, from, w int) bool {
	return strings.TrimSpace(ansi.Strip(ansi.Cut(line, from, from+w))) == ""
}

// overlay writes s over line from cell col on, padding a short line.
func overlay(line string, col int, s string) string {
	if n := ansi.StringWidth(line); n < col {
		line += strings.Repeat(" ", col-n)
	}
	return ansi.Truncate(line, col, "") + s + ansi.TruncateLeft(line, col+ansi.StringWidth(s), "")
}

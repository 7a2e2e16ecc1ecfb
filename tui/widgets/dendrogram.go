package widgets

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// Dendrogram is a merge tree drawn in text, shared by the lab's view and
// the command line's report: one line per leaf, the root on the right,
// merge heights along the width. Inversions (centroid linkage: a merge
// lower than one it contains) are drawn as they are, the joining line
// running back to the left.
type Dendrogram struct {
	Lines []string // the drawing, one line per leaf, without labels
	Top   float64  // the height at the right edge
	Axis  string   // a height scale under the drawing
	width int
}

// DrawDendrogram draws l in width cells, leaf i on line i: number the
// leaves in depth-first order (cluster.Top does) and no lines cross.
func DrawDendrogram(l *engine.Linkage, width int) Dendrogram {
	n := l.Leaves
	width = max(width, 10)
	d := Dendrogram{width: width}
	for _, m := range l.Merges {
		d.Top = math.Max(d.Top, m.Height)
	}
	if d.Top <= 0 {
		d.Top = 1
	}
	// A merge's line leaves from its first child's row: every row is then
	// one chain of lines running right, and no two nodes share a cell (a
	// midpoint row would put some on top of each other). Ids: 0..n-1
	// leaves, n+i merge i.
	y := make([]int, n+len(l.Merges))
	x := make([]int, n+len(l.Merges))
	for i := range n {
		y[i] = i
	}
	for i, m := range l.Merges {
		y[n+i] = min(y[m.A], y[m.B])
		x[n+i] = d.Column(m.Height)
	}
	// Each cell keeps the directions its lines leave in, and is drawn
	// once at the end: two merges meeting in one cell (equal heights in
	// one column) keep both their lines.
	grid := make([][]uint8, n)
	for i := range grid {
		grid[i] = make([]uint8, width)
	}
	join := func(r, c int, dirs uint8) {
		if r >= 0 && r < len(grid) && c >= 0 && c < width {
			grid[r][c] |= dirs
		}
	}
	run := func(r, from, to int) { // a horizontal line over columns [from, to)
		for c := from; c < to; c++ {
			join(r, c, left|right)
		}
	}
	// link draws child ch's line along row r to its merge's column xc and
	// returns the side it arrives from. A merge lower than its child (an
	// inversion) is reached by a line running back left; a child in the
	// merge's own column (an equal height) joins by the vertical alone.
	link := func(ch, r, xc int) uint8 {
		if ch < n {
			run(r, 0, xc)
			return left
		}
		switch from := x[ch]; {
		case from < xc:
			join(r, from, right)
			run(r, from+1, xc)
			return left
		case from > xc:
			join(r, from, left)
			run(r, xc+1, from)
			return right
		}
		return 0
	}
	for i, m := range l.Merges {
		xc := x[n+i]
		ra, rb := y[m.A], y[m.B]
		sa, sb := link(m.A, ra, xc), link(m.B, rb, xc)
		if ra > rb {
			ra, rb, sa, sb = rb, ra, sb, sa
		}
		join(ra, xc, sa|down)
		for r := ra + 1; r < rb; r++ {
			join(r, xc, up|down)
		}
		join(rb, xc, sb|up)
	}
	if root := n + len(l.Merges) - 1; len(l.Merges) > 0 { // the root's line runs to the right edge
		join(y[root], x[root], right)
		run(y[root], x[root]+1, width)
	}
	for _, row := range grid {
		line := make([]rune, width)
		for c, dirs := range row {
			line[c] = boxRune[dirs]
		}
		d.Lines = append(d.Lines, string(line))
	}
	lo, hi := numfmt.Sig(0, 3), numfmt.Sig(d.Top, 3)
	d.Axis = lo + strings.Repeat(" ", max(width-len(lo)-len(hi), 1)) + hi
	return d
}

// Directions a cell's lines leave in.
const (
	left uint8 = 1 << iota
	right
	up
	down
)

// boxRune draws a cell from its directions.
var boxRune = [16]rune{
	0:                        ' ',
	left:                     '─',
	right:                    '─',
	left | right:             '─',
	up:                       '│',
	down:                     '│',
	up | down:                '│',
	left | down:              '┐',
	left | up:                '┘',
	right | down:             '┌',
	right | up:               '└',
	left | right | down:      '┬',
	left | right | up:        '┴',
	up | down | right:        '├',
	up | down | left:         '┤',
	left | right | up | down: '┼',
}

// Column is the drawing's column of height h.
func (d Dendrogram) Column(h float64) int {
	return min(d.width-1, max(0, int(math.Round(h/d.Top*float64(d.width-1)))))
}

// LeafLabel names a dendrogram's leaf: its row's name when the data have
// names (nil: none; "#" and the name when it is a number), else "row" and
// its number (1-based), and its known class when the data have them; a
// group of rows by its size.
func LeafLabel(rows []int, names, classes []string, y []float64) string {
	if len(rows) > 1 {
		return fmt.Sprintf("(%d rows)", len(rows))
	}
	s := fmt.Sprintf("row %d", rows[0]+1)
	if rows[0] < len(names) {
		s = names[rows[0]]
		if _, err := strconv.Atoi(s); err == nil {
			s = "#" + s // the file's row number (pandas counts from 0)
		}
	}
	if classes != nil && rows[0] < len(y) {
		if c := int(y[rows[0]]); c >= 0 && c < len(classes) {
			s += " " + classes[c]
		}
	}
	return s
}

package cluster

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// Dendrogram is a merge tree laid out for text: one line per leaf (a row,
// or a group of rows when the tree has more leaves than are drawn), the
// root on the right, merge heights along the width. Inversions (centroid
// linkage: a merge lower than one it contains) are drawn as they are, the
// joining line running back to the left.
type Dendrogram struct {
	Lines  []string // the drawing, one line per leaf, without labels
	Leaves [][]int  // the rows of each line's leaf, in line order
	Top    float64  // the height at the right edge
	Axis   string   // a height scale under the drawing
}

// Layout draws l in width cells with at most maxLeaves leaves: above that,
// the groups left after all but the last maxLeaves−1 merges are the
// leaves.
func Layout(l *engine.Linkage, width, maxLeaves int) *Dendrogram {
	n := l.Leaves
	width = max(width, 10)
	maxLeaves = max(maxLeaves, 2)
	skip := max(n-maxLeaves, 0) // merges folded into the leaf groups
	// Node ids: 0..n-1 rows, n+i merge i. The drawn leaves are the roots of
	// the first skip merges' forest.
	children := func(id int) (int, int, bool) {
		if id < n {
			return 0, 0, false
		}
		m := l.Merges[id-n]
		return m.A, m.B, true
	}
	drawnLeaf := func(id int) bool { return id < n || id-n < skip }
	var rows func(id int, out []int) []int
	rows = func(id int, out []int) []int {
		a, b, ok := children(id)
		if !ok {
			return append(out, id)
		}
		return rows(b, rows(a, out))
	}
	top := 0.0
	for _, m := range l.Merges[skip:] {
		top = math.Max(top, m.Height)
	}
	if top <= 0 {
		top = 1
	}
	col := func(h float64) int { return min(width-1, max(0, int(math.Round(h/top*float64(width-1))))) }
	// Leaves in depth-first order from the root.
	d := &Dendrogram{Top: top}
	y := map[int]float64{}
	x := map[int]int{}
	var place func(id int)
	place = func(id int) {
		if drawnLeaf(id) {
			y[id] = float64(len(d.Leaves))
			x[id] = 0
			d.Leaves = append(d.Leaves, rows(id, nil))
			return
		}
		a, b, _ := children(id)
		place(a)
		place(b)
		// A merge's line leaves from its first child's row: every row is
		// then one chain of lines running right, and no two nodes share a
		// cell (a midpoint row would put some on top of each other).
		y[id] = math.Min(y[a], y[b])
		x[id] = col(l.Merges[id-n].Height)
	}
	root := n + len(l.Merges) - 1
	if len(l.Merges) == 0 {
		root = 0
	}
	place(root)
	// Each cell keeps the directions its lines leave in, and is drawn
	// once at the end: two merges meeting in one cell (equal heights in
	// one column) keep both their lines.
	grid := make([][]uint8, len(d.Leaves))
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
		if drawnLeaf(ch) {
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
	for i := skip; i < len(l.Merges); i++ {
		id := n + i
		a, b := l.Merges[i].A, l.Merges[i].B
		xc := x[id]
		ra, rb := int(y[a]), int(y[b])
		sa, sb := link(a, ra, xc), link(b, rb, xc)
		if ra > rb {
			ra, rb, sa, sb = rb, ra, sb, sa
		}
		join(ra, xc, sa|down)
		for r := ra + 1; r < rb; r++ {
			join(r, xc, up|down)
		}
		join(rb, xc, sb|up)
	}
	if len(l.Merges) > skip { // the root's line runs to the right edge
		join(int(y[root]), x[root], right)
		run(int(y[root]), x[root]+1, width)
	}
	for _, row := range grid {
		line := make([]rune, width)
		for c, dirs := range row {
			line[c] = boxRune[dirs]
		}
		d.Lines = append(d.Lines, string(line))
	}
	lo, hi := numfmt.Sig(0, 3), numfmt.Sig(top, 3)
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

// Column is the drawing column of height h in a layout width cells wide.
func (d *Dendrogram) Column(h float64, width int) int {
	return min(width-1, max(0, int(math.Round(h/d.Top*float64(width-1)))))
}

// LeafLabel names a drawn leaf: its row's name when the data have names
// (nil: none; "#" and the name when it is a number), else "row" and its
// number (1-based), and its known class when the data have them; a group of
// rows by its size.
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

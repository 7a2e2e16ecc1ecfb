package cluster

import (
	"fmt"
	"math"
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
	grid := make([][]rune, len(d.Leaves))
	for i := range grid {
		grid[i] = []rune(strings.Repeat(" ", width))
	}
	set := func(r, c int, ch rune) {
		if r >= 0 && r < len(grid) && c >= 0 && c < width {
			grid[r][c] = ch
		}
	}
	// From a child's end to the merge's column, not onto it. A merge lower
	// than its child (an inversion) is joined by a line running back left,
	// between the two columns.
	hline := func(r, from, to int) {
		if from > to {
			from, to = to+1, from-1
		}
		for c := from; c < to; c++ {
			if grid[r][c] == ' ' {
				set(r, c, '─')
			}
		}
	}
	out := func(id int) int { // where a node's line to its parent starts
		if drawnLeaf(id) {
			return 0
		}
		return x[id] + 1
	}
	for i := skip; i < len(l.Merges); i++ {
		id := n + i
		a, b := l.Merges[i].A, l.Merges[i].B
		xc := x[id]
		ra, rb := int(y[a]), int(y[b])
		if ra > rb {
			ra, rb = rb, ra
		}
		hline(int(y[a]), out(a), xc)
		hline(int(y[b]), out(b), xc)
		for r := ra + 1; r < rb; r++ {
			set(r, xc, '│')
		}
		set(ra, xc, '┐')
		set(rb, xc, '┘')
		switch ym := int(y[id]); {
		case ym == ra:
			set(ra, xc, '┬')
		case ym == rb:
			set(rb, xc, '┴')
		default:
			set(ym, xc, '├')
		}
	}
	if len(l.Merges) > skip {
		hline(int(y[root]), out(root), width)
	}
	for _, row := range grid {
		d.Lines = append(d.Lines, string(row))
	}
	left, right := numfmt.Sig(0, 3), numfmt.Sig(top, 3)
	d.Axis = left + strings.Repeat(" ", max(width-len(left)-len(right), 1)) + right
	return d
}

// Column is the drawing column of height h in a layout width cells wide.
func (d *Dendrogram) Column(h float64, width int) int {
	return min(width-1, max(0, int(math.Round(h/d.Top*float64(width-1)))))
}

// LeafLabel names a drawn leaf: its row (1-based) and, when the data have
// them, its known class; a group of rows by its size.
func LeafLabel(rows []int, classes []string, y []float64) string {
	if len(rows) > 1 {
		return fmt.Sprintf("(%d rows)", len(rows))
	}
	s := fmt.Sprintf("row %d", rows[0]+1)
	if classes != nil && rows[0] < len(y) {
		if c := int(y[rows[0]]); c >= 0 && c < len(classes) {
			s += " " + classes[c]
		}
	}
	return s
}

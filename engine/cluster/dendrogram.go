package cluster

import (
	"github.com/tealab/tealab/engine"
)

// Top is the top of l's merge tree with at most maxLeaves leaves, as a
// dendrogram shows it: the groups of rows left after all but the last
// maxLeaves−1 merges are its leaves, and those merges join them. The top
// is itself a linkage over the groups, numbered in depth-first order from
// the root (a merge's first child first), so that leaf i can be drawn on
// line i without crossings; groups[i] lists leaf i's rows in the same
// order.
func Top(l *engine.Linkage, maxLeaves int) (top *engine.Linkage, groups [][]int) {
	n := l.Leaves
	skip := max(n-max(maxLeaves, 2), 0) // merges folded into the groups
	// Ids in l: 0..n-1 rows, n+i merge i. The top's leaves are the roots
	// of the first skip merges' forest.
	isGroup := func(id int) bool { return id < n || id-n < skip }
	var rows func(id int, out []int) []int
	rows = func(id int, out []int) []int {
		if id < n {
			return append(out, id)
		}
		m := l.Merges[id-n]
		return rows(m.B, rows(m.A, out))
	}
	leaf := map[int]int{} // a group's id in l → its leaf number in the top
	var place func(id int)
	place = func(id int) {
		if isGroup(id) {
			leaf[id] = len(groups)
			groups = append(groups, rows(id, nil))
			return
		}
		place(l.Merges[id-n].A)
		place(l.Merges[id-n].B)
	}
	if len(l.Merges) == 0 {
		place(0)
	} else {
		place(n + len(l.Merges) - 1)
	}
	renumber := func(id int) int {
		if isGroup(id) {
			return leaf[id]
		}
		return len(groups) + id - n - skip
	}
	top = &engine.Linkage{Leaves: len(groups), Method: l.Method}
	for _, m := range l.Merges[skip:] {
		top.Merges = append(top.Merges, engine.Merge{A: renumber(m.A), B: renumber(m.B), Height: m.Height, Size: m.Size})
	}
	return top, groups
}

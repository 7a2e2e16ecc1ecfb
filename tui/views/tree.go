package views

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
)

func init() {
	Register(Spec{Name: "Tree", Order: engine.CapTree.Order, Needs: HasLearned(engine.CapTree.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			t, _ := eval.LearnedAs[*engine.Tree](r.Result, engine.CapTree.Name)
			return newTreeView(env.C, r, t)
		}})
}

// forestOf is the run's model when it has several trees to page through
// (a boosted model, while the lab holds it); nil otherwise.
func forestOf(r *kit.RunRecord) engine.Forester {
	if r.Result == nil {
		return nil
	}
	if f, ok := r.Result.Fitted.(engine.Forester); ok && f.TreeCount() > 1 {
		return f
	}
	return nil
}

// treePages are the keys that page through a Forester's trees.
var treePages = struct{ prev, next key.Binding }{
	prev: kit.Bind("<", "previous tree", "<"), next: kit.Bind(">", "next tree", ">"),
}

// pageTree is the tree after (or before) tree at of f, when the key pages
// through trees: its index and the tree; ok false for another key or the
// end of the trees.
func pageTree(f engine.Forester, at int, km tea.KeyPressMsg) (int, *engine.Tree, bool) {
	if f == nil {
		return at, nil, false
	}
	to := at
	switch {
	case key.Matches(km, treePages.prev):
		to = max(at-1, 0)
	case key.Matches(km, treePages.next):
		to = min(at+1, f.TreeCount()-1)
	}
	if to == at {
		return at, nil, false
	}
	t := f.TreeAt(to)
	return to, t, t != nil && len(t.Nodes) > 0
}

// TreeView draws a decision tree as an outline a person walks with the
// keys: each node shows the test that leads to it, its training rows, its
// impurity, its class distribution as a small bar and what it predicts.
// Nodes fold and unfold; a data row can be sent down the tree, its path
// highlighted to the leaf it reaches.
type TreeView struct {
	c        *kit.Common
	r        *kit.RunRecord
	T        *engine.Tree
	forest   engine.Forester // the model's trees, < and > page through them; nil for one
	at       int             // which of them T is
	open     []bool          // expanded nodes
	Cur      int             // the node under the cursor
	off      int             // first visible line
	row      int             // the data row sent down the tree; -1 for none
	path     map[int]bool
	keys     treeKeys
	w, h     int
	depthCol int // indent per level
}

type treeKeys struct {
	up, down, fold, parent, all, row, PrevRow, NextRow key.Binding
}

func newTreeView(c *kit.Common, r *kit.RunRecord, t *engine.Tree) *TreeView {
	v := &TreeView{c: c, r: r, forest: forestOf(r), row: -1, depthCol: 2,
		keys: treeKeys{
			up: kit.Bind("↑", "up", "up", "k"), down: kit.Bind("↓", "down", "down", "j"),
			fold: kit.Bind("enter", "fold/unfold", "enter", "space"), parent: kit.Bind("u", "up a level", "u"),
			all: kit.Bind("a", "unfold all / fold", "a"), row: kit.Bind("p", "send a row down", "p"),
			PrevRow: kit.Bind("[", "previous row", "["), NextRow: kit.Bind("]", "next row", "]"),
		}}
	v.show(t)
	return v
}

// show makes t the tree shown, its first levels open (enough to read, not
// a wall of nodes), the cursor on its root and the row sent down it again.
func (v *TreeView) show(t *engine.Tree) {
	v.T, v.open, v.Cur, v.off = t, make([]bool, len(t.Nodes)), 0, 0
	var openTo func(i, d int)
	openTo = func(i, d int) {
		if d < 3 {
			v.open[i] = true
			for _, ch := range t.Nodes[i].Children {
				openTo(ch, d+1)
			}
		}
	}
	openTo(0, 0)
	if v.row >= 0 {
		v.setRow(v.row)
	}
}

// line is one visible node: its index, depth and tree guides.
type treeLine struct {
	node   int
	depth  int
	prefix string
}

// lines lists the visible nodes in outline order.
func (v *TreeView) lines() []treeLine {
	var out []treeLine
	var walk func(i, depth int, guides string, last bool)
	walk = func(i, depth int, guides string, last bool) {
		prefix := ""
		if depth > 0 {
			branch := "├─"
			if last {
				branch = "└─"
			}
			prefix = guides + branch
		}
		out = append(out, treeLine{i, depth, prefix})
		if !v.open[i] {
			return
		}
		next := guides
		if depth > 0 {
			if last {
				next += "  "
			} else {
				next += "│ "
			}
		}
		ch := v.T.Nodes[i].Children
		for k, c := range ch {
			walk(c, depth+1, next, k == len(ch)-1)
		}
	}
	walk(0, 0, "", true)
	return out
}

func (v *TreeView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if at, t, ok := pageTree(v.forest, v.at, km); ok {
		v.at = at
		v.show(t)
		return nil
	}
	lines := v.lines()
	at := 0
	for k, l := range lines {
		if l.node == v.Cur {
			at = k
		}
	}
	nd := v.T.Nodes[v.Cur]
	switch {
	case key.Matches(km, v.keys.up):
		at = max(at-1, 0)
	case key.Matches(km, v.keys.down):
		at = min(at+1, len(lines)-1)
	case key.Matches(km, v.keys.fold):
		if !nd.Leaf() {
			v.open[v.Cur] = !v.open[v.Cur]
		}
	case key.Matches(km, v.keys.parent):
		if p := v.parent(v.Cur); p >= 0 {
			v.Cur = p
		}
		return nil
	case key.Matches(km, v.keys.all):
		all := true
		for i, n := range v.T.Nodes {
			all = all && (n.Leaf() || v.open[i])
		}
		for i := range v.open {
			v.open[i] = !all || i == 0
		}
	case key.Matches(km, v.keys.row):
		if v.row >= 0 {
			v.setRow(-1)
		} else {
			v.setRow(0)
		}
		return nil
	case key.Matches(km, v.keys.PrevRow) && v.row >= 0:
		v.setRow(max(v.row-1, 0))
		return nil
	case key.Matches(km, v.keys.NextRow) && v.row >= 0:
		v.setRow(min(v.row+1, v.r.Dataset.Rows()-1))
		return nil
	default:
		return nil
	}
	lines = v.lines()
	v.Cur = lines[min(at, len(lines)-1)].node
	return nil
}

func (v *TreeView) parent(i int) int {
	for p, n := range v.T.Nodes {
		for _, c := range n.Children {
			if c == i {
				return p
			}
		}
	}
	return -1
}

// setRow sends data row i down the tree (-1: none): its path opens and the
// cursor goes to the leaf it reaches.
func (v *TreeView) setRow(i int) {
	v.row, v.path = i, nil
	d := v.r.Dataset
	if i < 0 || d == nil || i >= d.Rows() {
		v.row = -1
		return
	}
	_, p := d.X.Dims()
	path, _ := treePath(v.r.Result, v.T, d.X.RawRowView(i)[:p])
	if len(path) == 0 {
		v.row = -1
		return
	}
	v.path = map[int]bool{}
	for _, n := range path {
		v.path[n] = true
		v.open[n] = true
	}
	v.Cur = path[len(path)-1]
}

// treePath is the path through t of a row of raw feature values, prepared
// as the run's model saw its rows (Result.Prep): the nodes from the root
// to the leaf it reaches, and the prepared row; nil when the row cannot be
// prepared.
func treePath(res *eval.Result, t *engine.Tree, raw []float64) ([]int, []float64) {
	if res == nil || res.Prep == nil {
		return nil, nil
	}
	x, err := res.Prep.Apply(mat.NewDense(1, len(raw), append([]float64(nil), raw...)))
	if err != nil {
		return nil, nil
	}
	cols := res.Prep.Columns()
	level := func(f, code int) string {
		if f < len(cols) && code >= 0 && code < len(cols[f].Levels) {
			return cols[f].Levels[code]
		}
		return ""
	}
	row := x.RawRowView(0)
	return t.Path(row, level), row
}

func (v *TreeView) SetSize(w, h int) { v.w, v.h = w, h }

func (v *TreeView) Keys() []key.Binding {
	ks := []key.Binding{v.keys.up, v.keys.down, v.keys.fold, v.keys.parent, v.keys.all, v.keys.row}
	if v.row >= 0 {
		ks = append(ks, v.keys.PrevRow, v.keys.NextRow)
	}
	if v.forest != nil {
		ks = append(ks, treePages.prev, treePages.next)
	}
	return ks
}

func (v *TreeView) View() string {
	st := v.c.Styles
	t := v.T
	head := fmt.Sprintf(" %s tree · depth %d · %s · %s", t.Criterion, t.Depth(), numfmt.Count(t.Leaves(), "leaf"), numfmt.Count(len(t.Nodes), "node"))
	if t.Label != "" {
		head = " " + t.Label + " ·" + head
	}
	if res := v.r.Result; res != nil && res.FittedOn != "" {
		head += " · fitted on " + res.FittedOn
	}
	out := []string{st.Title.Render(kit.Clip(head, v.w))}
	if v.row >= 0 {
		out = append(out, st.Accent.Render(kit.Clip(" "+v.rowNote(), v.w)))
	}
	lines := v.lines()
	body := max(v.h-len(out), 1)
	at := 0
	for k, l := range lines {
		if l.node == v.Cur {
			at = k
		}
	}
	// Keep the cursor in view.
	if at < v.off {
		v.off = at
	}
	if at >= v.off+body {
		v.off = at - body + 1
	}
	v.off = min(v.off, max(len(lines)-body, 0))
	for k := v.off; k < min(len(lines), v.off+body); k++ {
		out = append(out, v.nodeLine(lines[k]))
	}
	return strings.Join(out, "\n")
}

// rowNote describes the row sent down the tree.
func (v *TreeView) rowNote() string {
	d := v.r.Dataset
	note := fmt.Sprintf("row %d of %d", v.row+1, d.Rows())
	if v.row < len(d.RowNames) {
		note = fmt.Sprintf("row %d of %d, %q", v.row+1, d.Rows(), d.RowNames[v.row])
	}
	if d.Task == datasets.Classification && v.row < len(d.Y) {
		note += " (a " + d.Classes[int(d.Y[v.row])] + ")"
	} else if v.row < len(d.Y) {
		note += " (target " + numfmt.Sig(d.Y[v.row], 4) + ")"
	}
	reach := " reaches a leaf that predicts "
	if !v.T.Nodes[v.Cur].Leaf() { // a tree that does not say where missing values go
		reach = " stops at a missing value, at a node whose majority is "
	}
	return note + reach + v.T.Outcome(v.Cur) + " · [ ] other rows · p stops"
}

// nodeLine draws one node: guides, fold marker, test, rows, impurity,
// class bar and outcome.
func (v *TreeView) nodeLine(l treeLine) string {
	st := v.c.Styles
	nd := v.T.Nodes[l.node]
	mark := "•"
	if !nd.Leaf() {
		mark = "▸"
		if v.open[l.node] {
			mark = "▾"
		}
	}
	test := nd.Cond.String()
	if l.node == 0 {
		test = "all training rows"
	}
	stats := fmt.Sprintf("%s · %s %s", numfmt.Count(nd.Samples, "row"), v.T.Criterion, numfmt.Fixed(nd.Impurity, 3))
	outcome := "→ " + kit.PadTo(v.T.Outcome(l.node), v.outcomeW())
	bar := ""
	if len(nd.Counts) > 0 {
		bar = classBar(st, nd.Counts, 10)
	}
	left := st.Border.Render(l.prefix) + mark + " " + test
	right := stats + " " + bar + " " + outcome
	line := kit.Spread(left, right, v.w-1)
	switch {
	case l.node == v.Cur && st.Colorless: // a glyph too: an ASCII terminal shows no reverse
		return st.SelectedRow.Render(kit.FitWidth("▶"+line, v.w))
	case l.node == v.Cur:
		return st.SelectedRow.Render(kit.FitWidth(" "+line, v.w))
	case v.path[l.node]:
		return st.Accent.Render(kit.FitWidth(" "+line, v.w))
	}
	return " " + line
}

// outcomeW is the width of the longest outcome, so that the columns of
// numbers line up.
func (v *TreeView) outcomeW() int {
	w := 0
	for i := range v.T.Nodes {
		w = max(w, len([]rune(v.T.Outcome(i))))
	}
	return min(w, 20)
}

// classBar draws class weights as a bar of w cells, each class's share in
// its colour (at least one cell for a class that is there).
func classBar(st *themes.Styles, counts []float64, w int) string {
	total := 0.0
	for _, c := range counts {
		total += c
	}
	if total <= 0 {
		return strings.Repeat(" ", w)
	}
	var b strings.Builder
	used := 0
	for i, c := range counts {
		n := int(float64(w)*c/total + 0.5)
		if c > 0 && n == 0 {
			n = 1
		}
		n = min(n, w-used)
		if n > 0 {
			b.WriteString(st.ClassStyle(i).Render(strings.Repeat("█", n)))
			used += n
		}
	}
	b.WriteString(strings.Repeat(" ", w-used))
	return b.String()
}

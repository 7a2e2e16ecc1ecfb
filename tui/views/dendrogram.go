package views

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/cluster"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Dendrogram", Order: engine.CapLinkage.Order, Needs: HasLearned(engine.CapLinkage.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			l, _ := eval.LearnedAs[*engine.Linkage](r.Result, engine.CapLinkage.Name)
			v := &dendrogramView{c: env.C, r: r, l: l,
				up:   kit.Bind("↑", "cut higher (fewer clusters)", "up", "k"),
				down: kit.Bind("↓", "cut lower (more clusters)", "down", "j"),
				prev: kit.Bind("pgup", "scroll up", "pgup"), next: kit.Bind("pgdn", "scroll down", "pgdown"),
				scroll: kit.Bind("pgup/pgdn", "scroll", "pgup", "pgdown")}
			v.k = 2
			if labels := r.Result.Predicted; len(labels) > 0 {
				top := 0.0
				for _, x := range labels {
					top = max(top, x)
				}
				v.k = int(top) + 1
			}
			return v
		}})
}

// dendrogramView draws the merge tree with a cut line the arrow keys move:
// the leaves take their cluster's colour, and the cluster count and the
// agreement with the known classes follow the cut live.
type dendrogramView struct {
	c              *kit.Common
	r              *kit.RunRecord
	l              *engine.Linkage
	k              int // clusters at the cut
	off            int // first line shown
	up, down       key.Binding
	prev, next     key.Binding
	scroll         key.Binding // prev and next as the footer names them
	w, h           int
	layoutW, leafN int
	layout         *widgets.Dendrogram
	groups         [][]int // the rows of each drawn leaf, in line order
}

func (v *dendrogramView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(km, v.up):
		v.k = max(v.k-1, 1)
	case key.Matches(km, v.down):
		v.k = min(v.k+1, v.maxK())
	case key.Matches(km, v.prev):
		v.off = max(v.off-v.body(), 0)
	case key.Matches(km, v.next):
		v.off += v.body()
	}
	return nil
}

// maxK is the most clusters the drawing can colour: one per drawn leaf.
func (v *dendrogramView) maxK() int {
	if v.layout == nil {
		return v.l.Leaves
	}
	return len(v.groups)
}

func (v *dendrogramView) SetSize(w, h int) {
	v.w, v.h = w, h
	labelW := 18
	lw := max(w-labelW-3, 10)
	leaves := min(v.l.Leaves, 200)
	if lw != v.layoutW || leaves != v.leafN || v.layout == nil {
		top, groups := cluster.Top(v.l, leaves)
		d := widgets.DrawDendrogram(top, lw)
		v.layout, v.groups = &d, groups
		v.layoutW, v.leafN = lw, leaves
	}
	v.k = min(v.k, v.maxK())
}

func (v *dendrogramView) Keys() []key.Binding {
	if v.scrolls() {
		return []key.Binding{v.up, v.down, v.scroll}
	}
	return []key.Binding{v.up, v.down}
}

// body is how many leaves' lines the view shows at once.
func (v *dendrogramView) body() int { return max(v.h-3, 1) }

// scrolls says the drawing is taller than the view.
func (v *dendrogramView) scrolls() bool { return v.layout != nil && len(v.layout.Lines) > v.body() }

func (v *dendrogramView) View() string {
	st := v.c.Styles
	if v.layout == nil {
		v.SetSize(v.w, v.h)
	}
	d := v.layout
	n := v.l.Leaves
	labels := cluster.CutK(v.l, v.k)
	// The cut's height: between the last merge applied and the next.
	applied := n - v.k
	lo, hi := 0.0, d.Top
	if applied > 0 {
		lo = v.l.Merges[applied-1].Height
	}
	if applied < len(v.l.Merges) {
		hi = v.l.Merges[applied].Height
	}
	cutH := (lo + hi) / 2
	head := fmt.Sprintf(" %s linkage · cut at height %s: %s", v.l.Method, numfmt.Sig(cutH, 3), numfmt.Count(v.k, "cluster"))
	if ds := v.r.Dataset; ds != nil && ds.Classes != nil && len(ds.Y) == n {
		pred := make([]float64, n)
		for i, c := range labels {
			pred[i] = float64(c)
		}
		head += fmt.Sprintf(" · ARI %s against %s", numfmt.Score(metrics.AdjustedRand(ds.Y, pred)), ds.Target.Name)
	}
	if n > len(v.groups) {
		head += fmt.Sprintf(" · top of %d rows", n)
	}
	body := v.body()
	v.off = min(v.off, max(len(d.Lines)-body, 0))
	// What the keys do first: at 80 columns the footer has room for one.
	hint := " ↑/↓ move the cut"
	if v.scrolls() {
		hint += fmt.Sprintf(" · pgup/pgdn: leaves %d-%d of %d", v.off+1, min(v.off+body, len(d.Lines)), len(d.Lines))
	}
	hint += " · leaves coloured by cluster · merge height →"
	out := []string{st.Title.Render(kit.Clip(head, v.w)), st.Muted.Render(kit.Clip(hint, v.w))}
	cutCol := d.Column(cutH)
	for i := v.off; i < min(len(d.Lines), v.off+body); i++ {
		rows := v.groups[i]
		cl := labels[rows[0]]
		label := widgets.LeafLabel(rows, nil, nil, nil)
		if ds := v.r.Dataset; ds != nil {
			label = widgets.LeafLabel(rows, ds.RowNames, ds.Classes, ds.Y)
		}
		line := []rune(d.Lines[i])
		if cutCol < len(line) && line[cutCol] == ' ' {
			line[cutCol] = '┊'
		}
		left := string(line[:min(cutCol, len(line))])
		right := string(line[min(cutCol, len(line)):])
		out = append(out, " "+st.ClassStyle(cl).Render(kit.PadTo(label, 17))+" "+st.ClassStyle(cl).Render(left)+st.Muted.Render(right))
	}
	out = append(out, " "+strings.Repeat(" ", 18)+st.Muted.Render(d.Axis))
	return strings.Join(out, "\n")
}

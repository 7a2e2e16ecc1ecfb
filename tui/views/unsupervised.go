package views

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

func init() {
	Register(Spec{Name: "Components", Order: engine.CapComponents.Order, Needs: HasLearned(engine.CapComponents.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			c, _ := eval.LearnedAs[*engine.Components](r.Result, engine.CapComponents.Name)
			return &componentsView{c: env.C, comps: c,
				up: kit.Bind("↑", "scroll", "up", "k"), down: kit.Bind("↓", "scroll", "down", "j")}
		}})
	Register(Spec{Name: "Clusters", Order: engine.CapLabels.Order,
		Needs: func(r *kit.RunRecord) bool {
			return r.Result != nil && r.Task() == datasets.Clustering && len(r.Result.Predicted) > 0
		},
		Make: func(env Env, r *kit.RunRecord) View { return &clustersView{c: env.C, r: r} }})
}

// componentsView is a reduction's scree plot (each component's share of
// the variance as a bar, with the cumulative share) and its loadings.
type componentsView struct {
	c        *kit.Common
	comps    *engine.Components
	off      int
	up, down key.Binding
	w, h     int
}

func (v *componentsView) Update(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, v.up):
			v.off = max(v.off-1, 0)
		case key.Matches(km, v.down):
			v.off = min(v.off+1, max(len(v.comps.Ratio)-1, 0))
		}
	}
	return nil
}

func (v *componentsView) SetSize(w, h int)    { v.w, v.h = w, h }
func (v *componentsView) Keys() []key.Binding { return []key.Binding{v.up, v.down} }

func (v *componentsView) View() string {
	st := v.c.Styles
	c := v.comps
	out := []string{st.Title.Render(kit.Clip(fmt.Sprintf(" scree: each component's share of the variance, and the running total (%s)", numfmt.Count(len(c.Ratio), "component")), v.w))}
	barW := max(v.w-34, 10)
	cum := 0.0
	for i := range v.off {
		cum += c.Ratio[i]
	}
	rows := max(min(len(c.Ratio)-v.off, (v.h-2)/2), 1)
	for i := v.off; i < v.off+rows && i < len(c.Ratio); i++ {
		cum += c.Ratio[i]
		n := int(c.Ratio[i]*float64(barW) + 0.5)
		m := max(int(cum*float64(barW)+0.5)-n, 0)
		out = append(out, fmt.Sprintf(" %-6s %6s %6s  %s%s", kit.Clip(c.Names[i], 6), numfmt.Fixed(c.Ratio[i], 3), numfmt.Fixed(cum, 3),
			st.SeriesStyle(0).Render(strings.Repeat("█", n)), st.Muted.Render(strings.Repeat("░", m))))
	}
	// Loadings of the first components, as many features as fit.
	k, d := c.Vectors.Dims()
	k = min(k, max((v.w-26)/9, 1))
	out = append(out, "", st.Header.Render(" loadings"))
	head := fmt.Sprintf(" %-24s", "feature")
	for i := range k {
		head += fmt.Sprintf(" %8s", kit.Clip(c.Names[i], 8))
	}
	out = append(out, st.Muted.Render(kit.Clip(head, v.w)))
	for j := 0; j < d && len(out) < v.h; j++ {
		name := fmt.Sprintf("x%d", j)
		if j < len(c.Features) {
			name = c.Features[j]
		}
		line := fmt.Sprintf(" %-24s", kit.Clip(name, 24))
		for i := range k {
			line += fmt.Sprintf(" %8s", numfmt.Fixed(c.Vectors.At(i, j), 3))
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// clustersView is the clusters' sizes and, when the data have classes,
// the contingency table of clusters against them.
type clustersView struct {
	c    *kit.Common
	r    *kit.RunRecord
	w, h int
}

func (v *clustersView) Update(tea.Msg) tea.Cmd { return nil }
func (v *clustersView) SetSize(w, h int)       { v.w, v.h = w, h }
func (v *clustersView) Keys() []key.Binding    { return nil }

func (v *clustersView) View() string {
	st := v.c.Styles
	res := v.r.Result
	k := 0
	for _, l := range res.Predicted {
		k = max(k, int(l)+1)
	}
	size := make([]int, k)
	for _, l := range res.Predicted {
		size[int(l)]++
	}
	d := v.r.Dataset
	classes := d != nil && d.Classes != nil && len(d.Y) == len(res.Predicted)
	out := []string{st.Title.Render(kit.Clip(fmt.Sprintf(" %s of %s", numfmt.Count(k, "cluster"), numfmt.Count(len(res.Predicted), "row")), v.w))}
	head := fmt.Sprintf(" %-10s %6s", "cluster", "rows")
	var table [][]int
	if classes {
		table = make([][]int, k)
		for c := range table {
			table[c] = make([]int, len(d.Classes))
		}
		for i, l := range res.Predicted {
			table[int(l)][int(d.Y[i])]++
		}
		for _, name := range d.Classes {
			head += fmt.Sprintf(" %10s", kit.Clip(name, 10))
		}
		out = append(out, st.Muted.Render(kit.Clip(" rows of each known class in each cluster (the classes were not learned from)", v.w)))
	}
	out = append(out, st.Header.Render(kit.Clip(head, v.w)))
	for c := 0; c < k && len(out) < v.h; c++ {
		line := st.ClassStyle(c).Render(fmt.Sprintf(" %-10s", fmt.Sprintf("cluster %d", c+1))) + fmt.Sprintf(" %6d", size[c])
		if classes {
			big := 0
			for j, n := range table[c] {
				if n > table[c][big] {
					big = j
				}
			}
			for j, n := range table[c] {
				cell := fmt.Sprintf(" %10d", n)
				if j == big && n > 0 {
					cell = st.Value.Render(cell)
				}
				line += cell
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

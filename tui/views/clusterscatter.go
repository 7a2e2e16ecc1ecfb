package views

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Scatter", Order: engine.CapLabels.Order + 1,
		Needs: func(r *kit.RunRecord) bool {
			return r.Result != nil && r.Task() == datasets.Clustering && len(r.Result.Predicted) > 0 &&
				len(kit.NumericFeatures(r.Dataset)) >= 2
		},
		Make: func(env Env, r *kit.RunRecord) View { return newClusterScatterView(env.C, r) }})
}

// clusterScatterView shows the rows in their first two principal directions
// (or two features chosen with x and y) coloured by cluster, each
// cluster's centre marked, beside the same rows coloured by their known
// classes (when the data have them): what the clustering found next to
// what was there.
type clusterScatterView struct {
	c         *kit.Common
	r         *kit.RunRecord
	plane     inspect.Plane
	err       error
	axes      kit.AxisPicker
	byCluster widgets.Scatter
	byClass   widgets.Scatter
	classes   bool
	showClass bool // a narrow screen shows one at a time
	toggle    key.Binding
	w, h      int
}

func newClusterScatterView(c *kit.Common, r *kit.RunRecord) *clusterScatterView {
	v := &clusterScatterView{c: c, r: r, byCluster: widgets.NewScatter(c.Styles), byClass: widgets.NewScatter(c.Styles),
		toggle: kit.Bind("c", "clusters / classes", "c"), axes: kit.NewAxisPicker(r.Dataset)}
	v.place()
	return v
}

// place draws the rows in the plane the axis picker names.
func (v *clusterScatterView) place() {
	d := v.r.Dataset
	v.plane, v.err = inspect.PlaneOf(d, v.axes.X, v.axes.Y)
	if v.err != nil {
		return
	}
	xs, ys := mat.Col(nil, 0, v.plane.XY), mat.Col(nil, 1, v.plane.XY)
	pred := v.r.Result.Predicted
	k := 0
	for _, l := range pred {
		k = max(k, int(l)+1)
	}
	// Each cluster's centre: the mean of its rows in the plane, drawn as one
	// more "class".
	cx, cy, cn := make([]float64, k), make([]float64, k), make([]float64, k)
	labels := make([]int, len(pred))
	for i, l := range pred {
		c := int(l)
		labels[i] = c
		cx[c] += xs[i]
		cy[c] += ys[i]
		cn[c]++
	}
	px, py := append([]float64(nil), xs...), append([]float64(nil), ys...)
	names := make([]string, k+1)
	for c := range k {
		names[c] = fmt.Sprintf("cluster %d", c+1)
		if cn[c] > 0 {
			px, py = append(px, cx[c]/cn[c]), append(py, cy[c]/cn[c])
			labels = append(labels, k)
		}
	}
	names[k] = "centre"
	v.byCluster.SetPoints(px, py, labels)
	v.byCluster.SetClassNames(names)
	v.byCluster.SetAxes(v.plane.XLabel, v.plane.YLabel)
	if d.Classes != nil && len(d.Y) == len(xs) {
		v.classes = true
		v.byClass.SetPoints(xs, ys, kit.ClassCodes(d.Y))
		v.byClass.SetClassNames(d.Classes)
		v.byClass.SetAxes(v.plane.XLabel, v.plane.YLabel)
	}
}

// sideBySide says whether both plots fit.
func (v *clusterScatterView) sideBySide() bool { return v.classes && v.w >= 100 }

func (v *clusterScatterView) Update(msg tea.Msg) tea.Cmd {
	if v.axes.Update(msg) {
		v.place()
		v.SetSize(v.w, v.h)
		return nil
	}
	if km, ok := msg.(tea.KeyPressMsg); ok && key.Matches(km, v.toggle) && v.classes && !v.sideBySide() {
		v.showClass = !v.showClass
	}
	return nil
}

func (v *clusterScatterView) SetSize(w, h int) {
	v.w, v.h = w, h
	if v.sideBySide() {
		half := (w - 2) / 2
		v.byCluster.SetSize(half, h-2)
		v.byClass.SetSize(w-2-half, h-2)
		return
	}
	v.byCluster.SetSize(w, h-2)
	v.byClass.SetSize(w, h-2)
}

func (v *clusterScatterView) Keys() []key.Binding {
	ks := v.axes.Keys()
	if v.classes && !v.sideBySide() {
		ks = append(ks, v.toggle)
	}
	return ks
}

func (v *clusterScatterView) View() string {
	st := v.c.Styles
	if v.err != nil {
		return st.Muted.Render(" no scatter: " + v.err.Error())
	}
	head := fmt.Sprintf(" the rows in their first two principal directions (%.0f%% of the variance)", 100*v.plane.VarExplained)
	if !v.plane.Projected {
		head = fmt.Sprintf(" the rows, %s against %s", v.plane.YLabel, v.plane.XLabel)
		if len(v.axes.Numeric) > 2 { // the footer may have no room for p
			head += " · p: principal plane"
		}
	}
	out := st.Title.Render(kit.Clip(head, v.w)) + "\n"
	switch {
	case v.sideBySide():
		half := (v.w - 2) / 2
		left := st.Header.Render(kit.PadTo(" clusters found, centres marked", half)) + "\n" + v.byCluster.View()
		right := st.Header.Render(kit.PadTo(" known classes (not learned from)", v.w-2-half)) + "\n" + v.byClass.View()
		return out + lipgloss.JoinHorizontal(lipgloss.Top, left, "  ", right)
	case v.showClass:
		return out + st.Header.Render(" known classes (not learned from) · c: clusters") + "\n" + v.byClass.View()
	}
	note := " clusters found, centres marked"
	if v.classes {
		note += " · c: known classes"
	}
	return out + st.Header.Render(note) + "\n" + strings.TrimRight(v.byCluster.View(), "\n")
}

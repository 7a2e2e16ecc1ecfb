package views

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/cluster"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Elbow", Order: cluster.CapCentres.Order, Needs: HasLearned(cluster.CapCentres.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			return &elbowView{c: env.C, ctx: env.Ctx, r: r, chart: elbowChart(env.C)}
		}})
}

// elbowChart plots the objective on a linear axis from k = 1 on: the
// automatic axis would clip k = 1 as an early spike or go logarithmic, and
// either flattens the fall to the knee that the plot is for.
func elbowChart(c *kit.Common) widgets.LineChart {
	ch := widgets.NewLineChart("within-cluster sum of squares ÷ k = 1's, against k", "k", c.Styles)
	ch.SetLogY(false)
	return ch
}

// elbowMax is the largest k the elbow plot tries.
const elbowMax = 10

// elbowMsg: the objectives of k = 1..elbowMax for run, computed off the UI
// goroutine.
type elbowMsg struct {
	run int
	obj []float64
	err error
}

// elbowView plots the k-means objective against k, the run's k marked: the
// elbow a person reads k from.
type elbowView struct {
	c      *kit.Common
	ctx    context.Context
	r      *kit.RunRecord
	chart  widgets.LineChart
	obj    []float64 // the objective for k = 1..elbowMax
	knee   int       // the k at the bend of obj, 0 for none
	err    error
	cancel context.CancelFunc
	w, h   int
}

func (v *elbowView) Init() tea.Cmd {
	d, res := v.r.Dataset, v.r.Result
	if d == nil || res == nil || res.Prep == nil {
		v.err = fmt.Errorf("the run's data are not at hand")
		return nil
	}
	ctx, cancel := context.WithCancel(v.ctx)
	v.cancel = cancel
	id, seed := v.r.ID, v.r.Options.Seed
	prep, x := res.Prep, d.X
	return func() tea.Msg {
		z, err := prep.Apply(x)
		if err != nil {
			return elbowMsg{run: id, err: err}
		}
		obj, err := cluster.Elbow(ctx, z, elbowMax, 3, seed)
		return elbowMsg{run: id, obj: obj, err: err}
	}
}

func (v *elbowView) Close() {
	if v.cancel != nil {
		v.cancel()
	}
}

func (v *elbowView) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case elbowMsg:
		if m.run == v.r.ID {
			v.obj, v.err = m.obj, m.err
			if m.err == nil {
				v.plot()
			}
		}
	case tea.KeyPressMsg:
		var cmd tea.Cmd
		v.chart, cmd = v.chart.Update(msg)
		return cmd
	}
	return nil
}

// plot draws each k's objective over k = 1's, the knee marked.
func (v *elbowView) plot() {
	share := make([]float64, len(v.obj))
	for i, o := range v.obj {
		share[i] = o / v.obj[0]
	}
	v.chart.SetSeries([]string{"k-means objective ÷ total sum of squares"}, [][]float64{share})
	v.knee = cluster.Knee(v.obj)
	if v.knee > 0 {
		v.chart.SetMark(float64(v.knee), fmt.Sprintf("knee k=%d", v.knee))
	}
}

func (v *elbowView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.chart.SetSize(w, max(h-1, 3))
}

func (v *elbowView) Keys() []key.Binding { return v.chart.KeyMap.ShortHelp() }

func (v *elbowView) View() string {
	st := v.c.Styles
	switch {
	case v.err != nil:
		return st.Muted.Render(" no elbow plot: " + v.err.Error())
	case v.obj == nil:
		return st.Muted.Render(fmt.Sprintf(" fitting k-means for k = 1..%d…", elbowMax))
	}
	k := 0
	for _, l := range v.r.Result.Predicted {
		k = max(k, int(l)+1)
	}
	note := fmt.Sprintf(" the run's k = %d", k)
	if k >= 1 && k <= len(v.obj) {
		note += fmt.Sprintf(" (objective %s)", numfmt.Score(v.obj[k-1]))
	}
	if v.knee > 0 {
		note += fmt.Sprintf(" · knee k = %d: more clusters buy little", v.knee)
	}
	return st.Accent.Render(kit.Clip(note, v.w)) + "\n" + v.chart.View()
}

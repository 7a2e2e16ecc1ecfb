package views

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/neighbors"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Neighbours", Order: neighbors.CapChoice.Order, Needs: HasLearned(neighbors.CapChoice.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			c, _ := eval.LearnedAs[*neighbors.Choice](r.Result, neighbors.CapChoice.Name)
			v := &NeighboursView{c: env.C, r: r, Ch: c, chart: widgets.NewLineChart("error against k", "k", env.C.Styles)}
			if c.Chosen {
				names, ys := []string{"leave-one-out (training rows)"}, [][]float64{c.LOO}
				if h := r.Result.History; len(h) == len(c.LOO) {
					val := make([]float64, len(h))
					for i, p := range h {
						val[i] = p.ValError
					}
					names, ys = append(names, "validation (held-out rows)"), append(ys, val)
				}
				v.chart.SetSeries(names, ys)
				v.chart.SetMark(float64(c.K), fmt.Sprintf("k=%d", c.K))
			}
			return v
		}})
}

// NeighboursView says which k a k-NN fit used and how; when it chose k, the
// error against k on the training rows (leave-one-out) and on the held-out
// rows: Hocking's model-selection picture.
type NeighboursView struct {
	c     *kit.Common
	r     *kit.RunRecord
	Ch    *neighbors.Choice
	chart widgets.LineChart
	w, h  int
}

func (v *NeighboursView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyPressMsg); ok && v.Ch.Chosen {
		v.chart, cmd = v.chart.Update(msg)
	}
	return cmd
}

func (v *NeighboursView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.chart.SetSize(w, max(h-2, 3))
}

func (v *NeighboursView) Keys() []key.Binding {
	if !v.Ch.Chosen {
		return nil
	}
	return v.chart.KeyMap.ShortHelp()
}

func (v *NeighboursView) View() string {
	st := v.c.Styles
	c := v.Ch
	head := fmt.Sprintf(" k = %d · %s distance · %s search", c.K, c.Metric, c.Search)
	if !c.Chosen {
		return st.Title.Render(kit.Clip(head, v.w)) + "\n" + st.Muted.Render(kit.Clip(" k as set; choose_k=loo tries every k up to k_max and keeps the best by leave-one-out error", v.w))
	}
	note := fmt.Sprintf(" chosen: the least leave-one-out error on the training rows over k = 1..%d (%s)", len(c.LOO), numfmt.Score(c.LOO[c.K-1]))
	return st.Title.Render(kit.Clip(head, v.w)) + "\n" + st.Accent.Render(kit.Clip(note, v.w)) + "\n" + v.chart.View()
}

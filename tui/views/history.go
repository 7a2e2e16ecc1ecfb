package views

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

const TabHistory = "History"

func init() {
	Register(Spec{Name: TabHistory, Order: 300,
		Needs: func(r *kit.RunRecord) bool { return r.Result != nil && len(r.Result.History) > 0 },
		Make:  newHistoryView})
}

// historyView draws the loss histories: the training loss beside the
// validation curves, one fold bright and every other fold faint; [ and ]
// step through the folds. A closed-form fit (one step) gets a card instead
// of empty axes.
type historyView struct {
	c      *kit.Common
	r      *kit.RunRecord
	folds  [][]eval.Point
	cur    int
	charts kit.FoldCharts
	keys   historyKeys
	w, h   int
}

type historyKeys struct{ prev, next key.Binding }

func newHistoryView(env Env, r *kit.RunRecord) View {
	res := r.Result
	v := &historyView{
		c: env.C, r: r,
		charts: kit.NewFoldCharts(r, env.C.Styles),
		keys:   historyKeys{prev: kit.Bind("[", "previous fold", "["), next: kit.Bind("]", "next fold", "]")},
	}
	v.folds = res.FoldHistories
	if len(v.folds) == 0 {
		v.folds = [][]eval.Point{res.History}
	}
	if f := r.HistFold; f > 0 && len(v.folds) == 1 {
		v.cur = 0 // an abandoned run kept one fold's history: that one
	}
	v.draw()
	return v
}

// draw shows the folds on the charts, the chosen fold emphasised.
func (v *historyView) draw() {
	n := len(v.folds)
	v.charts.Draw(v.folds, v.cur)
	switch {
	case n > 1:
		v.charts.SetNote(fmt.Sprintf(" · fold %d of %d (others faint)", v.cur+1, n))
	case v.r.HistFold > 0:
		v.charts.SetNote(fmt.Sprintf(" · fold %d", v.r.HistFold))
	}
}

func (v *historyView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(km, v.keys.prev) && len(v.folds) > 1:
		v.cur = (v.cur - 1 + len(v.folds)) % len(v.folds)
		v.draw()
		return nil
	case key.Matches(km, v.keys.next) && len(v.folds) > 1:
		v.cur = (v.cur + 1) % len(v.folds)
		v.draw()
		return nil
	}
	v.charts.Update(msg)
	return nil
}

func (v *historyView) View() string {
	if kit.OneStep(v.folds) {
		return kit.OneStepCard(v.c, v.r, v.folds, v.r.Result.FitSecs, v.w)
	}
	return v.charts.View(false)
}

func (v *historyView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.charts.SetSize(w, h, false)
}

func (v *historyView) Keys() []key.Binding {
	ks := widgets.DefaultLineChartKeyMap().ShortHelp()
	if len(v.folds) > 1 {
		ks = append([]key.Binding{v.keys.prev, v.keys.next}, ks...)
	}
	return ks
}

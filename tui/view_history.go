package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/widgets"
)

const tabHistory = "History"

func init() {
	registerView(viewSpec{name: tabHistory, order: 30,
		needs: func(r *runRecord) bool { return r.Result != nil && len(r.Result.History) > 0 },
		make:  newHistoryView})
}

// historyView draws the loss histories: the training loss beside the
// validation curves, one fold bright and every other fold faint; [ and ]
// step through the folds. A closed-form fit (one step) gets a card instead
// of empty axes.
type historyView struct {
	c      *common
	r      *runRecord
	folds  [][]eval.Point
	cur    int
	charts foldCharts
	keys   historyKeys
	w, h   int
}

type historyKeys struct{ Prev, Next key.Binding }

func newHistoryView(env viewEnv, r *runRecord) resultView {
	res := r.Result
	v := &historyView{
		c: env.c, r: r,
		charts: newFoldCharts(r, env.c.styles),
		keys:   historyKeys{Prev: bind("[", "previous fold", "["), Next: bind("]", "next fold", "]")},
	}
	v.folds = res.FoldHistories
	if len(v.folds) == 0 {
		v.folds = [][]eval.Point{res.History}
	}
	if f := r.histFold; f > 0 && len(v.folds) == 1 {
		v.cur = 0 // an abandoned run kept one fold's history: that one
	}
	v.draw()
	return v
}

func (v *historyView) draw() {
	n := len(v.folds)
	v.charts.draw(v.folds, v.cur)
	switch {
	case n > 1:
		v.charts.setNote(fmt.Sprintf(" · fold %d of %d (others faint)", v.cur+1, n))
	case v.r.histFold > 0:
		v.charts.setNote(fmt.Sprintf(" · fold %d", v.r.histFold))
	}
}

func (v *historyView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(km, v.keys.Prev) && len(v.folds) > 1:
		v.cur = (v.cur - 1 + len(v.folds)) % len(v.folds)
		v.draw()
		return nil
	case key.Matches(km, v.keys.Next) && len(v.folds) > 1:
		v.cur = (v.cur + 1) % len(v.folds)
		v.draw()
		return nil
	}
	v.charts.update(msg)
	return nil
}

func (v *historyView) View() string {
	if oneStep(v.folds) {
		return oneStepCard(v.c, v.r, v.folds, v.r.Result.FitSecs, v.w)
	}
	return v.charts.view(false)
}

func (v *historyView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.charts.setSize(w, h, false)
}

func (v *historyView) Keys() []key.Binding {
	ks := widgets.DefaultLineChartKeyMap().ShortHelp()
	if len(v.folds) > 1 {
		ks = append([]key.Binding{v.keys.Prev, v.keys.Next}, ks...)
	}
	return ks
}

package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

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
	c         *common
	r         *runRecord
	folds     [][]eval.Point
	cur       int
	loss, val widgets.LineChart
	keys      historyKeys
	w, h      int
}

type historyKeys struct{ Prev, Next key.Binding }

func newHistoryView(env viewEnv, r *runRecord) resultView {
	st := env.c.styles
	res := r.Result
	unit := unitOf(r.Spec)
	v := &historyView{
		c: env.c, r: r,
		loss: widgets.NewLineChart(lossTitle(r), unit, st),
		val:  widgets.NewLineChart("validation on held-out rows", unit, st),
		keys: historyKeys{Prev: bind("[", "previous fold", "["), Next: bind("]", "next fold", "]")},
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
	drawFolds(&v.loss, &v.val, v.r, v.folds, v.cur)
	switch {
	case n > 1:
		note := fmt.Sprintf(" · fold %d of %d (others faint)", v.cur+1, n)
		v.loss.SetTitle(lossTitle(v.r) + note)
		v.val.SetTitle("validation" + note)
	case v.r.histFold > 0:
		v.loss.SetTitle(fmt.Sprintf("%s · fold %d", lossTitle(v.r), v.r.histFold))
		v.val.SetTitle(fmt.Sprintf("validation · fold %d", v.r.histFold))
	}
}

func (v *historyView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
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
	v.loss, _ = v.loss.Update(msg)
	v.val, _ = v.val.Update(msg)
	return nil
}

func (v *historyView) View() string {
	if oneStep(v.folds) {
		return oneStepCard(v.c, v.r, v.folds, v.r.Result.FitSecs, v.w)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, v.loss.View(), v.val.View())
}

func (v *historyView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.loss.SetSize(w/2, h)
	v.val.SetSize(w-w/2, h)
}

func (v *historyView) Keys() []key.Binding {
	ks := v.loss.KeyMap.ShortHelp()
	if len(v.folds) > 1 {
		ks = append([]key.Binding{v.keys.Prev, v.keys.Next}, ks...)
	}
	return ks
}

package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/tealab/tealab/tui/widgets"
)

const tabHistory = "History"

func init() {
	registerView(viewSpec{name: tabHistory, order: 30,
		needs: func(r *runRecord) bool { return r.Result != nil && len(r.Result.History) > 0 },
		make:  newHistoryView})
}

// historyView draws the loss history: the training loss beside the
// validation curves.
type historyView struct {
	loss, val widgets.LineChart
}

func newHistoryView(env viewEnv, r *runRecord) resultView {
	st := env.c.styles
	res := r.Result
	unit := unitOf(r.Spec)
	v := &historyView{
		loss: widgets.NewLineChart("training loss", unit, st),
		val:  widgets.NewLineChart("validation on held-out rows", unit, st),
	}
	n := len(res.History)
	tl, vl, ve := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, p := range res.History {
		tl[i], vl[i], ve[i] = p.TrainLoss, p.ValLoss, p.ValError
	}
	ln, en := valNames(r.Task())
	tl, dx := reduceSeries(tl, chartPoints)
	vl, _ = reduceSeries(vl, chartPoints)
	ve, _ = reduceSeries(ve, chartPoints)
	v.loss.SetSeries([]string{"train loss"}, [][]float64{tl})
	v.val.SetSeries([]string{ln, en}, [][]float64{vl, ve})
	v.loss.SetXScale(float64(res.History[0].Step), dx)
	v.val.SetXScale(float64(res.History[0].Step), dx)
	if len(res.Folds) > 1 || r.Options.Folds > 1 || r.Options.LOO {
		f := max(r.histFold, 1) // the first fold's, unless abandoned later
		v.loss.SetTitle(fmt.Sprintf("training loss · fold %d", f))
		v.val.SetTitle(fmt.Sprintf("validation · fold %d", f))
	}
	return v
}

func (v *historyView) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.KeyMsg); !ok {
		return nil
	}
	var cmd tea.Cmd
	v.loss, _ = v.loss.Update(msg)
	v.val, cmd = v.val.Update(msg)
	return cmd
}

func (v *historyView) View() string {
	return lipgloss.JoinHorizontal(lipgloss.Top, v.loss.View(), v.val.View())
}

func (v *historyView) SetSize(w, h int) {
	v.loss.SetSize(w/2, h)
	v.val.SetSize(w-w/2, h)
}

func (v *historyView) Keys() []key.Binding { return v.loss.KeyMap.ShortHelp() }

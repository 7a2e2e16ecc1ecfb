package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	regression := func(r *runRecord) bool {
		res := r.Result
		return res != nil && r.Task() == datasets.Regression && len(res.Actual) > 0 && len(res.Actual) == len(res.Predicted)
	}
	registerView(viewSpec{name: "Predicted vs actual", order: 50, needs: regression,
		make: func(env viewEnv, r *runRecord) resultView {
			sc := widgets.NewScatter(env.c.styles)
			sc.SetPoints(r.Result.Actual, r.Result.Predicted, nil)
			sc.SetAxes("actual", "predicted")
			sc.SetGuides(true, false)
			return &scatterView{m: sc}
		}})
	registerView(viewSpec{name: "Residuals", order: 51, needs: regression,
		make: func(env viewEnv, r *runRecord) resultView {
			res := r.Result
			resid := make([]float64, len(res.Actual))
			for i := range resid {
				resid[i] = res.Actual[i] - res.Predicted[i]
			}
			sc := widgets.NewScatter(env.c.styles)
			sc.SetPoints(res.Predicted, resid, nil)
			sc.SetAxes("predicted", "residual")
			sc.SetGuides(false, true)
			return &scatterView{m: sc}
		}})
}

// scatterView is a scatter plot of a run's numbers.
type scatterView struct{ m widgets.Scatter }

func (v *scatterView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyMsg); ok {
		v.m, cmd = v.m.Update(msg)
	}
	return cmd
}
func (v *scatterView) View() string        { return v.m.View() }
func (v *scatterView) SetSize(w, h int)    { v.m.SetSize(w, h) }
func (v *scatterView) Keys() []key.Binding { return v.m.KeyMap.ShortHelp() }

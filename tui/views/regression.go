package views

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	regression := func(r *kit.RunRecord) bool {
		res := r.Result
		return res != nil && r.Task() == datasets.Regression && len(res.Actual) > 0 && len(res.Actual) == len(res.Predicted)
	}
	// One feature: the data and the fitted function over them.
	Register(Spec{Name: "Fit", Order: 490,
		Needs: func(r *kit.RunRecord) bool {
			return regression(r) && len(r.Dataset.Features) == 1 && r.Dataset.Features[0].Kind == datasets.Numeric &&
				r.Result.Fitted != nil
		},
		Make: func(env Env, r *kit.RunRecord) View {
			d, res := r.Dataset, r.Result
			sc := widgets.NewScatter(env.C.Styles)
			sc.SetPoints(mat.Col(nil, 0, d.X), d.Y, nil)
			sc.SetAxes(d.Features[0].Name, d.Target.Name)
			title := "the points and the curve " + r.Spec.Title + " fitted (on " + res.FittedOn + ")"
			if xs, ys, err := inspect.Curve(d, res.Fitted, res.Prep, 400); err == nil {
				sc.SetCurve(xs, ys)
			} else {
				title = "no curve: " + err.Error()
			}
			return &scatterView{m: sc, title: title, st: env.C.Styles}
		}})
	Register(Spec{Name: "Predicted vs actual", Order: 500, Needs: regression,
		Make: func(env Env, r *kit.RunRecord) View {
			sc := widgets.NewScatter(env.C.Styles)
			sc.SetPoints(r.Result.Actual, r.Result.Predicted, nil)
			sc.SetAxes("actual", "predicted")
			sc.SetGuides(true, false)
			return &scatterView{m: sc}
		}})
	Register(Spec{Name: "Residuals", Order: 510, Needs: regression,
		Make: func(env Env, r *kit.RunRecord) View {
			res := r.Result
			resid := make([]float64, len(res.Actual))
			for i := range resid {
				resid[i] = res.Actual[i] - res.Predicted[i]
			}
			sc := widgets.NewScatter(env.C.Styles)
			sc.SetPoints(res.Predicted, resid, nil)
			sc.SetAxes("predicted", "residual")
			sc.SetGuides(false, true)
			return &scatterView{m: sc}
		}})
}

// scatterView is a scatter plot of a run's numbers, with an optional title.
type scatterView struct {
	m     widgets.Scatter
	title string
	st    *themes.Styles
}

func (v *scatterView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyPressMsg); ok {
		v.m, cmd = v.m.Update(msg)
	}
	return cmd
}
func (v *scatterView) View() string { return withNote(v.st, v.title, v.m.View()) }

func (v *scatterView) SetSize(w, h int)    { v.m.SetSize(w, h-noteLines(v.title)) }
func (v *scatterView) Keys() []key.Binding { return v.m.KeyMap.ShortHelp() }

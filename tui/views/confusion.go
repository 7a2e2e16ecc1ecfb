package views

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Confusion", Order: 100,
		Needs: func(r *kit.RunRecord) bool {
			return r.Result != nil && r.Result.Confusion != nil && len(r.Result.Confusion.Labels) > 0
		},
		Make: func(env Env, r *kit.RunRecord) View {
			res := r.Result
			note := r.PooledNote()
			sum := map[string]float64{}
			if note == "" {
				for k, v := range res.Metrics {
					sum[k] = v
				}
				if b, ok := res.Baseline["accuracy"]; ok {
					sum["baseline_accuracy"] = b
				}
			} else {
				// The matrix is pooled over the folds: so are the
				// figures under it (the Summary has the fold means).
				c := *res.Confusion
				macro, weighted := metrics.Averages(c)
				sum["accuracy"] = metrics.Accuracy(res.Actual, res.Predicted)
				sum["macro_f1"], sum["weighted_f1"] = macro.F1, weighted.F1
				sum["kappa"], sum["mcc"] = metrics.CohenKappa(c), metrics.MCC(c)
			}
			return &confusionView{m: widgets.NewConfusion(*res.Confusion, res.Classes, sum, env.C.Styles),
				note: note, st: env.C.Styles}
		}})
}

// confusionView is the confusion matrix with per-class precision, recall
// and F1, and what it is pooled over.
type confusionView struct {
	m    widgets.Confusion
	note string
	st   *themes.Styles
}

func (v *confusionView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyPressMsg); ok {
		v.m, cmd = v.m.Update(msg)
	}
	return cmd
}
func (v *confusionView) View() string { return withNote(v.st, v.note, v.m.View()) }

func (v *confusionView) SetSize(w, h int)    { v.m.SetSize(w, h-noteLines(v.note)) }
func (v *confusionView) Keys() []key.Binding { return v.m.KeyMap.ShortHelp() }

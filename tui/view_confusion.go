package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	registerView(viewSpec{name: "Confusion", order: 10,
		needs: func(r *runRecord) bool {
			return r.Result != nil && r.Result.Confusion != nil && len(r.Result.Confusion.Labels) > 0
		},
		make: func(env viewEnv, r *runRecord) resultView {
			res := r.Result
			sum := map[string]float64{}
			for k, v := range res.Metrics {
				sum[k] = v
			}
			if b, ok := res.Baseline["accuracy"]; ok {
				sum["baseline_accuracy"] = b
			}
			return &confusionView{m: widgets.NewConfusion(*res.Confusion, res.Classes, sum, env.c.styles)}
		}})
}

// confusionView is the confusion matrix with per-class precision, recall
// and F1.
type confusionView struct{ m widgets.Confusion }

func (v *confusionView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyMsg); ok {
		v.m, cmd = v.m.Update(msg)
	}
	return cmd
}
func (v *confusionView) View() string        { return v.m.View() }
func (v *confusionView) SetSize(w, h int)    { v.m.SetSize(w, h) }
func (v *confusionView) Keys() []key.Binding { return v.m.KeyMap.ShortHelp() }

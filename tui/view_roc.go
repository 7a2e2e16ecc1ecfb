package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	registerView(viewSpec{name: "ROC", order: 20,
		needs: func(r *runRecord) bool { return r.Result != nil && len(r.Result.ROC) > 0 },
		make: func(env viewEnv, r *runRecord) resultView {
			note := r.pooledNote()
			if note != "" {
				note = "curves " + note
				if len(r.Result.Folds) > 1 {
					note += "; the Summary's AUC is the fold mean"
				}
			}
			return &rocView{m: widgets.NewROC(r.Result.ROC, env.c.styles), note: note, st: env.c.styles}
		}})
}

// rocView is the ROC curves with their areas.
type rocView struct {
	m    widgets.ROC
	note string
	st   *themes.Styles
}

func (v *rocView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyMsg); ok {
		v.m, cmd = v.m.Update(msg)
	}
	return cmd
}
func (v *rocView) View() string { return withNote(v.st, v.note, v.m.View()) }

func (v *rocView) SetSize(w, h int)    { v.m.SetSize(w, h-noteLines(v.note)) }
func (v *rocView) Keys() []key.Binding { return v.m.KeyMap.ShortHelp() }

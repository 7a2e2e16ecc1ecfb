package views

import (
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "ROC", Order: 200,
		Needs: func(r *kit.RunRecord) bool { return r.Result != nil && len(r.Result.ROC) > 0 },
		Make: func(env Env, r *kit.RunRecord) View {
			note := r.PooledNote()
			if note != "" {
				note = "curves " + note
				if len(r.Result.Folds) > 1 {
					note += "; the Summary's AUC is the fold mean"
				}
			}
			m := widgets.NewROC(r.Result.ROC, env.C.Styles)
			m.SetFaint(foldCurves(r, func(c metrics.Curves) []widgets.Curve {
				var out []widgets.Curve
				for _, roc := range c.ROC {
					out = append(out, widgets.Curve{Name: roc.Class, X: roc.FPR, Y: roc.TPR, Mark: -1})
				}
				return out
			}))
			return &rocView{m: m, note: note, st: env.C.Styles, r: r}
		}})
}

// rocView is the ROC curves with their areas. With room to spare (a wide
// terminal) the plot keeps a square aspect and the areas are listed
// beside it.
type rocView struct {
	m     widgets.ROC
	note  string
	st    *themes.Styles
	r     *kit.RunRecord
	sideW int // width of the AUC list beside the plot; 0 when there is none
	w, h  int
}

func (v *rocView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyPressMsg); ok {
		v.m, cmd = v.m.Update(msg)
	}
	return cmd
}
func (v *rocView) View() string {
	body := v.m.View()
	if v.sideW > 0 {
		body = lipgloss.JoinHorizontal(lipgloss.Top, body, "  ", v.aucList())
	}
	return withNote(v.st, v.note, body)
}

// aucList is every curve's area, best first, beside the macro mean.
func (v *rocView) aucList() string {
	st := v.st
	rocs := slices.Clone(v.r.Result.ROC)
	sort.SliceStable(rocs, func(i, j int) bool { return rocs[i].AUC > rocs[j].AUC })
	lines := []string{st.Header.Render("area under each curve")}
	for _, c := range rocs {
		lines = append(lines, st.Text.Render(kit.FitWidth(kit.Clip(c.Class, v.sideW-8), v.sideW-8))+st.Value.Render(numfmt.Fixed(c.AUC, 3)))
	}
	if len(rocs) > 1 {
		lines = append(lines, "", st.Muted.Render(kit.FitWidth("macro mean", v.sideW-8))+
			st.Value.Render(numfmt.Fixed(metrics.MacroAUC(v.r.Result.ROC), 3)))
	}
	return strings.Join(lines, "\n")
}

func (v *rocView) SetSize(w, h int) {
	v.w, v.h = w, h
	h -= noteLines(v.note)
	// A square plot is about twice as wide as tall (a cell is twice as
	// tall as wide); what is left over, if enough, lists the areas.
	v.sideW = 0
	if square := 2*h + 6; w-square >= 36 {
		v.sideW = min(w-square-2, 48)
		w = square
	}
	v.m.SetSize(w, h)
}
func (v *rocView) Keys() []key.Binding { return v.m.KeyMap.ShortHelp() }

package views

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/ensemble"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Members", Order: ensemble.CapMembers.Order, Needs: HasLearned(ensemble.CapMembers.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			m, _ := eval.LearnedAs[*ensemble.Members](r.Result, ensemble.CapMembers.Name)
			labels := make([]string, len(m.Members))
			errs := make([]float64, len(m.Members))
			for i, x := range m.Members {
				labels[i] = memberLabel(x)
				errs[i] = x.Error
			}
			return &membersView{c: env.C, m: m, bars: widgets.NewBars(labels, errs, env.C.Styles)}
		}})
}

// memberLabel is a member as a bar names it: its name, and its weight
// (voting) or what it feeds the meta-model (stacking).
func memberLabel(x ensemble.MemberInfo) string {
	switch {
	case x.Feeds != "":
		return fmt.Sprintf("%s (%s)", x.Name, x.Feeds)
	case x.Weight != 1:
		return fmt.Sprintf("%s ×%s", x.Name, numfmt.Sig(x.Weight, 3))
	}
	return x.Name
}

// membersView shows an ensemble's members, each with its own error, the
// yardstick the ensemble's scores are read against.
type membersView struct {
	c    *kit.Common
	m    *ensemble.Members
	bars widgets.Bars
	w, h int
}

func (v *membersView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyPressMsg); ok {
		v.bars, cmd = v.bars.Update(msg)
	}
	return cmd
}

func (v *membersView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.bars.SetSize(w, max(h-1, 1))
}

func (v *membersView) Keys() []key.Binding { return v.bars.KeyMap.ShortHelp() }

func (v *membersView) View() string {
	head := fmt.Sprintf(" %s of %s", v.m.Method, numfmt.Count(len(v.m.Members), "member"))
	if v.m.Final != "" {
		head += " into " + v.m.Final
	}
	head += " · bars: each member's " + v.m.Error
	return v.c.Styles.Title.Render(kit.Clip(head, v.w)) + "\n" + v.bars.View()
}

package views

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Rules", Order: engine.CapRules.Order, Needs: HasLearned(engine.CapRules.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			rules, _ := eval.LearnedAs[engine.Rules](r.Result, engine.CapRules.Name)
			v := &rulesView{c: env.C, r: r, rules: rules, forest: forestOf(r),
				up: kit.Bind("↑", "scroll", "up", "k"), down: kit.Bind("↓", "scroll", "down", "j"),
				sortKey: kit.Bind("s", "order: tree / support", "s")}
			if t, ok := eval.LearnedAs[*engine.Tree](r.Result, engine.CapTree.Name); ok && t != nil {
				v.label = t.Label
			}
			return v
		}})
	Register(Spec{Name: "Importance", Order: engine.CapImportances.Order, Needs: HasLearned(engine.CapImportances.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			imp, _ := eval.LearnedAs[*engine.Importances](r.Result, engine.CapImportances.Name)
			v := &importanceView{c: env.C, imp: imp, bars: widgets.NewBars(imp.Features, imp.Values, env.C.Styles)}
			v.bars.SetSorted(true)
			return v
		}})
}

// rulesView lists IF-THEN rules, one per leaf: the outcome with its rows,
// confidence and class distribution, then the conditions one per line.
// s orders them by support instead of the tree's left-to-right order.
type rulesView struct {
	c                 *kit.Common
	r                 *kit.RunRecord
	rules             engine.Rules
	forest            engine.Forester // the model's trees, < and > page through their rules; nil for one
	at                int             // which of them the rules are of
	label             string          // that tree's Label
	bySupport         bool
	idx               []int // order(), nil until asked
	off               int   // first rule shown
	up, down, sortKey key.Binding
	w, h              int
}

// order lists the rules' indices as shown, computed once for each
// ordering (a deep tree has a hundred thousand rules).
func (v *rulesView) order() []int {
	if v.idx != nil {
		return v.idx
	}
	idx := make([]int, v.rules.Len())
	for i := range idx {
		idx[i] = i
	}
	if v.bySupport {
		sort.SliceStable(idx, func(a, b int) bool { return v.rules.Support(idx[a]) > v.rules.Support(idx[b]) })
	}
	v.idx = idx
	return idx
}

func (v *rulesView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if at, t, ok := pageTree(v.forest, v.at, km); ok {
		v.at, v.rules, v.label, v.off, v.idx = at, t.Rules(), t.Label, 0, nil
		return nil
	}
	switch {
	case key.Matches(km, v.up):
		v.off = max(v.off-1, 0)
	case key.Matches(km, v.down):
		v.off = min(v.off+1, max(v.rules.Len()-1, 0))
	case key.Matches(km, v.sortKey):
		v.bySupport = !v.bySupport
		v.off, v.idx = 0, nil
	}
	return nil
}

func (v *rulesView) SetSize(w, h int) { v.w, v.h = w, h }

func (v *rulesView) Keys() []key.Binding {
	if v.forest != nil {
		return []key.Binding{v.up, v.down, v.sortKey, treePages.prev, treePages.next}
	}
	return []key.Binding{v.up, v.down, v.sortKey}
}

func (v *rulesView) View() string {
	st := v.c.Styles
	order := "in the tree's order"
	if v.bySupport {
		order = "most rows first"
	}
	head := fmt.Sprintf(" %s, one per leaf, %s", numfmt.Count(v.rules.Len(), "rule"), order)
	if v.label != "" {
		head = " " + v.label + " ·" + head
	}
	if res := v.r.Result; res != nil && res.FittedOn != "" {
		head += " · fitted on " + res.FittedOn
	}
	out := []string{st.Title.Render(kit.Clip(head, v.w))}
	for n, i := range v.order() {
		if n < v.off {
			continue
		}
		rule := v.rules.At(i)
		conf := ""
		if c := rule.Confidence(); c == c {
			conf = " · " + numfmt.Percent(c)
		}
		bar := ""
		if len(rule.Counts) > 0 {
			bar = " " + classBar(st, rule.Counts, 10)
		}
		lines := []string{st.Header.Render(fmt.Sprintf(" %d. THEN %s", i+1, rule.Outcome)) +
			st.Muted.Render(fmt.Sprintf(" · %s%s", numfmt.Count(rule.Support, "row"), conf)) + bar}
		if len(rule.Conds) == 0 && rule.Text != "" {
			lines = append(lines, "    "+rule.Condition())
		}
		for k, c := range rule.Conds {
			word := "IF  "
			if k > 0 {
				word = "AND "
			}
			lines = append(lines, "    "+st.Muted.Render(word)+c.String())
		}
		if len(out)+len(lines) > v.h {
			if len(out) == 1 { // one long rule: show what fits
				out = append(out, lines[:max(v.h-1, 0)]...)
			}
			break
		}
		out = append(out, lines...)
	}
	for i, l := range out {
		out[i] = kit.FitWidth(l, v.w)
	}
	return strings.Join(out, "\n")
}

// importanceView draws feature importances as sorted bars.
type importanceView struct {
	c    *kit.Common
	imp  *engine.Importances
	bars widgets.Bars
	w, h int
}

func (v *importanceView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyPressMsg); ok {
		v.bars, cmd = v.bars.Update(msg)
	}
	return cmd
}

func (v *importanceView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.bars.SetSize(w, max(h-1, 1))
}

func (v *importanceView) Keys() []key.Binding { return v.bars.KeyMap.ShortHelp() }

func (v *importanceView) View() string {
	head := " feature importances: " + v.imp.Method
	return v.c.Styles.Title.Render(kit.Clip(head, v.w)) + "\n" + v.bars.View()
}

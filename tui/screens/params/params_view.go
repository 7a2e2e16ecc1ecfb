package params

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
)

// View draws the form, the focused parameter's help beside it (under it
// when narrow) and the evaluation settings.
func (s *Screen) View() string {
	st := s.c.Styles
	if s.Spec == nil {
		return st.Muted.Render(" Choose a model first.")
	}
	w := s.w
	// From 110 columns the focused parameter's full help sits in a panel
	// beside the form; narrower, it goes under the form, wrapped, whole.
	sideW := 0
	if w >= 110 {
		sideW = min(max(w/3, 36), 60)
	}
	formW := w - sideW
	var out []string
	out = append(out, st.Title.Render(kit.Clip(" Hyperparameters of "+s.Spec.Title+" ("+s.Spec.Name+")", formW)))
	out = append(out, st.Muted.Render(kit.Clip(" "+s.Spec.Summary, formW)))
	nameW, ctlW := 16, 18
	rngW := min(30, max(formW-nameW-ctlW-8, 12))
	helpW := formW - nameW - ctlW - rngW - 8
	if helpW < 16 { // no room: the help is in the panel or under the form
		helpW = 0
	}
	vis := s.Visible()
	cur := s.Current()
	values := s.modelValues()
	var rows []string
	focusRow := 0
	section := ""
	for _, f := range vis {
		sec := "Model"
		if !f.Model {
			sec = "Evaluation"
		}
		if sec != section {
			section = sec
			if sec == "Model" && len(s.Spec.Params) == 0 {
				continue
			}
			rows = append(rows, st.Header.Render(" "+sec))
			if sec == "Evaluation" && !s.task().Supervised() {
				for _, l := range strings.Split(kit.Wrap(s.unsupervisedNote(), formW-4), "\n") {
					rows = append(rows, st.Muted.Render("   "+l))
				}
			}
		}
		applies, why := true, ""
		if f.Model {
			applies, why = f.P.AppliesTo(values)
		}
		mark := "  "
		if f == cur {
			mark = st.Accent.Render("▸ ")
		}
		name := kit.FitWidth(kit.Clip(f.P.Name, nameW), nameW)
		switch {
		case f == cur:
			name = st.Accent.Render(name)
		case !applies:
			name = st.Subtle.Render(name)
		default:
			name = st.Text.Render(name)
		}
		ctl := s.control(f, f == cur, ctlW, applies)
		rng := f.rangeText()
		if f.P.Log {
			rng += " · log"
		}
		var tail string
		switch {
		case f.Err != nil:
			tail = st.Bad.Render("✗ " + kit.Clip(shortErr(f.Err), rngW+helpW))
		case !applies:
			tail = st.Subtle.Render(kit.Clip("("+why+")", rngW+helpW+2))
		default:
			tail = st.Muted.Render(kit.FitWidth(kit.Clip(rng, rngW), rngW))
			if helpW > 0 {
				help := f.P.Help
				if def := engine.Format(f.P.Default); f.Model && f.Raw() != def {
					help = "default " + def + " · " + help
				}
				tail += "  " + st.Muted.Render(kit.Clip(help, helpW))
			}
		}
		if f == cur {
			focusRow = len(rows)
		}
		rows = append(rows, " "+mark+name+" "+ctl+"  "+tail)
	}
	if len(s.Spec.Params) == 0 {
		rows = append([]string{st.Muted.Render("   (this model has no hyperparameters)")}, rows...)
		focusRow++
	}
	var about []string
	if sideW == 0 && cur != nil {
		about = s.about(cur, values, w-2, false) // the status line below says its error
	}
	// Scroll so the focused row is visible.
	avail := max(s.h-len(out)-3-len(about), 3)
	if focusRow < s.offset {
		s.offset = focusRow
	}
	if focusRow >= s.offset+avail {
		s.offset = focusRow - avail + 1
	}
	s.offset = min(s.offset, max(len(rows)-avail, 0))
	end := min(s.offset+avail, len(rows))
	out = append(out, rows[s.offset:end]...)
	if end < len(rows) {
		out = append(out, st.Muted.Render(fmt.Sprintf("   ↓ %d more", len(rows)-end)))
	}
	out = append(out, "")
	for _, l := range about {
		out = append(out, " "+l)
	}
	switch {
	case s.Err != nil:
		out = append(out, " "+st.Error.Render(kit.Clip(s.c.ErrText(s.Err), formW-2)))
	case cur != nil && cur.Err != nil:
		out = append(out, " "+st.Error.Render(kit.Clip(cur.Err.Error(), formW-2)))
	default:
		out = append(out, st.Muted.Render(" enter trains with these settings"))
	}
	if o, err := s.Options(); err == nil && o.LOO && s.ds != nil && s.task().Supervised() {
		// Leave-one-out is one fit per row: say how many before they start.
		n := s.ds.Rows()
		msg := fmt.Sprintf(" leave-one-out fits the model %d times, once per row (and once more on all rows)", n)
		if n > eval.LOOWarnRows { // as eval warns after the run
			out = append(out, st.Warn.Render(kit.Clip("⚠"+msg+": k-fold CV is far quicker", formW-1)))
		} else {
			out = append(out, st.Muted.Render(kit.Clip(msg, formW)))
		}
	}
	form := strings.Join(out, "\n")
	if sideW == 0 || cur == nil {
		return form
	}
	lines := s.about(cur, values, sideW-4, true)
	side := kit.Panel(st, cur.P.Name, strings.Join(lines, "\n"), sideW, min(s.h, len(lines)+2), false)
	return lipgloss.JoinHorizontal(lipgloss.Top, kit.Fit(form, formW, s.h), side)
}

// about is everything there is to know about field f, wrapped to w cells:
// its help in full, kind and range, default, its choices, how + and -
// step it, whether it applies, and, when withErr, its error in full.
func (s *Screen) about(f *Field, values engine.Values, w int, withErr bool) []string {
	st := s.c.Styles
	var lines []string
	add := func(sty lipgloss.Style, text string) {
		for _, l := range strings.Split(kit.Wrap(text, w), "\n") {
			lines = append(lines, sty.Render(l))
		}
	}
	add(st.Text, f.P.Help)
	if f.P.Detail != "" {
		add(st.Text, f.P.Detail)
	}
	meta := f.rangeText()
	if f.Model {
		meta += " · default " + engine.Format(f.P.Default)
	}
	add(st.Muted, meta)
	switch f.P.Kind {
	case engine.Int, engine.Float:
		step := "+ and - step it"
		switch {
		case f.P.Log:
			step += " along 1, 3, 10, 30… (a log scale)"
		case f.P.Kind == engine.Int:
			step += " by 1"
		}
		add(st.Muted, step)
	case engine.Choice:
		add(st.Muted, "←/→ choose: "+strings.Join(f.P.Choices, ", "))
	}
	if f.Model {
		if ok, why := f.P.AppliesTo(values); !ok {
			add(st.Warn, "Not used now: "+why+". Its value is kept.")
		}
	}
	if withErr && f.Err != nil {
		add(st.Error, f.Err.Error())
	}
	return lines
}

// control draws a field's editor ctlW cells wide, dimmed when the
// parameter does not apply.
func (s *Screen) control(f *Field, focused bool, ctlW int, applies bool) string {
	st := s.c.Styles
	if !applies && !focused {
		return st.Subtle.Render(kit.FitWidth(" "+kit.Clip(f.Raw(), ctlW-2), ctlW))
	}
	switch f.P.Kind {
	case engine.Choice:
		c := f.Raw()
		text := "‹ " + kit.Clip(c, ctlW-4) + " ›"
		if focused {
			return st.SelectedRow.Render(kit.FitWidth(text, ctlW))
		}
		return st.Value.Render(kit.FitWidth("  "+kit.Clip(c, ctlW-4), ctlW))
	case engine.Bool:
		box := "[ ] false"
		if f.on {
			box = "[x] true"
		}
		if focused {
			return st.SelectedRow.Render(kit.FitWidth(box, ctlW))
		}
		return st.Value.Render(kit.FitWidth(box, ctlW))
	}
	v := "[" + kit.FitWidth(f.Input.View(st, ctlW-3), ctlW-2) + "]"
	if f.Err != nil {
		return st.Bad.Render(v)
	}
	if focused {
		return st.Accent.Render(v)
	}
	return st.Value.Render(v)
}

// shortErr drops the "parameter name: " prefix the row already shows.
func shortErr(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "parameter ") {
		return msg[i+2:]
	}
	return msg
}

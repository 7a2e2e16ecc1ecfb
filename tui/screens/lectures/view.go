package lectures

import (
	"fmt"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/report"
	"github.com/tealab/tealab/tui/kit"
)

func (s *Screen) View() string {
	switch s.mode {
	case knobs:
		return s.knobsView()
	case picture:
		return s.pictureView()
	}
	return s.menuView()
}

// menuWidth is the width of the menu's list of experiments.
const menuWidth = 24

// menuView lists the experiments, the chosen one described beside them,
// and the runs the history keeps under them.
func (s *Screen) menuView() string {
	st := s.c.Styles
	all := lecture.All()
	var left []string
	left = append(left, st.Header.Render(kit.FitWidth(" experiments", menuWidth)))
	for i, e := range all {
		line := kit.FitWidth("  "+e.Name, menuWidth)
		if i == s.cursor {
			line = st.SelectedRow.Render(kit.FitWidth("▸ "+e.Name, menuWidth))
		}
		left = append(left, line)
	}
	left = append(left, "")
	if len(s.past) > 0 {
		left = append(left, st.Header.Render(kit.FitWidth(" recorded", menuWidth)))
	}
	room := s.h - len(left) - 1
	first := 0
	if at := s.cursor - len(all); at >= room && room > 0 {
		first = at - room + 1
	}
	for i := first; i < len(s.past) && i-first < room; i++ {
		en := s.past[i]
		text := en.Lab.Experiment + " " + en.Time.Local().Format("01-02 15:04")
		if en.Name != "" {
			text = en.Name
		}
		line := kit.FitWidth("  "+text, menuWidth)
		if len(all)+i == s.cursor {
			line = st.SelectedRow.Render(kit.FitWidth("▸ "+text, menuWidth))
		}
		left = append(left, line)
	}
	rw := s.w - menuWidth - 2
	var right []string
	if s.cursor < len(all) {
		right = s.describe(all[s.cursor], rw)
	} else if i := s.cursor - len(all); i < len(s.past) {
		right = s.describePast(s.past[i], rw)
	}
	if s.note != "" {
		right = append(right, "", st.Warn.Render(kit.Clip(s.note, rw)))
	}
	out := make([]string, s.h)
	for i := range out {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = kit.FitWidth(l, menuWidth) + "  " + kit.FitWidth(r, rw)
	}
	return strings.Join(out, "\n")
}

// describe is an experiment's title, what it shows, its source and knobs.
func (s *Screen) describe(e *lecture.Experiment, w int) []string {
	st := s.c.Styles
	out := []string{st.Title.Render(kit.Clip(e.Title, w)), ""}
	for _, l := range strings.Split(kit.Wrap(e.Summary, w), "\n") {
		out = append(out, st.Text.Render(l))
	}
	out = append(out, "")
	for _, l := range strings.Split(kit.Wrap("Source: "+e.Source, w), "\n") {
		out = append(out, st.Muted.Render(l))
	}
	out = append(out, "", st.Header.Render("knobs"))
	for _, p := range e.Knobs {
		out = append(out, kit.Clip(fmt.Sprintf("  %-12s %-14s %s", p.Name, kit.Clip(engine.Format(p.Default), 14), p.Help), w))
	}
	out = append(out, "", st.Muted.Render(kit.Clip("enter sets its knobs · tealab lab "+e.Name+" runs it from the shell", w)))
	return out
}

// describePast is a recorded run: when, its knobs, how it ended.
func (s *Screen) describePast(en *runs.Entry, w int) []string {
	st := s.c.Styles
	title := en.Lab.Experiment
	if e, err := lecture.Lookup(en.Lab.Experiment); err == nil {
		title = e.Title
	}
	out := []string{st.Title.Render(kit.Clip(title, w)), "",
		st.Text.Render(kit.Clip(fmt.Sprintf("recorded %s · %s in %s", en.Time.Local().Format("2006-01-02 15:04"), en.Lab.Status, numfmt.Seconds(en.Seconds)), w)), ""}
	for _, a := range en.Lab.Args {
		out = append(out, kit.Clip(fmt.Sprintf("  %-12s %s", a[0], a[1]), w))
	}
	return append(out, "", st.Muted.Render(kit.Clip("enter shows it again", w)))
}

// knobsView is the form: a knob a line, the one under the cursor with its
// help, range and error.
func (s *Screen) knobsView() string {
	st := s.c.Styles
	e := s.exp
	out := []string{st.Title.Render(kit.Clip(" "+e.Title, s.w)), st.Muted.Render(kit.Clip(" "+e.Source, s.w)), ""}
	cur := s.form.current()
	ctlW := min(30, max(s.w/3, 12))
	for _, f := range s.form.visible() {
		mark := "  "
		if f == cur {
			mark = "▸ "
		}
		var ctl string
		if cs := f.choices(); cs != nil {
			ctl = "‹ " + cs[f.choice] + " ›"
		} else {
			ctl = f.in.View(st, ctlW)
		}
		name := kit.FitWidth(mark+f.p.Name, 16)
		if f == cur {
			name = st.Accent.Render(name)
		}
		line := name + kit.FitWidth(ctl, ctlW+2) + st.Muted.Render(kit.Clip(f.p.Help, max(s.w-18-ctlW, 0)))
		out = append(out, line)
		if f.err != nil {
			out = append(out, st.Error.Render(kit.Clip("    "+f.err.Error(), s.w)))
		}
	}
	if cur != nil {
		about := cur.p.Range()
		if cur.p.Kind == engine.Text && cur.p.Detail != "" {
			about = cur.p.Detail
		}
		out = append(out, "")
		for _, l := range strings.Split(kit.Wrap(cur.p.Name+": "+about, s.w-2), "\n") {
			out = append(out, st.Muted.Render(" "+l))
		}
	}
	if s.err != nil {
		out = append(out, "", st.Error.Render(kit.Clip(" "+s.c.ErrText(s.err), s.w)))
	}
	out = append(out, "", st.Muted.Render(kit.Clip(" enter runs it · the same seed draws the same picture", s.w)))
	return strings.Join(out, "\n")
}

// pictureView is the experiment's picture, partial while it is computed,
// under a line saying what it is and how it went.
func (s *Screen) pictureView() string {
	st := s.c.Styles
	res := any(nil)
	if s.rec != nil {
		res = s.rec.Result
	}
	if s.job != nil {
		res = s.last.Result
	}
	ph := max(s.h-2, 1)
	var body []string
	if res == nil {
		body = []string{st.Muted.Render(" computing…")}
	} else {
		pic := report.DrawLecture(s.exp.Name, res, report.LectureView{Width: s.w - 1, Height: ph, Frame: s.frame})
		for _, l := range pic.Lines {
			body = append(body, " "+s.ink(l, pic.Inks))
		}
	}
	head := kit.Clip(st.Title.Render(" "+s.exp.Title)+st.Muted.Render(" · "+s.exp.Source), s.w)
	return head + "\n" + kit.Fit(strings.Join(body, "\n"), s.w, ph) + "\n" + s.status()
}

// ink colours the glyphs of a picture's series, a run of one ink at a time.
func (s *Screen) ink(line string, inks map[rune]int) string {
	if len(inks) == 0 || s.c.Styles.Colorless {
		return line
	}
	var b, run strings.Builder
	cur := -1
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if cur < 0 {
			b.WriteString(run.String())
		} else {
			b.WriteString(s.c.Styles.SeriesStyle(cur).Render(run.String()))
		}
		run.Reset()
	}
	for _, r := range line {
		i, ok := inks[r]
		if !ok {
			i = -1
		}
		if i != cur {
			flush()
			cur = i
		}
		run.WriteRune(r)
	}
	flush()
	return b.String()
}

// status says how the run goes or went, and what the keys do.
func (s *Screen) status() string {
	st := s.c.Styles
	switch {
	case s.job != nil:
		what := " computing"
		if s.last.Total > 0 {
			what += fmt.Sprintf(": %d of %d", s.last.Done, s.last.Total)
		}
		return st.Accent.Render(kit.Clip(what+" · c cancels", s.w))
	case s.note != "":
		return st.Warn.Render(kit.Clip(" "+s.note, s.w))
	case s.rec == nil:
		return ""
	case s.rec.Status == lecture.Failed:
		return st.Error.Render(kit.Clip(" "+s.c.Hide(s.rec.Error)+" · e edits the knobs", s.w))
	}
	var parts []string
	if s.rec.Status == lecture.Cancelled {
		parts = append(parts, "cancelled: what was computed so far")
	} else {
		parts = append(parts, "done in "+numfmt.Seconds(s.rec.Wall.Seconds()))
	}
	if n := s.frames(); n > 1 {
		state := "space plays"
		if s.play != 0 {
			state = "playing"
		}
		parts = append(parts, fmt.Sprintf("frame %d of %d (%s)", s.frame+1, n, state))
	}
	parts = append(parts, "knobs: "+s.rec.ArgsText())
	return st.Muted.Render(kit.Clip(" "+strings.Join(parts, " · "), s.w))
}

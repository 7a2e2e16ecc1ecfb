package model

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

type keys struct {
	up, down, pgUp, pgDown key.Binding
	choose                 key.Binding
	experiment             key.Binding
	lectures               key.Binding
}

// DefaultKeys are the model screen's key bindings.
func DefaultKeys() keys {
	return keys{
		up:     kit.Bind("↑/k", "up", "up", "k"),
		down:   kit.Bind("↓/j", "down", "down", "j"),
		pgUp:   kit.Bind("pgup", "page up", "pgup"),
		pgDown: kit.Bind("pgdn", "page down", "pgdown"),
		choose: kit.Bind("enter", "choose", "enter"),
		// several models on identical folds (the Experimenter screen)
		experiment: kit.Bind("X", "experimenter", "X"),
		// the lecture notes' experiments
		lectures: kit.Bind("L", "lectures", "L"),
	}
}

// Screen lists the registered models that can learn the dataset's task,
// grouped by family (the registry drives it: no model is named here).
type Screen struct {
	c     *kit.Common
	keys  keys
	Task  datasets.Task
	All   []*engine.Spec // those that run on the data, by family then name
	Specs []*engine.Spec // those of all the filter keeps
	// filter narrows the list by name, title or family (/).
	filter kit.ListFilter
	// TooBig says why a model's fit of the data with its defaults cannot
	// be made (modelFits: the machine's memory, or an image model on data
	// that are no image), by model name: the list greys it and says so;
	// the form may still choose settings that fit (fewer trees, another
	// linkage, a shape).
	TooBig map[string]string
	others int    // registered models for other tasks
	start  string // the model the cursor starts on (startModel)
	Cursor int
	offset int // first list line shown
	err    error
	w, h   int
}

// New is the model screen, drawn with c.
func New(c *kit.Common) *Screen {
	s := &Screen{c: c, keys: DefaultKeys(), filter: kit.NewListFilter()}
	s.SetData(nil, "")
	return s
}

// SetData lists the models that run on d (nil: before any data, as for
// classification), and puts the cursor on keep if listed: the models that
// learn d's task first, then the clustering and reduction models, which run
// on any data (their own task in the menu).
func (s *Screen) SetData(d *datasets.Dataset, keep string) {
	t := datasets.Classification
	if d != nil {
		t = d.Task
	}
	s.Task, s.All, s.others, s.err, s.TooBig = t, nil, 0, nil, map[string]string{}
	for _, sp := range engine.Specs() {
		if _, ok := sp.RunsOn(t); ok {
			s.All = append(s.All, sp)
			if d == nil {
				continue
			}
			if err := kit.ModelFits(d, sp); err != nil {
				s.TooBig[sp.Name] = s.c.ErrText(err)
			}
		} else {
			s.others++
		}
	}
	rank := func(sp *engine.Spec) int {
		u, _ := sp.RunsOn(t)
		if u == t {
			return -1
		}
		return int(u)
	}
	slices.SortStableFunc(s.All, func(a, b *engine.Spec) int { return rank(a) - rank(b) })
	s.start = s.startModel(d)
	s.refilter(keep)
}

// startModel is the model the cursor starts on for d: the first listed
// that learns d's task, fits the machine's memory, has no advice against
// d's columns (Spec.Advise), and is made for data like d: a model that
// asks for nominal codes as they are (Input.Nominal) when d has nominal
// columns, one that does not when they are all numeric (naive Bayes on
// level counts is Gaussian naive Bayes under another name on numeric
// columns). Failing that, the first that fits the memory; "" before data.
func (s *Screen) startModel(d *datasets.Dataset) string {
	if d == nil {
		return ""
	}
	nominal := slices.ContainsFunc(d.Features, func(c datasets.Column) bool { return c.Kind == datasets.Nominal })
	fallback := ""
	for _, sp := range s.All {
		if _, big := s.TooBig[sp.Name]; big || !sp.Supports(s.Task) {
			continue
		}
		if sp.Input.Nominal == nominal && (sp.Advise == nil || len(sp.Advise(d.Features)) == 0) {
			return sp.Name
		}
		if fallback == "" {
			fallback = sp.Name
		}
	}
	return fallback
}

// refilter lists the models the filter keeps, the cursor on the one the
// query names exactly (listFilter.exactness), else on keep if listed, else
// on the start model if listed, else on the first.
func (s *Screen) refilter(keep string) {
	s.Specs = s.Specs[:0]
	best, exact := "", 0
	for _, sp := range s.All {
		if s.filter.Match(sp.Name + " " + sp.Title + " " + sp.Family) {
			s.Specs = append(s.Specs, sp)
			if e := s.filter.Exactness(sp.Name, sp.Title); e > exact {
				best, exact = sp.Name, e
			}
		}
	}
	if exact > 0 {
		keep = best
	}
	s.Cursor, s.offset = 0, 0
	s.Point(s.start)
	s.Point(keep)
}

// Selected is the model under the cursor, nil when none is listed.
func (s *Screen) Selected() *engine.Spec {
	if s.Cursor < len(s.Specs) {
		return s.Specs[s.Cursor]
	}
	return nil
}

// ownTask counts the models that learn the data's own task: those the
// title's count is of (the clustering and reduction models listed below
// them run on any data and are counted apart).
func (s *Screen) ownTask() (own, anyData int) {
	for _, sp := range s.All {
		if sp.Supports(s.Task) {
			own++
		} else {
			anyData++
		}
	}
	return own, anyData
}

// SetError shows err (a model the start-up asked for that cannot run).
func (s *Screen) SetError(err error) { s.err = err }

// Point puts the cursor on the named model, if listed.
func (s *Screen) Point(name string) {
	for i, sp := range s.Specs {
		if sp.Name == name {
			s.Cursor = i
		}
	}
}

func (s *Screen) SetSize(w, h int) { s.w, s.h = w, h }
func (s *Screen) Typing() bool     { return s.filter.Editing }

// Back clears the filter, if any.
func (s *Screen) Back() bool {
	if !s.filter.Active() {
		return false
	}
	keep := s.Selected()
	s.filter.Clear()
	s.refilter(nameOf(keep))
	return true
}

func nameOf(sp *engine.Spec) string {
	if sp == nil {
		return ""
	}
	return sp.Name
}

func (s *Screen) ShortHelp() []key.Binding {
	if s.filter.Editing {
		return s.filter.Help()
	}
	return append([]key.Binding{s.keys.choose, s.keys.experiment}, s.filter.Help()...)
}

// FullHelp adds the lectures' experiments to the footer's keys: the
// data screen's footer offers them, this one has no room at 80 columns.
func (s *Screen) FullHelp() [][]key.Binding {
	more := s.navKeys()
	if !s.filter.Editing {
		more = append(more, s.keys.lectures)
	}
	return kit.HelpOf(s.ShortHelp(), more)
}

// navKeys move the cursor; typing in the filter, they are the field's.
func (s *Screen) navKeys() []key.Binding {
	if s.filter.Editing {
		return nil
	}
	return []key.Binding{s.keys.up, s.keys.down, s.keys.pgUp, s.keys.pgDown}
}

// HeaderInfo is what the header says on the right while the screen shows.
func (s *Screen) HeaderInfo() string {
	own, _ := s.ownTask()
	return numfmt.Count(own, "model") + " for " + s.Task.String()
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if used, changed := s.filter.Update(km); used {
		if changed {
			s.refilter(nameOf(s.Selected()))
		}
		return nil
	}
	if len(s.Specs) == 0 {
		return nil
	}
	page := max(s.listHeight()/2, 1)
	switch {
	case key.Matches(km, s.keys.up):
		s.Cursor = max(s.Cursor-1, 0)
	case key.Matches(km, s.keys.down):
		s.Cursor = min(s.Cursor+1, len(s.Specs)-1)
	case key.Matches(km, s.keys.pgUp):
		s.Cursor = max(s.Cursor-page, 0)
	case key.Matches(km, s.keys.pgDown):
		s.Cursor = min(s.Cursor+page, len(s.Specs)-1)
	case key.Matches(km, s.keys.experiment):
		return func() tea.Msg { return kit.OpenExperimentMsg{} }
	case key.Matches(km, s.keys.lectures):
		return func() tea.Msg { return kit.OpenLecturesMsg{} }
	case key.Matches(km, s.keys.choose):
		sp := s.Specs[s.Cursor]
		s.err = nil
		return func() tea.Msg { return kit.ModelChosenMsg{Spec: sp} }
	}
	return nil
}

// listHeight is the number of lines for the list; the rest shows the
// highlighted model's parameters.
func (s *Screen) listHeight() int { return max(s.h-2-s.detailHeight(), 3) }

// detailHeight gives the panel what the list does not need (at least 7 lines).
func (s *Screen) detailHeight() int {
	lines := len(s.Specs)
	fam := ""
	for _, sp := range s.Specs {
		if sp.Family != fam {
			fam = sp.Family
			lines++
		}
	}
	return max(s.h-2-lines, 7)
}

func (s *Screen) View() string {
	st := s.c.Styles
	w := s.w
	var out []string
	own, anyData := s.ownTask()
	title := st.Title.Render(fmt.Sprintf(" Models for %s (%d)", s.Task, own))
	var more []string
	if anyData > 0 {
		more = append(more, fmt.Sprintf("+%d that cluster or reduce", anyData))
	}
	if s.others > 0 {
		more = append(more, fmt.Sprintf("%d for other tasks", s.others))
	}
	if len(more) > 0 {
		title += st.Muted.Render(kit.Clip("   "+strings.Join(more, " · "), max(w-ansi.StringWidth(title), 0)))
	}
	out = append(out, title)
	switch {
	case s.err != nil:
		out = append(out, " "+st.Error.Render(kit.Clip(s.err.Error(), w-2)))
	case s.filter.Active():
		out = append(out, " "+kit.Clip(s.filter.Status(s.c.Styles, len(s.Specs), len(s.All)), w-2))
	default:
		out = append(out, "")
	}
	if len(s.Specs) == 0 {
		msg := fmt.Sprintf("  No registered model does %s yet.", s.Task)
		if len(s.All) > 0 {
			msg = "  No model matches the filter: esc clears it."
		}
		out = append(out, st.Muted.Render(msg))
		return strings.Join(out, "\n")
	}
	// The list: family headers and one line per model.
	type line struct {
		text  string
		model int // -1 for a header
	}
	var lines []line
	fam := ""
	nameW, titleW := 14, 26
	switch {
	case w < 100:
		titleW = 22
	case w >= 120:
		titleW = 31
	}
	for _, sp := range s.Specs {
		nameW = max(nameW, len(sp.Name)+1)
	}
	nameW = min(nameW, 20)
	for i, sp := range s.Specs {
		if sp.Family != fam {
			fam = sp.Family
			head := " " + fam
			if u, _ := sp.RunsOn(s.Task); u != s.Task {
				head += st.Muted.Render(" · " + u.String() + " (the target is not learned)")
			}
			lines = append(lines, line{text: st.Header.Render(head), model: -1})
		}
		// Columns by display cells (a title cut with … is one cell, three
		// bytes): name, title and summary; the sources are in the detail.
		left := kit.FitWidth(kit.Clip(sp.Name, nameW), nameW) + " " + kit.FitWidth(kit.Clip(sp.Title, titleW), titleW) + " "
		sumW := max(w-4-ansi.StringWidth(left), 0)
		text := left + kit.FitWidth(kit.Clip(sp.Summary, sumW), sumW)
		switch _, big := s.TooBig[sp.Name]; {
		case i == s.Cursor:
			lines = append(lines, line{text: " " + st.SelectedRow.Render("▸ "+text), model: i})
		case big: // marked for a screen without colour too
			lines = append(lines, line{text: " " + st.Muted.Render("⚠ "+text), model: i})
		default:
			lines = append(lines, line{text: "   " + st.Text.Render(text), model: i})
		}
	}
	lh := s.listHeight()
	cur := 0
	for j, l := range lines {
		if l.model == s.Cursor {
			cur = j
		}
	}
	if cur < s.offset+1 {
		s.offset = max(cur-1, 0) // keep the family header in view
	}
	if cur >= s.offset+lh {
		s.offset = cur - lh + 1
	}
	for j := s.offset; j < len(lines) && j < s.offset+lh; j++ {
		out = append(out, lines[j].text)
	}
	for len(out) < 2+lh {
		out = append(out, "")
	}
	out = append(out, s.detail(s.Specs[s.Cursor], w, s.detailHeight()))
	return strings.Join(out, "\n")
}

// detail is a panel with the model's summary and its hyperparameters.
func (s *Screen) detail(sp *engine.Spec, w, h int) string {
	st := s.c.Styles
	var b []string
	if why, big := s.TooBig[sp.Name]; big {
		for _, l := range strings.Split(kit.Wrap("⚠ with its defaults, "+why, w-4), "\n") {
			b = append(b, st.Error.Render(l))
		}
	}
	b = append(b, st.Text.Render(kit.Clip(sp.Summary, w-4)))
	for _, l := range strings.Split(kit.Wrap("sources: "+sp.Notes, w-4), "\n") {
		b = append(b, st.Muted.Render(l))
	}
	var meta []string
	if sp.Unit != "" {
		meta = append(meta, "one step is one "+sp.Unit)
	}
	if sp.Standardize {
		meta = append(meta, "features standardised")
	}
	if len(meta) > 0 {
		b = append(b, st.Muted.Render(kit.Clip(strings.Join(meta, " · "), w-4)))
	}
	if len(sp.Params) == 0 {
		b = append(b, st.Muted.Render("no hyperparameters"))
	}
	nameW, defW, rngW := 8, 7, 10
	for _, p := range sp.Params {
		nameW = max(nameW, ansi.StringWidth(p.Name))
		defW = max(defW, ansi.StringWidth(engine.Format(p.Default)))
		rngW = max(rngW, ansi.StringWidth(p.Range()))
	}
	nameW, defW, rngW = min(nameW, 18), min(defW, 12), min(rngW, 30)
	for _, p := range sp.Params {
		b = append(b, kit.Clip(kit.FitWidth(kit.Clip(p.Name, nameW), nameW)+" "+kit.FitWidth(kit.Clip(engine.Format(p.Default), defW), defW)+" "+
			kit.FitWidth(kit.Clip(p.Range(), rngW), rngW)+"  "+p.Help, w-4))
	}
	if len(b) > h-2 {
		more := len(b) - (h - 3)
		b = append(b[:h-3], st.Muted.Render(fmt.Sprintf("… %d more", more)))
	}
	return kit.Panel(st, sp.Title+" ("+sp.Name+")", strings.Join(b, "\n"), w, h, false)
}

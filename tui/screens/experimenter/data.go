package experimenter

import (
	"fmt"
	"os"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/tui/kit"
)

// The experiment's datasets: the session's, then those added on this
// screen, each named as tealab compare's --data names one (a built-in, a
// generator with its knobs, or a file, then its target, dropped columns and
// row names after the last colon), so that a file whose class is its first
// column, or that carries an id, can be compared too.

// added is a dataset added on this screen, as typed and as loaded.
type added struct {
	spec string
	ds   *datasets.Dataset
}

// dataMsg carries a dataset loaded off the update loop, or why it was not.
type dataMsg struct {
	spec string
	ds   *datasets.Dataset
	err  error
}

// Datasets are the datasets an experiment runs on: the session's when it
// has a target, then those added.
func (s *Screen) Datasets() []*datasets.Dataset {
	var out []*datasets.Dataset
	if s.ds != nil && s.ds.Task.Supervised() {
		out = append(out, s.ds)
	}
	for _, a := range s.added {
		out = append(out, a.ds)
	}
	return out
}

// rows is how many lines of the list are datasets (the session's, shown
// even when it has no target, then those added): the models follow.
func (s *Screen) dataRows() int { return 1 + len(s.added) }

// relist lists the models that learn every dataset's target and fit
// each, keeping the marks (and their order) of those still listed.
func (s *Screen) relist() {
	var was []string
	for _, i := range s.order {
		was = append(was, s.Specs[i].Name)
	}
	s.Specs, s.marked, s.order = nil, nil, nil
	data := s.Datasets()
	if len(data) == 0 {
		return
	}
	for _, sp := range engine.Specs() {
		if slices.IndexFunc(data, func(d *datasets.Dataset) bool { return !sp.Supports(d.Task) || kit.ModelFits(d, sp) != nil }) < 0 {
			s.Specs = append(s.Specs, sp)
		}
	}
	s.marked = make([]bool, len(s.Specs))
	for _, name := range was {
		if i := slices.IndexFunc(s.Specs, func(sp *engine.Spec) bool { return sp.Name == name }); i >= 0 {
			s.toggle(i)
		}
	}
	s.Cursor = min(s.Cursor, s.dataRows()+len(s.Specs)-1)
}

// openField opens the field a dataset is named in.
func (s *Screen) openField() tea.Cmd {
	s.field = kit.NewInput()
	s.field.Prompt = "add data: "
	s.field.Placeholder = "wine, moons:n=500, or a file such as x.csv:target=class,drop=id"
	s.field.CharLimit = 4096
	s.adding, s.note = true, ""
	return s.field.Focus()
}

// typed handles a key while the field is open: enter loads the dataset
// named, off the update loop.
func (s *Screen) typed(km tea.KeyPressMsg) tea.Cmd {
	if km.String() != "enter" {
		s.note = ""
		var cmd tea.Cmd
		s.field, cmd = s.field.Update(km)
		return cmd
	}
	spec := strings.TrimSpace(s.field.Value())
	if spec == "" {
		s.note = "name a dataset: a built-in, a generator or a file"
		return nil
	}
	c := s.c
	d, err := runs.ParseData(spec, func(source string) bool {
		path, err := c.DataSource(source)
		if err != nil {
			return false
		}
		_, err = os.Stat(path)
		return err == nil
	})
	if err != nil {
		s.note = spec + ": " + c.Hide(err.Error())
		return nil
	}
	s.adding, s.loading = false, spec
	return func() tea.Msg {
		ds, err := c.OpenData(d)
		if err == nil {
			err = ds.Trainable()
		}
		return dataMsg{spec: spec, ds: ds, err: err}
	}
}

// loaded adds a dataset that loaded, or says why it was not added.
func (s *Screen) loaded(m dataMsg) {
	if m.spec != s.loading {
		return // the screen moved on
	}
	s.loading = ""
	switch {
	case m.err != nil:
		s.note = m.spec + ": " + m.err.Error()
	case !m.ds.Task.Supervised():
		s.note = fmt.Sprintf("%s: an experiment compares models that predict a target; %s has none (name one: %s:target=COLUMN)", m.spec, m.ds.Name, m.spec)
	case slices.ContainsFunc(s.Datasets(), func(d *datasets.Dataset) bool { return d.Name == m.ds.Name }):
		s.note = fmt.Sprintf("%s: a dataset named %s is in the experiment already", m.spec, m.ds.Name)
	default:
		s.added = append(s.added, added{spec: m.spec, ds: m.ds})
		s.relist()
		s.note = fmt.Sprintf("added %s: %s", m.ds.Name, describe(m.ds))
		if len(s.Specs) == 0 {
			s.note += "; no model learns every dataset's target: x removes one"
		}
	}
}

// remove takes the added dataset on row i of the list out.
func (s *Screen) remove(row int) {
	i := row - 1
	switch {
	case i < 0:
		s.note = "the session's data stay in the experiment: x removes a dataset added here"
		return
	case i >= len(s.added):
		s.note = "x removes a dataset added here: move up to its row first"
		return
	}
	s.note = "removed " + s.added[i].ds.Name
	s.added = slices.Delete(s.added, i, i+1)
	s.relist()
}

// describe is a dataset in a few words: "178 × 13 · classification · class".
func describe(d *datasets.Dataset) string {
	s := fmt.Sprintf("%d × %d · %s", d.Rows(), len(d.Features), d.Task)
	if d.Target != nil {
		s += " · target " + d.Target.Name
	}
	return s
}

// dataLines are the list's dataset rows.
func (s *Screen) dataLines(w int) []string {
	st := s.c.Styles
	var out []string
	for row := range s.dataRows() {
		var line string
		if row == 0 {
			what := describe(s.ds) + " · session data"
			if !s.ds.Task.Supervised() {
				what = fmt.Sprintf("%s data, no target: left out", s.ds.Task)
			}
			line = fmt.Sprintf("  data  %-14s %s", s.ds.Name, what)
		} else {
			a := s.added[row-1]
			line = fmt.Sprintf("  data  %-14s %s", a.ds.Name, describe(a.ds))
			if a.spec != a.ds.Name {
				line += " · " + a.spec
			}
		}
		line = kit.Clip(line, w)
		switch {
		case row == s.Cursor:
			line = st.SelectedRow.Render(kit.FitWidth(line, w))
		case row == 0 && !s.ds.Task.Supervised():
			line = st.Muted.Render(line)
		}
		out = append(out, line)
	}
	if s.loading != "" {
		out = append(out, st.Muted.Render(kit.Clip("  data  loading "+s.loading+"…", w)))
	}
	return out
}

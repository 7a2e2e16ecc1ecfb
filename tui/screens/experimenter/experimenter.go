package experimenter

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/experiment"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

// The Experimenter screen: several models marked on a list, run on
// identical folds of repeated k-fold CV of the session's data and of any
// datasets added here (data.go), and the results as tealab compare prints
// them (mean ± std, v/* against the first marked model), with their
// validation curves overlaid on one dataset and the ranking over several.

type keys struct {
	up, down, mark, folds, repeats, run, cancel, export, add, remove key.Binding
}

// DefaultKeys are the Experimenter screen's key bindings.
func DefaultKeys() keys {
	return keys{
		up:      kit.Bind("↑/k", "up", "up", "k"),
		down:    kit.Bind("↓/j", "down", "down", "j"),
		mark:    kit.Bind("space", "mark", "space"),
		folds:   kit.Bind("f", "folds", "f"),
		repeats: kit.Bind("r", "repeats", "r"),
		run:     kit.Bind("enter", "run", "enter"), // short, so that f and r keep their place in an 80-cell footer
		cancel:  kit.Bind("c", "cancel (keeps what finished)", "c"),
		export:  kit.Bind("e", "export .md and .csv", "e"),
		add:     kit.Bind("a", "add data", "a"),
		remove:  kit.Bind("x", "remove data", "x", "delete"),
	}
}

var (
	expFoldChoices   = []int{3, 5, 10}
	expRepeatChoices = []int{1, 2, 5, 10}
)

// Msg carries an experiment's progress or, with outcome set, its end.
type Msg struct {
	id       int
	progress experiment.Progress
	outcome  *experiment.Outcome
	err      error
}

// Screen is the Experimenter: the models to compare, the experiment as it
// runs, and its outcome.
type Screen struct {
	c       *kit.Common
	ctx     context.Context // the lab's: quitting stops the experiment
	keys    keys
	ds      *datasets.Dataset // the session's
	added   []added           // datasets added here
	adding  bool              // the field naming one is open
	field   kit.TextField
	loading string // the dataset being loaded, as typed
	Specs   []*engine.Spec
	marked  []bool
	order   []int // marked models in the order they were marked (the first is the baseline)
	Cursor  int   // a row of the list: the datasets', then the models'
	Folds   int
	Repeats int

	id       int // of the experiment in flight or shown
	ch       chan Msg
	cancel   context.CancelFunc
	progress string
	Outcome  *experiment.Outcome
	note     string // what the last key did (an export, an error)
	curves   widgets.LineChart
	w, h     int
}

// New is the Experimenter screen, drawn with c.
func New(c *kit.Common, ctx context.Context) *Screen {
	return &Screen{c: c, ctx: ctx, keys: DefaultKeys(), Folds: experiment.DefaultFolds, Repeats: experiment.DefaultRepeats}
}

// SetData makes d the session's dataset, listing the models that learn
// every dataset's target and keeping the marks of those still listed.
func (s *Screen) SetData(d *datasets.Dataset) {
	if d == s.ds && s.Specs != nil {
		return
	}
	s.Stop()
	s.ds, s.Outcome, s.note = d, nil, ""
	s.relist()
}

// Running says whether an experiment is running.
func (s *Screen) Running() bool { return s.cancel != nil }

// Stop cancels the experiment in flight; its finished cells still arrive.
func (s *Screen) Stop() {
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *Screen) SetSize(w, h int) { s.w, s.h = w, h }

// Typing says whether a dataset is being named: letter keys are the
// field's then.
func (s *Screen) Typing() bool { return s.adding }

// Back closes the field, or leaves the results for the list.
func (s *Screen) Back() bool {
	if s.adding {
		s.adding = false
		return true
	}
	if s.Outcome != nil && !s.Running() {
		s.Outcome, s.note = nil, ""
		return true
	}
	return false
}

func (s *Screen) ShortHelp() []key.Binding {
	switch {
	case s.adding:
		return []key.Binding{kit.Bind("enter", "add", "enter")}
	case s.Running():
		return []key.Binding{s.keys.cancel}
	case s.Outcome != nil:
		return []key.Binding{s.keys.export}
	case s.ds == nil:
		return nil
	case len(s.Specs) == 0:
		return []key.Binding{s.keys.add, s.keys.remove}
	}
	return []key.Binding{s.keys.mark, s.keys.run, s.keys.folds, s.keys.repeats, s.keys.add}
}

func (s *Screen) FullHelp() [][]key.Binding {
	if s.adding || s.Running() || s.Outcome != nil || len(s.Specs) == 0 {
		return kit.HelpOf(s.ShortHelp())
	}
	return kit.HelpOf(s.ShortHelp(), []key.Binding{s.keys.remove, s.keys.up, s.keys.down})
}

// HeaderInfo is what the header says on the right while the screen shows.
func (s *Screen) HeaderInfo() string {
	return fmt.Sprintf("%d × %d-fold CV", s.Repeats, s.Folds)
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case Msg:
		return s.receive(msg)
	case dataMsg:
		s.loaded(msg)
		return nil
	case tea.KeyPressMsg:
		return s.Key(msg)
	}
	return nil
}

// Key handles a key press on the Experimenter.
func (s *Screen) Key(km tea.KeyPressMsg) tea.Cmd {
	switch {
	case s.adding:
		return s.typed(km)
	case s.Running():
		if key.Matches(km, s.keys.cancel) {
			s.Stop()
			s.progress = "cancelling…"
		}
	case s.Outcome != nil:
		if key.Matches(km, s.keys.export) {
			s.note = s.export()
		}
	case s.ds == nil:
	case key.Matches(km, s.keys.add):
		return s.openField()
	case key.Matches(km, s.keys.up):
		s.Cursor = max(s.Cursor-1, 0)
	case key.Matches(km, s.keys.down):
		s.Cursor = min(s.Cursor+1, s.dataRows()+len(s.Specs)-1)
	case key.Matches(km, s.keys.remove):
		s.remove(s.Cursor)
	case len(s.Specs) == 0:
	case key.Matches(km, s.keys.mark):
		if m := s.Cursor - s.dataRows(); m >= 0 {
			s.toggle(m)
		} else {
			s.note = "space marks a model; the datasets listed all take part (x removes one added here)"
		}
	case key.Matches(km, s.keys.folds):
		s.Folds = next(expFoldChoices, s.Folds)
	case key.Matches(km, s.keys.repeats):
		s.Repeats = next(expRepeatChoices, s.Repeats)
	case key.Matches(km, s.keys.run):
		return s.start()
	}
	return nil
}

// next is the choice after cur, round again after the last.
func next(choices []int, cur int) int {
	for i, c := range choices {
		if c == cur {
			return choices[(i+1)%len(choices)]
		}
	}
	return choices[0]
}

func (s *Screen) toggle(i int) {
	s.marked[i] = !s.marked[i]
	if s.marked[i] {
		s.order = append(s.order, i)
		return
	}
	for j, m := range s.order {
		if m == i {
			s.order = append(s.order[:j], s.order[j+1:]...)
			break
		}
	}
}

// start runs the marked models in the background.
func (s *Screen) start() tea.Cmd {
	if len(s.order) < 2 {
		s.note = "mark two models or more with space first"
		return nil
	}
	plan := experiment.Plan{Datasets: s.Datasets(), Folds: s.Folds, Repeats: s.Repeats, Seed: 1, Jobs: runtime.NumCPU()}
	for _, i := range s.order {
		sp := s.Specs[i]
		plan.Models = append(plan.Models, experiment.Model{Label: sp.Name, Spec: sp, Values: sp.Defaults()})
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.id++
	id, ch := s.id, make(chan Msg, 1)
	s.ch, s.cancel, s.note, s.Outcome = ch, cancel, "", nil
	s.progress = "starting…"
	c := s.c
	go func() {
		release, err := c.HoldSlot(ctx)
		if err != nil {
			ch <- Msg{id: id, err: err}
			close(ch)
			return
		}
		defer release()
		o, err := experiment.Run(ctx, plan, func(p experiment.Progress) {
			select { // the screen shows the latest; it may skip some
			case ch <- Msg{id: id, progress: p}:
			default:
			}
		})
		if o == nil && err == nil {
			err = context.Canceled
		}
		ch <- Msg{id: id, outcome: o, err: err}
		close(ch)
	}()
	return s.wait()
}

func (s *Screen) wait() tea.Cmd {
	ch := s.ch
	return func() tea.Msg {
		if m, ok := <-ch; ok {
			return m
		}
		return nil
	}
}

func (s *Screen) receive(m Msg) tea.Cmd {
	if m.id != s.id {
		return nil
	}
	if m.outcome == nil && m.err == nil {
		p := m.progress
		if p.Done == 0 {
			s.progress = numfmt.Count(p.Total, "model run") + " to run · c cancels"
			return s.wait()
		}
		s.progress = fmt.Sprintf("%d of %s · %s, repeat %d · %s elapsed · c cancels", p.Done, numfmt.Count(p.Total, "model run"),
			p.Model, p.Repeat, numfmt.Seconds(p.Elapsed.Seconds()))
		return s.wait()
	}
	s.cancel()
	s.cancel, s.progress = nil, ""
	if m.err != nil {
		s.note = "the experiment failed: " + m.err.Error()
		return nil
	}
	s.Outcome = m.outcome
	s.setCurves()
	return nil
}

// CurvePoints is how many points each model's curve is drawn at: one
// per percent of its training.
const CurvePoints = 100

// setCurves overlays each model's validation error over the first fold of
// the first repeat. The models' steps are of different units (a Newton
// iteration, a tree's level, an epoch, one fit), so each curve is drawn
// against the share of its own training done, and the legend names how
// many steps of which unit that was.
func (s *Screen) setCurves() {
	o := s.Outcome
	s.curves = widgets.NewLineChart("validation error, fold 1 of repeat 1", "% of each model's steps", s.c.Styles)
	var names []string
	var ys [][]float64
	for m, model := range o.Plan.Models {
		h := o.Cell(0, m, 0).History
		names = append(names, model.Label+" ("+numfmt.Count(len(h), model.Spec.Unit)+")")
		ys = append(ys, OverTraining(h))
	}
	s.curves.SetSeries(names, ys)
}

// OverTraining spreads a history's validation errors over curvePoints
// points, step i of n holding from i/n to (i+1)/n of the training: point j
// is the step under way at (j+1)% of it. Nil for no history.
func OverTraining(h []eval.Point) []float64 {
	if len(h) == 0 {
		return nil
	}
	y := make([]float64, CurvePoints)
	for j := range y {
		y[j] = h[min(j*len(h)/CurvePoints, len(h)-1)].ValError
	}
	return y
}

// export writes the results as Markdown and every fold's scores as CSV in
// the working directory.
func (s *Screen) export() string {
	o := s.Outcome
	var md, csv strings.Builder
	if err := o.WriteMarkdown(&md, o.Columns(nil)); err != nil {
		return "export: " + err.Error()
	}
	if err := o.WriteCSV(&csv); err != nil {
		return "export: " + err.Error()
	}
	name := o.Plan.Datasets[0].Name
	if n := len(o.Plan.Datasets); n > 1 {
		name += fmt.Sprintf("-and-%d-more", n-1)
	}
	return s.c.WriteReports("experiment-"+name, kit.Report{Ext: "md", Text: md.String()}, kit.Report{Ext: "csv", Text: csv.String()})
}

func (s *Screen) View() string {
	st := s.c.Styles
	w := s.w
	if s.ds == nil {
		return st.Muted.Render(" Choose data first: the Experimenter compares models on the session's data, and on any you add here.")
	}
	out := []string{st.Title.Render(" Experimenter: " + s.title())}
	if s.Outcome != nil {
		return kit.Fit(strings.Join(append(out, s.results()...), "\n"), w, s.h)
	}
	say := fmt.Sprintf("mark models with space (the first marked is the baseline), then enter: %d × %d-fold CV on identical folds (f, r change them); a adds a dataset", s.Repeats, s.Folds)
	if len(s.Datasets()) == 0 {
		say = fmt.Sprintf("An experiment compares models that predict a target; %s data have none. a adds a dataset that has one.", s.ds.Task)
	}
	for _, l := range strings.Split(kit.Wrap(say, w-2), "\n") {
		out = append(out, st.Muted.Render(" "+l))
	}
	status := s.progress
	if status == "" {
		status = s.note
	}
	if s.adding {
		below := st.Muted.Render(kit.Clip(" after the last colon: target=COLUMN, drop=COL,COL, task=, format=, row-names=no", w))
		if s.note != "" { // why what was typed was refused: the field stays open to mend it
			below = " " + st.Error.Render(kit.Clip(s.note, w-2))
		}
		out = append(out, " "+s.field.View(st, w-3-lipgloss.Width(s.field.Prompt)), below)
	} else {
		out = append(out, " "+st.Accent.Render(kit.Clip(status, w-2)))
	}
	out = append(out, "")
	rows := s.dataLines(w)
	for i, sp := range s.Specs {
		box := "[ ]"
		if s.marked[i] {
			box = "[x]"
			if len(s.order) > 0 && s.order[0] == i {
				box = "[b]"
			}
		}
		line := kit.Clip(fmt.Sprintf(" %s %-14s %s", box, sp.Name, sp.Title), w)
		if s.dataRows()+i == s.Cursor {
			line = st.SelectedRow.Render(kit.FitWidth(line, w))
		}
		rows = append(rows, line)
	}
	listH := max(s.h-len(out), 3)
	first := min(max(s.Cursor-listH+1, 0), max(len(rows)-listH, 0))
	out = append(out, rows[first:min(first+listH, len(rows))]...)
	return strings.Join(out, "\n")
}

// title names the datasets: "iris", or "iris and 2 more".
func (s *Screen) title() string {
	data := s.Datasets()
	switch len(data) {
	case 0:
		return s.ds.Name
	case 1:
		return data[0].Name
	}
	return fmt.Sprintf("%s and %d more", data[0].Name, len(data)-1)
}

// Point puts the cursor on the named model; false when it is not listed.
func (s *Screen) Point(model string) bool {
	for i, sp := range s.Specs {
		if sp.Name == model {
			s.Cursor = s.dataRows() + i
			return true
		}
	}
	return false
}

// results are the table, with its marks in colour too, and the curves.
func (s *Screen) results() []string {
	st := s.c.Styles
	o := s.Outcome
	cols := o.Columns(nil)
	t := o.Table(cols)
	var b strings.Builder
	_ = t.WriteText(&b)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	var out []string
	if s.note != "" { // what an export did, first, where a tall table cannot push it out
		for _, l := range strings.Split(kit.Wrap(s.note, s.w-2), "\n") {
			out = append(out, " "+st.Accent.Render(l))
		}
	}
	for _, l := range strings.Split(kit.Wrap(o.Title(), s.w-2), "\n") { // the legend of v and *, whole
		out = append(out, st.Muted.Render(" "+l))
	}
	out = append(out, "")
	for i, line := range lines {
		styled := " " + line
		if i >= 2 && i-2 < len(t.Marks) {
			styled = " " + ColourMarks(line, t.Rows[i-2], t.Marks[i-2], st.Good, st.Bad)
		}
		out = append(out, kit.Clip(styled, s.w))
	}
	for _, f := range o.Failures() {
		out = append(out, " "+st.Error.Render(kit.Clip(f, s.w-2)))
	}
	out = append(out, "")
	if len(o.Plan.Datasets) > 1 {
		var rk strings.Builder
		if err := o.WriteRanking(&rk, experiment.RankMetric(cols), min(s.w-2, 96)); err != nil {
			return append(out, " "+st.Error.Render(err.Error()))
		}
		verdict, diagram, _ := strings.Cut(strings.TrimRight(rk.String(), "\n"), "\n\n")
		for _, l := range strings.Split(kit.Wrap(verdict, s.w-2), "\n") { // the test's verdict, whole
			out = append(out, " "+l)
		}
		out = append(out, "")
		for _, l := range strings.Split(diagram, "\n") {
			out = append(out, kit.Clip(" "+l, s.w))
		}
		return out
	}
	s.curves.SetSize(s.w, max(s.h-len(out)-1, 6))
	return append(out, s.curves.View())
}

// ColourMarks paints the cells of a row marked better or worse, finding
// each cell after the one before (two cells may read the same).
func ColourMarks(line string, row []string, marks []experiment.Mark, good, bad interface{ Render(...string) string }) string {
	pos := len(row[0])
	for j, m := range marks {
		cell := row[j+1]
		i := strings.Index(line[pos:], cell)
		if i < 0 {
			continue
		}
		at, painted := pos+i, cell
		switch m {
		case experiment.Better:
			painted = good.Render(cell)
		case experiment.Worse:
			painted = bad.Render(cell)
		}
		line = line[:at] + painted + line[at+len(cell):]
		pos = at + len(painted)
	}
	return line
}

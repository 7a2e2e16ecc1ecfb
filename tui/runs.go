package tui

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// runRecord is one run of this session: the engine's record of it (what
// was asked, how it went, what came of it) and what the lab adds to draw it.
// It is written only in Update, on the UI goroutine (start, each progress
// step, finish).
type runRecord struct {
	*runs.Record
	label string // dataLabel, once made

	// histFold is the fold whose history an abandoned run kept.
	histFold int

	// Where the fit had got to, from its progress: the fold (1-based) of
	// how many, and whether that fold's fit had reported its last step.
	fold, folds int
	foldDone    bool
}

// observe notes how far the run has got.
// lossTitle names what the run's model reports as its training loss
// ("training loss", "out-of-bag error", "exponential loss").
func lossTitle(r *runRecord) string { return r.Spec.LossName(r.Task()) }

func (r *runRecord) observe(p eval.Progress) {
	r.fold, r.folds = p.Fold, p.Folds
	r.foldDone = p.Total > 0 && p.Point.Step >= p.Total
}

// cancelNote says what a cancelled run kept: the scores of the folds that
// finished, and the histories. The folds are counted as the result counts
// them (runs.Record.FoldsScored), so that the note and the figures below it
// agree, leave-one-out's pooled rows included.
func (r *runRecord) cancelNote() string {
	n := 0
	if r.Result != nil {
		n = len(r.Result.History)
	}
	unit := unitOf(r.Spec)
	scored, of := r.FoldsScored()
	folds := max(of, r.folds, r.Options.Folds)
	steps := numfmt.Count(n, unit)
	if r.Status == runs.Abandoned {
		if folds <= 1 {
			return fmt.Sprintf("abandoned (esc) after %s: partial history, no final scores", steps)
		}
		f := max(r.histFold, 1)
		return fmt.Sprintf("abandoned (esc) in fold %d of %d after %s: partial history of fold %d, no final scores", f, folds, steps, f)
	}
	switch {
	case r.Result != nil && r.Result.StoppedEarly != "" && folds <= 1:
		return fmt.Sprintf("cancelled: stopped early after %s, the model it had scored on the held-out rows", r.Result.StoppedEarly)
	case r.Result != nil && r.Result.StoppedEarly != "":
		return fmt.Sprintf("cancelled in fold 1 of %d: stopped early after %s, the model it had scored on fold 1's held-out rows", folds, r.Result.StoppedEarly)
	case folds <= 1:
		return fmt.Sprintf("cancelled after %s: partial history, no final scores", steps)
	case scored == 0:
		return fmt.Sprintf("cancelled in fold 1 of %d: partial history, no fold finished, no scores", folds)
	case scored >= folds:
		return fmt.Sprintf("cancelled in the final fit on all rows · scores of all %s · every fold's history", numfmt.Count(folds, "fold"))
	}
	return fmt.Sprintf("cancelled in fold %d of %d · scores of the %s that finished · every fold's history", scored+1, folds, numfmt.Count(scored, "fold"))
}

// figures says how the run's metrics were made from its folds (so that
// pooled and per-fold-mean figures never appear unlabelled): "mean ± sd of
// 5 folds", "pooled over 150 one-row folds (leave-one-out)", "on the 30
// held-out rows", or "on all rows" without a split.
func (r *runRecord) figures() string { return r.describeFigures(false) }

// figuresShort is figures for the headline: "mean of 5 folds", "pooled
// over 150 rows", "30 held-out rows".
func (r *runRecord) figuresShort() string { return r.describeFigures(true) }

func (r *runRecord) describeFigures(short bool) string {
	res := r.Result
	if res == nil {
		return ""
	}
	pick := func(shortForm, longForm string) string {
		if short {
			return shortForm
		}
		return longForm
	}
	switch {
	case !r.Task().Supervised():
		return pick("all ", "on all ") + numfmt.Count(res.Rows, "row")
	case r.Options.LOO:
		return pick("pooled over "+numfmt.Count(len(res.Actual), "row"),
			"pooled over "+numfmt.Count(len(res.Actual), "one-row fold")+" (leave-one-out)")
	case len(res.Folds) > 1:
		return pick("mean of ", "mean ± sd of ") + numfmt.Count(len(res.Folds), "fold")
	case len(res.Folds) == 1:
		return pick("1 fold of "+strconv.Itoa(max(r.folds, r.Options.Folds)), "of the one fold that finished")
	}
	if r.Options.Test != nil || r.Data.Test != "" {
		return pick("", "on the ") + numfmt.Count(len(res.Actual), "row") + " of the supplied test set"
	}
	return pick("", "on the ") + numfmt.Count(len(res.Actual), "held-out row")
}

// pooledNote says what a pooled view (confusion matrix, ROC) is made of
// when the run's metrics are fold means; "" when they are the same rows.
func (r *runRecord) pooledNote() string {
	res := r.Result
	switch {
	case res == nil || !r.Task().Supervised():
		return ""
	case r.Options.LOO:
		return "pooled over " + numfmt.Count(len(res.Actual), "one-row fold") + ": every row held out once"
	case len(res.Folds) > 1:
		return "pooled over the " + numfmt.Count(len(res.Folds), "fold") + "' held-out rows (" + numfmt.Count(len(res.Actual), "row") + "), not the mean of the folds"
	}
	return ""
}

func (r *runRecord) cancelled() bool {
	return r.Status == runs.Cancelled || r.Status == runs.Abandoned
}

// status is one word for the runs table.
func (r *runRecord) status() string { return string(r.Status) }

// evalDesc says how the run is evaluated.
func (r *runRecord) evalDesc() string {
	if r.Result != nil && r.Result.Eval != "" {
		return r.Result.Eval
	}
	return describeEval(r.Options, r.Task())
}

func describeEval(o eval.Options, t datasets.Task) string {
	switch {
	case !t.Supervised():
		return "all rows (no split)"
	case o.Test != nil:
		return "test set " + filepath.Base(o.Test.Source)
	case o.LOO:
		return "leave-one-out"
	case o.Folds >= 2:
		return fmt.Sprintf("%d-fold CV", o.Folds)
	}
	test := int(math.Round(o.Split * 100))
	return fmt.Sprintf("%d/%d split", 100-test, test)
}

// score returns the run's primary metric, its spread over folds and its
// baseline (NaN when unknown).
func (r *runRecord) score() (name string, v, std, base float64) {
	v, std, base = math.NaN(), math.NaN(), math.NaN()
	if r.Result == nil {
		return metrics.Primary(r.Task(), nil), v, std, base
	}
	name = metrics.Primary(r.Task(), r.Result.Metrics)
	if x, ok := r.Result.Metrics[name]; ok {
		v = x
	}
	if x, ok := r.Result.Std[name]; ok {
		std = x
	}
	if x, ok := r.Result.Baseline[name]; ok {
		base = x
	}
	return name, v, std, base
}

// keyParams lists the parameters set away from their defaults.
func keyParams(spec *engine.Spec, v engine.Values) string {
	var parts []string
	for _, p := range spec.Params {
		if x, ok := v[p.Name]; ok && engine.Format(x) != engine.Format(p.Default) {
			parts = append(parts, p.Name+"="+engine.Format(x))
		}
	}
	if len(parts) == 0 {
		return "defaults"
	}
	return strings.Join(parts, " ")
}

// runsKeys are the runs screen's keys.
type runsKeys struct {
	Up, Down key.Binding
	Sort     key.Binding
	Pick     key.Binding
	Open     key.Binding
}

func defaultRunsKeys() runsKeys {
	return runsKeys{
		Up:   bind("↑/k", "up", "up", "k"),
		Down: bind("↓/j", "down", "down", "j"),
		Sort: bind("s", "sort", "s"),
		Pick: bind("space", "pick two to compare", " "),
		Open: bind("enter", "open / compare", "enter"),
	}
}

// sortCols are the columns s cycles through.
var sortCols = [...]string{"#", "dataset", "model", "score", "time"}

// runsScreen is the leaderboard of the session's runs.
type runsScreen struct {
	c       *common
	keys    runsKeys
	runs    []*runRecord
	order   []*runRecord // runs in display order
	sortBy  int
	tbl     table.Model
	picked  []int // run ids, at most two
	compare bool  // the two picked runs side by side
	filter  listFilter
	w, h    int
}

func newRunsScreen(c *common) *runsScreen {
	s := &runsScreen{c: c, keys: defaultRunsKeys(), filter: newListFilter()}
	km := table.DefaultKeyMap()
	s.tbl = table.New(table.WithFocused(true), table.WithKeyMap(km))
	return s
}

func (s *runsScreen) setRuns(runs []*runRecord) {
	s.runs = runs
	s.rebuild()
}

func (s *runsScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.rebuild()
}

func (s *runsScreen) Typing() bool { return s.filter.editing }

func (s *runsScreen) Back() bool {
	if !s.compare && s.filter.active() {
		s.filter.clear()
		s.rebuild()
		return true
	}
	if s.compare {
		s.compare = false
		s.picked = nil
		s.rebuild()
		return true
	}
	return false
}

func (s *runsScreen) ShortHelp() []key.Binding {
	switch {
	case s.compare:
		return nil
	case s.filter.editing:
		return s.filter.help()
	}
	return append([]key.Binding{s.keys.Open, s.keys.Pick, s.keys.Sort}, s.filter.help()...)
}

func (s *runsScreen) FullHelp() [][]key.Binding {
	if s.compare || s.filter.editing {
		return helpOf(s.ShortHelp())
	}
	return helpOf(s.ShortHelp(), []key.Binding{s.keys.Up, s.keys.Down})
}

func (s *runsScreen) headerInfo() string {
	return numfmt.Count(len(s.runs), "run")
}

func (s *runsScreen) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok || s.compare {
		return nil
	}
	if used, changed := s.filter.update(km); used {
		if changed {
			s.rebuild()
		}
		return nil
	}
	switch {
	case key.Matches(km, s.keys.Sort):
		s.sortBy = (s.sortBy + 1) % len(sortCols)
		s.rebuild()
		return nil
	case key.Matches(km, s.keys.Pick):
		if r := s.current(); r != nil {
			if i := slices.Index(s.picked, r.ID); i >= 0 {
				s.picked = slices.Delete(s.picked, i, i+1)
			} else {
				s.picked = append(s.picked, r.ID)
				if len(s.picked) > 2 {
					s.picked = s.picked[1:]
				}
			}
			s.rebuild()
		}
		return nil
	case key.Matches(km, s.keys.Open):
		if len(s.picked) == 2 {
			s.compare = true
			return nil
		}
		if r := s.current(); r != nil && r.Done() {
			id := r.ID
			return func() tea.Msg { return showRunMsg{run: id} }
		}
		return nil
	}
	var cmd tea.Cmd
	s.tbl, cmd = s.tbl.Update(msg)
	s.rebuild() // moves the ▸ to the new cursor row
	return cmd
}

func (s *runsScreen) current() *runRecord {
	i := s.tbl.Cursor()
	if i < 0 || i >= len(s.order) {
		return nil
	}
	return s.order[i]
}

// rebuild sorts the runs and refills the table.
func (s *runsScreen) rebuild() {
	var cur int
	if r := s.current(); r != nil {
		cur = r.ID
	}
	s.order = s.order[:0]
	for _, r := range s.runs {
		if s.filter.match(fmt.Sprintf("#%d %s %s %s %s", r.ID, r.dataLabel(), r.Spec.Name, keyParams(r.Spec, r.Params), r.status())) {
			s.order = append(s.order, r)
		}
	}
	by := sortCols[s.sortBy]
	slices.SortStableFunc(s.order, func(a, b *runRecord) int {
		switch by {
		case "dataset":
			return strings.Compare(a.dataLabel(), b.dataLabel())
		case "model":
			return strings.Compare(a.Spec.Name, b.Spec.Name)
		case "score": // best first; unknown last
			_, va, _, _ := a.score()
			_, vb, _, _ := b.score()
			switch {
			case math.IsNaN(va) && math.IsNaN(vb):
				return 0
			case math.IsNaN(va):
				return 1
			case math.IsNaN(vb):
				return -1
			case va > vb:
				return -1
			case va < vb:
				return 1
			}
			return 0
		case "time":
			return int(a.Wall - b.Wall)
		}
		return b.ID - a.ID // newest first
	})
	w := max(s.w, minWidth)
	// Each cell has one space of padding on either side.
	wide := w >= 110
	nameW, scoreW := 10, 14
	if wide {
		nameW, scoreW = 14, 17
	}
	dsW := nameW
	for _, r := range s.order {
		dsW = max(dsW, min(len([]rune(r.dataLabel())), nameW+8))
	}
	cols := []table.Column{
		{Title: "   #", Width: 5}, {Title: "dataset", Width: dsW}, {Title: "model", Width: nameW},
		{Title: "key params", Width: 0}, {Title: "evaluation", Width: 11},
		{Title: "score", Width: scoreW}, {Title: "time", Width: 6},
	}
	if wide {
		cols = append(cols, table.Column{Title: "vs baseline", Width: 12})
	}
	used := 0
	for _, c := range cols {
		used += c.Width + 2
	}
	cols[3].Width = max(w-used-2, 8)
	rows := make([]table.Row, 0, len(s.order))
	cursor := 0
	for i, r := range s.order {
		if r.ID == cur {
			cursor = i
		}
		mark := " "
		if slices.Contains(s.picked, r.ID) {
			mark = "✓"
		}
		if r.ID == cur || (cur == 0 && i == 0) {
			mark = "▸" + mark
		} else {
			mark = " " + mark
		}
		name, v, std, base := r.score()
		score := "–"
		if st := r.status(); st != "done" {
			score = st
		}
		if !math.IsNaN(v) {
			score = metrics.Lookup(name).Short + " " + numfmt.Score(v)
			if !math.IsNaN(std) && r.Options.Folds >= 2 {
				score += " ±" + strings.TrimPrefix(numfmt.Score(std), "0")
			}
		}
		vs := r.status()
		if r.Done() && r.Err == nil && !math.IsNaN(v) && !math.IsNaN(base) {
			// Better or worse only beyond the folds' noise.
			vs = runs.VersusBaseline(name, r.Record).String()
		}
		t := "–"
		if r.Done() {
			t = numfmt.Seconds(r.Wall.Seconds())
		}
		row := table.Row{
			fmt.Sprintf("%s%2d", mark, r.ID), r.dataLabel(), r.Spec.Name, keyParams(r.Spec, r.Params),
			describeEval(r.Options, r.Task()), score, t,
		}
		if wide {
			row = append(row, vs)
		}
		rows = append(rows, row)
	}
	s.tbl.SetRows(nil) // the old rows may have more cells than the new columns
	s.tbl.SetColumns(cols)
	s.tbl.SetRows(rows)
	s.tbl.SetWidth(w)
	s.tbl.SetHeight(max(s.h-3-runDetailLines, 3))
	s.rebuildStyles()
	s.tbl.SetCursor(cursor)
}

func (s *runsScreen) View() string {
	st := s.c.styles
	if s.compare {
		return s.compareView()
	}
	title := st.Title.Render(fmt.Sprintf(" Runs (%d)", len(s.runs))) +
		st.Muted.Render(fmt.Sprintf("   sort: %s ▾", sortCols[s.sortBy]))
	if len(s.picked) > 0 {
		title += st.Muted.Render(fmt.Sprintf("   picked %d of 2", len(s.picked)))
	}
	if len(s.runs) == 0 {
		return title + "\n\n" + st.Muted.Render("  No runs yet: choose a dataset and a model, then train.")
	}
	if s.filter.active() {
		title += "   " + s.filter.status(len(s.order), len(s.runs))
	}
	s.rebuildStyles()
	return title + "\n" + fit(s.tbl.View(), s.w, max(s.h-1-runDetailLines, 3)) + "\n" + s.detail()
}

// runDetailLines is the height of the selected run's detail under the
// table.
const runDetailLines = 3

// detail shows the selected run in full, what the table's cells cut: its
// data, model and parameters, evaluation and seed, wrapped to the width.
func (s *runsScreen) detail() string {
	st := s.c.styles
	r := s.current()
	if r == nil {
		return st.Muted.Render(" no run matches the filter: esc clears it")
	}
	text := fmt.Sprintf("#%d %s · %s (%s) · %s · %s · seed %d", r.ID, r.dataLabel(), r.Spec.Title, keyParams(r.Spec, r.Params),
		r.evalDesc(), r.targetDesc(), r.Options.Seed)
	lines := strings.Split(wrap(text, s.w-2), "\n")
	if len(lines) > runDetailLines {
		lines = lines[:runDetailLines]
		lines[runDetailLines-1] = clip(lines[runDetailLines-1]+" …", s.w-2)
	}
	for i, l := range lines {
		lines[i] = " " + st.Text.Render(l)
	}
	return strings.Join(lines, "\n")
}

// rebuildStyles keeps the table's styles in step with the theme.
func (s *runsScreen) rebuildStyles() {
	st := table.DefaultStyles()
	st.Header = s.c.styles.Header.Padding(0, 1)
	st.Cell = s.c.styles.Text.Padding(0, 1)
	st.Selected = s.c.styles.SelectedRow
	s.tbl.SetStyles(st)
}

// compareView shows the two picked runs side by side: settings, then every
// metric either has with its verdict in words (better, worse, tie), or,
// for runs on other data or other folds, why no winner can be declared.
func (s *runsScreen) compareView() string {
	st := s.c.styles
	var a, b *runRecord
	for _, r := range s.runs {
		switch r.ID {
		case s.picked[0]:
			a = r
		case s.picked[1]:
			b = r
		}
	}
	if a == nil || b == nil {
		return st.Muted.Render(" the picked runs are gone")
	}
	label := 16
	colW := max((s.w-label-4-ansi.StringWidth(verdictTie))/2, 20) // room for the verdict
	cell := func(text string, style lipgloss.Style) string {
		return style.Render(fitWidth(clip(text, colW-1), colW))
	}
	row := func(name, x, y string, sx, sy lipgloss.Style) string {
		return " " + st.Muted.Render(fitWidth(name, label)) + cell(x, sx) + cell(y, sy)
	}
	lines := []string{
		st.Title.Render(fmt.Sprintf(" Run #%d vs run #%d", a.ID, b.ID)) + st.Muted.Render("   (esc: back to the runs)"),
		"",
		row("dataset", a.dataLabel(), b.dataLabel(), st.Text, st.Text),
		row("source", a.Dataset.Source, b.Dataset.Source, st.Text, st.Text),
		row("target", a.targetDesc(), b.targetDesc(), st.Text, st.Text),
		row("model", a.Spec.Title, b.Spec.Title, st.Text, st.Text),
		row("parameters", keyParams(a.Spec, a.Params), keyParams(b.Spec, b.Params), st.Text, st.Text),
		row("evaluation", a.evalDesc(), b.evalDesc(), st.Text, st.Text),
		row("seed", fmt.Sprint(a.Options.Seed), fmt.Sprint(b.Options.Seed), st.Text, st.Text),
		row("status", a.status(), b.status(), st.Text, st.Text),
		row("time", numfmt.Seconds(a.Wall.Seconds()), numfmt.Seconds(b.Wall.Seconds()), st.Text, st.Text),
		"",
	}
	names := map[string]bool{}
	for _, r := range []*runRecord{a, b} {
		if r.Result != nil {
			for k := range r.Result.Metrics {
				names[k] = true
			}
		}
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	get := func(r *runRecord, k string) float64 {
		if r.Result == nil {
			return math.NaN()
		}
		if v, ok := r.Result.Metrics[k]; ok {
			return v
		}
		return math.NaN()
	}
	why := runs.Incomparable(a.Record, b.Record)
	for _, k := range keys {
		x, y := get(a, k), get(b, k)
		tx, ty := numfmt.Score(x), numfmt.Score(y)
		sx, sy := st.Text, st.Text
		verdict := ""
		switch {
		case why != "" || math.IsNaN(x) || math.IsNaN(y):
		case x == y:
			verdict = "= equal"
		default:
			// Said in words as well as shown, and only beyond the folds'
			// noise (the corrected resampled t-test on identical folds).
			switch runs.Versus(k, a.Record, b.Record) {
			case runs.Better:
				tx, ty, sx, sy = tx+" ▲ better", ty+" ▼ worse", st.Good, st.Muted
			case runs.Worse:
				tx, ty, sx, sy = tx+" ▼ worse", ty+" ▲ better", st.Muted, st.Good
			case runs.Tie:
				verdict = verdictTie
			default:
				verdict = "? no spread"
			}
		}
		lines = append(lines, row(metrics.Lookup(k).Label, tx, ty, sx, sy)+st.Muted.Render(verdict))
	}
	if why != "" {
		return strings.Join(append(lines, "", st.Warn.Render(clip(" "+why+": no winner declared", s.w))), "\n")
	}
	lines = append(lines, "", st.Muted.Render(clip(" ▲ better, ▼ worse: beyond the folds' noise (corrected resampled t-test, 5%) · "+
		verdictTie+" · ?: no spread", s.w)),
		"", st.Muted.Render(" same data, target, task, evaluation and seed: identical splits, a fair comparison"))
	return strings.Join(lines, "\n")
}

// verdictTie is the comparison's word for a difference within noise.
const verdictTie = "≈ within noise: tie"

func (r *runRecord) targetName() string {
	if r.Dataset.Target == nil {
		return ""
	}
	return r.Dataset.Target.Name
}

// targetDesc is "species · classification" or "none · clustering".
func (r *runRecord) targetDesc() string {
	t := r.targetName()
	if t == "" {
		t = "none"
	}
	return t + " · " + r.Task().String()
}

// dataLabel names the run's data in the runs table: the dataset's name,
// with a generator's knobs where they differ from its defaults (moons
// n=50), and the target when one other than the default was chosen.
func (r *runRecord) dataLabel() string {
	if r.label != "" {
		return r.label
	}
	l := r.Dataset.Name
	if k := knobsChanged(r.Dataset.Name, r.Dataset.Source); k != "" {
		l += " " + k
	}
	if r.Data.Target != "" && r.Data.Target != datasets.NoTarget {
		l += " →" + r.Data.Target
	}
	r.label = l
	return l
}

// knobsChanged lists the knobs of generator name that source (as
// Table.Source spells it: "moons(n=50, noise=0.1, seed=1)") sets away from
// their defaults; "" for other sources.
func knobsChanged(name, source string) string {
	inner, ok := strings.CutPrefix(source, name+"(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return ""
	}
	inner = strings.TrimSuffix(inner, ")")
	var knobs []datasets.Knob
	for _, e := range datasets.Catalog() {
		if e.Name == name && e.Kind == "generator" {
			knobs = e.Knobs
		}
	}
	var out []string
	for _, kv := range strings.Split(inner, ", ") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		changed := true
		for _, kn := range knobs {
			if kn.Name == k {
				if x, err := strconv.ParseFloat(v, 64); err == nil && x == kn.Default {
					changed = false
				}
			}
		}
		if changed {
			out = append(out, kv)
		}
	}
	return strings.Join(out, " ")
}

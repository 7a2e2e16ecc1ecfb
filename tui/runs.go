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

	// The run's place in the run history: its id there ("" until it is
	// recorded), its star and name; past marks a run of an earlier session.
	histID  string
	starred bool
	title   string
	past    bool

	// hash receives the data's fingerprint from the run's worker;
	// replayOf is the data of the run this one replays, whose fingerprint
	// it is checked against.
	hash     *string
	replayOf *runs.Data
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
		return pick("pooled over "+numfmt.Count(res.ScoredRows(), "row"),
			"pooled over "+numfmt.Count(res.ScoredRows(), "one-row fold")+" (leave-one-out)")
	case len(res.Folds) > 1:
		return pick("mean of ", "mean ± sd of ") + numfmt.Count(len(res.Folds), "fold")
	case len(res.Folds) == 1:
		return pick("1 fold of "+strconv.Itoa(max(r.folds, r.Options.Folds)), "of the one fold that finished")
	}
	if r.Options.Test != nil || r.Data.Test != "" {
		return pick("", "on the ") + numfmt.Count(res.ScoredRows(), "row") + " of the supplied test set"
	}
	return pick("", "on the ") + numfmt.Count(res.ScoredRows(), "held-out row")
}

// pooledNote says what a pooled view (confusion matrix, ROC) is made of
// when the run's metrics are fold means; "" when they are the same rows.
func (r *runRecord) pooledNote() string {
	res := r.Result
	switch {
	case res == nil || !r.Task().Supervised():
		return ""
	case r.Options.LOO:
		return "pooled over " + numfmt.Count(res.ScoredRows(), "one-row fold") + ": every row held out once"
	case len(res.Folds) > 1:
		return "pooled over the " + numfmt.Count(len(res.Folds), "fold") + "' held-out rows (" + numfmt.Count(res.ScoredRows(), "row") + "), not the mean of the folds"
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

	Star, Rename, Delete, Replay key.Binding
	Markdown, CSV, Recipe        key.Binding
	Confirm, Keep                key.Binding // the delete's question; the name's field
}

func defaultRunsKeys() runsKeys {
	return runsKeys{
		Up:       bind("↑/k", "up", "up", "k"),
		Down:     bind("↓/j", "down", "down", "j"),
		Sort:     bind("s", "sort", "s"),
		Pick:     bind("space", "pick two to compare", " "),
		Open:     bind("enter", "open / compare", "enter"),
		Star:     bind("*", "star", "*"),
		Rename:   bind("n", "name", "n"),
		Delete:   bind("x", "delete", "x"),
		Replay:   bind("r", "run again", "r"),
		Markdown: bind("m", "export Markdown", "m"),
		CSV:      bind("c", "export CSV (per fold)", "c"),
		Recipe:   bind("w", "write recipe", "w"),
		Confirm:  bind("y", "yes, delete", "y"),
		Keep:     bind("enter", "keep name", "enter"),
	}
}

// runAction is what the runs screen asks the root to do with a run.
type runAction int

const (
	actStar runAction = iota
	actRename
	actDelete
	actReplay
	actMarkdown
	actCSV
	actRecipe
)

// runActionMsg: the runs screen asks for an action on run (its new name
// for actRename).
type runActionMsg struct {
	run  int
	do   runAction
	name string
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

	note     string    // what became of the last action (an export, the history)
	renaming bool      // the name field has the keyboard
	name     textField // the selected run's new name
	deleting int       // the run whose deletion awaits a yes; 0 none
}

func newRunsScreen(c *common) *runsScreen {
	s := &runsScreen{c: c, keys: defaultRunsKeys(), filter: newListFilter(), name: newInput()}
	s.name.Prompt = "name: "
	s.name.CharLimit = 80
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

func (s *runsScreen) Typing() bool { return s.filter.editing || s.renaming || s.deleting != 0 }

func (s *runsScreen) Back() bool {
	if s.renaming || s.deleting != 0 {
		s.renaming, s.deleting = false, 0
		s.name.Blur()
		return true
	}
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
	case s.renaming:
		return []key.Binding{s.keys.Keep, s.filter.keys.Clear}
	case s.deleting != 0:
		return []key.Binding{s.keys.Confirm}
	}
	return append([]key.Binding{s.keys.Open, s.keys.Pick, s.keys.Sort, s.keys.Star, s.keys.Replay}, s.filter.help()...)
}

func (s *runsScreen) FullHelp() [][]key.Binding {
	if s.compare || s.filter.editing || s.renaming || s.deleting != 0 {
		return helpOf(s.ShortHelp())
	}
	k := s.keys
	return helpOf(s.ShortHelp(), []key.Binding{k.Rename, k.Delete, k.Markdown, k.CSV, k.Recipe}, []key.Binding{k.Up, k.Down})
}

func (s *runsScreen) headerInfo() string {
	return numfmt.Count(len(s.runs), "run")
}

func (s *runsScreen) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok || s.compare {
		return nil
	}
	switch {
	case s.renaming:
		return s.updateName(km)
	case s.deleting != 0:
		id := s.deleting
		s.deleting = 0
		if key.Matches(km, s.keys.Confirm) {
			return func() tea.Msg { return runActionMsg{run: id, do: actDelete} }
		}
		s.note = "kept"
		return nil
	}
	if used, changed := s.filter.update(km); used {
		if changed {
			s.rebuild()
		}
		return nil
	}
	if cmd, used := s.act(km); used {
		return cmd
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

// act takes the keys that act on the selected run.
func (s *runsScreen) act(km tea.KeyMsg) (tea.Cmd, bool) {
	r := s.current()
	if r == nil || !r.Done() {
		return nil, false
	}
	ask := func(do runAction) tea.Cmd {
		id := r.ID
		return func() tea.Msg { return runActionMsg{run: id, do: do} }
	}
	k := s.keys
	switch {
	case key.Matches(km, k.Star):
		return ask(actStar), true
	case key.Matches(km, k.Rename):
		s.renaming = true
		s.name.SetValue(r.title)
		s.name.CursorEnd()
		return s.name.Focus(), true
	case key.Matches(km, k.Delete):
		s.deleting = r.ID
		return nil, true
	case key.Matches(km, k.Replay):
		return ask(actReplay), true
	case key.Matches(km, k.Markdown):
		return ask(actMarkdown), true
	case key.Matches(km, k.CSV):
		return ask(actCSV), true
	case key.Matches(km, k.Recipe):
		return ask(actRecipe), true
	}
	return nil, false
}

// updateName edits the selected run's name; enter keeps it.
func (s *runsScreen) updateName(km tea.KeyMsg) tea.Cmd {
	if !key.Matches(km, s.keys.Keep) {
		var cmd tea.Cmd
		s.name, cmd = s.name.Update(km)
		return cmd
	}
	s.renaming = false
	s.name.Blur()
	r := s.current()
	if r == nil {
		return nil
	}
	id, name := r.ID, strings.Join(strings.Fields(s.name.Value()), " ")
	return func() tea.Msg { return runActionMsg{run: id, do: actRename, name: name} }
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
		if s.filter.match(r.searchText()) {
			s.order = append(s.order, r)
		}
	}
	if !slices.ContainsFunc(s.order, func(r *runRecord) bool { return r.ID == cur }) {
		cur = 0 // the run under the cursor is gone (deleted, filtered out): the first
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
		if r.starred {
			mark = "★"
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
		params := keyParams(r.Spec, r.Params)
		if r.title != "" {
			params = "“" + r.title + "” " + params
		}
		row := table.Row{
			fmt.Sprintf("%s%2d", mark, r.ID), r.dataLabel(), r.Spec.Name, params,
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
	count := fmt.Sprint(len(s.runs))
	if n := s.pastRuns(); n > 0 {
		count += fmt.Sprintf(", %d from earlier sessions", n)
	}
	title := st.Title.Render(" Runs ("+count+")") +
		st.Muted.Render(fmt.Sprintf("   sort: %s ▾", sortCols[s.sortBy]))
	if len(s.picked) > 0 {
		title += st.Muted.Render(fmt.Sprintf("   picked %d of 2", len(s.picked)))
	}
	if len(s.runs) == 0 {
		return title + "\n\n" + st.Muted.Render("  No runs yet: choose a dataset and a model, then train.") + "\n\n" + st.Muted.Render(clip(" "+s.note, s.w))
	}
	if s.filter.active() {
		title += "   " + s.filter.status(len(s.order), len(s.runs))
	}
	s.rebuildStyles()
	return title + "\n" + fit(s.tbl.View(), s.w, max(s.h-1-runDetailLines, 3)) + "\n" + s.detail()
}

// pastRuns counts the runs of earlier sessions.
func (s *runsScreen) pastRuns() int {
	n := 0
	for _, r := range s.runs {
		if r.past {
			n++
		}
	}
	return n
}

// runDetailLines is the height of the selected run's detail under the
// table.
const runDetailLines = 3

// detail shows the selected run in full, what the table's cells cut: its
// data, model and parameters, evaluation and seed, when it ran, wrapped to
// the width; its last line is the name being typed, the question before a
// deletion, or what became of the last action.
func (s *runsScreen) detail() string {
	st := s.c.styles
	r := s.current()
	var prompt string
	switch {
	case s.renaming:
		prompt = " " + s.name.View()
	case s.deleting != 0:
		prompt = st.Warn.Render(fmt.Sprintf(" delete run #%d from the lab and the run history? y: yes, any other key: no", s.deleting))
	case s.note != "":
		prompt = st.Muted.Render(clip(" "+s.note, s.w))
	}
	if r == nil {
		return st.Muted.Render(" no run matches the filter: esc clears it") + "\n" + prompt
	}
	text := fmt.Sprintf("#%d %s · %s (%s) · %s · %s · seed %d", r.ID, r.dataLabel(), r.Spec.Title, keyParams(r.Spec, r.Params),
		r.evalDesc(), r.targetDesc(), r.Options.Seed)
	if r.past {
		text += " · an earlier session's, " + r.Started.Local().Format("2006-01-02 15:04")
	}
	if r.histID != "" {
		text += " · history id " + r.histID
	}
	room := runDetailLines
	if prompt != "" {
		room--
	}
	lines := strings.Split(wrap(text, s.w-2), "\n")
	if len(lines) > room {
		lines = lines[:room]
		lines[room-1] = clip(lines[room-1]+" …", s.w-2)
	}
	for i, l := range lines {
		lines[i] = " " + st.Text.Render(l)
	}
	if prompt != "" {
		lines = append(lines, prompt)
	}
	return strings.Join(lines, "\n")
}

// searchText is what the filter searches: number, name, star, data,
// model, parameters, status, and whether the run is an earlier session's.
func (r *runRecord) searchText() string {
	text := fmt.Sprintf("#%d %s %s %s %s %s", r.ID, r.title, r.dataLabel(), r.Spec.Name, keyParams(r.Spec, r.Params), r.status())
	if r.starred {
		text += " * ★ starred"
	}
	if r.past {
		text += " earlier"
	}
	return text
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
		row("source", a.sourceDesc(), b.sourceDesc(), st.Text, st.Text),
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
	if r.Dataset == nil { // a run of an earlier session, its data not open
		switch r.Data.Target {
		case "":
			return "the last column"
		case datasets.NoTarget:
			return ""
		}
		return r.Data.Target
	}
	if r.Dataset.Target == nil {
		return ""
	}
	return r.Dataset.Target.Name
}

// sourceDesc is where the run's data came from.
func (r *runRecord) sourceDesc() string {
	if r.Dataset == nil {
		_, source := pastData(r.Record)
		return source
	}
	return r.Dataset.Source
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
	name, source := pastData(r.Record)
	if r.Dataset != nil {
		name, source = r.Dataset.Name, r.Dataset.Source
	}
	l := name
	if k := knobsChanged(name, source); k != "" {
		l += " " + k
	}
	if r.Data.Target != "" && r.Data.Target != datasets.NoTarget {
		l += " →" + r.Data.Target
	}
	r.label = l
	return l
}

// pastData is the name and provenance of a loaded run's data, as its
// result and recipe recorded them: for a generator, its knobs as
// Table.Source spells them ("moons(n=50, seed=1)").
func pastData(r *runs.Record) (name, source string) {
	name, source = r.Data.Source, r.Data.Source
	if r.Result != nil && r.Result.Dataset != "" {
		name = r.Result.Dataset
	}
	if n, knobs, ok := strings.Cut(r.Data.Source, ":"); ok && strings.EqualFold(n, name) {
		source = name + "(" + strings.Join(strings.Split(knobs, ","), ", ") + ")"
	}
	return name, source
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

package runlist

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

// keys are the runs screen's keys.
type keys struct {
	up, down key.Binding
	sort     key.Binding
	pick     key.Binding
	open     key.Binding

	star, rename, delete, replay key.Binding
	Markdown, CSV, recipe        key.Binding
	confirm, keep, cancel        key.Binding // the delete's question; the name's field
}

// DefaultKeys are the runs screen's key bindings.
func DefaultKeys() keys {
	return keys{
		up:       kit.Bind("↑/k", "up", "up", "k"),
		down:     kit.Bind("↓/j", "down", "down", "j"),
		sort:     kit.Bind("s", "sort", "s"),
		pick:     kit.Bind("space", "pick two to compare", "space"),
		open:     kit.Bind("enter", "open / compare", "enter"),
		star:     kit.Bind("*", "star", "*"),
		rename:   kit.Bind("n", "name", "n"),
		delete:   kit.Bind("x", "delete", "x"),
		replay:   kit.Bind("r", "run again", "r"),
		Markdown: kit.Bind("m", "export Markdown", "m"),
		CSV:      kit.Bind("c", "export CSV (per fold)", "c"),
		recipe:   kit.Bind("w", "write recipe", "w"),
		confirm:  kit.Bind("y", "yes, delete", "y"),
		keep:     kit.Bind("enter", "keep name", "enter"),
		cancel:   kit.Bind("esc", "cancel", "esc"), // the name's field: the name stays as it was
	}
}

// action is what the runs screen asks the root to do with a run.
type action int

const (
	ActStar action = iota
	ActRename
	ActDelete
	ActReplay
	ActMarkdown
	ActCSV
	ActRecipe
)

// ActionMsg: the runs screen asks for an action on run (its new name
// for actRename).
type ActionMsg struct {
	Run  int
	Do   action
	Name string
}

// sortCols are the columns s cycles through.
var sortCols = [...]string{"#", "dataset", "model", "score", "time"}

// Screen is the leaderboard of the session's runs.
type Screen struct {
	c       *kit.Common
	keys    keys
	Runs    []*kit.RunRecord
	Order   []*kit.RunRecord // runs in display order
	sortBy  int
	tbl     table.Model
	Picked  []int // run ids, at most two
	Compare bool  // the two picked runs side by side
	filter  kit.ListFilter
	w, h    int

	Note     string        // what became of the last action (an export, the history)
	renaming bool          // the name field has the keyboard
	name     kit.TextField // the selected run's new name
	deleting int           // the run whose deletion awaits a yes; 0 none
	newest   int           // the newest run's number, which the cursor goes to when it comes
}

// New is the runs screen, drawn with c.
func New(c *kit.Common) *Screen {
	s := &Screen{c: c, keys: DefaultKeys(), filter: kit.NewListFilter(), name: kit.NewInput()}
	s.name.Prompt = "name: "
	s.name.CharLimit = 80
	km := table.DefaultKeyMap()
	s.tbl = table.New(table.WithFocused(true), table.WithKeyMap(km))
	return s
}

// SetRuns shows runs; a run new to the table (this session's latest, or
// the history's newest at start) takes the cursor, so that the screen
// opens on the run just made.
func (s *Screen) SetRuns(runs []*kit.RunRecord) {
	newest := 0
	for _, r := range runs {
		newest = max(newest, r.ID)
	}
	s.Runs = runs
	if newest != s.newest {
		s.newest = newest
		s.rebuildAt(newest)
		return
	}
	s.Rebuild()
}

func (s *Screen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.Rebuild()
}

func (s *Screen) Typing() bool { return s.filter.Editing || s.renaming || s.deleting != 0 }

func (s *Screen) Back() bool {
	if s.renaming || s.deleting != 0 {
		s.renaming, s.deleting = false, 0
		s.name.Blur()
		return true
	}
	if !s.Compare && s.filter.Active() {
		s.filter.Clear()
		s.Rebuild()
		return true
	}
	if s.Compare {
		s.Compare = false
		s.Picked = nil
		s.Rebuild()
		return true
	}
	return false
}

func (s *Screen) ShortHelp() []key.Binding {
	switch {
	case s.Compare:
		return nil
	case s.filter.Editing:
		return s.filter.Help()
	case s.renaming:
		return []key.Binding{s.keys.keep, s.keys.cancel}
	case s.deleting != 0:
		return []key.Binding{s.keys.confirm}
	case len(s.Runs) == 0: // nothing to open, pick or sort
		return nil
	}
	return append([]key.Binding{s.keys.open, s.keys.pick, s.keys.sort, s.keys.star, s.keys.replay}, s.filter.Help()...)
}

func (s *Screen) FullHelp() [][]key.Binding {
	if s.Compare || s.filter.Editing || s.renaming || s.deleting != 0 || len(s.Runs) == 0 {
		return kit.HelpOf(s.ShortHelp())
	}
	k := s.keys
	return kit.HelpOf(s.ShortHelp(), []key.Binding{k.rename, k.delete, k.Markdown, k.CSV, k.recipe}, []key.Binding{k.up, k.down})
}

// HeaderInfo is what the header says on the right while the screen shows.
func (s *Screen) HeaderInfo() string {
	return numfmt.Count(len(s.Runs), "run")
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || s.Compare {
		return nil
	}
	switch {
	case s.renaming:
		return s.updateName(km)
	case s.deleting != 0:
		id := s.deleting
		s.deleting = 0
		if key.Matches(km, s.keys.confirm) {
			return func() tea.Msg { return ActionMsg{Run: id, Do: ActDelete} }
		}
		s.Note = "kept"
		return nil
	}
	if used, changed := s.filter.Update(km); used {
		if changed {
			s.Rebuild()
		}
		return nil
	}
	if cmd, used := s.act(km); used {
		return cmd
	}
	switch {
	case key.Matches(km, s.keys.sort):
		s.sortBy = (s.sortBy + 1) % len(sortCols)
		s.Rebuild()
		return nil
	case key.Matches(km, s.keys.pick):
		if r := s.Current(); r != nil {
			if i := slices.Index(s.Picked, r.ID); i >= 0 {
				s.Picked = slices.Delete(s.Picked, i, i+1)
			} else {
				s.Picked = append(s.Picked, r.ID)
				if len(s.Picked) > 2 {
					s.Picked = s.Picked[1:]
				}
			}
			s.Rebuild()
		}
		return nil
	case key.Matches(km, s.keys.open):
		if len(s.Picked) == 2 {
			s.Compare = true
			return nil
		}
		if r := s.Current(); r != nil && r.Done() {
			id := r.ID
			return func() tea.Msg { return kit.ShowRunMsg{Run: id} }
		}
		return nil
	}
	var cmd tea.Cmd
	s.tbl, cmd = s.tbl.Update(msg)
	s.Rebuild() // moves the ▸ to the new cursor row
	return cmd
}

// act takes the keys that act on the selected run.
func (s *Screen) act(km tea.KeyPressMsg) (tea.Cmd, bool) {
	r := s.Current()
	if r == nil || !r.Done() {
		return nil, false
	}
	ask := func(do action) tea.Cmd {
		id := r.ID
		return func() tea.Msg { return ActionMsg{Run: id, Do: do} }
	}
	k := s.keys
	switch {
	case key.Matches(km, k.star):
		return ask(ActStar), true
	case key.Matches(km, k.rename):
		s.renaming = true
		s.name.SetValue(r.Title)
		s.name.CursorEnd()
		return s.name.Focus(), true
	case key.Matches(km, k.delete):
		s.deleting = r.ID
		return nil, true
	case key.Matches(km, k.replay):
		return ask(ActReplay), true
	case key.Matches(km, k.Markdown):
		return ask(ActMarkdown), true
	case key.Matches(km, k.CSV):
		return ask(ActCSV), true
	case key.Matches(km, k.recipe):
		return ask(ActRecipe), true
	}
	return nil, false
}

// updateName edits the selected run's name; enter keeps it.
func (s *Screen) updateName(km tea.KeyPressMsg) tea.Cmd {
	if !key.Matches(km, s.keys.keep) {
		var cmd tea.Cmd
		s.name, cmd = s.name.Update(km)
		return cmd
	}
	s.renaming = false
	s.name.Blur()
	r := s.Current()
	if r == nil {
		return nil
	}
	id, name := r.ID, strings.Join(strings.Fields(s.name.Value()), " ")
	return func() tea.Msg { return ActionMsg{Run: id, Do: ActRename, Name: name} }
}

// Current is the run under the cursor; nil when none is listed.
func (s *Screen) Current() *kit.RunRecord {
	i := s.tbl.Cursor()
	if i < 0 || i >= len(s.Order) {
		return nil
	}
	return s.Order[i]
}

// Rebuild sorts the runs and refills the table, the cursor kept on its run.
func (s *Screen) Rebuild() {
	var cur int
	if r := s.Current(); r != nil {
		cur = r.ID
	}
	s.rebuildAt(cur)
}

// rebuildAt sorts the runs and refills the table, the cursor on run cur
// (the first row when cur is not shown).
func (s *Screen) rebuildAt(cur int) {
	s.Order = s.Order[:0]
	for _, r := range s.Runs {
		if s.filter.Match(r.SearchText()) {
			s.Order = append(s.Order, r)
		}
	}
	if !slices.ContainsFunc(s.Order, func(r *kit.RunRecord) bool { return r.ID == cur }) {
		cur = 0 // the run under the cursor is gone (deleted, filtered out): the first
	}
	by := sortCols[s.sortBy]
	slices.SortStableFunc(s.Order, func(a, b *kit.RunRecord) int {
		switch by {
		case "dataset":
			return strings.Compare(a.DataLabel(), b.DataLabel())
		case "model":
			return strings.Compare(a.Spec.Name, b.Spec.Name)
		case "score": // best first; unknown last
			_, va, _, _ := a.Score()
			_, vb, _, _ := b.Score()
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
			return cmp.Compare(a.WallSeconds(), b.WallSeconds())
		}
		return b.ID - a.ID // newest first
	})
	w := max(s.w, kit.MinWidth)
	cols, cells := s.columns(w)
	rows := make([]table.Row, 0, len(s.Order))
	cursor := 0
	for i, r := range s.Order {
		if r.ID == cur {
			cursor = i
		}
		row := make(table.Row, len(cells))
		for j, cell := range cells {
			row[j] = cell(r, r.ID == cur || (cur == 0 && i == 0))
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

// runsColumn is a column of the runs table: its title, its width (0: the
// room left), the least it may be cut to, and its cell for a run (cursor:
// the run is under it).
type runsColumn struct {
	title        string
	width, least int
	cell         func(r *kit.RunRecord, cursor bool) string
}

// columns lays the table out in w cells. What must be seen to choose a
// run (number and marks, data, model, score, against the baseline, wall
// time) always is; then, as room allows, the runs' names, the
// evaluation and the parameters set, which the detail under the table
// shows in full anyway.
func (s *Screen) columns(w int) ([]table.Column, []func(*kit.RunRecord, bool) string) {
	wide := w >= 110
	modelW, scoreW, vsW, vsTitle, evalW := 9, 15, 9, "vs base", 11
	if wide {
		modelW, scoreW, vsW, vsTitle, evalW = 14, 17, 12, "vs baseline", 17
	}
	dsW, named := 8, 0
	for _, r := range s.Order {
		dsW = max(dsW, min(len([]rune(r.DataLabel())), modelW+8))
		named = max(named, min(len([]rune(r.Title)), 20))
	}
	must := []runsColumn{
		{"    #", 6, 6, runMarks(s.Picked)},
		{"dataset", dsW, dsW, func(r *kit.RunRecord, _ bool) string { return r.DataLabel() }},
		{"model", modelW, modelW, func(r *kit.RunRecord, _ bool) string { return r.Spec.Name }},
		{"score", scoreW, scoreW, func(r *kit.RunRecord, _ bool) string { return r.ScoreCell() }},
		{vsTitle, vsW, vsW, func(r *kit.RunRecord, _ bool) string { return r.VsBaseline(wide) }},
		{"wall", 7, 7, func(r *kit.RunRecord, _ bool) string { return r.WallCell() }},
	}
	optional := []runsColumn{
		{"evaluation", evalW, 11, func(r *kit.RunRecord, _ bool) string { return r.EvalShort() }},
		{"key params", 0, 8, func(r *kit.RunRecord, _ bool) string { return kit.KeyParams(r.Spec, r.Params) }},
	}
	if named > 0 {
		name := runsColumn{"name", max(named, 4), 6, func(r *kit.RunRecord, _ bool) string { return r.Title }}
		optional = append([]runsColumn{name}, optional...)
	}
	room := w - 2 // the table's own margin
	for _, c := range must {
		room -= c.width + 2 // one space of padding on either side
	}
	chosen := must
	for _, c := range optional {
		if room < c.least+2 {
			continue
		}
		if c.width == 0 || c.width > room-2 {
			c.width = room - 2
		}
		room -= c.width + 2
		chosen = append(chosen, c)
	}
	// The columns keep their order of reading: the optional ones go
	// between the model and the score.
	ordered := append([]runsColumn{}, chosen[:3]...)
	ordered = append(ordered, chosen[len(must):]...)
	ordered = append(ordered, chosen[3:len(must)]...)
	cols := make([]table.Column, len(ordered))
	cells := make([]func(*kit.RunRecord, bool) string, len(ordered))
	for i, c := range ordered {
		cols[i], cells[i] = table.Column{Title: c.title, Width: c.width}, c.cell
	}
	return cols, cells
}

// runMarks is the first cell: the cursor (▸), a star (★), a pick (✓),
// then the run's number.
func runMarks(picked []int) func(r *kit.RunRecord, cursor bool) string {
	return func(r *kit.RunRecord, cursor bool) string {
		m := []rune("   ")
		if cursor {
			m[0] = '▸'
		}
		if r.Starred {
			m[1] = '★'
		}
		if slices.Contains(picked, r.ID) {
			m[2] = '✓'
		}
		return fmt.Sprintf("%s%3d", string(m), r.ID)
	}
}

func (s *Screen) View() string {
	st := s.c.Styles
	if s.Compare {
		return s.compareView()
	}
	count := fmt.Sprint(len(s.Runs))
	if n := s.pastRuns(); n > 0 {
		count += fmt.Sprintf(", %d from earlier sessions", n)
	}
	title := st.Title.Render(" Runs ("+count+")") +
		st.Muted.Render(fmt.Sprintf("   sort: %s ▾", sortCols[s.sortBy]))
	if len(s.Picked) > 0 {
		title += st.Muted.Render(fmt.Sprintf("   picked %d of 2", len(s.Picked)))
	}
	if len(s.Runs) == 0 {
		return title + "\n\n" + st.Muted.Render("  No runs yet: choose a dataset and a model, then train.") + "\n\n" + st.Muted.Render(kit.Clip(" "+s.Note, s.w))
	}
	if s.filter.Active() {
		title += "   " + s.filter.Status(s.c.Styles, len(s.Order), len(s.Runs))
	}
	s.rebuildStyles()
	return title + "\n" + kit.Fit(s.tbl.View(), s.w, max(s.h-1-runDetailLines, 3)) + "\n" + s.detail()
}

// pastRuns counts the runs of earlier sessions.
func (s *Screen) pastRuns() int {
	n := 0
	for _, r := range s.Runs {
		if r.Past {
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
func (s *Screen) detail() string {
	st := s.c.Styles
	r := s.Current()
	var prompt string
	switch {
	case s.renaming:
		prompt = " " + s.name.View(st, 0)
	case s.deleting != 0:
		prompt = st.Warn.Render(fmt.Sprintf(" delete run #%d from the lab and the run history? y: yes, any other key: no", s.deleting))
	case s.Note != "":
		prompt = st.Muted.Render(kit.Clip(" "+s.Note, s.w))
	}
	if r == nil {
		return st.Muted.Render(" no run matches the filter: esc clears it") + "\n" + prompt
	}
	name := ""
	if r.Title != "" {
		name = "“" + r.Title + "” "
	}
	text := fmt.Sprintf("#%d %s%s · %s (%s) · %s · %s · seed %d", r.ID, name, r.DataLabel(), r.Spec.Title, kit.KeyParams(r.Spec, r.Params),
		r.EvalDesc(), r.TargetDesc(), r.Options.Seed)
	if r.Past {
		text += " · an earlier session's, " + r.Started.Local().Format("2006-01-02 15:04")
	}
	if r.HistID != "" {
		text += " · history id " + r.HistID
	}
	room := runDetailLines
	if prompt != "" {
		room--
	}
	lines := strings.Split(kit.Wrap(text, s.w-2), "\n")
	if len(lines) > room {
		lines = lines[:room]
		lines[room-1] = kit.Clip(lines[room-1]+" …", s.w-2)
	}
	for i, l := range lines {
		lines[i] = " " + st.Text.Render(l)
	}
	if prompt != "" {
		lines = append(lines, prompt)
	}
	return strings.Join(lines, "\n")
}

// rebuildStyles keeps the table's styles in step with the theme.
func (s *Screen) rebuildStyles() {
	st := table.DefaultStyles()
	st.Header = s.c.Styles.Header.Padding(0, 1)
	st.Cell = s.c.Styles.Text.Padding(0, 1)
	st.Selected = s.c.Styles.SelectedRow
	s.tbl.SetStyles(st)
}

// SetNote says what became of the last action on the runs.
func (s *Screen) SetNote(note string) { s.Note = note }

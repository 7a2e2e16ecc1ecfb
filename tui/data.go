package tui

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/widgets"
)

type dataKeys struct {
	Up, Down  key.Binding
	Load      key.Binding
	Use       key.Binding
	Knobs     key.Binding
	Browse    key.Binding
	Path      key.Binding
	Preview   key.Binding
	SetTarget key.Binding
	NoTarget  key.Binding
	DropCol   key.Binding
	Restore   key.Binding
	ScrollL   key.Binding
	ScrollR   key.Binding
	NextField key.Binding
	PrevField key.Binding
	Generate  key.Binding
	OpenTyped key.Binding
	PageUp    key.Binding
	PageDown  key.Binding
}

func defaultDataKeys() dataKeys {
	return dataKeys{
		Up:        bind("↑/k", "up", "up", "k"),
		Down:      bind("↓/j", "down", "down", "j"),
		Load:      bind("enter", "load & preview", "enter"),
		Use:       bind("enter", "use this data →", "enter"),
		Knobs:     bind("e", "edit knobs", "e"),
		Browse:    bind("o", "browse files", "o"),
		Path:      bind("p", "type a path", "p"),
		Preview:   bind("→/l", "preview", "right", "l"),
		SetTarget: bind("s", "set as target", "s"),
		NoTarget:  bind("u", "no target (clustering)", "u"),
		DropCol:   bind("d", "drop column", "d"),
		Restore:   bind("r", "restore dropped", "r"),
		ScrollL:   bind("h", "columns left", "h"),
		ScrollR:   bind("l", "columns right", "l"),
		NextField: bind("↓/tab", "next knob", "down", "tab"),
		PrevField: bind("↑/shift+tab", "previous knob", "up", "shift+tab"),
		Generate:  bind("enter", "generate", "enter"),
		OpenTyped: bind("enter", "open", "enter"),
		PageUp:    bind("[", "earlier rows", "["),
		PageDown:  bind("]", "later rows", "]"),
	}
}

type dataFocus int

const (
	focusList dataFocus = iota
	focusKnobs
	focusPicker
	focusPath
	focusPreview
)

// Preview tabs.
const (
	previewColumns = "Columns"
	previewPlot    = "Plot"
	previewHist    = "Histograms"
	previewRows    = "Rows"
	previewBalance = "Balance"
)

// maxPreviewRows caps the rows table: a preview, not a spreadsheet.
const maxPreviewRows = 1000

// knobField edits one generator knob.
type knobField struct {
	knob  datasets.Knob
	input textField
	err   error
}

// dataScreen chooses the data: built-in sets, generators with their knobs,
// or a file (picked or typed). Nothing is parsed until a source is chosen
// (datasets.Catalog is cheap); loading runs in a tea.Cmd. The preview shows
// the columns (kind, missing, levels or range), the rows and the class
// balance, and lets the person choose the target column.
type dataScreen struct {
	c       *common
	keys    dataKeys
	entries []datasets.Entry
	cursor  int // over entries, then one "open a file" item
	focus   dataFocus
	knobs   map[string][]*knobField
	kfocus  int
	picker  fileBrowser
	path    textField

	loading   string // the source being loaded, "" when idle
	seq       int
	auto      bool          // continue as soon as the load succeeds (start-up)
	pending   string        // target asked for with the load
	pendTask  datasets.Task // task asked for with the load (Auto: infer)
	pendDrop  []string      // columns to drop, asked for with the load
	loadErr   error
	full      *datasets.Table // as loaded
	dropped   []string        // columns dropped from it (id columns, leaks)
	table     *datasets.Table // full without the dropped columns
	forced    string          // the task as forced (start-up --task); "" inferred
	source    string
	target    string // "" means the last column
	ds        *datasets.Dataset
	dsErr     error
	tabs      widgets.Tabs
	cols      table.Model
	rows      table.Model
	colOff    int // first column of the rows table
	balance   widgets.Bars
	balanceOK bool
	plot      *dataPlot
	hists     *dataHistograms
	rowOff    int // first row of the rows table's page
	// listFilter narrows the list, colFilter the columns (colIdx: the
	// column of each row of cols).
	listFilter, colFilter listFilter
	colIdx                []int
	w, h                  int
}

func newDataScreen(c *common) *dataScreen {
	s := &dataScreen{c: c, keys: defaultDataKeys(), entries: datasets.Catalog(), knobs: map[string][]*knobField{},
		listFilter: newListFilter(), colFilter: newListFilter()}
	for _, e := range s.entries {
		for _, k := range e.Knobs {
			in := newInput()
			in.CharLimit = 20
			in.Width = 10
			in.SetValue(engine.Format(k.Default))
			s.knobs[e.Name] = append(s.knobs[e.Name], &knobField{knob: k, input: in})
		}
	}
	s.path = newInput()
	s.path.Prompt = "path: "
	s.path.Placeholder = "data.csv, data.tsv, data.arff (.gz too)"
	s.path.CharLimit = 4096
	s.tabs = widgets.NewTabs([]string{previewColumns, previewPlot, previewHist, previewRows, previewBalance}, c.styles)
	s.plot = newDataPlot(c)
	s.hists = newDataHistograms(c)
	s.cols = table.New()
	s.rows = table.New()
	s.balance = widgets.NewBars(nil, nil, c.styles)
	return s
}

func (s *dataScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	pw, ph := s.previewSize()
	s.tabs.SetSize(pw-4, 1)
	th := max(ph-7, 3)
	s.cols.SetWidth(pw - 4)
	s.cols.SetHeight(th)
	s.rows.SetWidth(pw - 4)
	s.rows.SetHeight(th)
	s.balance.SetSize(pw-4, th+1)
	s.plot.SetSize(pw-4, th+1)
	s.hists.SetSize(pw-4, th+1)
	s.path.Width = max(pw-14, 10)
	s.refreshColumns()
	s.refreshRows()
}

func (s *dataScreen) listWidth() int { return min(max(s.w*3/10, 30), 44) }

func (s *dataScreen) previewSize() (int, int) { return s.w - s.listWidth() - 1, s.h }

func (s *dataScreen) Typing() bool {
	f := s.filterOf()
	return s.focus == focusKnobs || s.focus == focusPath || f != nil && f.editing
}

func (s *dataScreen) Back() bool {
	if s.clearFilter() {
		return true
	}
	switch s.focus {
	case focusKnobs, focusPicker, focusPath, focusPreview:
		s.focus = focusList
		s.path.Blur()
		s.blurKnobs()
		return true
	}
	return false
}

func (s *dataScreen) ShortHelp() []key.Binding {
	if f := s.filterOf(); f != nil && f.editing {
		return f.help()
	}
	switch s.focus {
	case focusKnobs:
		return []key.Binding{s.keys.Generate, s.keys.NextField}
	case focusPicker:
		return []key.Binding{s.picker.keys.Open, s.picker.keys.Parent, s.picker.keys.Hidden}
	case focusPath:
		open := s.keys.OpenTyped
		open.SetEnabled(strings.TrimSpace(s.path.Value()) != "")
		return []key.Binding{open}
	case focusPreview:
		ks := []key.Binding{s.keys.Use, s.tabs.KeyMap.Next}
		switch s.tabs.ActiveName() {
		case previewColumns:
			ks = append(ks, s.keys.SetTarget, s.keys.NoTarget, s.keys.DropCol)
			ks = append(ks, s.filterHelp()...)
			if len(s.dropped) > 0 {
				ks = append(ks, s.keys.Restore)
			}
		case previewPlot:
			ks = append(ks, s.plot.Keys()...)
		case previewHist:
			ks = append(ks, s.hists.Keys()...)
		case previewRows:
			ks = append(ks, s.keys.ScrollL, s.keys.ScrollR)
			if s.table != nil && s.table.Rows() > maxPreviewRows {
				ks = append(ks, s.keys.PageUp, s.keys.PageDown)
			}
		}
		return ks
	}
	ks := append([]key.Binding{s.loadOrUse()}, s.filterHelp()...)
	if s.selectedEntry() != nil && s.selectedEntry().Kind == "generator" {
		ks = append(ks, s.keys.Knobs)
	}
	ks = append(ks, s.keys.Browse, s.keys.Path)
	if s.table != nil {
		ks = append(ks, s.keys.Preview)
	}
	return ks
}

func (s *dataScreen) FullHelp() [][]key.Binding {
	return helpOf(s.ShortHelp(), s.navKeys())
}

// navKeys move about where the focus is: only the help lists them.
func (s *dataScreen) navKeys() []key.Binding {
	if f := s.filterOf(); f != nil && f.editing {
		return nil
	}
	switch s.focus {
	case focusList:
		return []key.Binding{s.keys.Up, s.keys.Down}
	case focusKnobs:
		return []key.Binding{s.keys.PrevField}
	case focusPicker:
		return []key.Binding{s.picker.keys.Up, s.picker.keys.Down}
	case focusPreview:
		ks := []key.Binding{s.tabs.KeyMap.Prev}
		if n := s.tabs.ActiveName(); n == previewColumns || n == previewRows {
			ks = append(ks, s.keys.Up, s.keys.Down)
		}
		return ks
	}
	return nil
}

// loadOrUse is the list's enter: load the highlighted source, or continue
// with it when it is what the preview shows.
func (s *dataScreen) loadOrUse() key.Binding {
	if s.ds != nil && s.source == s.highlightedSource() {
		return s.keys.Use
	}
	return s.keys.Load
}

func (s *dataScreen) headerInfo() string {
	if s.loading != "" {
		return "loading " + clip(s.loading, 30) + "…"
	}
	return fmt.Sprintf("%d built-in sets and generators", len(s.entries))
}

func (s *dataScreen) selectedEntry() *datasets.Entry {
	if s.cursor < len(s.entries) {
		return &s.entries[s.cursor]
	}
	return nil
}

// highlightedSource is the source the list's cursor stands for, with the
// generator's knobs as edited ("" for the file item or invalid knobs).
func (s *dataScreen) highlightedSource() string {
	e := s.selectedEntry()
	if e == nil {
		return ""
	}
	if e.Kind != "generator" {
		return e.Name
	}
	var parts []string
	for _, f := range s.knobs[e.Name] {
		if f.err != nil {
			return ""
		}
		parts = append(parts, f.knob.Name+"="+strings.TrimSpace(f.input.Value()))
	}
	return e.Name + ":" + strings.Join(parts, ",")
}

// open loads source in the background, then derives the dataset with
// target and task (datasets.Auto infers it); auto continues to the model
// screen as soon as it is loaded (the start-up path).
func (s *dataScreen) open(source, target string, task datasets.Task, drop []string, auto bool) tea.Cmd {
	s.seq++
	seq := s.seq
	s.loading, s.auto, s.pending, s.pendTask, s.pendDrop, s.loadErr = source, auto, target, task, drop, nil
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = tableLoadedMsg{seq: seq, source: source, err: fmt.Errorf("%s: reading crashed: %v", source, r)}
			}
		}()
		t, err := datasets.Open(source)
		if err == nil {
			t = t.Printable() // names and levels with control characters, escaped
		}
		return tableLoadedMsg{seq: seq, source: source, table: t, err: err}
	}
}

func (s *dataScreen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tableLoadedMsg:
		if msg.seq != s.seq {
			return nil // a newer load was asked for
		}
		s.loading = ""
		if msg.err != nil {
			s.loadErr = msg.err
			return nil
		}
		s.full, s.source, s.dropped = msg.table, msg.source, nil
		s.table = s.full
		if err := s.drop(s.pendDrop...); err != nil {
			s.loadErr = err
		}
		s.setTarget(s.pending, s.pendTask)
		s.rowOff = 0
		s.tabs.SetActive(0)
		if s.ds != nil && len(s.ds.Features) <= 2 {
			s.tabs.SetActive(slices.Index(s.tabs.Names(), previewPlot)) // small data: the picture first
		}
		s.focus = focusPreview
		if s.auto {
			s.auto = false
			if s.ds != nil {
				return s.use()
			}
		}
		return nil
	case fileChosenMsg:
		s.focus = focusList
		return s.open(msg.path, "", datasets.Auto, nil, false)
	case dirReadMsg:
		return s.picker.update(msg)
	case tea.KeyMsg:
		return s.key(msg)
	}
	return nil
}

func (s *dataScreen) key(msg tea.KeyMsg) tea.Cmd {
	switch s.focus {
	case focusKnobs:
		return s.keyKnobs(msg)
	case focusPicker:
		return s.updatePicker(msg)
	case focusPath:
		if key.Matches(msg, s.keys.OpenTyped) {
			p := strings.TrimSpace(s.path.Value())
			if p == "" {
				return nil
			}
			s.path.Blur()
			s.focus = focusList
			return s.open(expandHome(p), "", datasets.Auto, nil, false)
		}
		var cmd tea.Cmd
		s.path, cmd = s.path.Update(msg)
		return cmd
	case focusPreview:
		return s.keyPreview(msg)
	}
	if s.filterKey(msg) {
		return nil
	}
	switch {
	case key.Matches(msg, s.keys.Up):
		s.moveCursor(-1)
	case key.Matches(msg, s.keys.Down):
		s.moveCursor(1)
	case key.Matches(msg, s.keys.Load):
		if s.selectedEntry() == nil {
			return s.startPicker()
		}
		src := s.highlightedSource()
		if src == "" {
			s.focus = focusKnobs
			s.focusKnob()
			return nil
		}
		if s.ds != nil && src == s.source {
			return s.use()
		}
		return s.open(src, "", datasets.Auto, nil, false)
	case key.Matches(msg, s.keys.Knobs):
		if e := s.selectedEntry(); e != nil && e.Kind == "generator" {
			s.focus, s.kfocus = focusKnobs, 0
			s.focusKnob()
		}
	case key.Matches(msg, s.keys.Browse):
		return s.startPicker()
	case key.Matches(msg, s.keys.Path):
		s.focus = focusPath
		return s.path.Focus()
	case key.Matches(msg, s.keys.Preview):
		if s.table != nil {
			s.focus = focusPreview
		}
	}
	return nil
}

func (s *dataScreen) keyKnobs(msg tea.KeyMsg) tea.Cmd {
	e := s.selectedEntry()
	if e == nil {
		s.focus = focusList
		return nil
	}
	fs := s.knobs[e.Name]
	switch {
	case key.Matches(msg, s.keys.Generate):
		for i, f := range fs {
			if f.err != nil {
				s.kfocus = i
				s.focusKnob()
				return nil
			}
		}
		s.blurKnobs()
		s.focus = focusList
		return s.open(s.highlightedSource(), "", datasets.Auto, nil, false)
	case key.Matches(msg, s.keys.NextField):
		s.kfocus = (s.kfocus + 1) % len(fs)
		s.focusKnob()
		return nil
	case key.Matches(msg, s.keys.PrevField):
		s.kfocus = (s.kfocus - 1 + len(fs)) % len(fs)
		s.focusKnob()
		return nil
	}
	if s.kfocus >= len(fs) {
		return nil
	}
	f := fs[s.kfocus]
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	f.err = checkKnob(f.knob, f.input.Value())
	return cmd
}

// checkKnob validates a knob value against its range, naming the knob.
func checkKnob(k datasets.Knob, text string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("knob %s: %q is not a number", k.Name, text)
	}
	if k.Int && v != math.Trunc(v) {
		return fmt.Errorf("knob %s: %s is not a whole number", k.Name, text)
	}
	if v < k.Min || v > k.Max {
		return fmt.Errorf("knob %s: %s is out of range [%s, %s]", k.Name, text, numfmt.Bound(k.Min), numfmt.Bound(k.Max))
	}
	return nil
}

func (s *dataScreen) focusKnob() {
	e := s.selectedEntry()
	if e == nil {
		return
	}
	for i, f := range s.knobs[e.Name] {
		if i == s.kfocus {
			f.input.Focus()
		} else {
			f.input.Blur()
		}
	}
}

func (s *dataScreen) blurKnobs() {
	for _, fs := range s.knobs {
		for _, f := range fs {
			f.input.Blur()
		}
	}
}

func (s *dataScreen) startPicker() tea.Cmd {
	if s.picker.seq == 0 {
		s.picker = newFileBrowser()
	}
	s.focus = focusPicker
	return s.picker.read(s.picker.dir)
}

func (s *dataScreen) updatePicker(msg tea.Msg) tea.Cmd {
	return s.picker.update(msg)
}

func (s *dataScreen) keyPreview(msg tea.KeyMsg) tea.Cmd {
	if s.filterKey(msg) {
		return nil
	}
	switch {
	case key.Matches(msg, s.keys.Use):
		if s.ds != nil {
			return s.use()
		}
		return nil
	case key.Matches(msg, s.tabs.KeyMap.Next, s.tabs.KeyMap.Prev):
		var cmd tea.Cmd
		s.tabs, cmd = s.tabs.Update(msg)
		return cmd
	}
	switch s.tabs.ActiveName() {
	case previewColumns:
		switch {
		case key.Matches(msg, s.keys.SetTarget):
			if i, ok := s.selectedColumn(); ok {
				s.setTarget(s.table.Columns[i].Name, datasets.Auto)
			}
			return nil
		case key.Matches(msg, s.keys.NoTarget):
			s.setTarget(datasets.NoTarget, datasets.Auto)
			return nil
		case key.Matches(msg, s.keys.DropCol):
			if i, ok := s.selectedColumn(); ok {
				if i == s.targetIndex() {
					s.dsErr = fmt.Errorf("%q is the target: choose another target (s) or none (u) before dropping it", s.table.Columns[i].Name)
					return nil
				}
				if err := s.drop(s.table.Columns[i].Name); err != nil {
					s.dsErr = err
					return nil
				}
				s.setTarget(s.target, datasets.Auto)
			}
			return nil
		case key.Matches(msg, s.keys.Restore):
			if len(s.dropped) > 0 {
				s.dropped, s.table = nil, s.full
				s.setTarget(s.target, datasets.Auto)
			}
			return nil
		}
		var cmd tea.Cmd
		s.cols, cmd = s.cols.Update(msg)
		return cmd
	case previewPlot:
		s.plot.Update(msg)
		return nil
	case previewHist:
		s.hists.Update(msg)
		return nil
	case previewRows:
		switch {
		case key.Matches(msg, s.keys.PageUp, s.keys.PageDown):
			if s.table != nil {
				step := maxPreviewRows
				if key.Matches(msg, s.keys.PageUp) {
					step = -step
				}
				s.rowOff = min(max(s.rowOff+step, 0), max(s.table.Rows()-1, 0)/maxPreviewRows*maxPreviewRows)
				s.refreshRows()
			}
			return nil
		case key.Matches(msg, s.keys.ScrollL):
			s.colOff = max(s.colOff-1, 0)
			s.refreshRows()
			return nil
		case key.Matches(msg, s.keys.ScrollR):
			if s.table != nil {
				s.colOff = min(s.colOff+1, len(s.table.Columns)-1)
				s.refreshRows()
			}
			return nil
		}
		var cmd tea.Cmd
		s.rows, cmd = s.rows.Update(msg)
		return cmd
	case previewBalance:
		var cmd tea.Cmd
		s.balance, cmd = s.balance.Update(msg)
		return cmd
	}
	return nil
}

// use hands the chosen dataset to the root.
func (s *dataScreen) use() tea.Cmd {
	m := datasetChosenMsg{table: s.table, ds: s.ds, source: s.source, target: s.target,
		task: s.forced, drop: append([]string(nil), s.dropped...)}
	return func() tea.Msg { return m }
}

// drop leaves out more columns of the loaded table.
func (s *dataScreen) drop(names ...string) error {
	if len(names) == 0 {
		return nil
	}
	t, err := s.full.Drop(append(append([]string(nil), s.dropped...), names...)...)
	if err != nil {
		return err
	}
	s.table, s.dropped = t, append(s.dropped, names...)
	s.cols.SetCursor(min(s.cols.Cursor(), len(t.Columns)-1))
	s.colOff = min(s.colOff, len(t.Columns)-1)
	return nil
}

// setTarget re-derives the dataset with target ("" = last column) and task
// (datasets.Auto infers it from the target; a target chosen in the preview
// always infers).
func (s *dataScreen) setTarget(target string, task datasets.Task) {
	s.target, s.forced = target, ""
	if task != datasets.Auto {
		s.forced = task.String()
	}
	s.ds, s.dsErr = s.table.Dataset(target, task)
	s.plot.set(s.ds)
	s.hists.set(s.ds)
	s.refreshColumns()
	s.refreshRows()
	s.refreshBalance()
}

func (s *dataScreen) targetIndex() int {
	switch s.target {
	case datasets.NoTarget:
		return -1
	case "":
		return len(s.table.Columns) - 1
	}
	return s.table.ColumnIndex(s.target)
}

func (s *dataScreen) tableStyles() table.Styles {
	st := table.DefaultStyles()
	st.Header = s.c.styles.Header.Padding(0, 1)
	st.Cell = s.c.styles.Text.Padding(0, 1)
	st.Selected = s.c.styles.SelectedRow
	return st
}

func (s *dataScreen) refreshColumns() {
	t := s.table
	if t == nil {
		return
	}
	pw, _ := s.previewSize()
	avail := pw - 4
	ti := s.targetIndex()
	// The name column fits the longest name (and the target's " ◂").
	nameW, maxMissing := 6, 0
	for j, c := range t.Columns {
		n := min(len([]rune(c.Name)), 22)
		if j == ti {
			n += 2
		}
		nameW = max(nameW, n)
		maxMissing = max(maxMissing, c.Missing)
	}
	// Cells have one space of padding on each side. Narrow previews (an
	// 80-column terminal) get short kinds and headers so that the levels
	// or range stay readable; the role column only when there is room
	// (else the target's name carries a ◂).
	compact := avail < 64
	kindW, missTitle := 7, "missing"
	if compact {
		kindW, missTitle = 4, "miss"
	}
	missW := max(len(missTitle), len(strconv.Itoa(maxMissing)))
	wideRole := avail >= 80
	fixed := nameW + kindW + missW + 2*4
	if wideRole {
		fixed += 7 + 2
	}
	lvW := max(avail-fixed, 6)
	cols := []table.Column{{Title: "column", Width: nameW}, {Title: "kind", Width: kindW}, {Title: missTitle, Width: missW}}
	if wideRole {
		cols = append(cols, table.Column{Title: "role", Width: 7})
	}
	cols = append(cols, table.Column{Title: "levels / range", Width: lvW})
	rows := make([]table.Row, len(t.Columns))
	col := make([]float64, t.Rows())
	for j, c := range t.Columns {
		var lv string
		if c.Kind == datasets.Nominal {
			lv = fmt.Sprintf("%d: %s", len(c.Levels), strings.Join(c.Levels, ", "))
		} else {
			mat64Col(col, j, t)
			lv = rangeText(col)
		}
		name := c.Name
		if j == ti && !wideRole {
			name = clip(name, nameW-2) + " ◂"
		}
		kind := c.Kind.String()
		if compact {
			kind = kindAbbrev(c.Kind)
		}
		row := table.Row{name, kind, strconv.Itoa(c.Missing)}
		if wideRole {
			role := "feature"
			if j == ti {
				role = "target"
			}
			row = append(row, role)
		}
		rows[j] = append(row, lv)
	}
	rows = s.keepColumns(rows)
	s.cols.SetRows(nil)
	s.cols.SetColumns(cols)
	s.cols.SetRows(rows)
	s.cols.SetStyles(s.tableStyles())
	s.cols.Focus()
	if s.cols.Cursor() >= len(rows) || s.cols.Cursor() < 0 {
		s.cols.SetCursor(0)
	}
}

// kindAbbrev is a column kind in three letters: num, nom, or the first
// three of its name.
func kindAbbrev(k datasets.Kind) string {
	switch k {
	case datasets.Numeric:
		return "num"
	case datasets.Nominal:
		return "nom"
	}
	r := []rune(k.String())
	return string(r[:min(3, len(r))])
}

// rangeText is a numeric column's range, "4.3–7.9" (spaced when a bound is
// negative, so the dash reads as a dash), or "all missing".
func rangeText(col []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range col {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		return "all missing"
	}
	sep := "–"
	if lo < 0 || hi < 0 {
		sep = " – "
	}
	return numfmt.Sig(lo, 4) + sep + numfmt.Sig(hi, 4)
}

func mat64Col(dst []float64, j int, t *datasets.Table) {
	for i := range dst {
		dst[i] = t.Data.At(i, j)
	}
}

// refreshRows fills the rows table from column colOff on, as many columns as
// fit the preview.
func (s *dataScreen) refreshRows() {
	t := s.table
	if t == nil {
		return
	}
	pw, _ := s.previewSize()
	avail := pw - 4
	first := min(s.rowOff, max(t.Rows()-1, 0))
	n := min(t.Rows()-first, maxPreviewRows)
	var cols []table.Column
	var idx []int
	used := 0
	names := rowNameCells(t.RowNames, first, n)
	if names != nil {
		w := len([]rune(names[0]))
		cols = append(cols, table.Column{Title: padTo(rowNamesTitle, w-2) + " │", Width: w})
		used += w + 2
	}
	for j := s.colOff; j < len(t.Columns); j++ {
		w := len([]rune(t.Columns[j].Name))
		for i := range n {
			w = max(w, len([]rune(cellText(t.Columns[j], t.Data.At(first+i, j)))))
		}
		w = min(max(w, 4), 16)
		if used+w+2 > avail && len(idx) > 0 {
			break
		}
		cols = append(cols, table.Column{Title: t.Columns[j].Name, Width: w})
		idx = append(idx, j)
		used += w + 2
	}
	rows := make([]table.Row, n)
	for i := range n {
		r := make(table.Row, 0, len(cols))
		if names != nil {
			r = append(r, names[i])
		}
		for _, j := range idx {
			r = append(r, cellText(t.Columns[j], t.Data.At(first+i, j)))
		}
		rows[i] = r
	}
	cur := s.rows.Cursor()
	s.rows.SetRows(nil)
	s.rows.SetColumns(cols)
	s.rows.SetRows(rows)
	s.rows.SetStyles(s.tableStyles())
	s.rows.Focus()
	s.rows.SetCursor(min(max(cur, 0), max(n-1, 0)))
}

// rowNamesTitle heads the row names in the rows table.
const rowNamesTitle = "row name"

// rowNameCells are the names of rows first..first+n-1, padded alike and
// ruled off from the columns that follow (they are not a column); nil when
// the rows have no names.
func rowNameCells(names []string, first, n int) []string {
	if names == nil || n == 0 {
		return nil
	}
	w := len([]rune(rowNamesTitle))
	for _, name := range names[first : first+n] {
		w = max(w, len([]rune(name)))
	}
	w = min(w, 20)
	out := make([]string, n)
	for i, name := range names[first : first+n] {
		out[i] = padTo(name, w) + " │"
	}
	return out
}

// cellText shows a value as the file had it: a level name, a number, or ?
// for missing.
func cellText(c datasets.Column, v float64) string {
	if math.IsNaN(v) {
		return "?"
	}
	if c.Kind == datasets.Nominal {
		if i := int(v); i >= 0 && i < len(c.Levels) {
			return c.Levels[i]
		}
	}
	return numfmt.Sig(v, 6)
}

// refreshBalance draws the class balance (classification) or a histogram of
// the target (regression).
func (s *dataScreen) refreshBalance() {
	s.balanceOK = false
	d := s.ds
	if d == nil {
		return
	}
	switch d.Task {
	case datasets.Classification:
		counts := d.ClassCounts()
		vals := make([]float64, len(counts))
		for i, c := range counts {
			vals[i] = float64(c)
		}
		s.balance = widgets.NewBars(d.Classes, vals, s.c.styles)
		s.balance.SetClassColors(true)
		s.balanceOK = true
	case datasets.Regression:
		labels, vals := histogram(d.Y, 12)
		s.balance = widgets.NewBars(labels, vals, s.c.styles)
		s.balanceOK = true
	}
	pw, ph := s.previewSize()
	s.balance.SetSize(pw-4, max(ph-5, 3))
}

// histogram counts the finite values of y in at most k bins chosen from
// the data (chooseBins) and labelled by their edges or values; infinite
// values get a bar of their own ("±Inf") and NaN is skipped.
func histogram(y []float64, k int) ([]string, []float64) {
	k = max(k, 1)
	finite := make([]float64, 0, len(y))
	inf := 0
	for _, v := range y {
		switch {
		case math.IsInf(v, 0):
			inf++
		case !math.IsNaN(v):
			finite = append(finite, v)
		}
	}
	var labels []string
	var counts []float64
	if len(finite) > 0 {
		b := chooseBins(finite, k)
		c := b.count(finite, nil, 1)
		if b.vmin == b.vmax {
			labels, counts = []string{numfmt.Score(b.vmin)}, []float64{float64(len(finite))}
		} else {
			for i := range b.k {
				labels = append(labels, b.label(i))
				counts = append(counts, c[i][0])
			}
		}
	}
	if inf > 0 {
		labels, counts = append(labels, "±Inf"), append(counts, float64(inf))
	}
	return labels, counts
}

func expandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}

func (s *dataScreen) View() string {
	lw := s.listWidth()
	pw, ph := s.previewSize()
	left := s.listView(lw, s.h)
	right := s.previewView(pw, ph)
	return lipgloss.JoinHorizontal(lipgloss.Top, left, " ", right)
}

func (s *dataScreen) listView(w, h int) string {
	st := s.c.styles
	var lines []string
	kind := ""
	for _, i := range s.shownEntries() {
		e := s.entries[i]
		if e.Kind != kind {
			kind = e.Kind
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			title := "Built-in sets"
			if kind == "generator" {
				title = "Generators"
			}
			lines = append(lines, st.Header.Render(title))
		}
		lines = append(lines, s.listItem(i, e.Name, fmt.Sprintf("%d×%d", e.Rows, e.Cols), taskShort(e.Task), w-3))
	}
	if s.listFilter.active() {
		lines = append([]string{clip(s.listFilter.status(len(s.shownEntries()), len(s.entries)), w-4)}, lines...)
	}
	lines = append(lines, "", st.Header.Render("Files"))
	lines = append(lines, s.listItem(len(s.entries), "open a file…", "o / p", "", w-3))
	focus := s.focus == focusList
	return panel(st, "Data", strings.Join(scrollTo(lines, s.cursorLine(), h-2), "\n"), w, h, focus)
}

// cursorLine is the list line of the cursor (for scrolling).
func (s *dataScreen) cursorLine() int {
	line, kind := 0, ""
	if s.listFilter.active() {
		line++ // the filter's line
	}
	for n, i := range s.shownEntries() {
		e := s.entries[i]
		if e.Kind != kind {
			kind = e.Kind
			if n > 0 {
				line++
			}
			line++
		}
		if i == s.cursor {
			return line
		}
		line++
	}
	return line + 2
}

// scrollTo returns the window of lines of height h that shows line cur.
func scrollTo(lines []string, cur, h int) []string {
	if len(lines) <= h {
		return lines
	}
	start := min(max(cur-h/2, 0), len(lines)-h)
	return lines[start : start+h]
}

func (s *dataScreen) listItem(i int, name, shape, task string, w int) string {
	st := s.c.styles
	loaded := ""
	if s.table != nil && i < len(s.entries) && strings.SplitN(s.source, ":", 2)[0] == s.entries[i].Name {
		loaded = "•"
	}
	text := fmt.Sprintf("%-1s%-14s %8s", loaded, clip(name, 14), shape)
	if w-2 >= 30 {
		text += fmt.Sprintf(" %5s", task)
	}
	text = fitWidth(text, w-2)
	if i == s.cursor {
		return st.SelectedRow.Render("▸ " + text)
	}
	return "  " + st.Text.Render(text)
}

func taskShort(t datasets.Task) string {
	switch t {
	case datasets.Classification:
		return "class"
	case datasets.Regression:
		return "regr"
	}
	return "clust"
}

func (s *dataScreen) previewView(w, h int) string {
	st := s.c.styles
	iw := w - 4
	switch s.focus {
	case focusPicker:
		return panel(st, "Open a file", s.picker.view(s.c, iw, h-2), w, h, true)
	case focusPath:
		path := s.path
		path.PlaceholderStyle = st.Muted // bubbles' own is a grey, drawn even by the mono theme
		body := st.Text.Render("Type the path of a .csv, .tsv or .arff file (gzipped too).") + "\n\n" +
			path.View() + "\n\n" + st.Muted.Render("enter opens it · esc goes back")
		return panel(st, "Open a file by path", body, w, h, true)
	}
	var top []string
	if s.loading != "" {
		top = append(top, st.Muted.Render("loading "+clip(s.loading, iw-12)+"…"))
	}
	if s.loadErr != nil {
		top = append(top, st.Error.Render("could not load the data"), st.Text.Render(wrap(s.loadErr.Error(), iw)), "")
	}
	e := s.selectedEntry()
	showDetails := s.table == nil || (s.focus != focusPreview && s.highlightedSource() != s.source) || s.focus == focusKnobs
	if showDetails {
		var b []string
		b = append(b, top...)
		if e == nil {
			b = append(b, st.Text.Render("Open your own data: a CSV, TSV or ARFF file, gzipped or not."), "",
				st.Key.Render("o")+st.Muted.Render(" browse for a file   ")+st.Key.Render("p")+st.Muted.Render(" type its path"),
				"", st.Muted.Render(wrap("The target is the last column unless you choose another in the preview; "+
					"nominal targets mean classification, numeric ones regression, none clustering.", iw)))
			return panel(st, "Files", strings.Join(b, "\n"), w, h, false)
		}
		b = append(b, st.Text.Render(wrap(e.Summary, iw)), "")
		b = append(b, st.Muted.Render(numfmt.Count(e.Rows, "row")+" · "+numfmt.Count(e.Cols, "feature")+" · "+e.Task.String()))
		if fs := s.knobs[e.Name]; len(fs) > 0 {
			b = append(b, "", st.Header.Render("Knobs"))
			for i, f := range fs {
				mark := "  "
				if s.focus == focusKnobs && i == s.kfocus {
					mark = st.Accent.Render("▸ ")
				}
				in := f.input
				in.Width = 10
				box, sep := "["+fitWidth(in.View(), 11)+"]", " "
				if f.err != nil { // marked, not only coloured
					box, sep = st.Bad.Render(box), st.Bad.Render("✗")
				}
				rng := numfmt.Bound(f.knob.Min) + "…" + numfmt.Bound(f.knob.Max)
				b = append(b, mark+fitWidth(f.knob.Name, 8)+box+sep+st.Muted.Render(clip(rng+" · "+f.knob.Help, iw-24)))
			}
			if f := s.focusedKnobErr(e); f != nil {
				b = append(b, "", st.Error.Render(clip(f.Error(), iw)))
			} else if s.focus != focusKnobs {
				b = append(b, "", st.Muted.Render("e edits the knobs · enter generates"))
			} else {
				b = append(b, "", st.Muted.Render("enter generates · esc goes back"))
			}
		} else {
			b = append(b, "", st.Muted.Render("enter loads it and shows a preview"))
		}
		return panel(st, e.Name, strings.Join(b, "\n"), w, h, s.focus == focusKnobs)
	}
	// The preview of the loaded table.
	t := s.table
	var b []string
	b = append(b, top...)
	info := numfmt.Count(t.Rows(), "row") + " × " + numfmt.Count(len(t.Columns), "column")
	if t.RowNames != nil {
		info += " + row names"
	}
	switch {
	case s.dsErr != nil:
		b = append(b, st.Text.Render(info), st.Error.Render(clip(s.dsErr.Error(), iw)))
	case s.ds.Task == datasets.Clustering:
		b = append(b, st.Text.Render(info), st.Text.Render("no target: clustering"))
	default:
		if s.ds.Task == datasets.Classification {
			info += " · " + numfmt.Count(len(s.ds.Classes), "class")
		}
		if s.ds.Dropped > 0 {
			info += " · " + numfmt.Count(s.ds.Dropped, "row") + " without a target dropped"
		}
		b = append(b, st.Text.Render(clip(info, iw)),
			st.Text.Render(clip("target "+s.ds.Target.Name+" · "+s.ds.Task.String(), iw)))
	}
	if len(s.dropped) > 0 {
		b = append(b, st.Muted.Render(clip("dropped: "+strings.Join(s.dropped, ", ")+" (r restores)", iw)))
	}
	b = append(b, s.tabs.View())
	switch s.tabs.ActiveName() {
	case previewColumns:
		if st := s.columnsStatus(); st != "" {
			b = append(b, clip(st, iw))
		}
		b = append(b, s.cols.View())
	case previewPlot:
		b = append(b, s.plot.View())
	case previewHist:
		b = append(b, s.hists.View())
	case previewRows:
		note := ""
		if t.Rows() > maxPreviewRows {
			first := min(s.rowOff, t.Rows()-1)
			note = fmt.Sprintf("rows %d-%d of %d ([ ] pages) · ", first+1, min(first+maxPreviewRows, t.Rows()), t.Rows())
		}
		shown := len(s.rows.Columns())
		if t.RowNames != nil {
			shown--
			note += "row names, then "
		}
		note += fmt.Sprintf("columns %d-%d of %d", s.colOff+1, s.colOff+shown, len(t.Columns))
		b = append(b, s.rows.View(), st.Muted.Render(note))
	case previewBalance:
		if s.balanceOK {
			what := "class balance"
			if s.ds.Task == datasets.Regression {
				what = "distribution of " + s.ds.Target.Name
			}
			b = append(b, st.Muted.Render(what), s.balance.View())
		} else {
			b = append(b, st.Muted.Render("no target, no balance: this is clustering"))
		}
	}
	title := t.Name
	switch {
	case strings.HasPrefix(t.Source, t.Name+"("):
		title = t.Source // a generator with its knobs
	case t.Source != "" && t.Source != "builtin:"+t.Name:
		title += " · " + t.Source
	}
	return panel(st, title, strings.Join(b, "\n"), w, h, s.focus == focusPreview)
}

func (s *dataScreen) focusedKnobErr(e *datasets.Entry) error {
	for i, f := range s.knobs[e.Name] {
		if f.err != nil && (s.focus != focusKnobs || i == s.kfocus) {
			return f.err
		}
	}
	return nil
}

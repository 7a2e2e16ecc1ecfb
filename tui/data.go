package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/tui/kit"
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
		Up:        kit.Bind("↑/k", "up", "up", "k"),
		Down:      kit.Bind("↓/j", "down", "down", "j"),
		Load:      kit.Bind("enter", "load & preview", "enter"),
		Use:       kit.Bind("enter", "use this data →", "enter"),
		Knobs:     kit.Bind("e", "edit knobs", "e"),
		Browse:    kit.Bind("o", "browse files", "o"),
		Path:      kit.Bind("p", "type a path", "p"),
		Preview:   kit.Bind("→/l", "preview", "right", "l"),
		SetTarget: kit.Bind("s", "set as target", "s"),
		NoTarget:  kit.Bind("u", "no target (clustering)", "u"),
		DropCol:   kit.Bind("d", "drop column", "d"),
		Restore:   kit.Bind("r", "restore dropped", "r"),
		ScrollL:   kit.Bind("h", "columns left", "h"),
		ScrollR:   kit.Bind("l", "columns right", "l"),
		NextField: kit.Bind("↓/tab", "next knob", "down", "tab"),
		PrevField: kit.Bind("↑/shift+tab", "previous knob", "up", "shift+tab"),
		Generate:  kit.Bind("enter", "generate", "enter"),
		OpenTyped: kit.Bind("enter", "open", "enter"),
		PageUp:    kit.Bind("[", "earlier rows", "["),
		PageDown:  kit.Bind("]", "later rows", "]"),
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

// dataScreen chooses the data: built-in sets, generators with their knobs,
// or a file (picked or typed). Nothing is parsed until a source is chosen
// (datasets.Catalog is cheap); loading runs in a tea.Cmd. The preview shows
// the columns (kind, missing, levels or range), the rows and the class
// balance, and lets the person choose the target column.
type dataScreen struct {
	c       *kit.Common
	keys    dataKeys
	entries []datasets.Entry
	cursor  int // over entries, then one "open a file" item
	focus   dataFocus
	knobs   map[string][]*knobField
	kfocus  int
	picker  fileBrowser
	path    kit.TextField

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
	listFilter, colFilter kit.ListFilter
	colIdx                []int
	w, h                  int
}

func newDataScreen(c *kit.Common) *dataScreen {
	s := &dataScreen{c: c, keys: defaultDataKeys(), entries: datasets.Catalog(), knobs: map[string][]*knobField{},
		listFilter: kit.NewListFilter(), colFilter: kit.NewListFilter()}
	for _, e := range s.entries {
		for _, k := range e.Knobs {
			in := kit.NewInput()
			in.CharLimit = 20
			in.SetWidth(10)
			in.SetValue(engine.Format(k.Default))
			s.knobs[e.Name] = append(s.knobs[e.Name], &knobField{knob: k, input: in})
		}
	}
	s.path = kit.NewInput()
	s.path.Prompt = "path: "
	s.path.Placeholder = "data.csv, data.tsv, data.arff (.gz too)"
	s.path.CharLimit = 4096
	s.tabs = widgets.NewTabs([]string{previewColumns, previewPlot, previewHist, previewRows, previewBalance}, c.Styles)
	s.plot = newDataPlot(c)
	s.hists = newDataHistograms(c)
	s.cols = table.New()
	s.rows = table.New()
	s.balance = widgets.NewBars(nil, nil, c.Styles)
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
	s.path.SetWidth(max(pw-14, 10))
	s.refreshColumns()
	s.refreshRows()
}

func (s *dataScreen) listWidth() int { return min(max(s.w*3/10, 30), 44) }

func (s *dataScreen) previewSize() (int, int) { return s.w - s.listWidth() - 1, s.h }

func (s *dataScreen) Typing() bool {
	f := s.filterOf()
	return s.focus == focusKnobs || s.focus == focusPath || f != nil && f.Editing
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

// closed says esc has nothing to close: the list, its filter clear. The
// data screen is the first, so esc then does nothing and is not offered.
func (s *dataScreen) closed() bool {
	f := s.filterOf()
	return s.focus == focusList && (f == nil || !f.Active())
}

func (s *dataScreen) ShortHelp() []key.Binding {
	if f := s.filterOf(); f != nil && f.Editing {
		return f.Help()
	}
	switch s.focus {
	case focusKnobs:
		return []key.Binding{s.keys.Generate, s.keys.NextField}
	case focusPicker:
		return []key.Binding{s.picker.keys.Open, s.picker.keys.Parent, s.picker.keys.Hidden, s.picker.keys.Roots}
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
	return kit.HelpOf(s.ShortHelp(), s.navKeys())
}

// navKeys move about where the focus is: only the help lists them.
func (s *dataScreen) navKeys() []key.Binding {
	if f := s.filterOf(); f != nil && f.Editing {
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

func (s *dataScreen) HeaderInfo() string {
	if s.loading != "" {
		return "loading " + kit.Clip(s.loading, 30) + "…"
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
func (s *dataScreen) Open(source, target string, task datasets.Task, drop []string, auto bool) tea.Cmd {
	s.seq++
	seq := s.seq
	s.loading, s.auto, s.pending, s.pendTask, s.pendDrop, s.loadErr = source, auto, target, task, drop, nil
	c := s.c
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = kit.TableLoadedMsg{Seq: seq, Source: source, Err: fmt.Errorf("%s: reading crashed: %v", source, r)}
			}
		}()
		path, err := c.DataSource(source)
		if err != nil {
			return kit.TableLoadedMsg{Seq: seq, Source: source, Err: err}
		}
		t, err := datasets.Open(path)
		if err != nil {
			return kit.TableLoadedMsg{Seq: seq, Source: source, Err: errors.New(c.Hide(err.Error()))}
		}
		t = t.Printable() // names and levels with control characters, escaped
		t.Source = c.Shown(t.Source)
		return kit.TableLoadedMsg{Seq: seq, Source: source, Table: t}
	}
}

func (s *dataScreen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case kit.TableLoadedMsg:
		if msg.Seq != s.seq {
			return nil // a newer load was asked for
		}
		s.loading = ""
		if msg.Err != nil {
			s.loadErr = msg.Err
			return nil
		}
		s.full, s.source, s.dropped = msg.Table, msg.Source, nil
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
		return s.Open(msg.path, "", datasets.Auto, nil, false)
	case dirReadMsg:
		return s.picker.Update(msg)
	case tea.KeyPressMsg:
		return s.Key(msg)
	}
	return nil
}

func (s *dataScreen) Key(msg tea.KeyPressMsg) tea.Cmd {
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
			return s.Open(s.c.TypedPath(p), "", datasets.Auto, nil, false)
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
		return s.Open(src, "", datasets.Auto, nil, false)
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

func (s *dataScreen) startPicker() tea.Cmd {
	if s.picker.seq == 0 {
		s.picker = newFileBrowser(s.c.Files)
	}
	s.focus = focusPicker
	return s.picker.read(s.picker.dir)
}

func (s *dataScreen) updatePicker(msg tea.Msg) tea.Cmd {
	return s.picker.Update(msg)
}

func (s *dataScreen) keyPreview(msg tea.KeyPressMsg) tea.Cmd {
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
	m := kit.DatasetChosenMsg{Table: s.table, Ds: s.ds, Source: s.source, Target: s.target,
		Task: s.forced, Drop: append([]string(nil), s.dropped...)}
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

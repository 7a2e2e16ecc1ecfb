package data

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

type keys struct {
	up, down  key.Binding
	load      key.Binding
	use       key.Binding
	knobs     key.Binding
	browse    key.Binding
	path      key.Binding
	preview   key.Binding
	setTarget key.Binding
	NoTarget  key.Binding
	DropCol   key.Binding
	restore   key.Binding
	ScrollL   key.Binding
	ScrollR   key.Binding
	NextField key.Binding
	PrevField key.Binding
	generate  key.Binding
	OpenTyped key.Binding
	PageUp    key.Binding
	PageDown  key.Binding
	Features  key.Binding
	// Lectures opens the lecture notes' experiments, which need no data.
	Lectures key.Binding
	// nextTab and prevTab change the tab where the arrows move a cursor.
	nextTab, prevTab key.Binding
}

// DefaultKeys are the data screen's key bindings.
func DefaultKeys() keys {
	return keys{
		up:        kit.Bind("↑/k", "up", "up", "k"),
		down:      kit.Bind("↓/j", "down", "down", "j"),
		load:      kit.Bind("enter", "load & preview", "enter"),
		use:       kit.Bind("enter", "use this data →", "enter"),
		knobs:     kit.Bind("e", "edit knobs", "e"),
		browse:    kit.Bind("o", "browse files", "o"),
		path:      kit.Bind("p", "type a path", "p"),
		preview:   kit.Bind("→/l", "preview", "right", "l"),
		setTarget: kit.Bind("s", "set as target", "s"),
		NoTarget:  kit.Bind("u", "no target (clustering)", "u"),
		DropCol:   kit.Bind("d", "drop column", "d"),
		restore:   kit.Bind("r", "restore dropped", "r"),
		ScrollL:   kit.Bind("h", "columns left", "h"),
		ScrollR:   kit.Bind("l", "columns right", "l"),
		NextField: kit.Bind("↓/tab", "next knob", "down", "tab"),
		PrevField: kit.Bind("↑/shift+tab", "previous knob", "up", "shift+tab"),
		generate:  kit.Bind("enter", "generate", "enter"),
		OpenTyped: kit.Bind("enter", "open", "enter"),
		PageUp:    kit.Bind("[", "earlier rows", "["),
		PageDown:  kit.Bind("]", "later rows", "]"),
		Features:  kit.Bind("F", "rank features", "F"),
		Lectures:  kit.Bind("L", "lectures", "L"),
		nextTab:   kit.Bind("tab", "next tab", "tab"),
		prevTab:   kit.Bind("shift+tab", "previous tab", "shift+tab"),
	}
}

// DataFocus is the part of the data screen that has the keys.
type DataFocus int

const (
	FocusList DataFocus = iota
	FocusKnobs
	FocusPicker
	FocusPath
	FocusPreview
)

// Preview tabs.
const (
	PreviewColumns = "Columns"
	PreviewPlot    = "Plot"
	PreviewMatrix  = "Matrix"
	PreviewHist    = "Histograms"
	PreviewRows    = "Rows"
	PreviewBalance = "Balance"
)

// maxPreviewRows caps the rows table: a preview, not a spreadsheet.
const maxPreviewRows = 1000

// Screen chooses the data: built-in sets, generators with their knobs,
// or a file (picked or typed). Nothing is parsed until a source is chosen
// (datasets.Catalog is cheap); loading runs in a tea.Cmd. The preview shows
// the columns (kind, missing, levels or range), the rows and the class
// balance, and lets the person choose the target column.
type Screen struct {
	c       *kit.Common
	keys    keys
	Entries []datasets.Entry
	Cursor  int // over entries, then one "open a file" item
	Focus   DataFocus
	Knobs   map[string][]*knobField
	Kfocus  int
	Picker  fileBrowser
	Path    kit.TextField

	Loading   string // the source being loaded, "" when idle
	seq       int
	auto      bool          // continue as soon as the load succeeds (start-up)
	pending   string        // target asked for with the load
	pendTask  datasets.Task // task asked for with the load (Auto: infer)
	pendDrop  []string      // columns to drop, asked for with the load
	loadErr   error
	full      *datasets.Table // as loaded
	dropped   []string        // columns dropped from it (id columns, leaks)
	Table     *datasets.Table // full without the dropped columns
	forced    string          // the task as forced (start-up --task); "" inferred
	Source    string
	Target    string // "" means the last column
	Ds        *datasets.Dataset
	DsErr     error
	Tabs      widgets.Tabs
	Cols      table.Model
	rows      table.Model
	colOff    int // first column of the rows table
	balance   widgets.Bars
	balanceOK bool
	plot      *dataPlot
	matrix    *dataMatrix
	Hists     *dataHistograms
	rowOff    int // first row of the rows table's page
	// rowsStale says the rows table is to be remade before it is shown
	// (rowsTable): a thousand rows cost more than every other tab, and
	// most sessions never look at them; rowsCursor is its cursor meanwhile.
	rowsStale  bool
	rowsCursor int
	// listFilter narrows the list, colFilter the columns (colIdx: the
	// column of each row of cols).
	listFilter, colFilter kit.ListFilter
	colIdx                []int
	w, h                  int
}

// New is the data screen, drawn with c.
func New(c *kit.Common) *Screen {
	s := &Screen{c: c, keys: DefaultKeys(), Entries: datasets.Catalog(), Knobs: map[string][]*knobField{},
		listFilter: kit.NewListFilter(), colFilter: kit.NewListFilter()}
	for _, e := range s.Entries {
		for _, k := range e.Knobs {
			in := kit.NewInput()
			in.CharLimit = 20
			in.SetWidth(10)
			in.SetValue(engine.Format(k.Default))
			s.Knobs[e.Name] = append(s.Knobs[e.Name], &knobField{knob: k, Input: in})
		}
	}
	s.Path = kit.NewInput()
	s.Path.Prompt = "path: "
	s.Path.Placeholder = "data.csv, data.tsv, data.arff (.gz too)"
	s.Path.CharLimit = 4096
	s.Tabs = widgets.NewTabs([]string{PreviewColumns, PreviewPlot, PreviewMatrix, PreviewHist, PreviewRows, PreviewBalance}, c.Styles)
	s.plot = newDataPlot(c)
	s.matrix = newDataMatrix(c)
	s.Hists = newDataHistograms(c)
	s.Cols = table.New()
	s.rows = table.New()
	s.balance = widgets.NewBars(nil, nil, c.Styles)
	return s
}

func (s *Screen) SetSize(w, h int) {
	s.w, s.h = w, h
	pw, ph := s.previewSize()
	s.Tabs.SetSize(pw-4, 1)
	th := max(ph-7, 3)
	s.refreshRows() // before the table's size: it would redraw its old rows
	s.Cols.SetWidth(pw - 4)
	s.Cols.SetHeight(th)
	s.rows.SetWidth(pw - 4)
	s.rows.SetHeight(th)
	s.balance.SetSize(pw-4, th+1)
	s.plot.SetSize(pw-4, th+1)
	s.Hists.SetSize(pw-4, th+1)
	s.Path.SetWidth(max(pw-14, 10))
	s.refreshColumns()
}

func (s *Screen) listWidth() int { return min(max(s.w*3/10, 30), 44) }

func (s *Screen) previewSize() (int, int) { return s.w - s.listWidth() - 1, s.h }

func (s *Screen) Typing() bool {
	f := s.filterOf()
	return s.Focus == FocusKnobs || s.Focus == FocusPath || f != nil && f.Editing
}

func (s *Screen) Back() bool {
	if s.clearFilter() {
		return true
	}
	if s.Focus == FocusPreview && s.Tabs.ActiveName() == PreviewMatrix && s.matrix.Back() {
		return true
	}
	switch s.Focus {
	case FocusKnobs, FocusPicker, FocusPath, FocusPreview:
		s.Focus = FocusList
		s.Path.Blur()
		s.blurKnobs()
		return true
	}
	return false
}

// Closed says esc has nothing to close: the list, its filter clear. The
// data screen is the first, so esc then does nothing and is not offered.
func (s *Screen) Closed() bool {
	f := s.filterOf()
	return s.Focus == FocusList && (f == nil || !f.Active())
}

func (s *Screen) ShortHelp() []key.Binding {
	if f := s.filterOf(); f != nil && f.Editing {
		return f.Help()
	}
	switch s.Focus {
	case FocusKnobs:
		return []key.Binding{s.keys.generate, s.keys.NextField}
	case FocusPicker:
		return []key.Binding{s.Picker.keys.open, s.Picker.keys.parent, s.Picker.keys.hidden, s.Picker.keys.roots}
	case FocusPath:
		open := s.keys.OpenTyped
		open.SetEnabled(strings.TrimSpace(s.Path.Value()) != "")
		return []key.Binding{open}
	case FocusPreview:
		if s.Tabs.ActiveName() == PreviewMatrix {
			return s.matrixHelp()
		}
		ks := []key.Binding{s.keys.use, s.Tabs.KeyMap.Next}
		if s.Ds != nil {
			ks = append(ks, s.keys.Features)
		}
		switch s.Tabs.ActiveName() {
		case PreviewColumns:
			ks = append(ks, s.keys.setTarget, s.keys.NoTarget, s.keys.DropCol)
			ks = append(ks, s.filterHelp()...)
			if len(s.dropped) > 0 {
				ks = append(ks, s.keys.restore)
			}
		case PreviewPlot:
			ks = append(ks, s.plot.Keys()...)
		case PreviewHist:
			ks = append(ks, s.Hists.Keys()...)
		case PreviewRows:
			ks = append(ks, s.keys.ScrollL, s.keys.ScrollR)
			if s.Table != nil && s.Table.Rows() > maxPreviewRows {
				ks = append(ks, s.keys.PageUp, s.keys.PageDown)
			}
		}
		return ks
	}
	ks := append([]key.Binding{s.loadOrUse()}, s.filterHelp()...)
	if s.SelectedEntry() != nil && s.SelectedEntry().Kind == "generator" {
		ks = append(ks, s.keys.knobs)
	}
	ks = append(ks, s.keys.browse, s.keys.path)
	if s.Table != nil {
		ks = append(ks, s.keys.preview)
	}
	return ks
}

func (s *Screen) FullHelp() [][]key.Binding {
	more := s.navKeys()
	if s.Focus == FocusList && !s.listFilter.Editing {
		more = append(more, s.keys.Lectures)
	}
	return kit.HelpOf(s.ShortHelp(), more)
}

// navKeys move about where the focus is: only the help lists them.
func (s *Screen) navKeys() []key.Binding {
	if f := s.filterOf(); f != nil && f.Editing {
		return nil
	}
	switch s.Focus {
	case FocusList:
		return []key.Binding{s.keys.up, s.keys.down}
	case FocusKnobs:
		return []key.Binding{s.keys.PrevField}
	case FocusPicker:
		return []key.Binding{s.Picker.keys.up, s.Picker.keys.down}
	case FocusPreview:
		if s.Tabs.ActiveName() == PreviewMatrix {
			return append([]key.Binding{s.keys.prevTab}, s.matrix.navKeys()...)
		}
		ks := []key.Binding{s.Tabs.KeyMap.Prev}
		if n := s.Tabs.ActiveName(); n == PreviewColumns || n == PreviewRows {
			ks = append(ks, s.keys.up, s.keys.down)
		}
		return ks
	}
	return nil
}

// loadOrUse is the list's enter: load the highlighted source, or continue
// with it when it is what the preview shows.
func (s *Screen) loadOrUse() key.Binding {
	if s.Ds != nil && s.Source == s.highlightedSource() {
		return s.keys.use
	}
	return s.keys.load
}

// HeaderInfo is what the header says on the right while the screen shows.
func (s *Screen) HeaderInfo() string {
	if s.Loading != "" {
		return "loading " + kit.Clip(s.Loading, 30) + "…"
	}
	return fmt.Sprintf("%d built-in sets and generators", len(s.Entries))
}

// SelectedEntry is the built-in set or generator under the cursor; nil for
// none.
func (s *Screen) SelectedEntry() *datasets.Entry {
	if s.Cursor < len(s.Entries) {
		return &s.Entries[s.Cursor]
	}
	return nil
}

// highlightedSource is the source the list's cursor stands for, with the
// generator's knobs as edited ("" for the file item or invalid knobs).
func (s *Screen) highlightedSource() string {
	e := s.SelectedEntry()
	if e == nil {
		return ""
	}
	if e.Kind != "generator" {
		return e.Name
	}
	var parts []string
	for _, f := range s.Knobs[e.Name] {
		if f.err != nil {
			return ""
		}
		parts = append(parts, f.knob.Name+"="+strings.TrimSpace(f.Input.Value()))
	}
	return e.Name + ":" + strings.Join(parts, ",")
}

// Open loads source in the background, then derives the dataset with
// target and task (datasets.Auto infers it); auto continues to the model
// screen as soon as it is loaded (the start-up path).
func (s *Screen) Open(source, target string, task datasets.Task, drop []string, auto bool) tea.Cmd {
	s.seq++
	seq := s.seq
	s.Loading, s.auto, s.pending, s.pendTask, s.pendDrop, s.loadErr = source, auto, target, task, drop, nil
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

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case kit.TableLoadedMsg:
		if msg.Seq != s.seq {
			return nil // a newer load was asked for
		}
		s.Loading = ""
		if msg.Err != nil {
			s.loadErr = msg.Err
			return nil
		}
		s.full, s.Source, s.dropped = msg.Table, msg.Source, nil
		s.Table = s.full
		if err := s.drop(s.pendDrop...); err != nil {
			s.loadErr = err
		}
		s.SetTarget(s.pending, s.pendTask)
		s.rowOff = 0
		s.Tabs.SetActive(0)
		if s.Ds != nil && len(s.Ds.Features) <= 2 {
			s.Tabs.SetActive(slices.Index(s.Tabs.Names(), PreviewPlot)) // small data: the picture first
		}
		s.Focus = FocusPreview
		if s.auto {
			s.auto = false
			if s.Ds != nil {
				return s.use()
			}
		}
		return nil
	case FileChosenMsg:
		s.Focus = FocusList
		return s.Open(msg.Path, "", datasets.Auto, nil, false)
	case DirReadMsg:
		return s.Picker.Update(msg)
	case tea.KeyPressMsg:
		return s.Key(msg)
	}
	return nil
}

// Key handles a key press on the data screen.
func (s *Screen) Key(msg tea.KeyPressMsg) tea.Cmd {
	switch s.Focus {
	case FocusKnobs:
		return s.keyKnobs(msg)
	case FocusPicker:
		return s.updatePicker(msg)
	case FocusPath:
		if key.Matches(msg, s.keys.OpenTyped) {
			p := strings.TrimSpace(s.Path.Value())
			if p == "" {
				return nil
			}
			s.Path.Blur()
			s.Focus = FocusList
			return s.Open(s.c.TypedPath(p), "", datasets.Auto, nil, false)
		}
		var cmd tea.Cmd
		s.Path, cmd = s.Path.Update(msg)
		return cmd
	case FocusPreview:
		return s.keyPreview(msg)
	}
	if s.filterKey(msg) {
		return nil
	}
	switch {
	case key.Matches(msg, s.keys.up):
		s.moveCursor(-1)
	case key.Matches(msg, s.keys.down):
		s.moveCursor(1)
	case key.Matches(msg, s.keys.Lectures):
		return func() tea.Msg { return kit.OpenLecturesMsg{} }
	case key.Matches(msg, s.keys.load):
		if s.SelectedEntry() == nil {
			return s.startPicker()
		}
		src := s.highlightedSource()
		if src == "" {
			s.Focus = FocusKnobs
			s.focusKnob()
			return nil
		}
		if s.Ds != nil && src == s.Source {
			return s.use()
		}
		return s.Open(src, "", datasets.Auto, nil, false)
	case key.Matches(msg, s.keys.knobs):
		if e := s.SelectedEntry(); e != nil && e.Kind == "generator" {
			s.Focus, s.Kfocus = FocusKnobs, 0
			s.focusKnob()
		}
	case key.Matches(msg, s.keys.browse):
		return s.startPicker()
	case key.Matches(msg, s.keys.path):
		s.Focus = FocusPath
		return s.Path.Focus()
	case key.Matches(msg, s.keys.preview):
		if s.Table != nil {
			s.Focus = FocusPreview
		}
	}
	return nil
}

func (s *Screen) startPicker() tea.Cmd {
	if s.Picker.seq == 0 {
		s.Picker = NewFileBrowser(s.c.Files)
	}
	s.Focus = FocusPicker
	return s.Picker.Read(s.Picker.Dir)
}

func (s *Screen) updatePicker(msg tea.Msg) tea.Cmd {
	return s.Picker.Update(msg)
}

func (s *Screen) keyPreview(msg tea.KeyPressMsg) tea.Cmd {
	if s.filterKey(msg) {
		return nil
	}
	if s.Tabs.ActiveName() == PreviewMatrix {
		return s.keyMatrix(msg)
	}
	switch {
	case key.Matches(msg, s.keys.use):
		if s.Ds != nil {
			return s.use()
		}
		return nil
	case key.Matches(msg, s.keys.Features):
		if s.Ds != nil {
			m := kit.OpenFeaturesMsg{Ds: s.Ds}
			return func() tea.Msg { return m }
		}
		return nil
	case key.Matches(msg, s.Tabs.KeyMap.Next, s.Tabs.KeyMap.Prev):
		var cmd tea.Cmd
		s.Tabs, cmd = s.Tabs.Update(msg)
		return cmd
	}
	switch s.Tabs.ActiveName() {
	case PreviewColumns:
		switch {
		case key.Matches(msg, s.keys.setTarget):
			if i, ok := s.selectedColumn(); ok {
				s.SetTarget(s.Table.Columns[i].Name, datasets.Auto)
			}
			return nil
		case key.Matches(msg, s.keys.NoTarget):
			s.SetTarget(datasets.NoTarget, datasets.Auto)
			return nil
		case key.Matches(msg, s.keys.DropCol):
			if i, ok := s.selectedColumn(); ok {
				if i == s.targetIndex() {
					s.DsErr = fmt.Errorf("%q is the target: choose another target (s) or none (u) before dropping it", s.Table.Columns[i].Name)
					return nil
				}
				if err := s.drop(s.Table.Columns[i].Name); err != nil {
					s.DsErr = err
					return nil
				}
				s.SetTarget(s.Target, datasets.Auto)
			}
			return nil
		case key.Matches(msg, s.keys.restore):
			if len(s.dropped) > 0 {
				s.dropped, s.Table = nil, s.full
				s.SetTarget(s.Target, datasets.Auto)
			}
			return nil
		}
		var cmd tea.Cmd
		s.Cols, cmd = s.Cols.Update(msg)
		return cmd
	case PreviewPlot:
		s.plot.Update(msg)
		return nil
	case PreviewHist:
		s.Hists.Update(msg)
		return nil
	case PreviewRows:
		switch {
		case key.Matches(msg, s.keys.PageUp, s.keys.PageDown):
			if s.Table != nil {
				step := maxPreviewRows
				if key.Matches(msg, s.keys.PageUp) {
					step = -step
				}
				s.rowOff = min(max(s.rowOff+step, 0), max(s.Table.Rows()-1, 0)/maxPreviewRows*maxPreviewRows)
				s.refreshRows()
			}
			return nil
		case key.Matches(msg, s.keys.ScrollL):
			s.colOff = max(s.colOff-1, 0)
			s.refreshRows()
			return nil
		case key.Matches(msg, s.keys.ScrollR):
			if s.Table != nil {
				s.colOff = min(s.colOff+1, len(s.Table.Columns)-1)
				s.refreshRows()
			}
			return nil
		}
		var cmd tea.Cmd
		*s.rowsTable(), cmd = s.rowsTable().Update(msg)
		return cmd
	case PreviewBalance:
		var cmd tea.Cmd
		s.balance, cmd = s.balance.Update(msg)
		return cmd
	}
	return nil
}

// use hands the chosen dataset to the root.
func (s *Screen) use() tea.Cmd {
	m := kit.DatasetChosenMsg{Table: s.Table, Ds: s.Ds, Source: s.Source, Target: s.Target,
		Task: s.forced, Drop: append([]string(nil), s.dropped...)}
	return func() tea.Msg { return m }
}

// drop leaves out more columns of the loaded table.
func (s *Screen) drop(names ...string) error {
	if len(names) == 0 {
		return nil
	}
	t, err := s.full.Drop(append(append([]string(nil), s.dropped...), names...)...)
	if err != nil {
		return err
	}
	s.Table, s.dropped = t, append(s.dropped, names...)
	s.Cols.SetCursor(min(s.Cols.Cursor(), len(t.Columns)-1))
	s.colOff = min(s.colOff, len(t.Columns)-1)
	return nil
}

// SetTarget re-derives the dataset with target ("" = last column) and task
// (datasets.Auto infers it from the target; a target chosen in the preview
// always infers).
func (s *Screen) SetTarget(target string, task datasets.Task) {
	s.Target, s.forced = target, ""
	if task != datasets.Auto {
		s.forced = task.String()
	}
	s.Ds, s.DsErr = s.Table.Dataset(target, task)
	s.plot.set(s.Ds)
	s.matrix.set(s.Ds)
	s.Hists.set(s.Ds)
	s.refreshColumns()
	s.refreshRows()
	s.refreshBalance()
}

func (s *Screen) targetIndex() int {
	switch s.Target {
	case datasets.NoTarget:
		return -1
	case "":
		return len(s.Table.Columns) - 1
	}
	return s.Table.ColumnIndex(s.Target)
}

// matrixHelp is the footer of the Matrix tab: its arrows move the cursor,
// so tab alone changes the tab, and enter opens the cell's scatter rather
// than going on with the data.
func (s *Screen) matrixHelp() []key.Binding {
	ks := s.matrix.Keys()
	if s.matrix.choosing {
		return ks
	}
	ks = append(ks, s.keys.nextTab)
	if s.Ds != nil {
		ks = append(ks, s.keys.Features)
	}
	return ks
}

// keyMatrix handles a key on the Matrix tab: the chooser's keys while it
// is open, the cursor's, enter (the cell's full scatter, or the
// histogram of a feature on the diagonal), tab and F.
func (s *Screen) keyMatrix(msg tea.KeyPressMsg) tea.Cmd {
	if s.matrix.Update(msg) {
		return nil
	}
	switch {
	case key.Matches(msg, s.matrix.keys.open):
		across, up, ok := s.matrix.Pair()
		if !ok {
			return nil
		}
		if across == up {
			s.Hists.show(across)
			s.Tabs.SetActive(slices.Index(s.Tabs.Names(), PreviewHist))
			return nil
		}
		s.plot.setAxes(across, up)
		s.Tabs.SetActive(slices.Index(s.Tabs.Names(), PreviewPlot))
	case key.Matches(msg, s.keys.nextTab, s.keys.prevTab):
		var cmd tea.Cmd
		s.Tabs, cmd = s.Tabs.Update(msg)
		return cmd
	case key.Matches(msg, s.keys.Features):
		if s.Ds != nil {
			m := kit.OpenFeaturesMsg{Ds: s.Ds}
			return func() tea.Msg { return m }
		}
	}
	return nil
}

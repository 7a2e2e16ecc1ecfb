package tui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"
	"github.com/tealab/tealab/tui/kit"
)

// The data screen's two filters (/): one narrows the list of built-in sets
// and generators, the other the preview's columns.

// filterOf is the filter the keys go to where the focus is, nil for none.
func (s *dataScreen) filterOf() *kit.ListFilter {
	switch {
	case s.focus == focusList:
		return &s.listFilter
	case s.focus == focusPreview && s.tabs.ActiveName() == previewColumns:
		return &s.colFilter
	}
	return nil
}

// filterKey gives msg to the filter where the focus is; used says it took
// the key.
func (s *dataScreen) filterKey(msg tea.KeyPressMsg) bool {
	f := s.filterOf()
	if f == nil {
		return false
	}
	used, changed := f.Update(msg)
	if changed {
		s.refilter(f)
	}
	return used
}

// clearFilter clears the filter where the focus is; false when none is
// active.
func (s *dataScreen) clearFilter() bool {
	f := s.filterOf()
	if f == nil || !f.Active() {
		return false
	}
	f.Clear()
	s.refilter(f)
	return true
}

func (s *dataScreen) refilter(f *kit.ListFilter) {
	if f == &s.colFilter {
		s.refreshColumns()
		return
	}
	if shown := s.shownEntries(); s.cursor < len(s.entries) && !s.entryShown(s.cursor) {
		s.cursor = len(s.entries) // the file item, always listed
		if len(shown) > 0 {
			s.cursor = shown[0]
		}
	}
}

// filterHelp is the keys of the filter where the focus is.
func (s *dataScreen) filterHelp() []key.Binding {
	if f := s.filterOf(); f != nil {
		return f.Help()
	}
	return nil
}

func (s *dataScreen) entryShown(i int) bool {
	e := s.entries[i]
	return s.listFilter.Match(e.Name + " " + e.Kind + " " + e.Task.String())
}

// shownEntries are the entries the list filter keeps.
func (s *dataScreen) shownEntries() []int {
	var out []int
	for i := range s.entries {
		if s.entryShown(i) {
			out = append(out, i)
		}
	}
	return out
}

// moveCursor steps the list's cursor over the shown entries and the file
// item, round.
func (s *dataScreen) moveCursor(step int) {
	items := append(s.shownEntries(), len(s.entries))
	pos := 0
	for p, i := range items {
		if i == s.cursor {
			pos = p
		}
	}
	s.cursor = items[(pos+step+len(items))%len(items)]
}

// keepColumns drops the rows of the columns table (one per column) that
// the column filter does not keep, and notes which column each row is.
func (s *dataScreen) keepColumns(rows []table.Row) []table.Row {
	s.colIdx = s.colIdx[:0]
	var kept []table.Row
	for j, r := range rows {
		if s.colFilter.Match(s.table.Columns[j].Name) {
			kept = append(kept, r)
			s.colIdx = append(s.colIdx, j)
		}
	}
	return kept
}

// selectedColumn is the column under the columns table's cursor.
func (s *dataScreen) selectedColumn() (int, bool) {
	i := s.cols.Cursor()
	if i < 0 || i >= len(s.colIdx) {
		return 0, false
	}
	return s.colIdx[i], true
}

// columnsStatus is the column filter's line above the table.
func (s *dataScreen) columnsStatus() string {
	return s.colFilter.Status(s.c.Styles, len(s.colIdx), len(s.table.Columns))
}

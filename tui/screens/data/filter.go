package data

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"
	"github.com/tealab/tealab/tui/kit"
)

// The data screen's two filters (/): one narrows the list of built-in sets
// and generators, the other the preview's columns.

// filterOf is the filter the keys go to where the focus is, nil for none.
func (s *Screen) filterOf() *kit.ListFilter {
	switch {
	case s.Focus == FocusList:
		return &s.listFilter
	case s.Focus == FocusPreview && s.Tabs.ActiveName() == PreviewColumns:
		return &s.colFilter
	}
	return nil
}

// filterKey gives msg to the filter where the focus is; used says it took
// the key.
func (s *Screen) filterKey(msg tea.KeyPressMsg) bool {
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
func (s *Screen) clearFilter() bool {
	f := s.filterOf()
	if f == nil || !f.Active() {
		return false
	}
	f.Clear()
	s.refilter(f)
	return true
}

func (s *Screen) refilter(f *kit.ListFilter) {
	if f == &s.colFilter {
		s.refreshColumns()
		return
	}
	if shown := s.shownEntries(); s.Cursor < len(s.Entries) && !s.entryShown(s.Cursor) {
		s.Cursor = len(s.Entries) // the file item, always listed
		if len(shown) > 0 {
			s.Cursor = shown[0]
		}
	}
}

// filterHelp is the keys of the filter where the focus is.
func (s *Screen) filterHelp() []key.Binding {
	if f := s.filterOf(); f != nil {
		return f.Help()
	}
	return nil
}

func (s *Screen) entryShown(i int) bool {
	e := s.Entries[i]
	return s.listFilter.Match(e.Name + " " + e.Kind + " " + e.Task.String())
}

// shownEntries are the entries the list filter keeps.
func (s *Screen) shownEntries() []int {
	var out []int
	for i := range s.Entries {
		if s.entryShown(i) {
			out = append(out, i)
		}
	}
	return out
}

// moveCursor steps the list's cursor over the shown entries and the file
// item, round.
func (s *Screen) moveCursor(step int) {
	items := append(s.shownEntries(), len(s.Entries))
	pos := 0
	for p, i := range items {
		if i == s.Cursor {
			pos = p
		}
	}
	s.Cursor = items[(pos+step+len(items))%len(items)]
}

// keepColumns drops the rows of the columns table (one per column) that
// the column filter does not keep, and notes which column each row is.
func (s *Screen) keepColumns(rows []table.Row) []table.Row {
	s.colIdx = s.colIdx[:0]
	var kept []table.Row
	for j, r := range rows {
		if s.colFilter.Match(s.Table.Columns[j].Name) {
			kept = append(kept, r)
			s.colIdx = append(s.colIdx, j)
		}
	}
	return kept
}

// selectedColumn is the column under the columns table's cursor.
func (s *Screen) selectedColumn() (int, bool) {
	i := s.Cols.Cursor()
	if i < 0 || i >= len(s.colIdx) {
		return 0, false
	}
	return s.colIdx[i], true
}

// columnsStatus is the column filter's line above the table.
func (s *Screen) columnsStatus() string {
	return s.colFilter.Status(s.c.Styles, len(s.colIdx), len(s.Table.Columns))
}

// The data screen's preview tables: the columns with their kinds and
// ranges, the rows (with their names), the class balance and the target's
// histogram.

package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/table"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func (s *Screen) tableStyles() table.Styles {
	st := table.DefaultStyles()
	st.Header = s.c.Styles.Header.Padding(0, 1)
	st.Cell = s.c.Styles.Text.Padding(0, 1)
	st.Selected = s.c.Styles.SelectedRow
	return st
}

func (s *Screen) refreshColumns() {
	t := s.Table
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
			name = kit.Clip(name, nameW-2) + " ◂"
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
	s.Cols.SetRows(nil)
	s.Cols.SetColumns(cols)
	s.Cols.SetRows(rows)
	s.Cols.SetStyles(s.tableStyles())
	s.Cols.Focus()
	if s.Cols.Cursor() >= len(rows) || s.Cols.Cursor() < 0 {
		s.Cols.SetCursor(0)
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
// refreshRows marks the rows table to be remade when it is next shown.
func (s *Screen) refreshRows() {
	if !s.rowsStale {
		s.rowsCursor = s.rows.Cursor()
		s.rows.SetRows(nil) // nothing for a resize to redraw meanwhile
		s.rowsStale = true
	}
}

// rowsTable is the rows table, remade first if it is stale.
func (s *Screen) rowsTable() *table.Model {
	if s.rowsStale {
		s.rowsStale = false
		s.makeRows()
	}
	return &s.rows
}

// makeRows fills the rows table with the page of rows and the columns
// that fit.
func (s *Screen) makeRows() {
	t := s.Table
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
		cols = append(cols, table.Column{Title: kit.PadTo(rowNamesTitle, w-2) + " │", Width: w})
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
	cur := s.rowsCursor
	// Each setter redraws the table's visible rows: styles and focus go in
	// while it is empty, so that only the last two draw rows.
	s.rows.SetRows(nil)
	s.rows.SetColumns(cols)
	s.rows.SetStyles(s.tableStyles())
	s.rows.Focus()
	s.rows.SetRows(rows)
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
		out[i] = kit.PadTo(name, w) + " │"
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
func (s *Screen) refreshBalance() {
	s.balanceOK = false
	d := s.Ds
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
		s.balance = widgets.NewBars(d.Classes, vals, s.c.Styles)
		s.balance.SetClassColors(true)
		s.balanceOK = true
	case datasets.Regression:
		labels, vals := Histogram(d.Y, 12)
		s.balance = widgets.NewBars(labels, vals, s.c.Styles)
		s.balanceOK = true
	}
	pw, ph := s.previewSize()
	s.balance.SetSize(pw-4, max(ph-5, 3))
}

// Histogram counts the finite values of y in at most k bins chosen from
// the data (chooseBins) and labelled by their edges or values; infinite
// values get a bar of their own ("±Inf") and NaN is skipped.
func Histogram(y []float64, k int) ([]string, []float64) {
	k = max(k, 1)
	finite, inf := 0, 0 // chooseBins and count skip the others themselves
	for _, v := range y {
		switch {
		case math.IsInf(v, 0):
			inf++
		case !math.IsNaN(v):
			finite++
		}
	}
	var labels []string
	var counts []float64
	if finite > 0 {
		b := kit.ChooseBins(y, k)
		c := b.Count(y, nil, 1)
		if b.Vmin == b.Vmax {
			labels, counts = []string{numfmt.Score(b.Vmin)}, []float64{float64(finite)}
		} else {
			for i := range b.K {
				labels = append(labels, b.Label(i))
				counts = append(counts, c[i][0])
			}
		}
	}
	if inf > 0 {
		labels, counts = append(labels, "±Inf"), append(counts, float64(inf))
	}
	return labels, counts
}

// Drawing the data screen: the list of sources and the preview beside it.

package data

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

func (s *Screen) View() string {
	lw := s.listWidth()
	pw, ph := s.previewSize()
	left := s.listView(lw, s.h)
	right := s.previewView(pw, ph)
	return lipgloss.JoinHorizontal(lipgloss.Top, left, " ", right)
}

func (s *Screen) listView(w, h int) string {
	st := s.c.Styles
	var lines []string
	kind := ""
	for _, i := range s.shownEntries() {
		e := s.Entries[i]
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
	if s.listFilter.Active() {
		lines = append([]string{kit.Clip(s.listFilter.Status(s.c.Styles, len(s.shownEntries()), len(s.Entries)), w-4)}, lines...)
	}
	lines = append(lines, "", st.Header.Render("Files"))
	lines = append(lines, s.listItem(len(s.Entries), "open a file…", "o / p", "", w-3))
	// The lectures' experiments need no data: named here, as the footer
	// has no room for their key at 80 columns.
	lines = append(lines, "", st.Header.Render("Lectures"), st.Muted.Render(kit.FitWidth("   experiments of the notes", w-8)+"L"))
	focus := s.Focus == FocusList
	return kit.Panel(st, "Data", strings.Join(scrollTo(lines, s.cursorLine(), h-2), "\n"), w, h, focus)
}

// cursorLine is the list line of the cursor (for scrolling).
func (s *Screen) cursorLine() int {
	line, kind := 0, ""
	if s.listFilter.Active() {
		line++ // the filter's line
	}
	for n, i := range s.shownEntries() {
		e := s.Entries[i]
		if e.Kind != kind {
			kind = e.Kind
			if n > 0 {
				line++
			}
			line++
		}
		if i == s.Cursor {
			return line
		}
		line++
	}
	return line + 2
}

// scrollTo returns the window of lines of height h that shows line cur.
func scrollTo(lines []string, cur, h int) []string {
	from, to := visibleRange(len(lines), cur, h)
	return lines[from:to]
}

// visibleRange is the window [from, to) of h of n lines that keeps line cur
// in the middle where it can: what scrollTo shows, for lists too long to
// render whole.
func visibleRange(n, cur, h int) (from, to int) {
	if n <= h {
		return 0, n
	}
	from = min(max(cur-h/2, 0), n-h)
	return from, from + h
}

func (s *Screen) listItem(i int, name, shape, task string, w int) string {
	st := s.c.Styles
	loaded := ""
	if s.Table != nil && i < len(s.Entries) && strings.SplitN(s.Source, ":", 2)[0] == s.Entries[i].Name {
		loaded = "•"
	}
	text := fmt.Sprintf("%-1s%-14s %8s", loaded, kit.Clip(name, 14), shape)
	if w-2 >= 30 {
		text += fmt.Sprintf(" %5s", task)
	}
	text = kit.FitWidth(text, w-2)
	if i == s.Cursor {
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

func (s *Screen) previewView(w, h int) string {
	st := s.c.Styles
	iw := w - 4
	switch s.Focus {
	case FocusPicker:
		return kit.Panel(st, "Open a file", s.Picker.View(s.c, iw, h-2), w, h, true)
	case FocusPath:
		body := st.Text.Render("Type the path of a .csv, .tsv or .arff file (gzipped too).") + "\n\n" +
			s.Path.View(st, 0) + "\n\n" + st.Muted.Render("enter opens it · esc goes back")
		return kit.Panel(st, "Open a file by path", body, w, h, true)
	}
	var top []string
	if s.Loading != "" {
		top = append(top, st.Muted.Render("loading "+kit.Clip(s.Loading, iw-12)+"…"))
	}
	if s.loadErr != nil {
		top = append(top, st.Error.Render("could not load the data"), st.Text.Render(kit.Wrap(s.loadErr.Error(), iw)), "")
	}
	e := s.SelectedEntry()
	showDetails := s.Table == nil || (s.Focus != FocusPreview && s.highlightedSource() != s.Source) || s.Focus == FocusKnobs
	if showDetails {
		var b []string
		b = append(b, top...)
		if e == nil {
			b = append(b, st.Text.Render("Open your own data: a CSV, TSV or ARFF file, gzipped or not."), "",
				st.Key.Render("o")+st.Muted.Render(" browse for a file   ")+st.Key.Render("p")+st.Muted.Render(" type its path"),
				"", st.Muted.Render(kit.Wrap("The target is the last column unless you choose another in the preview; "+
					"nominal targets mean classification, numeric ones regression, none clustering.", iw)))
			return kit.Panel(st, "Files", strings.Join(b, "\n"), w, h, false)
		}
		b = append(b, st.Text.Render(kit.Wrap(e.Summary, iw)), "")
		b = append(b, st.Muted.Render(numfmt.Count(e.Rows, "row")+" · "+numfmt.Count(e.Cols, "feature")+" · "+e.Task.String()))
		if fs := s.Knobs[e.Name]; len(fs) > 0 {
			b = append(b, "", st.Header.Render("Knobs"))
			for i, f := range fs {
				mark := "  "
				if s.Focus == FocusKnobs && i == s.Kfocus {
					mark = st.Accent.Render("▸ ")
				}
				box, sep := "["+kit.FitWidth(f.Input.View(st, 10), 11)+"]", " "
				if f.err != nil { // marked, not only coloured
					box, sep = st.Bad.Render(box), st.Bad.Render("✗")
				}
				rng := numfmt.Bound(f.knob.Min) + "…" + numfmt.Bound(f.knob.Max)
				b = append(b, mark+kit.FitWidth(f.knob.Name, 8)+box+sep+st.Muted.Render(kit.Clip(rng+" · "+f.knob.Help, iw-24)))
			}
			if f := s.focusedKnobErr(e); f != nil {
				b = append(b, "", st.Error.Render(kit.Clip(f.Error(), iw)))
			} else if s.Focus != FocusKnobs {
				b = append(b, "", st.Muted.Render("e edits the knobs · enter generates"))
			} else {
				b = append(b, "", st.Muted.Render("enter generates · esc goes back"))
			}
		} else {
			b = append(b, "", st.Muted.Render("enter loads it and shows a preview"))
		}
		return kit.Panel(st, e.Name, strings.Join(b, "\n"), w, h, s.Focus == FocusKnobs)
	}
	// The preview of the loaded table.
	t := s.Table
	var b []string
	b = append(b, top...)
	info := numfmt.Count(t.Rows(), "row") + " × " + numfmt.Count(len(t.Columns), "column")
	if t.RowNames != nil {
		info += " + row names"
	}
	switch {
	case s.DsErr != nil:
		b = append(b, st.Text.Render(info), st.Error.Render(kit.Clip(s.DsErr.Error(), iw)))
	case s.Ds.Task == datasets.Clustering:
		b = append(b, st.Text.Render(info), st.Text.Render("no target: clustering"))
	default:
		if s.Ds.Task == datasets.Classification {
			info += " · " + numfmt.Count(len(s.Ds.Classes), "class")
		}
		if s.Ds.Dropped > 0 {
			info += " · " + numfmt.Count(s.Ds.Dropped, "row") + " without a target dropped"
		}
		b = append(b, st.Text.Render(kit.Clip(info, iw)),
			st.Text.Render(kit.Clip("target "+s.Ds.Target.Name+" · "+s.Ds.Task.String(), iw)))
	}
	if len(s.dropped) > 0 {
		b = append(b, st.Muted.Render(kit.Clip("dropped: "+strings.Join(s.dropped, ", ")+" (r restores)", iw)))
	}
	b = append(b, s.Tabs.View())
	switch s.Tabs.ActiveName() {
	case PreviewColumns:
		if st := s.columnsStatus(); st != "" {
			b = append(b, kit.Clip(st, iw))
		}
		b = append(b, s.Cols.View())
	case PreviewPlot:
		b = append(b, s.plot.View())
	case PreviewMatrix:
		s.matrix.SetSize(iw, max(h-2-len(b), 1)) // every line left
		b = append(b, s.matrix.View())
	case PreviewHist:
		b = append(b, s.Hists.View())
	case PreviewRows:
		note := ""
		if t.Rows() > maxPreviewRows {
			first := min(s.rowOff, t.Rows()-1)
			note = fmt.Sprintf("rows %d-%d of %d ([ ] pages) · ", first+1, min(first+maxPreviewRows, t.Rows()), t.Rows())
		}
		rows := s.rowsTable()
		shown := len(rows.Columns())
		if t.RowNames != nil {
			shown--
			note += "row names, then "
		}
		note += fmt.Sprintf("columns %d-%d of %d", s.colOff+1, s.colOff+shown, len(t.Columns))
		b = append(b, rows.View(), st.Muted.Render(note))
	case PreviewBalance:
		if s.balanceOK {
			what := "class balance"
			if s.Ds.Task == datasets.Regression {
				what = "distribution of " + s.Ds.Target.Name
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
	return kit.Panel(st, title, strings.Join(b, "\n"), w, h, s.Focus == FocusPreview)
}

func (s *Screen) focusedKnobErr(e *datasets.Entry) error {
	for i, f := range s.Knobs[e.Name] {
		if f.err != nil && (s.Focus != FocusKnobs || i == s.Kfocus) {
			return f.err
		}
	}
	return nil
}

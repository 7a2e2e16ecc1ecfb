// Drawing the data screen: the list of sources and the preview beside it.

package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

func (s *dataScreen) View() string {
	lw := s.listWidth()
	pw, ph := s.previewSize()
	left := s.listView(lw, s.h)
	right := s.previewView(pw, ph)
	return lipgloss.JoinHorizontal(lipgloss.Top, left, " ", right)
}

func (s *dataScreen) listView(w, h int) string {
	st := s.c.Styles
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
	if s.listFilter.Active() {
		lines = append([]string{kit.Clip(s.listFilter.Status(s.c.Styles, len(s.shownEntries()), len(s.entries)), w-4)}, lines...)
	}
	lines = append(lines, "", st.Header.Render("Files"))
	lines = append(lines, s.listItem(len(s.entries), "open a file…", "o / p", "", w-3))
	focus := s.focus == focusList
	return kit.Panel(st, "Data", strings.Join(scrollTo(lines, s.cursorLine(), h-2), "\n"), w, h, focus)
}

// cursorLine is the list line of the cursor (for scrolling).
func (s *dataScreen) cursorLine() int {
	line, kind := 0, ""
	if s.listFilter.Active() {
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

func (s *dataScreen) listItem(i int, name, shape, task string, w int) string {
	st := s.c.Styles
	loaded := ""
	if s.table != nil && i < len(s.entries) && strings.SplitN(s.source, ":", 2)[0] == s.entries[i].Name {
		loaded = "•"
	}
	text := fmt.Sprintf("%-1s%-14s %8s", loaded, kit.Clip(name, 14), shape)
	if w-2 >= 30 {
		text += fmt.Sprintf(" %5s", task)
	}
	text = kit.FitWidth(text, w-2)
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
	st := s.c.Styles
	iw := w - 4
	switch s.focus {
	case focusPicker:
		return kit.Panel(st, "Open a file", s.picker.View(s.c, iw, h-2), w, h, true)
	case focusPath:
		body := st.Text.Render("Type the path of a .csv, .tsv or .arff file (gzipped too).") + "\n\n" +
			s.path.View(st, 0) + "\n\n" + st.Muted.Render("enter opens it · esc goes back")
		return kit.Panel(st, "Open a file by path", body, w, h, true)
	}
	var top []string
	if s.loading != "" {
		top = append(top, st.Muted.Render("loading "+kit.Clip(s.loading, iw-12)+"…"))
	}
	if s.loadErr != nil {
		top = append(top, st.Error.Render("could not load the data"), st.Text.Render(kit.Wrap(s.loadErr.Error(), iw)), "")
	}
	e := s.selectedEntry()
	showDetails := s.table == nil || (s.focus != focusPreview && s.highlightedSource() != s.source) || s.focus == focusKnobs
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
		if fs := s.knobs[e.Name]; len(fs) > 0 {
			b = append(b, "", st.Header.Render("Knobs"))
			for i, f := range fs {
				mark := "  "
				if s.focus == focusKnobs && i == s.kfocus {
					mark = st.Accent.Render("▸ ")
				}
				box, sep := "["+kit.FitWidth(f.input.View(st, 10), 11)+"]", " "
				if f.err != nil { // marked, not only coloured
					box, sep = st.Bad.Render(box), st.Bad.Render("✗")
				}
				rng := numfmt.Bound(f.knob.Min) + "…" + numfmt.Bound(f.knob.Max)
				b = append(b, mark+kit.FitWidth(f.knob.Name, 8)+box+sep+st.Muted.Render(kit.Clip(rng+" · "+f.knob.Help, iw-24)))
			}
			if f := s.focusedKnobErr(e); f != nil {
				b = append(b, "", st.Error.Render(kit.Clip(f.Error(), iw)))
			} else if s.focus != focusKnobs {
				b = append(b, "", st.Muted.Render("e edits the knobs · enter generates"))
			} else {
				b = append(b, "", st.Muted.Render("enter generates · esc goes back"))
			}
		} else {
			b = append(b, "", st.Muted.Render("enter loads it and shows a preview"))
		}
		return kit.Panel(st, e.Name, strings.Join(b, "\n"), w, h, s.focus == focusKnobs)
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
		b = append(b, st.Text.Render(info), st.Error.Render(kit.Clip(s.dsErr.Error(), iw)))
	case s.ds.Task == datasets.Clustering:
		b = append(b, st.Text.Render(info), st.Text.Render("no target: clustering"))
	default:
		if s.ds.Task == datasets.Classification {
			info += " · " + numfmt.Count(len(s.ds.Classes), "class")
		}
		if s.ds.Dropped > 0 {
			info += " · " + numfmt.Count(s.ds.Dropped, "row") + " without a target dropped"
		}
		b = append(b, st.Text.Render(kit.Clip(info, iw)),
			st.Text.Render(kit.Clip("target "+s.ds.Target.Name+" · "+s.ds.Task.String(), iw)))
	}
	if len(s.dropped) > 0 {
		b = append(b, st.Muted.Render(kit.Clip("dropped: "+strings.Join(s.dropped, ", ")+" (r restores)", iw)))
	}
	b = append(b, s.tabs.View())
	switch s.tabs.ActiveName() {
	case previewColumns:
		if st := s.columnsStatus(); st != "" {
			b = append(b, kit.Clip(st, iw))
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
	return kit.Panel(st, title, strings.Join(b, "\n"), w, h, s.focus == focusPreview)
}

func (s *dataScreen) focusedKnobErr(e *datasets.Entry) error {
	for i, f := range s.knobs[e.Name] {
		if f.err != nil && (s.focus != focusKnobs || i == s.kfocus) {
			return f.err
		}
	}
	return nil
}

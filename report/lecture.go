package report

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// The lectures' experiments (engine/lecture) are drawn here as text, once
// for every front end: the lab shows a Picture live, colouring its inks;
// `tealab lab` prints it; an export puts it in Markdown. Each experiment's
// drawing is a file lecture_<name>.go registering a LectureDrawing.

// LectureView is what a picture is drawn for: its size in cells, and for
// an experiment that moves (Frames above 0) the frame shown, in
// [0, Frames).
type LectureView struct {
	Width, Height int
	Frame         int
}

// Picture is a drawing as lines of text and its inks: the series each
// glyph draws (0, 1, …), for a front end that colours them. A glyph not in
// Inks is drawn plain; every series has a glyph of its own, so the
// picture reads without colour.
type Picture struct {
	Lines []string
	Inks  map[rune]int
}

// Table is a small table of an experiment's key numbers.
type Table struct {
	Columns []string
	Rows    [][]string
}

// LectureDrawing draws one experiment's result.
type LectureDrawing struct {
	// Draw draws a result, complete or partial, within v's size.
	Draw func(result any, v LectureView) Picture
	// Tables are the key numbers of a result, for the text report and the
	// Markdown export.
	Tables func(result any) []Table
	// Frames is how many frames a result moves through (nil or 0: it does
	// not move); the front end starts on the last.
	Frames func(result any) int
}

var drawings = map[string]LectureDrawing{}

// RegisterLecture registers the drawing of experiment name; it panics on
// a duplicate, so that the first test run catches it.
func RegisterLecture(name string, d LectureDrawing) {
	if _, dup := drawings[name]; dup || d.Draw == nil || d.Tables == nil {
		panic("report: the drawing of experiment " + name + " is registered twice or incomplete")
	}
	drawings[name] = d
}

// LectureFrames is how many frames result of experiment name moves
// through (0: none).
func LectureFrames(name string, result any) int {
	d, ok := drawings[name]
	if !ok || d.Frames == nil || result == nil {
		return 0
	}
	return d.Frames(result)
}

// DrawLecture draws result of experiment name; a result this build cannot
// draw (an experiment it does not know) is one line saying so.
func DrawLecture(name string, result any, v LectureView) Picture {
	d, ok := drawings[name]
	switch {
	case !ok:
		return Picture{Lines: []string{"(an experiment this build of tealab does not know)"}}
	case result == nil:
		return Picture{Lines: []string{"(nothing to draw yet)"}}
	}
	return d.Draw(result, v)
}

// LectureTables are the key numbers of result of experiment name.
func LectureTables(name string, result any) []Table {
	d, ok := drawings[name]
	if !ok || result == nil {
		return nil
	}
	return d.Tables(result)
}

// LectureCommand is the command line that runs the record again.
func LectureCommand(rec *lecture.Record) string {
	parts := []string{"tealab", "lab", rec.Experiment}
	for _, a := range rec.Args {
		parts = append(parts, "--"+a[0], shellQuote(a[1]))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,:/+=", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ExportSize is the size pictures are drawn at in exports and reports.
var ExportSize = LectureView{Width: 100, Height: 30}

// FinalView is v on the last frame of result of experiment name: the
// whole picture, as a report shows it.
func FinalView(name string, result any, v LectureView) LectureView {
	if n := LectureFrames(name, result); n > 0 {
		v.Frame = n - 1
	}
	return v
}

// WriteLectureTables writes tables as aligned text.
func WriteLectureTables(w io.Writer, tables []Table) error {
	mw := &mdWriter{w: w}
	for _, t := range tables {
		rows := append([][]string{t.Columns}, t.Rows...)
		width := make([]int, len(t.Columns))
		for _, r := range rows {
			for j, c := range r {
				if j < len(width) {
					width[j] = max(width[j], utf8.RuneCountInString(c))
				}
			}
		}
		for _, r := range rows {
			var b strings.Builder
			for j, c := range r {
				if j > 0 {
					b.WriteString("  ")
				}
				b.WriteString(c + strings.Repeat(" ", max(0, width[min(j, len(width)-1)]-utf8.RuneCountInString(c))))
			}
			mw.printf("%s\n", strings.TrimRight(b.String(), " "))
		}
		mw.printf("\n")
	}
	return mw.err
}

// LectureMarkdown writes a run of an experiment as Markdown: what it is
// and where it comes from, its knobs, its key numbers and its picture as
// a text chart.
func LectureMarkdown(w io.Writer, rec *lecture.Record, title string) error {
	mw := &mdWriter{w: w}
	e, err := lecture.Lookup(rec.Experiment)
	if err != nil {
		return err
	}
	if title == "" {
		title = e.Title
	}
	mw.printf("# %s\n\n%s\n\n", mdEscape(title), mdEscape(e.Summary))
	mw.printf("| | |\n|---|---|\n| experiment | %s |\n| source | %s |\n", e.Name, mdEscape(e.Source))
	for _, a := range rec.Args {
		mw.printf("| %s | %s |\n", mdEscape(a[0]), mdEscape(a[1]))
	}
	mw.printf("| status | %s |\n", rec.Status)
	if rec.Error != "" {
		mw.printf("| error | %s |\n", mdEscape(rec.Error))
	}
	if !rec.Started.IsZero() {
		mw.printf("| started | %s |\n| duration | %s |\n", rec.Started.Format("2006-01-02 15:04:05 MST"), numfmt.Seconds(rec.Wall.Seconds()))
	}
	mw.printf("\nRepeat it with `%s`.\n", LectureCommand(rec))
	for _, t := range LectureTables(rec.Experiment, rec.Result) {
		mw.printf("\n| %s |\n|%s\n", strings.Join(mdCells(t.Columns), " | "), strings.Repeat("---|", len(t.Columns)))
		for _, r := range t.Rows {
			mw.printf("| %s |\n", strings.Join(mdCells(r), " | "))
		}
	}
	if rec.Result != nil {
		pic := DrawLecture(rec.Experiment, rec.Result, FinalView(rec.Experiment, rec.Result, ExportSize))
		mw.printf("\n```\n%s\n```\n", strings.Join(trimRight(pic.Lines), "\n"))
	}
	return mw.err
}

func mdCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = mdEscape(c)
	}
	return out
}

func trimRight(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

// Beside joins two blocks of lines side by side, a gap apart, the left
// padded to its width w.
func Beside(left, right []string, w, gap int) []string {
	n := max(len(left), len(right))
	out := make([]string, n)
	for i := range n {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = PadRight(l, w) + strings.Repeat(" ", gap) + r
	}
	return out
}

// PadRight pads (or cuts) s to w cells.
func PadRight(s string, w int) string {
	n := utf8.RuneCountInString(s)
	if n >= w {
		return string([]rune(s)[:w])
	}
	return s + strings.Repeat(" ", w-n)
}

// resultAs is an experiment's result as a *T: run, it is what the
// experiment returned (a T or a *T); read back from a record, a *T; nil
// when it is neither.
func resultAs[T any](result any) *T {
	switch r := result.(type) {
	case *T:
		return r
	case T:
		return &r
	}
	return nil
}

// plotRows is the canvas rows a picture of h lines leaves beside its
// title (h ≥ 8), legend (h ≥ 9) and axis label (h ≥ 12), each said.
func plotRows(h int) (rows int, titled, legend, labelled bool) {
	titled, legend, labelled = h >= 8, h >= 9, h >= 12
	rows = h - 2
	for _, on := range []bool{titled, legend, labelled} {
		if on {
			rows--
		}
	}
	return max(rows, 2), titled, legend, labelled
}

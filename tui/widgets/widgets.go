// Package widgets holds tealab's views as bubbles-style components: a line
// chart for training curves, a confusion matrix, ROC curves, bar charts, a
// scatter/decision-region canvas, a tab bar and a key-value report table;
// and drawings the command line's report shares (DrawDendrogram).
//
// Every widget follows the bubbles v1 contract:
//   - a constructor NewX(..., st *themes.Styles) taking the theme's styles
//     (nil means the default theme on the default renderer) and its data;
//   - Update(tea.Msg) (X, tea.Cmd) returning the concrete type, handling
//     only the widget's own keys (the parent routes keys to the focused
//     widget);
//   - View() string, which is exactly the size given to SetSize(w, h): each
//     of h lines is w cells wide (and View is "" while either is <= 0);
//   - a public KeyMap of key.Binding implementing help.KeyMap, with a
//     DefaultXKeyMap constructor. Bindings that do nothing in the current
//     state (scrolling when everything fits) are disabled, so help hides
//     them.
//
// Widgets clean their input before drawing: NaN is a missing point, ±Inf
// and huge magnitudes are clamped or dropped, empty and one-point data sets
// render a placeholder or a single mark. They never panic on data. Colour is
// never the only carrier of meaning: when Styles.Colorless is set (the mono
// theme or an ASCII profile) widgets use marker glyphs and shade characters.
//
// Setters copy their inputs: callers may reuse their slices afterwards.
package widgets

import (
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/themes"
)

// Marker glyphs for classes, in order. × is reserved for marked
// (misclassified) points and • for unlabelled points.
var classMarkers = [...]string{"●", "○", "◆", "▲", "■", "◇", "△", "□", "▼", "▽"}

const (
	markedMarker     = "×"
	continuousMarker = "•"
)

// ClassMarker returns the marker glyph of class i (wrapping around); the
// same glyphs are used by Scatter, ROC legends and anywhere a class is drawn.
func ClassMarker(i int) string {
	if i < 0 {
		return continuousMarker
	}
	return classMarkers[i%len(classMarkers)]
}

// supportMarkers are the markers of support vectors, one per class, each
// its class marker circled or framed; a class without one wraps around.
var supportMarkers = [...]string{"◉", "◎", "◈"}

// boundaryMarker draws a margin classifier's boundary f = 0.
const boundaryMarker = "·"

// SupportMarker is the marker of a support vector of class i.
func SupportMarker(i int) string {
	return supportMarkers[max(i, 0)%len(supportMarkers)]
}

// regionShades are the fills of decision regions when colour is off, one
// per class, chosen to be told apart side by side.
var regionShades = [...]string{"░", "▒", " ", "▓", "·", ":", "-", "="}

// defaultStyles is used when a constructor is given nil styles.
func defaultStyles(st *themes.Styles) *themes.Styles {
	if st != nil {
		return st
	}
	return themes.NewStyles(themes.Default(), colorprofile.TrueColor)
}

// HelpStyles returns bubbles help styles built from the theme, for
// help.Model.Styles.
func HelpStyles(st *themes.Styles) help.Styles {
	st = defaultStyles(st)
	return help.Styles{
		Ellipsis:       st.KeySep,
		ShortKey:       st.Key,
		ShortDesc:      st.KeyDesc,
		ShortSeparator: st.KeySep,
		FullKey:        st.Key,
		FullDesc:       st.KeyDesc,
		FullSeparator:  st.KeySep,
	}
}

// width is the cell width of s, which may hold ANSI escapes. Lines of
// charts are ASCII, box drawing, blocks and braille, all one cell wide:
// those are counted directly, anything else goes to ansi.StringWidth.
func width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b: // CSI ... final byte
			if i+1 >= len(s) || s[i+1] != '[' {
				return ansi.StringWidth(s)
			}
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j + 1
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0xe2 && i+2 < len(s) && (s[i+1] >= 0x94 && s[i+1] <= 0x97 || s[i+1] >= 0xa0 && s[i+1] <= 0xa3):
			// U+2500-U+25FF (box drawing, blocks, shapes), U+2800-U+28FF (braille)
			n++
			i += 3
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// oneLine makes untrusted text (class names, column names from a data
// file) safe to lay out: control characters, including newlines, tabs and
// escape sequences, become spaces.
func oneLine(s string) string {
	ctl := func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }
	if strings.IndexFunc(s, ctl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if ctl(r) {
			return ' '
		}
		return r
	}, s)
}

func oneLines(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = oneLine(s)
	}
	return out
}

// fitLine truncates or pads s (which may hold ANSI escapes) to exactly w
// cells.
func fitLine(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := width(s)
	if n > w {
		s = ansi.Truncate(s, w, "")
		n = width(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// fitBlock makes lines exactly w cells wide and exactly h lines tall and
// joins them.
func fitBlock(lines []string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(h * (2*w + 16))
	blank := strings.Repeat(" ", w)
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(lines) {
			b.WriteString(fitLine(lines[i], w))
		} else {
			b.WriteString(blank)
		}
	}
	return b.String()
}

// truncate shortens plain text to w cells, ending with … when cut.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	if w == 1 {
		return ansi.Truncate(s, 1, "")
	}
	return ansi.Truncate(s, w, "…")
}

// padLeft right-aligns plain text in w cells (truncating if needed).
func padLeft(s string, w int) string {
	s = truncate(s, w)
	if n := width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

// padRight left-aligns plain text in w cells (truncating if needed).
func padRight(s string, w int) string {
	s = truncate(s, w)
	if n := width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// center centres plain text in w cells (truncating if needed).
func center(s string, w int) string {
	s = truncate(s, w)
	n := width(s)
	if n >= w {
		return s
	}
	l := (w - n) / 2
	return strings.Repeat(" ", l) + s + strings.Repeat(" ", w-n-l)
}

// frame draws a rounded box with a title set into its top border around
// content, exactly w×h. Below 4×3 there is no room for a box and the content
// alone is fitted.
func frame(st *themes.Styles, title string, content []string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	if w < 4 || h < 3 {
		return fitBlock(content, w, h)
	}
	iw := w - 2
	var b strings.Builder
	b.Grow(h * (4*w + 64)) // box drawing is 3 bytes a cell, plus escapes
	border := newPaint(st.Border)
	// Top border: ╭─ title ───╮
	t := truncate(title, iw-3)
	if t != "" {
		b.WriteString(border.render("╭─ "))
		b.WriteString(st.PanelTitle.Render(t))
		// The rest of the inner width after "─ " and the title: a space
		// and dashes (the title was cut so that the space fits).
		rest := iw - 2 - width(t)
		b.WriteString(border.render(" " + strings.Repeat("─", max(rest-1, 0)) + "╮"))
	} else {
		b.WriteString(border.render("╭" + strings.Repeat("─", iw) + "╮"))
	}
	bar := border.render("│")
	blank := strings.Repeat(" ", iw)
	for i := 0; i < h-2; i++ {
		b.WriteByte('\n')
		b.WriteString(bar)
		if i < len(content) {
			b.WriteString(fitLine(content[i], iw))
		} else {
			b.WriteString(blank)
		}
		b.WriteString(bar)
	}
	b.WriteByte('\n')
	b.WriteString(border.render("╰" + strings.Repeat("─", iw) + "╯"))
	return b.String()
}

// placeholder is a muted message centred in a w×h block.
func placeholder(st *themes.Styles, msg string, w, h int) []string {
	lines := make([]string, h)
	if h > 0 {
		lines[(h-1)/2] = st.Muted.Render(center(msg, w))
	}
	return lines
}

// maxAbsValue is where data is clamped: far beyond anything meaningful, yet
// small enough that differences and products of axis arithmetic stay finite.
const maxAbsValue = 1e100

// clean maps ±Inf to NaN and clamps huge magnitudes.
func clean(v float64) float64 {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return math.NaN()
	case v > maxAbsValue:
		return maxAbsValue
	case v < -maxAbsValue:
		return -maxAbsValue
	}
	return v
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// fmtG formats with n significant digits (numfmt's tidy exponents: 1e6,
// not 1e+06), trimming a negative zero.
func fmtG(v float64, n int) string { return numfmt.Sig(v, n) }

// fmtFixed formats with d decimals, trimming a negative zero.
func fmtFixed(v float64, d int) string { return numfmt.Fixed(v, d) }

// fmtValue formats a bar or table value: integers plainly, others with 3
// significant digits.
func fmtValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatInt(int64(v), 10)
	}
	return fmtG(v, 3)
}

// render styles s, skipping the renderer for empty strings.
func render(style lipgloss.Style, s string) string {
	if s == "" {
		return ""
	}
	return style.Render(s)
}

// paletteIndex converts a theme colour to the nearest index of the
// terminal's 256- (or 16-) colour palette, for drawing code that writes its
// own escapes (asciigraph); false for none (mono, a profile without colour).
func paletteIndex(st *themes.Styles, c themes.Color) (int, bool) {
	if _, none := c.(lipgloss.NoColor); none || c == nil || st.Profile <= colorprofile.ASCII {
		return 0, false
	}
	p := colorprofile.ANSI256
	if st.Profile == colorprofile.ANSI {
		p = colorprofile.ANSI
	}
	switch v := p.Convert(c).(type) {
	case ansi.IndexedColor:
		return int(v), true
	case ansi.BasicColor:
		return int(v), true
	}
	return 0, false
}

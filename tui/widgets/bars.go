package widgets

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/tealab/tealab/themes"
)

// BarsKeyMap are the keys of a Bars chart.
type BarsKeyMap struct {
	Up, Down key.Binding // scroll when the bars do not fit
	Sort     key.Binding // largest magnitude first <-> given order
}

// DefaultBarsKeyMap returns the default Bars keys.
func DefaultBarsKeyMap() BarsKeyMap {
	return BarsKeyMap{
		Up:   key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		Sort: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort by size")),
	}
}

// ShortHelp implements help.KeyMap.
func (k BarsKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down, k.Sort} }

// FullHelp implements help.KeyMap.
func (k BarsKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Bars is a horizontal bar chart: a label, a bar and the value per row
// (class balance, feature importances, coefficients). With negative values
// the bars grow both ways from a zero line. Bars are scaled to the largest
// finite magnitude; ±Inf fill their side and NaN shows "n/a" with no bar.
type Bars struct {
	KeyMap BarsKeyMap

	st          *themes.Styles
	labels      []string
	values      []float64
	order       []int
	sorted      bool
	classColors bool
	signed      bool
	labelMax    int // the labels' widest, 0: a third of the width
	off         int
	w, h        int
}

// NewBars builds the chart; labels and values pair up by index (the
// shorter decides the number of bars).
func NewBars(labels []string, values []float64, st *themes.Styles) Bars {
	b := Bars{KeyMap: DefaultBarsKeyMap(), st: defaultStyles(st)}
	b.SetData(labels, values)
	return b
}

// SetData replaces the bars.
func (b *Bars) SetData(labels []string, values []float64) {
	n := min(len(labels), len(values))
	b.labels = oneLines(labels[:n])
	b.values = append([]float64(nil), values[:n]...)
	b.off = 0
	b.reorder()
}

// SetClassColors colours bar i with class i's colour (class balance)
// instead of the series colours for positive and negative values.
func (b *Bars) SetClassColors(on bool) { b.classColors = on }

// SetSigned writes a + before values above zero (coefficients), so that
// the sign reads without colour.
func (b *Bars) SetSigned(on bool) { b.signed = on }

// SetLabelWidth lets labels take up to n cells (0: a third of the
// width), for narrow charts of long names side by side.
func (b *Bars) SetLabelWidth(n int) { b.labelMax = n }

// SetSorted orders bars by magnitude, largest first (true), or as given.
func (b *Bars) SetSorted(on bool) {
	b.sorted = on
	b.reorder()
}

// Sorted reports whether bars are ordered by magnitude.
func (b Bars) Sorted() bool { return b.sorted }

func (b *Bars) reorder() {
	b.order = make([]int, len(b.values))
	for i := range b.order {
		b.order[i] = i
	}
	if b.sorted {
		mag := func(v float64) float64 {
			if math.IsNaN(v) {
				return -1
			}
			return math.Abs(v)
		}
		sort.SliceStable(b.order, func(i, j int) bool {
			return mag(b.values[b.order[i]]) > mag(b.values[b.order[j]])
		})
	}
	b.clamp()
}

// SetSize sets the size of the chart.
func (b *Bars) SetSize(w, h int) {
	b.w, b.h = w, h
	b.clamp()
}

func (b *Bars) clamp() {
	scroll := b.h > 0 && len(b.values) > b.h
	b.KeyMap.Up.SetEnabled(scroll)
	b.KeyMap.Down.SetEnabled(scroll)
	b.off = max(min(b.off, len(b.values)-b.h), 0)
}

// Update handles scrolling and sorting.
func (b Bars) Update(msg tea.Msg) (Bars, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return b, nil
	}
	switch {
	case key.Matches(k, b.KeyMap.Up):
		b.off--
	case key.Matches(k, b.KeyMap.Down):
		b.off++
	case key.Matches(k, b.KeyMap.Sort):
		b.sorted = !b.sorted
		b.reorder()
	}
	b.clamp()
	return b, nil
}

var eighths = [...]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// posBar is a left-aligned bar of frac (0..1) of w cells, in eighths; any
// non-zero fraction shows at least an eighth.
func posBar(frac float64, w int) string {
	n := int(math.Round(frac * float64(w*8)))
	if frac > 0 && n == 0 {
		n = 1
	}
	n = min(n, w*8)
	return strings.Repeat("█", n/8) + eighths[n%8]
}

// negBar is a right-aligned bar of frac of w cells, in halves (Unicode has
// no right-aligned eighths beyond one).
func negBar(frac float64, w int) string {
	n := int(math.Round(frac * float64(w*2)))
	if frac > 0 && n == 0 {
		n = 1
	}
	n = min(n, w*2)
	s := strings.Repeat("█", n/2)
	if n%2 == 1 {
		s = "▐" + s
	}
	return s
}

// View renders the bars in exactly the size set.
func (b Bars) View() string {
	if b.w <= 0 || b.h <= 0 {
		return ""
	}
	b.st = defaultStyles(b.st) // a zero-value widget still renders
	st := b.st
	if len(b.values) == 0 {
		return fitBlock(placeholder(st, "nothing to show", b.w, b.h), b.w, b.h)
	}
	maxPos, maxNeg := 0.0, 0.0
	texts := make([]string, len(b.values))
	lw, vw := 1, 1
	for i, v := range b.values {
		if finite(v) {
			maxPos = math.Max(maxPos, v)
			maxNeg = math.Max(maxNeg, -v)
		}
		texts[i] = fmtValue(v)
		if b.signed && v > 0 && !math.IsInf(v, 1) {
			texts[i] = "+" + texts[i]
		}
		vw = max(vw, lipgloss.Width(texts[i]))
		lw = max(lw, lipgloss.Width(b.labels[i]))
	}
	vw = min(vw, 10)
	if b.labelMax > 0 {
		lw = min(lw, b.labelMax, max(b.w-vw-4, 4))
	} else {
		lw = min(lw, max(b.w/3, 4))
	}
	bw := b.w - lw - vw - 2
	if bw < 2 {
		bw = 0
		lw = max(b.w-vw-1, 1)
	}
	negW, posW := 0, bw
	if maxNeg > 0 && bw > 0 {
		if maxPos == 0 {
			negW = bw - 1
		} else {
			// The share first, on halves: (bw-1)*maxNeg or maxNeg+maxPos
			// overflow for values near the largest float64, and Inf/Inf
			// made a NaN width (a panic in strings.Repeat).
			share := (maxNeg / 2) / (maxNeg/2 + maxPos/2)
			negW = int(math.Round(float64(bw-1) * share))
		}
		posW = bw - 1 - negW
	}

	posStyle, negStyle := st.SeriesStyle(0), st.SeriesStyle(1)
	text, zero, value, na := newPaint(st.Text), newPaint(st.Subtle), newPaint(st.Value), newPaint(st.Muted)
	rows, more := b.h, 0
	if left := len(b.order) - b.off; left > rows {
		rows-- // the last line says how many more
		more = left - rows
	}
	lines := make([]string, 0, b.h)
	for _, i := range b.order[b.off:min(b.off+rows, len(b.order))] {
		v := b.values[i]
		var line strings.Builder
		line.WriteString(text.render(padRight(b.labels[i], lw)))
		line.WriteByte(' ')
		if bw > 0 {
			ps, ns := posStyle, negStyle
			if b.classColors {
				ps, ns = st.ClassStyle(i), st.ClassStyle(i)
			}
			var pf, nf float64
			switch {
			case math.IsInf(v, 1):
				pf = 1
			case math.IsInf(v, -1):
				nf = 1
			case v > 0 && maxPos > 0:
				pf = v / maxPos
			case v < 0 && maxNeg > 0:
				nf = -v / maxNeg
			}
			if negW > 0 || maxNeg > 0 {
				nb := negBar(nf, negW)
				line.WriteString(strings.Repeat(" ", negW-lipgloss.Width(nb)))
				line.WriteString(render(ns, nb))
				line.WriteString(zero.render("│"))
			}
			pb := posBar(pf, posW)
			line.WriteString(render(ps, pb))
			line.WriteString(strings.Repeat(" ", posW-lipgloss.Width(pb)))
			line.WriteByte(' ')
		}
		vs := value
		if math.IsNaN(v) {
			vs = na
		}
		line.WriteString(vs.render(padLeft(texts[i], vw)))
		lines = append(lines, line.String())
	}
	if more > 0 {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("… %d more", more)))
	}
	return fitBlock(lines, b.w, b.h)
}

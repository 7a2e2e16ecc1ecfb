// LineChart's legend: each series' stroke, name and last value, packed
// onto as few lines as fit.

package widgets

import (
	"math"
	"strings"
)

// legendItem is one series' legend entry: its stroke and its text.
type legendItem struct {
	series int
	text   string // " name value", plain
}

// legendLayout is how entries are packed: indent before each line, the
// separator between entries and the significant digits of the values.
type legendLayout struct{ indent, sep, digits int }

// legend lays out every series' stroke (in its colour), name and last value
// on at most maxLines lines of iw cells. It never drops a series: it tries,
// in order, one line aligned with the plot, one line flush left, one line
// with shorter values, then the same over more lines, and last abbreviates
// names (then values) so that each line holds its share of the entries.
func (m LineChart) legend(iw, indent, maxLines int) []string {
	if len(m.drawn()) == 0 || iw <= 0 {
		return nil
	}
	if indent >= iw/3 {
		indent = 0
	}
	layouts := []legendLayout{{indent, 3, 4}, {1, 3, 4}, {0, 2, 3}}
	maxLines = min(max(maxLines, 1), len(m.drawn()))
	for lines := 1; lines <= maxLines; lines++ {
		for _, l := range layouts {
			if rows, ok := packLegend(m.legendItems(l.digits), l, iw, lines); ok {
				return m.renderLegend(rows, l)
			}
		}
	}
	// Abbreviate: share the lines out evenly and cut each entry to its share.
	l := layouts[len(layouts)-1]
	items := m.legendItems(l.digits)
	per := (len(items) + maxLines - 1) / maxLines
	budget := (iw-(per-1)*l.sep)/per - 2 // cells for an entry's text
	var rows [][]legendItem
	for i := 0; i < len(items); i += per {
		row := items[i:min(i+per, len(items))]
		for k := range row {
			row[k].text = m.abbreviate(row[k].series, l.digits, budget)
		}
		rows = append(rows, row)
	}
	return m.renderLegend(rows, l)
}

func (m LineChart) legendItems(digits int) []legendItem {
	items := make([]legendItem, 0, len(m.ys))
	for _, i := range m.drawn() {
		text := ""
		if n := m.seriesName(i); n != "" {
			text = " " + n
		}
		if v := m.lastValue(i); !math.IsNaN(v) {
			text += " " + fmtG(v, digits)
		}
		items = append(items, legendItem{i, text})
	}
	return items
}

// abbreviate is series i's legend text in at most w cells: the name cut
// with … first, then the value dropped, then the name alone cut.
func (m LineChart) abbreviate(i, digits, w int) string {
	if w <= 0 {
		return ""
	}
	name, val := m.seriesName(i), ""
	if v := m.lastValue(i); !math.IsNaN(v) {
		val = " " + fmtG(v, digits)
	}
	if name == "" {
		return truncate(val, w)
	}
	if room := w - 1 - width(val); room >= 3 || (room >= 1 && width(name) <= room) {
		return " " + truncate(name, room) + val
	}
	return " " + truncate(name, w-1)
}

// packLegend fills at most lines rows greedily; ok is false when the
// entries need more rows or one entry is wider than a row.
func packLegend(items []legendItem, l legendLayout, iw, lines int) ([][]legendItem, bool) {
	var rows [][]legendItem
	used := 0
	for _, it := range items {
		w := 2 + width(it.text)
		if l.indent+w > iw {
			return nil, false
		}
		if len(rows) > 0 && used+l.sep+w <= iw {
			rows[len(rows)-1] = append(rows[len(rows)-1], it)
			used += l.sep + w
			continue
		}
		if len(rows) == lines {
			return nil, false
		}
		rows = append(rows, []legendItem{it})
		used = l.indent + w
	}
	return rows, true
}

func (m LineChart) renderLegend(rows [][]legendItem, l legendLayout) []string {
	out := make([]string, len(rows))
	for r, row := range rows {
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", l.indent))
		for k, it := range row {
			if k > 0 {
				b.WriteString(strings.Repeat(" ", l.sep))
			}
			b.WriteString(m.st.SeriesStyle(it.series).Render(strings.Repeat(lineStyles[it.series%len(lineStyles)].Horizontal, 2)))
			if it.text != "" {
				b.WriteString(m.st.Text.Render(it.text))
			}
		}
		out[r] = b.String()
	}
	return out
}

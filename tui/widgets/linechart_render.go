// LineChart's rendering: the plot body through asciigraph, the series'
// strokes and colours, and the compact fallback.

package widgets

import (
	"math"
	"strings"

	"github.com/guptarohit/asciigraph"
	"github.com/tealab/tealab/themes"
)

// lineStyles tell series apart without colour: light, heavy, double,
// dashed, heavy dashed, dotted lines. The legend shows each one's stroke.
var lineStyles = []asciigraph.CharSet{
	asciigraph.DefaultCharSet,
	{Horizontal: "━", VerticalLine: "┃", ArcDownRight: "┏", ArcDownLeft: "┓", ArcUpRight: "┗", ArcUpLeft: "┛", EndCap: "╸", StartCap: "╺"},
	{Horizontal: "═", VerticalLine: "║", ArcDownRight: "╔", ArcDownLeft: "╗", ArcUpRight: "╚", ArcUpLeft: "╝", EndCap: "═", StartCap: "═"},
	{Horizontal: "┄", VerticalLine: "┆", EndCap: "┄", StartCap: "┄"},
	{Horizontal: "┅", VerticalLine: "┇", ArcDownRight: "┏", ArcDownLeft: "┓", ArcUpRight: "┗", ArcUpLeft: "┛", EndCap: "┅", StartCap: "┅"},
	asciigraph.CreateCharSet("•"),
}

// asciiColor maps a theme colour to asciigraph's 256-colour palette for the
// renderer's profile; ok is false when colour is off.
func asciiColor(st *themes.Styles, c themes.Color) (asciigraph.AnsiColor, bool) {
	if st.Colorless {
		return 0, false
	}
	idx, ok := paletteIndex(st, c)
	if !ok {
		return 0, false
	}
	if idx == 0 {
		return asciigraph.Black, true // asciigraph's 0 means "default"
	}
	return asciigraph.AnsiColor(idx), true
}

// body draws the inside of the box; title is what the title should add
// (the x unit when the labels had no room for it).
func (m LineChart) body(iw, ih int) (lines []string, title string) {
	st := m.st
	if iw <= 0 || ih <= 0 {
		return nil, ""
	}
	logY := m.LogY()
	series, nmax, ok := prepared(m.ys, logY)
	ghosts, gmax, gok := prepared(m.ghosts, logY)
	if !ok && !gok {
		msg := m.empty
		if msg == "" {
			msg = "no data yet"
		}
		return placeholder(st, msg, iw, ih), ""
	}
	nmax = max(nmax, gmax)
	var notes []string
	if logY {
		notes = append(notes, "log y")
	}
	// An early spike is left above the range in the automatic linear mode.
	if m.yMode == yAuto && !logY {
		bot, top := spikeRange(append(append([][]float64(nil), series...), ghosts...))
		if !math.IsInf(top, 1) || !math.IsInf(bot, -1) {
			peak, dip := math.Inf(-1), math.Inf(1)
			for _, set := range [][][]float64{series, ghosts} {
				for _, p := range set {
					for j, v := range p {
						switch {
						case v > top:
							peak, p[j] = math.Max(peak, v), top
						case v < bot:
							dip, p[j] = math.Min(dip, v), bot
						}
					}
				}
			}
			if !math.IsInf(peak, -1) {
				notes = append(notes, "early spike to "+fmtG(peak, 3)+" clipped")
			}
			if !math.IsInf(dip, 1) {
				notes = append(notes, "early dip to "+fmtG(dip, 3)+" clipped")
			}
		}
	}

	// Vertical budget: legend, plot, x axis, x labels. The legend takes
	// more than one line only when the chart is tall enough to spare it.
	showLegend := len(m.drawn()) > 0 && (len(m.drawn()) > 1 || m.seriesName(m.drawn()[0]) != "") && ih >= 4
	var legendLines []string
	if showLegend {
		// The y label width is not known yet: indent by a typical one.
		legendLines = m.legend(iw, 0, max(1, (ih-4)/4))
	}
	legend := len(legendLines)
	axis := 0
	switch rest := ih - legend; {
	case rest >= 5:
		axis = 2
	case rest >= 3:
		axis = 1
	}
	ph := ih - legend - axis

	// Label width from the full data range (the drawn range is a subset).
	all := append(append([][]float64(nil), ghosts...), series...)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range all {
		for _, v := range p {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	lo, hi = padRange(lo, hi)
	// The labels' width now, their text once the columns are known.
	_, lw := yAxis(lo, hi, ph-1, logY)
	left := lw + 3 // " label ┤"
	pw := iw - left
	if pw < 2 || ph < 1 {
		return m.compact(iw, ih), ""
	}

	// asciigraph draws the step from point c to c+1 in plot column c and
	// the first point on the axis, so pw columns show pw+1 samples. Ghosts
	// go first, so that the named series are drawn over them.
	cols := make([][]float64, len(all))
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, p := range all {
		cols[i] = make([]float64, pw+1)
		resample(cols[i], p, nmax)
		for _, v := range cols[i] {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	lo, hi = padRange(lo, hi)
	yfmt, _ := yAxis(lo, hi, ph-1, logY)
	yfmt = fixWidth(yfmt, lw)

	opts := []asciigraph.Option{
		asciigraph.Height(max(ph-1, 1)),
		asciigraph.Offset(3),
		asciigraph.LowerBound(lo),
		asciigraph.UpperBound(hi),
		asciigraph.YAxisValueFormatter(yfmt),
	}
	chars := make([]asciigraph.CharSet, len(all))
	for i := range chars {
		if i < len(ghosts) {
			chars[i] = ghostChars
			continue
		}
		k := i - len(ghosts)
		chars[i] = lineStyles[k%len(lineStyles)]
	}
	opts = append(opts, asciigraph.SeriesChars(chars...))
	if _, ok := asciiColor(st, st.Theme.Text); ok {
		colors := make([]asciigraph.AnsiColor, len(all))
		for i := range colors {
			if i < len(ghosts) {
				colors[i], _ = asciiColor(st, st.Theme.Subtle)
				continue
			}
			colors[i], _ = asciiColor(st, pickColor(st.Theme.Series, i-len(ghosts)))
		}
		opts = append(opts, asciigraph.SeriesColors(colors...))
		if c, ok := asciiColor(st, st.Theme.Muted); ok {
			opts = append(opts, asciigraph.AxisColor(c), asciigraph.LabelColor(c))
		}
	}
	plot := strings.Split(asciigraph.PlotMany(cols, opts...), "\n")
	if len(plot) > ph {
		plot = plot[:ph]
	}
	for len(plot) < ph {
		plot = append(plot, "")
	}

	lines = make([]string, 0, ih)
	if showLegend {
		// Now aligned with the plot when that still fits as many lines.
		if l := m.legend(iw, left, legend); len(l) == legend {
			legendLines = l
		}
		lines = append(lines, legendLines...)
	}
	lines = append(lines, plot...)
	markAxis := -1
	if axis >= 1 {
		markAxis = len(lines)
	}
	unitShown := false
	if axis >= 1 {
		first, last := m.x0, m.x0+m.dx*float64(max(nmax-1, 0))
		// Steps are whole numbers; a reduced history (dx > 1, not whole)
		// still labels them as such.
		integer := m.x0 == math.Trunc(m.x0) && (m.dx == math.Trunc(m.dx) || math.Abs(m.dx) >= 1)
		ticks := xTicks(first, last, pw, integer)
		if nmax <= 1 {
			ticks = ticks[:1]
		}
		ax := []rune(strings.Repeat("─", pw))
		for _, t := range ticks {
			ax[t.col] = '┬'
		}
		muted := newPaint(st.Muted)
		lines = append(lines, strings.Repeat(" ", left-1)+muted.render("└"+string(ax)))
		if axis >= 2 {
			var labels string
			labels, unitShown = xLabels(ticks, left, iw, m.xUnit)
			lines = append(lines, muted.render(labels))
		}
	}
	if !unitShown && m.xUnit != "" {
		notes = append([]string{"x: " + m.xUnit}, notes...)
	}
	if l := m.drawMark(lines, len(lines)-ph-axis, ph, markAxis, left, pw, m.x0, m.x0+m.dx*float64(max(nmax-1, 0))); l != "" {
		notes = append(notes, l)
	}
	return lines, strings.Join(notes, " · ")
}

// ghostChars draw the ghost series as faint dots at their level, without
// the vertical strokes that make a noisy fold a wall of lines.
var ghostChars = asciigraph.CharSet{Horizontal: "·", VerticalLine: " ", ArcDownRight: "·", ArcDownLeft: "·",
	ArcUpRight: "·", ArcUpLeft: "·", EndCap: "·", StartCap: "·"}

// compact is the fallback when there is no room for axes: one line per
// series with its name and last value.
func (m LineChart) compact(iw, ih int) []string {
	lines := make([]string, 0, ih)
	for _, i := range m.drawn() {
		if len(lines) == ih {
			break
		}
		lines = append(lines, truncate(strings.TrimSpace(m.seriesName(i)+" "+fmtG(m.lastValue(i), 3)), iw))
	}
	return lines
}

func pickColor(cs []themes.Color, i int) themes.Color {
	if len(cs) == 0 {
		return nil
	}
	return cs[i%len(cs)]
}

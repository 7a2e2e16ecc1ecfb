package widgets

import (
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/guptarohit/asciigraph"
	"github.com/tealab/tealab/themes"
)

// LineChartKeyMap are the keys of a LineChart.
type LineChartKeyMap struct {
	ToggleLog key.Binding // switch the y axis between linear and log10
}

// DefaultLineChartKeyMap returns the default LineChart keys.
func DefaultLineChartKeyMap() LineChartKeyMap {
	return LineChartKeyMap{
		ToggleLog: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "log y")),
	}
}

// ShortHelp implements help.KeyMap.
func (k LineChartKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.ToggleLog} }

// FullHelp implements help.KeyMap.
func (k LineChartKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

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

// LineChart draws named series (train loss; val loss and val error...)
// against a step axis in a titled box: asciigraph body with a labelled y
// axis, an x axis with step ticks and the unit name, and a legend with each
// series' stroke, colour and last value. Series without any value yet are
// left out of the legend.
//
// Ghosts are series drawn faintly under the named ones, without a legend:
// the other folds of a cross-validation beside the current one.
//
// The y axis is automatic until SetLogY chooses: log10 when the positive
// values span two decades or more, else linear with early spikes clipped
// (when the first tenth of the points reaches far beyond the rest, the
// range follows the rest and the title says what was clipped). A log
// axis says so in the title, and its labels carry as many digits as it
// takes for neighbours to differ.
//
// NaN is a missing point: gaps inside a series are bridged (validation is
// often computed every k steps), leading and trailing NaN are left empty.
// ±Inf is missing too; magnitudes beyond 1e100 are clamped. When a series
// has more points than columns it is downsampled keeping its spikes (each
// column keeps its bucket's extreme farthest from the previous column) and
// always its first and last points; shorter histories are stretched across
// the width.
type LineChart struct {
	KeyMap LineChartKeyMap

	st           *themes.Styles
	title, xUnit string
	names        []string
	ys           [][]float64
	ghosts       [][]float64
	x0, dx       float64
	yMode        yMode
	mark         *lineMark
	w, h         int
}

// yMode is how the y axis is scaled.
type yMode int

const (
	yAuto yMode = iota // log when the values span decades, else linear
	yLinear
	yLog
)

// NewLineChart returns an empty chart; xUnit names the x axis ("iteration",
// "epoch", "tree"). Point i of a series is at x = 1 + i until SetXScale.
func NewLineChart(title, xUnit string, st *themes.Styles) LineChart {
	return LineChart{
		KeyMap: DefaultLineChartKeyMap(),
		st:     defaultStyles(st),
		title:  oneLine(title),
		xUnit:  oneLine(xUnit),
		x0:     1,
		dx:     1,
	}
}

// SetSeries replaces the data: names[i] labels ys[i]. Series may differ in
// length; they share the x axis from the first point. Missing names are
// left blank; extra names are ignored.
func (m *LineChart) SetSeries(names []string, ys [][]float64) {
	m.names = make([]string, len(ys))
	for i := 0; i < len(ys) && i < len(names); i++ {
		m.names[i] = oneLine(names[i])
	}
	m.ys = make([][]float64, len(ys))
	for i, y := range ys {
		c := make([]float64, len(y))
		for j, v := range y {
			c[j] = clean(v)
		}
		m.ys[i] = c
	}
}

// SetGhosts sets the faint series drawn under the named ones (nil: none).
// They share the x axis and count in the y range.
func (m *LineChart) SetGhosts(ys [][]float64) {
	m.ghosts = make([][]float64, len(ys))
	for i, y := range ys {
		c := make([]float64, len(y))
		for j, v := range y {
			c[j] = clean(v)
		}
		m.ghosts[i] = c
	}
}

// Ghosts is the number of ghost series.
func (m LineChart) Ghosts() int { return len(m.ghosts) }

// SetXScale sets the x value of point i to start + i*step (a non-finite or
// zero step is ignored).
func (m *LineChart) SetXScale(start, step float64) {
	if finite(start) && finite(step) && step != 0 {
		m.x0, m.dx = clean(start), clean(step)
	}
}

// Title is the title in the box's top border.
func (m LineChart) Title() string { return m.title }

// SetTitle changes the title in the box's top border.
func (m *LineChart) SetTitle(title string) { m.title = oneLine(title) }

// SetLogY chooses a log10 y axis (non-positive values are then missing) or
// a linear one, ending the automatic choice.
func (m *LineChart) SetLogY(on bool) {
	m.yMode = yLinear
	if on {
		m.yMode = yLog
	}
}

// LogY reports whether the y axis is logarithmic (chosen, or chosen
// automatically for the data shown).
func (m LineChart) LogY() bool {
	switch m.yMode {
	case yLog:
		return true
	case yLinear:
		return false
	}
	return spansDecades(append(append([][]float64(nil), m.ys...), m.ghosts...))
}

// spansDecades reports whether the finite values are all positive and the
// largest is at least 100 times the smallest.
func spansDecades(ys [][]float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, y := range ys {
		for _, v := range y {
			switch {
			case math.IsNaN(v):
			case v <= 0:
				return false
			default:
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return hi > 0 && hi >= 100*lo
}

// spikeRange is the y range that leaves out early spikes: lo or hi is
// infinite when there is none to leave out on that side. A spike is the
// first tenth of the longest series going more than three times the range
// of the rest beyond it.
func spikeRange(ys [][]float64) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	nmax := 0
	for _, y := range ys {
		nmax = max(nmax, len(y))
	}
	if nmax < 10 {
		return lo, hi
	}
	head := max(nmax/10, 1)
	headLo, headHi := math.Inf(1), math.Inf(-1)
	restLo, restHi := math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		for j, v := range y {
			switch {
			case math.IsNaN(v):
			case j < head:
				headLo, headHi = math.Min(headLo, v), math.Max(headHi, v)
			default:
				restLo, restHi = math.Min(restLo, v), math.Max(restHi, v)
			}
		}
	}
	rest := restHi - restLo
	if !(rest > 0) {
		return lo, hi
	}
	if headHi > restHi+3*rest {
		hi = restHi + 0.15*rest
	}
	if headLo < restLo-3*rest {
		lo = restLo - 0.15*rest
	}
	return lo, hi
}

// SetSize sets the outer size of the chart, box included.
func (m *LineChart) SetSize(w, h int) { m.w, m.h = w, h }

// Update handles the chart's keys.
func (m LineChart) Update(msg tea.Msg) (LineChart, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, m.KeyMap.ToggleLog) {
		m.SetLogY(!m.LogY())
	}
	return m, nil
}

// View renders the chart in exactly the size set.
func (m LineChart) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	m.st = defaultStyles(m.st) // a zero-value widget still renders
	if m.dx == 0 {
		m.x0, m.dx = 1, 1
	}
	iw, ih := m.w-2, m.h-2
	if m.w < 4 || m.h < 3 {
		iw, ih = m.w, m.h
	}
	lines, unitTitle := m.body(iw, ih)
	title := m.title
	switch {
	case unitTitle == "":
	case title == "":
		title = unitTitle
	default:
		title += " · " + unitTitle
	}
	return frame(m.st, title, lines, m.w, m.h)
}

// prepared returns series ys in plot space (log10 when logY) with inner
// gaps bridged, and the longest length.
func prepared(ys [][]float64, logY bool) ([][]float64, int, bool) {
	out := make([][]float64, len(ys))
	nmax, ok := 0, false
	for i, y := range ys {
		p := make([]float64, len(y))
		first, last := -1, -1
		for j, v := range y {
			if logY {
				if v > 0 {
					v = math.Log10(v)
				} else {
					v = math.NaN()
				}
			}
			p[j] = v
			if !math.IsNaN(v) {
				if first < 0 {
					first = j
				}
				last = j
			}
		}
		if first >= 0 {
			ok = true
			bridge(p[first : last+1])
		}
		out[i] = p
		nmax = max(nmax, len(y))
	}
	return out, nmax, ok
}

// bridge linearly interpolates NaN runs between finite values; p starts
// and ends with finite values.
func bridge(p []float64) {
	prev := 0
	for j := 1; j < len(p); j++ {
		if math.IsNaN(p[j]) {
			continue
		}
		if j-prev > 1 {
			a, b := p[prev], p[j]
			for k := prev + 1; k < j; k++ {
				p[k] = a + (b-a)*float64(k-prev)/float64(j-prev)
			}
		}
		prev = j
	}
}

// resample maps y (of a chart whose longest series has nmax points) onto
// dst, one value per column, NaN where the series has no data.
func resample(dst, y []float64, nmax int) {
	cols := len(dst)
	for c := range dst {
		dst[c] = math.NaN()
	}
	n := len(y)
	if n == 0 || cols == 0 {
		return
	}
	if nmax <= 1 || cols == 1 {
		dst[0] = y[n-1]
		return
	}
	s := float64(cols-1) / float64(nmax-1)
	lastCol := min(cols-1, int(float64(n-1)*s+0.5))
	if s >= 1 {
		// Stretch: linear interpolation between neighbouring points.
		for c := 0; c < lastCol; c++ {
			t := float64(c) / s
			i := int(t)
			if i >= n-1 {
				dst[c] = y[n-1]
				continue
			}
			f := t - float64(i)
			dst[c] = y[i] + (y[i+1]-y[i])*f
		}
		dst[lastCol] = y[n-1]
		return
	}
	// Downsample: each column keeps the extreme of its bucket that is
	// farther from the previous column's value, so spikes survive.
	prev := math.NaN()
	c := 0
	lo, hi, first := math.NaN(), math.NaN(), math.NaN()
	flush := func() {
		v := first
		if !math.IsNaN(prev) && !math.IsNaN(lo) {
			v = lo
			if math.Abs(hi-prev) > math.Abs(lo-prev) {
				v = hi
			}
		}
		dst[c] = v
		prev = v
	}
	for i, v := range y {
		ci := int(float64(i)*s + 0.5)
		if ci != c {
			flush()
			c = ci
			lo, hi, first = math.NaN(), math.NaN(), math.NaN()
		}
		if !math.IsNaN(v) {
			if math.IsNaN(first) {
				first = v
			}
			if math.IsNaN(lo) || v < lo {
				lo = v
			}
			if math.IsNaN(hi) || v > hi {
				hi = v
			}
		}
	}
	flush()
	if !math.IsNaN(y[n-1]) {
		dst[lastCol] = y[n-1]
	}
}

// yAxis chooses a label format for a y range drawn over rows+1 lines and
// returns the formatter (fixed width) and that width. Log labels get as
// many significant digits (2 to 6) as it takes for neighbouring rows to
// read differently.
func yAxis(lo, hi float64, rows int, logY bool) (func(float64) string, int) {
	rows = max(rows, 1)
	vals := make([]float64, rows+1)
	for i := range vals {
		vals[i] = hi - (hi-lo)*float64(i)/float64(rows)
	}
	var f func(float64) string
	if logY {
		for d := 2; d <= 6; d++ {
			f = func(v float64) string { return fmtG(math.Pow(10, v), d) }
			if distinctLabels(vals, f) {
				break
			}
		}
	} else {
		maxAbs := math.Max(math.Abs(lo), math.Abs(hi))
		step := (hi - lo) / float64(rows)
		if maxAbs >= 1e6 || maxAbs < 1e-3 || !(step > 0) {
			f = func(v float64) string { return fmtG(v, 3) }
		} else {
			d := int(math.Ceil(-math.Log10(step)))
			if step < 1 {
				d++
			}
			d = min(max(d, 0), 6)
			f = func(v float64) string { return fmtFixed(v, d) }
		}
	}
	w := 1
	for _, v := range vals {
		w = max(w, len(f(v)))
	}
	w = min(w, 10)
	return func(v float64) string { return padLeft(f(v), w) }, w
}

// distinctLabels reports whether f labels neighbouring values differently.
func distinctLabels(vals []float64, f func(float64) string) bool {
	for i := 1; i < len(vals); i++ {
		if f(vals[i]) == f(vals[i-1]) {
			return false
		}
	}
	return true
}

// niceStep is the smallest 1, 2 or 5 × 10^k at least raw.
func niceStep(raw float64) float64 {
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

type tick struct {
	col   int
	label string
}

// xTicks places tick labels for x in [a, b] over cols columns: the first
// point, round multiples of a nice step about every 10 columns, and the
// last point (the latest step) in the last column.
func xTicks(a, b float64, cols int, integer bool) []tick {
	label := func(x float64) string {
		if integer {
			return fmtFixed(math.Round(x), 0)
		}
		return fmtG(x, 3)
	}
	if cols <= 1 || !(b > a) {
		return []tick{{0, label(a)}}
	}
	col := func(x float64) int { return int(math.Round((x - a) / (b - a) * float64(cols-1))) }
	step := niceStep((b - a) / math.Max(1, float64(cols)/10))
	if integer {
		step = math.Max(1, math.Round(step))
	}
	ticks := []tick{{0, label(a)}}
	// Count in integers: x += step stalls once x is beyond 2^53 steps.
	k0 := math.Ceil(a / step)
	n := math.Min(math.Floor(b/step)-k0, float64(cols))
	for i := 0; float64(i) <= n; i++ {
		x := (k0 + float64(i)) * step
		c := col(x)
		if c <= ticks[len(ticks)-1].col+1 || c >= cols-2 {
			continue
		}
		ticks = append(ticks, tick{c, label(x)})
	}
	if cols-1 > ticks[len(ticks)-1].col {
		ticks = append(ticks, tick{cols - 1, label(b)})
	}
	return ticks
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
		return placeholder(st, "no data yet", iw, ih), ""
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
	yfmt, lw := yAxis(lo, hi, ph-1, logY)
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
	yfmt, _ = yAxis(lo, hi, ph-1, logY)
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

// fixWidth pads or cuts f's labels to w cells, so that the axis keeps the
// width the layout was made for.
func fixWidth(f func(float64) string, w int) func(float64) string {
	return func(v float64) string {
		s := strings.TrimSpace(f(v))
		if len(s) > w {
			s = s[:w]
		}
		return padLeft(s, w)
	}
}

// drawn lists the named series that have at least one value: the legend's.
func (m LineChart) drawn() []int {
	var out []int
	for i := range m.ys {
		if !math.IsNaN(m.lastValue(i)) {
			out = append(out, i)
		}
	}
	return out
}

// xLabels lays tick labels under their ticks: the first left-aligned, the
// last (the latest step) right-aligned at the end, the others centred and
// dropped where they would come within a space of another. The unit name
// goes where it hides no label: before the first one ("epoch 1"), else
// before the last one ("… 500  iteration 1159"), else after the last label
// placed; shown is false when it fits nowhere (the caller puts it in the
// title).
func xLabels(ticks []tick, left, width int, unit string) (string, bool) {
	line := []rune(strings.Repeat(" ", width))
	type span struct{ start, end int } // [start, end)
	var placed []span
	put := func(s string, start int) span {
		r := []rune(s)
		copy(line[start:], r)
		return span{start, start + len(r)}
	}
	fits := func(start, n int) bool { return start >= 0 && start+n <= width }
	if len(ticks) == 0 {
		return "", false
	}
	first := ticks[0]
	if n := len([]rune(first.label)); fits(left+first.col, n) {
		placed = append(placed, put(first.label, left+first.col))
	}
	var lastSpan *span
	if len(ticks) > 1 {
		t := ticks[len(ticks)-1]
		n := len([]rune(t.label))
		start := min(left+t.col-n/2, width-n)
		if fits(start, n) && (len(placed) == 0 || start >= placed[0].end+2) {
			sp := put(t.label, start)
			lastSpan = &sp
		}
	}
	for _, t := range ticks[1:max(len(ticks)-1, 1)] {
		n := len([]rune(t.label))
		start := left + t.col - n/2
		if !fits(start, n) || (len(placed) > 0 && start < placed[len(placed)-1].end+2) ||
			(lastSpan != nil && start+n+2 > lastSpan.start) {
			continue
		}
		placed = append(placed, put(t.label, start))
	}
	if lastSpan != nil {
		placed = append(placed, *lastSpan)
	}
	shown := unit == ""
	if u := []rune(unit); !shown {
		n := len(u)
		prevEnd := 0
		if len(placed) > 1 {
			prevEnd = placed[len(placed)-2].end + 2
		}
		switch {
		case len(placed) > 0 && placed[0].start-1-n >= 0:
			put(unit, placed[0].start-1-n)
			shown = true
		case lastSpan != nil && lastSpan.start-1-n >= prevEnd:
			put(unit, lastSpan.start-1-n)
			shown = true
		case len(placed) > 0 && fits(placed[len(placed)-1].end+2, n):
			put(unit, placed[len(placed)-1].end+2)
			shown = true
		}
	}
	return strings.TrimRight(string(line), " "), shown
}

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

// lastValue is the last finite value of series i (NaN if none).
func (m LineChart) lastValue(i int) float64 {
	y := m.ys[i]
	for j := len(y) - 1; j >= 0; j-- {
		if !math.IsNaN(y[j]) {
			return y[j]
		}
	}
	return math.NaN()
}

func (m LineChart) seriesName(i int) string {
	if i < len(m.names) {
		return m.names[i]
	}
	return ""
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

// padRange widens a degenerate range so the axis has distinct labels and
// asciigraph's scaling stays finite.
func padRange(lo, hi float64) (float64, float64) {
	if lo > hi { // no data
		return 0, 1
	}
	maxAbs := math.Max(math.Abs(lo), math.Abs(hi))
	if hi-lo <= maxAbs*1e-9 {
		mid := (lo + hi) / 2
		d := math.Abs(mid) * 0.05
		if d == 0 {
			d = 1
		}
		return mid - d, mid + d
	}
	return lo, hi
}

func pickColor(cs []themes.Color, i int) themes.Color {
	if len(cs) == 0 {
		return nil
	}
	return cs[i%len(cs)]
}

package widgets

import (
	"math"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
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
	empty        string // what an empty chart says; "" is "no data yet"
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

// SetEmpty sets what the chart says while it has no points ("" for "no
// data yet"): why it never will, when that is known.
func (m *LineChart) SetEmpty(msg string) { m.empty = msg }

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

// SetSize sets the outer size of the chart, box included.
func (m *LineChart) SetSize(w, h int) { m.w, m.h = w, h }

// Update handles the chart's keys.
func (m LineChart) Update(msg tea.Msg) (LineChart, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.KeyMap.ToggleLog) {
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

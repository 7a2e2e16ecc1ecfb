package widgets

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

func TestResample(t *testing.T) {
	nan := math.NaN()
	spike := make([]float64, 100)
	spike[50] = 100
	long := make([]float64, 100)
	for i := range long {
		long[i] = float64(i)
	}
	cases := []struct {
		name string
		y    []float64
		nmax int
		cols int
		want []float64 // nil: checked by fn
		fn   func([]float64) bool
	}{
		{"stretch", []float64{0, 10}, 2, 5, []float64{0, 2.5, 5, 7.5, 10}, nil},
		{"identity", []float64{3, 1, 2}, 3, 3, []float64{3, 1, 2}, nil},
		{"single", []float64{7}, 1, 4, []float64{7, nan, nan, nan}, nil},
		{"one column", []float64{1, 2, 3}, 3, 1, []float64{3}, nil},
		{"shorter series", []float64{0, 1, 2, 3, 4}, 9, 9, []float64{0, 1, 2, 3, 4, nan, nan, nan, nan}, nil},
		{"leading NaN", []float64{nan, 1, 2}, 3, 3, []float64{nan, 1, 2}, nil},
		{"empty", nil, 5, 3, []float64{nan, nan, nan}, nil},
		{"downsample keeps first and last", long, 100, 10, nil, func(d []float64) bool {
			return d[0] == 0 && d[9] == 99
		}},
		{"downsample keeps a spike", spike, 100, 10, nil, func(d []float64) bool {
			return slicesMax(d) == 100
		}},
		{"downsample monotone stays monotone", long, 100, 7, nil, func(d []float64) bool {
			for i := 1; i < len(d); i++ {
				if d[i] < d[i-1] {
					return false
				}
			}
			return true
		}},
	}
	for _, c := range cases {
		dst := make([]float64, c.cols)
		resample(dst, c.y, c.nmax)
		if c.want != nil && !sliceNear(dst, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, dst, c.want)
		}
		if c.fn != nil && !c.fn(dst) {
			t.Errorf("%s: got %v", c.name, dst)
		}
	}
}

func slicesMax(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		if x > m {
			m = x
		}
	}
	return m
}

func TestBridge(t *testing.T) {
	nan := math.NaN()
	p := []float64{1, nan, nan, 4, nan, 2}
	bridge(p)
	if want := []float64{1, 2, 3, 4, 3, 2}; !sliceNear(p, want) {
		t.Errorf("bridge = %v, want %v", p, want)
	}
}

func TestAxes(t *testing.T) {
	for _, c := range []struct{ raw, want float64 }{{0.7, 1}, {1, 1}, {1.2, 2}, {3, 5}, {7, 10}, {0.03, 0.05}, {0, 1}, {math.Inf(1), 1}} {
		if got := niceStep(c.raw); !near(got, c.want) {
			t.Errorf("niceStep(%v) = %v, want %v", c.raw, got, c.want)
		}
	}
	ticks := xTicks(1, 25, 50, true)
	if ticks[0].label != "1" || ticks[0].col != 0 {
		t.Errorf("first tick %+v, want 1 at column 0", ticks[0])
	}
	for i := 1; i < len(ticks); i++ {
		if ticks[i].col <= ticks[i-1].col || ticks[i].col >= 50 {
			t.Errorf("ticks not increasing inside the plot: %+v", ticks)
		}
	}
	// The last point always has a tick, in the last column.
	if last := ticks[len(ticks)-1]; last.col != 49 || last.label != "25" {
		t.Errorf("last tick %+v, want 25 at column 49", last)
	}
	if last := xTicks(1, 1159, 39, true); last[len(last)-1].label != "1159" {
		t.Errorf("ticks of 1..1159 lack the last step: %+v", last)
	}
	if got := xTicks(3, 3, 10, true); len(got) != 1 {
		t.Errorf("degenerate range: %+v", got)
	}
	// The y labels have one width and enough decimals to differ.
	f, w := yAxis(0.02, 1.1, 4, false)
	if f(1.1) != "1.10" || f(0.02) != "0.02" || w != 4 {
		t.Errorf("yAxis labels %q %q width %d", f(1.1), f(0.02), w)
	}
	f, _ = yAxis(-2e6, 3e6, 10, false)
	if got := f(3e6); strings.TrimSpace(got) != "3e6" {
		t.Errorf("large labels %q", got)
	}
	if lo, hi := padRange(3, 3); !(lo < 3 && hi > 3) {
		t.Errorf("padRange(3,3) = %v, %v", lo, hi)
	}
	if lo, hi := padRange(0, 0); lo != -1 || hi != 1 {
		t.Errorf("padRange(0,0) = %v, %v", lo, hi)
	}
}

func TestLineChart(t *testing.T) {
	st := asciiStyles()
	c := NewLineChart("loss", "epoch", st)
	names, ys := lossHistory(25)
	c.SetSeries(names, ys)
	c.SetSize(80, 16)
	v := c.View()
	for _, want := range []string{"loss", "epoch", "train loss 0.02522", "val loss 0.1349", "━━", "══"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	// Input slices are copied.
	ys[0][24] = 99
	if c.View() != v {
		t.Error("SetSeries kept a reference to the caller's slice")
	}
	c, _ = c.Update(keyMsg("L"))
	if !c.LogY() || c.View() == v {
		t.Error("L did not switch to a log axis")
	}
	c.SetXScale(0, 10)
	if !strings.Contains(c.View(), " 240") && !strings.Contains(c.View(), "200") {
		t.Errorf("x scale not applied:\n%s", c.View())
	}
	// Colour profiles: asciigraph escapes only when there is colour.
	col := NewLineChart("loss", "epoch", stylesFor("dark", colorprofile.ANSI256))
	col.SetSeries(names, ys)
	col.SetSize(80, 16)
	if !strings.Contains(col.View(), "\x1b[38;5;") {
		t.Error("ANSI256 profile: series not coloured")
	}
	mono := NewLineChart("loss", "epoch", stylesFor("mono", colorprofile.TrueColor))
	mono.SetSeries(names, ys)
	mono.SetSize(80, 16)
	if strings.Contains(mono.View(), "\x1b[38;") {
		t.Error("mono theme: series coloured")
	}
}

// legendOf returns the legend lines of a chart view: the box's lines
// before the first plot row.
func legendOf(v string) []string {
	var out []string
	for _, l := range strings.Split(v, "\n")[1:] {
		if strings.ContainsAny(l, "┤┼") {
			break
		}
		out = append(out, l)
	}
	return out
}

// TestLineChartLegendKeepsEverySeries: the legend shortens, wraps or
// abbreviates but never drops a series (at 50 columns the validation
// chart used to show only its first series).
func TestLineChartLegendKeepsEverySeries(t *testing.T) {
	st := asciiStyles()
	c := NewLineChart("validation on held-out rows", "iteration", st)
	n := 1159
	vl, ve := make([]float64, n), make([]float64, n)
	for i := range n {
		vl[i] = 0.1217 + 0.15*math.Exp(-float64(i)/20)
		ve[i] = 0.039 + 0.01*math.Exp(-float64(i)/20)
	}
	c.SetSeries([]string{"val log-loss", "val error"}, [][]float64{vl, ve})
	c.SetSize(50, 27)
	legend := strings.Join(legendOf(plain(c.View())), "\n")
	for _, want := range []string{"── val log-loss 0.1217", "━━ val error 0.039"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend lacks %q:\n%s", want, plain(c.View()))
		}
	}

	// Six long names: every stroke is in the legend at every size.
	names := make([]string, len(lineStyles))
	ys := make([][]float64, len(lineStyles))
	for i := range names {
		names[i] = "series with a long name " + string(rune('A'+i))
		ys[i] = []float64{float64(i), float64(i) + 1}
	}
	c.SetSeries(names, ys)
	for _, sz := range [][2]int{{120, 20}, {80, 16}, {50, 27}, {40, 12}, {30, 9}, {24, 7}} {
		c.SetSize(sz[0], sz[1])
		legend := strings.Join(legendOf(plain(c.View())), "\n")
		for i, cs := range lineStyles {
			if !strings.Contains(legend, cs.Horizontal+cs.Horizontal) {
				t.Errorf("%dx%d: legend lacks series %d (%s):\n%s", sz[0], sz[1], i, cs.Horizontal, plain(c.View()))
			}
		}
		if sz[0] >= 120 && !strings.Contains(legend, "name F") {
			t.Errorf("%dx%d: names abbreviated though the legend could wrap:\n%s", sz[0], sz[1], plain(c.View()))
		}
	}
}

// TestLineChartXAxisShowsLatestStep: the tick labels end with the latest
// step and the unit name hides none of them.
func TestLineChartXAxisShowsLatestStep(t *testing.T) {
	st := asciiStyles()
	for _, tc := range []struct {
		w, n  int
		unit  string
		label string // the last tick label
	}{
		{50, 1159, "iteration", "1159"},
		{50, 2000, "iteration", "2000"},
		{60, 25, "epoch", "25"},
		{120, 25, "iteration", "25"},
		{40, 7, "tree", "7"},
	} {
		c := NewLineChart("loss", tc.unit, st)
		y := make([]float64, tc.n)
		for i := range y {
			y[i] = 1 / float64(i+1)
		}
		c.SetSeries([]string{"train loss"}, [][]float64{y})
		c.SetSize(tc.w, 20)
		lines := strings.Split(plain(c.View()), "\n")
		labels := strings.TrimRight(strings.Trim(lines[len(lines)-2], "│"), " ")
		fields := strings.Fields(labels)
		if len(fields) == 0 || fields[len(fields)-1] != tc.label {
			t.Errorf("%d steps at width %d: labels %q do not end with %s", tc.n, tc.w, labels, tc.label)
		}
		if !strings.Contains(labels, tc.unit) && !strings.Contains(lines[0], "x: "+tc.unit) {
			t.Errorf("%d steps at width %d: unit %q neither under the axis nor in the title:\n%s", tc.n, tc.w, tc.unit, plain(c.View()))
		}
		for _, f := range fields {
			if f != tc.unit && strings.Trim(f, "0123456789") != "" {
				t.Errorf("%d steps at width %d: label %q is not a step number: %q", tc.n, tc.w, f, labels)
			}
		}
	}
}

// a log y axis says so, and its labels never repeat,
// even over a narrow range.
func TestLogAxisLabelsDistinct(t *testing.T) {
	y := make([]float64, 50)
	for i := range y {
		y[i] = 0.50 + 0.02*float64(i)/49 // 0.50 .. 0.52: one label at 2 digits
	}
	c := NewLineChart("loss", "epoch", asciiStyles())
	c.SetSeries([]string{"loss"}, [][]float64{y})
	c.SetLogY(true)
	c.SetSize(40, 14)
	v := ansi.Strip(c.View())
	if !strings.Contains(strings.Split(v, "\n")[0], "log y") {
		t.Errorf("the title does not say the axis is logarithmic:\n%s", v)
	}
	var labels []string
	for _, line := range strings.Split(v, "\n") {
		if i := strings.IndexAny(line, "┤┼"); i > 0 {
			labels = append(labels, strings.TrimSpace(strings.TrimPrefix(line[:i], "│")))
		}
	}
	for i := 1; i < len(labels); i++ {
		if labels[i] == labels[i-1] {
			t.Errorf("repeated y labels %q:\n%s", labels, v)
			break
		}
	}
}

// a series never drawn is not in the legend.
func TestLegendOmitsEmptySeries(t *testing.T) {
	c := NewLineChart("validation", "epoch", asciiStyles())
	nan := math.NaN()
	c.SetSeries([]string{"val log-loss", "val error"}, [][]float64{{nan, nan, nan}, {0.5, 0.3, 0.2}})
	c.SetSize(50, 12)
	v := ansi.Strip(c.View())
	if strings.Contains(v, "log-loss") || !strings.Contains(v, "val error") {
		t.Errorf("legend should list val error alone:\n%s", v)
	}
}

// Live charts stay readable: an early spike is left above the range (and
// the title says so); values spanning decades switch to a log axis.
func TestAutoYRange(t *testing.T) {
	y := make([]float64, 100)
	for i := range y {
		y[i] = 1 + 0.01*float64(i%7)
	}
	y[0], y[1] = -40, 50 // an early spike both ways keeps the data from being all positive
	c := NewLineChart("loss", "epoch", asciiStyles())
	c.SetSeries([]string{"loss"}, [][]float64{y})
	c.SetSize(50, 14)
	v := ansi.Strip(c.View())
	if !strings.Contains(v, "spike to 50 clipped") || strings.Contains(v, "50 ┤") {
		t.Errorf("an early spike should be left above the range:\n%s", v)
	}
	for i := range y {
		y[i] = 1000 * math.Pow(0.9, float64(i)) // 1000 down to 0.03
	}
	c.SetSeries([]string{"loss"}, [][]float64{y})
	if !c.LogY() || !strings.Contains(ansi.Strip(c.View()), "log y") {
		t.Error("values over decades should switch the axis to log")
	}
	c, _ = c.Update(keyMsg("L"))
	if c.LogY() {
		t.Error("L should switch the automatic log axis back to linear")
	}
}

// Ghosts (the other folds) are drawn under the series, without a legend.
func TestGhostsDrawnWithoutLegend(t *testing.T) {
	c := NewLineChart("loss", "epoch", asciiStyles())
	c.SetSeries([]string{"fold 2"}, [][]float64{{3, 2, 1}})
	c.SetGhosts([][]float64{{6, 5, 4}})
	c.SetSize(40, 12)
	v := ansi.Strip(c.View())
	if !strings.Contains(v, "·") || strings.Count(v, "fold") != 1 {
		t.Errorf("ghost not drawn faintly, or listed:\n%s", v)
	}
	if !strings.Contains(v, "6") {
		t.Errorf("the ghost's values should count in the range:\n%s", v)
	}
}

// x-axis labels collided at narrow widths ("FPR0.5").
// At every width, every word under an axis is a whole label.
func TestAxisLabelsNeverTouch(t *testing.T) {
	valid := map[string]bool{"0": true, "0.5": true, "1": true, "FPR": true}
	for w := 8; w <= 60; w++ {
		r := NewROC(irisROC(), asciiStyles())
		r.SetSize(w, 14)
		lines := strings.Split(ansi.Strip(r.View()), "\n")
		for i, l := range lines {
			if !strings.Contains(l, "└") || i+1 >= len(lines) {
				continue
			}
			for _, tok := range strings.Fields(lines[i+1]) {
				if !valid[tok] {
					t.Errorf("ROC at width %d: labels run together: %q", w, lines[i+1])
				}
			}
		}
	}
	for _, unit := range []string{"", "epoch", "iteration"} {
		for n := 1; n < 200000; n = n*3 + 1 {
			for pw := 2; pw < 70; pw++ {
				ticks := xTicks(1, float64(n), pw, true)
				line, _ := xLabels(ticks, 8, pw+8, unit)
				ok := map[string]bool{unit: true}
				for _, tk := range ticks {
					ok[tk.label] = true
				}
				for _, tok := range strings.Fields(line) {
					if !ok[tok] {
						t.Fatalf("line chart, %d steps over %d columns: labels run together: %q", n, pw, line)
					}
				}
			}
		}
	}
}

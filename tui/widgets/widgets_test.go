package widgets

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/internal/sweep"
	"github.com/tealab/tealab/internal/termtest"
	"github.com/tealab/tealab/themes"
)

// Golden files live in testdata/<Test>/<widget>/<size>.golden, compared by
// golden.RequireEqual as the lab's are; regenerate them with
// `go test ./tui/widgets/ -run TestGolden -update` and read the diff before
// committing.

// stylesFor builds a theme's styles for a fixed colour profile, so tests
// do not depend on the terminal running them.
func stylesFor(theme string, p colorprofile.Profile) *themes.Styles {
	th, ok := themes.ByName(theme)
	if !ok {
		panic("no theme " + theme)
	}
	return themes.NewStyles(th, p)
}

func asciiStyles() *themes.Styles { return stylesFor("dark", colorprofile.NoTTY) }

// --- fixtures: deterministic data shaped like real results ---

// lossHistory is a training run: train loss every step, validation loss
// and error every 5th step (NaN between), n steps.
func lossHistory(n int) ([]string, [][]float64) {
	tr, vl, ve := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		x := float64(i)
		tr[i] = 1.08*math.Exp(-x/4) + 0.02 + 0.01*math.Sin(3*x)
		vl[i], ve[i] = math.NaN(), math.NaN()
		if i%5 == 0 || i == n-1 {
			vl[i] = 0.6*math.Exp(-x/5) + 0.13
			ve[i] = 0.62*math.Exp(-x/3) + 0.033
		}
	}
	return []string{"train loss", "val loss", "val error"}, [][]float64{tr, vl, ve}
}

func irisConfusion() (metrics.Confusion, map[string]float64) {
	return metrics.Confusion{
			Labels: []string{"setosa", "versicolor", "virginica"},
			Matrix: [][]int{{10, 0, 0}, {0, 9, 1}, {0, 0, 10}},
		}, map[string]float64{
			"accuracy": 0.9667, "baseline_accuracy": 0.3333, "macro_f1": 0.9666,
			"kappa": 0.95, "mcc": 0.9515, "log_loss": 0.0921,
		}
}

func digitsConfusion() metrics.Confusion {
	k := 10
	c := metrics.Confusion{Labels: make([]string, k), Matrix: make([][]int, k)}
	for i := range k {
		c.Labels[i] = fmt.Sprint(i)
		c.Matrix[i] = make([]int, k)
		c.Matrix[i][i] = 170 + i
		c.Matrix[i][(i+3)%k] = i % 3
		c.Matrix[i][(i+7)%k] = (i * 7) % 4
	}
	return c
}

func irisROC() []metrics.ROC {
	return []metrics.ROC{
		{Class: "setosa", FPR: []float64{0, 0, 1}, TPR: []float64{0, 1, 1}, AUC: 1},
		{Class: "versicolor", FPR: []float64{0, 0.05, 0.1, 0.3, 0.6, 1}, TPR: []float64{0, 0.5, 0.7, 0.9, 0.95, 1}, AUC: 0.9125},
		{Class: "virginica", FPR: []float64{0, 0.1, 0.2, 0.5, 1}, TPR: []float64{0, 0.6, 0.8, 0.95, 1}, AUC: 0.93},
	}
}

// moons is two interleaved half circles, 60 points, with two marked.
func moons() (xs, ys []float64, class []int) {
	for i := range 60 {
		a := float64(i/2) / 29 * math.Pi
		if i%2 == 0 {
			xs, ys, class = append(xs, math.Cos(a)), append(ys, math.Sin(a)), append(class, 0)
		} else {
			xs, ys, class = append(xs, 1-math.Cos(a)), append(ys, 0.5-math.Sin(a)), append(class, 1)
		}
	}
	return xs, ys, class
}

// moonsRegions is the region grid of a simple curved boundary over b.
func moonsRegions(b Bounds) [][]int {
	g := make([][]int, b.Rows)
	for r := range g {
		g[r] = make([]int, b.Cols)
		for c := range g[r] {
			x, y := b.Center(c, r)
			if y < 0.25-0.3*x+0.25*x*x {
				g[r][c] = 1
			}
		}
	}
	return g
}

// sized is any widget reduced to what the size tests need.
type sized struct {
	set  func(w, h int)
	view func() string
}

func lineChartW(st *themes.Styles, names []string, ys [][]float64) sized {
	m := NewLineChart("training", "iteration", st)
	m.SetSeries(names, ys)
	return sized{m.SetSize, func() string { return m.View() }}
}

func confusionW(st *themes.Styles, c metrics.Confusion, sum map[string]float64) sized {
	m := NewConfusion(c, nil, sum, st)
	return sized{m.SetSize, func() string { return m.View() }}
}

func rocW(st *themes.Styles, cs []metrics.ROC) sized {
	m := NewROC(cs, st)
	return sized{m.SetSize, func() string { return m.View() }}
}

func barsW(st *themes.Styles, labels []string, values []float64) sized {
	m := NewBars(labels, values, st)
	return sized{m.SetSize, func() string { return m.View() }}
}

func scatterW(st *themes.Styles, xs, ys []float64, class []int, regions bool) sized {
	m := NewScatter(st)
	m.SetPoints(xs, ys, class)
	m.SetMarked([]int{4, 17, 1000, -1})
	m.SetAxes("x0", "x1")
	m.SetClassNames([]string{"upper", "lower"})
	set := func(w, h int) {
		m.SetSize(w, h)
		if regions {
			m.SetRegions(moonsRegions(m.Bounds()))
		}
	}
	return sized{set, func() string { return m.View() }}
}

func tabsW(st *themes.Styles, names []string) sized {
	m := NewTabs(names, st)
	m.SetActive(2)
	return sized{m.SetSize, func() string { return m.View() }}
}

// cases returns every widget with normal and hostile data.
func cases(st *themes.Styles) map[string]sized {
	nan, inf := math.NaN(), math.Inf(1)
	names, hist := lossHistory(25)
	conf, sum := irisConfusion()
	xs, ys, class := moons()
	long := strings.Repeat("very long class name ", 3) + "\n\tctl\x1b[31m\r日本語"
	hostileSum := map[string]float64{long: 1, "accuracy": math.NaN(), "log_loss": math.Inf(1)}
	longConf := metrics.Confusion{Labels: make([]string, 30), Matrix: make([][]int, 30)}
	for i := range longConf.Labels {
		longConf.Labels[i] = fmt.Sprintf("%s%d", long, i)
		longConf.Matrix[i] = []int{i * 1000, 1, 2}
	}
	return map[string]sized{
		"line/history":   lineChartW(st, names, hist),
		"line/long":      lineChartW(st, names, [][]float64{ramp(10000), ramp(3000), nil}),
		"line/empty":     lineChartW(st, nil, nil),
		"line/nilseries": lineChartW(st, []string{"a"}, [][]float64{nil}),
		"line/allnan":    lineChartW(st, []string{"a"}, [][]float64{{nan, nan}}),
		"line/inf":       lineChartW(st, []string{"a"}, [][]float64{{inf}}),
		"line/mixedinf":  lineChartW(st, []string{"a", "b"}, [][]float64{{1, inf, nan, -inf, 2}, {-inf}}),
		"line/onepoint":  lineChartW(st, []string{"a"}, [][]float64{{0.7}}),
		"line/flat":      lineChartW(st, []string{"a"}, [][]float64{{3, 3, 3, 3}}),
		"line/zeros":     lineChartW(st, []string{"a"}, [][]float64{{0, 0, 0}}),
		"line/huge":      lineChartW(st, []string{"a"}, [][]float64{{1e300, -1e300, 5, math.MaxFloat64}}),
		"line/tinyrange": lineChartW(st, []string{"a"}, [][]float64{{1, 1 + 1e-15, 1}}),
		"line/bigoffset": lineChartW(st, []string{"a"}, [][]float64{{1e12, 1e12 + 1, 1e12 + 3}}),
		"line/longname":  lineChartW(st, []string{long, long}, [][]float64{{1, 2}, {2, 1}}),
		"line/farx": func() sized {
			m := NewLineChart(long, long, st)
			m.SetSeries([]string{"a"}, [][]float64{ramp(500)})
			m.SetXScale(1e20, 1e3)
			return sized{m.SetSize, func() string { return m.View() }}
		}(),
		"conf/iris":       confusionW(st, conf, sum),
		"conf/digits":     confusionW(st, digitsConfusion(), sum),
		"conf/empty":      confusionW(st, metrics.Confusion{}, nil),
		"conf/one":        confusionW(st, metrics.Confusion{Labels: []string{"a"}, Matrix: [][]int{{5}}}, nil),
		"conf/ragged":     confusionW(st, metrics.Confusion{Labels: []string{"a", "b", ""}, Matrix: [][]int{{1, -4}, {}, {1, 2, 3, 4}, {9}}}, map[string]float64{"x": nan}),
		"conf/zeros":      confusionW(st, metrics.Confusion{Matrix: [][]int{{0, 0}, {0, 0}}}, nil),
		"conf/long":       confusionW(st, longConf, hostileSum),
		"roc/iris":        rocW(st, irisROC()),
		"roc/empty":       rocW(st, nil),
		"roc/hostile":     rocW(st, []metrics.ROC{{Class: "a", FPR: []float64{nan, 0.5, inf, 2}, TPR: []float64{0, 0.5, 1}, AUC: nan}, {Class: long}, {FPR: []float64{0.3}, TPR: []float64{0.3}}}),
		"roc/one":         rocW(st, irisROC()[1:2]),
		"bars/balance":    barsW(st, []string{"setosa", "versicolor", "virginica"}, []float64{50, 50, 47}),
		"bars/coefs":      barsW(st, []string{"petal_length", "petal_width", "sepal_length", "sepal_width", "bias"}, []float64{-2.31, 1.5, 0.12, -0.9, 0.003}),
		"bars/hostile":    barsW(st, []string{"nan", "inf", "-inf", long, "zero"}, []float64{nan, inf, -inf, 1e300, 0}),
		"bars/negative":   barsW(st, []string{"a", "b"}, []float64{-1, -3}),
		"bars/zeros":      barsW(st, []string{"a", "b"}, []float64{0, 0}),
		"bars/empty":      barsW(st, nil, nil),
		"bars/many":       barsW(st, labelsN(64), ramp(64)),
		"scatter/moons":   scatterW(st, xs, ys, class, true),
		"scatter/plain":   scatterW(st, xs, ys, nil, false),
		"scatter/empty":   scatterW(st, nil, nil, nil, true),
		"scatter/hostile": scatterW(st, []float64{nan, inf, 1, 1e300, -inf}, []float64{1, 2, nan, -1e300, 0}, []int{0, 1, 2, 3}, true),
		"scatter/one":     scatterW(st, []float64{2}, []float64{3}, []int{5}, false),
		"scatter/bigclass": func() sized {
			m := NewScatter(st)
			m.SetPoints([]float64{0, 1, 2}, []float64{0, 1, 2}, []int{1 << 40, -7, math.MaxInt})
			m.SetRegions([][]int{{math.MaxInt, -1}, {1 << 50}, nil})
			return sized{m.SetSize, func() string { return m.View() }}
		}(),
		"tabs/results": tabsW(st, []string{"Summary", "Confusion", "ROC", "History", "Coefficients"}),
		"tabs/empty":   tabsW(st, nil),
		"tabs/long":    tabsW(st, []string{long, long, long}),
	}
}

func ramp(n int) []float64 {
	y := make([]float64, n)
	for i := range y {
		y[i] = math.Sin(float64(i)/50) + float64(i%97)/200
	}
	return y
}

func labelsN(n int) []string {
	l := make([]string, n)
	for i := range l {
		l[i] = fmt.Sprintf("feature_%02d", i)
	}
	return l
}

// checkBlock asserts a view is exactly w cells by h lines.
func checkBlock(t *testing.T, name, out string, w, h int) {
	t.Helper()
	if w <= 0 || h <= 0 {
		if out != "" {
			t.Errorf("%s at %dx%d: want empty view, got %q", name, w, h, out)
		}
		return
	}
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("%s at %dx%d: %d lines", name, w, h, len(lines))
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("%s at %dx%d: line %d is %d wide: %q", name, w, h, i, got, ansi.Strip(l))
			return
		}
	}
}

// TestSizesLong renders every widget and hostile input at sizes from 10x3 to
// 200x60 (and degenerate ones) in colour and ASCII profiles: no panic, and
// every view exactly fills its size.
func TestSizesLong(t *testing.T) {
	widths, heights := []int{10, 13, 20, 33, 57, 80, 120, 200}, []int{3, 5, 7, 12, 24, 60}
	if sweep.Long(t) { // every size between: a long sweep (package sweep)
		widths = []int{10, 11, 13, 17, 20, 24, 31, 33, 40, 57, 80, 101, 120, 160, 200}
		heights = []int{3, 4, 5, 6, 7, 9, 12, 16, 24, 40, 60}
	}
	type size struct{ w, h int }
	grid := func(ws, hs []int) []size {
		ss := []size{{0, 0}, {-1, 5}, {5, 0}, {1, 1}, {2, 2}, {3, 1}, {1, 9}, {4, 3}, {9, 2}}
		for _, w := range ws {
			for _, h := range hs {
				ss = append(ss, size{w, h})
			}
		}
		return ss
	}
	full, small := grid(widths, heights), grid([]int{10, 33, 80, 200}, []int{3, 7, 24, 60})
	for _, theme := range []string{"dark", "mono"} {
		for _, p := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.TrueColor} {
			// Every size in colour (escapes make widths hardest to get
			// right), a sample of sizes for the other combinations.
			sizes := small
			if theme == "dark" && p == colorprofile.TrueColor {
				sizes = full
			}
			st := stylesFor(theme, p)
			for name, wd := range cases(st) {
				for _, s := range sizes {
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Fatalf("%s/%s at %dx%d panicked: %v", theme, name, s.w, s.h, r)
							}
						}()
						wd.set(s.w, s.h)
						checkBlock(t, theme+"/"+name, wd.view(), s.w, s.h)
					}()
				}
			}
		}
	}
}

// TestGolden compares views with testdata/TestGolden/<widget>/<size>.golden
// as a terminal without colour or emphasis (NoTTY) is sent them.
func TestGolden(t *testing.T) {
	st := asciiStyles()
	all := cases(st)
	for _, g := range []struct {
		name  string
		sizes [][2]int
	}{
		{"line/history", [][2]int{{60, 14}, {120, 20}, {24, 7}}},
		{"line/long", [][2]int{{80, 16}}},
		{"line/onepoint", [][2]int{{40, 8}}},
		{"line/flat", [][2]int{{40, 8}}},
		{"line/empty", [][2]int{{30, 5}}},
		{"conf/iris", [][2]int{{100, 10}, {60, 10}, {30, 6}}},
		{"conf/digits", [][2]int{{80, 18}, {40, 9}}},
		{"roc/iris", [][2]int{{60, 20}, {30, 10}}},
		{"roc/one", [][2]int{{40, 12}}},
		{"bars/balance", [][2]int{{40, 3}}},
		{"bars/coefs", [][2]int{{50, 5}, {50, 3}}},
		{"scatter/moons", [][2]int{{60, 18}, {30, 10}}},
		{"scatter/plain", [][2]int{{40, 10}}},
		{"tabs/results", [][2]int{{80, 1}, {30, 1}}},
	} {
		for _, s := range g.sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", strings.ReplaceAll(g.name, "/", "_"), s[0], s[1]), func(t *testing.T) {
				wd := all[g.name]
				wd.set(s[0], s[1])
				out := wd.view()
				checkBlock(t, g.name, out, s[0], s[1])
				golden.RequireEqual(t, termtest.Show(out, colorprofile.NoTTY))
			})
		}
	}
}

// plain is a view as a terminal without colour or emphasis is sent it.
func plain(view string) string { return termtest.Show(view, colorprofile.NoTTY) }

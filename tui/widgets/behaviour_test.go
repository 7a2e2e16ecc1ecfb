package widgets

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/tealab/tealab/engine/metrics"
)

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

const tol = 1e-9

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

func sliceNear(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i]) {
			return false
		}
	}
	return true
}

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
	col := NewLineChart("loss", "epoch", stylesFor("dark", termenv.ANSI256))
	col.SetSeries(names, ys)
	col.SetSize(80, 16)
	if !strings.Contains(col.View(), "\x1b[38;5;") {
		t.Error("ANSI256 profile: series not coloured")
	}
	mono := NewLineChart("loss", "epoch", stylesFor("mono", termenv.TrueColor))
	mono.SetSeries(names, ys)
	mono.SetSize(80, 16)
	if strings.Contains(mono.View(), "\x1b[38;") {
		t.Error("mono theme: series coloured")
	}
}

// TestConfusionMetrics checks the per-class figures computed when no report
// is given. Reference: scikit-learn 1.2.1,
//
//	from sklearn.metrics import precision_recall_fscore_support
//	def expand(C):
//	    y, p = [], []
//	    for i in range(len(C)):
//	        for j in range(len(C)):
//	            y += [i] * C[i][j]; p += [j] * C[i][j]
//	    return y, p
//	for C in ([[10,0,0],[0,9,1],[0,0,10]], [[5,2,0],[3,0,0],[0,1,4]]):
//	    print(precision_recall_fscore_support(*expand(C), labels=[0,1,2], zero_division=0))
func TestConfusionMetrics(t *testing.T) {
	cases := []struct {
		m             [][]int
		prec, rec, f1 []float64
	}{
		{[][]int{{10, 0, 0}, {0, 9, 1}, {0, 0, 10}},
			[]float64{1, 1, 0.909091}, []float64{1, 0.9, 1}, []float64{1, 0.947368, 0.952381}},
		{[][]int{{5, 2, 0}, {3, 0, 0}, {0, 1, 4}},
			[]float64{0.625, 0, 1}, []float64{0.714286, 0, 0.8}, []float64{0.666667, 0, 0.888889}},
	}
	for _, c := range cases {
		v := NewConfusion(metrics.Confusion{Labels: []string{"a", "b", "c"}, Matrix: c.m}, nil, nil, asciiStyles())
		for i := range 3 {
			if math.Abs(v.prec[i]-c.prec[i]) > 1e-6 || math.Abs(v.rec[i]-c.rec[i]) > 1e-6 || math.Abs(v.f1[i]-c.f1[i]) > 1e-6 {
				t.Errorf("%v class %d: got P %v R %v F1 %v, want %v %v %v", c.m, i, v.prec[i], v.rec[i], v.f1[i], c.prec[i], c.rec[i], c.f1[i])
			}
		}
	}
	// A report wins over computation; a never-predicted class has no
	// precision ("–").
	rep := []metrics.ClassReport{{Class: "b", Precision: 0.5, Recall: 0.25, F1: 0.333}}
	v := NewConfusion(metrics.Confusion{Labels: []string{"a", "b"}, Matrix: [][]int{{3, 0}, {1, 0}}}, rep, nil, asciiStyles())
	if v.prec[1] != 0.5 || v.rec[1] != 0.25 {
		t.Errorf("report ignored: %v %v", v.prec, v.rec)
	}
	if !math.IsNaN(v.prec[1]) && v.prec[0] != 0.75 {
		t.Errorf("precision of a: %v", v.prec[0])
	}
	if fmtRate(math.NaN()) != "–" {
		t.Error("undefined rate not shown as –")
	}
}

func TestConfusionKeys(t *testing.T) {
	conf, sum := irisConfusion()
	c := NewConfusion(conf, nil, sum, asciiStyles())
	c.SetSize(100, 10)
	if !strings.Contains(c.View(), "accuracy 0.967 (baseline 0.333) · macro F1 0.967 · kappa 0.950 · MCC 0.952 · log-loss 0.092") {
		t.Errorf("summary line:\n%s", c.View())
	}
	if c.KeyMap.Down.Enabled() || c.KeyMap.Right.Enabled() {
		t.Error("scroll keys enabled although everything fits")
	}
	c, _ = c.Update(keyMsg("n"))
	if !c.Normalized() || !strings.Contains(c.View(), "90%") || !strings.Contains(c.View(), "×10%") {
		t.Errorf("n did not switch to row percentages:\n%s", c.View())
	}

	d := NewConfusion(digitsConfusion(), nil, sum, asciiStyles())
	d.SetSize(80, 20)
	if d.KeyMap.Right.Enabled() {
		t.Errorf("digits do not fit 80 columns:\n%s", d.View())
	}
	d.SetSize(36, 8)
	if !d.KeyMap.Down.Enabled() || !d.KeyMap.Right.Enabled() {
		t.Fatal("small view does not scroll")
	}
	for range 20 {
		d, _ = d.Update(keyMsg("down"))
		d, _ = d.Update(keyMsg("l"))
	}
	L := d.layout()
	if d.rowOff != 10-L.rows || d.colOff != 10-L.cols {
		t.Errorf("scroll not clamped: row %d col %d (rows %d cols %d)", d.rowOff, d.colOff, L.rows, L.cols)
	}
	if !strings.Contains(d.View(), "179") {
		t.Errorf("scrolled to the end but the last diagonal cell is not shown:\n%s", d.View())
	}
	for range 20 {
		d, _ = d.Update(keyMsg("up"))
		d, _ = d.Update(keyMsg("h"))
	}
	if d.rowOff != 0 || d.colOff != 0 {
		t.Errorf("scroll back: %d %d", d.rowOff, d.colOff)
	}
}

func TestROCCycle(t *testing.T) {
	r := NewROC(irisROC(), asciiStyles())
	r.SetSize(60, 20)
	all := r.View()
	want := []int{0, 1, 2, -1}
	for _, w := range want {
		r, _ = r.Update(keyMsg("c"))
		if r.Selected() != w {
			t.Fatalf("cycle: selected %d, want %d", r.Selected(), w)
		}
	}
	r, _ = r.Update(keyMsg("c"))
	if r.View() == all {
		t.Error("one curve looks like all curves")
	}
	one := NewROC(irisROC()[:1], asciiStyles())
	if one.KeyMap.Cycle.Enabled() {
		t.Error("cycling enabled for a single curve")
	}
}

func TestBars(t *testing.T) {
	if got := posBar(0.5, 4); got != "██" {
		t.Errorf("posBar(0.5,4) = %q", got)
	}
	if got := posBar(1.0/32, 4); got != "▏" {
		t.Errorf("posBar tiny = %q", got)
	}
	if got := posBar(0.001, 4); got != "▏" {
		t.Errorf("non-zero value without a bar: %q", got)
	}
	if got := negBar(0.75, 2); got != "▐█" {
		t.Errorf("negBar(0.75,2) = %q", got)
	}
	b := NewBars([]string{"a", "b", "c"}, []float64{1, -3, 2}, asciiStyles())
	b.SetSize(30, 3)
	lines := strings.Split(b.View(), "\n")
	if !strings.HasPrefix(lines[1], "b ") || !strings.Contains(lines[1], "█│") || !strings.Contains(lines[0], "│█") {
		t.Errorf("negative bars do not grow left of the zero line:\n%s", b.View())
	}
	b, _ = b.Update(keyMsg("s"))
	if !b.Sorted() || !strings.HasPrefix(b.View(), "b ") {
		t.Errorf("s did not sort by magnitude:\n%s", b.View())
	}
	b.SetSize(30, 2)
	if !b.KeyMap.Down.Enabled() || !strings.Contains(b.View(), "… 2 more") {
		t.Errorf("overflow:\n%s", b.View())
	}
	b, _ = b.Update(keyMsg("down"))
	b, _ = b.Update(keyMsg("down"))
	if b.off != 1 {
		t.Errorf("scroll offset %d, want 1", b.off)
	}
}

func TestScatter(t *testing.T) {
	s := NewScatter(asciiStyles())
	s.SetPoints([]float64{0, 10, math.NaN()}, []float64{0, 20, 5}, []int{0, 1, 0})
	s.SetSize(40, 12)
	b := s.Bounds()
	if !near(b.XMin, -0.5) || !near(b.XMax, 10.5) || !near(b.YMin, -1) || !near(b.YMax, 21) {
		t.Errorf("bounds %+v, want the extent padded by 5%%", b)
	}
	if b.Cols <= 0 || b.Rows <= 0 || b.Cols >= 40 || b.Rows >= 12 {
		t.Errorf("grid %dx%d", b.Cols, b.Rows)
	}
	x, y := b.Center(0, 0)
	if !near(x, b.XMin+(b.XMax-b.XMin)/float64(2*b.Cols)) || !near(y, b.YMax-(b.YMax-b.YMin)/float64(2*b.Rows)) {
		t.Errorf("centre of the top-left cell (%v, %v)", x, y)
	}
	v := s.View()
	if !strings.Contains(v, "●") || !strings.Contains(v, "○") {
		t.Errorf("class markers missing:\n%s", v)
	}
	s.SetMarked([]int{1})
	if v := s.View(); !strings.Contains(v, "×") || strings.Count(v, "○") != 1 {
		t.Errorf("marked point not drawn as × (legend keeps ○):\n%s", v)
	}
	// A 1x2 region grid is stretched over the plot: left half class 0,
	// right half class 1, drawn in two shades without colour.
	s.SetRegions([][]int{{0, 1}})
	v = s.View()
	if !strings.Contains(v, "░") || !strings.Contains(v, "▒") {
		t.Errorf("regions not shaded:\n%s", v)
	}
	s, _ = s.Update(keyMsg("r"))
	if strings.Contains(s.View(), "░") {
		t.Error("r did not hide the regions")
	}
	s.SetBounds(100, 200, 100, 200)
	if strings.Count(s.View(), "●") != 1 { // the legend's
		t.Errorf("points outside fixed bounds drawn:\n%s", s.View())
	}
	if b := s.Bounds(); b.XMin != 100 || b.YMax != 200 {
		t.Errorf("fixed bounds %+v", b)
	}
	s.SetBounds(1, 1, 0, 1) // degenerate: back to automatic
	if b := s.Bounds(); b.XMin == 1 {
		t.Errorf("degenerate fixed bounds accepted: %+v", b)
	}
	// Guides for regression plots.
	g := NewScatter(asciiStyles())
	g.SetPoints([]float64{0, 1}, []float64{0, 1}, nil)
	g.SetGuides(true, false)
	g.SetSize(30, 10)
	if !strings.Contains(g.View(), "·") || !strings.Contains(g.View(), "•") {
		t.Errorf("identity guide or continuous markers missing:\n%s", g.View())
	}
}

func TestTabs(t *testing.T) {
	tb := NewTabs([]string{"Summary", "Confusion", "ROC"}, asciiStyles())
	tb.SetSize(40, 1)
	if tb.Active() != 0 || !strings.Contains(tb.View(), "[Summary]") {
		t.Errorf("initial: %d %q", tb.Active(), tb.View())
	}
	for _, c := range []struct {
		key  string
		want int
	}{{"tab", 1}, {"right", 2}, {"tab", 0}, {"shift+tab", 2}, {"left", 1}} {
		tb, _ = tb.Update(keyMsg(c.key))
		if tb.Active() != c.want {
			t.Fatalf("after %s: active %d, want %d", c.key, tb.Active(), c.want)
		}
	}
	if tb.ActiveName() != "Confusion" {
		t.Errorf("ActiveName %q", tb.ActiveName())
	}
	tb.SetNames([]string{"only"})
	if tb.Active() != 0 {
		t.Errorf("active not clamped: %d", tb.Active())
	}
	long := NewTabs([]string{"Summary", "Confusion", "ROC", "History", "Coefficients", "Rules"}, asciiStyles())
	long.SetActive(5)
	long.SetSize(24, 1)
	if v := long.View(); !strings.Contains(v, "[Rules]") || !strings.HasPrefix(v, "‹") {
		t.Errorf("narrow bar hides the active tab: %q", v)
	}
}

func TestMetricRows(t *testing.T) {
	rows := MetricRows(
		map[string]float64{"rmse": 2, "r2": 0.8, "log_loss": 0.1, "accuracy": 0.9, "zeta": 1, "custom_loss": 3},
		map[string]float64{"accuracy": 0.01},
		map[string]float64{"rmse": 1, "r2": 0, "log_loss": 1, "accuracy": 0.5, "custom_loss": 4},
	)
	want := []KVRow{
		{"accuracy", "0.900 ± 0.010", "0.500", 1},
		{"log-loss", "0.100", "1.000", 1},
		{"R²", "0.800", "0.000", 1},
		{"RMSE", "2.000", "1.000", -1},
		{"custom loss", "3.000", "4.000", 1},
		{"zeta", "1.000", "", 0},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v", rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
	if fmtMetric(12345.678) != "12350" || fmtMetric(0.0001234) != "0.0001234" || fmtMetric(math.NaN()) != "n/a" {
		t.Errorf("fmtMetric: %q %q %q", fmtMetric(12345.678), fmtMetric(0.0001234), fmtMetric(math.NaN()))
	}
	kv := NewKV(rows, asciiStyles())
	kv.SetSize(40, 4)
	if !kv.KeyMap.Down.Enabled() {
		t.Error("KV does not scroll")
	}
	v := kv.View()
	if !strings.Contains(v, "metric") || !strings.Contains(v, "0.900 ± 0.010 ▲") || !strings.Contains(v, "2.000 ▼") && strings.Contains(v, "RMSE") {
		t.Errorf("KV view:\n%s", v)
	}
}

// TestKeyMaps checks every key map feeds bubbles' help view.
func TestKeyMaps(t *testing.T) {
	maps := map[string]help.KeyMap{
		"line": DefaultLineChartKeyMap(), "confusion": DefaultConfusionKeyMap(), "roc": DefaultROCKeyMap(),
		"bars": DefaultBarsKeyMap(), "scatter": DefaultScatterKeyMap(), "tabs": DefaultTabsKeyMap(), "kv": DefaultKVKeyMap(),
	}
	h := help.New()
	h.Styles = HelpStyles(asciiStyles())
	h.Width = 200
	for name, km := range maps {
		if len(km.ShortHelp()) == 0 || len(km.FullHelp()) == 0 {
			t.Errorf("%s: empty help", name)
		}
		for _, b := range km.ShortHelp() {
			if b.Help().Key == "" || b.Help().Desc == "" || len(b.Keys()) == 0 {
				t.Errorf("%s: binding without keys or help: %+v", name, b.Help())
			}
		}
		if h.View(km) == "" {
			t.Errorf("%s: help view empty", name)
		}
	}
	var _ []key.Binding = DefaultTabsKeyMap().ShortHelp()
}

func TestWidthHelpers(t *testing.T) {
	for _, s := range []string{"", "abc", "─┤╭╮", "⠁⣿", "\x1b[38;5;12mab\x1b[0m", "日本", "a×b", "▏▎█", "…"} {
		if got, want := width(s), ansi.StringWidth(s); got != want {
			t.Errorf("width(%q) = %d, want %d", s, got, want)
		}
	}
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{{"abcdef", 4, "abc…"}, {"abc", 4, "abc"}, {"abc", 1, "a"}, {"abc", 0, ""}, {"日本語", 4, "日…"}} {
		if got := truncate(c.in, c.w); got != c.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
	if got := fitLine("\x1b[1mabcdef\x1b[0m", 3); ansi.Strip(got) != "abc" {
		t.Errorf("fitLine keeps %q", ansi.Strip(got))
	}
	if fmtFixed(-0.0001, 2) != "0.00" || fmtG(-0.0, 3) != "0" || fmtValue(3) != "3" || fmtValue(0.12345) != "0.123" {
		t.Error("number formatting")
	}
	if ClassMarker(-1) != "•" || ClassMarker(0) != "●" || ClassMarker(len(classMarkers)) != "●" {
		t.Error("class markers")
	}
}

// TestZeroValues: widgets declared without their constructor render
// (default styles) instead of panicking.
func TestZeroValues(t *testing.T) {
	var (
		lc LineChart
		cf Confusion
		rc ROC
		br Bars
		sc Scatter
		tb Tabs
		kv KV
	)
	lc.SetSeries([]string{"a"}, [][]float64{{1, 2, 3}})
	all := map[string]sized{
		"line": {lc.SetSize, func() string { return lc.View() }},
		"conf": {cf.SetSize, func() string { return cf.View() }},
		"roc":  {rc.SetSize, func() string { return rc.View() }},
		"bars": {br.SetSize, func() string { return br.View() }},
		"sc":   {sc.SetSize, func() string { return sc.View() }},
		"tabs": {tb.SetSize, func() string { return tb.View() }},
		"kv":   {kv.SetSize, func() string { return kv.View() }},
	}
	for name, w := range all {
		w.set(30, 8)
		checkBlock(t, name, w.view(), 30, 8)
	}
	if _, cmd := tb.Update(keyMsg("tab")); cmd != nil {
		t.Error("zero tabs returned a command")
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
	legend := strings.Join(legendOf(c.View()), "\n")
	for _, want := range []string{"── val log-loss 0.1217", "━━ val error 0.039"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend lacks %q:\n%s", want, c.View())
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
		legend := strings.Join(legendOf(c.View()), "\n")
		for i, cs := range lineStyles {
			if !strings.Contains(legend, cs.Horizontal+cs.Horizontal) {
				t.Errorf("%dx%d: legend lacks series %d (%s):\n%s", sz[0], sz[1], i, cs.Horizontal, c.View())
			}
		}
		if sz[0] >= 120 && !strings.Contains(legend, "name F") {
			t.Errorf("%dx%d: names abbreviated though the legend could wrap:\n%s", sz[0], sz[1], c.View())
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
		lines := strings.Split(c.View(), "\n")
		labels := strings.TrimRight(strings.Trim(lines[len(lines)-2], "│"), " ")
		fields := strings.Fields(labels)
		if len(fields) == 0 || fields[len(fields)-1] != tc.label {
			t.Errorf("%d steps at width %d: labels %q do not end with %s", tc.n, tc.w, labels, tc.label)
		}
		if !strings.Contains(labels, tc.unit) && !strings.Contains(lines[0], "x: "+tc.unit) {
			t.Errorf("%d steps at width %d: unit %q neither under the axis nor in the title:\n%s", tc.n, tc.w, tc.unit, c.View())
		}
		for _, f := range fields {
			if f != tc.unit && strings.Trim(f, "0123456789") != "" {
				t.Errorf("%d steps at width %d: label %q is not a step number: %q", tc.n, tc.w, f, labels)
			}
		}
	}
}

// Values near the largest float64 (coefficients of a fit on huge data):
// (bw-1)*maxNeg and maxNeg+maxPos overflow: Inf/Inf made a NaN bar width
// and strings.Repeat panicked.
func TestBarsHugeValuesKeepBothSides(t *testing.T) {
	b := NewBars([]string{"neg", "pos"}, []float64{-1.7e308, 1.7e308}, asciiStyles())
	b.SetSize(40, 2)
	lines := strings.Split(b.View(), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "█│") || !strings.Contains(lines[1], "│█") {
		t.Errorf("huge values do not get a bar on each side of the zero line:\n%s", b.View())
	}
}

// Issue 9, defect 3: a log y axis says so, and its labels never repeat,
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

// Issue 9, defect 4: a series never drawn is not in the legend.
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
	c, _ = c.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("L")})
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

// Issue 9, defect 5: x-axis labels collided at narrow widths ("FPR0.5").
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

// Decision regions like TensorFlow Playground's: where the model is sure
// the region is shaded strongly, where it hesitates faintly; without colour
// the shade names the class and says nothing of probability.
func TestRegionsShadedByConfidence(t *testing.T) {
	s := NewScatter(stylesFor("dark", termenv.TrueColor))
	s.SetSize(40, 10)
	s.SetBounds(0, 1, 0, 1)
	s.SetRegions([][]int{{0, 0, 1, 1}})
	s.SetConfidence([][]float64{{0.99, 0.55, 0.55, 0.99}})
	if !s.Confidence() {
		t.Fatal("regions with probabilities should be shaded by them")
	}
	bg := map[string]bool{}
	for _, m := range regexp.MustCompile(`48;2;\d+;\d+;\d+`).FindAllString(s.View(), -1) {
		bg[m] = true
	}
	if len(bg) < 4 { // two classes, each sure and unsure
		t.Errorf("%d region backgrounds, want one per class and confidence level (4): %v", len(bg), bg)
	}
	mono := NewScatter(stylesFor("mono", termenv.TrueColor))
	mono.SetRegions([][]int{{0, 1}})
	mono.SetConfidence([][]float64{{0.9, 0.6}})
	if mono.Confidence() {
		t.Error("without colour the shade is the class: no probability shading")
	}
}

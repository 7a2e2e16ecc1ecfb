package data

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

// plotRows bounds the rows a data picture is computed from: a principal
// plane of a sample is the same picture, and the plot draws fewer points
// than that anyway.
const plotRows = 5000

// sampleRows is an evenly spread subset of at most limit of n rows, in
// order (nil: all of them).
func sampleRows(n, limit int) []int {
	if n <= limit {
		return nil
	}
	idx := make([]int, limit)
	for i := range idx {
		idx[i] = i * n / limit
	}
	return idx
}

// dataPlot draws a dataset before any model: a scatter of its two
// features (or of one feature against a numeric target), else of any two
// chosen features or its first two principal directions; points coloured
// by class, or by the target's range for regression.
type dataPlot struct {
	c     *kit.Common
	d     *datasets.Dataset
	axes  kit.AxisPicker
	sc    widgets.Scatter
	title string
	err   string
	w, h  int
}

func newDataPlot(c *kit.Common) *dataPlot {
	return &dataPlot{c: c, sc: widgets.NewScatter(c.Styles)}
}

// set shows dataset d (nil: nothing).
func (p *dataPlot) set(d *datasets.Dataset) {
	p.d = d
	p.axes = kit.NewAxisPicker(d)
	p.refresh()
}

// setAxes draws feature y against feature x (the Matrix tab's enter).
func (p *dataPlot) setAxes(x, y int) {
	p.axes.X, p.axes.Y = x, y
	p.refresh()
}

func (p *dataPlot) SetSize(w, h int) {
	p.w, p.h = w, h
	p.sc.SetSize(w, max(h-1, 1))
}

func (p *dataPlot) Keys() []key.Binding { return p.axes.Keys() }

func (p *dataPlot) Update(msg tea.Msg) {
	if p.axes.Update(msg) {
		p.refresh()
	}
}

func (p *dataPlot) refresh() {
	p.err, p.title = "", ""
	d := p.d
	if d == nil {
		p.err = "no dataset"
		return
	}
	sub := d
	idx := sampleRows(d.Rows(), plotRows)
	if idx != nil {
		sub = d.Subset(idx)
	}
	var xs, ys []float64
	numeric := len(p.axes.Numeric)
	switch {
	case numeric == 1 && d.Task == datasets.Regression:
		j := p.axes.Numeric[0]
		xs, ys = mat.Col(nil, j, sub.X), sub.Y
		p.sc.SetAxes(d.Features[j].Name, d.Target.Name)
		p.title = d.Target.Name + " against " + d.Features[j].Name
	case numeric >= 2:
		pl, err := inspect.PlaneOf(sub, p.axes.X, p.axes.Y)
		if err != nil {
			p.err = err.Error()
			return
		}
		xs, ys = mat.Col(nil, 0, pl.XY), mat.Col(nil, 1, pl.XY)
		p.sc.SetAxes(pl.XLabel, pl.YLabel)
		if pl.Projected {
			left := "" // the plane is of the numeric columns alone
			if nominal := len(d.Features) - numeric; nominal > 0 {
				left = "; " + numfmt.Count(nominal, "nominal column") + " left out"
			}
			p.title = fmt.Sprintf("first two principal directions (%s of the variance%s)", numfmt.Percent(pl.VarExplained), left)
		} else {
			p.title = pl.YLabel + " against " + pl.XLabel
		}
	default:
		p.err = "a scatter needs two numeric features (or one and a numeric target): see the histograms"
		return
	}
	classes, names := colourBy(sub)
	p.sc.SetPoints(xs, ys, classes)
	p.sc.SetClassNames(names)
	switch {
	case d.Task == datasets.Classification:
		p.title += " · by class"
	case d.Task == datasets.Regression && classes != nil:
		p.title += " · by " + d.Target.Name
	}
	if idx != nil {
		p.title += fmt.Sprintf(" · %d of %d rows", len(idx), d.Rows())
	}
}

// colourBy gives each row a colour class and the classes their names: the
// class for classification, one of six equal-count ranges of the target
// for regression, none otherwise.
func colourBy(d *datasets.Dataset) ([]int, []string) {
	switch d.Task {
	case datasets.Classification:
		return kit.ClassCodes(d.Y), d.Classes
	case datasets.Regression:
		return quantileBins(d.Y, 6)
	}
	return nil, nil
}

// quantileBins puts each value in one of k bins of about equal counts and
// names the bins by their ranges; NaN gets -1.
func quantileBins(y []float64, k int) ([]int, []string) {
	var sorted []float64
	for _, v := range y {
		if !math.IsNaN(v) {
			sorted = append(sorted, v)
		}
	}
	if len(sorted) == 0 {
		return nil, nil
	}
	sort.Float64s(sorted)
	k = min(k, len(sorted))
	edges := make([]float64, k+1)
	for b := range k + 1 {
		edges[b] = sorted[min(b*len(sorted)/k, len(sorted)-1)]
	}
	edges[k] = sorted[len(sorted)-1]
	out := make([]int, len(y))
	for i, v := range y {
		if math.IsNaN(v) {
			out[i] = -1
			continue
		}
		b := sort.SearchFloat64s(edges[1:k], v)
		out[i] = min(b, k-1)
	}
	names := make([]string, k)
	for b := range k {
		names[b] = numfmt.Sig(edges[b], 3) + "–" + numfmt.Sig(edges[b+1], 3)
	}
	return out, names
}

func (p *dataPlot) View() string {
	st := p.c.Styles
	if p.err != "" {
		return st.Muted.Render(kit.Wrap(p.err, max(p.w, 20)))
	}
	return st.Muted.Render(kit.Clip(p.title, p.w)) + "\n" + p.sc.View()
}

// dataHistograms draws a histogram per column: every feature's
// distribution as a one-line sparkline beside its name, and the chosen
// one below: a numeric one as bars stacked by class (by the target's range
// for regression) in bins chosen from its values, a nominal one as a bar
// per level.
type dataHistograms struct {
	c     *kit.Common
	d     *datasets.Dataset
	sub   *datasets.Dataset // the rows drawn: d, or an even sample of large data
	cls   []int             // colour class of each row of sub
	names []string          // the colour classes' names
	cols  []int             // the features drawn
	nameW int               // cells of the longest name, at most 16
	cur   int               // index into cols
	off   int
	// Per feature, computed the first time it is drawn (binning sorts
	// the column, too slow for every frame): a nominal one's level counts,
	// its sparkline at the width last drawn, its stacked bins likewise.
	levels [][]levelCount
	sparks []cachedSpark
	bins   []cachedBins
	keys   struct{ up, down key.Binding }
	w, h   int
}

// cachedSpark is a column's sparkline and note at width w (0: none yet).
type cachedSpark struct {
	w          int
	line, note string
}

// cachedBins is a numeric column's bins for at most maxBins, counted by
// colour class (maxBins 0: none yet).
type cachedBins struct {
	maxBins int
	b       kit.Binning
	counts  [][]float64
}

func newDataHistograms(c *kit.Common) *dataHistograms {
	h := &dataHistograms{c: c}
	h.keys.up = kit.Bind("↑", "previous column", "up", "k")
	h.keys.down = kit.Bind("↓", "next column", "down", "j")
	return h
}

func (h *dataHistograms) set(d *datasets.Dataset) {
	h.d, h.sub, h.cols, h.cur, h.off = d, d, nil, 0, 0
	if d == nil {
		return
	}
	if idx := sampleRows(d.Rows(), plotRows*4); idx != nil {
		h.sub = d.Subset(idx)
	}
	h.cls, h.names = colourBy(h.sub)
	h.cols = make([]int, len(d.Features)) // every feature: a nominal one as a bar per level
	h.nameW = 0
	for j := range h.cols {
		h.cols[j] = j
		h.nameW = max(h.nameW, min(len([]rune(d.Features[j].Name)), 16))
	}
	h.levels = make([][]levelCount, len(d.Features))
	h.sparks = make([]cachedSpark, len(d.Features))
	h.bins = make([]cachedBins, len(d.Features))
}

// column is feature j's values in the rows drawn.
func (h *dataHistograms) column(j int) []float64 { return mat.Col(nil, j, h.sub.X) }

// levelsOf is nominal feature j's level counts, counted once.
func (h *dataHistograms) levelsOf(j int) []levelCount {
	if h.levels[j] == nil {
		h.levels[j] = levelCounts(h.column(j), h.d.Features[j])
	}
	return h.levels[j]
}

// sparkOf is feature j's sparkline w cells wide and its note, drawn once
// per width.
func (h *dataHistograms) sparkOf(j, w int) (string, string) {
	if c := h.sparks[j]; c.w == w {
		return c.line, c.note
	}
	line, note := h.drawSpark(j, w)
	h.sparks[j] = cachedSpark{w: w, line: line, note: note}
	return line, note
}

// binsOf is numeric feature j's bins (at most maxBins) and their counts
// by colour class, counted once per maxBins.
func (h *dataHistograms) binsOf(j, maxBins int) (kit.Binning, [][]float64) {
	if c := h.bins[j]; c.maxBins == maxBins {
		return c.b, c.counts
	}
	col := h.column(j)
	b := kit.ChooseBins(col, maxBins)
	counts := b.Count(col, h.cls, len(h.names))
	h.bins[j] = cachedBins{maxBins: maxBins, b: b, counts: counts}
	return b, counts
}

func (h *dataHistograms) SetSize(w, hh int) { h.w, h.h = w, hh }

// show moves the cursor to feature j (the Matrix tab's enter on the
// diagonal).
func (h *dataHistograms) show(j int) {
	if k := slices.Index(h.cols, j); k >= 0 {
		h.cur = k
	}
}

func (h *dataHistograms) Keys() []key.Binding { return []key.Binding{h.keys.up, h.keys.down} }

func (h *dataHistograms) Update(msg tea.Msg) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || len(h.cols) == 0 {
		return
	}
	switch {
	case key.Matches(km, h.keys.up):
		h.cur = (h.cur - 1 + len(h.cols)) % len(h.cols)
	case key.Matches(km, h.keys.down):
		h.cur = (h.cur + 1) % len(h.cols)
	}
}

// sparks are the eight heights of a sparkline.
var sparks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws counts over w cells, each count stretched over its share
// of them; an empty count is a blank.
func sparkline(counts []float64, w int) string {
	peak := 0.0
	for _, c := range counts {
		peak = math.Max(peak, c)
	}
	var sb strings.Builder
	for x := range w {
		c := counts[x*len(counts)/w]
		if c == 0 {
			sb.WriteRune(' ')
			continue
		}
		sb.WriteRune(sparks[min(int(c/peak*float64(len(sparks))), len(sparks)-1)])
	}
	return sb.String()
}

// levelCount is a nominal level and its rows.
type levelCount struct {
	name string
	n    float64
}

// levelCounts counts the levels of nominal column col (values in c.Levels),
// most frequent first; missing values are left out.
func levelCounts(col []float64, c datasets.Column) []levelCount {
	out := make([]levelCount, len(c.Levels))
	for i, l := range c.Levels {
		out[i].name = l
	}
	for _, v := range col {
		if i := int(v); !math.IsNaN(v) && i >= 0 && i < len(out) {
			out[i].n++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].n > out[j].n })
	return out
}

func (h *dataHistograms) View() string {
	st := h.c.Styles
	d := h.d
	if d == nil || len(h.cols) == 0 {
		return st.Muted.Render("no column to draw")
	}
	nameW := h.nameW
	sparkW := max(min(h.w-nameW-26, 40), 8)
	listH := max(min(len(h.cols), h.h/3), 1)
	h.cur = min(h.cur, len(h.cols)-1)
	if h.cur < h.off {
		h.off = h.cur
	}
	if h.cur >= h.off+listH {
		h.off = h.cur - listH + 1
	}
	var lines []string
	for k := h.off; k < min(h.off+listH, len(h.cols)); k++ {
		j := h.cols[k]
		mark, name := "  ", st.Text
		if k == h.cur {
			mark, name = st.Accent.Render("▸ "), st.Accent
		}
		spark, note := h.sparkOf(j, sparkW)
		lines = append(lines, mark+name.Render(kit.FitWidth(kit.Clip(d.Features[j].Name, nameW), nameW))+" "+
			st.Series[0].Render(spark)+" "+st.Muted.Render(note))
	}
	if len(h.cols) > listH {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("  columns %d-%d of %d (↑/↓)", h.off+1, min(h.off+listH, len(h.cols)), len(h.cols))))
	}
	j := h.cols[h.cur]
	barH := max(h.h-len(lines)-4, 3)
	if d.Features[j].Kind == datasets.Nominal {
		lines = append(lines, h.levelBars(j, barH+1)...)
	} else {
		lines = append(lines, h.stackedBars(j, barH)...)
	}
	return strings.Join(lines, "\n")
}

// drawSpark is feature j's one-line picture and what it spans: the bins
// of a numeric column and its range, or a nominal column's levels, most
// frequent first, and how many there are.
func (h *dataHistograms) drawSpark(j, w int) (string, string) {
	if h.d.Features[j].Kind == datasets.Nominal {
		levels := h.levelsOf(j)
		counts := make([]float64, len(levels))
		for i, l := range levels {
			counts[i] = l.n
		}
		if len(counts) == 0 {
			return strings.Repeat(" ", w), "no levels"
		}
		return sparkline(counts, w), numfmt.Count(len(levels), "level")
	}
	col := h.column(j)
	b := kit.ChooseBins(col, w)
	return sparkline(FirstClass(b.Count(col, nil, 1)), w), numfmt.Sig(b.Vmin, 3) + " – " + numfmt.Sig(b.Vmax, 3)
}

// FirstClass is the counts of bins counted with one class.
func FirstClass(counts [][]float64) []float64 {
	out := make([]float64, len(counts))
	for i, c := range counts {
		out[i] = c[0]
	}
	return out
}

// levelBars draws nominal feature j as a bar per level, most frequent
// first, in at most rows lines; the levels left out are counted.
func (h *dataHistograms) levelBars(j, rows int) []string {
	st, c := h.c.Styles, h.d.Features[j]
	levels := h.levelsOf(j)
	shown := levels
	if len(levels) > rows-1 {
		shown = levels[:max(rows-2, 1)]
	}
	labels := make([]string, len(shown))
	vals := make([]float64, len(shown))
	for i, l := range shown {
		labels[i], vals[i] = l.name, l.n
	}
	bars := widgets.NewBars(labels, vals, st)
	bars.SetSize(h.w, len(shown))
	lines := []string{"", st.Header.Render(kit.Clip(c.Name+" · rows per level, most frequent first", h.w))}
	lines = append(lines, strings.Split(bars.View(), "\n")...)
	if rest := levels[len(shown):]; len(rest) > 0 {
		n := 0.0
		for _, l := range rest {
			n += l.n
		}
		lines = append(lines, st.Muted.Render(fmt.Sprintf("+%d more (%s)", len(rest), numfmt.Count(int(n), "row"))))
	}
	return lines
}

// stackedBars draws numeric feature j's bins as bars stacked by class (by
// the target's range for regression) in barH lines, with its axis and the
// classes' legend.
func (h *dataHistograms) stackedBars(j, barH int) []string {
	st, d := h.c.Styles, h.d
	name, names := d.Features[j].Name, h.names
	ncls := len(names)
	b, counts := h.binsOf(j, max(min((h.w-2)/2, 40), 4))
	// Each bin is bw cells: its bar and a space.
	bw := max(min((h.w-2)/b.K, 6), 2)
	peak := 0.0
	for _, c := range counts {
		t := 0.0
		for _, v := range c {
			t += v
		}
		peak = math.Max(peak, t)
	}
	by := ""
	if ncls > 0 {
		by = " by class"
		if d.Task == datasets.Regression {
			by = " by " + d.Target.Name
		}
	}
	lines := []string{"", st.Header.Render(kit.Clip(name+by, h.w))}
	glyphs := []string{"█", "▓", "▒", "░", "▚", "▞", "▙", "▟"}
	for r := barH - 1; r >= 0; r-- {
		var sb strings.Builder
		for _, c := range counts {
			// This cell's height band, filled by the class whose cumulative
			// share of the bar covers its middle.
			mid := (float64(r) + 0.5) / float64(barH) * peak
			cum, cell := 0.0, -1
			for ci, v := range c {
				cum += v
				if mid < cum {
					cell = ci
					break
				}
			}
			if cell < 0 {
				sb.WriteString(strings.Repeat(" ", bw))
				continue
			}
			g := "█"
			if st.Colorless && ncls > 1 {
				g = glyphs[cell%len(glyphs)]
			}
			sty := st.Series[0]
			if ncls > 0 {
				sty = st.ClassStyle(cell)
			}
			sb.WriteString(sty.Render(strings.Repeat(g, bw-1)) + " ")
		}
		lines = append(lines, sb.String())
	}
	lines = append(lines, st.Muted.Render(binAxis(b, bw)))
	if ncls > 0 {
		var leg []string
		for ci, n := range names {
			g := "█"
			if st.Colorless && ncls > 1 {
				g = glyphs[ci%len(glyphs)]
			}
			leg = append(leg, st.ClassStyle(ci).Render(g)+" "+st.Text.Render(n))
		}
		lines = append(lines, kit.Clip(strings.Join(leg, "  "), h.w))
	}
	return lines
}

// binAxis labels bins bw cells wide: each value under its bar when there
// is a bar per value and the labels fit, else the two ends of the range.
func binAxis(b kit.Binning, bw int) string {
	if b.PerUnit {
		var sb strings.Builder
		fits := true
		for i := range b.K {
			l := b.Label(i)
			if len(l) > bw-1 {
				fits = false
				break
			}
			sb.WriteString(kit.FitWidth(l, bw))
		}
		if fits {
			return sb.String()
		}
	}
	lo, hi := numfmt.Sig(b.Edge(0), 3), numfmt.Sig(b.Edge(b.K), 3)
	if b.Integer {
		lo, hi = numfmt.Sig(b.Vmin, 3), numfmt.Sig(b.Edge(b.K)-0.5, 3)
	}
	return lo + strings.Repeat(" ", max(bw*b.K-len(lo)-len(hi), 1)) + hi
}

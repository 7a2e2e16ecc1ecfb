package tui

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/numfmt"
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
	c     *common
	d     *datasets.Dataset
	axes  axisPicker
	sc    widgets.Scatter
	title string
	err   string
	w, h  int
}

func newDataPlot(c *common) *dataPlot {
	return &dataPlot{c: c, sc: widgets.NewScatter(c.styles)}
}

// set shows dataset d (nil: nothing).
func (p *dataPlot) set(d *datasets.Dataset) {
	p.d = d
	p.axes = newAxisPicker(d)
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
	numeric := len(p.axes.numeric)
	switch {
	case numeric == 1 && d.Task == datasets.Regression:
		j := p.axes.numeric[0]
		xs, ys = mat.Col(nil, j, sub.X), sub.Y
		p.sc.SetAxes(d.Features[j].Name, d.Target.Name)
		p.title = d.Target.Name + " against " + d.Features[j].Name
	case numeric >= 2:
		pl, err := inspect.PlaneOf(sub, p.axes.x, p.axes.y)
		if err != nil {
			p.err = err.Error()
			return
		}
		xs, ys = mat.Col(nil, 0, pl.XY), mat.Col(nil, 1, pl.XY)
		p.sc.SetAxes(pl.XLabel, pl.YLabel)
		if pl.Projected {
			p.title = fmt.Sprintf("first two principal directions (%s of the variance)", numfmt.Percent(pl.VarExplained))
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
		return classCodes(d.Y), d.Classes
	case datasets.Regression:
		return quantileBins(d.Y, 6)
	}
	return nil, nil
}

// classCodes is the class code of each row as the scatter takes it.
func classCodes(y []float64) []int {
	c := make([]int, len(y))
	for i, v := range y {
		c[i] = int(v)
	}
	return c
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
	st := p.c.styles
	if p.err != "" {
		return st.Muted.Render(wrap(p.err, max(p.w, 20)))
	}
	return st.Muted.Render(clip(p.title, p.w)) + "\n" + p.sc.View()
}

// dataHistograms draws a histogram per column: every numeric feature's
// distribution as a one-line sparkline beside its name, and the chosen
// one below as bars stacked by class (by the target's range for
// regression).
type dataHistograms struct {
	c     *common
	d     *datasets.Dataset
	sub   *datasets.Dataset // the rows drawn: d, or an even sample of large data
	cls   []int             // colour class of each row of sub
	names []string          // the colour classes' names
	cols  []int             // numeric features
	cur   int               // index into cols
	off   int
	keys  struct{ Up, Down key.Binding }
	w, h  int
}

func newDataHistograms(c *common) *dataHistograms {
	h := &dataHistograms{c: c}
	h.keys.Up = bind("↑", "previous column", "up", "k")
	h.keys.Down = bind("↓", "next column", "down", "j")
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
	h.cols = numericFeatures(d)
}

func (h *dataHistograms) SetSize(w, hh int) { h.w, h.h = w, hh }

func (h *dataHistograms) Keys() []key.Binding { return []key.Binding{h.keys.Up, h.keys.Down} }

func (h *dataHistograms) Update(msg tea.Msg) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || len(h.cols) == 0 {
		return
	}
	switch {
	case key.Matches(km, h.keys.Up):
		h.cur = (h.cur - 1 + len(h.cols)) % len(h.cols)
	case key.Matches(km, h.keys.Down):
		h.cur = (h.cur + 1) % len(h.cols)
	}
}

// sparks are the eight heights of a sparkline.
var sparks = []rune("▁▂▃▄▅▆▇█")

// bins counts the finite values of col in k equal bins, by colour class
// (cls nil: one class); lo and hi are their range. Values are halved
// before binning, so that a range wider than the largest float64 does not
// overflow.
func bins(col []float64, cls []int, ncls, k int) (counts [][]float64, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range col {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	counts = make([][]float64, k)
	for b := range counts {
		counts[b] = make([]float64, max(ncls, 1))
	}
	if lo > hi {
		return counts, 0, 0
	}
	for i, v := range col {
		if math.IsNaN(v) {
			continue
		}
		b := 0
		if hi > lo {
			b = min(int((v/2-lo/2)/(hi/2-lo/2)*float64(k)), k-1)
		}
		c := 0
		if cls != nil && cls[i] >= 0 {
			c = cls[i] % max(ncls, 1)
		}
		counts[b][c]++
	}
	return counts, lo, hi
}

func (h *dataHistograms) View() string {
	st := h.c.styles
	d := h.d
	if d == nil || len(h.cols) == 0 {
		return st.Muted.Render("no numeric column to draw")
	}
	sub, cls, names := h.sub, h.cls, h.names
	ncls := len(names)
	nameW := 0
	for _, j := range h.cols {
		nameW = max(nameW, min(len([]rune(d.Features[j].Name)), 16))
	}
	sparkW := max(min(h.w-nameW-26, 40), 8)
	listH := max(min(len(h.cols), h.h/3), 1)
	h.cur = min(h.cur, len(h.cols)-1)
	if h.cur < h.off {
		h.off = h.cur
	}
	if h.cur >= h.off+listH {
		h.off = h.cur - listH + 1
	}
	col := make([]float64, sub.Rows())
	var lines []string
	for k := h.off; k < min(h.off+listH, len(h.cols)); k++ {
		j := h.cols[k]
		mat.Col(col, j, sub.X)
		counts, lo, hi := bins(col, nil, 1, sparkW)
		peak := 0.0
		for _, c := range counts {
			peak = math.Max(peak, c[0])
		}
		var sb strings.Builder
		for _, c := range counts {
			if c[0] == 0 {
				sb.WriteRune(' ')
				continue
			}
			sb.WriteRune(sparks[min(int(c[0]/peak*float64(len(sparks))), len(sparks)-1)])
		}
		mark, name := "  ", st.Text
		if k == h.cur {
			mark, name = st.Accent.Render("▸ "), st.Accent
		}
		lines = append(lines, mark+name.Render(fitWidth(clip(d.Features[j].Name, nameW), nameW))+" "+
			st.Series[0].Render(sb.String())+" "+st.Muted.Render(numfmt.Sig(lo, 3)+" – "+numfmt.Sig(hi, 3)))
	}
	if len(h.cols) > listH {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("  columns %d-%d of %d (↑/↓)", h.off+1, min(h.off+listH, len(h.cols)), len(h.cols))))
	}
	// The chosen column, stacked by class.
	j := h.cols[h.cur]
	mat.Col(col, j, sub.X)
	barH := max(h.h-len(lines)-4, 3)
	k := max(min((h.w-2)/2, 40), 4)
	counts, lo, hi := bins(col, cls, ncls, k)
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
	lines = append(lines, "", st.Header.Render(clip(d.Features[j].Name+by, h.w)))
	glyphs := []string{"█", "▓", "▒", "░", "▚", "▞", "▙", "▟"}
	for r := barH - 1; r >= 0; r-- {
		var b strings.Builder
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
				b.WriteString("  ")
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
			b.WriteString(sty.Render(g) + " ")
		}
		lines = append(lines, b.String())
	}
	axis := numfmt.Sig(lo, 3)
	hiText := numfmt.Sig(hi, 3)
	lines = append(lines, st.Muted.Render(axis+strings.Repeat(" ", max(2*k-len(axis)-len(hiText), 1))+hiText))
	if ncls > 0 {
		var leg []string
		for ci, n := range names {
			g := "█"
			if st.Colorless && ncls > 1 {
				g = glyphs[ci%len(glyphs)]
			}
			leg = append(leg, st.ClassStyle(ci).Render(g)+" "+st.Text.Render(n))
		}
		lines = append(lines, clip(strings.Join(leg, "  "), h.w))
	}
	return strings.Join(lines, "\n")
}

package report

import (
	"math"
	"strings"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// Experiment hoeffding's picture: on the left each n's PMF of the
// training error k/n as bars (each scaled to its own peak), the risk and
// the ±ε band marked; on the right the exact Pr(|R̂ − R| > ε) against
// Hoeffding's bound over n on a log scale, the sample size marked.

var hfBars = []rune{'█', '▓', '▒', '░'}

const (
	hfExact   = '●'
	hfBound   = '◇'
	hfUnion   = '▪' // 2Π·e^(−2ε²n) when Π > 1
	hfRisk    = '│'
	hfBand    = '┆'
	hfSample  = '┊'
	hfDelta   = '┈'
	hfMinLogY = 1e-16
)

var hfInks = map[rune]int{'█': 0, '▓': 1, '▒': 2, '░': 3, hfExact: 4, hfBound: 5, hfUnion: 6}

func init() {
	RegisterLecture("hoeffding", LectureDrawing{Draw: hfDraw, Tables: hfTables})
}

func hfResult(result any) *lecture.HoeffdingResult { return resultAs[lecture.HoeffdingResult](result) }

func hfDraw(result any, v LectureView) Picture {
	r := hfResult(result)
	if r == nil || len(r.Samples) == 0 {
		return Picture{Lines: []string{"(nothing to draw yet)"}}
	}
	w, h := max(v.Width, 10), max(v.Height, 3)
	var lines []string
	switch {
	case w >= 70 && h >= 8:
		lw := w / 2
		left := hfPMFPanel(r, lw, h)
		right := hfTailPanel(r, w-lw-2, h)
		lines = Beside(left, right, lw, 2)
	case h >= 24 && len(r.Curve) > 0:
		lines = append(hfPMFPanel(r, w, h/2), hfTailPanel(r, w, h-h/2)...)
	default:
		lines = hfPMFPanel(r, w, h)
	}
	for i := range lines {
		lines[i] = strings.TrimRight(gdCut(lines[i], w), " ")
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return Picture{Lines: lines, Inks: hfInks}
}

// hfFit is the first text that fits in w cells (the last cut to w).
func hfFit(w int, texts ...string) string {
	for _, s := range texts {
		if len([]rune(s)) <= w {
			return s
		}
	}
	return gdCut(texts[len(texts)-1], w)
}

// hfPMFPanel is the PMFs of k/n as bars: in each column the largest
// Pr(k)/peak over the k whose k/n falls in it, the taller bars drawn
// first so that a shorter one stands in front.
func hfPMFPanel(r *lecture.HoeffdingResult, w, h int) []string {
	title := hfFit(w, "Pr(training error k/n), each PMF scaled to its peak; R = "+numfmt.Sig(r.Risk, 3)+", ε = "+numfmt.Sig(r.Epsilon, 3),
		"PMF of k/n, scaled to its peak; R = "+numfmt.Sig(r.Risk, 3), "PMF of k/n, each scaled to its peak", "PMF of k/n (to peak)")
	var legend []string
	if h >= 9 {
		var items []string
		for i, s := range r.Samples {
			items = append(items, string(hfBars[i%len(hfBars)])+" n="+numfmt.Value(float64(s.N)))
		}
		items = append(items, string(hfRisk)+" risk R", string(hfBand)+" R ± ε, ε = "+numfmt.Sig(r.Epsilon, 3))
		legend = hfWrap(items, w)
	}
	labelled := h-1-len(legend) >= 9
	c := gdCanvas(w, h-1-len(legend), 0, 1, 0, 1, false, labelled)
	heights := make([][]float64, len(r.Samples)) // per sample, per column, 0..1
	for i, s := range r.Samples {
		heights[i] = make([]float64, c.W)
		peak := s.PMF[s.Mode]
		for k, p := range s.PMF {
			col, _, ok := c.Cell(float64(k)/float64(s.N), 0)
			if ok && peak > 0 {
				heights[i][col] = math.Max(heights[i][col], p/peak)
			}
		}
	}
	for col := range c.W {
		order := make([]int, len(r.Samples))
		for i := range order {
			order[i] = i
		}
		// tallest first
		for a := range order {
			for b := a + 1; b < len(order); b++ {
				if heights[order[b]][col] > heights[order[a]][col] {
					order[a], order[b] = order[b], order[a]
				}
			}
		}
		for _, i := range order {
			rows := int(math.Round(heights[i][col] * float64(c.H)))
			if heights[i][col] > 0 && rows == 0 && heights[i][col] > 1e-3 {
				rows = 1
			}
			for k := range rows {
				c.Set(col, c.H-1-k, hfBars[i%len(hfBars)])
			}
		}
	}
	mark := func(x float64, g rune) {
		col, _, ok := c.Cell(x, 0)
		if !ok {
			return
		}
		for row := range c.H {
			if c.Get(col, row) == ' ' || row == 0 {
				c.Set(col, row, g)
			}
		}
	}
	mark(r.Risk-r.Epsilon, hfBand)
	mark(r.Risk+r.Epsilon, hfBand)
	mark(r.Risk, hfRisk)
	label := ""
	if labelled {
		label = "training error k/n"
	}
	return append(append([]string{title}, c.Lines(label)...), legend...)
}

// hfTailPanel is the exact tail and the bound against n, log y; values
// below the axis sit on its bottom row.
func hfTailPanel(r *lecture.HoeffdingResult, w, h int) []string {
	title := hfFit(w, "Pr(|R̂ − R| > ε) against n, log scale", "Pr(|R̂−R|>ε) vs n (log)")
	union := r.Dichotomies > 1
	var legend []string
	if h >= 9 {
		items := []string{string(hfExact) + " exact (binomial)", string(hfBound) + " Hoeffding 2e^(−2ε²n)"}
		if union {
			items = append(items, string(hfUnion)+" 2Π·e^(−2ε²n), Π = "+numfmt.Sig(r.Dichotomies, 3))
		}
		items = append(items, string(hfDelta)+" δ = "+numfmt.Sig(r.Delta, 3), string(hfSample)+" n ≥ ln(2Π/δ)/(2ε²) = "+numfmt.Value(float64(r.SampleSize)))
		legend = hfWrap(items, w)
	}
	labelled := h-1-len(legend) >= 9
	lo, hi := 1.0, 1.0
	for _, p := range r.Curve {
		for _, y := range []float64{p.Tail, p.Bound} {
			if y > 0 {
				lo, hi = math.Min(lo, y), math.Max(hi, y)
			}
		}
	}
	lo = math.Min(math.Max(lo, hfMinLogY), r.Delta)
	top := 1.05 * hi
	if union {
		top = math.Max(top, 2*r.Dichotomies*1.05)
	}
	top = math.Min(top, 1e3) // Π's bound above that says nothing new
	c := gdCanvas(w, h-1-len(legend), 1, float64(r.CurveMax), lo, top, true, labelled)
	if _, row, ok := c.Cell(1, r.Delta); ok {
		for col := range c.W {
			c.Set(col, row, hfDelta)
		}
	}
	if col, _, ok := c.Cell(float64(r.SampleSize), lo); ok {
		for row := range c.H {
			c.Set(col, row, hfSample)
		}
	}
	xs := make([]float64, len(r.Curve))
	ex, bd, un := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
	for i, p := range r.Curve {
		xs[i] = float64(p.N)
		ex[i] = math.Max(p.Tail, lo)
		bd[i] = math.Max(p.Bound, lo)
		un[i] = math.Min(math.Max(r.Dichotomies*p.Bound, lo), top)
	}
	if union {
		c.Curve(xs, un, hfUnion)
	}
	c.Curve(xs, bd, hfBound)
	c.Curve(xs, ex, hfExact)
	label := ""
	if labelled {
		label = "n, training points"
	}
	return append(append([]string{title}, c.Lines(label)...), legend...)
}

func hfWrap(items []string, w int) []string {
	var lines []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case len([]rune(line))+2+len([]rune(it)) <= w:
			line += "  " + it
		default:
			lines = append(lines, line)
			line = it
		}
	}
	return append(lines, line)
}

func hfTables(result any) []Table {
	r := hfResult(result)
	if r == nil {
		return nil
	}
	t := Table{Columns: []string{"glyph", "n", "mean R̂", "sd R̂", "exact Pr(|R̂ − R| > ε)", "Hoeffding 2e^(−2ε²n)", "uniform ε at δ"}}
	for i, s := range r.Samples {
		t.Rows = append(t.Rows, []string{string(hfBars[i%len(hfBars)]), numfmt.Value(float64(s.N)), numfmt.Sig(s.Mean, 4), numfmt.Sig(s.SD, 4),
			numfmt.Sig(s.Tail, 4), numfmt.Sig(s.Bound, 4), numfmt.Sig(s.Uniform, 4)})
	}
	sc := Table{Columns: []string{"ε", "δ", "Π", "ln(2Π/δ)/(2ε²)", "n: every |R̂ − R| ≤ ε", "(2/ε²)·ln(2Π/δ)", "n: least R̂ within ε of the best R"}, Rows: [][]string{{
		numfmt.Sig(r.Epsilon, 4), numfmt.Sig(r.Delta, 4), numfmt.Sig(r.Dichotomies, 4), numfmt.Sig(r.SampleSizeExact, 6), numfmt.Value(float64(r.SampleSize)),
		numfmt.Sig(r.ERMSampleSizeExact, 6), numfmt.Value(float64(r.ERMSampleSize)),
	}}}
	return []Table{t, sc}
}

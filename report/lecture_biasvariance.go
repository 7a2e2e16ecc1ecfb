package report

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// The bias-variance picture: at left the fits of one complexity, faint,
// with their mean and the truth (the notes' sine wave and its 50 lines);
// at right bias², variance and noise stacked in a column per complexity,
// the Monte-Carlo test error a diamond on each, so that the sum and the
// measured error can be read against each other.

const (
	bvFit     = '·' // a hypothesis
	bvTruth   = '●' // g
	bvMean    = '○' // h̄
	bvBias    = '█'
	bvVar     = '▒'
	bvNoise   = '░'
	bvTest    = '◆'
	bvClipped = '^' // a column above the plot
	bvShown   = '▲' // the column whose fits are drawn
)

var bvInks = map[rune]int{bvTruth: 0, bvMean: 1, bvFit: 2, bvBias: 3, bvVar: 4, bvNoise: 5, bvTest: 6, bvShown: 1}

func init() {
	RegisterLecture("bias-variance", LectureDrawing{Draw: bvDraw, Tables: bvTables})
}

func bvResult(result any) *lecture.BVResult { return resultAs[lecture.BVResult](result) }

// bvName is the axis as people write it.
func bvName(r *lecture.BVResult) string {
	if r.Complexity == "lambda" {
		return "λ"
	}
	return r.Complexity
}

// bvAt is a value of the axis at "degree 3", "λ=0.01".
func bvAt(r *lecture.BVResult, v float64) string {
	if r.Complexity == "lambda" || r.Complexity == "k" {
		return bvName(r) + "=" + numfmt.Sig(v, 3)
	}
	return bvName(r) + " " + numfmt.Sig(v, 3)
}

func bvDraw(result any, v LectureView) Picture {
	r := bvResult(result)
	if r == nil || len(r.Rows) == 0 {
		return Picture{Lines: []string{"(nothing to draw yet)"}}
	}
	rows, titled, legend, labelled := plotRows(v.Height)
	var lines []string
	if v.Width >= 60 && v.Height >= 10 && r.Curves != nil {
		lw := v.Width * 2 / 5
		rw := v.Width - lw - 2
		left, lt, ll := bvCurvesPanel(r, lw, rows, labelled)
		right, rt, rl := bvBarsPanel(r, rw, rows, labelled)
		if titled {
			lines = append(lines, PadRight(lt, lw)+"  "+rt)
		}
		lines = append(lines, Beside(left, right, lw, 2)...)
		if legend {
			lines = append(lines, PadRight(ll, lw)+"  "+rl)
		}
	} else {
		right, rt, rl := bvBarsPanel(r, v.Width, rows, labelled)
		if titled {
			lines = append(lines, rt)
		}
		lines = append(lines, right...)
		if legend {
			lines = append(lines, rl)
		}
	}
	for i, l := range lines {
		lines[i] = PadRight(l, v.Width)
	}
	if len(lines) > v.Height {
		lines = lines[:v.Height]
	}
	return Picture{Lines: lines, Inks: bvInks}
}

// bvCurvesPanel draws the fits of one complexity over the truth.
func bvCurvesPanel(r *lecture.BVResult, w, rows int, labelled bool) (lines []string, title, legend string) {
	cu := r.Curves
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, g := range r.GridG {
		lo, hi = math.Min(lo, g), math.Max(hi, g)
	}
	pad := 0.3 * (hi - lo)
	y0, y1 := lo-pad, hi+pad // fits beyond are clipped: the truth's scale is the one read
	c := NewCanvas(4, rows, r.GridX[0], r.GridX[len(r.GridX)-1], y0, y1)
	pw := max(5, w-(c.Width()-c.W))
	pw -= 1 - pw%2 // odd, so that the middle tick is x = 0
	c = NewCanvas(pw, rows, c.X0, c.X1, y0, y1)
	for _, h := range cu.Hypotheses {
		c.Curve(r.GridX, h, bvFit)
	}
	c.Curve(r.GridX, r.GridG, bvTruth)
	// the mean on every other column, so that the truth shows beneath
	for col := 0; col < c.W; col += 2 {
		x, _ := c.At(col, 0)
		j := int(math.Round((x - c.X0) / (c.X1 - c.X0) * float64(len(r.GridX)-1)))
		j = max(0, min(j, len(cu.Mean)-1))
		if cr, row, ok := c.Cell(r.GridX[j], cu.Mean[j]); ok && cr == col {
			c.Set(col, row, bvMean)
		}
	}
	label := ""
	if labelled {
		label = "x"
	}
	lines = c.Lines(label)
	title = bvAt(r, cu.Value) + ": " + bvCount(len(cu.Hypotheses), r.Hypotheses) + " on " + numfmt.Count(r.Points, "point")
	legend = bvFirstFitting(w,
		string(bvTruth)+" g = sin(πx)  "+string(bvMean)+" mean h̄ of "+numfmt.Value(float64(r.Hypotheses))+"  "+string(bvFit)+" fits h",
		string(bvTruth)+" sin(πx) "+string(bvMean)+" mean h̄ "+string(bvFit)+" fits")
	return lines, title, legend
}

// bvBarsPanel stacks bias², variance and noise in a column per complexity,
// the test error a diamond on it.
func bvBarsPanel(r *lecture.BVResult, w, rows int, labelled bool) (lines []string, title, legend string) {
	n := len(r.Rows)
	totals := make([]float64, n)
	top := 0.0
	for i, row := range r.Rows {
		totals[i] = row.Total()
		top = math.Max(top, math.Max(totals[i], row.TestError))
	}
	// a column or two of a wild fit (a polynomial extrapolating into a gap)
	// would flatten the rest: the axis stops at 8 times the median, and
	// what goes above is marked ^ (the table has its numbers)
	sorted := slices.Clone(totals)
	slices.Sort(sorted)
	if med := sorted[n/2]; top > 8*med && med > 0 {
		top = 8 * med
	}
	top = math.Max(top*1.05, 1e-12)
	c := NewCanvas(4, rows, 0, 1, 0, top)
	pw := max(4, w-(c.Width()-c.W))
	if pw >= n {
		pw = max(4, pw/n*n)
	}
	c = NewCanvas(pw, rows, 0, 1, 0, top)
	step := top / float64(max(c.H-1, 1))
	clipped := false
	for i, row := range r.Rows {
		first, last := bvSpan(i, c.W, n)
		if first < 0 {
			continue
		}
		for col := first; col <= last; col++ {
			for cr := 0; cr < c.H; cr++ {
				_, yc := c.At(col, cr)
				mid := (math.Max(0, yc-step/2) + yc + step/2) / 2
				switch {
				case mid <= row.Bias2:
					c.Set(col, cr, bvBias)
				case mid <= row.Bias2+row.Variance:
					c.Set(col, cr, bvVar)
				case mid <= totals[i]:
					c.Set(col, cr, bvNoise)
				}
			}
			if totals[i] > top || row.TestError > top {
				c.Set(col, 0, bvClipped)
				clipped = true
			}
		}
		if _, cr, ok := c.Cell(0, row.TestError); ok {
			c.Set((first+last)/2, cr, bvTest)
		}
	}
	xLabel := ""
	if labelled {
		xLabel = bvName(r)
		if r.Complexity == "lambda" {
			xLabel += " (log spaced in the list)"
		}
		if r.Simpler == engine.SimplerHigher {
			xLabel += ", simpler →"
		} else {
			xLabel += ", more complex →"
		}
	}
	lines = c.Lines(xLabel)
	prefix := len([]rune(lines[0])) - c.W // the y labels and the axis
	// the ticks under the columns are the axis' values, not 0 and 1
	ticks := []rune(strings.Repeat(" ", c.W+prefix))
	taken := make([]bool, len(ticks))
	place := func(i int) {
		first, last := bvSpan(i, c.W, n)
		if first < 0 {
			return
		}
		s := []rune(numfmt.Sig(r.Rows[i].Value, 3))
		at := prefix + (first+last)/2 - (len(s)-1)/2
		at = max(0, min(at, len(ticks)-len(s)))
		for k := max(0, at-1); k < min(len(ticks), at+len(s)+1); k++ {
			if taken[k] {
				return
			}
		}
		copy(ticks[at:], s)
		for k := at; k < at+len(s); k++ {
			taken[k] = true
		}
	}
	place(n - 1) // the last always, then from the first as they fit
	for i := 0; i < n-1; i++ {
		place(i)
	}
	lines[c.H+1] = string(ticks)
	if r.Curves != nil {
		if first, last := bvSpan(r.Curves.Index, c.W, n); first >= 0 {
			axis := []rune(lines[c.H])
			axis[prefix+(first+last)/2] = bvShown
			lines[c.H] = string(axis)
		}
	}
	title = "bias² + variance + noise by " + bvName(r)
	shown := ""
	if r.Curves != nil {
		shown = " " + string(bvShown) + " at left"
	}
	legend = bvFirstFitting(w,
		string(bvBias)+" bias² "+string(bvVar)+" variance "+string(bvNoise)+" noise "+string(bvTest)+" MC test error"+shown,
		string(bvBias)+" bias² "+string(bvVar)+" variance "+string(bvNoise)+" noise "+string(bvTest)+" MC test error",
		string(bvBias)+" bias² "+string(bvVar)+" var "+string(bvNoise)+" noise "+string(bvTest)+" test")
	if clipped {
		title += " (^ off the top)"
	}
	return lines, title, legend
}

// bvFirstFitting is the first of texts within w cells (the last, cut, if
// none is).
func bvFirstFitting(w int, texts ...string) string {
	for _, t := range texts {
		if utf8.RuneCountInString(t) <= w {
			return t
		}
	}
	return PadRight(texts[len(texts)-1], w)
}

// bvCount is "50 fits", "50 of 2000 fits".
func bvCount(drawn, all int) string {
	if drawn < all {
		return numfmt.Value(float64(drawn)) + " of " + numfmt.Value(float64(all)) + " fits"
	}
	return numfmt.Value(float64(drawn)) + " fits"
}

// bvSpan is the plot columns [first, last] of complexity i of n in w
// columns: an equal width each, a column of gap after each when there is
// room; with more complexities than columns, one a column and the others
// left out (first < 0).
func bvSpan(i, w, n int) (first, last int) {
	if colw := w / n; colw >= 1 {
		first = i * colw
		last = first + colw - 1
		if colw >= 2 {
			last--
		}
		return first, last
	}
	first = i * w / n
	if i > 0 && (i-1)*w/n == first {
		return -1, -1
	}
	return first, first
}

func bvTables(result any) []Table {
	r := bvResult(result)
	if r == nil || len(r.Rows) == 0 {
		return nil
	}
	best := 0
	for i, row := range r.Rows {
		if row.TestError < r.Rows[best].TestError {
			best = i
		}
	}
	t := Table{Columns: []string{bvName(r), "bias²", "variance", "noise", "sum", "MC test error", "train error", ""}}
	// at most 25 rows: thinned evenly, the first, last and best kept
	keep := func(i int) bool {
		n := len(r.Rows)
		return n <= 25 || i == 0 || i == n-1 || i == best || i%((n+23)/24) == 0
	}
	for i, row := range r.Rows {
		if !keep(i) {
			continue
		}
		note := ""
		if i == best {
			note = "least test error"
		}
		t.Rows = append(t.Rows, []string{numfmt.Param(row.Value), numfmt.Sig(row.Bias2, 3), numfmt.Sig(row.Variance, 3),
			numfmt.Sig(row.Noise, 3), numfmt.Sig(row.Total(), 4), numfmt.Sig(row.TestError, 4) + " ± " + numfmt.Sig(row.TestErrorSE, 2),
			numfmt.Sig(row.TrainError, 3), note})
	}
	return []Table{t}
}

package report

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// The regularisation path (engine/lecture/path.go): the weights against λ
// on a log axis, λ decreasing to the right as the path is computed (and as
// glmnet draws it), each feature a letter; beside or below, the
// cross-validated error with its ±1 SE band on the same axis; vertical
// marks at the best λ (|) and the one-standard-error λ (:).

func init() {
	RegisterLecture("path", LectureDrawing{Draw: pathDraw, Tables: pathTables})
}

// pathMaxGlyphs is how many features get a curve: beyond it the picture
// is a tangle, so the first to enter (or the largest) are drawn.
const pathMaxGlyphs = 10

// pathSeries picks the features to draw, in legend order, an order that
// stays put as the path grows: an L1 path's in the order they leave zero
// (the rest after them), an L2 path's by their weight at λ_max, which is
// proportional to their correlation with the target (Zᵀ(y−ȳ)/(nλ) for
// ridge). All of them when there are at most 26, else the first
// pathMaxGlyphs.
func pathSeries(r *lecture.PathResult) (idx []int, all bool) {
	p := len(r.Features)
	pos := map[string]int{}
	for k, name := range r.EntryOrder {
		if _, ok := pos[name]; !ok {
			pos[name] = k
		}
	}
	key := func(j int) float64 {
		if r.L1() {
			if k, ok := pos[r.Features[j]]; ok {
				return float64(k)
			}
			return float64(p + j)
		}
		if len(r.Coefs) > 0 && j < len(r.Coefs[0]) {
			return -math.Abs(r.Coefs[0][j])
		}
		return float64(j)
	}
	idx = make([]int, p)
	for j := range idx {
		idx[j] = j
	}
	sort.SliceStable(idx, func(a, b int) bool { return key(idx[a]) < key(idx[b]) })
	if p > 26 {
		return idx[:pathMaxGlyphs], false
	}
	return idx, true
}

func pathGlyph(k int) rune { return rune('a' + k) }

// pathAxis maps λ to the canvas's x: −ln λ, so that λ falls to the right.
func pathAxis(lam float64) float64 { return -math.Log(lam) }

func pathDraw(result any, v LectureView) Picture {
	r, ok := result.(*lecture.PathResult)
	if !ok || len(r.Lambdas) < 2 || v.Width < 8 || v.Height < 3 {
		return Picture{Lines: []string{PadRight("(no path yet)", max(v.Width, 0))}}
	}
	idx, all := pathSeries(r)
	inks := map[rune]int{}
	for k := range idx {
		inks[pathGlyph(k)] = k
	}
	inks['●'] = len(idx)

	W, H := v.Width, v.Height
	legend := pathWrap(pathLegend(r, idx, all), W)
	marks := pathWrap(pathMarksLegend(r), W)
	var out []string
	switch {
	case W >= 72 && H >= 12:
		// Side by side: weights left, CV error right; legends below.
		foot := append(legend, marks...)
		if len(foot) > H-10 {
			foot = foot[:max(0, H-10)]
		}
		ph := H - len(foot)
		lw := W * 56 / 100
		left := pathCoefPanel(r, idx, lw, ph)
		right := pathCVPanel(r, W-lw-2, ph)
		out = append(Beside(left, right, lw, 2), foot...)
	case H >= 22:
		// Stacked: weights above, CV error below.
		foot := append(legend, marks...)
		if len(foot) > H-18 {
			foot = foot[:max(0, H-18)]
		}
		rest := H - len(foot)
		top := rest * 55 / 100
		out = append(out, pathCoefPanel(r, idx, W, top)...)
		out = append(out, pathCVPanel(r, W, rest-top)...)
		out = append(out, foot...)
	default:
		// Small: the weights alone, and as much legend as fits.
		foot := append(legend, marks...)
		keep := 0
		if H >= 8 {
			keep = min(len(foot), max(1, (H-7)/2))
		}
		out = append(pathCoefPanel(r, idx, W, H-keep), foot[:keep]...)
	}
	if len(out) > H {
		out = out[:H]
	}
	for i, l := range out {
		if len([]rune(l)) > W {
			out[i] = string([]rune(l)[:W])
		}
	}
	return Picture{Lines: out, Inks: inks}
}

// pathLegend is "a bmi  b s5 …", with a note when only some are drawn.
func pathLegend(r *lecture.PathResult, idx []int, all bool) []string {
	items := make([]string, 0, len(idx)+1)
	for k, j := range idx {
		items = append(items, string(pathGlyph(k))+" "+r.Features[j])
	}
	if !all {
		how := "most correlated"
		if r.L1() {
			how = "first to enter"
		}
		items = append(items, "("+strconv.Itoa(len(idx))+" "+how+" of "+strconv.Itoa(len(r.Features))+" features)")
	}
	return items
}

// pathMarksLegend names the marks and the CV glyphs.
func pathMarksLegend(r *lecture.PathResult) []string {
	var items []string
	if r.BestIndex != nil && r.Index1SE != nil {
		b, o := *r.BestIndex, *r.Index1SE
		items = append(items, "| best λ "+numfmt.Sig(r.Lambdas[b], 3)+" (CV "+numfmt.Sig(r.CVError[b], 4)+")",
			": 1-SE λ "+numfmt.Sig(r.Lambdas[o], 3)+" (CV "+numfmt.Sig(r.CVError[o], 4)+")")
	}
	if r.FoldsDone > 0 {
		items = append(items, "● mean CV "+r.Metric, "· ±1 SE")
	}
	return append(items, "- zero")
}

// pathWrap packs items into lines of at most w cells, two spaces apart.
func pathWrap(items []string, w int) []string {
	var out []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case len([]rune(line))+2+len([]rune(it)) <= w:
			line += "  " + it
		default:
			out = append(out, line)
			line = it
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// pathXAxis replaces the canvas's tick line (which would show −ln λ) with
// λ itself at the left end, the middle and the right end.
func pathXAxis(c *Canvas, lines []string) []string {
	lw := c.Width() - c.W - 2
	axis := []rune(strings.Repeat(" ", c.W+2))
	place := func(s string, at int) {
		rs := []rune(s)
		at = max(0, min(at, len(axis)-len(rs)))
		copy(axis[at:], rs)
	}
	lam := func(x float64) string { return numfmt.Sig(math.Exp(-x), 3) }
	lo, hi := lam(c.X0), lam(c.X1)
	place(lo, 2)
	mx, _ := c.At((c.W-1)/2, 0)
	if mid := lam(mx); c.W >= 3*(len(mid)+len(lo)) {
		place(mid, 2+(c.W-1)/2-len(mid)/2)
	}
	place(hi, c.W+2-len([]rune(hi)))
	lines[c.H+1] = strings.Repeat(" ", lw) + string(axis)
	return lines
}

// pathMarks draws the vertical marks of the best and 1-SE λ.
func pathMarks(c *Canvas, r *lecture.PathResult) {
	if r.BestIndex == nil || r.Index1SE == nil {
		return
	}
	for _, m := range []struct {
		i int
		g rune
	}{{*r.Index1SE, ':'}, {*r.BestIndex, '|'}} {
		x := pathAxis(r.Lambdas[m.i])
		c.Line(x, c.Y0, x, c.Y1, m.g)
	}
}

// pathCoefPanel is the title and the weights against λ, w × h cells.
func pathCoefPanel(r *lecture.PathResult, idx []int, w, h int) []string {
	L := len(r.Lambdas)
	title := r.Model + " weights per SD of feature vs λ"
	if r.Positive != "" {
		title = r.Model + " weights (log-odds of " + r.Positive + ") per SD vs λ"
	}
	if n := len(r.Coefs); n < L {
		title = "λ " + strconv.Itoa(n) + " of " + strconv.Itoa(L) + ": " + title
	}
	lo, hi := 0.0, 0.0
	for _, c := range r.Coefs {
		for _, j := range idx {
			lo, hi = math.Min(lo, c[j]), math.Max(hi, c[j])
		}
	}
	if hi == lo {
		hi, lo = 1, -1
	}
	pad := 0.04 * (hi - lo)
	lo, hi = lo-pad, hi+pad
	x0, x1 := pathAxis(r.Lambdas[0]), pathAxis(r.Lambdas[L-1])
	labelW := max(len(tick(lo)), len(tick(hi)), len(tick((lo+hi)/2))) + 1
	cw, ch := CanvasSize(w, h-1, labelW, true)
	c := NewCanvas(cw, ch, x0, x1, lo, hi)
	c.Line(x0, 0, x1, 0, '-')
	pathMarks(c, r)
	xs := make([]float64, len(r.Coefs))
	for i := range xs {
		xs[i] = pathAxis(r.Lambdas[i])
	}
	for k := len(idx) - 1; k >= 0; k-- { // the first in the legend on top
		ys := make([]float64, len(r.Coefs))
		for i, co := range r.Coefs {
			ys[i] = co[idx[k]]
		}
		c.Curve(xs, ys, pathGlyph(k))
	}
	lines := pathXAxis(c, c.Lines("λ, log scale, decreasing →"))
	return append([]string{PadRight(title, w)}, lines...)
}

// pathCVPanel is the title and the cross-validated error with its band.
func pathCVPanel(r *lecture.PathResult, w, h int) []string {
	title := strconv.Itoa(r.Folds) + "-fold CV " + r.Metric + " ±1 SE vs λ"
	if r.FoldsDone < r.Folds {
		title += " (" + strconv.Itoa(r.FoldsDone) + " of " + strconv.Itoa(r.Folds) + " folds)"
	}
	if r.FoldsDone == 0 || len(r.CVError) != len(r.Lambdas) {
		return []string{PadRight(title, w), PadRight("(the folds follow the path)", w)}
	}
	L := len(r.Lambdas)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, e := range r.CVError {
		lo, hi = math.Min(lo, e-r.CVSE[i]), math.Max(hi, e+r.CVSE[i])
	}
	pad := 0.04 * (hi - lo)
	lo, hi = lo-pad, hi+pad
	x0, x1 := pathAxis(r.Lambdas[0]), pathAxis(r.Lambdas[L-1])
	labelW := max(len(tick(lo)), len(tick(hi)), len(tick((lo+hi)/2))) + 1
	cw, ch := CanvasSize(w, h-1, labelW, true)
	c := NewCanvas(cw, ch, x0, x1, lo, hi)
	pathMarks(c, r)
	for i, e := range r.CVError {
		x := pathAxis(r.Lambdas[i])
		if r.CVSE[i] > 0 {
			c.Line(x, e-r.CVSE[i], x, e+r.CVSE[i], '·')
		}
	}
	for i, e := range r.CVError {
		c.Point(pathAxis(r.Lambdas[i]), e, '●')
	}
	lines := pathXAxis(c, c.Lines("λ, log scale, decreasing →"))
	return append([]string{PadRight(title, w)}, lines...)
}

func pathTables(result any) []Table {
	r, ok := result.(*lecture.PathResult)
	if !ok {
		return nil
	}
	var out []Table
	if r.BestIndex != nil && r.Index1SE != nil {
		t := Table{Columns: []string{"λ chosen by", "λ", "CV " + r.Metric, "± SE", "nonzero weights"}}
		if r.CVErrorRate != nil {
			t.Columns = append(t.Columns, "CV error rate")
		}
		for _, row := range []struct {
			name string
			i    int
		}{{"minimum CV error", *r.BestIndex}, {"one standard error", *r.Index1SE}} {
			cells := []string{row.name, numfmt.Sig(r.Lambdas[row.i], 4), numfmt.Sig(r.CVError[row.i], 5), numfmt.Sig(r.CVSE[row.i], 3),
				strconv.Itoa(r.Nonzero[row.i]) + " of " + strconv.Itoa(len(r.Features))}
			if r.CVErrorRate != nil {
				cells = append(cells, numfmt.Percent(r.CVErrorRate[row.i]))
			}
			t.Rows = append(t.Rows, cells)
		}
		out = append(out, t)
	}
	if r.L1() && len(r.EntryOrder) > 0 {
		t := Table{Columns: []string{"enters", "feature", "at λ"}}
		for k, name := range r.EntryOrder[:min(10, len(r.EntryOrder))] {
			t.Rows = append(t.Rows, []string{strconv.Itoa(k + 1), name, numfmt.Sig(r.EntryLambda[k], 4)})
		}
		out = append(out, t)
	}
	if r.BestIndex != nil && *r.BestIndex < len(r.Coefs) {
		// The weights at the best λ, largest first.
		w := r.Coefs[*r.BestIndex]
		idx := make([]int, len(w))
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return math.Abs(w[idx[a]]) > math.Abs(w[idx[b]]) })
		t := Table{Columns: []string{"feature", "weight at best λ (per SD)"}}
		for _, j := range idx[:min(10, len(idx))] {
			t.Rows = append(t.Rows, []string{r.Features[j], numfmt.Sig(w[j], 4)})
		}
		out = append(out, t)
	}
	return out
}

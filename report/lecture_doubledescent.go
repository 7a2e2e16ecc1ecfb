package report

import (
	"math"
	"slices"
	"strings"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// The double-descent picture: test and training error against the number
// of random features p on a log scale, the interpolation threshold p = n a
// vertical line, the noise σ² (the test error's floor) a dotted one.

const (
	ddTest      = '●'
	ddTrain     = '○'
	ddThreshold = '│'
	ddFloor     = '┈'
)

var ddInks = map[rune]int{ddTest: 0, ddTrain: 1, ddThreshold: 2, ddFloor: 3}

func init() {
	RegisterLecture("double-descent", LectureDrawing{Draw: ddDraw, Tables: ddTables})
}

func ddResult(result any) *lecture.DDResult { return resultAs[lecture.DDResult](result) }

func ddDraw(result any, v LectureView) Picture {
	r := ddResult(result)
	if r == nil || len(r.Rows) == 0 {
		return Picture{Lines: []string{"(nothing to draw yet)"}}
	}
	rows, titled, legend, labelled := plotRows(v.Height)
	// the y axis: every test error and every training error that is not
	// float noise (0 once p ≥ n, drawn on the bottom row), and σ²
	noise := r.Noise * r.Noise
	lo, hi := math.Inf(1), 0.0
	scale := 1 + noise // the labels' variance
	for _, row := range r.Rows {
		for _, e := range []float64{row.TestError, row.TrainError} {
			if e > 1e-9*scale {
				lo, hi = math.Min(lo, e), math.Max(hi, e)
			}
		}
	}
	if noise > 0 {
		lo, hi = math.Min(lo, noise), math.Max(hi, noise)
	}
	if math.IsInf(lo, 1) { // nothing above float noise: no noise, interpolated
		lo, hi = 1e-9*scale, scale
	}
	y0, y1 := lo/1.5, hi*1.3
	ps := make([]float64, len(r.Rows))
	for i, row := range r.Rows {
		ps[i] = float64(row.Features)
	}
	x0, x1 := ps[0], math.Max(ps[len(ps)-1], float64(r.Threshold))
	logX := x1/math.Max(x0, 1) > 50 && x1 > 8*float64(r.Threshold)
	c := NewCanvas(4, rows, x0, x1, y0, y1)
	c.LogY = true
	c = NewCanvas(max(4, v.Width-(c.Width()-c.W)), rows, x0, x1, y0, y1)
	c.LogX, c.LogY = logX, true
	if _, row, ok := c.Cell(c.X0, noise); ok && noise > 0 {
		for col := 0; col < c.W; col++ {
			c.Set(col, row, ddFloor)
		}
	}
	n := float64(r.Threshold)
	tcol, _, thresholdOn := c.Cell(n, y1)
	if thresholdOn {
		for row := 0; row < c.H; row++ {
			c.Set(tcol, row, ddThreshold)
		}
	}
	train, test := make([]float64, len(ps)), make([]float64, len(ps))
	for i, row := range r.Rows {
		train[i] = math.Max(row.TrainError, y0) // 0 on the bottom row
		test[i] = row.TestError
	}
	c.Curve(ps, train, ddTrain)
	c.Curve(ps, test, ddTest)
	if thresholdOn {
		label := []rune("interpolation threshold p = n = " + numfmt.Value(n))
		if tcol+2+len(label) > c.W {
			label = []rune("p = n = " + numfmt.Value(n))
		}
		at := tcol + 2
		if at+len(label) > c.W {
			at = tcol - 1 - len(label)
		}
		if at >= 0 {
			for k, g := range label {
				c.Set(at+k, 0, g)
			}
		}
	}
	xLabel := ""
	if labelled {
		xLabel = "p, random features"
		if logX {
			xLabel += " (log scale)"
		}
	}
	lines := c.Lines(xLabel)
	// ticks at the smallest and largest p and at n
	prefix := len([]rune(lines[0])) - c.W
	ticks := []rune(strings.Repeat(" ", c.W+prefix))
	taken := make([]bool, len(ticks))
	place := func(p float64) {
		col, _, ok := c.Cell(p, y1)
		if !ok {
			return
		}
		s := []rune(numfmt.Value(p))
		at := max(0, min(prefix+col-(len(s)-1)/2, len(ticks)-len(s)))
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
	for _, p := range []float64{n, x0, x1, 2 * n, 3 * n, 4 * n, n / 2} {
		if p >= x0 && p <= x1 && p == math.Trunc(p) {
			place(p)
		}
	}
	lines[c.H+1] = string(ticks)
	var out []string
	if titled {
		np, d, sd := numfmt.Value(float64(r.Points)), numfmt.Value(float64(r.Dim)), numfmt.Sig(r.Noise, 3)
		out = append(out, bvFirstFitting(v.Width,
			"MSE (log scale) against p: n = "+np+" points, d = "+d+", σ = "+sd+", "+numfmt.Count(r.Trials, "trial")+ddRidgeNote(r),
			"MSE (log) against p: n = "+np+", d = "+d+", σ = "+sd+", "+numfmt.Count(r.Trials, "trial")+ddRidgeNote(r),
			"MSE (log) against p, n = "+np))
	}
	out = append(out, lines...)
	if legend {
		zero := ""
		for _, row := range r.Rows {
			if ddZero(row.TrainError, r) == "0" {
				zero = " (bottom row: 0)"
			}
		}
		out = append(out, bvFirstFitting(v.Width,
			string(ddTest)+" test MSE (mean of the trials)  "+string(ddTrain)+" training MSE"+zero+"  "+string(ddThreshold)+" p = n  "+string(ddFloor)+" noise σ²",
			string(ddTest)+" test MSE  "+string(ddTrain)+" training MSE"+zero+"  "+string(ddThreshold)+" p = n  "+string(ddFloor)+" noise σ²",
			string(ddTest)+" test  "+string(ddTrain)+" train  "+string(ddThreshold)+" p = n  "+string(ddFloor)+" σ²",
			string(ddTest)+" test "+string(ddTrain)+" train "+string(ddThreshold)+" p=n"))
	}
	for i, l := range out {
		out[i] = PadRight(l, v.Width)
	}
	if len(out) > v.Height {
		out = out[:v.Height]
	}
	return Picture{Lines: out, Inks: ddInks}
}

func ddRidgeNote(r *lecture.DDResult) string {
	if r.Ridge > 0 {
		return ", ridge λ = " + numfmt.Param(r.Ridge)
	}
	return ", least-norm fit"
}

// ddTables gives the errors at the p that tell the story: the fewest
// features, n/2, the bottom of the first descent, the threshold, the
// peak, 2n and 4n, the least test error and the most features.
func ddTables(result any) []Table {
	r := ddResult(result)
	if r == nil || len(r.Rows) == 0 {
		return nil
	}
	n := r.Threshold
	notes := map[int][]string{}
	note := func(i int, s string) {
		if i >= 0 && !slices.Contains(notes[i], s) {
			notes[i] = append(notes[i], s)
		}
	}
	nearest := func(p int) int {
		best := -1
		for i, row := range r.Rows {
			if best < 0 || ddAbs(row.Features-p) < ddAbs(r.Rows[best].Features-p) {
				best = i
			}
		}
		if d := ddAbs(r.Rows[best].Features - p); d > max(1, p/10) {
			return -1 // not in the list, nor near
		}
		return best
	}
	note(0, "fewest features")
	peak, least, firstLeast := 0, 0, -1
	for i, row := range r.Rows {
		if row.TestError > r.Rows[peak].TestError {
			peak = i
		}
		if row.TestError < r.Rows[least].TestError {
			least = i
		}
		if row.Features < n && (firstLeast < 0 || row.TestError < r.Rows[firstLeast].TestError) {
			firstLeast = i
		}
	}
	note(nearest(n/2), "p ≈ n/2")
	note(firstLeast, "least test error below n")
	if i := nearest(n); i >= 0 && r.Rows[i].Features == n {
		note(i, "p = n: interpolation threshold")
	}
	note(peak, "largest test error")
	note(nearest(2*n), "p ≈ 2n")
	note(nearest(4*n), "p ≈ 4n")
	note(least, "least test error")
	note(len(r.Rows)-1, "most features")
	t := Table{Columns: []string{"p", "train MSE", "test MSE", "median test MSE", "‖w‖", ""}}
	var idx []int
	for i := range notes {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		row := r.Rows[i]
		t.Rows = append(t.Rows, []string{numfmt.Value(float64(row.Features)), ddZero(row.TrainError, r),
			numfmt.Sig(row.TestError, 4) + " ± " + numfmt.Sig(row.TestErrorSE, 2), numfmt.Sig(row.TestErrorMedian, 4),
			numfmt.Sig(row.WeightNorm, 3), strings.Join(notes[i], "; ")})
	}
	return []Table{t}
}

// ddZero shows a training error of float noise as 0.
func ddZero(e float64, r *lecture.DDResult) string {
	if e <= 1e-9*(1+r.Noise*r.Noise) {
		return "0"
	}
	return numfmt.Sig(e, 3)
}

func ddAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// LineChart's axes: y label formats, x ticks and their labels.

package widgets

import (
	"math"
	"strings"
)

// yAxis chooses a label format for a y range drawn over rows+1 lines and
// returns the formatter (fixed width) and that width. Log labels get as
// many significant digits (2 to 6) as it takes for neighbouring rows to
// read differently.
func yAxis(lo, hi float64, rows int, logY bool) (func(float64) string, int) {
	rows = max(rows, 1)
	vals := make([]float64, rows+1)
	for i := range vals {
		vals[i] = hi - (hi-lo)*float64(i)/float64(rows)
	}
	var f func(float64) string
	if logY {
		for d := 2; d <= 6; d++ {
			f = func(v float64) string { return fmtG(math.Pow(10, v), d) }
			if distinctLabels(vals, f) {
				break
			}
		}
	} else {
		maxAbs := math.Max(math.Abs(lo), math.Abs(hi))
		step := (hi - lo) / float64(rows)
		if maxAbs >= 1e6 || maxAbs < 1e-3 || !(step > 0) {
			f = func(v float64) string { return fmtG(v, 3) }
		} else {
			d := int(math.Ceil(-math.Log10(step)))
			if step < 1 {
				d++
			}
			d = min(max(d, 0), 6)
			f = func(v float64) string { return fmtFixed(v, d) }
		}
	}
	w := 1
	for _, v := range vals {
		w = max(w, len(f(v)))
	}
	w = min(w, 10)
	return func(v float64) string { return padLeft(f(v), w) }, w
}

// distinctLabels reports whether f labels neighbouring values differently.
func distinctLabels(vals []float64, f func(float64) string) bool {
	for i := 1; i < len(vals); i++ {
		if f(vals[i]) == f(vals[i-1]) {
			return false
		}
	}
	return true
}

// niceStep is the smallest 1, 2 or 5 × 10^k at least raw.
func niceStep(raw float64) float64 {
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

type tick struct {
	col   int
	label string
}

// xTicks places tick labels for x in [a, b] over cols columns: the first
// point, round multiples of a nice step about every 10 columns, and the
// last point (the latest step) in the last column.
func xTicks(a, b float64, cols int, integer bool) []tick {
	label := func(x float64) string {
		if integer {
			return fmtFixed(math.Round(x), 0)
		}
		return fmtG(x, 3)
	}
	if cols <= 1 || !(b > a) {
		return []tick{{0, label(a)}}
	}
	col := func(x float64) int { return int(math.Round((x - a) / (b - a) * float64(cols-1))) }
	step := niceStep((b - a) / math.Max(1, float64(cols)/10))
	if integer {
		step = math.Max(1, math.Round(step))
	}
	ticks := []tick{{0, label(a)}}
	// Count in integers: x += step stalls once x is beyond 2^53 steps.
	k0 := math.Ceil(a / step)
	n := math.Min(math.Floor(b/step)-k0, float64(cols))
	for i := 0; float64(i) <= n; i++ {
		x := (k0 + float64(i)) * step
		c := col(x)
		if c <= ticks[len(ticks)-1].col+1 || c >= cols-2 {
			continue
		}
		ticks = append(ticks, tick{c, label(x)})
	}
	if cols-1 > ticks[len(ticks)-1].col {
		ticks = append(ticks, tick{cols - 1, label(b)})
	}
	return ticks
}

// fixWidth pads or cuts f's labels to w cells, so that the axis keeps the
// width the layout was made for.
func fixWidth(f func(float64) string, w int) func(float64) string {
	return func(v float64) string {
		s := strings.TrimSpace(f(v))
		if len(s) > w {
			s = s[:w]
		}
		return padLeft(s, w)
	}
}

// xLabels lays tick labels under their ticks: the first left-aligned, the
// last (the latest step) right-aligned at the end, the others centred and
// dropped where they would come within a space of another. The unit name
// goes where it hides no label: before the first one ("epoch 1"), else
// before the last one ("… 500  iteration 1159"), else after the last label
// placed; shown is false when it fits nowhere (the caller puts it in the
// title).
func xLabels(ticks []tick, left, width int, unit string) (string, bool) {
	line := []rune(strings.Repeat(" ", width))
	type span struct{ start, end int } // [start, end)
	var placed []span
	put := func(s string, start int) span {
		r := []rune(s)
		copy(line[start:], r)
		return span{start, start + len(r)}
	}
	fits := func(start, n int) bool { return start >= 0 && start+n <= width }
	if len(ticks) == 0 {
		return "", false
	}
	first := ticks[0]
	if n := len([]rune(first.label)); fits(left+first.col, n) {
		placed = append(placed, put(first.label, left+first.col))
	}
	var lastSpan *span
	if len(ticks) > 1 {
		t := ticks[len(ticks)-1]
		n := len([]rune(t.label))
		start := min(left+t.col-n/2, width-n)
		if fits(start, n) && (len(placed) == 0 || start >= placed[0].end+2) {
			sp := put(t.label, start)
			lastSpan = &sp
		}
	}
	for _, t := range ticks[1:max(len(ticks)-1, 1)] {
		n := len([]rune(t.label))
		start := left + t.col - n/2
		if !fits(start, n) || (len(placed) > 0 && start < placed[len(placed)-1].end+2) ||
			(lastSpan != nil && start+n+2 > lastSpan.start) {
			continue
		}
		placed = append(placed, put(t.label, start))
	}
	if lastSpan != nil {
		placed = append(placed, *lastSpan)
	}
	shown := unit == ""
	if u := []rune(unit); !shown {
		n := len(u)
		prevEnd := 0
		if len(placed) > 1 {
			prevEnd = placed[len(placed)-2].end + 2
		}
		switch {
		case len(placed) > 0 && placed[0].start-1-n >= 0:
			put(unit, placed[0].start-1-n)
			shown = true
		case lastSpan != nil && lastSpan.start-1-n >= prevEnd:
			put(unit, lastSpan.start-1-n)
			shown = true
		case len(placed) > 0 && fits(placed[len(placed)-1].end+2, n):
			put(unit, placed[len(placed)-1].end+2)
			shown = true
		}
	}
	return strings.TrimRight(string(line), " "), shown
}

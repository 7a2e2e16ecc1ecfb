// LineChart's series handling: the automatic log scale, early-spike clipping,
// gap bridging, resampling to the plot's columns and the y range.

package widgets

import (
	"math"
)

// spansDecades reports whether the finite values are all positive and the
// largest is at least 100 times the smallest.
func spansDecades(ys [][]float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, y := range ys {
		for _, v := range y {
			switch {
			case math.IsNaN(v):
			case v <= 0:
				return false
			default:
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return hi > 0 && hi >= 100*lo
}

// spikeRange is the y range that leaves out early spikes: lo or hi is
// infinite when there is none to leave out on that side. A spike is the
// first tenth of the longest series going more than three times the range
// of the rest beyond it.
func spikeRange(ys [][]float64) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	nmax := 0
	for _, y := range ys {
		nmax = max(nmax, len(y))
	}
	if nmax < 10 {
		return lo, hi
	}
	head := max(nmax/10, 1)
	headLo, headHi := math.Inf(1), math.Inf(-1)
	restLo, restHi := math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		for j, v := range y {
			switch {
			case math.IsNaN(v):
			case j < head:
				headLo, headHi = math.Min(headLo, v), math.Max(headHi, v)
			default:
				restLo, restHi = math.Min(restLo, v), math.Max(restHi, v)
			}
		}
	}
	rest := restHi - restLo
	if !(rest > 0) {
		return lo, hi
	}
	if headHi > restHi+3*rest {
		hi = restHi + 0.15*rest
	}
	if headLo < restLo-3*rest {
		lo = restLo - 0.15*rest
	}
	return lo, hi
}

// prepared returns series ys in plot space (log10 when logY) with inner
// gaps bridged, and the longest length.
func prepared(ys [][]float64, logY bool) ([][]float64, int, bool) {
	out := make([][]float64, len(ys))
	nmax, ok := 0, false
	for i, y := range ys {
		p := make([]float64, len(y))
		first, last := -1, -1
		for j, v := range y {
			if logY {
				if v > 0 {
					v = math.Log10(v)
				} else {
					v = math.NaN()
				}
			}
			p[j] = v
			if !math.IsNaN(v) {
				if first < 0 {
					first = j
				}
				last = j
			}
		}
		if first >= 0 {
			ok = true
			bridge(p[first : last+1])
		}
		out[i] = p
		nmax = max(nmax, len(y))
	}
	return out, nmax, ok
}

// bridge linearly interpolates NaN runs between finite values; p starts
// and ends with finite values.
func bridge(p []float64) {
	prev := 0
	for j := 1; j < len(p); j++ {
		if math.IsNaN(p[j]) {
			continue
		}
		if j-prev > 1 {
			a, b := p[prev], p[j]
			for k := prev + 1; k < j; k++ {
				p[k] = a + (b-a)*float64(k-prev)/float64(j-prev)
			}
		}
		prev = j
	}
}

// resample maps y (of a chart whose longest series has nmax points) onto
// dst, one value per column, NaN where the series has no data.
func resample(dst, y []float64, nmax int) {
	cols := len(dst)
	for c := range dst {
		dst[c] = math.NaN()
	}
	n := len(y)
	if n == 0 || cols == 0 {
		return
	}
	if nmax <= 1 || cols == 1 {
		dst[0] = y[n-1]
		return
	}
	s := float64(cols-1) / float64(nmax-1)
	lastCol := min(cols-1, int(float64(n-1)*s+0.5))
	if s >= 1 {
		// Stretch: linear interpolation between neighbouring points.
		for c := 0; c < lastCol; c++ {
			t := float64(c) / s
			i := int(t)
			if i >= n-1 {
				dst[c] = y[n-1]
				continue
			}
			f := t - float64(i)
			dst[c] = y[i] + (y[i+1]-y[i])*f
		}
		dst[lastCol] = y[n-1]
		return
	}
	// Downsample: each column keeps the extreme of its bucket that is
	// farther from the previous column's value, so spikes survive.
	prev := math.NaN()
	c := 0
	lo, hi, first := math.NaN(), math.NaN(), math.NaN()
	flush := func() {
		v := first
		if !math.IsNaN(prev) && !math.IsNaN(lo) {
			v = lo
			if math.Abs(hi-prev) > math.Abs(lo-prev) {
				v = hi
			}
		}
		dst[c] = v
		prev = v
	}
	for i, v := range y {
		ci := int(float64(i)*s + 0.5)
		if ci != c {
			flush()
			c = ci
			lo, hi, first = math.NaN(), math.NaN(), math.NaN()
		}
		if !math.IsNaN(v) {
			if math.IsNaN(first) {
				first = v
			}
			if math.IsNaN(lo) || v < lo {
				lo = v
			}
			if math.IsNaN(hi) || v > hi {
				hi = v
			}
		}
	}
	flush()
	if !math.IsNaN(y[n-1]) {
		dst[lastCol] = y[n-1]
	}
}

// padRange widens a degenerate range so the axis has distinct labels and
// asciigraph's scaling stays finite.
func padRange(lo, hi float64) (float64, float64) {
	if lo > hi { // no data
		return 0, 1
	}
	maxAbs := math.Max(math.Abs(lo), math.Abs(hi))
	if hi-lo <= maxAbs*1e-9 {
		mid := (lo + hi) / 2
		d := math.Abs(mid) * 0.05
		if d == 0 {
			d = 1
		}
		return mid - d, mid + d
	}
	return lo, hi
}

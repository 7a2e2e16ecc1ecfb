package kit

import (
	"math"
	"slices"

	"github.com/tealab/tealab/numfmt"
)

// Binning is how a histogram cuts a column: k bins of equal width between
// the edges lo and hi. Integer bins are centred on whole numbers (lo and
// hi are half-integers), so that no bin falls between two values.
type Binning struct {
	Lo, Hi     float64
	K          int
	Integer    bool
	PerUnit    bool    // integer bins one value wide: a bar per value
	Vmin, Vmax float64 // the smallest and largest value binned
}

// ChooseBins picks the bins of col's finite values, at most maxBins of
// them. Whole numbers get a bin per value when the range is small enough,
// else bins a whole number of values wide: equal bins over a range of
// integers would leave empty bins between the values (a comb). Other data
// get numpy's "auto" width, the smaller of Freedman-Diaconis and Sturges
// (Sturges alone when the quartiles coincide).
func ChooseBins(col []float64, maxBins int) Binning {
	maxBins = max(maxBins, 1)
	finite := make([]float64, 0, len(col))
	whole := true
	for _, v := range col {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			finite = append(finite, v)
			whole = whole && v == math.Trunc(v) && math.Abs(v) < 1<<52
		}
	}
	if len(finite) == 0 {
		return Binning{K: 1, Vmin: math.NaN(), Vmax: math.NaN()}
	}
	slices.Sort(finite)
	b := pickBins(finite, whole, maxBins)
	b.Vmin, b.Vmax = finite[0], finite[len(finite)-1]
	return b
}

// pickBins is chooseBins' choice for sorted finite values.
func pickBins(finite []float64, whole bool, maxBins int) Binning {
	lo, hi := finite[0], finite[len(finite)-1]
	if whole {
		values := hi - lo + 1
		if values <= float64(maxBins) {
			return Binning{Lo: lo - 0.5, Hi: hi + 0.5, K: int(values), Integer: true, PerUnit: true}
		}
		w := math.Max(math.Ceil(2*autoHalfWidth(finite)), math.Ceil(values/float64(maxBins)))
		k := int(math.Ceil(values / w))
		return Binning{Lo: lo - 0.5, Hi: lo - 0.5 + float64(k)*w, K: k, Integer: true}
	}
	if lo == hi {
		return Binning{Lo: lo, Hi: hi, K: 1}
	}
	k := maxBins
	if w := autoHalfWidth(finite); w > 0 {
		k = min(max(int(math.Ceil((hi/2-lo/2)/w)), 1), maxBins)
	}
	return Binning{Lo: lo, Hi: hi, K: k}
}

// autoHalfWidth is half numpy's "auto" bin width of sorted finite values:
// the Freedman-Diaconis width 2·IQR/n^(1/3), or the Sturges width
// range/(log2 n + 1) when that is smaller or the IQR is 0. Halved, so that
// a range wider than the largest float64 does not overflow.
func autoHalfWidth(sorted []float64) float64 {
	n := float64(len(sorted))
	sturges := (sorted[len(sorted)-1]/2 - sorted[0]/2) / (math.Log2(n) + 1)
	fd := 2 * (quantileSorted(sorted, 0.75)/2 - quantileSorted(sorted, 0.25)/2) / math.Cbrt(n)
	if fd > 0 {
		return math.Min(fd, sturges)
	}
	return sturges
}

// quantileSorted is the q-quantile of sorted values, interpolated linearly
// between order statistics (numpy's default).
func quantileSorted(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	f := pos - float64(i)
	return s[i]*(1-f) + s[i+1]*f
}

// index is the bin of finite v. Values are halved first, so that a range
// wider than the largest float64 does not overflow.
func (b Binning) index(v float64) int {
	if b.Hi <= b.Lo {
		return 0
	}
	return min(max(int((v/2-b.Lo/2)/(b.Hi/2-b.Lo/2)*float64(b.K)), 0), b.K-1)
}

// Edge is the left edge of bin i (i = k: the right edge of the last).
func (b Binning) Edge(i int) float64 {
	t := float64(i) / float64(b.K)
	return b.Lo*(1-t) + b.Hi*t // never overflows
}

// Count counts the finite values of col in the bins, by colour class (cls
// nil: one class).
func (b Binning) Count(col []float64, cls []int, ncls int) [][]float64 {
	counts := make([][]float64, b.K)
	for i := range counts {
		counts[i] = make([]float64, max(ncls, 1))
	}
	for i, v := range col {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		c := 0
		if cls != nil && cls[i] >= 0 {
			c = cls[i] % max(ncls, 1)
		}
		counts[b.index(v)][c]++
	}
	return counts
}

// Label names bin i: its value (a bin per value), the whole numbers it
// holds ("3–5"), or its edges.
func (b Binning) Label(i int) string {
	switch {
	case b.PerUnit:
		return numfmt.Sig(b.Edge(i)+0.5, 6)
	case b.Integer:
		return numfmt.Sig(b.Edge(i)+0.5, 6) + "–" + numfmt.Sig(b.Edge(i+1)-0.5, 6)
	}
	return numfmt.Sig(b.Edge(i), 4) + " – " + numfmt.Sig(b.Edge(i+1), 4)
}

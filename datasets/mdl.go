// Fayyad & Irani's MDL discretisation, shared by the supervised
// discretiser of the preprocessing (Prep) and engine/rank's evaluators.

package datasets

import (
	"math"
	"slices"
)

// Entropy is the entropy in bits of the counts c.
func Entropy(c []float64) float64 {
	var sum, h float64
	for _, v := range c {
		if v > 0 {
			h -= v * math.Log(v)
			sum += v
		}
	}
	if sum == 0 {
		return 0
	}
	return (h + sum*math.Log(sum)) / (sum * math.Ln2)
}

// CondEntropy is the entropy in bits of the columns (classes) given the
// rows (values) of the table m, weighted by the rows' totals.
func CondEntropy(m [][]float64) float64 {
	var total, h float64
	for _, row := range m {
		var sum float64
		for _, v := range row {
			if v > 0 {
				h -= v * math.Log(v)
				sum += v
			}
		}
		if sum > 0 {
			h += sum * math.Log(sum)
		}
		total += sum
	}
	if total == 0 {
		return 0
	}
	return h / (total * math.Ln2)
}

// MDLCuts returns the cut points of Fayyad & Irani's MDL discretisation
// of the values x (missing ones left out) supervised by the classes y, as
// Weka's supervised Discretize finds them (better encoding: the cost of a
// cut counts the distinct boundaries, not the rows). A value v falls in
// bin b, the first with v <= cuts[b] (the last bin past every cut).
func MDLCuts(x, y []float64, classes int) []float64 {
	idx := make([]int, 0, len(x))
	for i, v := range x {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	xs := make([]float64, len(idx))
	ys := make([]int, len(idx))
	for r, i := range idx {
		xs[r], ys[r] = x[i], int(y[i])
	}
	return cutsOf(xs, ys, classes, 0, len(xs))
}

// cutsOf splits the sorted rows [first, last) at the boundary of least
// class entropy when the MDL criterion accepts it, then each side again.
func cutsOf(xs []float64, ys []int, classes, first, last int) []float64 {
	if last-first < 2 {
		return nil
	}
	counts := [][]float64{make([]float64, classes), make([]float64, classes)}
	for i := first; i < last; i++ {
		counts[1][ys[i]]++
	}
	prior := slices.Clone(counts[1])
	priorH := Entropy(prior)
	bestH := priorH
	best := -1
	var bestCut float64
	bestCounts := [][]float64{make([]float64, classes), make([]float64, classes)}
	boundaries := 0
	for i := first; i < last-1; i++ {
		counts[0][ys[i]]++
		counts[1][ys[i]]--
		if xs[i] < xs[i+1] {
			h := CondEntropy(counts)
			if h < bestH {
				bestH, best, bestCut = h, i, midpoint(xs[i], xs[i+1])
				copy(bestCounts[0], counts[0])
				copy(bestCounts[1], counts[1])
			}
			boundaries++
		}
	}
	if best < 0 || priorH-bestH <= 0 || !mdlAccepts(prior, bestCounts, float64(last-first), boundaries) {
		return nil
	}
	left := cutsOf(xs, ys, classes, first, best+1)
	right := cutsOf(xs, ys, classes, best+1, last)
	out := append(left, bestCut)
	return append(out, right...)
}

// mdlAccepts is Fayyad & Irani's minimum description length test: the
// gain of a cut must pay for coding the cut and the classes on each side.
func mdlAccepts(prior []float64, split [][]float64, n float64, boundaries int) bool {
	present := func(c []float64) float64 {
		k := 0.0
		for _, v := range c {
			if v > 0 {
				k++
			}
		}
		return k
	}
	priorH := Entropy(prior)
	gain := priorH - CondEntropy(split)
	k, k1, k2 := present(prior), present(split[0]), present(split[1])
	delta := math.Log2(math.Pow(3, k)-2) - (k*priorH - k1*Entropy(split[0]) - k2*Entropy(split[1]))
	return gain > (math.Log2(float64(boundaries))+delta)/n
}

// BinOf is the bin of v among cuts; -1 for a missing value.
func BinOf(v float64, cuts []float64) int {
	if math.IsNaN(v) {
		return -1
	}
	for b, c := range cuts {
		if v <= c {
			return b
		}
	}
	return len(cuts)
}

// midpoint is (a+b)/2 as Weka takes it, halved first where the sum would
// overflow.
func midpoint(a, b float64) float64 {
	if m := (a + b) / 2; !math.IsInf(m, 0) {
		return m
	}
	return a/2 + b/2
}

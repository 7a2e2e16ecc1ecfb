package metrics

import (
	"fmt"
	"math"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/kernel"
	"gonum.org/v1/gonum/mat"
)

// codes renumbers arbitrary labels 0..k-1 in order of first appearance.
func codes(labels []float64) ([]int, int) {
	idx := make(map[uint64]int)
	out := make([]int, len(labels))
	for i, v := range labels {
		key := math.Float64bits(v)
		if v == 0 {
			key = 0 // -0 and +0 are one label
		}
		c, ok := idx[key]
		if !ok {
			c = len(idx)
			idx[key] = c
		}
		out[i] = c
	}
	return out, len(idx)
}

// AdjustedRand is the adjusted Rand index of two labelings of the same rows
// (Hubert & Arabie), as sklearn.metrics.adjusted_rand_score: 1 for identical
// partitions up to renaming, about 0 for independent ones. Label values are
// arbitrary (cluster indices, class codes). Not in the sources the models cite
// (Shewchuk, Verma, Hocking, Alpaydin): the standard pair-counting form is
// used to score clusterings against known classes.
func AdjustedRand(a, b []float64) float64 {
	sameLen("AdjustedRand", len(a), len(b))
	n := float64(len(a))
	ca, ka := codes(a)
	cb, kb := codes(b)
	cont := make([]float64, ka*kb)
	rowSum := make([]float64, ka)
	colSum := make([]float64, kb)
	for i := range ca {
		cont[ca[i]*kb+cb[i]]++
		rowSum[ca[i]]++
		colSum[cb[i]]++
	}
	// Pair confusion as sklearn.metrics.cluster.pair_confusion_matrix, in
	// float64 so that n^2 cannot overflow.
	var sumSq float64
	for _, v := range cont {
		sumSq += v * v
	}
	var sqA, sqB float64
	for _, v := range rowSum {
		sqA += v * v
	}
	for _, v := range colSum {
		sqB += v * v
	}
	tp := sumSq - n
	fp := sqB - sumSq
	fn := sqA - sumSq
	tn := n*n - fp - fn - sumSq
	if fn == 0 && fp == 0 {
		return 1
	}
	return 2 * (tp*tn - fn*fp) / ((tp+fn)*(fn+tn) + (tp+fp)*(fp+tn))
}

// NMI is the normalised mutual information of two labelings of the same
// rows, as sklearn.metrics.normalized_mutual_info_score with its default
// arithmetic normalisation: I(a;b) / ((H(a)+H(b))/2), 1 for identical
// partitions up to renaming, 0 for independent ones; 1 when both put every
// row in one group. Not in the sources the models cite: the standard information-theoretic
// score of a clustering against known classes.
func NMI(a, b []float64) float64 {
	sameLen("NMI", len(a), len(b))
	n := float64(len(a))
	if n == 0 {
		return math.NaN()
	}
	ca, ka := codes(a)
	cb, kb := codes(b)
	if ka == 1 && kb == 1 || ka == len(a) && kb == len(a) {
		return 1
	}
	cont := make([]float64, ka*kb)
	rowSum := make([]float64, ka)
	colSum := make([]float64, kb)
	for i := range ca {
		cont[ca[i]*kb+cb[i]]++
		rowSum[ca[i]]++
		colSum[cb[i]]++
	}
	entropy := func(counts []float64) float64 {
		h := 0.0
		for _, c := range counts {
			if c > 0 {
				p := c / n
				h -= p * math.Log(p)
			}
		}
		return h
	}
	mi := 0.0
	for i := 0; i < ka; i++ {
		for j := 0; j < kb; j++ {
			if c := cont[i*kb+j]; c > 0 {
				mi += c / n * math.Log(c*n/(rowSum[i]*colSum[j]))
			}
		}
	}
	ha, hb := entropy(rowSum), entropy(colSum)
	norm := (ha + hb) / 2
	if norm <= 0 {
		return 0
	}
	return max(mi, 0) / norm
}

// Silhouette is the mean silhouette coefficient of a clustering under the
// Euclidean distance, as sklearn.metrics.silhouette_score: for each row,
// (b-a)/max(a,b) with a its mean distance to the rest of its cluster and b
// its mean distance to the nearest other cluster; 0 for a row alone in its
// cluster. It needs between 2 and n-1 distinct labels. It costs O(n²d): for
// large n score a sample.
func Silhouette(X mat.Matrix, labels []float64) (float64, error) {
	n, d := X.Dims()
	sameLen("Silhouette", n, len(labels))
	c, k := codes(labels)
	if k < 2 || k > n-1 {
		return math.NaN(), fmt.Errorf("silhouette needs between 2 and %d clusters; got %d", n-1, k)
	}
	rows := datasets.DenseOf(X)
	size := make([]float64, k)
	for _, ci := range c {
		size[ci]++
	}
	// sums[i*k+l] is the summed distance from row i to the rows of cluster l;
	// each pair is measured once.
	sums := make([]float64, n*k)
	for i := 0; i < n; i++ {
		ri := rows.RawRowView(i)
		si := sums[i*k : (i+1)*k]
		ci := c[i]
		for j := i + 1; j < n; j++ {
			dist := math.Sqrt(kernel.SqDist(rows.RawRowView(j)[:d], ri))
			si[c[j]] += dist
			sums[j*k+ci] += dist
		}
	}
	var total float64
	for i := 0; i < n; i++ {
		ci := c[i]
		if size[ci] <= 1 {
			continue // s(i) = 0
		}
		si := sums[i*k : (i+1)*k]
		a := si[ci] / (size[ci] - 1)
		b := math.Inf(1)
		for l, v := range si {
			if l != ci {
				b = min(b, v/size[l])
			}
		}
		if m := max(a, b); m > 0 {
			total += (b - a) / m
		}
	}
	return total / float64(n), nil
}

// NeighbourAccuracy is the leave-one-out accuracy of the 1-nearest-neighbour
// rule (Euclidean) on rows X with classes y: the share of rows whose
// nearest other row has their class, a common score of how well an
// embedding keeps known classes apart. The nearest of equally near rows is
// the first. Rows whose class is NaN are neither scored nor neighbours; NaN
// when fewer than two rows are labelled. It costs O(n²d): for large n
// score a sample.
func NeighbourAccuracy(X mat.Matrix, y []float64) float64 {
	n, d := X.Dims()
	sameLen("NeighbourAccuracy", n, len(y))
	rows := datasets.DenseOf(X)
	var labelled []int
	for i, v := range y {
		if !math.IsNaN(v) {
			labelled = append(labelled, i)
		}
	}
	if len(labelled) < 2 {
		return math.NaN()
	}
	right := 0
	for _, i := range labelled {
		ri := rows.RawRowView(i)[:d]
		best, bd := -1, math.Inf(1)
		for _, j := range labelled {
			if j == i {
				continue
			}
			// best < 0: distances that overflow to +Inf (or NaN) still
			// name a neighbour.
			if s := kernel.SqDist(rows.RawRowView(j)[:d], ri); s < bd || best < 0 {
				best, bd = j, s
			}
		}
		if y[best] == y[i] {
			right++
		}
	}
	return float64(right) / float64(len(labelled))
}

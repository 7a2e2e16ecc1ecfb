package rank

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mathext"

	"github.com/tealab/tealab/datasets"
)

// MINeighbours is the k of the k-nearest-neighbour estimate of mutual
// information, scikit-learn's default n_neighbors.
const MINeighbours = 3

// discreteMI is the mutual information in nats between the codes x and
// the classes y, rows with a missing x left out: scikit-learn's
// mutual_info_score of the two.
func discreteMI(x, y []float64, levels, classes int) float64 {
	m := make([][]float64, levels)
	for i := range m {
		m[i] = make([]float64, classes)
	}
	var n float64
	for i, v := range x {
		if math.IsNaN(v) || int(v) < 0 || int(v) >= levels {
			continue
		}
		m[int(v)][int(y[i])]++
		n++
	}
	if n == 0 {
		return 0
	}
	rows := make([]float64, levels)
	cols := make([]float64, classes)
	for i, row := range m {
		for c, v := range row {
			rows[i] += v
			cols[c] += v
		}
	}
	var mi float64
	for i, row := range m {
		for c, v := range row {
			if v > 0 {
				mi += v / n * math.Log(v*n/(rows[i]*cols[c]))
			}
		}
	}
	return max(mi, 0)
}

// continuousMI is Ross's k-nearest-neighbour estimate (after Kraskov et
// al.) of the mutual information in nats between the numbers x and the
// classes y, as scikit-learn's mutual_info_classif makes it: x scaled to
// unit variance with a little seeded noise (1e-10 of its mean magnitude)
// to break ties, then for each row the distance to its k-th nearest row
// of its own class and the count of rows of any class within it. Rows
// with a missing x are left out, and so are rows alone in their class.
// The noise is tealab's own draw, not numpy's, so estimates on data with
// many tied values differ from scikit-learn's in the last digits.
func continuousMI(x, y []float64, classes int, rng *rand.Rand) float64 {
	var xs []float64
	var ys []int
	for i, v := range x {
		if !math.IsNaN(v) {
			xs = append(xs, v)
			ys = append(ys, int(y[i]))
		}
	}
	n := len(xs)
	if n < 2 {
		return 0
	}
	_, std := datasets.MeanStd(xs)
	if std == 0 || math.IsNaN(std) {
		std = 1
	}
	var mag float64
	for i := range xs {
		xs[i] /= std
		mag += math.Abs(xs[i])
	}
	scale := 1e-10 * max(1, mag/float64(n))
	for i := range xs {
		xs[i] += scale * rng.NormFloat64()
	}
	byClass := make([][]float64, classes)
	for i, v := range xs {
		byClass[ys[i]] = append(byClass[ys[i]], v)
	}
	for _, c := range byClass {
		slices.Sort(c)
	}
	var all []float64
	var psiK, psiN, psiM float64
	used := 0
	for i, v := range xs {
		if len(byClass[ys[i]]) >= 2 {
			all = append(all, v)
		}
	}
	slices.Sort(all)
	for i, v := range xs {
		same := byClass[ys[i]]
		cnt := len(same)
		if cnt < 2 {
			continue
		}
		k := min(MINeighbours, cnt-1)
		r := math.Nextafter(kthDistance(same, v, k), 0)
		lo, hi := within(all, v, r)
		psiK += mathext.Digamma(float64(k))
		psiN += mathext.Digamma(float64(cnt))
		psiM += mathext.Digamma(float64(hi - lo))
		used++
	}
	if used == 0 {
		return 0
	}
	u := float64(used)
	mi := mathext.Digamma(u) + psiK/u - psiN/u - psiM/u
	return max(mi, 0)
}

// kthDistance is the distance from v (one of the sorted values s) to its
// k-th nearest other value of s.
func kthDistance(s []float64, v float64, k int) float64 {
	at := sort.SearchFloat64s(s, v)
	for at < len(s)-1 && s[at] != v {
		at++
	}
	l, r := at-1, at+1
	var d float64
	for range k {
		switch {
		case l < 0:
			d = s[r] - v
			r++
		case r >= len(s):
			d = v - s[l]
			l--
		case v-s[l] <= s[r]-v:
			d = v - s[l]
			l--
		default:
			d = s[r] - v
			r++
		}
	}
	return d
}

// within finds the sorted values all[lo:hi] at most r from v, each
// distance taken as |a − v| (v ± r would round at v's scale, not r's).
func within(all []float64, v, r float64) (lo, hi int) {
	lo = sort.SearchFloat64s(all, v-r)
	for lo < len(all) && v-all[lo] > r {
		lo++
	}
	for lo > 0 && v-all[lo-1] <= r {
		lo--
	}
	hi = sort.SearchFloat64s(all, v+r)
	for hi < len(all) && all[hi]-v <= r {
		hi++
	}
	for hi > lo && all[hi-1]-v > r {
		hi--
	}
	return lo, hi
}

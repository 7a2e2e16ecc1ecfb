package boosting

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// binner maps each feature's values to at most 256 bin codes, once per fit,
// so that split finding sums gradients per bin instead of sorting rows.
// Bin 0 holds missing values on every feature. A numeric feature's bin b ≥ 1
// holds the values in (cuts[b-2], cuts[b-1]]; the last bin every value above
// the last cut. A nominal feature's most frequent levels get a bin each, in
// order of frequency; the rest of its levels (rare, or absent from the
// training rows) share one last bin, "other".
type binner struct {
	nominal   []bool
	cuts      [][]float64 // numeric features: increasing finite cut values
	levelBin  [][]uint8   // nominal features: the bin of each level code
	levels    [][]string  // nominal features: level names
	nbins     []int       // bins of each feature, missing bin included
	otherBin  []int       // nominal features: the bin of the other levels
	quantRows int         // rows the cuts were read from (a sample above maxQuantileRows)
}

// maxQuantileRows bounds the rows a numeric feature's cuts are read from:
// a sample of this many rows places quantiles to well within a bin's width
// at any size (scikit-learn's HistGradientBoosting samples 200,000 too).
const maxQuantileRows = 200_000

// newBinner reads the cuts from the training rows rows of X (column-major
// access by the caller's at), with at most maxBins value bins per feature.
func newBinner(t engine.Train, rows []int32, maxBins int, seed uint64) (*binner, error) {
	p := t.Cols()
	b := &binner{nominal: make([]bool, p), cuts: make([][]float64, p), levelBin: make([][]uint8, p),
		levels: make([][]string, p), nbins: make([]int, p), otherBin: make([]int, p)}
	sample := rows
	if len(rows) > maxQuantileRows {
		r := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc908))
		sample = slices.Clone(rows)
		for i := range maxQuantileRows {
			k := i + r.IntN(len(sample)-i)
			sample[i], sample[k] = sample[k], sample[i]
		}
		sample = sample[:maxQuantileRows]
		slices.Sort(sample)
	}
	b.quantRows = len(sample)
	vals := make([]float64, 0, len(sample))
	var sorter radix
	for j := range p {
		if j < len(t.Columns) && t.Columns[j].Kind == datasets.Nominal {
			if err := b.nominalBins(t, j, rows, maxBins); err != nil {
				return nil, err
			}
			continue
		}
		vals = vals[:0]
		for _, i := range sample {
			if v := t.X.At(int(i), j); !math.IsNaN(v) && !math.IsInf(v, 0) {
				vals = append(vals, v)
			}
		}
		b.cuts[j] = numericCuts(vals, maxBins, &sorter)
		b.nbins[j] = len(b.cuts[j]) + 2
	}
	return b, nil
}

// numericCuts places at most maxBins-1 cuts: midway between neighbouring
// distinct values when there are few enough of them, else at the
// quantiles of the values (midway between the two values a quantile falls
// between), duplicates dropped.
func numericCuts(vals []float64, maxBins int, sorter *radix) []float64 {
	if len(vals) == 0 {
		return nil
	}
	sorter.sort(vals)
	distinct := 1
	for i := 1; i < len(vals); i++ {
		if vals[i] != vals[i-1] {
			distinct++
		}
	}
	var cuts []float64
	if distinct <= maxBins {
		for i := 1; i < len(vals); i++ {
			if vals[i] != vals[i-1] {
				cuts = append(cuts, vals[i-1]+(vals[i]-vals[i-1])/2)
			}
		}
		return cuts
	}
	n := len(vals)
	for q := 1; q < maxBins; q++ {
		k := q * n / maxBins
		if k <= 0 || k >= n {
			continue
		}
		lo, hi := vals[k-1], vals[k]
		c := lo + (hi-lo)/2
		if len(cuts) == 0 || c > cuts[len(cuts)-1] {
			cuts = append(cuts, c)
		}
	}
	return cuts
}

// nominalBins gives feature j's levels their bins: one each for the
// maxBins-1 most frequent levels of the training rows, one for the rest.
func (b *binner) nominalBins(t engine.Train, j int, rows []int32, maxBins int) error {
	col := t.Columns[j]
	L := len(col.Levels)
	count := make([]int, L)
	for _, i := range rows {
		v := t.X.At(int(i), j)
		if math.IsNaN(v) {
			continue
		}
		c := int(v)
		if float64(c) != v || c < 0 || c >= L {
			return fmt.Errorf("gbdt: row %d, feature %s: level code %v is not one of 0..%d", i+1, engine.FeatureName(t.Features, j), v, L-1)
		}
		count[c]++
	}
	order := make([]int, 0, L)
	for c, n := range count {
		if n > 0 {
			order = append(order, c)
		}
	}
	slices.SortStableFunc(order, func(a, c int) int { return cmp.Compare(count[c], count[a]) })
	if len(order) > maxBins-1 {
		order = order[:maxBins-1]
	}
	other := len(order) + 1
	lb := make([]uint8, L)
	for c := range lb {
		lb[c] = uint8(other)
	}
	for k, c := range order {
		lb[c] = uint8(k + 1)
	}
	b.nominal[j], b.levelBin[j], b.levels[j], b.otherBin[j], b.nbins[j] = true, lb, col.Levels, other, other+1
	return nil
}

// bin is the bin of value v of feature j.
func (b *binner) bin(j int, v float64) uint8 {
	if math.IsNaN(v) {
		return 0
	}
	if b.nominal[j] {
		c := int(v)
		if float64(c) != v || c < 0 || c >= len(b.levelBin[j]) {
			return 0 // a level the fit never knew: missing, as model files take it
		}
		return b.levelBin[j][c]
	}
	return uint8(sort.SearchFloat64s(b.cuts[j], v) + 1)
}

// codes bins the rows of X, column-major: codes[j*n+i] is row i's bin of
// feature j. X is read row by row (a column at a time would fetch a cache
// line for every value of a tall matrix), each numeric value placed by a
// search of fixed steps among its feature's cut keys.
func (b *binner) codes(t engine.Train) []uint8 {
	n, p := t.X.Dims()
	out := make([]uint8, n*p)
	raw := t.X.RawMatrix()
	keys := make([][256]uint64, p)
	for j := range p {
		for k := range keys[j] {
			keys[j][k] = orderKey(math.Inf(1))
		}
		for k, c := range b.cuts[j] {
			keys[j][k] = orderKey(c)
		}
	}
	for i := range n {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		for j, v := range row {
			var c uint8
			switch {
			case b.nominal[j]:
				c = b.bin(j, v)
			case v == v:
				c = uint8(countBelow(&keys[j], orderKey(v)) + 1)
			}
			out[j*n+i] = c
		}
	}
	return out
}

// orderKey maps a float64 (not NaN) to a uint64 of the same order; −0
// and 0, equal as numbers, get one key.
func orderKey(x float64) uint64 {
	b := math.Float64bits(x + 0) // −0 + 0 is 0
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// countBelow is the number of the padded cut keys below key v, by a binary
// search of eight fixed steps on integers, each comparison the borrow of a
// subtraction: binning a large matrix mispredicts no branch.
func countBelow(c *[256]uint64, v uint64) int {
	i := 0
	for s := 7; s >= 0; s-- {
		_, below := bits.Sub64(c[(i+1<<s-1)&255], v, 0)
		i += int(below) << s
	}
	return i
}

// searchCut is the number of cuts below v (sort.SearchFloat64s without
// the closure, for binning every value of a large matrix).
func searchCut(cuts []float64, v float64) int {
	lo, hi := 0, len(cuts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cuts[m] < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// radix sorts finite values by their bits (11 bits a pass, six passes):
// several times faster than a comparison sort on the tens of thousands of
// values a feature's cuts are read from. Its buffers serve feature after
// feature.
type radix struct{ keys, tmp []uint64 }

func (rs *radix) sort(v []float64) {
	if len(v) < 2048 {
		slices.Sort(v)
		return
	}
	if cap(rs.keys) < len(v) {
		rs.keys, rs.tmp = make([]uint64, len(v)), make([]uint64, len(v))
	}
	keys, tmp := rs.keys[:len(v)], rs.tmp[:len(v)]
	for i, x := range v {
		keys[i] = orderKey(x)
	}
	var count [2048]int
	for shift := uint(0); shift < 64; shift += 11 {
		clear(count[:])
		for _, k := range keys {
			count[(k>>shift)&2047]++
		}
		if count[(keys[0]>>shift)&2047] == len(keys) {
			continue // every key has this digit: nothing moves
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range keys {
			d := (k >> shift) & 2047
			tmp[count[d]] = k
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	for i, b := range keys {
		if b>>63 != 0 {
			b &^= 1 << 63
		} else {
			b = ^b
		}
		v[i] = math.Float64frombits(b)
	}
}

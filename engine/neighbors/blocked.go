package neighbors

import (
	"math"
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// Exhaustive search in blocks. Euclidean distances come from matrix
// products, |a|² + |b|² − 2a·b in float32 (as faiss does), which only pick
// candidates: every row the float32 sums cannot rule out, with a margin
// that bounds their rounding, gets its exact squared distance (direct
// differences, as bruteSearch), so the neighbours and their ties are
// exactly those of the row-by-row search. Other metrics are exact, tile by
// tile. Queries go to the workers sixteen at a time.

const (
	queryBlock = 16 // queries a worker takes at a time: the scan's lanes
	firstChunk = 32 // training rows scanned before the first threshold update
	maxChunk   = 4096
	tileRows   = 256 // training rows an exact tile keeps in cache
	// maxScaled bounds a query's scaled coordinates for the float32 scan
	// (its squares stay far inside float32's range); a query beyond is
	// searched row by row.
	maxScaled = 1 << 50
)

// floor is the absolute slack of the float32 scan, in scaled units, that
// covers what relative bounds do not: coordinates and products below
// float32's normal range (absolute errors of at most 2⁻¹⁴⁹ each).
func floor(p int) float64 { return float64(p) * 0x1p-90 }

// slack is the relative margin of the float32 scan for p features: twice
// a bound on the rounding of the sums (p+8 float32 roundings of |a|²+|b|²).
func slack(p int) float64 { return 2 * float64(p+8) * 0x1p-24 }

// l2Scan holds the training rows for the float32 scan: centred on their
// mean and scaled by a power of two so that every coordinate is below 1
// (distances do not change but for the exact factor scale²), with squared
// norms lowered by the margin (so that one comparison per row and query
// allows for the rounding).
type l2Scan struct {
	n, p   int
	centre []float64
	scale  float64
	x      []float32 // the rows, padded with zero rows to a multiple of four
	nb     []float32 // lowered squared norms; NaN on the padding rows
}

// newL2Scan prepares the rows, or returns nil where they reach so near
// float64's limits that centring them overflows (exact tiles search them).
func newL2Scan(x []float64, n, p int) *l2Scan {
	s := &l2Scan{n: n, p: p, centre: make([]float64, p), scale: 1}
	for i := range n {
		for j, v := range x[i*p : (i+1)*p] {
			s.centre[j] += v
		}
	}
	for j := range s.centre {
		s.centre[j] /= float64(n)
	}
	largest := 0.0
	for i := range n {
		for j, v := range x[i*p : (i+1)*p] {
			largest = max(largest, math.Abs(v-s.centre[j]))
		}
	}
	if math.IsInf(largest, 0) || math.IsNaN(largest) {
		return nil
	}
	if largest > 0 {
		_, e := math.Frexp(largest) // largest < 2^e
		s.scale = math.Ldexp(1, -min(max(e, -1000), 1000))
	}
	padded := (n + 3) &^ 3
	s.x, s.nb = make([]float32, padded*p), make([]float32, padded)
	lower := 1 - slack(p)
	for i := range padded {
		if i >= n {
			s.nb[i] = float32(math.NaN())
			continue
		}
		s.nb[i] = roundDown32(s.convert(x[i*p:(i+1)*p], s.x[i*p:(i+1)*p]) * lower)
	}
	return s
}

// convert writes q's scaled, centred coordinates to a as float32 and
// returns their squared norm and, where a coordinate is beyond maxScaled,
// +Inf.
func (s *l2Scan) convert(q []float64, a []float32) float64 {
	norm := 0.0
	for j, v := range q {
		c := (v - s.centre[j]) * s.scale
		if !(math.Abs(c) <= maxScaled) {
			return math.Inf(1)
		}
		a[j] = float32(c)
		norm += float64(a[j]) * float64(a[j])
	}
	return norm
}

// threshold is the largest float32 sum a row can have when its exact
// squared distance is at most worst (the query's kth so far, in the data's
// units): worst in the scan's units, raised by the exact distance's own
// rounding (4(p+2) float64 roundings), less the query's scaled squared norm
// lowered by slack, plus floor. With the rows' norms lowered by the same
// slack, that covers the float32 sums' rounding on both sides.
func (s *l2Scan) threshold(worst, norm float64) float32 {
	if math.IsInf(worst, 1) {
		return float32(math.Inf(1))
	}
	w := worst * s.scale * s.scale * (1 + float64(4*(s.p+2))*0x1p-53)
	return roundUp32(w - norm*(1-slack(s.p)) + floor(s.p))
}

func roundDown32(v float64) float32 {
	f := float32(v)
	if float64(f) > v {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

func roundUp32(v float64) float32 {
	f := float32(v)
	if float64(f) < v {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// lanes is one worker's scratch for sixteen queries of the float32 scan.
type lanes struct {
	q    []float32 // p x 16: the queries' scaled coordinates times −2
	a    []float32 // one query's scaled coordinates
	norm [queryBlock]float64
	thr  [queryBlock]float32
	hits []uint32
}

// search finds the nearest rows of x (the training rows as given) to each
// of up to sixteen queries into bs (reset by the caller), leaving out row
// skip[v] for query v.
func (s *l2Scan) search(x []float64, queries [][]float64, skip []int32, bs []best, ln *lanes) {
	p := s.p
	if ln.q == nil {
		ln.q, ln.a, ln.hits = make([]float32, p*queryBlock), make([]float32, p), make([]uint32, maxChunk)
	}
	clear(ln.q)
	a := ln.a
	for v := range queryBlock {
		ln.thr[v] = float32(math.NaN()) // an empty lane: no hits
		if v >= len(queries) {
			continue
		}
		ln.norm[v] = s.convert(queries[v], a)
		if math.IsInf(ln.norm[v], 1) { // too far out for float32
			bruteSearch(x, s.n, p, queries[v], &bs[v], metric{"l2", 2}, skip[v])
			continue
		}
		for j, c := range a {
			ln.q[j*queryBlock+v] = -2 * c
		}
		ln.thr[v] = float32(math.Inf(1))
	}
	padded := len(s.nb)
	for start, size := 0, firstChunk; start < padded; start, size = start+size, min(2*size, maxChunk) {
		size = min(size, padded-start)
		hits := ln.hits[:kernel.DotsBelow(ln.hits, s.x[start*p:], p, size, p, ln.q, s.nb[start:], &ln.thr)]
		for _, h := range hits {
			i := start + int(h>>16)
			row := x[i*p : (i+1)*p]
			for mask := h & 0xffff; mask != 0; mask &= mask - 1 {
				v := bits.TrailingZeros32(mask)
				if int32(i) != skip[v] {
					bs[v].push(neighbor{kernel.SqDist(queries[v], row), int32(i)})
				}
			}
		}
		for v := range queries {
			if !math.IsNaN(float64(ln.thr[v])) {
				ln.thr[v] = s.threshold(bs[v].worst(), ln.norm[v])
			}
		}
	}
}

// tileSearch finds the nearest rows of X (n × p) to each query into bs
// (reset by the caller) under an exact metric, a tile of rows at a time
// that every query meets while it is in cache; a distance is given up as
// soon as it passes the query's kth so far.
func tileSearch(X []float64, n, p int, queries [][]float64, skip []int32, bs []best, m metric) {
	for start := 0; start < n; start += tileRows {
		end := min(start+tileRows, n)
		for v, q := range queries {
			b := &bs[v]
			for i := start; i < end; i++ {
				if int32(i) == skip[v] {
					continue
				}
				if r, ok := m.within(q, X[i*p:(i+1)*p], b.worst()); ok {
					b.push(neighbor{r, int32(i)})
				}
			}
		}
	}
}

// stopped reports whether the fit under way was cancelled (m.stop closed):
// a search for every training row's neighbours then ends within a block
// of queries, its result unused.
func (m *KNN) stopped() bool { return engine.Stopped(m.stop) }

// searchAll finds the k nearest training rows (with those as near as the
// kth) of each of the nq rows of Q (row-major, stride ld), sorted nearest
// first, leaving out training row skip[i] for query i when skip is not
// nil. Blocks of queries go to up to GOMAXPROCS workers; a query's
// neighbours depend on nothing else, so the result is the same on any
// number of cores.
func (m *KNN) searchAll(Q []float64, ld, nq int, skip []int32, k int) [][]neighbor {
	out := make([][]neighbor, nq)
	blocks := (nq + queryBlock - 1) / queryBlock
	var next atomic.Int64
	work := func() {
		var ln lanes
		bs := make([]best, queryBlock)
		queries := make([][]float64, 0, queryBlock)
		skips := make([]int32, queryBlock)
		for {
			blk := int(next.Add(1)) - 1
			if blk >= blocks || m.stopped() {
				return
			}
			lo, hi := blk*queryBlock, min((blk+1)*queryBlock, nq)
			queries = queries[:0]
			for i := lo; i < hi; i++ {
				queries = append(queries, Q[i*ld:i*ld+m.p])
				skips[i-lo] = -1
				if skip != nil {
					skips[i-lo] = skip[i]
				}
				bs[i-lo].reset(k)
			}
			m.searchBlock(queries, skips, bs, &ln)
			for v := range queries {
				out[lo+v] = bs[v].sorted(nil)
			}
		}
	}
	jobs := min(runtime.GOMAXPROCS(0), blocks)
	if jobs <= 1 {
		work()
		return out
	}
	engine.Workers(jobs, work)
	return out
}

// searchBlock finds the neighbours of up to sixteen queries into bs.
func (m *KNN) searchBlock(queries [][]float64, skip []int32, bs []best, ln *lanes) {
	switch {
	case m.tree != nil:
		for v, q := range queries {
			m.tree.search(q, &bs[v], m.m, m.Eps, skip[v])
		}
	case m.l2 != nil:
		m.l2.search(m.x, queries, skip, bs, ln)
	default:
		tileSearch(m.x, m.n, m.p, queries, skip, bs, m.m)
	}
}

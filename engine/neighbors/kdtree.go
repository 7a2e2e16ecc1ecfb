// Package neighbors holds k-nearest-neighbour classification and
// regression with exhaustive search and a k-d tree (Shewchuk, Concise Machine Learning,
// lectures 24-25; Verma, COMS 4771 notes, "Nearest Neighbors"; Hocking, CS499 Optimization Algorithms for ML, sections 2-4).
package neighbors

import (
	"math"
	"slices"

	"github.com/tealab/tealab/engine/kernel"
)

// metric measures distances in a reduced form that orders like the
// distance and is cheaper: the square for L2, Σ|d|^p for Lp, the distance
// itself for L1 and L∞.
type metric struct {
	name string
	p    float64 // Lp's p; 1, 2, +Inf for the named ones
}

// reduced is the reduced distance between a and b (L2 directly: the k-d
// tree's leaves are its hot loop).
func (m metric) reduced(a, b []float64) float64 {
	if m.p == 2 {
		return kernel.SqDist(a, b)
	}
	r, _ := m.within(a, b, math.Inf(1))
	return r
}

// within is the reduced distance between a and b if it is at most bound;
// otherwise it may stop early and say false. Sums only grow, so a partial
// sum beyond bound proves the whole is beyond it; a whole is the same sum,
// in the same order, whatever the bound.
func (m metric) within(a, b []float64, bound float64) (float64, bool) {
	s := 0.0
	switch m.p {
	case 2:
		s = kernel.SqDist(a, b)
	case 1:
		for j, v := range a {
			if s += math.Abs(v - b[j]); s > bound {
				return s, false
			}
		}
	case math.Inf(1):
		for j, v := range a {
			if s = max(s, math.Abs(v-b[j])); s > bound {
				return s, false
			}
		}
	default:
		for j, v := range a {
			if s += math.Pow(math.Abs(v-b[j]), m.p); s > bound {
				return s, false
			}
		}
	}
	return s, s <= bound
}

// gap adds the reduced contribution of a gap d >= 0 on one axis to a
// reduced distance s.
func (m metric) gap(s, d float64) float64 {
	switch m.p {
	case 2:
		return s + d*d
	case 1:
		return s + d
	case math.Inf(1):
		return max(s, d)
	}
	return s + math.Pow(d, m.p)
}

// scale is the factor (1+eps) becomes on reduced distances.
func (m metric) scale(eps float64) float64 {
	switch m.p {
	case 1, math.Inf(1):
		return 1 + eps
	}
	return math.Pow(1+eps, m.p)
}

// neighbor is a training row and its reduced distance to a query. Equal
// distances are ordered by row, so that every search finds the same
// neighbours in the same order.
type neighbor struct {
	r   float64
	row int32
}

func (a neighbor) less(b neighbor) bool { return a.r < b.r || (a.r == b.r && a.row < b.row) }

// best keeps the k nearest neighbours seen, as a max-heap on (r, row), and
// every other one as near as the kth (ties): all of them vote.
type best struct {
	k    int
	h    []neighbor
	ties []neighbor // at the kth distance, beyond the k
}

func (b *best) reset(k int) { b.k, b.h, b.ties = k, b.h[:0], b.ties[:0] }

func (b *best) full() bool { return len(b.h) == b.k }

// worst is the kth distance so far (+Inf until k are known).
func (b *best) worst() float64 {
	if len(b.h) < b.k {
		return math.Inf(1)
	}
	return b.h[0].r
}

func (b *best) push(n neighbor) {
	if len(b.h) < b.k {
		b.h = append(b.h, n)
		for i := len(b.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !b.h[p].less(b.h[i]) {
				break
			}
			b.h[p], b.h[i] = b.h[i], b.h[p]
			i = p
		}
		return
	}
	switch {
	case n.r > b.h[0].r:
		return
	case n.r == b.h[0].r:
		b.ties = append(b.ties, n)
		return
	}
	out := b.h[0]
	b.h[0] = n
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(b.h) && b.h[m].less(b.h[l]) {
			m = l
		}
		if r < len(b.h) && b.h[m].less(b.h[r]) {
			m = r
		}
		if m == i {
			break
		}
		b.h[m], b.h[i] = b.h[i], b.h[m]
		i = m
	}
	// The evicted one stays if it still ties with the new kth; the old
	// ties were at its distance.
	if out.r == b.h[0].r {
		b.ties = append(b.ties, out)
	} else {
		b.ties = b.ties[:0]
	}
}

// sorted writes the neighbours, ties included, nearest first (equal
// distances by row) into out.
func (b *best) sorted(out []neighbor) []neighbor {
	out = append(append(out[:0], b.h...), b.ties...)
	slices.SortFunc(out, func(x, y neighbor) int {
		if x.less(y) {
			return -1
		}
		if y.less(x) {
			return 1
		}
		return 0
	})
	return out
}

// kdTree is the k-d tree of Shewchuk, Concise Machine Learning, lecture 25: each node splits its points on the
// feature of greatest width at the median, down to leaves of at most
// leafSize points. The points are copied in tree order, so that a leaf's
// points are contiguous; each node keeps its bounding box, whose distance
// to a query prunes whole subtrees.
type kdTree struct {
	p        int
	pts      []float64 // the points in tree order, p values each
	rows     []int32   // the training row of each point in tree order
	slot     []int32   // the tree-order position of each training row
	nodes    []kdNode
	lo, hi   []float64 // bounding boxes, p values a node
	leafSize int
	keys     []keyed // scratch while building
	tmp      []int32
}

type kdNode struct {
	start, end  int32 // points [start, end)
	dim         int32 // split feature; -1 for a leaf
	split       float64
	left, right int32
}

// buildKD builds the tree over the n rows of X (row-major, p values each).
// The points are copied once and moved with their rows as the splits
// reorder them, so every node's box is measured over contiguous memory.
func buildKD(X []float64, n, p, leafSize int) *kdTree {
	t := &kdTree{p: p, leafSize: max(leafSize, 1), rows: make([]int32, n), keys: make([]keyed, n), tmp: make([]int32, n),
		pts: append([]float64(nil), X[:n*p]...)}
	for i := range t.rows {
		t.rows[i] = int32(i)
	}
	scratch := make([]float64, n*p)
	t.build(scratch, 0, n)
	t.keys, t.tmp = nil, nil
	t.slot = make([]int32, n)
	for k, r := range t.rows {
		t.slot[r] = int32(k)
	}
	return t
}

// build makes the node of points [start, end) and returns its index.
func (t *kdTree) build(scratch []float64, start, end int) int32 {
	p := t.p
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, kdNode{start: int32(start), end: int32(end), dim: -1, left: -1, right: -1})
	base := len(t.lo)
	t.lo, t.hi = append(t.lo, make([]float64, p)...), append(t.hi, make([]float64, p)...)
	lo, hi := t.lo[base:base+p], t.hi[base:base+p]
	pts := t.pts[start*p : end*p]
	copy(lo, pts[:p])
	copy(hi, pts[:p])
	for k := p; k < len(pts); k += p {
		for j, v := range pts[k : k+p] {
			if v < lo[j] {
				lo[j] = v
			} else if v > hi[j] {
				hi[j] = v
			}
		}
	}
	if end-start <= t.leafSize {
		return id
	}
	dim, width := 0, -1.0
	for j := range p {
		if w := hi[j] - lo[j]; w > width {
			dim, width = j, w
		}
	}
	if width <= 0 {
		return id // every point the same: a leaf however many
	}
	mid := (start + end) / 2
	ks := t.keys[:end-start]
	for k := range ks {
		ks[k] = keyed{pts[k*p+dim], int32(k)}
	}
	selectNth(ks, mid-start)
	// Reorder the points (and their rows) as the selection left them.
	sc := scratch[start*p : end*p]
	rows := t.rows[start:end]
	tmp := t.tmp[:len(rows)]
	for k, kv := range ks {
		copy(sc[k*p:(k+1)*p], pts[int(kv.r)*p:int(kv.r+1)*p])
		tmp[k] = rows[kv.r]
	}
	copy(pts, sc)
	copy(rows, tmp)
	split := ks[mid-start].v
	l := t.build(scratch, start, mid)
	r := t.build(scratch, mid, end)
	t.nodes[id].dim, t.nodes[id].split, t.nodes[id].left, t.nodes[id].right = int32(dim), split, l, r
	return id
}

// keyed is a point's coordinate on the split feature and its position in
// the node.
type keyed struct {
	v float64
	r int32
}

func (a keyed) less(b keyed) bool { return a.v < b.v || (a.v == b.v && a.r < b.r) }

// selectNth reorders ks so that ks[k] is the kth smallest, smaller ones
// before it and larger ones after (quickselect, median-of-three pivots;
// ties by position, so the build is deterministic).
func selectNth(ks []keyed, k int) {
	lo, hi := 0, len(ks)-1
	for lo < hi {
		m := lo + (hi-lo)/2
		if ks[m].less(ks[lo]) {
			ks[m], ks[lo] = ks[lo], ks[m]
		}
		if ks[hi].less(ks[lo]) {
			ks[hi], ks[lo] = ks[lo], ks[hi]
		}
		if ks[hi].less(ks[m]) {
			ks[hi], ks[m] = ks[m], ks[hi]
		}
		pivot := ks[m]
		i, j := lo, hi
		for i <= j {
			for ks[i].less(pivot) {
				i++
			}
			for pivot.less(ks[j]) {
				j--
			}
			if i <= j {
				ks[i], ks[j] = ks[j], ks[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// search finds the k nearest training rows to q (skipping row skip, -1 for
// none) into b. With eps > 0 a subtree is skipped when (1+eps) times its
// distance is at least the kth distance so far: every neighbour found is
// then within (1+eps) of the true one (Shewchuk's approximate search). It
// returns the number of nodes visited.
func (t *kdTree) search(q []float64, b *best, m metric, eps float64, skip int32) int {
	return t.visit(0, q, b, m, m.scale(eps), skip)
}

func (t *kdTree) visit(id int32, q []float64, b *best, m metric, scale float64, skip int32) int {
	nd := &t.nodes[id]
	if nd.dim < 0 {
		p := t.p
		for k := nd.start; k < nd.end; k++ {
			if t.rows[k] == skip {
				continue
			}
			r := m.reduced(q, t.pts[int(k)*p:int(k+1)*p])
			b.push(neighbor{r, t.rows[k]})
		}
		return 1
	}
	first, second := nd.left, nd.right
	if q[nd.dim] > nd.split {
		first, second = second, first
	}
	// The near side first, always; the far side only if its box can hold
	// a point nearer than the kth so far (an exact search looks into a box
	// at exactly the kth distance: a point there with a lower row would
	// win the tie).
	visited := 1 + t.visit(first, q, b, m, scale, skip)
	if b.full() {
		bd, w := t.boxDistance(second, q, m), b.worst()
		if (scale > 1 && scale*bd >= w) || bd > w {
			return visited
		}
	}
	return visited + t.visit(second, q, b, m, scale, skip)
}

// boxDistance is the reduced distance from q to node id's bounding box.
func (t *kdTree) boxDistance(id int32, q []float64, m metric) float64 {
	p := t.p
	lo, hi := t.lo[int(id)*p:int(id+1)*p], t.hi[int(id)*p:int(id+1)*p]
	s := 0.0
	for j, v := range q {
		switch {
		case v < lo[j]:
			s = m.gap(s, lo[j]-v)
		case v > hi[j]:
			s = m.gap(s, v-hi[j])
		}
	}
	return s
}

// bruteSearch finds the k nearest rows of X (n × p) to q by looking at
// every one: the reference the tree must equal, and the fastest search in
// many dimensions.
func bruteSearch(X []float64, n, p int, q []float64, b *best, m metric, skip int32) {
	for i := range n {
		if int32(i) == skip {
			continue
		}
		b.push(neighbor{m.reduced(q, X[i*p:(i+1)*p]), int32(i)})
	}
}

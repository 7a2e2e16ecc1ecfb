package boosting

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"

	"github.com/tealab/tealab/engine"
)

// gpair is a row's gradient and hessian of the loss, or their sums over a
// bin or a node.
type gpair struct{ g, h float64 }

// tree is one fitted regression tree on the raw scores. Node 0 is the root;
// children come after their parent. A split on a numeric feature sends
// bins 1..bin left (values up to the cut thresh), one on a nominal
// feature the bins of its set cats; missing values (bin 0) go left when
// defLeft says so.
type tree struct {
	feature []int32 // -1 at a leaf
	bin     []uint8 // numeric splits: the last bin that goes left
	cats    []int32 // nominal splits: index into catsets; -1 otherwise
	catsets [][4]uint64
	left    []int32
	right   []int32
	defLeft []bool    // missing values go left
	missing []bool    // the node's training rows had missing values of its feature
	value   []float64 // the node's output as a leaf (shrunk): at leaves what the tree adds
	gain    []float64 // the split's gain (0 at leaves)
	cover   []float64 // the hessian of the node's training rows
	count   []int32   // training rows that reached the node
	thresh  []float64 // numeric splits: the cut value (derived from the binner)
}

func (t *tree) nodes() int { return len(t.feature) }

// addNode appends a leaf and returns its index.
func (t *tree) addNode(value, cover float64, count int) int32 {
	t.feature = append(t.feature, -1)
	t.bin = append(t.bin, 0)
	t.cats = append(t.cats, -1)
	t.left = append(t.left, -1)
	t.right = append(t.right, -1)
	t.defLeft = append(t.defLeft, false)
	t.missing = append(t.missing, false)
	t.value = append(t.value, value)
	t.gain = append(t.gain, 0)
	t.cover = append(t.cover, cover)
	t.count = append(t.count, int32(count))
	t.thresh = append(t.thresh, math.NaN())
	return int32(len(t.feature) - 1)
}

// leaves counts the leaves.
func (t *tree) leaves() int {
	n := 0
	for _, f := range t.feature {
		if f < 0 {
			n++
		}
	}
	return n
}

// goesLeft says where bin b of node i's feature goes.
func (t *tree) goesLeft(i int32, b uint8) bool {
	if b == 0 {
		return t.defLeft[i]
	}
	if c := t.cats[i]; c >= 0 {
		return t.catsets[c][b>>6]&(1<<(b&63)) != 0
	}
	return b <= t.bin[i]
}

// leafBinned is the leaf row i of the binned matrix codes (n rows) reaches.
func (t *tree) leafBinned(codes []uint8, n, i int) int32 {
	k := int32(0)
	for t.feature[k] >= 0 {
		if t.goesLeft(k, codes[int(t.feature[k])*n+i]) {
			k = t.left[k]
		} else {
			k = t.right[k]
		}
	}
	return k
}

// growConfig is what shapes a tree.
type growConfig struct {
	lambda, minChild float64
	minLeaf          int // fewest rows a child may hold, estimated from its hessian
	maxDepth         int // 0: no limit
	maxLeaves        int // 0: depth-wise; > 0: best first, up to this many leaves
	shrink           float64
	jobs             int
}

// split is the best split found for a node.
type split struct {
	feature int32 // -1: none
	bin     uint8
	nominal bool
	cats    [4]uint64
	defLeft bool
	missing bool
	gain    float64
	l, r    gpair
}

// leafCand is a leaf of the tree being grown, with its rows (a range of
// grower.rows), their sums, histogram and best split.
type leafCand struct {
	node   int32
	lo, hi int
	depth  int
	sum    gpair
	hist   []gpair // nil when it will not be split
	best   split
}

// grower grows trees on the binned rows. Its buffers are kept from tree to
// tree, so that growing allocates little beyond the trees.
type grower struct {
	n       int     // rows of codes
	codes   []uint8 // column-major bins
	nbins   []int
	off     []int // each feature's place in a histogram
	hsize   int
	nominal []bool
	cfg     growConfig

	minH    float64 // the least hessian a child of the node being split may hold (findSplit)
	gh      []gpair // the current tree's gradients, per row of codes
	ordered []gpair // a node's gradients in the order of its rows
	rows    []int32 // the current tree's rows, partitioned node by node
	scratch []int32
	feats   []int // the features this tree may split on, increasing
	pool    [][]gpair
	perFeat []split
	stop    <-chan struct{}
}

func newGrower(b *binner, codes []uint8, n int, cfg growConfig) *grower {
	g := &grower{n: n, codes: codes, nbins: b.nbins, nominal: b.nominal, cfg: cfg}
	g.off = make([]int, len(b.nbins))
	for j, nb := range b.nbins {
		g.off[j] = g.hsize
		g.hsize += nb
	}
	g.perFeat = make([]split, len(b.nbins))
	return g
}

func (g *grower) hist() []gpair {
	if k := len(g.pool); k > 0 {
		h := g.pool[k-1]
		g.pool = g.pool[:k-1]
		return h
	}
	return make([]gpair, g.hsize)
}

func (g *grower) release(h []gpair) {
	if h != nil {
		g.pool = append(g.pool, h)
	}
}

// parallel says whether work of this size is worth the goroutines.
func (g *grower) parallel(rows int) bool {
	return g.cfg.jobs > 1 && rows*len(g.feats) >= 1<<15
}

// forFeatures runs f on every feature of the tree: on cfg.jobs goroutines
// when the work is large, each feature by one goroutine from start to end,
// so that every sum is taken in the same order whatever the jobs.
func (g *grower) forFeatures(rows int, f func(j int)) {
	if !g.parallel(rows) {
		for _, j := range g.feats {
			f(j)
		}
		return
	}
	var next atomic.Int64
	engine.Workers(min(g.cfg.jobs, len(g.feats)), func() {
		for {
			k := int(next.Add(1)) - 1
			if k >= len(g.feats) {
				return
			}
			f(g.feats[k])
		}
	})
}

// forGroups runs f on groups 0..groups-1 of the tree's features, as
// forFeatures runs it on features.
func (g *grower) forGroups(rows, groups int, f func(k int)) {
	if !g.parallel(rows) {
		for k := range groups {
			f(k)
		}
		return
	}
	var next atomic.Int64
	engine.Workers(min(g.cfg.jobs, groups), func() {
		for {
			k := int(next.Add(1)) - 1
			if k >= groups {
				return
			}
			f(k)
		}
	})
}

// build sums the gradients of rows into h, feature by feature. The rows'
// gradients are first gathered in the rows' order (LightGBM's ordered
// gradients), so that each feature's pass reads them in sequence and only
// its bin codes by row index.
func (g *grower) build(h []gpair, rows []int32) {
	if cap(g.ordered) < len(rows) {
		g.ordered = make([]gpair, len(g.rows))
	}
	ordered := g.ordered[:len(rows)]
	for k, r := range rows {
		ordered[k] = g.gh[r]
	}
	// Features go by fours, one pass over the rows for four histograms:
	// the rows' indices and gradients are read once for the four.
	groups := (len(g.feats) + 3) / 4
	g.forGroups(len(rows), groups, func(k int) {
		fs := g.feats[4*k : min(4*k+4, len(g.feats))]
		var segs [4][]gpair
		var cols [4][]uint8
		for q, j := range fs {
			segs[q] = h[g.off[j] : g.off[j]+g.nbins[j]]
			clear(segs[q])
			cols[q] = g.codes[j*g.n : (j+1)*g.n]
		}
		if len(fs) == 4 {
			histFour(&segs, &cols, rows, ordered)
			return
		}
		for q := range fs {
			histFeature(segs[q], cols[q], rows, ordered)
		}
	})
}

// histFour is histFeature for four features at once.
func histFour(segs *[4][]gpair, cols *[4][]uint8, rows []int32, gh []gpair) {
	s0, s1, s2, s3 := segs[0], segs[1], segs[2], segs[3]
	c0, c1, c2, c3 := cols[0], cols[1], cols[2], cols[3]
	gh = gh[:len(rows)]
	for i, r := range rows {
		p := gh[i]
		a := &s0[c0[r]]
		a.g += p.g
		a.h += p.h
		a = &s1[c1[r]]
		a.g += p.g
		a.h += p.h
		a = &s2[c2[r]]
		a.g += p.g
		a.h += p.h
		a = &s3[c3[r]]
		a.g += p.g
		a.h += p.h
	}
}

// histFeature adds each row's gradient pair (gh, in the order of rows) to
// the bin it falls in.
func histFeature(seg []gpair, col []uint8, rows []int32, gh []gpair) {
	gh = gh[:len(rows)]
	i := 0
	for ; i+4 <= len(rows); i += 4 { // four rows at a time: fewer loop overheads, more loads in flight
		r0, r1, r2, r3 := rows[i], rows[i+1], rows[i+2], rows[i+3]
		b0, b1, b2, b3 := col[r0], col[r1], col[r2], col[r3]
		p0, p1, p2, p3 := gh[i], gh[i+1], gh[i+2], gh[i+3]
		s := &seg[b0]
		s.g += p0.g
		s.h += p0.h
		s = &seg[b1]
		s.g += p1.g
		s.h += p1.h
		s = &seg[b2]
		s.g += p2.g
		s.h += p2.h
		s = &seg[b3]
		s.g += p3.g
		s.h += p3.h
	}
	for ; i < len(rows); i++ {
		s := &seg[col[rows[i]]]
		s.g += gh[i].g
		s.h += gh[i].h
	}
}

// score is the structure score G²/(H+λ) of a node's sums.
func (g *grower) score(s gpair) float64 {
	d := s.h + g.cfg.lambda
	if d <= 0 {
		return 0
	}
	return s.g * s.g / d
}

// weight is a node's output as a leaf: −G/(H+λ), shrunk.
func (g *grower) weight(s gpair) float64 {
	d := s.h + g.cfg.lambda
	if d <= 0 {
		return 0
	}
	return -s.g / d * g.cfg.shrink
}

// findSplit finds the best split of a node with sums sum and histogram h:
// each feature's best, then the best of those (the lowest feature among
// equals), so that the search does not depend on how features are shared
// among goroutines.
//
// A child's rows are not counted: as LightGBM does, they are estimated from
// its hessian at the node's rows per unit of hessian (exact for the squared
// loss, whose hessian is 1 a row), so that min_samples_leaf is one more
// least hessian, the node's, beside min_child_weight.
func (g *grower) findSplit(h []gpair, sum gpair, rows int) split {
	if rows < 2*g.cfg.minLeaf || !(sum.h > 0) {
		return split{feature: -1}
	}
	g.minH = max(g.cfg.minChild, float64(g.cfg.minLeaf)*sum.h/float64(rows), 1e-12)
	parent := g.score(sum)
	g.forFeatures(rows, func(j int) {
		seg := h[g.off[j] : g.off[j]+g.nbins[j]]
		if g.nominal[j] {
			g.perFeat[j] = g.nominalSplit(seg, sum, parent)
		} else {
			g.perFeat[j] = g.numericSplit(seg, sum, parent)
		}
		g.perFeat[j].feature = int32(j)
	})
	best := split{feature: -1}
	for _, j := range g.feats {
		if s := g.perFeat[j]; s.gain > best.gain {
			best = s
		}
	}
	if best.gain <= 1e-12*(1+parent) {
		best.feature = -1
	}
	return best
}

// try scores the split into left l and right sum-l, if both sides hold
// enough hessian, and keeps it in best when it gains more.
func (g *grower) try(best *split, l, sum gpair, parent float64) bool {
	r := gpair{sum.g - l.g, sum.h - l.h}
	if l.h < g.minH || r.h < g.minH {
		return false
	}
	gain := 0.5 * (g.score(l) + g.score(r) - parent)
	if gain > best.gain {
		best.gain, best.l, best.r = gain, l, r
		return true
	}
	return false
}

// numericSplit scans the thresholds between bins, with the missing values
// on the right and then on the left, as XGBoost learns a default direction.
func (g *grower) numericSplit(seg []gpair, sum gpair, parent float64) split {
	best := split{}
	miss := seg[0]
	best.missing = miss.h > 0 || miss.g != 0
	lam, mc := g.cfg.lambda, g.minH
	// The scan compares G_L²/(H_L+λ) + G_R²/(H_R+λ) alone; the gain, half
	// of it less the parent's score, is taken for the best at the end.
	top, at, left := parent, 0, false
	var l, bl gpair
	for b := 1; b < len(seg)-1; b++ {
		e := seg[b]
		if e.h == 0 && e.g == 0 {
			continue // an empty bin: the same split as the bin before
		}
		l.g += e.g
		l.h += e.h
		if l.h < mc {
			continue
		}
		rh := sum.h - l.h
		if rh < mc {
			break // the right side only loses hessian from here on
		}
		rg := sum.g - l.g
		if s := l.g*l.g/(l.h+lam) + rg*rg/(rh+lam); s > top {
			top, at, left, bl = s, b, false, l
		}
		if best.missing {
			lg, lh := l.g+miss.g, l.h+miss.h
			if rh -= miss.h; rh >= mc {
				rg -= miss.g
				if s := lg*lg/(lh+lam) + rg*rg/(rh+lam); s > top {
					top, at, left, bl = s, b, true, gpair{lg, lh}
				}
			}
		}
	}
	if at == 0 {
		return best
	}
	best.bin, best.defLeft, best.gain = uint8(at), left, 0.5*(top-parent)
	best.l, best.r = bl, gpair{sum.g - bl.g, sum.h - bl.h}
	if !best.missing {
		best.defLeft = best.l.h >= best.r.h // unseen missing values follow the heavier side
	}
	return best
}

// nominalSplit orders a nominal feature's levels by their gradient over
// hessian (their leaf weight, as LightGBM does) and scans the prefixes of
// that order: the best partition of the levels in two for a second-order
// loss, found in one pass.
func (g *grower) nominalSplit(seg []gpair, sum gpair, parent float64) split {
	best := split{nominal: true}
	miss := seg[0]
	best.missing = miss.h > 0 || miss.g != 0
	var order [256]uint8
	m := 0
	for b := 1; b < len(seg); b++ {
		if seg[b].h > 0 {
			order[m] = uint8(b)
			m++
		}
	}
	if m < 2 {
		return best
	}
	ratio := func(b uint8) float64 { return seg[b].g / (seg[b].h + g.cfg.lambda) }
	slices.SortStableFunc(order[:m], func(a, b uint8) int { return cmp.Compare(ratio(a), ratio(b)) })
	var l gpair
	at, left := -1, false
	for k := 0; k < m-1; k++ {
		b := order[k]
		l.g += seg[b].g
		l.h += seg[b].h
		if g.try(&best, l, sum, parent) {
			at, left = k, false
		}
		if best.missing && g.try(&best, gpair{l.g + miss.g, l.h + miss.h}, sum, parent) {
			at, left = k, true
		}
	}
	if at < 0 {
		return best
	}
	for _, b := range order[:at+1] {
		best.cats[b>>6] |= 1 << (b & 63)
	}
	best.defLeft = left
	if !best.missing {
		best.defLeft = best.l.h >= best.r.h
	}
	return best
}

// partition moves the rows of c that the split sends left to the front of
// its range, keeping each side in row order; it returns how many went left.
// Each row is written to both sides and the side it belongs to advances,
// from a table of the bins that go left: no branch to mispredict.
func (g *grower) partition(c *leafCand, t *tree) int {
	var left [256]uint8
	for b := range g.nbins[t.feature[c.node]] {
		if t.goesLeft(c.node, uint8(b)) {
			left[b] = 1
		}
	}
	rows := g.rows[c.lo:c.hi]
	col := g.codes[int(t.feature[c.node])*g.n : (int(t.feature[c.node])+1)*g.n]
	nl, nr := 0, 0
	scratch := g.scratch[:len(rows)+1]
	for _, r := range rows {
		l := int(left[col[r]])
		rows[nl] = r // nl ≤ the index being read: safe in place
		scratch[nr] = r
		nl += l
		nr += 1 - l
	}
	copy(rows[nl:], scratch[:nr])
	return nl
}

// grown is a tree with the row range of each leaf, for the caller to
// update its scores and reset leaf values.
type grown struct {
	t      *tree
	leaves []leafCand
}

// grow grows a tree on g.rows (the round's rows) with the gradients g.gh.
// It returns nil when stopped (g.stop closed) mid-tree.
func (g *grower) grow() *grown {
	t := &tree{}
	if cap(g.scratch) < len(g.rows)+1 {
		g.scratch = make([]int32, len(g.rows)+1)
	}
	var sum gpair
	for _, r := range g.rows {
		sum.g += g.gh[r].g
		sum.h += g.gh[r].h
	}
	root := leafCand{node: t.addNode(g.weight(sum), sum.h, len(g.rows)), lo: 0, hi: len(g.rows), sum: sum}
	g.examine(&root, nil)
	front := []leafCand{root}
	var done []leafCand
	leaves := 1
	for len(front) > 0 {
		if engine.Stopped(g.stop) {
			for _, c := range front {
				g.release(c.hist)
			}
			return nil
		}
		// Depth-wise growth splits every leaf that can split, in any order:
		// taking the newest (depth first) holds a histogram a level, not a
		// level's worth. Best first takes the leaf of largest gain.
		k := len(front) - 1
		if g.cfg.maxLeaves > 0 {
			k = 0
			for i, c := range front {
				if c.best.gain > front[k].best.gain {
					k = i
				}
			}
		}
		c := front[k]
		if c.best.feature < 0 || (g.cfg.maxLeaves > 0 && leaves >= g.cfg.maxLeaves) {
			if g.cfg.maxLeaves > 0 { // the best cannot split: neither can the rest
				for _, c := range front {
					g.release(c.hist)
					done = append(done, c)
				}
				break
			}
			g.release(c.hist)
			done = append(done, c)
			front = slices.Delete(front, k, k+1)
			continue
		}
		front = slices.Delete(front, k, k+1)
		l, r := g.splitNode(t, &c)
		leaves++
		front = append(front, r, l) // the left child first
	}
	return &grown{t: t, leaves: done}
}

// examine finds c's best split if it may split, building its histogram
// (or taking h, already built).
func (g *grower) examine(c *leafCand, h []gpair) {
	c.best = split{feature: -1}
	if g.cfg.maxDepth > 0 && c.depth >= g.cfg.maxDepth || c.hi-c.lo < 2 || len(g.feats) == 0 {
		g.release(h)
		return
	}
	if h == nil {
		h = g.hist()
		g.build(h, g.rows[c.lo:c.hi])
	}
	c.hist = h
	c.best = g.findSplit(h, c.sum, c.hi-c.lo)
}

// splitNode splits leaf c by its best split into two new leaves: the
// smaller child's histogram is built from its rows, the larger's is the
// parent's less the smaller's.
func (g *grower) splitNode(t *tree, c *leafCand) (leafCand, leafCand) {
	s := c.best
	i := c.node
	t.feature[i], t.defLeft[i], t.missing[i], t.gain[i] = s.feature, s.defLeft, s.missing, s.gain
	if s.nominal {
		t.cats[i] = int32(len(t.catsets))
		t.catsets = append(t.catsets, s.cats)
	} else {
		t.bin[i] = s.bin
	}
	nl := g.partition(c, t)
	l := leafCand{lo: c.lo, hi: c.lo + nl, depth: c.depth + 1, sum: s.l}
	r := leafCand{lo: c.lo + nl, hi: c.hi, depth: c.depth + 1, sum: s.r}
	l.node = t.addNode(g.weight(s.l), s.l.h, l.hi-l.lo)
	r.node = t.addNode(g.weight(s.r), s.r.h, r.hi-r.lo)
	t.left[i], t.right[i] = l.node, r.node
	if g.cfg.maxDepth > 0 && l.depth >= g.cfg.maxDepth {
		g.release(c.hist)
		l.best, r.best = split{feature: -1}, split{feature: -1}
		return l, r
	}
	small, large := &l, &r
	if r.hi-r.lo < l.hi-l.lo {
		small, large = &r, &l
	}
	hs := g.hist()
	g.build(hs, g.rows[small.lo:small.hi])
	hl := c.hist
	g.forFeatures(len(hl)/8, func(j int) {
		a, b := hl[g.off[j]:g.off[j]+g.nbins[j]], hs[g.off[j]:g.off[j]+g.nbins[j]]
		for k := range a {
			a[k].g -= b[k].g
			a[k].h -= b[k].h
		}
	})
	g.examine(small, hs)
	g.examine(large, hl)
	return l, r
}

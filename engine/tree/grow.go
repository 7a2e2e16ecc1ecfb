package tree

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/tealab/tealab/engine"
)

// Impurity criteria.
const (
	Gini     = "gini"
	Entropy  = "entropy"
	Misclass = "misclassification"
	MSE      = "mse" // variance: the regression criterion
)

// config is how one tree grows.
type config struct {
	criterion   string
	maxDepth    int     // 0: no limit
	minSplit    int     // fewest rows a node needs to be split (at least 2)
	minLeaf     int     // fewest rows in each child (at least 1)
	purity      float64 // a node whose majority class holds this share is a leaf (1: only pure ones)
	minDecrease float64 // least weighted impurity decrease a split must bring (scikit-learn's min_impurity_decrease)
	maxFeatures int     // features tried at each node (0: all), drawn afresh at each node
}

// node is one node of a grown tree, in a flat slice (0 is the root): 64
// bytes, the float64 fields first.
type node struct {
	threshold   float64 // numeric test: x <= threshold goes left
	value       float64 // regression: the mean; classification: the majority class
	weight      float64 // the total weight of its training rows
	impurity    float64 // per unit weight: Gini, entropy in bits, error share, or variance
	decrease    float64 // weight × impurity removed by the node's split (importances)
	feature     int32   // -1 for a leaf
	left, right int32
	samples     int32 // distinct training rows that reached the node
	set         int32 // nominal test: 1 + the index in grown.sets of the levels that go left; 0 for a numeric test
	missLeft    bool  // rows whose value is missing go left: the side with more training weight
}

// grown is a fitted tree: its nodes, the level sets of its nominal tests,
// and, for classification, the class weights of each node (k per node).
type grown struct {
	nodes []node
	sets  [][]uint64
	dist  []float64
	k     int
}

// levels is the set of levels that go left at node nd (nil for a numeric
// test).
func (t *grown) levels(nd *node) []uint64 {
	if nd.set == 0 {
		return nil
	}
	return t.sets[nd.set-1]
}

// leaf returns the leaf a row reaches.
func (t *grown) leaf(x []float64) int {
	i := int32(0)
	for t.nodes[i].feature >= 0 {
		i = t.nextNode(&t.nodes[i], x)
	}
	return int(i)
}

// classDist is node i's class weights.
func (t *grown) classDist(i int) []float64 { return t.dist[i*t.k : (i+1)*t.k] }

// grower grows trees on one data set; an ensemble keeps one per goroutine
// and reuses its buffers from tree to tree.
type grower struct {
	d   *data
	cfg config
	rng *rand.Rand

	w     []float64 // weight of each row; 0 keeps a row out (bootstrap, pruning set)
	rows  []int32   // the rows of every node, node by node (segments)
	ord   [][]int32 // numeric features: the rows of every node in sorted order, same segments
	rank  [][]int32 // the ranks of their values in ord's order (data.rankOf), read in sequence by sweeps
	goes  []bool    // scratch, by row: goes left
	buf   []int32   // scratch for partitions
	rbuf  []int32
	feats []int // features in the order they are tried
	// owns says the data are this grower's alone (a single tree): it
	// filters the presorted rows in place instead of copying them.
	owns bool
	// aliased says ord and rank are the data's own sorted rows and ranks
	// (a stump on every row), to be replaced, not reused, by the next tree.
	aliased bool

	// scratch for split searches
	left, right, miss, tot []float64
	lv                     []float64 // nominal: level × class weights
	lw, lsum, lsq          []float64 // nominal: level weights, sums, sums of squares
	lcnt                   []int
	ltot                   []float64 // nominal: class weights of the levels present
	order                  []int

	t   *grown
	seg []segment // of each node while growing
	wt  float64   // total weight of the rows

	// stop, when closed (a context's Done), stops growing within one
	// node's split search of one feature: a cancel must not wait for a
	// tree on many rows.
	stop <-chan struct{}
}

// errStopped is grow's error when stop closed.
var errStopped = errors.New("tree growth stopped")

func (g *grower) stopped() bool { return engine.Stopped(g.stop) }

type segment struct {
	s, e  int32
	depth int32
}

func newGrower(d *data, cfg config, seed uint64) *grower {
	g := &grower{d: d, cfg: cfg, rng: rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d)),
		goes: make([]bool, d.n), buf: make([]int32, d.n), feats: make([]int, d.p),
		ord: make([][]int32, d.p), rank: make([][]int32, d.p)}
	k := max(d.k, 1)
	g.left, g.right, g.miss, g.tot = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	for j := range g.feats {
		g.feats[j] = j
	}
	return g
}

// grow grows a tree on the rows of weight w > 0 (w nil: every row, weight
// 1). onLevel, when set, is called after each depth is complete with the
// tree as it stands; its error stops the growth. A growth stopped (by
// onLevel's error, or errStopped when stop closed) returns the tree as it
// stood after the last complete depth, with the error.
func (g *grower) grow(w []float64, onLevel func(depth int, t *grown) error) (*grown, error) {
	d := g.d
	if w == nil {
		if len(g.w) != d.n {
			g.w = make([]float64, d.n)
		}
		for i := range g.w {
			g.w[i] = 1
		}
		w = g.w
	}
	// The rows in bag, in row order and in each numeric feature's order.
	g.rows = g.rows[:0]
	g.wt = 0
	for i, wi := range w {
		if wi > 0 {
			g.rows = append(g.rows, int32(i))
			g.wt += wi
		}
	}
	m := len(g.rows)
	// A stump on every row (AdaBoost's rounds) splits the root alone and
	// never reorders a segment (split skips children at the depth limit):
	// it reads the presorted rows and their ranks as they are.
	asSorted := g.cfg.maxDepth == 1 && m == d.n && !g.owns
	if g.aliased && !asSorted {
		clear(g.ord) // they are the data's: never written through
		clear(g.rank)
	}
	g.aliased = asSorted
	for j, s := range d.sorted {
		if s == nil {
			continue
		}
		if asSorted {
			g.ord[j], g.rank[j] = s, d.ranks(j)
			continue
		}
		o, r := g.ord[j], g.rank[j]
		if g.owns {
			o = s // filtered in place: each row is written no later than it is read
		} else if cap(o) < m {
			o = make([]int32, 0, m)
		}
		if cap(r) < m {
			r = make([]int32, 0, m)
		}
		o, r = o[:0], r[:0]
		rank := int32(0)
		for k, i := range s {
			rank = d.rankOf(j, k, rank)
			if w[i] > 0 {
				o = append(o, i)
				r = append(r, rank)
			}
		}
		g.ord[j], g.rank[j] = o, r
	}
	// The features' order starts afresh: each tree's draws depend on its
	// own seed only, not on the trees this grower built before.
	for j := range g.feats {
		g.feats[j] = j
	}
	t := &grown{k: d.k}
	g.t = t
	g.seg = g.seg[:0]
	g.newNode(w, 0, int32(m), 0)
	depth := int32(0)
	complete := 1 // nodes of the depths completed so far
	for i := 0; i < len(t.nodes); i++ {
		if sg := g.seg[i]; sg.depth != depth {
			complete = i
			if onLevel != nil {
				if err := onLevel(int(depth), t); err != nil {
					g.t = nil
					return t, err
				}
			}
			depth = sg.depth
		}
		if g.stopped() {
			g.t = nil
			return t.truncate(complete), errStopped
		}
		g.split(w, i)
	}
	g.t = nil
	if onLevel != nil {
		if err := onLevel(int(depth), t); err != nil {
			return t, err
		}
	}
	return t, nil
}

// truncate drops the nodes from index n on, the children of a depth
// whose splits were under way, and makes their parents leaves again.
func (t *grown) truncate(n int) *grown {
	for i := range t.nodes[:n] {
		if nd := &t.nodes[i]; nd.feature >= 0 && int(nd.left) >= n {
			nd.feature, nd.left, nd.right, nd.set, nd.decrease = -1, -1, -1, 0, 0
		}
	}
	t.nodes = t.nodes[:n]
	if t.k > 0 {
		t.dist = t.dist[:n*t.k]
	}
	return t
}

// newNode adds a leaf for the rows of segment [s, e) and returns its index.
func (g *grower) newNode(w []float64, s, e, depth int32) int {
	d, t := g.d, g.t
	nd := node{feature: -1, left: -1, right: -1, samples: e - s}
	if d.k > 0 {
		dist := make([]float64, d.k)
		for _, i := range g.rows[s:e] {
			dist[d.y[i]] += w[i]
			nd.weight += w[i]
		}
		best := 0
		for c, v := range dist {
			if v > dist[best] {
				best = c
			}
		}
		nd.value = float64(best)
		nd.impurity = g.impurityOf(dist, nd.weight)
		t.dist = append(t.dist, dist...)
	} else {
		var sum, sq float64
		for _, i := range g.rows[s:e] {
			y := d.yr[i]
			sum += w[i] * y
			nd.weight += w[i]
		}
		mean := sum / nd.weight
		for _, i := range g.rows[s:e] {
			dy := d.yr[i] - mean
			sq += w[i] * dy * dy
		}
		nd.value = mean
		nd.impurity = sq / nd.weight
	}
	t.nodes = append(t.nodes, nd)
	g.seg = append(g.seg, segment{s, e, depth})
	return len(t.nodes) - 1
}

// impurityOf is the impurity per unit weight of class weights dist.
func (g *grower) impurityOf(dist []float64, W float64) float64 {
	if W <= 0 {
		return 0
	}
	switch g.cfg.criterion {
	case Entropy:
		h := 0.0
		for _, v := range dist {
			if v > 0 {
				p := v / W
				h -= p * math.Log2(p)
			}
		}
		return h
	case Misclass:
		mx := 0.0
		for _, v := range dist {
			mx = max(mx, v)
		}
		return 1 - mx/W
	default:
		s := 0.0
		for _, v := range dist {
			s += v * v
		}
		return 1 - s/(W*W)
	}
}

// cost is W × impurity of class weights (the units the sweeps compare in;
// entropy in nats there, which orders splits the same).
func (g *grower) cost(dist []float64, W float64) float64 {
	if W <= 0 {
		return 0
	}
	switch g.cfg.criterion {
	case Entropy:
		s := 0.0
		for _, v := range dist {
			if v > 0 {
				s += v * math.Log(v)
			}
		}
		return W*math.Log(W) - s
	case Misclass:
		mx := 0.0
		for _, v := range dist {
			mx = max(mx, v)
		}
		return W - mx
	default:
		s := 0.0
		for _, v := range dist {
			s += v * v
		}
		return W - s/W
	}
}

// split is the best split found at a node.
type split struct {
	feature   int
	threshold float64
	set       []uint64
	missLeft  bool
	cost      float64 // W × impurity of the children (nats for entropy)
}

// split splits node i if it should be, creating its children.
func (g *grower) split(w []float64, i int) {
	d, t, cfg := g.d, g.t, g.cfg
	nd := &t.nodes[i]
	sg := g.seg[i]
	n := int(sg.e - sg.s)
	if (cfg.maxDepth > 0 && int(sg.depth) >= cfg.maxDepth) || n < cfg.minSplit || n < 2*cfg.minLeaf || nd.impurity <= 1e-12 {
		return
	}
	if d.k > 0 && cfg.purity < 1 {
		if share := t.classDist(i)[int(nd.value)] / nd.weight; share >= cfg.purity {
			return
		}
	}
	var nodeCost float64
	if d.k > 0 {
		copy(g.tot, t.classDist(i))
		nodeCost = g.cost(g.tot, nd.weight)
	} else {
		nodeCost = nd.impurity * nd.weight
	}
	best := split{feature: -1, cost: math.Inf(1)}
	// Features in a fresh random order; with maxFeatures, the first that
	// can split count toward it (scikit-learn's rule).
	tried := 0
	limit := d.p
	if cfg.maxFeatures > 0 && cfg.maxFeatures < d.p {
		limit = cfg.maxFeatures
		for j := d.p - 1; j > 0; j-- {
			r := g.rng.IntN(j + 1)
			g.feats[j], g.feats[r] = g.feats[r], g.feats[j]
		}
	}
	for _, f := range g.feats {
		if tried >= limit {
			break
		}
		if g.stopped() {
			return
		}
		var ok bool
		if d.levels[f] > 0 {
			ok = g.bestNominal(w, f, sg, nd.weight, &best)
		} else {
			ok = g.bestNumeric(w, f, sg, nd.weight, &best)
		}
		if ok {
			tried++
		}
	}
	if best.feature < 0 {
		return
	}
	decrease := nodeCost - best.cost
	if d.k > 0 && cfg.criterion == Entropy {
		decrease /= math.Ln2 // nats to bits, as the impurities are shown
	}
	if decrease/g.wt < cfg.minDecrease || decrease <= 1e-12*nodeCost {
		return
	}
	// Mark the rows that go left, then partition every order the same way.
	nl := int32(0)
	for _, r := range g.rows[sg.s:sg.e] {
		v := d.at(r, best.feature)
		var left bool
		switch {
		case v != v:
			left = best.missLeft
		case best.set != nil:
			l := int(v)
			left = best.set[l>>6]&(1<<(l&63)) != 0
		default:
			left = v <= best.threshold
		}
		g.goes[r] = left
		if left {
			nl++
		}
	}
	g.partition(g.rows[sg.s:sg.e])
	if cfg.maxDepth == 0 || int(sg.depth)+1 < cfg.maxDepth { // else no child splits: their orders are never read
		for j, o := range g.ord {
			if o != nil {
				g.partitionSorted(o[sg.s:sg.e], g.rank[j][sg.s:sg.e])
			}
		}
	}
	nd.feature, nd.threshold, nd.missLeft = int32(best.feature), best.threshold, best.missLeft
	if best.set != nil {
		t.sets = append(t.sets, best.set)
		nd.set = int32(len(t.sets))
	}
	nd.decrease = decrease
	l := g.newNode(w, sg.s, sg.s+nl, sg.depth+1)
	r := g.newNode(w, sg.s+nl, sg.e, sg.depth+1)
	nd = &t.nodes[i] // newNode may have moved the slice
	nd.left, nd.right = int32(l), int32(r)
}

// partition puts the rows that go left first, keeping each side's order.
func (g *grower) partition(o []int32) {
	k, b := 0, g.buf[:0]
	for _, r := range o {
		if g.goes[r] {
			o[k] = r
			k++
		} else {
			b = append(b, r)
		}
	}
	copy(o[k:], b)
}

// partitionSorted partitions a feature's sorted rows and their ranks
// alike, keeping each side's order.
func (g *grower) partitionSorted(o []int32, v []int32) {
	k, b := 0, g.buf[:0]
	vb := g.rbuf[:0]
	for i, r := range o {
		if g.goes[r] {
			o[k], v[k] = r, v[i]
			k++
		} else {
			b = append(b, r)
			vb = append(vb, v[i])
		}
	}
	copy(o[k:], b)
	copy(v[k:], vb)
	g.rbuf = vb
}

// bestNumeric sweeps feature f's sorted rows of the node, moving one row at
// a time from right to left and updating the children's impurity in O(1)
// (O(k) for misclassification), and records a better split in best. It
// reports whether the feature could split the node at all.
func (g *grower) bestNumeric(w []float64, f int, sg segment, W float64, best *split) bool {
	d, cfg := g.d, g.cfg
	o := g.ord[f][sg.s:sg.e]
	rk := g.rank[f][sg.s:sg.e] // rk[j] is the rank of row o[j]'s value
	m := len(o)
	for m > 0 && rk[m-1] == missingRank {
		m--
	}
	if m < 2 || rk[0] == rk[m-1] {
		return false
	}
	nMiss := len(o) - m
	minLeaf := cfg.minLeaf
	if d.k == 0 {
		return g.sweepRegression(w, f, o, rk, m, nMiss, W, best)
	}
	k := d.k
	left, right, miss := g.left, g.right, g.miss
	clear(left)
	copy(right, g.tot)
	clear(miss)
	wMiss := 0.0
	for _, r := range o[m:] {
		miss[d.y[r]] += w[r]
		right[d.y[r]] -= w[r]
		wMiss += w[r]
	}
	var WL, WR = 0.0, W - wMiss
	// Running sums for the O(1) updates.
	var sqL, sqR, xlL, xlR float64 // Σ w_c² and Σ w_c ln w_c of each side
	for _, v := range right {
		sqR += v * v
		if v > 0 {
			xlR += v * math.Log(v)
		}
	}
	crit := cfg.criterion
	if crit == Gini && nMiss == 0 {
		return g.sweepGini(w, f, o[:m], rk[:m], W, sqR, best)
	}
	found := false
	for j := 0; j < m-1; j++ {
		r := o[j]
		c, wr := d.y[r], w[r]
		switch crit {
		case Entropy:
			if left[c] > 0 {
				xlL -= left[c] * math.Log(left[c])
			}
			if right[c] > 0 {
				xlR -= right[c] * math.Log(right[c])
			}
		case Gini:
			sqL += 2*wr*left[c] + wr*wr
			sqR += -2*wr*right[c] + wr*wr
		}
		left[c] += wr
		right[c] -= wr
		if right[c] < 1e-12*W {
			right[c] = 0
		}
		if crit == Entropy {
			xlL += left[c] * math.Log(left[c])
			if right[c] > 0 {
				xlR += right[c] * math.Log(right[c])
			}
		}
		WL += wr
		WR -= wr
		if rk[j+1] == rk[j] {
			continue // equal values cannot be separated
		}
		nL, nR := j+1, m-j-1
		missLeft := WL > WR
		if nMiss > 0 {
			if missLeft {
				nL += nMiss
			} else {
				nR += nMiss
			}
		}
		if nL < minLeaf || nR < minLeaf {
			continue
		}
		var cost float64
		if nMiss > 0 {
			cost = g.costWithMissing(left, right, miss, WL, WR, wMiss, missLeft, k)
		} else {
			switch crit {
			case Entropy:
				cost = WL*math.Log(WL) - xlL
				if WR > 0 {
					cost += WR*math.Log(WR) - xlR
				}
			case Gini:
				cost = WL - sqL/WL + WR - sqR/WR
			default:
				cost = g.cost(left, WL) + g.cost(right, WR)
			}
		}
		found = true
		if cost < best.cost {
			*best = split{feature: f, threshold: g.threshold(f, r, o[j+1]), missLeft: missLeft, cost: cost}
		}
	}
	return found
}

// sweepGini is bestNumeric's sweep for the Gini criterion without missing
// values, the common case, in one tight loop: the children's cost
// W_L − Σw_Lc²/W_L + W_R − Σw_Rc²/W_R from running sums of squares.
func (g *grower) sweepGini(w []float64, f int, o []int32, rk []int32, W, sqR float64, best *split) bool {
	y := g.d.y
	left, right := g.left, g.right
	minLeaf := g.cfg.minLeaf
	m := len(o)
	var WL, sqL float64
	WR := W
	found := false
	v := rk[0]
	for j := 0; j < m-1; j++ {
		r := o[j]
		c, wr := y[r], w[r]
		lc, rc := left[c], right[c]
		sqL += wr * (2*lc + wr)
		sqR += wr * (wr - 2*rc)
		left[c], right[c] = lc+wr, rc-wr
		WL += wr
		WR -= wr
		next := rk[j+1]
		if next == v {
			continue // equal values cannot be separated
		}
		v = next
		if j+1 < minLeaf || m-j-1 < minLeaf {
			continue
		}
		cost := WL - sqL/WL + WR - sqR/WR
		found = true
		if cost < best.cost {
			*best = split{feature: f, threshold: g.threshold(f, r, o[j+1]), missLeft: WL > WR, cost: cost}
		}
	}
	return found
}

// threshold is the test value between sorted rows a and b of feature f
// (a's value below b's): their midpoint, or a's value when rounding puts
// the midpoint at b's.
func (g *grower) threshold(f int, a, b int32) float64 {
	lo, hi := g.d.at(a, f), g.d.at(b, f)
	if th := (lo + hi) / 2; th < hi && !math.IsInf(th, 0) {
		return th
	}
	return lo
}

// costWithMissing is the children's cost with the missing rows sent to the
// larger side, as they will be.
func (g *grower) costWithMissing(left, right, miss []float64, WL, WR, wMiss float64, missLeft bool, k int) float64 {
	side, other, Ws, Wo := left, right, WL, WR
	if !missLeft {
		side, other, Ws, Wo = right, left, WR, WL
	}
	for c := range k {
		side[c] += miss[c]
	}
	cost := g.cost(side, Ws+wMiss) + g.cost(other, Wo)
	for c := range k {
		side[c] -= miss[c]
	}
	return cost
}

// sweepRegression is bestNumeric for a regression tree: the children's
// summed squared deviations from running sums.
func (g *grower) sweepRegression(w []float64, f int, o []int32, rk []int32, m, nMiss int, W float64, best *split) bool {
	d, cfg := g.d, g.cfg
	var sum, sq, mSum, mSq, wMiss float64
	for _, r := range o[:m] {
		y := d.yr[r]
		sum += w[r] * y
		sq += w[r] * y * y
	}
	for _, r := range o[m:] {
		y := d.yr[r]
		mSum += w[r] * y
		mSq += w[r] * y * y
		wMiss += w[r]
	}
	// Centre on the mean: the squares then lose no precision to a large mean.
	c := (sum + mSum) / W
	Wn := W - wMiss
	sum, sq = sum-c*Wn, sq-2*c*sum+c*c*Wn
	mSum, mSq = mSum-c*wMiss, mSq-2*c*mSum+c*c*wMiss
	var lS, lQ, WL float64
	found := false
	for j := 0; j < m-1; j++ {
		r := o[j]
		y := d.yr[r] - c
		lS += w[r] * y
		lQ += w[r] * y * y
		WL += w[r]
		if rk[j+1] == rk[j] {
			continue
		}
		WR := W - wMiss - WL
		rS, rQ := sum-lS, sq-lQ
		nL, nR := j+1, m-j-1
		missLeft := WL > WR
		aS, aQ, aW, bS, bQ, bW := lS, lQ, WL, rS, rQ, WR
		if nMiss > 0 {
			if missLeft {
				nL += nMiss
				aS, aQ, aW = aS+mSum, aQ+mSq, aW+wMiss
			} else {
				nR += nMiss
				bS, bQ, bW = bS+mSum, bQ+mSq, bW+wMiss
			}
		}
		if nL < cfg.minLeaf || nR < cfg.minLeaf {
			continue
		}
		cost := max(aQ-aS*aS/aW, 0) + max(bQ-bS*bS/bW, 0)
		found = true
		if cost < best.cost {
			*best = split{feature: f, threshold: g.threshold(f, r, o[j+1]), missLeft: missLeft, cost: cost}
		}
	}
	return found
}

// bestNominal tries the splits of nominal feature f: with two classes or a
// numeric target, every split of the levels ordered by their share of class
// 1 or their mean (the optimal binary partition, Breiman et al. 1984);
// with more classes, each level against the rest. Levels absent from the
// node go right (with any level unseen in training); missing values go to
// the larger side.
func (g *grower) bestNominal(w []float64, f int, sg segment, W float64, best *split) bool {
	d, cfg := g.d, g.cfg
	L := d.levels[f]
	k := max(d.k, 1)
	if cap(g.lv) < L*k {
		g.lv = make([]float64, L*k)
		g.lw, g.lsum, g.lsq = make([]float64, L), make([]float64, L), make([]float64, L)
		g.lcnt = make([]int, L)
	}
	lv, lw, lsum, lsq, lcnt := g.lv[:L*k], g.lw[:L], g.lsum[:L], g.lsq[:L], g.lcnt[:L]
	clear(lv)
	clear(lw)
	clear(lsum)
	clear(lsq)
	clear(lcnt)
	miss := g.miss
	clear(miss)
	var wMiss, mSum, mSq float64
	nMiss := 0
	for _, r := range g.rows[sg.s:sg.e] {
		v := d.at(r, f)
		if v != v {
			nMiss++
			wMiss += w[r]
			if d.k > 0 {
				miss[d.y[r]] += w[r]
			} else {
				mSum += w[r] * d.yr[r]
				mSq += w[r] * d.yr[r] * d.yr[r]
			}
			continue
		}
		l := int(v)
		lw[l] += w[r]
		lcnt[l]++
		if d.k > 0 {
			lv[l*k+d.y[r]] += w[r]
		} else {
			lsum[l] += w[r] * d.yr[r]
			lsq[l] += w[r] * d.yr[r] * d.yr[r]
		}
	}
	present := g.order[:0]
	for l := range L {
		if lw[l] > 0 {
			present = append(present, l)
		}
	}
	g.order = present
	if len(present) < 2 {
		return false
	}
	// Candidate left sets: prefixes of an ordering, or single levels.
	key := func(l int) float64 {
		if d.k == 0 {
			return lsum[l] / lw[l]
		}
		return lv[l*k+min(1, k-1)] / lw[l]
	}
	prefixes := d.k <= 2
	if prefixes {
		sortLevels(present, key)
	}
	// Each candidate moves some levels' statistics to the left and keeps
	// the rest (all present levels minus the left) on the right: O(k) a
	// candidate, so a column of many levels costs linear time.
	left, right := g.left, g.right
	var totW, totS, totQ float64
	totN := 0
	// The class weights of the present levels (the node's hold the
	// missing rows too).
	if len(g.ltot) != k {
		g.ltot = make([]float64, k)
	}
	tot := g.ltot
	clear(tot)
	for _, l := range present {
		totW, totS, totQ, totN = totW+lw[l], totS+lsum[l], totQ+lsq[l], totN+lcnt[l]
		for c := range k {
			tot[c] += lv[l*k+c]
		}
	}
	var WL, sL, qL float64
	nL := 0
	found := false
	bestCost, bestAt := math.Inf(1), -1
	bestMissLeft := false
	consider := func(at int) {
		WR, nR := totW-WL, totN-nL
		missLeft := WL > WR
		cL, cR := nL, nR
		if nMiss > 0 {
			if missLeft {
				cL += nMiss
			} else {
				cR += nMiss
			}
		}
		if cL < cfg.minLeaf || cR < cfg.minLeaf {
			return
		}
		var cost float64
		if d.k > 0 {
			for c := range k {
				right[c] = tot[c] - left[c]
				if right[c] < 1e-12*totW {
					right[c] = 0
				}
			}
			cost = g.costWithMissing(left, right, miss, WL, WR, wMiss, missLeft, k)
		} else {
			aS, aQ, aW, bS, bQ, bW := sL, qL, WL, totS-sL, totQ-qL, WR
			if missLeft {
				aS, aQ, aW = aS+mSum, aQ+mSq, aW+wMiss
			} else {
				bS, bQ, bW = bS+mSum, bQ+mSq, bW+wMiss
			}
			cost = max(aQ-aS*aS/aW, 0) + max(bQ-bS*bS/bW, 0)
		}
		found = true
		if cost < bestCost {
			bestCost, bestAt, bestMissLeft = cost, at, missLeft
		}
	}
	moveLeft := func(l int, sign float64) {
		WL, sL, qL = WL+sign*lw[l], sL+sign*lsum[l], qL+sign*lsq[l]
		nL += int(sign) * lcnt[l]
		for c := range k {
			left[c] += sign * lv[l*k+c]
		}
	}
	clear(left)
	if prefixes {
		// bestAt: the levels present[:bestAt] go left.
		for cut := 1; cut < len(present); cut++ {
			moveLeft(present[cut-1], 1)
			consider(cut)
		}
	} else {
		// bestAt: the level present[bestAt] alone goes left.
		for q, l := range present {
			moveLeft(l, 1)
			consider(q)
			moveLeft(l, -1)
			WL, sL, qL, nL = 0, 0, 0, 0
			clear(left)
		}
	}
	if bestAt >= 0 && bestCost < best.cost {
		goLeft := present[bestAt : bestAt+1]
		if prefixes {
			goLeft = present[:bestAt]
		}
		set := make([]uint64, (L+63)/64)
		for _, l := range goLeft {
			set[l>>6] |= 1 << (l & 63)
		}
		*best = split{feature: f, set: set, missLeft: bestMissLeft, cost: bestCost}
	}
	return found
}

// sortLevels orders levels by key, ties by level code.
func sortLevels(ls []int, key func(int) float64) {
	slices.SortFunc(ls, func(a, b int) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return a - b
	})
}

package tree

import (
	"errors"
	"math"
	"math/rand/v2"

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

package tree

// packed is a grown tree as an ensemble keeps it: the tests, and at each
// leaf the class shares (its class weights over its weight) or the value.
// A grown tree's nodes also carry what the tree views, pruning and the
// importances read (samples, weights, impurities, class weights at every
// node): about 112 bytes a node for two classes, against 24 here plus the
// leaves' values, 32 a node in all. A forest of deep trees on 200,000 rows
// holds millions of nodes.
type packed struct {
	nodes  []pnode
	sets   [][]uint64 // nominal tests' level sets
	values []float64  // k a leaf: class shares, or the value
	k      int
}

// pnode is a node of a packed tree.
type pnode struct {
	threshold float64 // numeric test: x <= threshold goes left
	feature   int32   // -1 for a leaf
	next      int32   // the left child (the right one follows it); at a leaf, its index in values / k
	set       int32   // nominal test: index into sets; -1 for a numeric one
	missLeft  bool
}

// pack keeps what prediction reads of t. Children are adjacent, as grow
// makes them (split adds the left child, then the right).
func pack(t *grown) *packed {
	k := max(t.k, 1)
	p := &packed{nodes: make([]pnode, len(t.nodes)), k: k}
	leaves := 0
	for _, nd := range t.nodes {
		if nd.feature < 0 {
			leaves++
		}
	}
	p.values = make([]float64, 0, leaves*k)
	for i, nd := range t.nodes {
		pn := pnode{threshold: nd.threshold, feature: nd.feature, next: nd.left, set: -1, missLeft: nd.missLeft}
		if nd.feature < 0 {
			pn.next = int32(len(p.values) / k)
			if t.k > 0 {
				for _, v := range t.classDist(i) {
					p.values = append(p.values, share(v, nd.weight))
				}
			} else {
				p.values = append(p.values, nd.value)
			}
		}
		if set := t.levels(&nd); set != nil {
			pn.set = int32(len(p.sets))
			p.sets = append(p.sets, set)
		}
		p.nodes[i] = pn
	}
	return p
}

// share is a class's share of a leaf's weight, as addLeafShares adds it.
func share(v, W float64) float64 {
	if W <= 0 {
		return 0
	}
	return v / W
}

// leaf returns the values of the leaf row x reaches.
func (p *packed) leaf(x []float64) []float64 {
	i := int32(0)
	for {
		nd := &p.nodes[i]
		if nd.feature < 0 {
			return p.values[int(nd.next)*p.k : int(nd.next+1)*p.k]
		}
		v := x[nd.feature]
		var left bool
		switch {
		case v != v:
			left = nd.missLeft
		case nd.set >= 0:
			l, set := int(v), p.sets[nd.set]
			left = l >= 0 && l < 64*len(set) && set[l>>6]&(1<<(l&63)) != 0
		default:
			left = v <= nd.threshold
		}
		i = nd.next
		if !left {
			i++
		}
	}
}

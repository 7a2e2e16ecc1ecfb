package tree

import (
	"context"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tealab/tealab/engine"
)

// Pruning (Shewchuk, Concise Machine Learning, lecture 15: "grow the tree too large, then greedily remove each
// split whose removal improves validation performance"). Both methods mark
// nodes as leaves and then compact the tree; each removal is one Step, so
// the pruning curve (error against leaves) is the progress.

// leafCost is the training cost of node i as a leaf: the weight it
// misclassifies, or its sum of squared errors.
func leafCost(t *grown, i int) float64 {
	nd := t.nodes[i]
	if t.k > 0 {
		return nd.weight - t.classDist(i)[int(nd.value)]
	}
	return nd.impurity * nd.weight
}

// totalWeight is the sum of the row weights w, in row order: not the
// root's weight, which counts only the rows of positive weight.
func totalWeight(w []float64) float64 {
	total := 0.0
	for _, wi := range w {
		total += wi
	}
	return total
}

// parents lists each node's parent (-1 for the root).
func parents(t *grown) []int32 {
	par := make([]int32, len(t.nodes))
	par[0] = -1
	for i, nd := range t.nodes {
		if nd.feature >= 0 {
			par[nd.left], par[nd.right] = int32(i), int32(i)
		}
	}
	return par
}

// pruneReducedError removes, bottom up, every split whose subtree makes no
// fewer errors on the held-out rows than the node would as a leaf.
func (m *DecisionTree) pruneReducedError(ctx context.Context, held []int, w []float64, step *int, rec engine.Recorder) error {
	t, d := m.t, m.d
	asLeaf := make([]float64, len(t.nodes)) // held-out errors of each node as a leaf
	for _, i := range held {
		x := d.row(i)
		n := int32(0)
		for {
			nd := &t.nodes[n]
			if d.k > 0 {
				if int(nd.value) != d.y[i] {
					asLeaf[n]++
				}
			} else {
				e := nd.value - d.yr[i]
				asLeaf[n] += e * e
			}
			if nd.feature < 0 {
				break
			}
			n = t.nextNode(nd, x)
		}
	}
	return m.pruneBottomUp(ctx, asLeaf, 0, "prune_error", float64(len(held)), w, step, rec)
}

// pruneErrorBased is C4.5's pruning by subtree replacement (Quinlan 1993,
// C4.5: Programs for Machine Learning, ch. 4): bottom up, a split goes when
// the node as a leaf is estimated to make no more errors than the leaves
// below it, each leaf's errors estimated pessimistically from its training
// rows at confidence factor cf.
func (m *DecisionTree) pruneErrorBased(ctx context.Context, cf float64, w []float64, step *int, rec engine.Recorder) error {
	t := m.t
	z := distuv.UnitNormal.Quantile(1 - cf)
	asLeaf := make([]float64, len(t.nodes))
	for i, nd := range t.nodes {
		asLeaf[i] = pessimisticErrors(nd.weight, leafCost(t, i), cf, z)
	}
	// C4.5 keeps a split only when it is estimated to save more than 0.1
	// error (its prune.c and J48 alike).
	return m.pruneBottomUp(ctx, asLeaf, 0.1, "estimated_error", t.nodes[0].weight, w, step, rec)
}

// pessimisticErrors is C4.5's estimate of the errors a leaf of n training
// rows, e of them misclassified, makes on unseen rows: n × U, U the upper
// limit of the confidence interval at level cf of a binomial's error rate
// with e errors in n trials (z = Φ⁻¹(1−cf)). With no error the limit is
// exact, 1 − cf^(1/n) (0 < e < 1, weighted rows, interpolates between e = 0
// and 1); otherwise it is the normal approximation with a continuity
// correction, the Wilson score bound of f = (e + ½)/n; when e + ½ reaches n
// the estimate is n.
func pessimisticErrors(n, e, cf, z float64) float64 {
	switch {
	case n <= 0:
		return 0
	case e < 1e-9:
		return n * (1 - math.Pow(cf, 1/n))
	case e < 1:
		base := n * (1 - math.Pow(cf, 1/n))
		return base + e*(pessimisticErrors(n, 1, cf, z)-base)
	case e+0.5 >= n:
		return max(n, e)
	}
	f := (e + 0.5) / n
	z2 := z * z
	u := (f + z2/(2*n) + z*math.Sqrt(f/n-f*f/n+z2/(4*n*n))) / (1 + z2/n)
	return u * n
}

// pruneBottomUp collapses, children before parents, every split whose
// subtree's cost (the sum of its leaves' asLeaf) is more than slack below
// the node's own asLeaf. Each collapse is a Step reporting the tree's cost
// over scale as extra.
func (m *DecisionTree) pruneBottomUp(ctx context.Context, asLeaf []float64, slack float64, extra string, scale float64, w []float64, step *int, rec engine.Recorder) error {
	t := m.t
	sub := make([]float64, len(t.nodes))   // cost of the subtree
	train := make([]float64, len(t.nodes)) // training cost of the subtree
	leaves := make([]int, len(t.nodes))
	totalW := totalWeight(w)
	for i := len(t.nodes) - 1; i >= 0; i-- {
		nd := t.nodes[i]
		if nd.feature < 0 {
			sub[i], train[i], leaves[i] = asLeaf[i], leafCost(t, i), 1
			continue
		}
		sub[i] = sub[nd.left] + sub[nd.right]
		train[i] = train[nd.left] + train[nd.right]
		leaves[i] = leaves[nd.left] + leaves[nd.right]
	}
	cost, trainCost, nLeaves := sub[0], train[0], leaves[0]
	report := func() error {
		*step++
		if err := rec.Step(engine.Step{Step: *step, TrainLoss: trainCost / totalW,
			Detail: Pruning{Leaves: nLeaves, Measure: extra, Value: cost / scale}}); err != nil {
			return err
		}
		return ctx.Err()
	}
	if err := report(); err != nil {
		return err
	}
	// Children come after their parents: a reverse sweep sees every subtree
	// pruned before its root is judged.
	for i := len(t.nodes) - 1; i >= 0; i-- {
		nd := &t.nodes[i]
		if nd.feature < 0 {
			continue
		}
		sub[i] = sub[nd.left] + sub[nd.right]
		train[i] = train[nd.left] + train[nd.right]
		leaves[i] = leaves[nd.left] + leaves[nd.right]
		if asLeaf[i] > sub[i]+slack {
			continue
		}
		cost += asLeaf[i] - sub[i]
		trainCost += leafCost(t, i) - train[i]
		nLeaves -= leaves[i] - 1
		nd.feature = -1
		m.collapsed = append(m.collapsed, int32(i))
		sub[i], train[i], leaves[i] = asLeaf[i], leafCost(t, i), 1
		if err := report(); err != nil {
			return err
		}
	}
	m.t = compact(t)
	return nil
}

// pruneCostComplexity is scikit-learn's minimal cost-complexity pruning:
// while the weakest link t (least (R(t) − R(T_t)) / (leaves(T_t) − 1), R
// the weighted impurity) costs at most alpha, collapse it.
func (m *DecisionTree) pruneCostComplexity(ctx context.Context, alpha float64, w []float64, step *int, rec engine.Recorder) error {
	t := m.t
	if math.IsNaN(alpha) || alpha < 0 {
		alpha = 0
	}
	totalW := totalWeight(w)
	par := parents(t)
	r := make([]float64, len(t.nodes))    // R(t): the node as a leaf
	rSub := make([]float64, len(t.nodes)) // R(T_t)
	leaves := make([]int, len(t.nodes))
	train := make([]float64, len(t.nodes))
	for i := len(t.nodes) - 1; i >= 0; i-- {
		nd := t.nodes[i]
		r[i] = nd.impurity * nd.weight / totalW
		if nd.feature < 0 {
			rSub[i], leaves[i], train[i] = r[i], 1, leafCost(t, i)
			continue
		}
		rSub[i] = rSub[nd.left] + rSub[nd.right]
		leaves[i] = leaves[nd.left] + leaves[nd.right]
		train[i] = train[nd.left] + train[nd.right]
	}
	live := make([]bool, len(t.nodes)) // reachable internal nodes
	var mark func(i int32)
	mark = func(i int32) {
		if t.nodes[i].feature >= 0 {
			live[i] = true
			mark(t.nodes[i].left)
			mark(t.nodes[i].right)
		}
	}
	mark(0)
	for {
		best, bestG := -1, math.Inf(1)
		for i, ok := range live {
			if !ok {
				continue
			}
			if g := (r[i] - rSub[i]) / float64(leaves[i]-1); g < bestG {
				best, bestG = i, g
			}
		}
		if best < 0 || bestG > alpha {
			break
		}
		// Collapse best: its subtree leaves the tree; its ancestors change.
		var drop func(i int32)
		drop = func(i int32) {
			live[i] = false
			if t.nodes[i].feature >= 0 {
				drop(t.nodes[i].left)
				drop(t.nodes[i].right)
			}
		}
		drop(int32(best))
		dR, dL, dT := r[best]-rSub[best], 1-leaves[best], leafCost(t, best)-train[best]
		t.nodes[best].feature = -1
		m.collapsed = append(m.collapsed, int32(best))
		rSub[best], leaves[best], train[best] = r[best], 1, leafCost(t, best)
		for a := par[best]; a >= 0; a = par[a] {
			rSub[a] += dR
			leaves[a] += dL
			train[a] += dT
		}
		*step++
		if err := rec.Step(engine.Step{Step: *step, TrainLoss: train[0] / totalW,
			Detail: Pruning{Leaves: leaves[0], Measure: "alpha", Value: bestG}}); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	m.t = compact(t)
	return nil
}

// nextNode is the child of an internal node that row x goes to.
func (t *grown) nextNode(nd *node, x []float64) int32 { return t.child(nd, nd.feature, x) }

// child is the child row x goes to by the node's test on feature f (its
// own, or the one it had before pruning made it a leaf).
func (t *grown) child(nd *node, f int32, x []float64) int32 {
	v := x[f]
	var left bool
	switch {
	case v != v:
		left = nd.missLeft
	case nd.set != 0:
		l, set := int(v), t.levels(nd)
		left = l >= 0 && l < 64*len(set) && set[l>>6]&(1<<(l&63)) != 0
	default:
		left = v <= nd.threshold
	}
	if left {
		return nd.left
	}
	return nd.right
}

// compact rebuilds the tree with the nodes still reachable, breadth first
// (parents before children, as grown).
func compact(t *grown) *grown {
	out := &grown{k: t.k, sets: t.sets} // the sets of the nodes kept, at their indices
	queue := []int32{0}
	index := map[int32]int32{0: 0}
	for q := 0; q < len(queue); q++ {
		i := queue[q]
		nd := t.nodes[i]
		if nd.feature < 0 {
			nd.left, nd.right, nd.set, nd.decrease = -1, -1, 0, 0
		} else {
			for _, c := range []int32{nd.left, nd.right} {
				index[c] = int32(len(queue))
				queue = append(queue, c)
			}
			nd.left, nd.right = index[nd.left], index[nd.right]
		}
		out.nodes = append(out.nodes, nd)
		if t.k > 0 {
			out.dist = append(out.dist, t.classDist(int(i))...)
		}
	}
	return out
}

package tree

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// Stages implements engine.Staged. As the tree grows a level, each row
// moves down from the leaf it had reached; as pruning turns a node back
// into a leaf, the rows below it (a range of the rows ordered by where
// their leaf lies in the grown tree) move up to it. Either way a step costs
// the rows that move, not a walk from the root for every row.
func (m *DecisionTree) Stages(X mat.Matrix) (engine.StageScorer, error) {
	if m.d == nil {
		return nil, engine.ErrNotFitted
	}
	n, c := X.Dims()
	if c != m.d.p {
		return nil, fmt.Errorf("decision tree: got %d features, fitted on %d", c, m.d.p)
	}
	st := &treeStages{m: m, X: X, at: make([]int32, n), x: make([]float64, c), pred: make([]float64, n)}
	if m.d.k > 0 {
		st.proba = mat.NewDense(n, m.d.k, nil)
	}
	return st, nil
}

// treeStages scores fixed rows as the tree grows and is pruned.
type treeStages struct {
	m     *DecisionTree
	X     mat.Matrix
	t     *grown  // the tree at refers to
	at    []int32 // the node each row has reached
	x     []float64
	pred  []float64
	proba *mat.Dense // nil for regression

	// While pruning: each node's subtree is the places [pre, end) of a
	// depth-first walk of the grown tree; byPlace lists the rows by the
	// place of their grown leaf, places holds those places in that order;
	// applied counts the collapses followed.
	pre, end        []int32
	byPlace, places []int32
	applied         int
}

func (st *treeStages) Scores() ([]float64, *mat.Dense, error) {
	m := st.m
	if !m.Fitted {
		return nil, nil, engine.ErrNotFitted
	}
	t := m.t
	if t != st.t {
		clear(st.at) // another tree (compacted after pruning): from the root
		st.pre = nil
	}
	st.t = t
	switch {
	case m.pruning && st.pre == nil:
		st.descend(t, m.splits)
		st.orderByPlace(t)
		fallthrough
	case m.pruning:
		st.collapse(m.collapsed[st.applied:])
		st.applied = len(m.collapsed)
	default:
		st.descend(t, nil)
	}
	for i, a := range st.at {
		st.pred[i] = t.nodes[a].value
		if st.proba != nil {
			row := st.proba.RawRowView(i)
			clear(row)
			addLeafShares(row, t, int(a), 1)
		}
	}
	if st.proba == nil {
		return st.pred, nil, nil
	}
	return st.pred, st.proba, nil
}

// descend moves every row down from its node to a leaf: of the tree as it
// stands (splits nil), or of the tree as grown (splits: each node's
// feature before pruning).
func (st *treeStages) descend(t *grown, splits []int32) {
	feature := func(a int32) int32 {
		if splits != nil {
			return splits[a]
		}
		return t.nodes[a].feature
	}
	for i, a := range st.at {
		if int(a) >= len(t.nodes) {
			a = 0 // its node was dropped (growth stopped mid-level)
		}
		if f := feature(a); f >= 0 {
			mat.Row(st.x, i, st.X)
			for ; f >= 0; f = feature(a) {
				a = t.child(&t.nodes[a], f, st.x)
			}
		}
		st.at[i] = a
	}
}

// orderByPlace walks the grown tree depth first (children are kept when
// pruning makes a node a leaf) and orders the rows by their leaf's place.
func (st *treeStages) orderByPlace(t *grown) {
	n := len(t.nodes)
	st.pre, st.end = make([]int32, n), make([]int32, n)
	place := int32(0)
	type visit struct {
		node int32
		done bool
	}
	stack := []visit{{0, false}}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v.done {
			st.end[v.node] = place
			continue
		}
		st.pre[v.node] = place
		place++
		stack = append(stack, visit{v.node, true})
		if nd := t.nodes[v.node]; nd.left >= 0 {
			stack = append(stack, visit{nd.right, false}, visit{nd.left, false})
		}
	}
	st.byPlace = make([]int32, len(st.at))
	for i := range st.byPlace {
		st.byPlace[i] = int32(i)
	}
	sort.Slice(st.byPlace, func(a, b int) bool {
		return st.pre[st.at[st.byPlace[a]]] < st.pre[st.at[st.byPlace[b]]]
	})
	st.places = make([]int32, len(st.at))
	for k, i := range st.byPlace {
		st.places[k] = st.pre[st.at[i]]
	}
	st.applied = 0
}

// collapse moves the rows below each node that became a leaf up to it.
func (st *treeStages) collapse(nodes []int32) {
	for _, b := range nodes {
		lo := sort.Search(len(st.places), func(k int) bool { return st.places[k] >= st.pre[b] })
		hi := sort.Search(len(st.places), func(k int) bool { return st.places[k] >= st.end[b] })
		for _, i := range st.byPlace[lo:hi] {
			st.at[i] = b
		}
	}
}

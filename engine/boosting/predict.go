package boosting

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// binRows bins the rows of X as the training rows were, row-major (a row's
// bins side by side): bin(v) ≤ b exactly when v is at most the cut a split
// on bin b reads, so that walking the trees on bins is walking them on
// values, for less.
func (f *fitted) binRows(X mat.Matrix) []uint8 {
	n, p := X.Dims()
	out := make([]uint8, n*p)
	keys := make([][256]uint64, p)
	for j := range p {
		if f.bins.nominal[j] {
			continue
		}
		for k := range keys[j] {
			keys[j][k] = orderKey(math.Inf(1))
		}
		for k, c := range f.bins.cuts[j] {
			keys[j][k] = orderKey(c)
		}
	}
	x := make([]float64, p)
	for i := range n {
		mat.Row(x, i, X)
		row := out[i*p : (i+1)*p]
		for j, v := range x {
			switch {
			case f.bins.nominal[j]:
				row[j] = f.bins.bin(j, v)
			case v == v:
				row[j] = uint8(countBelow(&keys[j], orderKey(v)) + 1)
			}
		}
	}
	return out
}

// leafRow is the leaf a row of bins reaches.
func (t *tree) leafRow(row []uint8) int32 {
	k := int32(0)
	for t.feature[k] >= 0 {
		if t.goesLeft(k, row[t.feature[k]]) {
			k = t.left[k]
		} else {
			k = t.right[k]
		}
	}
	return k
}

// addTrees adds to the raw scores S (n x K) what trees from index from on
// give each row of the binned rows codes (binRows), tree by tree: each
// score still sums its trees in their order.
func (f *fitted) addTrees(S *mat.Dense, codes []uint8, from int) {
	n, _ := S.Dims()
	if len(codes) == 0 {
		return
	}
	n = min(n, len(codes)/f.p)
	for k := from; k < len(f.trees); k++ {
		t, c := f.trees[k], k%f.K
		for i := range n {
			S.RawRowView(i)[c] += t.value[t.leafRow(codes[i*f.p:(i+1)*f.p])]
		}
	}
}

// raw is the raw scores of X: the base plus every tree.
func (m *GBDT) raw(X mat.Matrix) (*mat.Dense, *fitted, error) {
	f := m.m
	if !m.Fitted || f == nil {
		return nil, nil, engine.ErrNotFitted
	}
	n, c := X.Dims()
	if c != f.p {
		return nil, nil, fmt.Errorf("gbdt: got %d features, fitted on %d", c, f.p)
	}
	S := mat.NewDense(max(n, 1), f.K, nil)
	if n == 0 {
		return mat.NewDense(1, f.K, nil).Slice(0, 0, 0, f.K).(*mat.Dense), f, nil
	}
	for i := range n {
		copy(S.RawRowView(i), f.base)
	}
	f.addTrees(S, f.binRows(X), 0)
	return S, f, nil
}

// Predict implements engine.Predictor: the class of the largest
// probability (the lowest code among equals), or the raw score.
func (m *GBDT) Predict(X mat.Matrix) ([]float64, error) {
	S, f, err := m.raw(X)
	if err != nil {
		return nil, err
	}
	return f.predictions(S), nil
}

// predictions reads predictions off raw scores.
func (f *fitted) predictions(S *mat.Dense) []float64 {
	n, _ := S.Dims()
	out := make([]float64, n)
	for i := range n {
		row := S.RawRowView(i)
		switch {
		case f.k == 0:
			out[i] = row[0]
		case f.K == 1:
			if row[0] > 0 {
				out[i] = 1
			}
		default:
			best := 0
			for c, v := range row {
				if v > row[best] {
					best = c
				}
			}
			out[i] = float64(best)
		}
	}
	return out
}

// PredictProba implements engine.Prober: σ(f) for two classes, the
// softmax of the class scores above.
func (m *GBDT) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	if m.Fitted && m.m != nil && m.m.k == 0 {
		return nil, errors.New("gbdt: a regression has no class probabilities")
	}
	S, f, err := m.raw(X)
	if err != nil {
		return nil, err
	}
	return f.proba(S), nil
}

// proba turns raw scores into class probabilities (n x k).
func (f *fitted) proba(S *mat.Dense) *mat.Dense {
	n, _ := S.Dims()
	P := mat.NewDense(max(n, 1), f.k, nil)
	if n == 0 {
		return P.Slice(0, 0, 0, f.k).(*mat.Dense)
	}
	for i := range n {
		row, out := S.RawRowView(i), P.RawRowView(i)
		if f.K == 1 {
			out[1] = sigmoid(row[0])
			out[0] = 1 - out[1]
			continue
		}
		softmaxInto(out, row)
	}
	return P
}

// DecisionFunction implements engine.Scorer: the raw class scores (two
// classes: 0 and the log-odds of the second, whose softmax is σ).
func (m *GBDT) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	if m.Fitted && m.m != nil && m.m.k == 0 {
		return nil, errors.New("gbdt: a regression has no class scores")
	}
	S, f, err := m.raw(X)
	if err != nil {
		return nil, err
	}
	if f.K > 1 {
		return S, nil
	}
	n, _ := S.Dims()
	D := mat.NewDense(max(n, 1), 2, nil)
	if n == 0 {
		return D.Slice(0, 0, 0, 2).(*mat.Dense), nil
	}
	for i := range n {
		D.Set(i, 1, S.At(i, 0))
	}
	return D, nil
}

// Stages implements engine.Staged: the raw scores of X kept as running
// sums to which each round adds its trees.
func (m *GBDT) Stages(X mat.Matrix) (engine.StageScorer, error) {
	f := m.m
	if !m.Fitted || f == nil {
		return nil, engine.ErrNotFitted
	}
	n, c := X.Dims()
	if c != f.p {
		return nil, fmt.Errorf("gbdt: got %d features, fitted on %d", c, f.p)
	}
	S := mat.NewDense(max(n, 1), f.K, nil)
	for i := range n {
		copy(S.RawRowView(i), f.base)
	}
	return &stages{m: m, X: X, S: S, n: n, codes: f.binRows(X), binned: f}, nil
}

// stages scores fixed rows as the rounds go.
type stages struct {
	m    *GBDT
	X    mat.Matrix
	S    *mat.Dense
	n    int
	f    *fitted // the fit S belongs to
	done int     // trees in S
	// codes are X's bins under the fit binned (binRows).
	codes  []uint8
	binned *fitted
}

func (st *stages) Scores() ([]float64, *mat.Dense, error) {
	f := st.m.m
	if !st.m.Fitted || f == nil {
		return nil, nil, engine.ErrNotFitted
	}
	if st.f != f || st.done > len(f.trees) { // another fit, or early stopping dropped rounds
		for i := range st.n {
			copy(st.S.RawRowView(i), f.base)
		}
		st.f, st.done = f, 0
	}
	if st.n == 0 {
		return nil, nil, nil
	}
	if st.binned.bins != f.bins {
		st.codes, st.binned = f.binRows(st.X), f
	}
	f.addTrees(st.S, st.codes, st.done)
	st.done = len(f.trees)
	pred := f.predictions(st.S)
	if f.k == 0 {
		return pred, nil, nil
	}
	return pred, f.proba(st.S), nil
}

// FeatureImportances implements engine.Importancer: each feature's total
// split gain over every tree, or its number of splits (importance), as
// shares of the total.
func (m *GBDT) FeatureImportances() *engine.Importances {
	f := m.m
	if !m.Fitted || f == nil {
		return nil
	}
	v := make([]float64, f.p)
	for _, t := range f.trees {
		for k, j := range t.feature {
			if j < 0 {
				continue
			}
			if m.Importance == ImpSplit {
				v[j]++
			} else {
				v[j] += t.gain[k]
			}
		}
	}
	total := 0.0
	for _, x := range v {
		total += x
	}
	if total > 0 {
		for j := range v {
			v[j] /= total
		}
	}
	method := fmt.Sprintf("total split gain over %d trees", len(f.trees))
	if m.Importance == ImpSplit {
		method = fmt.Sprintf("number of splits over %d trees", len(f.trees))
	}
	return &engine.Importances{Features: f.features, Values: v, Method: method}
}

// Tree implements engine.Treer: the first tree grown.
func (m *GBDT) Tree() *engine.Tree { return m.TreeAt(0) }

// TreeCount implements engine.Forester: the trees grown, one a round (one
// a class a round with more than two classes).
func (m *GBDT) TreeCount() int {
	if !m.Fitted || m.m == nil {
		return 0
	}
	return len(m.m.trees)
}

// TreeAt implements engine.Forester: tree i in the order grown, as a
// regression tree of what its leaves add to the raw score (log-odds, a
// class's score, or the target), learning rate included.
func (m *GBDT) TreeAt(i int) *engine.Tree {
	if i < 0 || i >= m.TreeCount() {
		return nil
	}
	f := m.m
	t := f.trees[i]
	// A node's "impurity" is the second-order gain of its split (0 at a
	// leaf): what the tree views print beside a node's rows.
	out := &engine.Tree{Criterion: "gain", Nodes: make([]engine.TreeNode, t.nodes())}
	out.Label = fmt.Sprintf("round %d of %d", i/f.K+1, len(f.trees)/f.K)
	if f.K > 1 {
		out.Label += fmt.Sprintf(", the score of class %d of %d", i%f.K+1, f.K)
	}
	for k := range t.nodes() {
		nd := &out.Nodes[k]
		nd.Samples, nd.Value, nd.Impurity = int(t.count[k]), t.value[k], t.gain[k]
		if t.feature[k] < 0 {
			continue
		}
		l, r := t.left[k], t.right[k]
		nd.Children = []int{int(l), int(r)}
		out.Nodes[l].Cond, out.Nodes[r].Cond = f.conditions(t, int32(k))
	}
	return out
}

// conditions are the tests that lead from node k to its left and right
// children.
func (f *fitted) conditions(t *tree, k int32) (engine.Condition, engine.Condition) {
	j := int(t.feature[k])
	name := fmt.Sprint(j + 1)
	if j < len(f.features) && f.features[j] != "" {
		name = f.features[j]
	}
	l := engine.Condition{Feature: j, Name: name}
	r := l
	if t.missing[k] {
		l.Missing, r.Missing = t.defLeft[k], !t.defLeft[k]
	} else {
		l.MissingDefault, r.MissingDefault = t.defLeft[k], !t.defLeft[k]
	}
	if t.cats[k] < 0 {
		l.Op, r.Op, l.Threshold, r.Threshold = "<=", ">", t.thresh[k], t.thresh[k]
		return l, r
	}
	// The side without the bin of the other levels is written as a list.
	other := uint8(f.bins.otherBin[j])
	var inLeft, inRight []string
	for code, b := range f.bins.levelBin[j] {
		if b == other {
			continue
		}
		if t.goesLeft(k, b) {
			inLeft = append(inLeft, f.bins.levels[j][code])
		} else {
			inRight = append(inRight, f.bins.levels[j][code])
		}
	}
	if t.goesLeft(k, other) {
		l.Op, l.Levels, r.Op, r.Levels = "not in", inRight, "in", inRight
	} else {
		l.Op, l.Levels, r.Op, r.Levels = "in", inLeft, "not in", inLeft
	}
	return l, r
}

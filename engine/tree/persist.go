package tree

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/tealab/tealab/engine"
)

// Model files (engine.Persistent). A tree is kept as arrays with one entry
// a node (feature, threshold, children...) rather than as nested objects:
// a forest holds hundreds of thousands of nodes. Node i's children come
// after it and every node but the root is the child of exactly one split,
// which loading checks: a tree edited to loop is refused.

// dataState is what the trees read of the training data once fitted: the
// features (names, nominal levels, whether values were missing) and the
// classes (none for regression).
type dataState struct {
	Features   []string   `json:"features"`
	Classes    []string   `json:"classes,omitempty"`
	Levels     []int      `json:"levels,omitempty"` // nominal features' number of levels, 0 for numeric ones
	LevelNames [][]string `json:"level_names,omitempty"`
	Missing    []bool     `json:"missing,omitempty"`
}

func dataStateOf(d *data) dataState {
	s := dataState{Features: d.names}
	if d.k > 0 {
		s.Classes = d.classes
	}
	if slices.ContainsFunc(d.levels, func(L int) bool { return L > 0 }) {
		s.Levels = d.levels
		s.LevelNames = make([][]string, len(d.lnames)) // a numeric column's names: [], never null
		for j, names := range d.lnames {
			s.LevelNames[j] = append([]string{}, names...)
		}
	}
	if slices.Contains(d.missing, true) {
		s.Missing = d.missing
	}
	return s
}

// data rebuilds the data's description, checking its lists agree.
func (s dataState) data() (*data, error) {
	p := len(s.Features)
	if p == 0 {
		return nil, errors.New("no features")
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"levels", len(s.Levels)}, {"level_names", len(s.LevelNames)}, {"missing", len(s.Missing)}} {
		if l.n != 0 && l.n != p {
			return nil, fmt.Errorf("%s has %d entries for %d features", l.name, l.n, p)
		}
	}
	d := &data{p: p, k: len(s.Classes), names: s.Features, classes: s.Classes,
		levels: s.Levels, lnames: s.LevelNames, missing: s.Missing}
	if d.levels == nil {
		d.levels = make([]int, p)
	}
	if d.lnames == nil {
		d.lnames = make([][]string, p)
	}
	if d.missing == nil {
		d.missing = make([]bool, p)
	}
	for j, L := range d.levels {
		if L != 0 && L != max(len(d.lnames[j]), 1) {
			return nil, fmt.Errorf("feature %q has %d levels but %d level names", d.names[j], L, len(d.lnames[j]))
		}
	}
	return d, nil
}

// grownState is a grown tree, with every node's statistics (what the tree
// view, the rules and the importances read).
type grownState struct {
	Feature   []int32    `json:"feature"` // -1 at a leaf
	Threshold []float64  `json:"threshold"`
	Left      []int32    `json:"left"` // -1 at a leaf
	Right     []int32    `json:"right"`
	Value     []float64  `json:"value"` // the mean, or the majority class
	Samples   []int32    `json:"samples"`
	Weight    []float64  `json:"weight"`
	Impurity  []float64  `json:"impurity"`
	Decrease  []float64  `json:"decrease"`
	Counts    []float64  `json:"counts,omitempty"` // classification: k class weights a node
	MissLeft  string     `json:"missing_left"`     // '1' where missing values go left
	Set       []int32    `json:"set,omitempty"`    // nominal tests: 1 + index into sets
	Sets      [][]uint64 `json:"sets,omitempty"`
}

func grownStateOf(t *grown) grownState {
	n := len(t.nodes)
	s := grownState{Feature: make([]int32, n), Threshold: make([]float64, n), Left: make([]int32, n), Right: make([]int32, n),
		Value: make([]float64, n), Samples: make([]int32, n), Weight: make([]float64, n), Impurity: make([]float64, n),
		Decrease: make([]float64, n), Counts: t.dist, Sets: t.sets}
	var miss strings.Builder
	for i, nd := range t.nodes {
		s.Feature[i], s.Threshold[i], s.Left[i], s.Right[i] = nd.feature, nd.threshold, nd.left, nd.right
		s.Value[i], s.Samples[i], s.Weight[i], s.Impurity[i], s.Decrease[i] = nd.value, nd.samples, nd.weight, nd.impurity, nd.decrease
		miss.WriteByte(bit(nd.missLeft))
		if nd.set != 0 && s.Set == nil {
			s.Set = make([]int32, n)
		}
		if s.Set != nil {
			s.Set[i] = nd.set
		}
	}
	s.MissLeft = miss.String()
	return s
}

// grown rebuilds the tree, checking it against the data d describes.
func (s *grownState) grown(d *data) (*grown, error) {
	n := len(s.Feature)
	if err := sameLengths(n, map[string]int{"threshold": len(s.Threshold), "left": len(s.Left), "right": len(s.Right),
		"value": len(s.Value), "samples": len(s.Samples), "weight": len(s.Weight), "impurity": len(s.Impurity),
		"decrease": len(s.Decrease), "missing_left": len(s.MissLeft)}); err != nil {
		return nil, err
	}
	if len(s.Set) != 0 && len(s.Set) != n {
		return nil, fmt.Errorf("set has %d entries for %d nodes", len(s.Set), n)
	}
	if len(s.Counts) != n*d.k {
		return nil, fmt.Errorf("counts has %d entries, not %d (%d nodes × %d classes)", len(s.Counts), n*d.k, n, d.k)
	}
	if err := checkLinks(s.Feature, s.Left, s.Right, d.p); err != nil {
		return nil, err
	}
	t := &grown{nodes: make([]node, n), sets: s.Sets, dist: s.Counts, k: d.k}
	for i := range n {
		nd := node{threshold: s.Threshold[i], value: s.Value[i], weight: s.Weight[i], impurity: s.Impurity[i],
			decrease: s.Decrease[i], feature: s.Feature[i], left: s.Left[i], right: s.Right[i], samples: s.Samples[i]}
		var err error
		if nd.missLeft, err = missLeft(s.MissLeft, i); err != nil {
			return nil, err
		}
		if s.Set != nil {
			nd.set = s.Set[i]
		}
		if err := checkClass(nd.value, d.k, i); err != nil {
			return nil, err
		}
		set := -1
		if nd.set != 0 {
			set = int(nd.set) - 1
		}
		if err := checkSet(d, s.Sets, nd.feature, set, i); err != nil {
			return nil, err
		}
		t.nodes[i] = nd
	}
	return t, nil
}

// packedState is a tree as a forest keeps it: the tests, and each leaf's
// class shares or value. A split's right child follows its left one.
type packedState struct {
	Feature   []int32    `json:"feature"` // -1 at a leaf
	Threshold []float64  `json:"threshold"`
	Left      []int32    `json:"left"`          // -1 at a leaf
	MissLeft  string     `json:"missing_left"`  // '1' where missing values go left
	Set       []int32    `json:"set,omitempty"` // nominal tests: index into sets; -1 for numeric ones
	Sets      [][]uint64 `json:"sets,omitempty"`
	Values    []float64  `json:"values"` // k a leaf, the leaves in node order
}

func packedStateOf(p *packed) packedState {
	n := len(p.nodes)
	s := packedState{Feature: make([]int32, n), Threshold: make([]float64, n), Left: make([]int32, n),
		Sets: p.sets, Values: p.values}
	var miss strings.Builder
	miss.Grow(n)
	for i, nd := range p.nodes {
		s.Feature[i], s.Threshold[i], s.Left[i] = nd.feature, nd.threshold, nd.next
		if nd.feature < 0 {
			s.Left[i] = -1 // the leaf's values follow from its place among the leaves
		}
		miss.WriteByte(bit(nd.missLeft))
		if p.sets != nil && s.Set == nil {
			s.Set = make([]int32, n)
		}
		if s.Set != nil {
			s.Set[i] = nd.set
		}
	}
	s.MissLeft = miss.String()
	return s
}

// packed rebuilds the tree, checking it against the data d describes.
func (s *packedState) packed(d *data) (*packed, error) {
	n := len(s.Feature)
	if err := sameLengths(n, map[string]int{"threshold": len(s.Threshold), "left": len(s.Left), "missing_left": len(s.MissLeft)}); err != nil {
		return nil, err
	}
	if len(s.Set) != 0 && len(s.Set) != n {
		return nil, fmt.Errorf("set has %d entries for %d nodes", len(s.Set), n)
	}
	right := make([]int32, n)
	for i, l := range s.Left {
		right[i] = -1
		if s.Feature[i] >= 0 && l >= 0 {
			right[i] = l + 1
		}
	}
	if err := checkLinks(s.Feature, s.Left, right, d.p); err != nil {
		return nil, err
	}
	k := max(d.k, 1)
	p := &packed{nodes: make([]pnode, n), sets: s.Sets, values: s.Values, k: k}
	leaves := 0
	for i := range n {
		nd := pnode{threshold: s.Threshold[i], feature: s.Feature[i], next: s.Left[i], set: -1}
		var err error
		if nd.missLeft, err = missLeft(s.MissLeft, i); err != nil {
			return nil, err
		}
		if s.Set != nil {
			nd.set = s.Set[i]
		}
		if err := checkSet(d, s.Sets, nd.feature, int(nd.set), i); err != nil {
			return nil, err
		}
		if nd.feature < 0 {
			nd.next = int32(leaves)
			leaves++
		}
		p.nodes[i] = nd
	}
	if len(s.Values) != leaves*k {
		return nil, fmt.Errorf("values has %d entries, not %d (%d leaves × %d)", len(s.Values), leaves*k, leaves, k)
	}
	return p, nil
}

// checkLinks checks that the nodes form one tree rooted at node 0: a
// split's feature exists, its children come after it (so no path loops
// back) and every node but the root is the child of exactly one split.
func checkLinks(feature, left, right []int32, p int) error {
	n := len(feature)
	if n == 0 {
		return errors.New("a tree has no nodes")
	}
	hasParent := make([]bool, n)
	for i, f := range feature {
		if f == -1 {
			if left[i] != -1 || right[i] != -1 {
				return fmt.Errorf("node %d is a leaf (feature -1) but has children", i)
			}
			continue
		}
		if f < 0 || int(f) >= p {
			return fmt.Errorf("node %d splits on feature %d, but the model has features 0..%d", i, f, p-1)
		}
		for _, c := range [2]int32{left[i], right[i]} {
			if int(c) <= i || int(c) >= n {
				return fmt.Errorf("node %d has child %d, not one of the nodes after it (%d..%d)", i, c, i+1, n-1)
			}
			if hasParent[c] {
				return fmt.Errorf("node %d is the child of two splits", c)
			}
			hasParent[c] = true
		}
	}
	for i := 1; i < n; i++ {
		if !hasParent[i] {
			return fmt.Errorf("node %d is the child of no split", i)
		}
	}
	return nil
}

// checkSet checks node i's level set (an index into sets, -1 for none):
// a split on a nominal feature has one with a bit for each level, one on
// a numeric feature none.
func checkSet(d *data, sets [][]uint64, f int32, set, i int) error {
	if f < 0 {
		return nil
	}
	L := d.levels[f]
	switch {
	case L == 0 && set >= 0:
		return fmt.Errorf("node %d splits numeric feature %q by a level set", i, d.names[f])
	case L > 0 && (set < 0 || set >= len(sets)):
		return fmt.Errorf("node %d splits nominal feature %q by level set %d of %d", i, d.names[f], set, len(sets))
	case L > 0 && len(sets[set]) != (L+63)/64:
		return fmt.Errorf("node %d: level set %d has %d words for %d levels", i, set, len(sets[set]), L)
	}
	return nil
}

// checkClass checks that node i's value is a class code (classification).
func checkClass(v float64, k, i int) error {
	if k > 0 && (v < 0 || v >= float64(k) || v != math.Trunc(v)) {
		return fmt.Errorf("node %d predicts class %v, not one of 0..%d", i, v, k-1)
	}
	return nil
}

// sameLengths checks that every list has n entries, one a node.
func sameLengths(n int, lens map[string]int) error {
	for _, name := range slices.Sorted(maps.Keys(lens)) {
		if l := lens[name]; l != n {
			return fmt.Errorf("%s has %d entries for %d nodes", name, l, n)
		}
	}
	return nil
}

func bit(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

// missLeft reads node i's '0' or '1'.
func missLeft(s string, i int) (bool, error) {
	switch s[i] {
	case '0':
		return false, nil
	case '1':
		return true, nil
	}
	return false, fmt.Errorf("missing_left: node %d is %q, not 0 or 1", i, s[i])
}

// stateError names the model whose state failed to load.
func stateError(model string, err error) error {
	return fmt.Errorf("%s: model state: %w", model, err)
}

type treeState struct {
	Data dataState  `json:"data"`
	Tree grownState `json:"tree"`
}

// MarshalState implements engine.Persistent.
func (m *DecisionTree) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("decision tree", m.Fitted, func() any {
		return treeState{Data: dataStateOf(m.d), Tree: grownStateOf(m.t)}
	})
}

// UnmarshalState implements engine.Persistent.
func (m *DecisionTree) UnmarshalState(b []byte) error {
	var s treeState
	d, err := decodeData(b, &s, &s.Data)
	if err != nil {
		return stateError("decision tree", err)
	}
	t, err := s.Tree.grown(d)
	if err != nil {
		return stateError("decision tree", err)
	}
	m.d, m.t, m.features, m.Fitted = d, t, d.names, true
	m.pruning, m.splits, m.collapsed = false, nil, nil
	return nil
}

// decodeData decodes a state into s and rebuilds its data description ds.
func decodeData(b []byte, s any, ds *dataState) (*data, error) {
	if err := engine.DecodeStrict(b, s); err != nil {
		return nil, err
	}
	return ds.data()
}

type forestState struct {
	Data        dataState     `json:"data"`
	Trees       []packedState `json:"trees"`
	Importances [][]float64   `json:"importances"` // each tree's normalised impurity decreases
}

// MarshalState implements engine.Persistent.
func (f *Forest) MarshalState() ([]byte, error) {
	return engine.MarshalFitted(f.name(), f.Fitted, func() any {
		s := forestState{Data: dataStateOf(f.d), Trees: make([]packedState, len(f.trees)), Importances: f.imps}
		for i, t := range f.trees {
			s.Trees[i] = packedStateOf(t)
		}
		return s
	})
}

// UnmarshalState implements engine.Persistent.
func (f *Forest) UnmarshalState(b []byte) error {
	var s forestState
	d, err := decodeData(b, &s, &s.Data)
	if err == nil {
		err = checkMembers(len(s.Trees), f.Trees, "trees", len(s.Importances), "importances")
	}
	if err != nil {
		return stateError(f.name(), err)
	}
	trees := make([]*packed, len(s.Trees))
	nodes := 0
	for i := range s.Trees {
		if trees[i], err = s.Trees[i].packed(d); err != nil {
			return stateError(f.name(), fmt.Errorf("tree %d: %w", i, err))
		}
		if len(s.Importances[i]) != d.p {
			return stateError(f.name(), fmt.Errorf("tree %d has %d importances for %d features", i, len(s.Importances[i]), d.p))
		}
		nodes += len(trees[i].nodes)
	}
	f.d, f.trees, f.imps, f.nodes, f.features, f.Fitted = d, trees, s.Importances, nodes, d.names, true
	return nil
}

// checkMembers checks an ensemble's number of members against its
// parameter (at most that many: a fit stopped early keeps fewer) and
// against a list of one entry a member.
func checkMembers(n, most int, param string, per int, perName string) error {
	switch {
	case n == 0:
		return fmt.Errorf("no %s", param)
	case n > most:
		return fmt.Errorf("%d %s, but the model was built with %s=%d", n, param, param, most)
	case per != n:
		return fmt.Errorf("%d %s for %d %s", per, perName, n, param)
	}
	return nil
}

type boostState struct {
	Data  dataState    `json:"data"`
	Trees []grownState `json:"trees"`
	Votes []float64    `json:"votes"` // each tree's β
}

// MarshalState implements engine.Persistent.
func (a *AdaBoost) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("AdaBoost", a.Fitted, func() any {
		s := boostState{Data: dataStateOf(a.d), Trees: make([]grownState, len(a.trees)), Votes: a.beta}
		for i, t := range a.trees {
			s.Trees[i] = grownStateOf(t)
		}
		return s
	})
}

// UnmarshalState implements engine.Persistent.
func (a *AdaBoost) UnmarshalState(b []byte) error {
	var s boostState
	d, err := decodeData(b, &s, &s.Data)
	if err == nil && d.k < 2 {
		err = fmt.Errorf("%d classes: AdaBoost needs at least two", d.k)
	}
	if err == nil {
		err = checkMembers(len(s.Trees), a.Rounds, "rounds", len(s.Votes), "votes")
	}
	if err != nil {
		return stateError("AdaBoost", err)
	}
	trees := make([]*grown, len(s.Trees))
	for i := range s.Trees {
		if trees[i], err = s.Trees[i].grown(d); err != nil {
			return stateError("AdaBoost", fmt.Errorf("tree %d: %w", i, err))
		}
	}
	a.d, a.trees, a.beta, a.features, a.Fitted = d, trees, s.Votes, d.names, true
	return nil
}

var (
	_ engine.Persistent = (*DecisionTree)(nil)
	_ engine.Persistent = (*Forest)(nil)
	_ engine.Persistent = (*AdaBoost)(nil)
)

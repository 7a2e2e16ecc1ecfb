package engine

import (
	"encoding/json"
	"slices"
	"testing"
)

// A small tree: x <= 5 splits first, then x <= 3 on the left (merged into
// one test on the path), and a nominal test on the right.
func smallTree() *Tree {
	le := func(th float64) Condition { return Condition{Feature: 0, Name: "x", Op: "<=", Threshold: th} }
	gt := func(th float64) Condition { return Condition{Feature: 0, Name: "x", Op: ">", Threshold: th} }
	return &Tree{Classes: []string{"a", "b"}, Criterion: "gini", Nodes: []TreeNode{
		{Children: []int{1, 2}, Samples: 10, Counts: []float64{5, 5}},
		{Cond: le(5), Children: []int{3, 4}, Samples: 6, Counts: []float64{5, 1}},
		{Cond: gt(5), Children: []int{5, 6}, Samples: 4, Counts: []float64{0, 4}, Value: 1},
		{Cond: le(3), Samples: 4, Counts: []float64{4, 0}},
		{Cond: gt(3), Samples: 2, Counts: []float64{1, 1}},
		{Cond: Condition{Feature: 1, Name: "c", Op: "in", Levels: []string{"red"}, Missing: true}, Samples: 3, Counts: []float64{0, 3}, Value: 1},
		{Cond: Condition{Feature: 1, Name: "c", Op: "not in", Levels: []string{"red"}}, Samples: 1, Counts: []float64{0, 1}, Value: 1},
	}}
}

// Rules are read off a tree one per leaf, left to right, with tests on the
// same feature and side merged, whether asked for one at a time or
// written as JSON.
func TestTreeRules(t *testing.T) {
	want := []string{
		"IF x <= 3 THEN a (4 rows, 100%)",
		"IF x <= 5 AND x > 3 THEN a (2 rows, 50%)",
		"IF x > 5 AND c in {red} or missing THEN b (3 rows, 100%)",
		"IF x > 5 AND c not in {red} THEN b (1 row, 100%)",
	}
	rs := smallTree().Rules()
	var got []string
	for i := range rs.Len() {
		got = append(got, rs.At(i).String())
		if rs.Support(i) != rs.At(i).Support {
			t.Errorf("rule %d: support %d, its rule says %d", i, rs.Support(i), rs.At(i).Support)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("rules\n%q\nwant\n%q", got, want)
	}
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	var back Rules
	if err := json.Unmarshal(b, &back); err != nil || back.Len() != len(want) || back.At(2).String() != want[2] {
		t.Errorf("JSON %s read back as %d rules (%v)", b, back.Len(), err)
	}
}

package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/tealab/tealab/numfmt"
)

// Tree is a fitted decision tree as a model shows it: nodes with the test
// that leads to each, the training rows that reached it, its impurity, and
// its class counts (classification) or value (regression). It is the shape
// the tree views, the rules and --json read; the learner keeps its own.
type Tree struct {
	Classes   []string   // class names; nil for a regression tree
	Criterion string     // impurity measure, e.g. "gini", "entropy", "mse"
	Nodes     []TreeNode // Nodes[0] is the root
	// Label says which tree of a Forester this is, and what it weighs
	// ("round 3 of 50, vote 0.83"); "" for a model of one tree.
	Label string `json:"label,omitempty"`
}

// TreeNode is one node. A leaf has no children.
type TreeNode struct {
	Cond     Condition // the test a row passed to get here from the parent (zero for the root)
	Children []int     // indices into Tree.Nodes
	Samples  int       // training rows that reached the node
	Impurity float64
	Counts   []float64 // classification: training rows (or weight) per class
	Value    float64   // regression: the mean target; classification: the majority class code
}

// Leaf says whether the node has no children.
func (n TreeNode) Leaf() bool { return len(n.Children) == 0 }

// Condition is a test on one feature: x <= t or x > t for a numeric feature,
// x in {levels} or not for a nominal one. Missing says rows whose value is
// missing take this branch too; MissingDefault says a missing value takes
// it although no training row had one for this feature (a tree sends it
// where most training weight went), which the test as written leaves out.
type Condition struct {
	Feature        int      // column index as the model saw the features
	Name           string   // that column's name
	Op             string   // "<=", ">", "in", "not in", "=", "!="
	Threshold      float64  // numeric tests
	Levels         []string // nominal tests
	Missing        bool     // missing values go this way
	MissingDefault bool     // missing values, unseen in training, go this way
}

// String is the test as a person reads it: "petal_length <= 2.45",
// "colour in {red, blue}", "age > 40 or missing".
func (c Condition) String() string {
	var s string
	switch c.Op {
	case "in", "not in":
		s = c.Name + " " + c.Op + " {" + strings.Join(c.Levels, ", ") + "}"
	case "=", "!=":
		s = c.Name + " " + c.Op + " " + strings.Join(c.Levels, ", ")
	case "":
		return ""
	default:
		s = c.Name + " " + c.Op + " " + numfmt.Sig(c.Threshold, 4)
	}
	if c.Missing {
		s += " or missing"
	}
	return s
}

// Depth is the number of edges on the longest path from the root to a leaf.
func (t *Tree) Depth() int {
	if t == nil || len(t.Nodes) == 0 {
		return 0
	}
	var walk func(i, d int) int
	walk = func(i, d int) int {
		best := d
		for _, c := range t.Nodes[i].Children {
			best = max(best, walk(c, d+1))
		}
		return best
	}
	return walk(0, 0)
}

// Leaves counts the leaves.
func (t *Tree) Leaves() int {
	n := 0
	for _, nd := range t.Nodes {
		if nd.Leaf() {
			n++
		}
	}
	return n
}

// Outcome is what node i predicts, for people: the class name or the value.
func (t *Tree) Outcome(i int) string {
	nd := t.Nodes[i]
	if t.Classes != nil {
		if c := int(nd.Value); c >= 0 && c < len(t.Classes) {
			return t.Classes[c]
		}
	}
	return numfmt.Sig(nd.Value, 4)
}

// Rules reads one rule per leaf, left to right: the conditions on the path
// from the root, the leaf's outcome, support and class counts. Conditions on
// the same feature and side are merged (x <= 5 AND x <= 3 is x <= 3).
func (t *Tree) Rules() Rules {
	rs := Rules{tree: t, parent: make([]int, len(t.Nodes))}
	rs.parent[0] = -1
	stack := []int{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := t.Nodes[i]
		if nd.Leaf() {
			rs.leaves = append(rs.leaves, i)
		}
		for k := len(nd.Children) - 1; k >= 0; k-- { // the first child on top
			c := nd.Children[k]
			rs.parent[c] = i
			stack = append(stack, c)
		}
	}
	return rs
}

// mergeCondition appends c to a copy of path, replacing a looser numeric
// test on the same feature and side.
func mergeCondition(path []Condition, c Condition) []Condition {
	out := append([]Condition(nil), path...)
	if c.Op == "<=" || c.Op == ">" {
		for k, p := range out {
			if p.Feature == c.Feature && p.Op == c.Op && p.Missing == c.Missing {
				if (c.Op == "<=" && c.Threshold < p.Threshold) || (c.Op == ">" && c.Threshold > p.Threshold) {
					out[k] = c
				}
				return out
			}
		}
	}
	return append(out, c)
}

// treeNodeJSON is a node in --json: nested, with the test that leads to it.
type treeNodeJSON struct {
	Condition string          `json:"condition,omitempty"`
	Feature   *int            `json:"feature,omitempty"`
	Op        string          `json:"op,omitempty"`
	Threshold *numfmt.Float   `json:"threshold,omitempty"`
	Levels    []string        `json:"levels,omitempty"`
	Missing   bool            `json:"missing,omitempty"`
	Default   bool            `json:"missing_default,omitempty"`
	Name      string          `json:"name,omitempty"`
	Samples   int             `json:"samples"`
	Impurity  numfmt.Float    `json:"impurity"`
	Counts    []numfmt.Float  `json:"counts,omitempty"`
	Value     numfmt.Float    `json:"value"`
	Predicts  string          `json:"predicts"`
	Children  []*treeNodeJSON `json:"children,omitempty"`
}

type treeJSON struct {
	Label     string        `json:"label,omitempty"`
	Classes   []string      `json:"classes,omitempty"`
	Criterion string        `json:"criterion"`
	Depth     int           `json:"depth"`
	Leaves    int           `json:"leaves"`
	Root      *treeNodeJSON `json:"root"`
}

// MarshalJSON writes the tree as nested nodes from the root.
func (t Tree) MarshalJSON() ([]byte, error) {
	var node func(i int) *treeNodeJSON
	node = func(i int) *treeNodeJSON {
		nd := t.Nodes[i]
		j := &treeNodeJSON{Samples: nd.Samples, Impurity: numfmt.Float(nd.Impurity),
			Counts: numfmt.Floats(nd.Counts), Value: numfmt.Float(nd.Value), Predicts: t.Outcome(i)}
		if i != 0 {
			c := nd.Cond
			f, th := c.Feature, numfmt.Float(c.Threshold)
			j.Condition, j.Feature, j.Op, j.Levels, j.Missing, j.Default, j.Name = c.String(), &f, c.Op, c.Levels, c.Missing, c.MissingDefault, c.Name
			if c.Op == "<=" || c.Op == ">" {
				j.Threshold = &th
			}
		}
		for _, ch := range nd.Children {
			j.Children = append(j.Children, node(ch))
		}
		return j
	}
	tj := treeJSON{Label: t.Label, Classes: t.Classes, Criterion: t.Criterion, Depth: t.Depth(), Leaves: t.Leaves()}
	if len(t.Nodes) > 0 {
		tj.Root = node(0)
	}
	return json.Marshal(tj)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (t *Tree) UnmarshalJSON(b []byte) error {
	var tj treeJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		return err
	}
	*t = Tree{Classes: tj.Classes, Criterion: tj.Criterion, Label: tj.Label}
	if tj.Root == nil {
		return nil
	}
	var add func(j *treeNodeJSON, depth int) (int, error)
	add = func(j *treeNodeJSON, depth int) (int, error) {
		if depth > 10000 {
			return 0, fmt.Errorf("tree is deeper than 10000 levels")
		}
		nd := TreeNode{Samples: j.Samples, Impurity: float64(j.Impurity), Counts: numfmt.Unfloats(j.Counts), Value: float64(j.Value)}
		if j.Feature != nil {
			nd.Cond = Condition{Feature: *j.Feature, Name: j.Name, Op: j.Op, Levels: j.Levels, Missing: j.Missing,
				MissingDefault: j.Default, Threshold: math.NaN()}
			if j.Threshold != nil {
				nd.Cond.Threshold = float64(*j.Threshold)
			}
		}
		i := len(t.Nodes)
		t.Nodes = append(t.Nodes, nd)
		for _, c := range j.Children {
			k, err := add(c, depth+1)
			if err != nil {
				return 0, err
			}
			t.Nodes[i].Children = append(t.Nodes[i].Children, k)
		}
		return i, nil
	}
	_, err := add(tj.Root, 0)
	return err
}

func nan() float64 { return math.NaN() }

// Holds says whether a value passes the test. v is the feature's value as
// the model saw it (a level code for a nominal feature, NaN when missing);
// level names a nominal feature's code.
func (c Condition) Holds(v float64, level func(code int) string) bool {
	if v != v {
		return c.Missing || c.MissingDefault
	}
	switch c.Op {
	case "<=":
		return v <= c.Threshold
	case ">":
		return v > c.Threshold
	case "in", "=", "not in", "!=":
		in := false
		if level != nil {
			name := level(int(v))
			for _, l := range c.Levels {
				in = in || l == name
			}
		}
		return in == (c.Op == "in" || c.Op == "=")
	}
	return false
}

// Path is the nodes a row passes from the root to the leaf it reaches (x
// holds the row's features as the model saw them), a missing value taking
// the branch its conditions send it down. It stops early at a node none of
// whose branches takes the row (a tree that does not say where missing
// values go, as one saved before it did).
func (t *Tree) Path(x []float64, level func(feature, code int) string) []int {
	if t == nil || len(t.Nodes) == 0 {
		return nil
	}
	path := []int{0}
	for i := 0; !t.Nodes[i].Leaf(); {
		next := -1
		for _, c := range t.Nodes[i].Children {
			cond := t.Nodes[c].Cond
			if cond.Feature >= len(x) {
				return path
			}
			var lv func(int) string
			if level != nil {
				lv = func(code int) string { return level(cond.Feature, code) }
			}
			if cond.Holds(x[cond.Feature], lv) {
				next = c
				break
			}
		}
		if next < 0 {
			return path
		}
		path = append(path, next)
		i = next
	}
	return path
}

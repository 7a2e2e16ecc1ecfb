package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/numfmt"
)

// What fitted models can show: one small interface per capability, the
// type it returns, and its definition (capability.go). A model implements
// the interfaces that apply to it; evaluation keeps what it offers.

// Coefficienter is a model that can show its coefficients.
type Coefficienter interface {
	Coefficients() Coefficients
}

// Coefficients is a fitted linear model's weights: Weights has one row per
// output (one per class, or a single row) and one column per feature.
type Coefficients struct {
	Features  []string
	Outputs   []string // row names: class names, or the target's name
	Weights   *mat.Dense
	Intercept []float64 // one per output
}

// Treer is a model that can show its decision tree.
type Treer interface {
	Tree() *Tree
}

// Forester is a model of several trees (boosting's rounds, an ensemble's
// members): its Tree is the first, which results keep, and TreeAt gives
// any of them (from 0; nil out of range), for a front end to page through
// while it holds the model.
type Forester interface {
	Treer
	TreeCount() int
	TreeAt(i int) *Tree
}

// Ruler is a model that can show IF-THEN rules. Models with a tree need not
// implement it: the rules capability reads one rule per leaf off the tree.
type Ruler interface {
	Rules() Rules
}

// Linkager is a hierarchical clustering that can show its merge tree.
type Linkager interface {
	Linkage() *Linkage
}

// Componenter is a reduction that can show its directions (principal
// components, factors) and the variance each explains.
type Componenter interface {
	Components() *Components
}

// Importancer is a model that can say how much each feature mattered.
type Importancer interface {
	FeatureImportances() *Importances
}

// SupportVectorer is a kernel machine that keeps training rows to predict
// with: its support vectors.
type SupportVectorer interface {
	SupportVectors() *SupportVectors
}

// SupportVectors are the training rows a fitted kernel machine kept, in
// the units of its input (after the run's standardisation, if any), with
// their dual coefficients. For a classifier with k classes trained one
// against one, Coef has k−1 entries per vector, as LIBSVM's sv_coef: its
// coefficient y_i α_i in each of the pairs its class takes part in.
type SupportVectors struct {
	Features []string    `json:"features"`
	Rows     []int       `json:"rows"`            // index of each vector among the training rows
	Class    []string    `json:"class,omitempty"` // class of each vector; empty for regression
	X        [][]float64 `json:"x"`               // the vectors
	Coef     [][]float64 `json:"coef"`            // dual coefficients of each vector
	AtBound  []bool      `json:"at_bound"`        // α = C: on or inside the margin (a margin error)
	Kernel   string      `json:"kernel"`          // the kernel as a formula, for the table's title
}

// The capabilities every family may offer, in the order --json writes them.
var (
	CapCoefficients = DefineCapability("coefficients", "coefficients", 420, func(m Model) (*Coefficients, bool) {
		c, ok := m.(Coefficienter)
		if !ok {
			return nil, false
		}
		co := c.Coefficients()
		return &co, co.Weights != nil
	})
	CapImportances = DefineCapability("importances", "feature importances", 400, func(m Model) (*Importances, bool) {
		c, ok := m.(Importancer)
		if !ok {
			return nil, false
		}
		v := c.FeatureImportances()
		return v, v != nil
	})
	CapTree = DefineCapability("tree", "decision tree", 360, func(m Model) (*Tree, bool) {
		c, ok := m.(Treer)
		if !ok {
			return nil, false
		}
		t := c.Tree()
		return t, t != nil && len(t.Nodes) > 0
	})
	CapRules = DefineCapability("rules", "rules", 390, func(m Model) (Rules, bool) {
		if r, ok := m.(Ruler); ok {
			rs := r.Rules()
			return rs, rs.Len() > 0
		}
		if t, ok := m.(Treer); ok {
			if tr := t.Tree(); tr != nil && len(tr.Nodes) > 0 {
				return tr.Rules(), true
			}
		}
		return Rules{}, false
	})
	CapLinkage = DefineCapability("linkage", "merge tree", 350, func(m Model) (*Linkage, bool) {
		c, ok := m.(Linkager)
		if !ok {
			return nil, false
		}
		l := c.Linkage()
		return l, l != nil && len(l.Merges) > 0
	})
	CapComponents = DefineCapability("components", "components", 340, func(m Model) (*Components, bool) {
		c, ok := m.(Componenter)
		if !ok {
			return nil, false
		}
		v := c.Components()
		return v, v != nil && v.Vectors != nil
	})
	CapLabels = DefineCapability("labels", "cluster of each row", 330, func(m Model) ([]int, bool) {
		c, ok := m.(Labeler)
		if !ok {
			return nil, false
		}
		v := c.TrainingLabels()
		return v, len(v) > 0
	})
	// CapSupportVectors shows a kernel machine's support vectors (engine/svm
	// and any other kernel machine); the decision regions (engine/inspect)
	// ring them.
	CapSupportVectors = DefineCapability("support_vectors", "support vectors", 430, func(m Model) (*SupportVectors, bool) {
		s, ok := m.(SupportVectorer)
		if !ok {
			return nil, false
		}
		return s.SupportVectors(), true
	})
)

// matrix is a *mat.Dense in JSON: a list of rows, NaN as null.
func matrixJSON(m *mat.Dense) [][]numfmt.Float {
	if m == nil {
		return nil
	}
	r, _ := m.Dims()
	out := make([][]numfmt.Float, r)
	for i := range r {
		out[i] = numfmt.Floats(m.RawRowView(i))
	}
	return out
}

func matrixFromJSON(rows [][]numfmt.Float) (*mat.Dense, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	c := len(rows[0])
	if c == 0 {
		return nil, nil
	}
	m := mat.NewDense(len(rows), c, nil)
	for i, row := range rows {
		if len(row) != c {
			return nil, fmt.Errorf("row %d has %d values, row 1 has %d", i+1, len(row), c)
		}
		m.SetRow(i, numfmt.Unfloats(row))
	}
	return m, nil
}

type coefficientsJSON struct {
	Features  []string         `json:"features"`
	Outputs   []string         `json:"outputs"`
	Weights   [][]numfmt.Float `json:"weights"` // one row per output
	Intercept []numfmt.Float   `json:"intercept,omitempty"`
}

// MarshalJSON writes features, outputs, weights (one row per output) and
// intercept.
func (c Coefficients) MarshalJSON() ([]byte, error) {
	return json.Marshal(coefficientsJSON{c.Features, c.Outputs, matrixJSON(c.Weights), numfmt.Floats(c.Intercept)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Coefficients) UnmarshalJSON(b []byte) error {
	var v coefficientsJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	w, err := matrixFromJSON(v.Weights)
	if err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	*c = Coefficients{Features: v.Features, Outputs: v.Outputs, Weights: w, Intercept: numfmt.Unfloats(v.Intercept)}
	return nil
}

// Importances says how much each feature mattered to a fitted model (for
// trees and forests: the impurity decrease it brought, normalised to sum 1).
type Importances struct {
	Features []string  `json:"features"`
	Values   []float64 `json:"values"`
	Method   string    `json:"method"` // how they were measured, e.g. "mean impurity decrease"
}

// Linkage is the merge tree of an agglomerative clustering of N rows, as
// scipy's linkage matrix: merge i joins clusters A and B at Height into a
// cluster of Size rows; ids below N are rows, id N+i is merge i's cluster.
type Linkage struct {
	Merges []Merge
	Leaves int    // N
	Method string // "single", "complete", "average", "centroid", ...
}

// Merge is one step of a hierarchical clustering.
type Merge struct {
	A, B   int
	Height float64
	Size   int
}

// MarshalJSON writes the merge list as scipy does: [[a, b, height, size], ...].
func (l Linkage) MarshalJSON() ([]byte, error) {
	rows := make([][4]any, len(l.Merges))
	for i, m := range l.Merges {
		rows[i] = [4]any{m.A, m.B, numfmt.Float(m.Height), m.Size}
	}
	return json.Marshal(rows)
}

// UnmarshalJSON reads the merge list; the number of leaves is one more than
// the number of merges.
func (l *Linkage) UnmarshalJSON(b []byte) error {
	var rows [][4]numfmt.Float
	if err := json.Unmarshal(b, &rows); err != nil {
		return err
	}
	l.Merges = make([]Merge, len(rows))
	for i, r := range rows {
		l.Merges[i] = Merge{A: int(r[0]), B: int(r[1]), Height: float64(r[2]), Size: int(r[3])}
	}
	l.Leaves = len(rows) + 1
	return nil
}

// Components are the directions a reduction keeps: Vectors has one row per
// component (its loadings on the input features), with the variance of the
// data along it and that variance's share of the total.
type Components struct {
	Features []string   // input features
	Names    []string   // component names, e.g. PC1
	Vectors  *mat.Dense // components x features
	Variance []float64  // variance along each component
	Ratio    []float64  // share of the total variance (explained_variance_ratio)
}

type componentsJSON struct {
	Features []string         `json:"features"`
	Names    []string         `json:"names"`
	Vectors  [][]numfmt.Float `json:"loadings"`
	Variance []numfmt.Float   `json:"explained_variance,omitempty"`
	Ratio    []numfmt.Float   `json:"explained_variance_ratio,omitempty"`
}

// MarshalJSON writes features, names, loadings (one row per component),
// explained_variance and explained_variance_ratio.
func (c Components) MarshalJSON() ([]byte, error) {
	return json.Marshal(componentsJSON{c.Features, c.Names, matrixJSON(c.Vectors), numfmt.Floats(c.Variance), numfmt.Floats(c.Ratio)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Components) UnmarshalJSON(b []byte) error {
	var v componentsJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	m, err := matrixFromJSON(v.Vectors)
	if err != nil {
		return fmt.Errorf("loadings: %w", err)
	}
	*c = Components{Features: v.Features, Names: v.Names, Vectors: m, Variance: numfmt.Unfloats(v.Variance), Ratio: numfmt.Unfloats(v.Ratio)}
	return nil
}

// Rules are IF-THEN rules, one per leaf of a tree or as a rule learner
// found them. A tree's are read off it one at a time when asked: a tree of
// 100,000 leaves at depth 50 would otherwise hold five million conditions
// beside its nodes. In JSON they are a list of strings.
type Rules struct {
	tree   *Tree
	leaves []int // the tree's leaves, left to right
	parent []int // each node's parent (-1 for the root)
	list   []Rule
}

// RulesOf are rules as a list (a rule learner's, or read back from JSON).
func RulesOf(list []Rule) Rules { return Rules{list: list} }

// Len is the number of rules.
func (rs Rules) Len() int {
	if rs.tree != nil {
		return len(rs.leaves)
	}
	return len(rs.list)
}

// At is rule i.
func (rs Rules) At(i int) Rule {
	if rs.tree == nil {
		return rs.list[i]
	}
	t := rs.tree
	leaf := rs.leaves[i]
	var up []Condition // the tests from the leaf up to a child of the root
	for n := leaf; n > 0; n = rs.parent[n] {
		up = append(up, t.Nodes[n].Cond)
	}
	var path []Condition
	for k := len(up) - 1; k >= 0; k-- {
		path = mergeCondition(path, up[k])
	}
	nd := t.Nodes[leaf]
	return Rule{Conds: path, Outcome: t.Outcome(leaf), Support: nd.Samples, Counts: append([]float64(nil), nd.Counts...)}
}

// Support is the training rows rule i covers, without building it.
func (rs Rules) Support(i int) int {
	if rs.tree != nil {
		return rs.tree.Nodes[rs.leaves[i]].Samples
	}
	return rs.list[i].Support
}

// Rule is one IF-THEN rule: the conditions that all hold, what follows, and
// the training rows it covers.
type Rule struct {
	Conds   []Condition
	Outcome string    // a class name, or a value for regression
	Support int       // training rows that satisfy the conditions
	Counts  []float64 // class distribution of those rows (classification)
	Text    string    // set when read back from JSON: the rule as written
}

// Confidence is the share of the rule's rows in its majority class (NaN
// without class counts).
func (r Rule) Confidence() float64 {
	total, best := 0.0, 0.0
	for _, c := range r.Counts {
		total += c
		best = max(best, c)
	}
	if total == 0 {
		return nan()
	}
	return best / total
}

// Condition text joins: "a AND b", or "TRUE" for a rule with none.
func (r Rule) Condition() string {
	if r.Text != "" && r.Conds == nil {
		if c, _, ok := strings.Cut(strings.TrimPrefix(r.Text, "IF "), " THEN "); ok {
			return c
		}
		return r.Text
	}
	if len(r.Conds) == 0 {
		return "TRUE"
	}
	parts := make([]string, len(r.Conds))
	for i, c := range r.Conds {
		parts[i] = c.String()
	}
	return strings.Join(parts, " AND ")
}

// String is "IF cond AND cond THEN outcome (support n, confidence c)".
func (r Rule) String() string {
	if r.Text != "" && r.Conds == nil {
		return r.Text
	}
	s := "IF " + r.Condition() + " THEN " + r.Outcome + " (" + numfmt.Count(r.Support, "row")
	if c := r.Confidence(); c == c {
		s += ", " + numfmt.Percent(c)
	}
	return s + ")"
}

// MarshalJSON writes the rules as a list of strings, one rule at a time.
func (rs Rules) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range rs.Len() {
		if i > 0 {
			b.WriteByte(',')
		}
		s, err := json.Marshal(rs.At(i).String())
		if err != nil {
			return nil, err
		}
		b.Write(s)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// UnmarshalJSON reads rules written as strings (their text only).
func (rs *Rules) UnmarshalJSON(b []byte) error {
	var texts []string
	if err := json.Unmarshal(b, &texts); err != nil {
		return err
	}
	list := make([]Rule, len(texts))
	for i, t := range texts {
		list[i] = Rule{Text: t}
	}
	*rs = RulesOf(list)
	return nil
}

package tree

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// datasetOf loads a built-in set.
func datasetOf(t testing.TB, name string) *datasets.Dataset {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// builtin loads a built-in set as a training set (all rows, numeric
// features).
func builtin(t testing.TB, name string) engine.Train {
	t.Helper()
	d := datasetOf(t, name)
	return engine.Train{X: d.X, Y: d.Y, Classes: d.Classes, Features: d.FeatureNames(), Columns: d.Features, Seed: 1}
}

type skRef struct {
	CV map[string][2]float64 `json:"cv"`
}

// loadRef reads the scores of testdata/sklearn_ref.py.
func loadRef(t testing.TB) skRef {
	t.Helper()
	var r skRef
	readJSON(t, "testdata/sklearn_ref.json", &r)
	return r
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// csvTrain loads a test file: its last column the target.
func csvTrain(t testing.TB, path string) engine.Train {
	t.Helper()
	tab, err := datasets.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Train{X: d.X, Y: d.Y, Classes: d.Classes, Features: d.FeatureNames(), Columns: d.Features, Seed: 1}
}

// preorder lists an engine.Tree as sklearn_ref.py does: (feature,
// threshold, samples, counts or value), feature -1 for a leaf.
func preorder(tr *engine.Tree, perm []int) [][]any {
	var out [][]any
	var walk func(i int)
	walk = func(i int) {
		nd := tr.Nodes[i]
		f, th := -1.0, 0.0
		if !nd.Leaf() {
			c := tr.Nodes[nd.Children[0]].Cond
			f, th = float64(c.Feature), c.Threshold
		}
		vals := []any{}
		if tr.Classes != nil {
			for _, c := range perm {
				vals = append(vals, nd.Counts[c])
			}
		} else {
			vals = append(vals, nd.Value)
		}
		out = append(out, []any{f, th, float64(nd.Samples), vals})
		for _, c := range nd.Children {
			walk(c)
		}
	}
	walk(0)
	return out
}

// Trees have scikit-learn's structure on data without tied splits: the
// same feature and threshold at every node, the same rows and class counts
// (or mean) in every node, node for node in preorder, and after minimal
// cost-complexity pruning the same nodes left (reference:
// testdata/notie_ref.py, scikit-learn 1.2.1, which checks that no node has
// two equally good splits; thresholds agree to float32, scikit-learn's type).
func TestTreesMatchScikitLearn(t *testing.T) {
	var ref []struct {
		File      string  `json:"file"`
		Criterion string  `json:"criterion"`
		MaxDepth  int     `json:"max_depth"`
		MinLeaf   int     `json:"min_samples_leaf"`
		CCPAlpha  float64 `json:"ccp_alpha"`
		Nodes     [][]any `json:"nodes"`
	}
	readJSON(t, "testdata/notie_ref.json", &ref)
	for _, rt := range ref {
		tr := csvTrain(t, "testdata/"+rt.File)
		m := &DecisionTree{Criterion: rt.Criterion, MaxDepth: rt.MaxDepth, MinSamplesLeaf: rt.MinLeaf, Prune: PruneNone, MinSamplesSplit: 2, Purity: 1, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}
		if rt.CCPAlpha > 0 {
			m.Prune, m.CCPAlpha = PruneCostComplexity, rt.CCPAlpha
		}
		var perm []int
		if rt.Criterion == "mse" {
			m.Criterion = ""
		} else {
			for _, name := range []string{"c0", "c1", "c2"} { // scikit-learn's class order
				perm = append(perm, slices.Index(tr.Classes, name))
			}
		}
		if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
			t.Fatal(err)
		}
		got := preorder(m.Tree(), perm)
		if len(got) != len(rt.Nodes) {
			t.Errorf("%s: %d nodes, scikit-learn %d", rt.File, len(got), len(rt.Nodes))
			continue
		}
		close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }
		for i, want := range rt.Nodes {
			g := got[i]
			same := g[0] == want[0] && close(g[1].(float64), want[1].(float64)) && g[2] == want[2]
			gv, wv := g[3].([]any), want[3].([]any)
			for j := range wv {
				same = same && j < len(gv) && close(gv[j].(float64), wv[j].(float64))
			}
			if !same {
				t.Errorf("%s node %d (preorder): %v, scikit-learn %v", rt.File, i, g, want)
				break
			}
		}
	}
}

// The path a row takes through the exported tree ends at the leaf the
// model predicts from, for every training row, numeric and nominal splits,
// missing values included.
func TestExportedPathsMatchPredictions(t *testing.T) {
	tr := csvTrain(t, "../../datasets/testdata/labor.arff")
	m := &DecisionTree{Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Prune: PruneErrorBased, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
		t.Fatal(err)
	}
	et := m.Tree()
	level := func(f, code int) string { return tr.Columns[f].Levels[code] }
	n, p := tr.X.Dims()
	pred, _ := m.Predict(tr.X)
	for i := range n {
		x := tr.X.RawRowView(i)[:p]
		path := et.Path(x, level)
		leaf := path[len(path)-1]
		if !et.Nodes[leaf].Leaf() || et.Nodes[leaf].Value != pred[i] {
			t.Fatalf("row %d: path %v ends at node %d (%+v), prediction %v", i, path, leaf, et.Nodes[leaf], pred[i])
		}
	}
}

package tree

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// The path a row takes through the shown tree ends at the leaf whose
// outcome the model predicts, whatever is missing: each feature of each
// row missing in turn, and all of them, on weather.nominal (unpruned and
// pruned), on iris (no missing values in training, so the tree routes an
// unseen missing value to its heavier side) and on iris with some petal
// lengths missing in training (the branch that says "or missing").
func TestPathAgreesWithPredictionWhenValuesAreMissing(t *testing.T) {
	weather := csvTrain(t, "../../datasets/testdata/weather.nominal.arff")
	iris := builtin(t, "iris")
	holey := iris
	hx := mat.DenseCopyOf(iris.X)
	for i := 0; i < hx.RawMatrix().Rows; i += 7 {
		hx.Set(i, 2, math.NaN())
	}
	holey.X = hx
	cases := []struct {
		name     string
		settings map[string]string
		d        engine.Train
	}{
		{"weather.nominal prune=none", map[string]string{"prune": "none"}, weather},
		{"weather.nominal", nil, weather},
		{"iris", nil, iris},
		{"iris with missing petal lengths", nil, holey},
	}
	for _, c := range cases {
		m := fitTree(t, c.settings, c.d)
		tr := m.Tree()
		level := func(f, code int) string {
			if f < len(c.d.Columns) && code >= 0 && code < len(c.d.Columns[f].Levels) {
				return c.d.Columns[f].Levels[code]
			}
			return ""
		}
		n, p := c.d.X.Dims()
		for i := range n {
			for j := -1; j < p; j++ { // j = -1: every feature missing
				x := mat.Row(nil, i, c.d.X)
				for f := range x {
					if f == j || j < 0 {
						x[f] = math.NaN()
					}
				}
				pred, err := m.Predict(mat.NewDense(1, p, x))
				if err != nil {
					t.Fatal(err)
				}
				path := tr.Path(x, level)
				leaf := path[len(path)-1]
				if !tr.Nodes[leaf].Leaf() || tr.Nodes[leaf].Value != pred[0] {
					t.Fatalf("%s: row %d, feature %d missing: the path %v ends at node %d (leaf %v, %s), the model predicts %s",
						c.name, i+1, j, path, leaf, tr.Nodes[leaf].Leaf(), tr.Outcome(leaf), c.d.Classes[int(pred[0])])
				}
			}
		}
	}
}

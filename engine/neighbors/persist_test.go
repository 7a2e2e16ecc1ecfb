package neighbors

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// k-NN with each search (k-d tree, exhaustive by matrix products, exact
// exhaustive), k fixed or chosen by leave-one-out, classifying or
// regressing: saved, loaded and compared; and edits of its state that
// loading must refuse.
func TestPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	wine := persisttest.Builtin(t, "wine", datasets.Classification)
	digits := persisttest.Builtin(t, "digits", datasets.Classification)
	digits.X, digits.Y = digits.X.Slice(0, 200, 0, 64).(*mat.Dense), digits.Y[:200]
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	set, shorten, lengthen := persisttest.Set, persisttest.Shorten, persisttest.Lengthen
	common := []persisttest.Mutation{shorten("rows"), shorten("rows.3"), lengthen("rows.0"), shorten("targets"),
		set("rows.2.1", "x"), set("rows", []any{}), set("k", 0.0), set("k", 1e6)}
	classes := append(common, set("targets.0", 1.5), set("targets.4", 99.0), set("targets.5", -1.0), shorten("classes"))
	cases := []persisttest.Case{
		{Name: "knn", Train: iris, X: iris.X, Edits: classes},
		{Name: "knn", Settings: map[string]string{"choose_k": "loo", "k_max": "15"}, Train: iris, X: iris.X,
			Edits: append(classes, shorten("loo"), set("loo.0", -1.0), set("loo.0", 0.0))},
		{Name: "knn", Settings: map[string]string{"k": "3"}, Train: wine, X: wine.X, Edits: classes},
		{Name: "knn", Settings: map[string]string{"metric": "l1"}, Train: digits, X: digits.X, Edits: classes},
		{Name: "knn", Settings: map[string]string{"algorithm": "kdtree", "eps": "0.5", "leaf_size": "5"}, Train: diabetes,
			X: diabetes.X, Edits: append(common, set("targets.0", "NaN"), set("classes", []any{"a", "b"}))},
	}
	for i := range cases {
		cases[i].Extra = func(m engine.Model) any { return m.(*KNN).Choice() }
	}
	persisttest.Check(t, cases)
}

func FuzzKNNState(f *testing.F) {
	iris := persisttest.Builtin(f, "iris", datasets.Classification)
	c := persisttest.Case{Name: "knn", Settings: map[string]string{"choose_k": "loo", "k_max": "5"}, Train: iris, X: iris.X}
	persisttest.Fuzz(f, c, persisttest.State(f, c))
}

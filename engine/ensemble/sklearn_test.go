package ensemble_test

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	_ "github.com/tealab/tealab/engine/models" // the members come from the registry
)

// The tests of this package are external: members are any registered
// models, which engine/models registers (importing it from the package's
// own tests would be an import cycle). The family's code imports none.

// split is a built-in set cut as testdata/sklearn_ref.py cuts it: every
// third row (0, 3, 6...) tested, the rest trained on, in file order,
// features as read (no standardising).
func split(t *testing.T, name string) (engine.Train, *mat.Dense, []string) {
	return splitAs(t, name, datasets.Classification)
}

func splitAs(t *testing.T, name string, task datasets.Task) (engine.Train, *mat.Dense, []string) {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", task)
	if err != nil {
		t.Fatal(err)
	}
	var in, out []int
	for i := range d.Rows() {
		if i%3 == 0 {
			out = append(out, i)
		} else {
			in = append(in, i)
		}
	}
	tr, te := d.Subset(in), d.Subset(out)
	return engine.Train{X: tr.X, Y: tr.Y, Classes: d.Classes, Features: d.FeatureNames(), Seed: 1}, te.X, d.Classes
}

// TestScikitLearnReferences: voting and stacking of members whose tealab
// and scikit-learn fits agree (Gaussian naive Bayes, LDA, 5-NN) give
// scikit-learn 1.2.1's VotingClassifier (hard, soft, weighted) and
// StackingClassifier (cv=5 unshuffled, passthrough) answers, and
// VotingRegressor's and StackingRegressor's: the same class for every
// test row, regression values within 1e-9 (relative), probabilities within 1e-12 (voting) and 1e-8
// (stacking, whose logistic meta-models are solved to 1e-10 on either
// side), testdata/sklearn_ref.py.
func TestScikitLearnReferences(t *testing.T) {
	raw, err := os.ReadFile("testdata/sklearn_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs map[string]struct {
		Data      string
		Classes   []string
		Predicted []string
		Proba     [][]float64
		Values    []float64 // a regression's predictions
	}
	if err := json.Unmarshal(raw, &refs); err != nil {
		t.Fatal(err)
	}
	// LDA: scikit-learn's svd solver divides the pooled scatter by n - k.
	// QDA's, by n_k - 1. Stacking takes QDA for k-NN, whose neighbours
	// among tied distances differ in the inner folds' fits.
	const members = "gnb+lda[estimator=unbiased]+knn"
	const stacked = "gnb+lda[estimator=unbiased]+qda[estimator=unbiased]"
	const final = "logistic[tol=1e-10;max_iter=1000]"
	cases := map[string]struct {
		model    string
		settings map[string]string
	}{
		"voting_hard_iris":          {"voting", map[string]string{"models": members}},
		"voting_soft_iris":          {"voting", map[string]string{"models": members, "voting": "soft"}},
		"voting_soft_weighted_wine": {"voting", map[string]string{"models": members, "voting": "soft", "weights": "2,1,1"}},
		"stacking_iris":             {"stacking", map[string]string{"models": stacked, "final": final, "shuffle": "false"}},
		"stacking_breast_cancer":    {"stacking", map[string]string{"models": stacked, "final": final, "shuffle": "false"}},
		"stacking_passthrough_iris": {"stacking", map[string]string{"models": stacked, "final": final, "shuffle": "false", "passthrough": "true"}},
		// Regression: least squares, ridge and 5-NN (diabetes' distances
		// do not tie), into ridge for stacking.
		"voting_regression_diabetes":   {"voting", map[string]string{"models": "linear+ridge+knn", "weights": "1,2,1"}},
		"stacking_regression_diabetes": {"stacking", map[string]string{"models": "linear+ridge+knn", "final": "ridge", "shuffle": "false"}},
	}
	if len(cases) != len(refs) {
		t.Fatalf("%d cases for %d references", len(cases), len(refs))
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			ref, ok := refs[name]
			if !ok {
				t.Fatalf("no reference %s", name)
			}
			task := datasets.Classification
			if ref.Values != nil {
				task = datasets.Regression
			}
			tr, X, classes := splitAs(t, ref.Data, task)
			m := engine.MustBuild(c.model, c.settings)
			if err := engine.Fit(t.Context(), m, tr, nil); err != nil {
				t.Fatal(err)
			}
			pred, err := m.(engine.Predictor).Predict(X)
			if err != nil {
				t.Fatal(err)
			}
			if task == datasets.Regression {
				worst := 0.0
				for i, want := range ref.Values {
					worst = math.Max(worst, math.Abs(pred[i]-want)/math.Max(1, math.Abs(want)))
				}
				if len(pred) != len(ref.Values) || worst > 1e-9 {
					t.Errorf("%d predictions, scikit-learn %d; they differ by up to %.3g (relative)", len(pred), len(ref.Values), worst)
				}
				t.Logf("%d test rows; predictions within %.2g (relative)", len(pred), worst)
				return
			}
			if len(pred) != len(ref.Predicted) {
				t.Fatalf("%d predictions, scikit-learn %d", len(pred), len(ref.Predicted))
			}
			wrong := 0
			for i, p := range pred {
				if classes[int(p)] != ref.Predicted[i] {
					wrong++
					t.Errorf("test row %d: %s, scikit-learn %s", i, classes[int(p)], ref.Predicted[i])
				}
			}
			if ref.Proba == nil {
				return
			}
			P, err := m.(engine.Prober).PredictProba(X)
			if err != nil {
				t.Fatal(err)
			}
			col := map[string]int{}
			for j, c := range classes {
				col[c] = j
			}
			worst := 0.0
			for i, row := range ref.Proba {
				for j, want := range row {
					worst = math.Max(worst, math.Abs(P.At(i, col[ref.Classes[j]])-want))
				}
			}
			if tol := map[string]float64{"voting": 1e-12, "stacking": 1e-8}[c.model]; worst > tol {
				t.Errorf("probabilities differ from scikit-learn's by up to %.3g", worst)
			}
			t.Logf("%d test rows, %d classed otherwise; probabilities within %.2g", len(pred), wrong, worst)
		})
	}
}

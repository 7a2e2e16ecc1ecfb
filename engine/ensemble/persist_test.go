package ensemble_test

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
	_ "github.com/tealab/tealab/internal/fakemodels" // fake-volatile, a model that cannot be saved
)

// TestPersist: an ensemble saved and loaded answers as it did, each member
// through its own state; edits of the ensemble's fields or of a member's
// state are refused.
func TestPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	cancer := persisttest.Builtin(t, "breast_cancer", datasets.Classification)
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	set, drop, shorten := persisttest.Set, persisttest.Drop, persisttest.Shorten
	common := []persisttest.Mutation{
		set("task", "clustering"), set("classes", 1e9), set("features", 0.0), set("features", 7.0),
		shorten("members"), set("members", []any{}), drop("members.0.state"),
		set("members.1.name", "tree"), set("members.0.error", -1.0), set("members.0.state", "x"),
		shorten("members.0.state.rows"), // knn's own state, refused by knn
	}
	classes := append(common, set("task", "regression"))
	stack := []persisttest.Mutation{set("members.0.feeds", "labels"), drop("final"), set("final.name", "knn"), set("final.state", map[string]any{})}
	knnFirst := "knn[k=3]+logistic+tree[max_depth=3]"
	cases := []persisttest.Case{
		{Name: "voting", Settings: map[string]string{"models": knnFirst}, Train: iris, X: iris.X, Edits: classes},
		{Name: "voting", Settings: map[string]string{"models": knnFirst, "voting": "soft", "weights": "1,2,0.5"}, Train: cancer, X: cancer.X, Edits: classes},
		{Name: "voting", Settings: map[string]string{"models": "knn+ridge+tree"}, Train: diabetes, X: diabetes.X,
			Edits: append(common, set("task", "classification"), set("classes", 3.0))},
		{Name: "stacking", Settings: map[string]string{"models": knnFirst, "cv": "3"}, Train: iris, X: iris.X, Edits: append(classes, stack...)},
		{Name: "stacking", Settings: map[string]string{"models": knnFirst + "+perceptron", "passthrough": "true", "final": "lda"}, Train: cancer, X: cancer.X,
			Edits: append(classes, stack...)},
		{Name: "stacking", Settings: map[string]string{"models": "knn+ridge"}, Train: diabetes, X: diabetes.X,
			Edits: append(common, set("final.name", "linear"))},
	}
	persisttest.Check(t, cases)
}

// TestMemberThatCannotBeSaved: an ensemble with a member that keeps no
// saved state cannot be saved, and says which member.
func TestMemberThatCannotBeSaved(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	for _, model := range []string{"voting", "stacking"} {
		m := engine.MustBuild(model, map[string]string{"models": "logistic+fake-volatile"})
		if err := engine.Fit(t.Context(), m, iris, nil); err != nil {
			t.Fatal(err)
		}
		_, err := m.(engine.Persistent).MarshalState()
		if err == nil || !strings.Contains(err.Error(), "member fake-volatile cannot be saved") {
			t.Errorf("%s: MarshalState: %v, want the member named", model, err)
		}
	}
}

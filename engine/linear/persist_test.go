package linear

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// Every model of the package, fitted on a built-in data set with the
// settings that change what its state holds (a polynomial degree, no
// intercept, one-vs-rest, two classes or three), saved, loaded and
// compared; and edits of each state that loading must refuse.
func TestPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	cancer := persisttest.Builtin(t, "breast_cancer", datasets.Classification)
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	set, drop, shorten, lengthen := persisttest.Set, persisttest.Drop, persisttest.Shorten, persisttest.Lengthen
	reg := func(name string, settings map[string]string, edits ...persisttest.Mutation) persisttest.Case {
		edits = append(edits, shorten("coef"), lengthen("features"), set("coef.0", "1"), drop("intercept"),
			set("features", []any{}), set("coef.1", nil))
		return persisttest.Case{Name: name, Settings: settings, Train: diabetes, X: diabetes.X, Edits: edits}
	}
	clf := func(name string, settings map[string]string, d engine.Train, edits ...persisttest.Mutation) persisttest.Case {
		edits = append(edits, shorten("present"), set("present.0", 7.0), set("present.1", 0.0),
			shorten("classes"), drop("classes"), shorten("features"))
		return persisttest.Case{Name: name, Settings: settings, Train: d, X: d.X, Edits: edits}
	}
	weights := func(more ...persisttest.Mutation) []persisttest.Mutation {
		return append(more, shorten("weights"), shorten("weights.0"), shorten("bias"),
			set("weights.0.0", true), set("bias.0", "NaN"), set("weights", []any{}))
	}
	// A target of noise: the cross-validated selection adds no feature.
	noise := diabetes
	noise.Y = make([]float64, len(diabetes.Y))
	r := rand.New(rand.NewPCG(10, 4))
	for i := range noise.Y {
		noise.Y[i] = r.NormFloat64()
	}
	persisttest.Check(t, []persisttest.Case{
		{Name: "stepwise", Train: noise, X: noise.X, Extra: func(m engine.Model) any { return m.(*Stepwise).Selected() },
			Edits: []persisttest.Mutation{set("coef.0", 1.0), set("selected", []any{20.0})}},
		reg("linear", nil, set("inputs", 3.0), set("solver", "qr"), set("rank", 99.0)),
		reg("linear", map[string]string{"degree": "2"}, set("inputs", 3.0), set("features.10", "age"), set("inputs", 0.0)),
		reg("linear", map[string]string{"solver": "pinv", "intercept": "false"}, set("intercept", 1.0), set("solver", "normal")),
		reg("ridge", map[string]string{"alpha": "10"}),
		reg("ridge", map[string]string{"intercept": "false"}, set("intercept", 0.5)),
		reg("lasso", map[string]string{"alpha": "0.1"}, set("sweeps", 0.0), drop("dual_gap")),
		reg("stepwise", map[string]string{"max_features": "4"}, lengthen("selected"), set("selected.0", 10.0),
			set("selected", []any{})),
		reg("stepwise", map[string]string{"criterion": "rss", "max_features": "2"}, set("selected", []any{0.0, 1.0, 2.0})),
		clf("centroid", nil, iris, shorten("means"), shorten("means.1"), set("means.0.0", "x")),
		clf("centroid", nil, cancer, lengthen("present")),
		clf("logistic", nil, iris, weights(set("solver", "magic"))...),
		clf("logistic", map[string]string{"multi": "ovr", "solver": "gd", "max_iter": "20"}, iris, weights(set("solver", "newton"))...),
		clf("logistic", map[string]string{"solver": "lbfgs", "max_iter": "30"}, cancer, weights()...),
		clf("perceptron", nil, iris, weights()...),
		clf("perceptron", map[string]string{"bias": "false", "epochs": "5"}, cancer, weights(set("bias.0", 1.0))...),
	})
}

func FuzzLogisticState(f *testing.F) {
	iris := persisttest.Builtin(f, "iris", datasets.Classification)
	c := persisttest.Case{Name: "logistic", Train: iris, X: iris.X}
	persisttest.Fuzz(f, c, persisttest.State(f, c))
}

// JSON has no NaN: a state holding one is refused when saving, naming the
// model, rather than written as something that would not load.
func TestPersistRefusesNonFiniteState(t *testing.T) {
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	m := &Ridge{Alpha: 1}
	if err := engine.Fit(t.Context(), m, diabetes, nil); err != nil {
		t.Fatal(err)
	}
	m.coef[2] = math.NaN()
	if _, err := m.MarshalState(); err == nil || !strings.Contains(err.Error(), "ridge: the fitted state holds NaN") {
		t.Errorf("MarshalState with a NaN weight: %v", err)
	}
}

// A lifted model's file holds its inputs and the standardisation of its
// monomials: loaded, it predicts (and scores, and gives probabilities) as
// it did; a state whose lift does not match the model's is refused.
func TestPersistLifted(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	set, drop, shorten := persisttest.Set, persisttest.Drop, persisttest.Shorten
	lift := []persisttest.Mutation{set("inputs", 3.0), set("inputs", 99.0), drop("inputs"), drop("lift_mean"),
		shorten("lift_scale"), set("lift_scale.0", 0.0), set("lift_mean.1", "NaN")}
	persisttest.Check(t, []persisttest.Case{
		{Name: "ridge", Settings: map[string]string{"lift": "2"}, Train: diabetes, X: diabetes.X,
			Edits: append(lift, set("features.11", "age*bmi"), set("features.0", "bmi"))},
		{Name: "lasso", Settings: map[string]string{"lift": "2", "alpha": "0.5"}, Train: diabetes, X: diabetes.X, Edits: lift},
		{Name: "logistic", Settings: map[string]string{"lift": "2"}, Train: iris, X: iris.X, Edits: append(lift, shorten("features"))},
		{Name: "perceptron", Settings: map[string]string{"lift": "3"}, Train: iris, X: iris.X, Edits: lift},
		// An unlifted model refuses a state that holds a lift.
		{Name: "ridge", Train: diabetes, X: diabetes.X, Edits: []persisttest.Mutation{set("inputs", 10.0), set("lift_mean", []any{1.0})}},
	})
}

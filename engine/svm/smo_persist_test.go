package svm

import (
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/persisttest"
)

// The SMO models with each kernel, one-vs-one, Platt probabilities and
// ε-SVR: saved, loaded and compared; and edits of their states that
// loading must refuse.
func TestSMOPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	set, shorten, lengthen := persisttest.Set, persisttest.Shorten, persisttest.Lengthen
	common := []persisttest.Mutation{shorten("sv"), lengthen("sv.0"), set("sv.1.2", "x"), set("kernel.gamma", -1.0),
		set("kernel.kind", "linear"), set("width", 0.0), shorten("sv_rows")}
	svc := append(common, shorten("pairs"), set("pairs.0.sv.0", 9999.0), shorten("pairs.0.coef"), set("pairs.0.pos", 2.0),
		set("present", []any{1.0}), shorten("sv_class"), set("sv_class.0", 7.0), set("classes", 1.0),
		persisttest.Mutation{Name: "1e9 classes without names", Edit: func(s map[string]any) { s["classes"] = 1e9; delete(s, "class_names") }})
	persisttest.Check(t, []persisttest.Case{
		{Name: svcName, Train: iris, X: iris.X, Edits: svc},
		{Name: svcName, Settings: map[string]string{"kernel": Poly, "degree": "2", "coef0": "1", "probability": "true"},
			Train: iris, X: iris.X, Edits: append(common, set("pairs.1.prob_a", "NaN"))},
		{Name: svcName, Settings: map[string]string{"kernel": Sigmoid, "gamma": "0.05", "class_weight": "balanced"}, Train: iris, X: iris.X},
		{Name: svrName, Train: diabetes, X: diabetes.X, Edits: append(common, shorten("coef"), set("rho", "x"), shorten("at_bound"))},
	})
}

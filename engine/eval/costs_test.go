package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
	_ "github.com/tealab/tealab/engine/models"
	"gonum.org/v1/gonum/stat"
)

func costsRun(t *testing.T, data, model string, opt Options) (*Result, error) {
	t.Helper()
	tab, err := datasets.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := engine.Lookup(model)
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), d, spec, nil, opt, nil)
}

func TestCosts(t *testing.T) {
	t.Parallel()
	// breast_cancer's classes are malignant, benign (in the data's order).
	fn10 := &metrics.Costs{Classes: []string{"malignant", "benign"}, Cost: [][]float64{{0, 10}, {1, 0}}}
	// Probabilities: the Bayes threshold, 1/11, under every scheme (it
	// costs less than 0.5 on this hold-out and this CV, not under
	// leave-one-out: 0.137 against 0.132).
	for _, opt := range []Options{{Seed: 1}, {Folds: 5, Seed: 1}, {LOO: true, Seed: 1}} {
		opt.Costs = fn10
		res, err := costsRun(t, "breast_cancer", "logistic", opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Threshold == nil || *res.Threshold != 1.0/11 || res.Costs != fn10 || !(res.Metrics["cost"] < res.Metrics["cost_default"]) && !opt.LOO {
			t.Errorf("%s: threshold %v, cost %v, cost_default %v", res.Eval, res.Threshold, res.Metrics["cost"], res.Metrics["cost_default"])
		}
	}
	// Decision values under k-fold CV: the least cost over the held-out
	// rows; each fold's over the others'.
	opt := Options{Folds: 5, Seed: 1, Costs: fn10}
	res, err := costsRun(t, "breast_cancer", "perceptron", opt)
	if err != nil {
		t.Fatal(err)
	}
	s := metrics.PositiveScores(res.Scores, 0)
	want := fn10.MinCostThreshold(res.Actual, s, 0, 0)
	if res.Threshold == nil || *res.Threshold != want || res.Proba {
		t.Errorf("perceptron: threshold %v, want %v (proba %v)", res.Threshold, want, res.Proba)
	}
	var rows1, rest []int
	for i, f := range res.TestFolds {
		if f == 1 {
			rows1 = append(rows1, i)
		} else {
			rest = append(rest, i)
		}
	}
	t1 := fn10.MinCostThreshold(pickAll(res.Actual, rest), pickAll(s, rest), 0, 0)
	if got, want := res.Folds[0]["cost"], fn10.Mean(pickAll(res.Actual, rows1), metrics.Threshold(pickAll(s, rows1), t1, 0)); got != want {
		t.Errorf("fold 1's cost %v, want %v at the other folds' threshold %v", got, want, t1)
	}
	// A hold-out with decision values keeps the model's own threshold.
	opt = Options{Seed: 1, Costs: fn10}
	if res, err = costsRun(t, "breast_cancer", "perceptron", opt); err != nil || *res.Threshold != 0 || res.Metrics["cost"] != res.Metrics["cost_default"] {
		t.Errorf("perceptron hold-out: %v, threshold %v, cost %v, cost_default %v", err, res.Threshold, res.Metrics["cost"], res.Metrics["cost_default"])
	}
	// More classes: the Bayes decision, no threshold.
	iris := &metrics.Costs{Classes: []string{"setosa", "versicolor", "virginica"}, Cost: [][]float64{{0, 1, 1}, {1, 0, 20}, {1, 1, 0}}}
	if res, err = costsRun(t, "iris", "logistic", Options{Folds: 5, Seed: 1, Costs: iris}); err != nil || res.Threshold != nil || res.Metrics["cost"] > res.Metrics["cost_default"] {
		t.Errorf("iris: %v, threshold %v, cost %v, cost_default %v", err, res.Threshold, res.Metrics["cost"], res.Metrics["cost_default"])
	}
	if _, ok := res.Baseline["cost"]; !ok {
		t.Errorf("iris: no baseline cost: %v", res.Baseline)
	}
	// Leave-one-out: the rows' spread of cost, as of accuracy.
	if res, err = costsRun(t, "iris", "logistic", Options{LOO: true, Costs: iris}); err != nil {
		t.Fatal(err)
	}
	rowCost := make([]float64, len(res.Actual))
	for i, a := range res.Actual {
		rowCost[i] = iris.Cost[int(a)][int(res.Predicted[i])]
	}
	if got, want := res.Std["cost_default"], stat.StdDev(rowCost, nil); got != want || !(res.Std["cost"] >= 0) {
		t.Errorf("leave-one-out: cost_default ± %v, want the rows' %v; cost ± %v", got, want, res.Std["cost"])
	}
	// Refusals: a regression, a matrix of other classes.
	if _, err := costsRun(t, "diabetes", "ridge", Options{Costs: fn10}); err == nil || !strings.Contains(err.Error(), "ridge does regression") {
		t.Errorf("regression with costs: %v", err)
	}
	if _, err := costsRun(t, "iris", "logistic", Options{Costs: fn10}); err == nil || !strings.Contains(err.Error(), "not setosa, versicolor, virginica") {
		t.Errorf("iris with breast_cancer's costs: %v", err)
	}
}

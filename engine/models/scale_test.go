package models_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// scaled is a copy of d with its feature columns multiplied by factor.
func scaled(d *datasets.Dataset, factor ...float64) *datasets.Dataset {
	c := *d
	c.X = mat.DenseCopyOf(d.X)
	n, _ := c.X.Dims()
	for i := range n {
		row := c.X.RawRowView(i)
		for j := range row {
			row[j] *= factor[j]
		}
	}
	return &c
}

// Every model that standardises its features scores on features near 1e160
// and 1e-170 as on the same features near 1, without a warning (once
// those columns became zero or stayed near 1e-170, and every such model
// scored like its baseline). The standardised columns agree to rounding,
// which may break a tie among equally distant neighbours another way:
// scores agree to 0.005. PCA with scale=true standardises itself: its
// explained variance does not change either.
func TestStandardisingModelsIgnoreMagnitude(t *testing.T) {
	t.Parallel()
	iris := builtin(t, "iris", "")
	petals := builtin(t, "iris", "petal_width_cm")
	cases := map[engine.Task]struct {
		d      *datasets.Dataset
		factor []float64
		metric string
	}{
		datasets.Classification: {iris, []float64{1e160, 1e-170, 1e160, 1e-170}, "accuracy"},
		datasets.Regression:     {petals, []float64{1e160, 1e-170, 1e160, 1}, "r2"},
	}
	n := 0
	for _, spec := range engine.Specs() {
		if !spec.Standardize {
			continue
		}
		for task, c := range cases {
			if !spec.Supports(task) {
				continue
			}
			n++
			want, err := eval.Run(context.Background(), c.d, spec, nil, eval.Options{Seed: 1}, nil)
			if err != nil {
				t.Fatalf("%s: %v", spec.Name, err)
			}
			got, err := eval.Run(context.Background(), scaled(c.d, c.factor...), spec, nil, eval.Options{Seed: 1}, nil)
			if err != nil {
				t.Errorf("%s on scaled features: %v", spec.Name, err)
				continue
			}
			if g, w := got.Metrics[c.metric], want.Metrics[c.metric]; math.Abs(g-w) > 0.005 || len(got.Warnings) != len(want.Warnings) {
				t.Errorf("%s: %s %v on features near 1e160 and 1e-170, %v near 1 (warnings %q)", spec.Name, c.metric, g, w, got.Warnings)
			}
		}
	}
	if n < 6 {
		t.Errorf("%d standardising models checked; logistic, perceptron, knn, ridge, lasso and stepwise at least", n)
	}
	pca, err := engine.Lookup("pca")
	if err != nil {
		t.Fatal(err)
	}
	v, err := pca.Parse(map[string]string{"k": "2", "scale": "true"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := eval.Run(context.Background(), iris, pca, v, eval.Options{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := eval.Run(context.Background(), scaled(iris, 1e160, 1e-170, 1e160, 1e-170), pca, v, eval.Options{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := got.Metrics["explained_variance"], want.Metrics["explained_variance"]; math.Abs(g-w) > 1e-9 {
		t.Errorf("pca scale=true: explained variance %v on features near 1e160 and 1e-170, %v near 1", g, w)
	}
}

// A column the preprocessing cannot standardise (it varies by less than
// rounding can tell from its mean) is named in the run's warnings.
func TestRunWarnsOfUnscaledColumn(t *testing.T) {
	iris := builtin(t, "iris", "")
	d := *iris
	n, p := iris.X.Dims()
	d.X = mat.NewDense(n, p+1, nil)
	for i := range n {
		row := d.X.RawRowView(i)
		copy(row, iris.X.RawRowView(i))
		row[p] = 1e6 + float64(i%3)*1e-9
	}
	d.Features = append(slices.Clone(iris.Features), datasets.Column{Name: "flat"})
	spec, err := engine.Lookup("logistic")
	if err != nil {
		t.Fatal(err)
	}
	res, err := eval.Run(context.Background(), &d, spec, nil, eval.Options{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Warnings, func(w advice.Warning) bool { return strings.Contains(w.Text, `column "flat"`) }) {
		t.Errorf("warnings %q, want one naming column \"flat\"", res.Warnings)
	}
}

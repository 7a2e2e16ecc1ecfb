package tui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/views"
	"github.com/tealab/tealab/tui/widgets"
)

// Regression with one feature shows the fitted curve over the
// points (cubic with a degree-3 least squares).
func TestFittedCurve(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "cubic", Model: "linear", Params: paramsOf("linear", map[string]string{"degree": "3"}), Train: true}, 120, 40)
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v", hs.a.cur)
	}
	hs.resultTab("Fit")
	v := hs.View()
	mustContain(t, v, "[Fit]", "the curve least squares fitted", "━")
	if strings.Count(v, "━") < 60 {
		t.Errorf("the curve should span the plot:\n%s", v)
	}
}

// Leave-one-out showed a baseline AUC of 0, no spread and no
// per-fold figures, and no warning before 1,797 fits on digits.
func TestLeaveOneOutSummary(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "lda", Eval: loo(), Train: true}, 120, 40)
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v", hs.a.cur)
	}
	v := hs.View()
	mustContain(t, v, "pooled", "± rows", "0.140", "per fold (one row each)", "147 rows right, 3 rows wrong")
	for _, line := range strings.Split(v, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "AUC") && !strings.Contains(line, "0.500") {
			t.Errorf("baseline AUC should be 0.500: %q", line)
		}
	}

	hs = newHarness(t, Options{Data: "digits", Model: "gnb", Eval: loo()}, 120, 40)
	mustContain(t, hs.View(), "leave-one-out fits the model 1797 times")
}

// Pooled (all folds together) and per-fold-mean figures appeared
// side by side unlabelled.
func TestPooledAndMeanLabelled(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Eval: cv(5), Train: true}, 120, 40)
	v := hs.View()
	mustContain(t, v, "mean of 5 folds", "scores mean ± sd of 5 folds (the baseline's too)")
	if !strings.Contains(v, " mean ") {
		t.Errorf("the summary's value column should say mean:\n%s", v)
	}
	hs.press("tab") // Confusion
	mustContain(t, hs.View(), "pooled over the 5 folds' held-out rows (150 rows), not the mean of the folds")
	hs.press("tab") // ROC
	mustContain(t, hs.View(), "curves pooled over the 5 folds", "the Summary's AUC is the fold mean")
}

// Plurals ("1 features", "1 folds").
func TestPlurals(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "cubic", Model: "linear", Train: true}, 120, 40)
	v := hs.View()
	mustContain(t, v, "(100 rows, 1 feature)")
	if strings.Contains(v, "1 features") {
		t.Errorf("'1 features':\n%s", v)
	}
	hs.press("R")
	mustContain(t, hs.View(), "Runs (1)")
}

// The map flooded with × on large data, and on digits the
// legend lost its symbols.
func TestMapOnDigits(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "digits", Model: "lda", Train: true}, 120, 40)
	hs.resultTab("Map")
	if !hs.runUntil(func() bool { return strings.Contains(hs.View(), "PC1") }) {
		t.Fatalf("no map:\n%s", hs.View())
	}
	v := hs.View()
	for c := range 10 {
		mustContain(t, v, widgets.ClassMarker(c)+" "+strconv.Itoa(c))
	}
	if n := strings.Count(v, "×"); n > 60 {
		t.Errorf("%d × marks flood the map:\n%s", n, v)
	}
	mustContain(t, v, "misclassified (unmarked: too many)", "points drawn")
}

// Coefficients of every class at once as a class x feature heat
// table; for image data (digits) each class's weights as a picture.
func TestCoefficientViews(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	hs.resultTab("Coefficients")
	mustContain(t, hs.View(), "4 features × 3 classes", "setosa", "versicolor", "virginica", "petal_width_cm", "(intercept)")

	hs = newHarness(t, Options{Data: "digits", Model: "logistic", Train: true}, 120, 40)
	hs.resultTab("Coefficients")
	v := hs.View()
	mustContain(t, v, "each class's weights as a picture")
	blocks := 0
	for _, g := range []string{"░", "▒", "▓", "█"} {
		blocks += strings.Count(v, g)
	}
	if blocks < 10*20 {
		t.Errorf("ten 8x8 pictures should draw hundreds of blocks, got %d:\n%s", blocks, v)
	}
	hs.press("m")
	mustContain(t, hs.View(), "weights for 0", "o: next")
	hs.press("m")
	mustContain(t, hs.View(), "61 features × 10 classes", "features 1-")
}

// A regressor's validation chart drew MSE and RMSE on one axis.
func TestRegressionValidationIsRMSE(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "diabetes", Model: "lasso", Params: paramsOf("lasso", map[string]string{"alpha": "0.01"}), Train: true}, 120, 40)
	hs.resultTab(views.TabHistory)
	v := hs.View()
	mustContain(t, v, "val RMSE")
	if strings.Contains(v, "val MSE") {
		t.Errorf("MSE drawn beside RMSE:\n%s", v)
	}
}

// Leave-one-out has a fold per row: the chart draws at most maxGhosts of
// the others.
func TestGhostsBounded(t *testing.T) {
	t.Parallel()
	folds := make([][]eval.Point, 500)
	for f := range folds {
		folds[f] = []eval.Point{{Step: 1, TrainLoss: 1}, {Step: 2, TrainLoss: 0.5}}
	}
	c := newTestApp(t, Options{}, 120, 40).c
	spec, _ := engine.Lookup("lda")
	r := &kit.RunRecord{Record: &runs.Record{Spec: spec, Result: &eval.Result{Task: "classification"}}}
	fc := kit.NewFoldCharts(r, c.Styles)
	for _, cur := range []int{0, 250, 499} {
		fc.Draw(folds, cur)
		if n := fc.Charts[0].Ghosts(); n != kit.MaxGhosts {
			t.Errorf("current fold %d: %d ghosts, want %d", cur, n, kit.MaxGhosts)
		}
	}
}

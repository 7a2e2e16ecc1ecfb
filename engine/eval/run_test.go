package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

func spec(t testing.TB, name string) *engine.Spec {
	t.Helper()
	s, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func params(t testing.TB, s *engine.Spec, kv map[string]string) engine.Values {
	t.Helper()
	v, err := s.Parse(kv)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func run(t *testing.T, d *datasets.Dataset, name string, kv map[string]string, opt Options) *Result {
	t.Helper()
	s := spec(t, name)
	res, err := Run(context.Background(), d, s, params(t, s, kv), opt, nil)
	if err != nil {
		t.Fatalf("Run(%s): %v", name, err)
	}
	return res
}

func TestHoldoutClassification(t *testing.T) {
	d := blobs(150, 3, 1)
	var seen []Progress
	s := spec(t, "evalfake")
	res, err := Run(context.Background(), d, s, nil, DefaultOptions(), func(p Progress) { seen = append(seen, p) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Eval != "stratified 80/20 hold-out" || res.Task != "classification" || res.Model != "evalfake" || res.Rows != 150 || res.Features != 3 {
		t.Errorf("header: %+v", res)
	}
	// 30 test rows, 10 per class (datasets.Holdout stratifies exactly here).
	if got := res.Confusion.Total(); got != 30 || len(res.Actual) != 30 || len(res.Predicted) != 30 {
		t.Fatalf("confusion total %d, %d actual", got, len(res.Actual))
	}
	for c := range 3 {
		if res.Classes[c].Support != 10 {
			t.Errorf("class %d support %d, want 10", c, res.Classes[c].Support)
		}
	}
	// The metrics are those of the metrics package on the held-out rows.
	conf := metrics.ConfusionMatrix(res.Actual, res.Predicted, d.Classes)
	macro, weighted := metrics.Averages(conf)
	want := map[string]float64{
		"accuracy": metrics.Accuracy(res.Actual, res.Predicted), "macro_f1": macro.F1, "weighted_f1": weighted.F1,
		"macro_precision": macro.Precision, "macro_recall": macro.Recall,
		"kappa": metrics.CohenKappa(conf), "mcc": metrics.MCC(conf),
	}
	want["error"] = 1 - want["accuracy"]
	for k, w := range want {
		if res.Metrics[k] != w {
			t.Errorf("metric %s = %v, want %v", k, res.Metrics[k], w)
		}
	}
	for _, k := range []string{"log_loss", "auc"} {
		if _, ok := res.Metrics[k]; !ok {
			t.Errorf("no %s metric for a Prober", k)
		}
	}
	if res.Metrics["accuracy"] < 0.9 || res.Metrics["auc"] < 0.95 {
		t.Errorf("fake model scores too low: %v", res.Metrics)
	}
	// Baseline: the majority class (ties -> class 0) with the prior: accuracy
	// 1/3, kappa 0, MCC 0, AUC 1/2, log-loss log 3.
	b := res.Baseline
	if math.Abs(b["accuracy"]-1.0/3) > 1e-12 || b["kappa"] != 0 || b["mcc"] != 0 || b["auc"] != 0.5 || math.Abs(b["log_loss"]-math.Log(3)) > 1e-12 {
		t.Errorf("baseline = %v", b)
	}
	if len(res.ROC) != 3 || len(res.Classes) != 3 {
		t.Errorf("%d ROC curves, %d class reports; want 3 and 3", len(res.ROC), len(res.Classes))
	}
	// History: 5 steps, all validated; progress saw each of them.
	if len(res.History) != 5 || len(seen) != 5 {
		t.Fatalf("history %d points, %d progress calls; want 5", len(res.History), len(seen))
	}
	for i, p := range res.History {
		if p.Step != i+1 || math.IsNaN(p.ValLoss) || math.IsNaN(p.ValError) || len(engine.FiguresOf(p.Detail)) != 1 {
			t.Errorf("point %d: %+v", i, p)
		}
		if seen[i].Fold != 1 || seen[i].Folds != 1 || seen[i].Total != 5 || seen[i].Point.Step != i+1 {
			t.Errorf("progress %d: %+v", i, seen[i])
		}
	}
	last := res.History[4]
	if math.Abs(last.ValError-res.Metrics["error"]) > 1e-12 || math.Abs(last.ValLoss-res.Metrics["log_loss"]) > 1e-12 {
		t.Errorf("last point %+v does not match the metrics %v", last, res.Metrics)
	}
	// The constant column was dropped by the training part's preprocessing.
	if !slices.Equal(res.PreparedFeatures(), []string{"x", "y"}) {
		t.Errorf("prepared features %v, want [x y]", res.PreparedFeatures())
	}
	if res.Fitted == nil || res.Learned["coefficients"] == nil || res.FitSecs <= 0 {
		t.Errorf("fitted %v learned %v fit seconds %v", res.Fitted, res.Learned, res.FitSecs)
	}
}

func TestStandardizeOnTrainingRows(t *testing.T) {
	d := blobs(100, 2, 3)
	on := true
	opt := DefaultOptions()
	opt.Standardize = &on
	res := run(t, d, "evalfake", nil, opt)
	X := res.Fitted.(*fakeModel).trainX
	r, c := X.Dims()
	if r != 80 {
		t.Fatalf("trained on %d rows, want 80", r)
	}
	for j := range c {
		mean, std := stat.PopMeanStdDev(mat.Col(nil, j, X), nil)
		if math.Abs(mean) > 1e-12 || math.Abs(std-1) > 1e-12 {
			t.Errorf("feature %d of the training part: mean %v std %v, want 0 and 1", j, mean, std)
		}
	}
}

func TestCrossValidation(t *testing.T) {
	d := blobs(100, 2, 2)
	res := run(t, d, "evalfake", nil, Options{Folds: 5, Seed: 7})
	if res.Eval != "stratified 5-fold CV" || len(res.Folds) != 5 {
		t.Fatalf("eval %q, %d folds", res.Eval, len(res.Folds))
	}
	if res.Confusion.Total() != 100 {
		t.Errorf("pooled confusion counts %d rows, want 100", res.Confusion.Total())
	}
	for _, key := range []string{"accuracy", "auc", "log_loss", "macro_f1"} {
		xs := make([]float64, 5)
		for f, m := range res.Folds {
			xs[f] = m[key]
		}
		// The sample standard deviation: divisor k-1 (documented).
		mean, ss := 0.0, 0.0
		for _, x := range xs {
			mean += x / 5
		}
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		std := math.Sqrt(ss / 4)
		if math.Abs(res.Metrics[key]-mean) > 1e-15 || math.Abs(res.Std[key]-std) > 1e-12 {
			t.Errorf("%s: mean %v std %v, want %v %v", key, res.Metrics[key], res.Std[key], mean, std)
		}
	}
	if res.Baseline["accuracy"] != 0.5 {
		t.Errorf("baseline accuracy %v, want 0.5 (balanced folds)", res.Baseline["accuracy"])
	}
	if len(res.History) != 5 {
		t.Errorf("history holds %d points, want the first fold's 5", len(res.History))
	}
}

func TestLeaveOneOut(t *testing.T) {
	d := blobs(30, 3, 4)
	res := run(t, d, "evalfake", map[string]string{"steps": "2"}, Options{LOO: true})
	if res.Eval != "leave-one-out" || res.Folds != nil || res.Confusion.Total() != 30 {
		t.Errorf("eval %q folds %v total %d", res.Eval, res.Folds, res.Confusion.Total())
	}
	if acc := metrics.Accuracy(res.Actual, res.Predicted); res.Metrics["accuracy"] != acc {
		t.Errorf("pooled accuracy %v, want %v", res.Metrics["accuracy"], acc)
	}
	// Leaving one row of a class out makes the other classes the majority:
	// the baseline is always wrong.
	if res.Baseline["accuracy"] != 0 {
		t.Errorf("LOO baseline accuracy %v, want 0", res.Baseline["accuracy"])
	}
	// the spread over the one-row folds (right = 1,
	// wrong = 0), and a constant baseline's AUC of 0.5, not 0.
	right := make([]float64, len(res.Actual))
	for i := range right {
		if res.Actual[i] == res.Predicted[i] {
			right[i] = 1
		}
	}
	if sd := stat.StdDev(right, nil); math.Abs(res.Std["accuracy"]-sd) > 1e-12 || res.Std["error"] != res.Std["accuracy"] {
		t.Errorf("LOO std %v, want accuracy and error %v", res.Std, sd)
	}
	if b, ok := res.Baseline["auc"]; ok && b != 0.5 {
		t.Errorf("LOO baseline AUC %v, want 0.5 (a constant score)", b)
	}
}

// iris under leave-one-out has AUC and a baseline AUC
// of 0.5; a regression has the spread of its per-row errors.
func TestLeaveOneOutSpreadAndBaselineAUC(t *testing.T) {
	d := openDataset(t, "iris")
	spec, err := engine.Lookup("evalfake")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), d, spec, nil, Options{LOO: true, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := res.Baseline["auc"]; !ok || b != 0.5 {
		t.Errorf("baseline AUC %v (present %v), want 0.5", b, ok)
	}
	r := run(t, linear(40, 1), "evalfake", nil, Options{LOO: true})
	abs := make([]float64, len(r.Actual))
	for i := range abs {
		abs[i] = math.Abs(r.Actual[i] - r.Predicted[i])
	}
	if sd := stat.StdDev(abs, nil); math.Abs(r.Std["mae"]-sd) > 1e-9 {
		t.Errorf("LOO regression: std of MAE %v, want %v", r.Std["mae"], sd)
	}
	if _, ok := r.Std["r2"]; ok {
		t.Error("R² has no per-row spread")
	}
}

func TestRegression(t *testing.T) {
	d := linear(200, 1)
	res := run(t, d, "evalfake", nil, Options{Split: 0.25, Seed: 3})
	if res.Eval != "75/25 hold-out" || len(res.Actual) != 50 {
		t.Errorf("eval %q, %d test rows", res.Eval, len(res.Actual))
	}
	want := map[string]float64{
		"r2": metrics.R2(res.Actual, res.Predicted), "rmse": metrics.RMSE(res.Actual, res.Predicted),
		"mae": metrics.MAE(res.Actual, res.Predicted), "mse": metrics.MSE(res.Actual, res.Predicted),
	}
	for k, w := range want {
		if math.Abs(res.Metrics[k]-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, res.Metrics[k], w)
		}
	}
	if res.Metrics["r2"] < 0.9 || res.Baseline["r2"] > 0 || len(res.Baseline) != 4 {
		t.Errorf("metrics %v baseline %v", res.Metrics, res.Baseline)
	}
	if res.Confusion != nil || res.ROC != nil {
		t.Error("regression has no confusion matrix or ROC")
	}
	last := res.History[len(res.History)-1]
	if math.Abs(last.ValLoss-res.Metrics["mse"]) > 1e-9 || math.Abs(last.ValError-res.Metrics["rmse"]) > 1e-9 {
		t.Errorf("last point %+v, metrics %v", last, res.Metrics)
	}
}

func TestScorerOnly(t *testing.T) {
	for _, k := range []int{2, 3} {
		res := run(t, blobs(120, k, 5), "evalscorer", nil, DefaultOptions())
		if _, ok := res.Metrics["log_loss"]; ok {
			t.Error("log_loss without probabilities")
		}
		if _, ok := res.Baseline["log_loss"]; ok {
			t.Error("baseline log_loss without model log_loss")
		}
		if res.Metrics["auc"] < 0.95 || res.Baseline["auc"] != 0.5 {
			t.Errorf("%d classes: auc %v baseline %v", k, res.Metrics["auc"], res.Baseline["auc"])
		}
		if want := map[int]int{2: 1, 3: 3}[k]; len(res.ROC) != want {
			t.Errorf("%d classes: %d curves, want %d", k, len(res.ROC), want)
		}
		if !math.IsNaN(res.History[0].ValLoss) || math.IsNaN(res.History[0].ValError) {
			t.Errorf("without probabilities val_loss is NaN and val_error is not: %+v", res.History[0])
		}
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	cls := blobs(40, 2, 1)
	for _, c := range []struct {
		name  string
		d     *datasets.Dataset
		model string
		opt   Options
		want  string
	}{
		{"task", linear(20, 1), "evalscorer", DefaultOptions(), "model evalscorer does not do regression (it does: classification)"},
		{"split", cls, "evalfake", Options{Split: 1.5}, "test fraction 1.5"},
		{"folds", cls, "evalfake", Options{Folds: 1}, "k >= 2"},
		{"too many folds", cls, "evalfake", Options{Folds: 50}, "50 folds but the data have 40 rows"},
		{"labels", &datasets.Dataset{Name: "u", X: mat.NewDense(3, 1, []float64{1, 2, 3}), Task: datasets.Clustering},
			"evalcluster", Options{Labels: []float64{1}}, "1 labels for the 3 rows"},
	} {
		res, err := Run(ctx, c.d, spec(t, c.model), nil, c.opt, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || res != nil {
			t.Errorf("%s: got %v, %v; want an error containing %q", c.name, res, err, c.want)
		}
	}
}

func TestDiverged(t *testing.T) {
	s := spec(t, "evalfake")
	res, err := Run(context.Background(), blobs(50, 2, 1), s, params(t, s, map[string]string{"diverge_at": "3"}), DefaultOptions(), nil)
	if !errors.Is(err, engine.ErrDiverged) {
		t.Fatalf("err = %v, want ErrDiverged", err)
	}
	if want := "evalfake diverged at epoch 3 (training loss is +Inf); try a smaller learning rate (lr)"; err.Error() != want {
		t.Errorf("message %q\nwant    %q", err, want)
	}
	if res == nil || len(res.History) != 2 || res.Cancelled {
		t.Fatalf("partial result %+v", res)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Error(err)
	}
	// Under CV the fold is named.
	_, err = Run(context.Background(), blobs(50, 2, 1), s, params(t, s, map[string]string{"diverge_at": "3"}), Options{Folds: 3}, nil)
	if !errors.Is(err, engine.ErrDiverged) || !strings.HasPrefix(err.Error(), "fold 1 of 3: ") {
		t.Errorf("CV: %v", err)
	}
}

func TestCancel(t *testing.T) {
	s := spec(t, "evalfake")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := Run(ctx, blobs(50, 2, 1), s, params(t, s, map[string]string{"steps": "1000"}), Options{Folds: 5}, func(p Progress) {
		if p.Point.Step == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// Step 3 saw the cancel: it is recorded, unscored, as the last step.
	if res == nil || !res.Cancelled || len(res.History) != 3 || !math.IsNaN(res.History[2].ValError) {
		t.Fatalf("partial result: %+v", res)
	}
	if err != context.Canceled {
		t.Errorf("err = %#v, want ctx.Err() itself", err)
	}
	if res.StoppedEarly != "" || len(res.Metrics) != 0 || res.Fitted != nil {
		t.Errorf("a model that did not keep its state was scored: %q %v", res.StoppedEarly, res.Metrics)
	}
}

// TestStoppedEarly: a fit cancelled part-way whose model kept its last
// step is scored on the held-out rows like a finished one, shown, and
// labelled, when no fold has finished; once a fold has, the finished folds
// are the result.
func TestStoppedEarly(t *testing.T) {
	s := spec(t, "evalfake")
	v := params(t, s, map[string]string{"steps": "1000", "keep": "true"})
	for _, c := range []struct {
		opt      Options
		cancelAt int // progress call that cancels
		eval     string
		folds    int
	}{
		{DefaultOptions(), 5, "stratified 80/20 hold-out (48 training, 12 test rows) (stopped early after 6 of 1000 epochs: the scores of the model so far)", 0},
		{Options{Folds: 5}, 5, "stratified 5-fold CV (cancelled in fold 1 of 5, stopped early after 6 of 1000 epochs: the scores of that model so far)", 1},
		{Options{Folds: 5}, 1000 + 5, "stratified 5-fold CV (cancelled: scores of the 1 fold of 5 that finished)", 1},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		res, err := Run(ctx, blobs(60, 2, 1), s, v, c.opt, func(Progress) {
			if calls++; calls == c.cancelAt {
				cancel()
			}
		})
		cancel()
		if !errors.Is(err, context.Canceled) || res == nil || !res.Cancelled {
			t.Fatalf("%s: %v, %+v", c.eval, err, res)
		}
		if res.Eval != c.eval {
			t.Errorf("evaluation %q\nwant       %q", res.Eval, c.eval)
		}
		if len(res.Folds) != c.folds {
			t.Errorf("%s: %d folds scored, want %d", c.eval, len(res.Folds), c.folds)
		}
		if acc, ok := res.Metrics["accuracy"]; !ok || !(acc > 0.5) {
			t.Errorf("%s: accuracy %v", c.eval, res.Metrics)
		}
		if c.cancelAt < 1000 {
			if res.StoppedEarly != "6 of 1000 epochs" || res.Fitted == nil || !strings.Contains(res.FittedOn, "stopped early after 6 of 1000 epochs") {
				t.Errorf("%s: stopped early %q, shown %v on %q", c.eval, res.StoppedEarly, res.Fitted, res.FittedOn)
			}
			// The last step is scored as the model that was kept.
			if last := res.History[len(res.History)-1]; last.Step != 6 || math.IsNaN(last.ValError) {
				t.Errorf("%s: last step %+v", c.eval, last)
			}
		}
	}
}

// TestStagedScoring: a Staged model's held-out rows are scored through its
// StageScorer after each step and at the end, never through Predict, and
// the fold's predictions are that last scoring.
func TestStagedScoring(t *testing.T) {
	s := spec(t, "evalstaged")
	for _, task := range []string{"classification", "regression"} {
		d := blobs(60, 2, 1)
		if task == "regression" {
			d = linear(60, 1)
		}
		var m *stagedModel
		res, err := Run(context.Background(), d, s, params(t, s, map[string]string{"steps": "30"}), DefaultOptions(), nil)
		if err != nil {
			t.Fatal(err)
		}
		m = res.Fitted.(*stagedModel)
		// 30 steps, and once more when Fit has returned.
		if m.scores != 31 || m.predicts != 0 {
			t.Errorf("%s: %d scorings, %d Predict calls; want 31 and 0", task, m.scores, m.predicts)
		}
		if math.IsNaN(res.History[29].ValError) || len(res.Metrics) == 0 {
			t.Errorf("%s: %+v %v", task, res.History[29], res.Metrics)
		}
	}
}

func TestCancelWithinOneStep(t *testing.T) {
	m := &fakeModel{steps: 100}
	ctx, cancel := context.WithCancel(context.Background())
	rn := &runner{ctx: ctx, d: blobs(10, 2, 1), spec: spec(t, "evalfake"), res: &Result{}}
	rec := &recorder{rn: rn, model: m}
	rn.progress = func(p Progress) {
		if p.Point.Step == 4 {
			cancel()
		}
	}
	d := blobs(10, 2, 1)
	d.X = mat.NewDense(10, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	err := m.Fit(ctx, engine.Train{X: d.X, Y: d.Y, Classes: d.Classes}, rec)
	if !errors.Is(err, context.Canceled) || m.calls != 5 || m.cancelAt != 5 {
		t.Errorf("err %v after %d calls (cancel seen at call %d); want Canceled after 5", err, m.calls, m.cancelAt)
	}
}

func TestValidationSchedule(t *testing.T) {
	for step, want := range map[int]bool{1: true, 99: true, 100: true, 101: false, 110: true, 995: false,
		1000: true, 1010: false, 1100: true, 10000: true, 10100: false, 20000: true, 1 << 40: false} {
		if validateAt(step) != want {
			t.Errorf("validateAt(%d) = %v", step, !want)
		}
	}
	// A 1234-step fit: validated at 1..100, 110..1000 by 10, 1100 and 1200,
	// and on the last step after Fit returns.
	res := run(t, blobs(60, 2, 1), "evalfake", map[string]string{"steps": "1234"}, DefaultOptions())
	if len(res.History) != 1234 {
		t.Fatalf("%d points", len(res.History))
	}
	n := 0
	for _, p := range res.History {
		if !math.IsNaN(p.ValError) {
			n++
			if p.Step != 1234 && !validateAt(p.Step) {
				t.Errorf("validated off schedule at %d", p.Step)
			}
		}
	}
	if n != 100+90+2+1 || math.IsNaN(res.History[1233].ValLoss) || !math.IsNaN(res.History[1232].ValLoss) {
		t.Errorf("%d validated points", n)
	}
}

func TestDeterministic(t *testing.T) {
	d := blobs(90, 3, 9)
	a := run(t, d, "evalfake", nil, Options{Folds: 3, Seed: 11})
	b := run(t, d, "evalfake", nil, Options{Folds: 3, Seed: 11})
	if !slices.Equal(a.Predicted, b.Predicted) || !slices.Equal(a.Actual, b.Actual) {
		t.Error("same seed, different predictions")
	}
	for i := range a.History {
		pa, pb := a.History[i], b.History[i]
		if pa.TrainLoss != pb.TrainLoss || pa.ValLoss != pb.ValLoss || pa.ValError != pb.ValError {
			t.Errorf("history differs at %d", i)
		}
	}
	c := run(t, d, "evalfake", nil, Options{Folds: 3, Seed: 12})
	if slices.Equal(a.Actual, c.Actual) {
		t.Error("a different seed gives the same folds")
	}
}

func TestPanicBecomesError(t *testing.T) {
	s := spec(t, "evalfake")
	res, err := Run(context.Background(), blobs(40, 2, 1), s, params(t, s, map[string]string{"panic": "true"}), DefaultOptions(), nil)
	var pe *PanicError
	if !errors.Is(err, ErrPanic) || !errors.As(err, &pe) || len(pe.Stack) == 0 || res == nil {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("the message is more than one line: %q", err)
	}
}

func TestClustering(t *testing.T) {
	d := blobs(60, 2, 1) // classes on the x axis: cos(0)=+4, cos(pi)=-4
	truth := d.Y
	d.Y, d.Classes, d.Task = nil, nil, datasets.Clustering
	res := run(t, d, "evalcluster", nil, Options{Labels: truth, Seed: 1})
	if res.Eval != "all 60 rows, no split; scored against the known classes" || res.Task != "clustering" {
		t.Errorf("eval %q task %q", res.Eval, res.Task)
	}
	if want := metrics.AdjustedRand(truth, res.Predicted); res.Metrics["ari"] != want || want < 0.9 {
		t.Errorf("ari %v, want %v (near 1)", res.Metrics["ari"], want)
	}
	if res.Metrics["clusters"] != 2 || res.Baseline["ari"] != 0 || !(res.Metrics["silhouette"] > 0.3) {
		t.Errorf("metrics %v baseline %v", res.Metrics, res.Baseline)
	}
	if len(res.History) != 1 || !math.IsNaN(res.History[0].ValLoss) {
		t.Errorf("history %+v", res.History)
	}
	// Many rows: the silhouette is computed on a seeded sample, and says so.
	big := blobs(silhouetteMax+100, 2, 2)
	big.Y, big.Classes, big.Task = nil, nil, datasets.Clustering
	a := run(t, big, "evalcluster", nil, Options{Seed: 3})
	b := run(t, big, "evalcluster", nil, Options{Seed: 3})
	if !strings.HasSuffix(a.Eval, fmt.Sprintf("; silhouette on %d sampled rows", silhouetteMax)) || !(a.Metrics["silhouette"] > 0.3) || a.Metrics["silhouette"] != b.Metrics["silhouette"] {
		t.Errorf("sampled: %q %v %v", a.Eval, a.Metrics["silhouette"], b.Metrics["silhouette"])
	}
	// No labels: no ARI.
	res = run(t, d, "evalcluster", nil, Options{})
	if _, ok := res.Metrics["ari"]; ok {
		t.Error("ari without labels")
	}
}

// BenchmarkRunOverhead measures what eval adds to a cheap 100-step fit on
// 1000 rows: splitting, preprocessing, validation on every step, metrics.
func BenchmarkRunOverhead(b *testing.B) {
	d := blobs(1000, 3, 1)
	s := spec(b, "evalfake")
	v := params(b, s, map[string]string{"steps": "100"})
	for b.Loop() {
		if _, err := Run(context.Background(), d, s, v, DefaultOptions(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// A one-step model that reports its step before it can predict still gets
// validation on its only history point (filled in after Fit returns).
func TestOneStepHistoryIsValidated(t *testing.T) {
	spec, err := engine.Lookup("evalfake")
	if err != nil {
		t.Fatal(err)
	}
	v, err := spec.Parse(map[string]string{"steps": "1", "late": "true"})
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Options{DefaultOptions(), {Folds: 3, Seed: 1}} {
		res, err := Run(context.Background(), blobs(90, 3, 1), spec, v, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.History) != 1 || math.IsNaN(res.History[0].ValError) || math.IsNaN(res.History[0].ValLoss) {
			t.Errorf("%+v: history %+v, want one validated point", opt, res.History)
		}
	}
}

func TestBaselineError(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want float64
	}{
		{"iris", 2.0 / 3}, // three classes of 50
		{"breast_cancer", 212.0 / 569},
	} {
		if got := BaselineError(openDataset(t, tc.src)); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: baseline error %v, want %v", tc.src, got, tc.want)
		}
	}
}

func openDataset(t *testing.T, source string) *datasets.Dataset {
	t.Helper()
	tb, err := datasets.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// With Consume, a hold-out releases the dataset's rows once its parts are
// prepared (the table and its parts are not held at once), and scores as
// without; cross-validation needs the rows for every fold and keeps them.
func TestConsumeReleasesRowsOfAHoldout(t *testing.T) {
	s := spec(t, "evalfake")
	want, err := Run(context.Background(), blobs(60, 2, 1), s, nil, DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := blobs(60, 2, 1)
	opt := DefaultOptions()
	opt.Consume = true
	got, err := Run(context.Background(), d, s, nil, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.X.RawMatrix().Data != nil || d.Rows() != 60 {
		t.Errorf("rows kept after a consumed hold-out (%d rows)", d.Rows())
	}
	if got.Metrics["accuracy"] != want.Metrics["accuracy"] {
		t.Errorf("accuracy %v, want %v", got.Metrics["accuracy"], want.Metrics["accuracy"])
	}
	d = blobs(60, 2, 1)
	if _, err := Run(context.Background(), d, s, nil, Options{Folds: 3, Consume: true}, nil); err != nil || d.X.RawMatrix().Data == nil {
		t.Errorf("cross-validation released the rows (%v)", err)
	}
}

// sweepDetail is a family's step payload, for TestPointDetailJSON.
type sweepDetail struct{ Moved, Gap float64 }

func (d sweepDetail) Figures() []engine.Figure {
	return []engine.Figure{{Name: "moved", Value: d.Moved}, {Name: "gap", Value: d.Gap}}
}

// A step's detail is written under "extra" by its figures' names, as run
// files always had them (NaN as null), and read back as engine.Figures in
// the order of the names; a step without one has no "extra".
func TestPointDetailJSON(t *testing.T) {
	p := Point{Step: 3, TrainLoss: 0.5, ValLoss: math.NaN(), ValError: 0.25, Detail: sweepDetail{Moved: 7, Gap: math.NaN()}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"step":3,"train_loss":0.5,"val_loss":null,"val_error":0.25,"extra":{"gap":null,"moved":7}}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	var back Point
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	figs, ok := back.Detail.(engine.Figures)
	if !ok || len(figs) != 2 || figs[0].Name != "gap" || !math.IsNaN(figs[0].Value) || figs[1] != (engine.Figure{Name: "moved", Value: 7}) {
		t.Errorf("read back as %#v", back.Detail)
	}
	b, err = json.Marshal(Point{Step: 1})
	if err != nil || strings.Contains(string(b), "extra") {
		t.Errorf("a step without detail: %s, %v", b, err)
	}
	if err := json.Unmarshal(b, &back); err != nil || back.Detail != nil {
		t.Errorf("read back %#v, %v; want no detail", back.Detail, err)
	}
}

// A fold's training score is its model scored on the rows it learned from:
// the same numbers as a run whose test part is that fold's training part.
func TestTrainScores(t *testing.T) {
	d := blobs(60, 3, 2)
	opt := Options{Folds: 4, Seed: 3, TrainScores: true, NoRefit: true}
	res := run(t, d, "evalfake", map[string]string{"steps": "2"}, opt)
	if len(res.TrainFolds) != 4 {
		t.Fatalf("%d training scores, want one per fold (4)", len(res.TrainFolds))
	}
	folds, _, err := Plan(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	for f, p := range folds {
		same := run(t, d, "evalfake", map[string]string{"steps": "2"}, Options{Plan: []Fold{{p.Train, p.Train}}, Seed: 3})
		for _, key := range []string{"accuracy", "log_loss", "auc"} {
			if got, want := res.TrainFolds[f][key], same.Metrics[key]; got != want {
				t.Errorf("fold %d %s on training rows: %v, want %v", f+1, key, got, want)
			}
		}
	}
	if plain := run(t, d, "evalfake", nil, Options{Folds: 4, Seed: 3}); plain.TrainFolds != nil {
		t.Errorf("training scores without asking: %v", plain.TrainFolds)
	}
}

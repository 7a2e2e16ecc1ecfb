package tune_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/tune"
)

func lookup(t testing.TB, name string) *engine.Spec {
	t.Helper()
	s, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func axis(t testing.TB, model, setting string) tune.Axis {
	t.Helper()
	a, err := tune.ParseAxis(lookup(t, model), setting)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRangesReadThroughTheSpec(t *testing.T) {
	for _, c := range []struct {
		model, setting, want string
	}{
		{"knn", "k=1..5", "[1 2 3 4 5]"},
		{"knn", "k=1..9:5", "[1 3 5 7 9]"},
		{"knn", "k=log:1..100:3", "[1 10 100]"},
		{"knn", "k=7", "[7]"},
		{"knn", "metric=l1,L2", "[l1 l2]"},
		{"logistic", "C=1e-3..1e3:7", "[0.001 0.01 0.1 1 10 100 1000]"}, // C is explored on a log scale
		{"knn", "eps=0..1:5", "[0 0.25 0.5 0.75 1]"},
		{"knn", "eps=log:0.01..1:3", "[0.01 0.1 1]"},
		{"tree", "max_depth=1..4", "[1 2 3 4]"},
		{"knn", "k=1,2,5..20:4", "[1 2 5 10 15 20]"},                         // listed and spaced together
		{"svm", "gamma=scale,auto,0.01..10:4", "[scale auto 0.01 0.1 1 10]"}, // a text's names and numbers, log-spaced
		{"svm", "gamma=0.5,scale", "[0.5 scale]"},
		{"svm", "kernel=linear,rbf", "[linear rbf]"},
		{"tree", "criterion=gini,entropy", "[gini entropy]"},
	} {
		a := axis(t, c.model, c.setting)
		if got := fmt.Sprint(a.Values); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.model, c.setting, got, c.want)
		}
	}
}

func TestRangeErrorsNameTheParameter(t *testing.T) {
	for _, c := range []struct{ model, setting, want string }{
		{"knn", "k=0..5", "parameter k: \"0\" is out of range"},
		{"knn", "k=5..1", "parameter k: range \"5..1\" runs backwards"},
		{"knn", "k=1..x", "parameter k: \"x\" is not a whole number"},
		{"knn", "k=1..5:0", "parameter k: \"0\" in range \"1..5:0\" is not a number of points"},
		{"knn", "k=1..1000000", "parameter k: range \"1..1000000\" has 1000000 values"},
		{"knn", "metric=l2,l7", "parameter metric: \"l7\" is not one of"},
		{"knn", "metric=log:l1", "parameter metric: log: goes with a range"},
		{"knn", "eps=log:0..1", "parameter eps: a log-spaced range needs bounds above 0"},
		{"knn", "kk=1..3", "model knn has no parameter \"kk\""},
		{"knn", "k", "sweep wants name=range"},
		{"svm", "gamma=scale,0..1:3", "parameter gamma: gamma \"0\": want scale, auto or a number above 0 in range \"scale,0..1:3\""},
		{"svm", "gamma=scale,fast", "parameter gamma: gamma \"fast\": want scale, auto or a number above 0"},
		{"svm", "gamma=scale..auto", "parameter gamma: \"scale\" in range \"scale..auto\" is not a number"},
		{"svm", "kernel=linear,rbf,cubic", "parameter kernel: \"cubic\" is not one of"},
		{"tree", "criterion=gini..entropy", "parameter criterion: \"gini..entropy\" is not one of"},
	} {
		_, err := tune.ParseAxis(lookup(t, c.model), c.setting)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.setting, err, c.want)
		}
	}
}

// Two axes make a grid, the first outermost, as the table lists it.
func TestGridOrder(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, "knn")
	axes := []tune.Axis{axis(t, "knn", "k=1,3"), axis(t, "knn", "metric=l1,l2,linf")}
	res, err := tune.Search(context.Background(), d, spec, nil, axes, tune.Options{Eval: eval.Options{Folds: 3, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Points {
		got = append(got, res.Label(p))
	}
	want := "k=1 metric=l1,k=1 metric=l2,k=1 metric=linf,k=3 metric=l1,k=3 metric=l2,k=3 metric=linf"
	if strings.Join(got, ",") != want {
		t.Errorf("grid order %q, want %q", strings.Join(got, ","), want)
	}
	for _, p := range res.Points {
		if p.Params.Int("k") != p.Values[0] || p.Params.String("metric") != p.Values[1] || len(p.Val) != 3 {
			t.Errorf("%s: params %v, %d folds", res.Label(p), p.Params, len(p.Val))
		}
	}
}

// The result is the same whatever the number of workers, and a point's
// scores are eval.Run's on the shared folds.
func TestDeterministicAcrossJobs(t *testing.T) {
	d := open(t, "wine")
	spec := lookup(t, "knn")
	axes := []tune.Axis{axis(t, "knn", "k=1..12")}
	var results []*tune.Result
	for _, jobs := range []int{1, 2, 5} {
		res, err := tune.Search(context.Background(), d, spec, nil, axes, tune.Options{Eval: eval.Options{Folds: 4, Seed: 9}, Jobs: jobs}, nil)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	for _, r := range results[1:] {
		if !reflect.DeepEqual(r.Points, results[0].Points) || r.Best != results[0].Best {
			t.Fatalf("jobs change the result")
		}
	}
	v, _ := spec.Parse(map[string]string{"k": "7"})
	one, err := eval.Run(context.Background(), d, spec, v, eval.Options{Folds: 4, Seed: 9}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := results[0].Points[6]; math.Abs(p.ValMean-one.Metrics["accuracy"]) > 1e-15 || math.Abs(p.ValStd-one.Std["accuracy"]) > 1e-15 {
		t.Errorf("k=7: %v ± %v, eval.Run %v ± %v", p.ValMean, p.ValStd, one.Metrics["accuracy"], one.Std["accuracy"])
	}
}

// A random search draws distinct settings from the ranges, the same for a
// seed, within the spec's bounds.
func TestRandomSearch(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, "knn")
	axes := []tune.Axis{axis(t, "knn", "k=1..40"), axis(t, "knn", "metric=l1,l2")}
	opt := tune.Options{Eval: eval.Options{Folds: 3, Seed: 4}, Random: 6}
	a, err := tune.Search(context.Background(), d, spec, nil, axes, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tune.Search(context.Background(), d, spec, nil, axes, opt, nil)
	if len(a.Points) != 6 || !reflect.DeepEqual(a.Points, b.Points) {
		t.Fatalf("%d points; same seed same draws: %v", len(a.Points), reflect.DeepEqual(a.Points, b.Points))
	}
	seen := map[string]bool{}
	for i, p := range a.Points {
		k := p.Values[0].(int)
		if i > 0 && a.Points[i-1].Values[0].(int) > k {
			t.Errorf("draws out of order along k: %s then %s", a.Label(a.Points[i-1]), a.Label(p))
		}
		if k < 1 || k > 40 || seen[a.Label(p)] {
			t.Errorf("draw %s out of range or repeated", a.Label(p))
		}
		seen[a.Label(p)] = true
	}
}

// Cancelling keeps the points that finished and says so.
func TestCancelKeepsFinishedPoints(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, "knn")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	res, err := tune.Search(ctx, d, spec, nil, []tune.Axis{axis(t, "knn", "k=1..30")}, tune.Options{Eval: eval.Options{Folds: 3, Seed: 1}},
		func(i int, p tune.Point) {
			if calls++; calls == 3 {
				cancel()
			}
		})
	if err != context.Canceled || res == nil || !res.Cancelled {
		t.Fatalf("err %v, result %v", err, res)
	}
	if n := res.Finished(); n != 3 {
		t.Errorf("%d points kept, want the 3 that finished", n)
	}
	if best, ok := res.BestPoint(); !ok || !best.OK() {
		t.Errorf("no best among the finished points")
	}
}

// A setting the data cannot take fails alone; the others are scored.
func TestFailedPointDoesNotStopTheSweep(t *testing.T) {
	d := open(t, "iris")
	res, err := tune.Search(context.Background(), d, lookup(t, "knn"), nil, []tune.Axis{axis(t, "knn", "k=1,200")}, tune.Options{Eval: eval.Options{Folds: 3, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Points[0].OK() || res.Points[1].Err == nil || !strings.HasPrefix(res.Points[1].Err.Error(), "k=200: ") {
		t.Errorf("points %v / %v", res.Points[0].Err, res.Points[1].Err)
	}
}

// A learning curve trains on growing, nested, class-balanced subsets of
// each training part and scores the whole held-out part.
func TestLearningCurve(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, "knn")
	v, _ := spec.Parse(map[string]string{"k": "1"})
	opt := tune.Options{Eval: eval.Options{Folds: 5, Seed: 1}, Jobs: 2}
	res, err := tune.LearningCurve(context.Background(), d, spec, v, []float64{1, 0.1, 0.5}, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Points[0].Values, res.Points[1].Values, res.Points[2].Values); got != "[0.1] [0.5] [1]" {
		t.Errorf("sizes %s, want sorted", got)
	}
	if rows := []int{res.Points[0].Rows, res.Points[1].Rows, res.Points[2].Rows}; !reflect.DeepEqual(rows, []int{12, 60, 120}) {
		t.Errorf("training rows %v, want 12 60 120 of 120", rows)
	}
	// 1-NN recalls every training row: a training score of 1 at any size.
	for _, p := range res.Points {
		if p.TrainMean != 1 {
			t.Errorf("size %v: 1-NN training accuracy %v, want 1", p.Values[0], p.TrainMean)
		}
	}
	full, _ := eval.Run(context.Background(), d, spec, v, eval.Options{Folds: 5, Seed: 1}, nil)
	if last := res.Points[2]; last.ValMean != full.Metrics["accuracy"] {
		t.Errorf("the whole training part scores %v, a plain run %v", last.ValMean, full.Metrics["accuracy"])
	}
	if _, err := tune.LearningCurve(context.Background(), d, spec, v, []float64{0}, opt, nil); err == nil || !strings.Contains(err.Error(), "training size 0 is out of range") {
		t.Errorf("size 0: %v", err)
	}
}

// The range offered for sweeping a parameter comes from its spec, and
// every parameter's parses back within its bounds.
func TestDefaultRangeFromTheSpec(t *testing.T) {
	for _, c := range []struct{ model, param, want string }{
		{"knn", "k", "1..30"},
		{"logistic", "C", "0.01..100:10"},
		{"tree", "max_depth", "0..20"},
		{"tree", "ccp_alpha", "0..1:10"},
		{"tree", "criterion", "gini,entropy,misclassification"},
		{"lda", "reg", "0..1:10"},
	} {
		p, _ := lookup(t, c.model).Param(c.param)
		if got := tune.DefaultRange(p); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.model, c.param, got, c.want)
		}
	}
	for _, s := range engine.Specs() {
		for _, p := range s.Params {
			if p.Kind == engine.Text || p.Kind == engine.Ints {
				continue
			}
			if _, err := tune.ParseRange(p, tune.DefaultRange(p)); err != nil {
				t.Errorf("%s %s: the range offered does not parse: %v", s.Name, p.Name, err)
			}
		}
	}
}

// A random search draws a text's numbers from its range, checked by the
// parameter, beside its names, in order along the axis.
func TestRandomSearchDrawsNamesAndNumbers(t *testing.T) {
	a := axis(t, "svm", "gamma=scale,auto,0.01..10:7")
	draws := tune.Settings([]tune.Axis{a}, tune.Options{Random: 40, Eval: eval.Options{Seed: 3}})
	names, numbers := 0, 0
	last := math.Inf(-1)
	for _, d := range draws {
		g := d[0].(string)
		pos := a.Position(g)
		if x, ok := a.Number(g); ok {
			numbers++
			if x < 0.01 || x > 10 {
				t.Errorf("gamma %s drawn outside 0.01..10", g)
			}
		} else if g == "scale" || g == "auto" {
			names++
		} else {
			t.Errorf("gamma %q drawn", g)
		}
		if math.IsNaN(pos) || pos < last {
			t.Errorf("gamma %s at %v after %v: not in order along the axis", g, pos, last)
		}
		last = pos
	}
	if names == 0 || numbers < 10 {
		t.Errorf("%d names and %d numbers drawn of %d", names, numbers, len(draws))
	}
}

// scoredResult is a search's result with the given validation scores per
// point (one slice of fold scores each) along one axis, as a front end
// fills it; the rule picks among them.
func scoredResult(t *testing.T, a tune.Axis, pick string, folds [][]float64) *tune.Result {
	t.Helper()
	info, err := tune.MetricFor(datasets.Classification, "")
	if err != nil {
		t.Fatal(err)
	}
	r := &tune.Result{Axes: []tune.Axis{a}, Metric: info, Pick: pick}
	for i, f := range folds {
		p := tune.Point{Values: []any{a.Values[i]}, Val: f, Train: f, Done: true}
		p.ValMean, p.ValStd = stat.MeanStdDev(f, nil)
		r.Points = append(r.Points, p)
	}
	r.UpdateBest()
	return r
}

// The one-standard-error rule picks the simplest point within one
// standard error (sd/√folds) of the best mean, simpler as the spec says:
// a higher k, a lower max_depth where 0 is no limit at all.
func TestOneStandardErrorRule(t *testing.T) {
	folds := [][]float64{{0.90, 0.94, 0.92, 0.96}, {0.95, 0.97, 0.93, 0.99}, {0.92, 0.94, 0.96, 0.90}, {0.88, 0.90, 0.86, 0.84}}
	// means 0.93, 0.96 (sd 0.0258, se 0.0129: bound 0.9471), 0.93, 0.87
	k := axis(t, "knn", "k=1,5,9,13")
	if r := scoredResult(t, k, tune.PickBest, folds); r.Best != 1 || r.Top != 1 || r.Why != "" {
		t.Errorf("best: %d (top %d, %q), want 1", r.Best, r.Top, r.Why)
	}
	near := [][]float64{folds[0], folds[1], {0.95, 0.95, 0.94, 0.96}, folds[3]} // k=9 at 0.95 is within
	r := scoredResult(t, k, tune.PickOneSE, near)
	if r.Best != 2 || r.Top != 1 {
		t.Errorf("1se over k: picked %d (top %d), want k=9", r.Best, r.Top)
	}
	want := "one-standard-error rule: the best mean is k=5's 0.960 ± 0.026 over 4 folds, standard error 0.013; of the points scoring at least 0.947, k=9 is the simplest (higher k is simpler)"
	if r.Why != want {
		t.Errorf("why %q\nwant %q", r.Why, want)
	}
	// max_depth: lower is simpler, but 0 is no limit, the least simple.
	d := axis(t, "tree", "max_depth=0,2,4,6")
	r = scoredResult(t, d, tune.PickOneSE, [][]float64{folds[1], folds[3], {0.95, 0.95, 0.94, 0.96}, folds[1]})
	if r.Best != 2 || r.Top != 0 {
		t.Errorf("1se over max_depth: picked %d (top %d), want max_depth=4", r.Best, r.Top)
	}
	if err := tune.CheckPick([]tune.Axis{axis(t, "knn", "metric=l1,l2")}, tune.PickOneSE); err == nil ||
		err.Error() != "1se picks the simplest point, but the model's spec says of none of metric in which direction it is simpler; pick best" {
		t.Errorf("1se over metric: %v", err)
	}
	if err := tune.CheckPick([]tune.Axis{k}, "2se"); err == nil || err.Error() != `"2se" is not a rule (valid: best, 1se)` {
		t.Errorf("2se: %v", err)
	}
}

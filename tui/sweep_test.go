package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/sweep"
)

// sweepOf opens the sweep screen on model's parameter param, its range
// field set to text (as typed) unless text is "".
func sweepOf(t *testing.T, opt Options, param, text string) *harness {
	t.Helper()
	hs := newHarness(t, opt, 120, 40)
	hs.focusParam(param)
	hs.press("ctrl+s")
	if hs.a.cur != screenSweep || hs.a.sweep.Mode != sweep.Editing {
		t.Fatalf("ctrl+s on %s did not open the sweep's range:\n%s", param, hs.View())
	}
	if text != "" {
		hs.a.sweep.Input.SetValue(text)
	}
	return hs
}

// The range is offered from the spec, the curve is drawn as the points
// arrive, c cancels keeping the points that finished.
func TestSweepDrawsLiveAndCancels(t *testing.T) {
	t.Parallel()
	opt := Options{Data: "iris", Model: "tuitest_slow", Params: paramsOf("tuitest_slow", map[string]string{"sleep_us": "1000"})}
	hs := sweepOf(t, opt, "steps", "")
	if got := hs.a.sweep.Input.Value(); got != "steps=1..300:10" {
		t.Errorf("range offered %q, want one from the spec (default 50, max 1e7)", got)
	}
	// Two quick points, then one that would take minutes.
	hs.a.sweep.Input.SetValue("steps=1,2,100000")
	_, cmd := hs.a.Update(keyMsg("enter"))
	mustContain(t, hs.View(), "running: 0 of 3 points", "validation curve: accuracy against steps")
	for hs.a.sweep.Live.Finished() < 2 {
		if cmd == nil {
			t.Fatal("the sweep stopped before two points")
		}
		_, cmd = hs.a.Update(cmd())
	}
	v := hs.View()
	mustContain(t, v, "running: 2 of 3 points", "── training 0.3333", "━━ validation 0.3333", "│ ▸1      0.333±0       0.333±0", "│  100000 …")
	hs.a.Update(keyMsg("c"))
	for hs.a.sweep.Mode == sweep.Running {
		if cmd == nil {
			t.Fatal("no end after cancelling")
		}
		_, cmd = hs.a.Update(cmd())
	}
	v = hs.View()
	mustContain(t, v, "cancelled: 2 of 3 points kept", "│  100000 -")
	if hs.a.cur != screenSweep {
		t.Errorf("cancelling left the sweep screen")
	}
}

// enter on the best point trains it in full with the sweep's folds.
func TestSweepBestIsOneKeyFromARun(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "")
	if got := hs.a.sweep.Input.Value(); got != "k=1..30" {
		t.Errorf("range offered %q, want k=1..30", got)
	}
	hs.press("enter")
	res := hs.a.sweep.Live
	best, ok := res.BestPoint()
	if !ok || best.Params.Int("k") != 10 || hs.a.sweep.Sel != res.Best {
		t.Fatalf("best %v (GridSearchCV-style first of the ties: k=10), selected %d", best.Values, hs.a.sweep.Sel)
	}
	mustContain(t, hs.View(), "done: 30 points", "best k=10 0.960 ± 0.028", "┊best k=10", "▸10 ")
	hs.press("enter")
	if hs.a.cur != screenResults {
		t.Fatalf("enter did not train the best point:\n%s", hs.View())
	}
	r := hs.a.history[len(hs.a.history)-1]
	if r.Params.Int("k") != 10 || r.Options.Folds != 5 || r.Result.Metrics["accuracy"] != best.ValMean {
		t.Errorf("run k=%d folds %d accuracy %v, want k=10 5 %v", r.Params.Int("k"), r.Options.Folds, r.Result.Metrics["accuracy"], best.ValMean)
	}
}

// Two parameters make a heat table; the arrows walk its cells.
func TestSweepOfTwoParametersIsAHeatTable(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "wine", Model: "knn"}, "k", "k=1..9:5 metric=l1,l2,linf")
	hs.press("enter")
	mustContain(t, hs.View(), "validation accuracy: k down, metric across", "[█0.989*]", "best k=9 metric=l1 0.989")
	hs.press("left")
	mustContain(t, hs.View(), "▸7 linf", "[░0.927]")
}

func TestSweepRangeErrorsStayOnTheForm(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "k=0..3")
	hs.press("enter")
	mustContain(t, hs.View(), `parameter k: "0" is out of range (int in [1, 1e6]) in range "0..3"`)
	if hs.a.sweep.Mode != sweep.Editing || hs.a.sweep.Job != nil {
		t.Errorf("a bad range started a sweep")
	}
}

// ctrl+l draws the learning curve of the form's settings.
func TestLearningCurveFromTheForm(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "knn"}, 120, 40)
	hs.press("ctrl+l")
	if hs.a.cur != screenSweep || !hs.a.sweep.Learning {
		t.Fatalf("ctrl+l did not open the learning curve")
	}
	mustContain(t, hs.View(), "Learning curve of k nearest neighbours", "learning curve: accuracy against the share", "done: 7 points")
	if n := len(hs.a.sweep.Live.Points); n != len(tune.DefaultSizes) {
		t.Errorf("%d sizes", n)
	}
	hs.press("esc")
	if hs.a.cur != screenParams {
		t.Errorf("esc went to %s", screenNames[hs.a.cur])
	}
}

// A sweep's points of an old sweep are dropped once another starts.
func TestStaleSweepMessagesAreDropped(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "k=1..3")
	hs.press("enter")
	before := hs.View()
	hs.a.Update(sweep.DoneMsg{Job: 99})
	hs.a.Update(sweep.PointsMsg{Job: 99, Points: []sweep.IndexedPoint{{}}})
	if hs.View() != before {
		t.Errorf("a stale message changed the view")
	}
	var _ tea.Msg = kit.SweepTrainMsg{}
}

// The form offers the sweep only on a parameter it can range over.
func TestSweepKeyOnlyOnSweepableFields(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "knn"}, 120, 40)
	hs.focusParam("seed")
	if strings.Contains(hs.View(), "ctrl+s") {
		t.Errorf("the seed field offers a sweep")
	}
	hs.press("ctrl+s")
	if hs.a.cur != screenParams {
		t.Errorf("ctrl+s on the seed left the form")
	}
}

// x writes the sweep's report as Markdown and CSV, never over an earlier
// export: a second x numbers the names.
func TestSweepExportsNextToEarlierOnes(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "k=1..3")
	dir := hs.a.c.ExportDir
	hs.press("enter", "x")
	md, err := os.ReadFile(filepath.Join(dir, "tealab-sweep-iris-knn.md"))
	if err != nil {
		t.Fatalf("no Markdown export: %v\n%s", err, hs.View())
	}
	mustContain(t, string(md), "# sweep of knn on iris · stratified 5-fold CV · accuracy (higher is better) · 3 of 3 points",
		"| k | training | validation |  |", "to train it: `tealab train --data iris --model knn --param k=")
	csv, err := os.ReadFile(filepath.Join(dir, "tealab-sweep-iris-knn.csv"))
	if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); err != nil || lines[0] != "k,train_rows,fold,train_accuracy,val_accuracy" || len(lines) != 1+3*5 {
		t.Errorf("csv export (%v):\n%s", err, csv)
	}
	mustContain(t, hs.View(), "wrote tealab-sweep-iris-knn.md and tealab-sweep-iris-knn.csv in "+dir)
	hs.press("x")
	mustContain(t, hs.View(), "wrote tealab-sweep-iris-knn-2.md and tealab-sweep-iris-knn-2.csv")
	if again, _ := os.ReadFile(filepath.Join(dir, "tealab-sweep-iris-knn-2.md")); string(again) != string(md) {
		t.Errorf("the second export differs from the first:\n%s", again)
	}
}

// random=N in the range field draws the CLI's --random N settings (the same
// seed), laid out along the axis.
func TestSweepRandomSearchFromTheRangeField(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "k=1..50 random=0")
	mustContain(t, hs.View(), "Add random=N to draw N settings from the ranges (seed 1) instead of the whole grid.")
	hs.press("enter")
	mustContain(t, hs.View(), "random=0: give how many settings to draw, a whole number of at least 1 (e.g. random=8)")
	hs.a.sweep.Input.SetValue("k=1..50 random=8")
	hs.press("enter")
	live := hs.a.sweep.Live
	spec, _ := engine.Lookup("knn")
	axis, err := tune.ParseAxis(spec, "k=1..50")
	if err != nil {
		t.Fatal(err)
	}
	want, err := tune.Search(context.Background(), hs.a.ds, spec, nil, []tune.Axis{axis}, tune.Options{Eval: eval.Options{Folds: 5, Seed: 1}, Random: 8, Jobs: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(live.Points) != 8 || !live.Random {
		t.Fatalf("%d points, random %v; want 8 drawn", len(live.Points), live.Random)
	}
	got := map[int]float64{}
	for i, p := range live.Points {
		got[p.Params.Int("k")] = p.ValMean
		if i > 0 && live.Points[i-1].Params.Int("k") >= p.Params.Int("k") {
			t.Errorf("points not in order of k: %v then %v", live.Points[i-1].Values, p.Values)
		}
	}
	for _, p := range want.Points {
		if v, ok := got[p.Params.Int("k")]; !ok || v != p.ValMean {
			t.Errorf("k=%d: validation %v in the lab, %v from tune.Search", p.Params.Int("k"), v, p.ValMean)
		}
	}
	wantBest, _ := want.BestPoint()
	mustContain(t, hs.View(), "random search: accuracy of the drawn settings, in order of k", "done: 8 points", "best "+want.Label(wantBest))
}

// q during a sweep asks first; esc cancels it keeping the points that
// finished, and stays to show them.
func TestSweepQuitAsksAndEscKeepsPoints(t *testing.T) {
	t.Parallel()
	opt := Options{Data: "iris", Model: "tuitest_slow", Params: paramsOf("tuitest_slow", map[string]string{"sleep_us": "1000"})}
	hs := sweepOf(t, opt, "steps", "steps=1,2,100000")
	_, cmd := hs.a.Update(keyMsg("enter"))
	for hs.a.sweep.Live.Finished() < 2 {
		_, cmd = hs.a.Update(cmd())
	}
	if _, q := hs.a.Update(keyMsg("q")); q != nil {
		if _, quits := q().(tea.QuitMsg); quits {
			t.Fatal("q quit a running sweep without asking")
		}
	}
	mustContain(t, hs.View(), "Quit while sweeping? The 2 points that finished are lost", "y quit", "n keep sweeping")
	hs.a.Update(keyMsg("n"))
	if strings.Contains(hs.View(), "Quit while sweeping?") || hs.a.sweep.Mode != sweep.Running {
		t.Fatalf("n did not keep sweeping:\n%s", hs.View())
	}
	hs.a.Update(keyMsg("esc"))
	if hs.a.cur != screenSweep {
		t.Fatalf("esc left a running sweep for %s", screenNames[hs.a.cur])
	}
	for hs.a.sweep.Mode == sweep.Running {
		_, cmd = hs.a.Update(cmd())
	}
	mustContain(t, hs.View(), "cancelled: 2 of 3 points kept", "│  100000 -")
	hs.a.Update(keyMsg("esc"))
	if hs.a.cur != screenParams {
		t.Errorf("esc after the sweep went to %s, not back to the form", screenNames[hs.a.cur])
	}
}

// A heat table taller than the screen is cut so that the status shows.
func TestTallHeatTableKeepsTheStatus(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "k=1..60 metric=l1,l2")
	hs.press("enter")
	v := hs.View()
	mustContain(t, v, "done: 120 points")
	checkFrame(t, v, 120, 40)
}

// Three ranges drawn at random: the screen lists every point with its
// three values beside the numbered chart.
func TestSweepOfThreeParametersShowsTheTable(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "k=1..30 metric=l1,l2,linf algorithm=kdtree,brute random=5")
	hs.press("enter")
	live := hs.a.sweep.Live
	if len(live.Axes) != 3 || len(live.Points) != 5 || live.Finished() != 5 {
		t.Fatalf("%d axes, %d points, %d finished:\n%s", len(live.Axes), len(live.Points), live.Finished(), hs.View())
	}
	v := hs.View()
	mustContain(t, v, "random search: accuracy of the drawn settings, in order of k, metri", "done: 5 points")
	for _, p := range live.Points {
		mustContain(t, v, strings.Join([]string{engine.Format(p.Values[0]), engine.Format(p.Values[1])}, " "))
	}
}

// A text parameter's names and numbers are a range the field takes.
func TestSweepOfATextParameterInTheLab(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "svm"}, "C", "gamma=scale,auto,0.1..1:2")
	hs.press("enter")
	mustContain(t, hs.View(), "done: 4 points", "scale", "auto")
}

// pick=1se in the range field picks the simplest point within one
// standard error of the best, as --pick 1se does.
func TestSweepOneStandardErrorFromTheRangeField(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "k=1..40 pick=1se")
	hs.press("enter")
	live := hs.a.sweep.Live
	if best, ok := live.BestPoint(); !ok || best.Params.Int("k") != 28 || live.Top != 9 {
		t.Fatalf("picked %v (top %d), want k=28 as the CLI", best.Values, live.Top)
	}
	mustContain(t, hs.View(), "picked by 1se k=28 0.953 ± 0.030")
	hs.a.sweep.Input.SetValue("metric=l1,l2 pick=1se")
	hs.press("e")
	hs.press("enter")
	mustContain(t, hs.View(), "pick=1se picks the simplest point, but the model's spec says of none of metric")
}

// nested=K in the range field also scores the whole search by nested
// cross-validation, and the status line says the nested score.
func TestSweepNestedFromTheRangeField(t *testing.T) {
	t.Parallel()
	hs := sweepOf(t, Options{Data: "iris", Model: "knn"}, "k", "k=1..9:5 nested=3")
	hs.press("enter")
	n := hs.a.sweep.Live.Nested
	if n == nil || n.Scored() != 3 {
		t.Fatalf("nested %v:\n%s", n, hs.View())
	}
	mustContain(t, hs.View(), fmt.Sprintf("nested score %s ± %s over 3 outer folds", hs.a.sweep.Live.Metric.Format(n.Mean), hs.a.sweep.Live.Metric.Format(n.Std)))
	hs.a.sweep.Input.SetValue("k=1..9:5 nested=1")
	hs.press("e")
	hs.press("enter")
	mustContain(t, hs.View(), "nested=1: give how many outer folds, a whole number of at least 2 (e.g. nested=5)")
}

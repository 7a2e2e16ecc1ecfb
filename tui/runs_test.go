package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/runlist"
	"github.com/tealab/tealab/tui/views"
)

// "better" only beyond the folds' noise.
func TestRunsVerdictsAllowForNoise(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Eval: cv(5), Train: true}, 140, 40)
	hs.press("R")
	mustContain(t, hs.View(), "better")
	hs = newHarness(t, Options{Data: "diabetes", Model: "linear", Train: true}, 140, 40)
	hs.press("R")
	v := hs.View()
	mustContain(t, v, "no spread")
	if strings.Contains(v, "better") {
		t.Errorf("one hold-out's R² cannot be called better than the baseline's:\n%s", v)
	}
}

// The comparison of two runs says which differences are within noise.
func TestCompareSaysWithinNoise(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Eval: cv(10), Train: true}, 120, 40)
	hs.press("e")
	hs.a.params.SetModel(hs.a.ds, mustSpec(t, "gnb"), nil, nil)
	hs.a.spec = hs.a.params.Spec
	hs.press("enter")
	hs.runUntil(func() bool { return hs.a.cur == screenResults && len(hs.a.history) == 2 && hs.a.history[1].Done() })
	hs.press("R", " ", "down", " ", "enter")
	v := hs.View()
	mustContain(t, v, "Run #", "≈ within noise", "identical splits")
	checkFrame(t, v, 120, 40)
}

// Runs on moons and moons:n=50, or on one file with two targets, are not
// "a fair comparison".
func TestRunsCompareProvenance(t *testing.T) {
	t.Parallel()
	c := plainCommon(t)
	spec, err := engine.Lookup("gnb")
	if err != nil {
		t.Fatal(err)
	}
	rec := func(id int, source, target string, task datasets.Task) *kit.RunRecord {
		tb, err := datasets.Open(source)
		if err != nil {
			t.Fatal(err)
		}
		d, err := tb.Dataset(target, task)
		if err != nil {
			t.Fatal(err)
		}
		return newRun(t, id, source, target, d, spec, eval.DefaultOptions(), &eval.Result{Metrics: map[string]float64{"accuracy": 0.9}})
	}
	auto := datasets.Auto
	csv := writeFile(t, "two.csv", "a,b,c\n1,2,0\n2,1,1\n3,3,0\n4,0,1\n5,2,0\n")
	for _, tc := range []struct {
		name string
		a, b *kit.RunRecord
		want []string
	}{
		{"same data", rec(1, "moons", "", auto), rec(2, "moons", "", auto), []string{"identical splits"}},
		{"generator knobs", rec(1, "moons", "", auto), rec(2, "moons:n=50", "", auto),
			[]string{"runs on different data: moons(n=200", "moons(n=50", "no winner declared", "moons n=50"}},
		{"targets", rec(1, csv, "c", auto), rec(2, csv, "b", auto), []string{"runs on different targets: c vs b: no winner declared", "two →c", "b · classification"}},
		{"tasks", rec(1, csv, "b", auto), rec(2, csv, "b", datasets.Regression),
			[]string{"runs on different tasks: classification vs regression: no winner declared", "b · regression"}},
	} {
		s := runlist.New(c)
		s.SetSize(120, 30)
		s.SetRuns([]*kit.RunRecord{tc.a, tc.b})
		s.Picked, s.Compare = []int{1, 2}, true
		v := s.View()
		mustContain(t, v, tc.want...)
		if tc.name != "same data" && strings.Contains(v, "fair comparison") {
			t.Errorf("%s: called a fair comparison:\n%s", tc.name, v)
		}
		s.Compare = false
		if tc.name == "generator knobs" {
			mustContain(t, s.View(), "moons n=50")
		}
	}
}

// The summary marked a score ▲ whenever it was numerically above the
// baseline, where the runs screen and a comparison mean "beyond noise":
// a score within the folds' noise of its baseline is ≈, with a legend.
func TestSummaryMarksBeyondNoise(t *testing.T) {
	t.Parallel()
	c, d := plainCommon(t), openDataset(t, "iris")
	acc := []float64{0.30, 0.42, 0.33, 0.31, 0.44} // mean 0.36 over a baseline of 0.333: noise
	var folds []map[string]float64
	for _, a := range acc {
		folds = append(folds, map[string]float64{"accuracy": a, "error": 1 - a})
	}
	res := &eval.Result{Task: "classification", Folds: folds, Rows: 150,
		Metrics:  map[string]float64{"accuracy": 0.36, "error": 0.64},
		Std:      map[string]float64{"accuracy": 0.06, "error": 0.06},
		Baseline: map[string]float64{"accuracy": 0.3333, "error": 0.6667}}
	r := newRun(t, 1, "iris", "", d, mustSpec(t, "gnb"), eval.Options{Folds: 5, Seed: 1}, res)
	for _, v := range views.For(r) {
		if v.Name != views.TabSummary {
			continue
		}
		view := v.Make(views.Env{C: c}, r)
		view.SetSize(118, 36)
		out := view.View()
		if l := metricLine(out, " accuracy "); strings.Contains(l, "▲") || !strings.Contains(l, "≈") {
			t.Errorf("accuracy within noise of its baseline: %q", l)
		}
		mustContain(t, out, "▲ better, ▼ worse than the baseline beyond noise", "≈ within noise")
	}
}

// The runs screen at 80x24 lost its time and "vs baseline" columns; a
// picked starred run showed ★ alone; a name was squeezed into the key
// params and missing from the comparison; the naming prompt's footer
// offered "esc clear filter"; a run's time read otherwise than on its
// summary; an empty screen offered to compare.
func TestRunsTableShowsWhatMatters(t *testing.T) {
	t.Parallel()
	empty := newHarness(t, Options{}, 80, 24)
	empty.press("R")
	if v := empty.View(); strings.Contains(v, "compare") || strings.Contains(v, "pick") {
		t.Errorf("an empty runs screen offers to compare:\n%s", v)
	}

	hs := newHarness(t, Options{Data: "iris", Model: "gnb", Eval: cv(5), Train: true}, 80, 24)
	hs.press("esc", "enter")
	hs.runUntil(func() bool { return len(hs.a.history) == 2 && hs.a.history[1].Done() })
	hs.press("R", "*", " ", "n")
	v := hs.View()
	mustContain(t, v, "esc cancel")
	if strings.Contains(v, "clear filter") {
		t.Errorf("the naming prompt's footer:\n%s", v)
	}
	hs.typeText("gauss")
	hs.press("enter")
	v = hs.View()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "vs base", "wall", "★✓  2", "name", "gauss")
	r := hs.a.history[1]
	if row := strings.Join(linesWith(v, "★✓  2"), ""); !strings.Contains(row, numfmt.Seconds(r.WallSeconds())) || !strings.Contains(row, "better") {
		t.Errorf("the run's row lacks its wall time %s or its verdict: %q", numfmt.Seconds(r.WallSeconds()), row)
	}
	hs.press("down", " ", "enter")
	mustContain(t, hs.View(), "name", "gauss", "wall time", "a fair comparison") // the verdict's ground on a short screen too
	hs.press("esc", "up", "enter")
	hs.send(tea.WindowSizeMsg{Width: 120, Height: 40}) // the settings beside the scores
	if s := strings.Join(linesWith(hs.View(), "wall time"), ""); !strings.Contains(s, numfmt.Seconds(r.WallSeconds())) {
		t.Errorf("the summary's time %q is not the runs table's %s", s, numfmt.Seconds(r.WallSeconds()))
	}
}

// A score whose folds agree exactly showed a bare "±" in the runs table.
func TestRunsTableZeroSpread(t *testing.T) {
	t.Parallel()
	c, d := plainCommon(t), openDataset(t, "iris")
	res := &eval.Result{Task: "classification", Rows: 150, Metrics: map[string]float64{"accuracy": 1}, Std: map[string]float64{"accuracy": 0}}
	s := runlist.New(c)
	s.SetSize(80, 22)
	s.SetRuns([]*kit.RunRecord{newRun(t, 1, "iris", "", d, mustSpec(t, "gnb"), eval.Options{Folds: 5, Seed: 1}, res)})
	mustContain(t, s.View(), "acc 1.000 ± 0 ")
}

// A result that kept no wall time of its own (a run of an older history, a
// partial result) showed the run's time in the runs table and 0 s on its
// summary: both give the one time runRecord.wall says.
func TestSummaryTimeIsTheRunsTables(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "gnb", Eval: cv(5), Train: true}, 120, 40)
	hs.runUntil(func() bool { return len(hs.a.history) == 1 && hs.a.history[0].Done() })
	r := hs.a.history[0]
	r.Result.WallSecs, r.Result.FitSecs, r.Result.ScoreSecs = 0, 0, 0
	r.Wall = 7300 * time.Microsecond
	want := numfmt.Seconds(r.WallSeconds())
	if want != numfmt.Seconds(0.0073) {
		t.Fatalf("runRecord.wall %s, want the record's 7.3 ms", want)
	}
	hs.press("R")
	if row := strings.Join(linesWith(hs.View(), "iris"), ""); !strings.Contains(row, want) {
		t.Errorf("the runs table's row lacks %s: %q", want, row)
	}
	hs.press("enter")
	if s := strings.Join(linesWith(hs.View(), "wall time"), ""); !strings.Contains(s, want) {
		t.Errorf("the summary's time %q is not the runs table's %s", s, want)
	}
}

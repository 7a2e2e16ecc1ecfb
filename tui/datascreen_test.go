package tui

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// Regression tests for defects found in review: each fails without its fix.

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A regression target spanning more than the largest float64, or with
// ±Inf, made (hi-lo)/k infinite and int(NaN) an index: a panic on load.
func TestHistogramNonFinite(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name       string
		y          []float64
		bins       int     // labels expected (the bins chosen, at most 4, and the ±Inf bar)
		total, top float64 // counts summed; the ±Inf bar's count
		hasInf     bool
	}{
		{"range overflows", []float64{-1.7e308, 1.7e308, 0.5, 0.25}, 4, 4, 0, false},
		{"+Inf and -Inf", []float64{1, 2, 3, inf, -inf}, 4, 5, 2, true}, // a bar per whole number
		{"only Inf", []float64{inf, inf}, 1, 2, 2, true},
		{"one value and NaN", []float64{7, 7, math.NaN()}, 1, 2, 0, false},
		{"largest magnitudes only", []float64{-math.MaxFloat64, math.MaxFloat64}, 2, 2, 0, false}, // Sturges: log2(2)+1 bins
	} {
		t.Run(tc.name, func(t *testing.T) {
			labels, counts := histogram(tc.y, 4)
			if len(labels) != len(counts) {
				t.Fatalf("%d labels, %d counts", len(labels), len(counts))
			}
			sum := 0.0
			for i, c := range counts {
				sum += c
				if strings.Contains(labels[i], "NaN") {
					t.Errorf("label %q", labels[i])
				}
			}
			if sum != tc.total {
				t.Errorf("counts %v sum to %v, want %v", counts, sum, tc.total)
			}
			if tc.hasInf {
				if labels[len(labels)-1] != "±Inf" || counts[len(counts)-1] != tc.top {
					t.Errorf("labels %q counts %v: want a ±Inf bar of %v", labels, counts, tc.top)
				}
			}
			if len(labels) != tc.bins {
				t.Errorf("labels %q, want %d", labels, tc.bins)
			}
		})
	}
	// The overflowing range still spreads: the extremes land in the end bins.
	_, counts := histogram([]float64{-1.7e308, 1.7e308, 0.5, 0.25}, 4)
	if counts[0] != 1 || counts[3] != 1 || counts[1]+counts[2] != 2 {
		t.Errorf("counts %v, want the extremes in the end bins", counts)
	}
}

func TestDataFileWithHugeTarget(t *testing.T) {
	p := writeFile(t, "h.csv", "a,y\n1,-1.7e308\n2,1.7e308\n3,0.5\n4,0.25\n")
	hs := newHarness(t, Options{Data: p}, 100, 30)
	if hs.a.data.ds == nil || hs.a.data.ds.Task != datasets.Regression {
		t.Fatalf("dataset %+v, err %v", hs.a.data.ds, hs.a.data.dsErr)
	}
	// Data alone: the start-up load stays on the preview.
	if hs.a.cur != screenData || hs.a.data.focus != focusPreview {
		t.Fatalf("screen %v, focus %v", hs.a.cur, hs.a.data.focus)
	}
	hs.previewTab(previewBalance)
	mustContain(t, hs.view(), "distribution of y", "-1.7e308")
}

// A load finishing while another screen shows (R during a start-up load)
// was handed to that screen and lost: "loading…" forever, --train never
// started.
func TestLoadResultReachesDataScreenFromAnyScreen(t *testing.T) {
	a := newTestApp(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	hs := &harness{t: t, a: a}
	load := a.Init()
	hs.press("R")
	if a.cur != screenRuns {
		t.Fatalf("R: screen %v", a.cur)
	}
	hs.send(load())
	if a.data.loading != "" || a.data.table == nil {
		t.Fatalf("the load result was lost: loading %q", a.data.loading)
	}
	if len(a.history) != 1 || !a.history[0].Done() || a.history[0].Err != nil {
		t.Fatalf("--train did not run after the load: %d runs", len(a.history))
	}

	// The file browser's listing, likewise.
	hs2 := newHarness(t, Options{}, 120, 40)
	_, read := hs2.a.Update(keyMsg("o"))
	hs2.press("R")
	hs2.send(read())
	if hs2.a.data.picker.loading || len(hs2.a.data.picker.entries) == 0 && hs2.a.data.picker.err == nil {
		t.Fatalf("the directory listing was lost: loading %v", hs2.a.data.picker.loading)
	}
}

func TestStartupTaskAndLOO(t *testing.T) {
	// y is whole numbers with few values: inferred classification.
	p := writeFile(t, "small.csv", "a,y\n1,1\n2,2\n3,1\n4,2\n5,3\n6,3\n")
	hs := newHarness(t, Options{Data: p, Model: "tuitest_slow"}, 120, 40)
	if hs.a.ds.Task != datasets.Classification {
		t.Fatalf("inferred %v", hs.a.ds.Task)
	}
	hs = newHarness(t, Options{Data: p, Task: "regression", Model: "tuitest_slow", LOO: true}, 120, 40)
	if hs.a.ds == nil || hs.a.ds.Task != datasets.Regression {
		t.Fatalf("Task regression: dataset %+v (%v)", hs.a.ds, hs.a.data.dsErr)
	}
	hs.focusParam("evaluation")
	if got := hs.a.params.current().raw(); got != evalLOO {
		t.Errorf("LOO: evaluation %q", got)
	}
	if o, err := hs.a.params.options(); err != nil || !o.LOO {
		t.Errorf("LOO: options %+v, %v", o, err)
	}
	// Choosing a target in the preview infers again.
	hs.a.data.setTarget("y", datasets.Auto)
	if hs.a.data.ds.Task != datasets.Classification {
		t.Errorf("a target chosen in the preview kept the forced task")
	}
	if _, err := newApp(Options{Data: p, Task: "sorting"}, asciiRenderer()); err == nil ||
		!strings.Contains(err.Error(), "sorting") {
		t.Errorf("unknown task: err %v", err)
	}
}

// Seeds are uint64 end to end: MaxUint64 went through int as -1.
func TestSeedMaxUint64(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow", Seed: math.MaxUint64,
		Params: map[string]string{"steps": "2", "sleep_us": "0"}}, 120, 40)
	hs.focusParam("seed")
	if got := hs.a.params.current().raw(); got != "18446744073709551615" {
		t.Fatalf("seed field %q", got)
	}
	mustContain(t, hs.view(), "int in [0, 2^64-1]")
	hs.press("enter")
	if len(hs.a.history) != 1 {
		t.Fatalf("no run: %v", hs.a.params.err)
	}
	if r := hs.a.history[0]; r.Options.Seed != math.MaxUint64 || r.Result == nil || r.Result.Seed != math.MaxUint64 {
		t.Errorf("run seed %d (result %+v)", r.Options.Seed, r.Result)
	}
	hs.press("esc") // results -> parameters
	hs.focusParam("seed")
	hs.press("backspace")
	hs.typeText("6") // 18446744073709551616: one too many
	if f := hs.a.params.current(); f.err == nil {
		t.Error("2^64 accepted as a seed")
	}
	hs.press("backspace")
	hs.typeText("5")
	if f := hs.a.params.current(); f.err != nil {
		t.Errorf("MaxUint64 rejected: %v", f.err)
	}
}

// Runs on moons and moons:n=50, or on one file with two targets, are not
// "a fair comparison".
func TestRunsCompareProvenance(t *testing.T) {
	c, err := newCommon("dark", asciiRenderer())
	if err != nil {
		t.Fatal(err)
	}
	spec, err := engine.Lookup("gnb")
	if err != nil {
		t.Fatal(err)
	}
	rec := func(id int, source, target string, task datasets.Task) *runRecord {
		tb, err := datasets.Open(source)
		if err != nil {
			t.Fatal(err)
		}
		d, err := tb.Dataset(target, task)
		if err != nil {
			t.Fatal(err)
		}
		return newRun(t, id, source, target, d, spec, eval.Options{Split: 0.2, Seed: 1}, &eval.Result{Metrics: map[string]float64{"accuracy": 0.9}})
	}
	auto := datasets.Auto
	csv := writeFile(t, "two.csv", "a,b,c\n1,2,0\n2,1,1\n3,3,0\n4,0,1\n5,2,0\n")
	for _, tc := range []struct {
		name string
		a, b *runRecord
		want []string
	}{
		{"same data", rec(1, "moons", "", auto), rec(2, "moons", "", auto), []string{"identical splits"}},
		{"generator knobs", rec(1, "moons", "", auto), rec(2, "moons:n=50", "", auto),
			[]string{"runs on different data: moons(n=200", "moons(n=50", "no winner declared", "moons n=50"}},
		{"targets", rec(1, csv, "c", auto), rec(2, csv, "b", auto), []string{"runs on different targets: c vs b: no winner declared", "two →c", "b · classification"}},
		{"tasks", rec(1, csv, "b", auto), rec(2, csv, "b", datasets.Regression),
			[]string{"runs on different tasks: classification vs regression: no winner declared", "b · regression"}},
	} {
		s := newRunsScreen(c)
		s.SetSize(120, 30)
		s.setRuns([]*runRecord{tc.a, tc.b})
		s.picked, s.compare = []int{1, 2}, true
		v := s.View()
		mustContain(t, v, tc.want...)
		if tc.name != "same data" && strings.Contains(v, "fair comparison") {
			t.Errorf("%s: called a fair comparison:\n%s", tc.name, v)
		}
		s.compare = false
		if tc.name == "generator knobs" {
			mustContain(t, s.View(), "moons n=50")
		}
	}
}

// The cancel command read s.run on the command's goroutine: a run started
// in the meantime got the cancel.
func TestCancelCommandKeepsItsRun(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: map[string]string{"steps": "1000000", "sleep_us": "100"}}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) > 0 }) {
		t.Fatal("no progress")
	}
	job := hs.a.job
	t.Cleanup(func() { job.stop(5 * time.Second) })
	_, cmd := hs.a.Update(keyMsg("c"))
	if cmd == nil {
		t.Fatal("c gave no command")
	}
	// Update replaces the screen's run before the command runs.
	other := *hs.a.history[0]
	rec := *other.Record
	rec.ID = 99
	other.Record = &rec
	hs.a.train.start(&other)
	if m, ok := cmd().(cancelRunMsg); !ok || m.run != job.id {
		t.Fatalf("the cancel command asked to cancel %#v, want run %d", m, job.id)
	}
}

// A run left with esc showed "context canceled" and nothing else when
// opened from the runs table.
func TestAbandonedRunKeepsPartialHistory(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: map[string]string{"steps": "1000000", "sleep_us": "100"}}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) >= 5 }) {
		t.Fatal("no progress")
	}
	seen := trainSteps(hs)
	hs.queue = nil
	// A run is abandoned when another starts while it trains.
	hs.a.abandon()
	hs.a.goTo(screenParams)
	hs.press("esc", "R") // parameters (a text field has the keys) -> models
	mustContain(t, hs.view(), "abandoned")
	hs.press("enter")
	if hs.a.cur != screenResults {
		t.Fatalf("enter on the abandoned run: screen %v", hs.a.cur)
	}
	v := hs.view()
	mustContain(t, v, "abandoned (esc) after ", "epochs: partial history", "[History]")
	if strings.Contains(v, "context canceled") {
		t.Errorf("raw error shown:\n%s", v)
	}
	r := hs.a.history[0]
	if r.Result == nil || len(r.Result.History) != seen || r.Result.History[seen-1].Step != seen {
		t.Fatalf("kept history: %+v, want the %d steps received", r.Result, seen)
	}
	mustContain(t, v, "abandoned (esc) after "+strconv.Itoa(seen)+" epochs")
}

package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/tui/views"
)

// withHistory turns the run history on, in a directory of the test's own.
func withHistory(t *testing.T) *runs.History {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("TEALAB_HISTORY", "")
	h, err := runs.OpenHistory()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// trainedSession is a lab that trained model on data with options, its run
// recorded in the history.
func trainedSession(t *testing.T, data, model string, folds int) *harness {
	t.Helper()
	hs := newHarness(t, Options{Data: data, Model: model, Train: true, Eval: cv(folds)}, 120, 40)
	hs.runUntil(func() bool { return hs.a.cur == screenResults })
	hs.settle() // the history's append
	if len(hs.a.history) != 1 || hs.a.history[0].HistID == "" {
		t.Fatalf("the run was not recorded (note %q)", hs.a.runs.Note)
	}
	return hs
}

// Train in the lab, quit, start again: the run is on the runs screen,
// marked as an earlier session's, and opens with its charts.
func TestHistoryAcrossSessions(t *testing.T) {
	h := withHistory(t)
	first := trainedSession(t, "iris", "logistic", 3)
	want := first.a.history[0].Result.Metrics["accuracy"]
	first.press("q")

	hs := newHarness(t, Options{}, 120, 40)
	hs.press("R")
	v := hs.View()
	for _, s := range []string{"Runs (1, 1 from earlier sessions)", "iris", "logistic", "3-fold CV", "history id " + first.a.history[0].HistID} {
		if !strings.Contains(v, s) {
			t.Errorf("runs screen of the new session lacks %q:\n%s", s, v)
		}
	}
	hs.press("enter")
	if hs.a.cur != screenResults {
		t.Fatalf("enter on a run of an earlier session: screen %v, note %q", hs.a.cur, hs.a.runs.Note)
	}
	if got := hs.a.results.Run.Result.Metrics["accuracy"]; got != want {
		t.Errorf("accuracy %v, want %v", got, want)
	}
	// What the figures were made of survives the file: the folds pooled
	// 150 held-out rows, though the rows themselves are not kept.
	if v := hs.View(); !strings.Contains(v, "mean of 3 folds") {
		t.Errorf("the summary of a loaded run:\n%s", v)
	}
	hs.resultTab("Confusion")
	if v := hs.View(); !strings.Contains(v, "(150 rows)") {
		t.Errorf("the confusion matrix of a loaded run:\n%s", v)
	}
	hs.resultTab(views.TabHistory)
	if v := hs.View(); !strings.Contains(v, "training loss") {
		t.Errorf("the history tab of a loaded run:\n%s", v)
	}
	for range hs.a.results.Tabs.Names() { // every view draws
		hs.press("tab")
		checkFrame(t, hs.View(), 120, 40)
	}
	hs.press("esc")

	// Star, name, delete: the history file follows.
	hs.press("*", "n")
	hs.typeText("best so far")
	hs.press("enter")
	hs.settle()
	es, _, err := h.Read()
	if err != nil || len(es) != 1 || !es[0].Star || es[0].Name != "best so far" {
		t.Fatalf("after star and name: %v %+v", err, es)
	}
	if v := hs.View(); !strings.Contains(v, "★") || !strings.Contains(v, "“best so far”") {
		t.Errorf("star and name not shown:\n%s", v)
	}
	hs.press("/")
	hs.typeText("best")
	hs.press("enter")
	if len(hs.a.runs.Order) != 1 {
		t.Errorf("filter by name shows %d runs", len(hs.a.runs.Order))
	}
	hs.press("esc", "x", "n")
	if len(hs.a.history) != 1 {
		t.Fatal("n answered the question to delete, and the run went")
	}
	hs.press("x", "y")
	if es, _, _ := h.Read(); len(es) != 0 || len(hs.a.history) != 0 {
		t.Errorf("after delete: %d in the history, %d in the lab", len(es), len(hs.a.history))
	}
}

// A run of an earlier session replays to the same metrics (r on the runs
// screen), and its exports and recipe are written where asked.
func TestReplayAndExportFromRunsScreen(t *testing.T) {
	withHistory(t)
	first := trainedSession(t, "wine", "lda", 4)
	want := first.a.history[0].Result
	first.press("q")

	hs := newHarness(t, Options{}, 120, 40)
	hs.press("R", "r")
	hs.runUntil(func() bool { return hs.a.cur == screenResults })
	hs.settle()
	if len(hs.a.history) != 2 {
		t.Fatalf("after replay: %d runs", len(hs.a.history))
	}
	got := hs.a.history[1].Result
	if !sameFloats(got.Metrics, want.Metrics) || len(got.Folds) != 4 {
		t.Errorf("replayed metrics %v, want %v", got.Metrics, want.Metrics)
	}
	hs.press("R", "m", "c", "w")
	id := hs.a.runs.Current().HistID
	for _, name := range []string{"tealab-run-" + id + ".md", "tealab-run-" + id + ".csv", "tealab-recipe-" + id + ".json"} {
		if _, err := os.Stat(filepath.Join(hs.a.c.ExportDir, name)); err != nil {
			t.Errorf("export: %v (note %q)", err, hs.a.runs.Note)
		}
	}
	if rc, err := runs.Load(filepath.Join(hs.a.c.ExportDir, "tealab-recipe-"+id+".json")); err != nil || rc.Options.Folds != 4 || rc.Data.Hash != "spec:wine" {
		t.Errorf("recipe: %v %+v", err, rc)
	}
}

// A history that cannot be written is a note on the runs screen; the run
// stays in the lab.
func TestUnwritableHistoryInTheLab(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", notDir)
	t.Setenv("TEALAB_HISTORY", "")
	hs := newHarness(t, Options{Data: "iris", Model: "lda", Train: true}, 120, 40)
	hs.runUntil(func() bool { return hs.a.cur == screenResults })
	hs.settle()
	hs.press("R")
	if v := hs.View(); len(hs.a.history) != 1 || !strings.Contains(v, "not recorded: run history") {
		t.Errorf("runs screen:\n%s", v)
	}
}

func sameFloats(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || (v != w && v == v) {
			return false
		}
	}
	return true
}

// Every result view of a run read back from the history draws, whatever
// the task: the history keeps no per-row predictions, no embedding and no
// fitted model, and the views make do.
func TestPastRunsDrawEveryView(t *testing.T) {
	for _, c := range []struct{ data, model string }{
		{"diabetes", "ridge"}, {"iris", "kmeans"}, {"wine", "pca"}, {"iris", "tree"}, {"moons", "knn"}, {"iris", "hclust"},
	} {
		t.Run(c.model, func(t *testing.T) {
			withHistory(t)
			trainedSession(t, c.data, c.model, 0).press("q")
			hs := newHarness(t, Options{}, 120, 40)
			hs.press("R", "enter")
			if hs.a.cur != screenResults {
				t.Fatalf("not opened: note %q", hs.a.runs.Note)
			}
			for range hs.a.results.Tabs.Names() {
				hs.press("tab")
				checkFrame(t, hs.View(), 120, 40)
			}
		})
	}
}

// A lab started to train at once reads the history first, so that its run
// is numbered after the earlier sessions' and finishes as any other.
func TestStartupTrainAfterHistory(t *testing.T) {
	withHistory(t)
	trainedSession(t, "iris", "lda", 0).press("q")
	a := newTestApp(t, Options{Data: "iris", Model: "gnb", Train: true}, 120, 40)
	msg := a.Init()()
	if _, ok := msg.(historyLoadedMsg); !ok {
		t.Fatalf("the first message of a lab that trains at once is %T, not the history", msg)
	}
	hs := &harness{t: t, a: a, queue: []tea.Msg{msg}}
	hs.runUntil(func() bool { return hs.a.cur == screenResults })
	hs.settle()
	if len(hs.a.history) != 2 || hs.a.history[1].ID != 2 || !hs.a.history[1].Done() || hs.a.history[0].ID != 1 || !hs.a.history[0].Past {
		t.Errorf("runs after start-up: %d, #%d %v", len(hs.a.history), hs.a.history[len(hs.a.history)-1].ID, hs.a.history[len(hs.a.history)-1].Status)
	}
}

// A replay (r on the runs screen) of a run whose file has changed since
// trains on the file as it is and says so among the run's warnings.
func TestReplaySaysTheDataChanged(t *testing.T) {
	withHistory(t)
	path := filepath.Join(t.TempDir(), "points.csv")
	write := func(extra string) {
		if err := os.WriteFile(path, []byte("x,y,label\n1,2,a\n2,1,a\n1,1,a\n5,6,b\n6,5,b\n6,6,b\n1,3,a\n5,7,b\n2,2,a\n7,6,b\n"+extra), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("")
	trainedSession(t, path, "lda", 0).press("q")
	write("6,7,b\n")

	hs := newHarness(t, Options{}, 120, 40)
	hs.press("R", "r")
	hs.runUntil(func() bool { return hs.a.cur == screenResults })
	hs.settle()
	if len(hs.a.history) != 2 {
		t.Fatalf("after replay: %d runs", len(hs.a.history))
	}
	found := false
	for _, w := range hs.a.history[1].Result.Warnings {
		found = found || strings.Contains(w.Text, "data changed since the recipe was written: "+path)
	}
	if !found {
		t.Errorf("the replay on changed data warns of %v", hs.a.history[1].Result.Warnings)
	}
}

// The same run trained in two sessions, picked on the runs screen, was
// refused as "runs on different data: builtin:iris vs iris", the earlier
// run's target "the last column": it is compared, a tie, its target named.
func TestSameRunAcrossSessionsCompared(t *testing.T) {
	withHistory(t)
	trainedSession(t, "iris", "knn", 5).press("q")

	hs := newHarness(t, Options{Data: "iris", Model: "knn", Train: true, Eval: cv(5)}, 120, 40)
	hs.runUntil(func() bool { return hs.a.cur == screenResults && len(hs.a.history) == 2 && hs.a.history[1].Done() })
	hs.settle()
	hs.press("R")
	if r := hs.a.runs.Current(); r == nil || r.ID != 2 {
		t.Fatalf("the runs screen opens on run %v, want the newest, #2", r)
	}
	hs.press(" ", "down", " ", "enter")
	v := hs.View()
	if !hs.a.runs.Compare || strings.Contains(v, "different data") || !strings.Contains(v, "= equal") || !strings.Contains(v, "fair comparison") {
		t.Errorf("the same run of two sessions compared:\n%s", v)
	}
	if strings.Contains(v, "the last column") || strings.Count(v, "species · classification") != 2 || strings.Count(v, "builtin:iris") != 2 {
		t.Errorf("the earlier run's data are not named as the new one's:\n%s", v)
	}
}

// A run reopened from the history offered Try ("preprocessing: transform
// is not fitted") and S ("no fitted model to save"): it has neither, and
// its summary says so and how to train it again.
func TestEarlierRunSaysWhatItLacks(t *testing.T) {
	withHistory(t)
	trainedSession(t, "iris", "tree", 3).press("q")
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		hs := newHarness(t, Options{}, size[0], size[1])
		hs.press("R", "enter")
		if hs.a.cur != screenResults {
			t.Fatalf("the earlier run did not open: %q", hs.a.runs.Note)
		}
		if slices.Contains(hs.a.results.Tabs.Names(), "Try") {
			t.Errorf("an earlier run offers Try: %v", hs.a.results.Tabs.Names())
		}
		v := hs.View()
		if strings.Contains(v, "S save model") || !strings.Contains(v, "cannot be tried (Try)") || !strings.Contains(v, "runs it again") {
			t.Errorf("%dx%d: the earlier run's summary:\n%s", size[0], size[1], v)
		}
		checkFrame(t, v, size[0], size[1])
		hs.press("S")
		mustContain(t, hs.View(), "not its fitted", "runs it again")
	}
}

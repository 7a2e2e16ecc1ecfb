package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/data"
	"github.com/tealab/tealab/tui/screens/results"
	"github.com/tealab/tealab/tui/views"
	"github.com/tealab/tealab/tui/widgets"
)

// Widget-free screen tests: drive Update with keys and read View (ASCII).

// pickData moves the data list to name and presses enter (load & preview).
func (hs *harness) pickData(name string) {
	hs.t.Helper()
	for range len(hs.a.data.Entries) + 1 {
		if e := hs.a.data.SelectedEntry(); e != nil && e.Name == name {
			hs.press("enter")
			return
		}
		hs.press("down")
	}
	hs.t.Fatalf("no data entry %q", name)
}

// pickModel moves the model list to name and presses enter.
func (hs *harness) pickModel(name string) {
	hs.t.Helper()
	for range len(hs.a.model.Specs) {
		hs.press("up")
	}
	for range len(hs.a.model.Specs) {
		if hs.a.model.Specs[hs.a.model.Cursor].Name == name {
			hs.press("enter")
			return
		}
		hs.press("down")
	}
	hs.t.Fatalf("model %q is not listed for %s", name, hs.a.model.Task)
}

// focusParam moves the form's focus to the named field.
func (hs *harness) focusParam(name string) {
	hs.t.Helper()
	for range len(hs.a.params.Fields) + 1 {
		if f := hs.a.params.Current(); f != nil && f.P.Name == name {
			return
		}
		hs.press("down")
	}
	hs.t.Fatalf("no field %q", name)
}

func mustContain(t *testing.T, v string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(v, w) {
			t.Errorf("view lacks %q:\n%s", w, v)
		}
	}
}

func TestStartNothingParsed(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 100, 30)
	if hs.a.data.Table != nil || hs.a.ds != nil {
		t.Fatal("a dataset was loaded before one was chosen")
	}
	mustContain(t, hs.View(), "Built-in sets", "iris", "Generators", "moons", "open a file", "150 rows · 4 features")
}

func TestDataPreviewAndTarget(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 120, 40)
	hs.pickData("iris")
	mustContain(t, hs.View(), "150 rows × 5 columns · 3 classes", "target species", "3 classes",
		"petal_width_cm", "numeric", "nominal", "3: setosa, versicolor", "0.1–2.5")
	// Choose a numeric target: regression.
	hs.press("down", "s")
	if d := hs.a.data.Ds; d == nil || d.Task != datasets.Regression || d.Target.Name != "sepal_width_cm" {
		t.Fatalf("after s on sepal_width_cm: %+v", d)
	}
	mustContain(t, hs.View(), "target sepal_width_cm · regression")
	// No target: clustering.
	hs.press("u")
	mustContain(t, hs.View(), "no target: clustering")
	// Rows and balance.
	hs.press("up", "up", "end")
	hs.a.data.Cols.SetCursor(4)
	hs.press("s")
	hs.previewTab(data.PreviewRows)
	mustContain(t, hs.View(), "5.1", "setosa", "columns 1-5 of 5")
	hs.previewTab(data.PreviewBalance)
	mustContain(t, hs.View(), "class balance", "versicolor", "50")
	// enter uses it.
	hs.press("enter")
	if hs.a.cur != screenModel || hs.a.ds == nil || hs.a.ds.Task != datasets.Classification {
		t.Fatalf("enter on the preview: screen %v, dataset %+v", hs.a.cur, hs.a.ds)
	}
}

// TestDataPreviewNarrow: at 80x24 the Columns tab still shows each
// numeric range whole (short kinds and headers make room), and a resize
// lays the columns out again.
func TestDataPreviewNarrow(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 80, 24)
	hs.pickData("iris")
	v := hs.View()
	mustContain(t, v, "4.3–7.9", "2–4.4", "1–6.9", "0.1–2.5", "num", "nom", "3: setosa")
	checkFrame(t, v, 80, 24)
	hs.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	mustContain(t, hs.View(), "numeric", "missing", "3: setosa, versicolor, virginica")
	hs.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	mustContain(t, hs.View(), "4.3–7.9", "num")
}

func TestGeneratorKnobs(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 120, 40)
	for hs.a.data.SelectedEntry().Name != "moons" {
		hs.press("down")
	}
	hs.press("e")
	if !hs.a.data.Typing() {
		t.Fatal("e did not focus the knobs")
	}
	for range 5 {
		hs.press("backspace")
	}
	hs.typeText("abc")
	mustContain(t, hs.View(), `knob n: "abc" is not a number`)
	hs.press("enter") // refused: the knob is invalid
	if hs.a.data.Loading != "" || hs.a.data.Table != nil {
		t.Fatal("generated with an invalid knob")
	}
	for range 3 {
		hs.press("backspace")
	}
	hs.typeText("50")
	hs.press("enter")
	if tb := hs.a.data.Table; tb == nil || tb.Rows() != 50 {
		t.Fatalf("moons:n=50 gave %v", tb)
	}
	mustContain(t, hs.View(), "50 rows × 3 columns", "moons(n=50")
}

func TestOpenFileByPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "tiny.csv")
	if err := os.WriteFile(good, []byte("a,b,label\n1,2,x\n2,1,y\n3,3,x\n4,0,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, Options{}, 120, 40)
	hs.press("p")
	if !hs.a.data.Typing() {
		t.Fatal("p did not focus the path field")
	}
	hs.typeText(filepath.Join(dir, "missing.csv"))
	hs.press("enter")
	mustContain(t, hs.View(), "could not load the data", "missing.csv")
	hs.press("p")
	for range 200 {
		hs.press("backspace")
	}
	hs.typeText(good)
	hs.press("enter")
	mustContain(t, hs.View(), "4 rows × 3 columns", "target label")
}

func TestFileBrowser(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"b.csv", "a.arff", "notes.md", ".hidden.csv"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	b := data.NewFileBrowser(nil)
	b.Update(b.Read(dir)())
	var names []string
	for _, e := range b.Entries {
		names = append(names, e.Name)
	}
	if got := strings.Join(names, " "); got != "sub a.arff b.csv" {
		t.Fatalf("entries %q, want folders first, data files only, no hidden", got)
	}
	b.Update(keyMsg("down"))
	msg := b.Update(keyMsg("enter"))()
	if fc, ok := msg.(data.FileChosenMsg); !ok || fc.Path != filepath.Join(dir, "a.arff") {
		t.Fatalf("enter gave %#v", msg)
	}
	b.Update(keyMsg("up"))
	b.Update(b.Update(keyMsg("enter"))()) // into sub/
	if b.Dir != filepath.Join(dir, "sub") {
		t.Fatalf("dir %q after entering sub", b.Dir)
	}
	b.Update(b.Update(keyMsg("backspace"))())
	if b.Dir != dir {
		t.Fatalf("dir %q after going up", b.Dir)
	}
}

func TestModelsFilteredByTask(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		data      string
		want, not []string
	}{
		{"diabetes", []string{"linear", "ridge"}, []string{"logistic", "gnb"}},
		{"iris", []string{"logistic", "gnb", "tuitest_crash"}, []string{"linear", "ridge"}},
	} {
		hs := newHarness(t, Options{Data: tc.data}, 120, 40)
		hs.press("enter") // from the data's preview on to the models
		v := hs.View()
		if hs.a.cur != screenModel {
			t.Fatalf("%s: start-up with data only is on screen %v", tc.data, hs.a.cur)
		}
		mustContain(t, v, tc.want...)
		for _, sp := range hs.a.model.Specs {
			for _, n := range tc.not {
				if sp.Name == n {
					t.Errorf("%s: model %q listed:\n%s", tc.data, n, v)
				}
			}
		}
	}
}

func TestParamsFormValidates(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic"}, 120, 40)
	if hs.a.cur != screenParams {
		t.Fatalf("screen %v, want parameters", hs.a.cur)
	}
	mustContain(t, hs.View(), "solver", "auto", "float in [1e-6, 1e6]", "Evaluation", "test fraction")
	// A choice cycles with right.
	hs.focusParam("solver")
	hs.press("right")
	if got := hs.a.params.Current().Raw(); got != "newton" {
		t.Errorf("solver after → is %q, want newton", got)
	}
	// A bad number is refused inline with the reason.
	hs.focusParam("C")
	for range 5 {
		hs.press("backspace")
	}
	hs.typeText("abc")
	mustContain(t, hs.View(), "✗", `"abc" is not a number`)
	hs.press("enter")
	if hs.a.cur != screenParams || len(hs.a.history) != 0 {
		t.Fatal("trained with an invalid C")
	}
	mustContain(t, hs.View(), `parameter C: "abc" is not a number (float in [1e-6, 1e6])`)
	for range 3 {
		hs.press("backspace")
	}
	hs.typeText("1e9")
	mustContain(t, hs.View(), `"1e9" is out of range`)
	for range 3 {
		hs.press("backspace")
	}
	hs.typeText("2")
	// k-fold CV shows the folds field.
	hs.focusParam("evaluation")
	hs.press("right")
	mustContain(t, hs.View(), "folds")
	o, err := hs.a.params.Options()
	if err != nil || o.Folds != 5 || o.LOO {
		t.Fatalf("options %+v, %v; want 5 folds", o, err)
	}
	hs.press("ctrl+r") // back to the defaults
	if got := hs.a.params.Fields[0].Raw(); got != "auto" {
		t.Errorf("after ctrl+r solver is %q", got)
	}
}

func TestParamsBoolToggles(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "diabetes", Model: "linear"}, 120, 40)
	hs.focusParam("intercept")
	before := hs.a.params.Current().Raw()
	hs.press("space")
	if after := hs.a.params.Current().Raw(); after == before {
		t.Errorf("space left intercept at %s", after)
	}
}

func TestStartupErrors(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "nope"}, 120, 40)
	if hs.a.cur != screenModel {
		t.Fatalf("unknown model: screen %v", hs.a.cur)
	}
	mustContain(t, hs.View(), `unknown model "nope"`)

	hs = newHarness(t, Options{Data: "no-such-file.csv"}, 120, 40)
	mustContain(t, hs.View(), "could not load the data", "no-such-file.csv")
}

func TestStartupTrainShowsResults(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v, want results", hs.a.cur)
	}
	mustContain(t, hs.View(), "Summary", "Confusion", "Coefficients", "Map", "accuracy", "baseline")
	hs.press("tab")
	mustContain(t, hs.View(), "predicted", "setosa", "precision", "recall")
}

func TestResultViewsByCapability(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		data, model string
		want, not   []string
	}{
		{"iris", "logistic", []string{"Confusion", "ROC", "Coefficients", "Map"}, []string{"Predicted vs actual"}},
		{"iris", "gnb", []string{"Confusion", "Map"}, []string{"Coefficients", "Residuals"}},
		{"diabetes", "linear", []string{"Predicted vs actual", "Residuals", "Coefficients"}, []string{"Confusion", "Map", "ROC"}},
	} {
		hs := newHarness(t, Options{Data: tc.data, Model: tc.model, Train: true}, 120, 40)
		names := strings.Join(hs.a.results.Tabs.Names(), "|")
		for _, w := range tc.want {
			if !strings.Contains(names, w) {
				t.Errorf("%s/%s: tabs %s lack %s", tc.data, tc.model, names, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(names, n) {
				t.Errorf("%s/%s: tabs %s have %s", tc.data, tc.model, names, n)
			}
		}
	}
}

func TestMapTab(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	hs.resultTab("Map")
	mustContain(t, hs.View(), "first two principal directions (96% of variance)", "refit on this 2-D projection", "PC1")

	hs = newHarness(t, Options{Data: "moons", Model: "logistic", Train: true}, 120, 40)
	hs.resultTab("Map")
	mustContain(t, hs.View(), "x1 vs x0", "misclassified")
}

// TestMapFollowsResize: after a resize the map is refit for the new size
// (off the UI goroutine, once the size settles); a map computed for the
// old size is dropped, and the new grid is exactly the plot area.
func TestMapFollowsResize(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	rs := mapViewOf(t, hs.a.results)
	if rs.State != "ready" || rs.Key != rs.SizeKey() {
		t.Fatalf("map %q for %q, want ready for %q", rs.State, rs.Key, rs.SizeKey())
	}
	old := rs.Key
	_, cmd := hs.a.Update(tea.WindowSizeMsg{Width: 90, Height: 30})
	if cmd == nil {
		t.Fatal("a resize asked for no new map")
	}
	rz, ok := cmd().(views.RegionsResizeMsg)
	if !ok || rz.Key == old {
		t.Fatalf("resize gave %#v", rz)
	}
	toTab(t, "Map", func() widgets.Tabs { return hs.a.results.Tabs }, func() { hs.a.Update(keyMsg("tab")) })
	_, cmd = hs.a.Update(rz)
	if cmd == nil {
		t.Fatal("the settled size started no computation")
	}
	mustContain(t, hs.View(), "redrawing for the new size")
	m, ok := cmd().(views.RegionsMsg)
	if !ok || m.Err != nil || m.Key != rz.Key {
		t.Fatalf("map computation gave %#v", m)
	}
	// A map of the old size arriving late is dropped.
	hs.a.Update(views.RegionsMsg{Run: m.Run, Key: old, M: m.M})
	if rs.Key != old || rs.Want != rz.Key {
		t.Fatalf("a stale map was taken: shown %q, waiting for %q", rs.Key, rs.Want)
	}
	hs.a.Update(m)
	b := rs.Regions.Bounds()
	if rs.Key != rz.Key || len(m.M.Grid) != b.Rows || len(m.M.Grid[0]) != b.Cols {
		t.Fatalf("map %q grid %dx%d, plot area %dx%d", rs.Key, len(m.M.Grid[0]), len(m.M.Grid), b.Cols, b.Rows)
	}
	if v := hs.View(); strings.Contains(v, "redrawing") {
		t.Errorf("still redrawing:\n%s", v)
	}
	// The same size again asks for nothing.
	if _, cmd := hs.a.Update(tea.WindowSizeMsg{Width: 90, Height: 30}); cmd != nil {
		t.Error("a resize to the map's own size asked for a new map")
	}
}

func TestClusteringPath(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Target: "-", Model: "tuitest_split", Train: true}, 120, 40)
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v, want results:\n%s", hs.a.cur, hs.View())
	}
	mustContain(t, hs.View(), "silhouette 0.", "clusters 2 ", "all 150 rows, no split", "Map")
}

func TestTrainErrorState(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_crash", Train: true}, 120, 40)
	if hs.a.cur != screenTrain {
		t.Fatalf("screen %v, want the training screen with the error", hs.a.cur)
	}
	mustContain(t, hs.View(), "training failed", "tuitest_crash", "esc back to the parameters")
	hs.press("esc")
	if hs.a.cur != screenParams {
		t.Fatalf("esc from the error: screen %v", hs.a.cur)
	}
}

func TestStaleMessagesDropped(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic"}, 120, 40)
	hs.a.nextRun = 5
	hs.press("enter") // run 5 trains and finishes
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v", hs.a.cur)
	}
	before := trainSteps(hs)
	stale := []eval.Progress{{Fold: 1, Folds: 1, Point: eval.Point{Step: 99, TrainLoss: 1}}}
	hs.send(kit.ProgressMsg{Run: 4, Steps: stale})
	hs.send(kit.ProgressMsg{Run: 5, Steps: stale}) // run 5 is over: no job listens
	hs.send(trainDoneMsg{run: 4, err: errors.New("old")})
	if trainSteps(hs) != before || hs.a.cur != screenResults {
		t.Fatalf("a stale message changed the state: %d steps (had %d), screen %v", trainSteps(hs), before, hs.a.cur)
	}
}

// TestAbandonedRunMessagesDropped is the real case: run A is abandoned
// (another run starts while it trains), run B starts, and A's own last messages (read from its job)
// arrive while B trains. They must not touch B's curve, screen or record.
func TestAbandonedRunMessagesDropped(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) >= 3 }) {
		t.Fatal("run A made no progress")
	}
	jobA := hs.a.job
	pendingA := hs.queue // A's next progress message, already read from its job
	hs.queue = nil
	hs.a.abandon() // as starting another run does
	hs.a.goTo(screenParams)
	if hs.a.job != nil {
		t.Fatalf("abandon: job %v", hs.a.job)
	}
	recA := *hs.a.history[0]
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return hs.a.job != nil && trainSteps(hs) >= 3 }) {
		t.Fatal("run B made no progress")
	}
	jobB := hs.a.job
	t.Cleanup(func() { jobB.Stop(5 * time.Second) })
	if jobB.id == jobA.id {
		t.Fatal("B has A's id")
	}
	steps, last := trainSteps(hs), hs.a.train.Last
	// Everything A still had to say, progress and done, straight from its job.
	got := append([]tea.Msg(nil), pendingA...)
	for {
		m := waitFor(jobA)()
		got = append(got, m)
		if _, done := m.(trainDoneMsg); done {
			break
		}
	}
	// And a progress message of A made up to look like B's next step.
	got = append(got, kit.ProgressMsg{Run: jobA.id, Steps: []eval.Progress{{Fold: 1, Folds: 1, Total: 1000000,
		Point: eval.Point{Step: last.Point.Step + 1, TrainLoss: 42}}}})
	for _, m := range got {
		if _, cmd := hs.a.Update(m); cmd != nil {
			t.Errorf("a message of the abandoned run %T re-armed a command", m)
		}
	}
	if trainSteps(hs) != steps || hs.a.train.Last.Point.Step != last.Point.Step || hs.a.train.Last.Point.TrainLoss != last.Point.TrainLoss {
		t.Errorf("A's messages changed B's curve: %d steps (had %d), last %+v (was %+v)",
			trainSteps(hs), steps, hs.a.train.Last.Point, last.Point)
	}
	if hs.a.cur != screenTrain || hs.a.job != jobB || hs.a.train.Run.ID != jobB.id || hs.a.train.Finished {
		t.Errorf("A's messages moved the UI: screen %v, job %v, training screen shows run %d (finished %v)",
			hs.a.cur, hs.a.job, hs.a.train.Run.ID, hs.a.train.Finished)
	}
	if a := hs.a.history[0]; a.Result != recA.Result || a.Err != recA.Err || a.StatusText() != "abandoned" {
		t.Errorf("A's done message rewrote its record: status %q", a.StatusText())
	}
	if b := hs.a.history[1]; b.Done() {
		t.Error("A's done message finished run B")
	}
}

func TestCancelKeepsPartialHistory(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "100000", "sleep_us": "200"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) >= 5 }) {
		t.Fatal("no progress")
	}
	mustContain(t, hs.View(), "training loss", "validation", "/100000 epochs", "ETA", "baseline error 0.667")
	hs.queue = append(hs.queue, keyMsg("c"))
	if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
		t.Fatalf("cancel did not lead to the results:\n%s", hs.View())
	}
	r := hs.a.history[0]
	if !r.Cancelled() || r.Result == nil || len(r.Result.History) == 0 {
		t.Fatalf("run after cancel: err %v, result %+v", r.Err, r.Result)
	}
	mustContain(t, hs.View(), "cancelled after", "partial history", "[History]")
}

// TestCancelUnderCV: a run cancelled in a later fold keeps the scores of
// the folds that finished and says so; cancelled in the first, it has none.
func TestCancelUnderCV(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fold int
		want []string
	}{
		{2, []string{"cancelled in fold 2 of 5 · scores of the 1 fold that finished", "training loss · fold 1"}},
		{1, []string{"cancelled in fold 1 of 5: partial history, no fold finished, no scores"}},
	} {
		hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow", Eval: cv(5),
			Params: paramsOf("tuitest_slow", map[string]string{"steps": "300", "sleep_us": "1000"})}, 120, 40)
		hs.queue = append(hs.queue, keyMsg("enter"))
		if !hs.runUntil(func() bool { return hs.a.train.Fold == tc.fold && trainSteps(hs) >= 5 }) {
			t.Fatalf("fold %d never ran", tc.fold)
		}
		hs.queue = append(hs.queue, keyMsg("c"))
		if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
			t.Fatalf("cancel did not lead to the results:\n%s", hs.View())
		}
		mustContain(t, hs.View(), tc.want...)
	}
}

// esc during training asked nothing and abandoned the
// run. It asks; n keeps training; y stops and shows what finished.
func TestEscAsksBeforeLeavingTraining(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "100000", "sleep_us": "200"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	hs.runUntil(func() bool { return trainSteps(hs) > 0 })
	job := hs.a.job
	hs.a.Update(keyMsg("esc"))
	if hs.a.cur != screenTrain || hs.a.job == nil {
		t.Fatalf("esc left the training screen without asking: screen %v", hs.a.cur)
	}
	mustContain(t, view(hs.a), "Stop training?", "y stop and show what finished", "n keep training")
	hs.a.Update(keyMsg("n"))
	if strings.Contains(view(hs.a), "Stop training?") || hs.a.job == nil {
		t.Fatal("n should keep training and close the question")
	}
	hs.a.Update(keyMsg("q"))
	mustContain(t, view(hs.a), "Quit while training?")
	hs.a.Update(keyMsg("esc"))
	hs.a.Update(keyMsg("esc"))
	hs.queue = append(hs.queue, keyMsg("y"))
	if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
		t.Fatalf("y did not stop the run and show its results: screen %v", hs.a.cur)
	}
	<-job.finished
	if st := hs.a.history[0].StatusText(); st != "cancelled" {
		t.Errorf("stopped run status %q, want cancelled", st)
	}
	mustContain(t, hs.View(), "cancelled after")
}

func TestQuitStopsTraining(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "100000", "sleep_us": "200"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	hs.runUntil(func() bool { return trainSteps(hs) > 0 })
	job := hs.a.job
	if _, cmd := hs.a.Update(keyMsg("q")); cmd != nil || hs.a.job == nil {
		t.Fatal("q quit a running fit without asking")
	}
	_, cmd := hs.a.Update(keyMsg("y"))
	_, cmd = hs.a.Update(cmd())
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q then y did not quit")
	}
	select {
	case <-job.finished:
	default:
		t.Fatal("quit returned before the run stopped")
	}
	if !errors.Is(context.Cause(hs.a.ctx), context.Canceled) {
		t.Error("quit did not cancel the app context")
	}
}

func TestSizes(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	hs.a.runs.SetRuns(hs.a.history)
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}, {97, 31}} {
		hs.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for s := range numScreens {
			hs.a.cur = s
			checkFrame(t, hs.View(), sz[0], sz[1])
		}
		hs.a.cur = screenResults
		for range len(hs.a.results.Tabs.Names()) {
			hs.press("tab")
			checkFrame(t, hs.View(), sz[0], sz[1])
		}
	}
	hs.send(tea.WindowSizeMsg{Width: 60, Height: 15})
	v := hs.View()
	mustContain(t, v, "enlarge the terminal (need 80x24, have 60x15)")
	checkFrame(t, v, 60, 15)
}

func TestGlobalKeys(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 100, 30)
	hs.press("t")
	if hs.a.c.ThemeName() != "light" {
		t.Errorf("t: theme %q, want light", hs.a.c.ThemeName())
	}
	hs.press("?")
	mustContain(t, hs.View(), "browse files", "/     filter", "theme", "quit")
	hs.press("esc")
	if hs.a.full {
		t.Error("esc did not close the full help")
	}
	// Letters typed in a text field are text, not commands.
	hs.press("p")
	hs.typeText("tq?")
	if hs.a.c.ThemeName() != "light" || hs.a.full || !strings.Contains(hs.a.data.Path.Value(), "tq?") {
		t.Errorf("typing reached the global keys: theme %s, help %v, path %q", hs.a.c.ThemeName(), hs.a.full, hs.a.data.Path.Value())
	}
	hs.press("esc")
	if hs.a.data.Typing() {
		t.Error("esc did not leave the path field")
	}
}

func TestRunsSortPickCompare(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	hs.press("esc", "esc")
	hs.pickModel("gnb")
	hs.press("enter")
	if len(hs.a.history) != 2 {
		t.Fatalf("%d runs", len(hs.a.history))
	}
	hs.press("R")
	mustContain(t, hs.View(), "Runs (2)", "sort: # ▾", "logistic", "gnb", "acc 0.9")
	hs.press("s", "s", "s")
	mustContain(t, hs.View(), "sort: score ▾")
	hs.press("home", "space", "down", "space", "enter")
	mustContain(t, hs.View(), "vs run #", "parameters", "accuracy", "identical splits")
	hs.press("esc")
	mustContain(t, hs.View(), "Runs (2)")
	hs.press("enter") // open the highlighted run
	if hs.a.cur != screenResults {
		t.Fatalf("enter on a run: screen %v", hs.a.cur)
	}
	hs.press("esc")
	if hs.a.cur != screenRuns {
		t.Fatalf("esc from a run opened from the table: screen %v", hs.a.cur)
	}
}

func TestRetrainFromResults(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Params: paramsOf("logistic", map[string]string{"C": "0.5"}), Train: true}, 120, 40)
	hs.press("e")
	if hs.a.cur != screenParams {
		t.Fatalf("e: screen %v", hs.a.cur)
	}
	hs.focusParam("C")
	if got := hs.a.params.Current().Raw(); got != "0.5" {
		t.Errorf("C in the form is %q, want the run's 0.5", got)
	}
	hs.press("enter")
	if len(hs.a.history) != 2 || hs.a.cur != screenResults {
		t.Fatalf("retrain: %d runs, screen %v", len(hs.a.history), hs.a.cur)
	}
}

// mapViewOf finds the results screen's map view.
func mapViewOf(t *testing.T, rs *results.Screen) *views.MapView {
	t.Helper()
	for _, v := range rs.Views {
		if m, ok := v.(*views.MapView); ok {
			return m
		}
	}
	t.Fatal("no map view")
	return nil
}

// A cancelled leave-one-out run said "no fold finished, no
// scores" above a body pooled over the folds that had. The header takes its
// count from the result, as the body does.
func TestCancelLOOHeaderAgreesWithBody(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow", Eval: loo(),
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "5", "sleep_us": "1000"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return hs.a.train.Fold >= 4 }) {
		t.Fatal("fold 4 never ran")
	}
	hs.queue = append(hs.queue, keyMsg("c"))
	if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
		t.Fatalf("cancel did not lead to the results:\n%s", hs.View())
	}
	r := hs.a.history[0]
	done, of := r.FoldsScored()
	if done == 0 || of != 150 {
		t.Fatalf("result scored %d of %d folds, want some of 150", done, of)
	}
	mustContain(t, hs.View(), fmt.Sprintf("cancelled in fold %d of 150 · scores of the %d folds that finished", done+1, done))
	mustContain(t, r.Figures(), fmt.Sprintf("pooled over %d one-row folds", done))
}

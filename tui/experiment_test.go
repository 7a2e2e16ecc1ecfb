package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/experiment"
	"github.com/tealab/tealab/tui/screens/experimenter"
)

// markModels marks the named models on the Experimenter's list with space.
func markModels(t testing.TB, hs *harness, names ...string) {
	t.Helper()
	for _, name := range names {
		if !hs.a.exp.Point(name) {
			t.Fatalf("%s is not on the Experimenter's list", name)
		}
		hs.press("space")
	}
}

// experimentOnIris opens the Experimenter from the model list, marks LDA
// and a tree, sets 1 × 3-fold CV (f: 10 → 3; r: 10 → 1) and runs it to
// the end.
func experimentOnIris(t testing.TB) *harness {
	hs := newHarness(t, Options{Data: "iris"}, 120, 40)
	hs.press("enter", "X")
	if hs.a.cur != screenExperiment {
		t.Fatalf("X on the model list: on the %s screen", screenNames[hs.a.cur])
	}
	markModels(t, hs, "lda", "tree")
	hs.press("f", "r", "enter")
	return hs
}

func TestExperimenterRunsTwoModels(t *testing.T) {
	t.Parallel()
	hs := experimentOnIris(t)
	defer closeHarness(hs)
	o := hs.a.exp.Outcome
	if o == nil {
		t.Fatalf("no results:\n%s", hs.View())
	}
	if o.Plan.Folds != 3 || o.Plan.Repeats != 1 || len(o.Plan.Models) != 2 || o.Plan.Models[0].Label != "lda" {
		t.Fatalf("plan %d × %d folds, models %v", o.Plan.Repeats, o.Plan.Folds, o.Plan.Models)
	}
	v := hs.View()
	for _, want := range []string{"2 models on iris, 1 × 3-fold CV", "than lda", "accuracy", "macro F1", "(v/ /*)",
		"lda ", "tree ", "(0/", "validation error"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if !strings.Contains(v, " ± ") {
		t.Errorf("no mean ± std:\n%s", v)
	}
	hs.press("e")
	for _, name := range []string{"experiment-iris.md", "experiment-iris.csv"} {
		if b, err := os.ReadFile(filepath.Join(hs.a.c.ExportDir, name)); err != nil || len(b) == 0 {
			t.Errorf("export %s: %v", name, err)
		}
	}
	if !strings.Contains(hs.View(), "wrote experiment-iris.md and experiment-iris.csv") {
		t.Errorf("export not said:\n%s", hs.View())
	}
	hs.press("esc")
	if hs.a.cur != screenExperiment || hs.a.exp.Outcome != nil || !strings.Contains(hs.View(), "[b] lda") {
		t.Errorf("esc from the results: want the list with lda the baseline:\n%s", hs.View())
	}
	hs.press("esc")
	if hs.a.cur != screenModel {
		t.Errorf("esc from the list: on the %s screen", screenNames[hs.a.cur])
	}
}

func TestExperimenterNeedsTwoModels(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris"}, 120, 40)
	defer closeHarness(hs)
	hs.press("enter", "X")
	markModels(t, hs, "lda")
	hs.press("enter")
	if hs.a.exp.Running() || hs.a.exp.Outcome != nil || !strings.Contains(hs.View(), "mark two models or more") {
		t.Errorf("one model ran:\n%s", hs.View())
	}
}

type bracket struct{ l, r string }

func (b bracket) Render(s ...string) string { return b.l + strings.Join(s, "") + b.r }

// Two cells that read the same are each painted once, in their own colour.
func TestColourMarksSameCells(t *testing.T) {
	t.Parallel()
	row := []string{"knn", "0.940 ± 0.057 v", "0.940 ± 0.057 v", "0.995 ± 0.012 *"}
	line := "knn  0.940 ± 0.057 v  0.940 ± 0.057 v  0.995 ± 0.012 *"
	got := experimenter.ColourMarks(line, row, []experiment.Mark{experiment.Better, experiment.Better, experiment.Worse}, bracket{"<", ">"}, bracket{"[", "]"})
	want := "knn  <0.940 ± 0.057 v>  <0.940 ± 0.057 v>  [0.995 ± 0.012 *]"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// The Experimenter defaulted to 2 × 5-fold CV where tealab compare runs
// 10 × 10; its footer lost r at 80 cells; it listed cnn for data that are
// no image; its legend was cut at 120 cells and its export's confirmation
// fell off an 80x24 screen under a tall table; its curves overlaid
// different units on one "step" axis.
func TestExperimenterAt80x24(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris"}, 80, 24)
	defer closeHarness(hs)
	hs.press("enter", "X")
	e := hs.a.exp
	if e.Folds != experiment.DefaultFolds || e.Repeats != experiment.DefaultRepeats {
		t.Errorf("the lab's default is %d × %d-fold, the command line's %d × %d", e.Repeats, e.Folds, experiment.DefaultRepeats, experiment.DefaultFolds)
	}
	v := hs.View()
	mustContain(t, v, "r repeats", "f folds", "10 × 10-fold CV")
	for _, sp := range e.Specs {
		if sp.Name == "cnn" {
			t.Error("cnn is listed for iris, whose 4 columns are no image")
		}
	}
	if why := hs.a.model.TooBig["cnn"]; !strings.Contains(why, "no square image") {
		t.Errorf("the model list does not mark cnn on iris: %q", why)
	}
	markModels(t, hs, "lda", "gnb", "centroid", "knn", "tree", "logistic", "qda", "perceptron", "cnb", "forest")
	hs.press("f", "r", "enter")
	hs.runUntil(func() bool { return e.Outcome != nil })
	hs.press("e")
	v = hs.View()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "wrote experiment-iris.md")
	// Each model's curve over its own training, the unit named.
	mustContain(t, v, "x: % of each model's steps")
	if got := experimenter.OverTraining(e.Outcome.Cell(0, 5, 0).History); len(got) != experimenter.CurvePoints {
		t.Errorf("logistic's curve has %d points, want %d", len(got), experimenter.CurvePoints)
	}
	if got := experimenter.OverTraining(e.Outcome.Cell(0, 3, 0).History); len(got) != experimenter.CurvePoints || got[0] != got[experimenter.CurvePoints-1] {
		t.Errorf("k-NN's one step spread over its training: %v", got)
	}
	hs.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	v = hs.View()
	mustContain(t, strings.Join(strings.Fields(v), " "), "(corrected resampled t-test, α = 0.05)", "lda (1 fit)")
	checkFrame(t, v, 120, 40)
}

// On images (digits' 8x8 pixels) the Experimenter lists cnn.
func TestExperimenterListsCNNForImages(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "digits"}, 120, 40)
	defer closeHarness(hs)
	hs.press("enter", "X")
	listed := false
	for _, sp := range hs.a.exp.Specs {
		listed = listed || sp.Name == "cnn"
	}
	if !listed || hs.a.model.TooBig["cnn"] != "" {
		t.Errorf("cnn on digits: listed %v, marked %q", listed, hs.a.model.TooBig["cnn"])
	}
}

// classFirstCSV writes a copy of the built-in wine with its class first
// and an id column: a file tealab reads only once its target is named and
// its id dropped.
func classFirstCSV(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("class,id,alcohol,flavanoids\n")
	for i := range 60 {
		class := []string{"a", "b", "c"}[i%3]
		fmt.Fprintf(&b, "%s,%d,%g,%g\n", class, 1000+i, 11+float64(i%3)+0.01*float64(i*7%13), 0.5+float64(i%3)*1.2+0.02*float64(i*5%11))
	}
	path := filepath.Join(t.TempDir(), "first.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The Experimenter runs on several datasets: the session's, a built-in
// and a file whose class is its first column (named as compare's --data
// names it), and ranks the models over them; a dataset it cannot use is
// refused in one line, and x takes an added one out.
func TestExperimenterSeveralDatasets(t *testing.T) {
	t.Parallel()
	file := classFirstCSV(t)
	hs := newHarness(t, Options{Data: "iris"}, 120, 40)
	defer closeHarness(hs)
	hs.press("enter", "X")
	e := hs.a.exp
	add := func(spec string) {
		t.Helper()
		hs.press("a")
		if !e.Typing() {
			t.Fatal("a did not open the field")
		}
		hs.typeText(spec)
		hs.press("enter")
		hs.settle()
	}
	add(file) // its target would be the last column, numeric: regression
	mustContain(t, hs.View(), "added first: 60 × 3 · regression · target flavanoids")
	if len(e.Specs) == 0 || slices.ContainsFunc(e.Specs, func(sp *engine.Spec) bool { return sp.Name == "lda" }) {
		t.Fatalf("with a regression added, the list holds classifiers or nothing: %d models", len(e.Specs))
	}
	hs.press("down", "x") // the added dataset is row 1
	mustContain(t, hs.View(), "removed first")
	add(file + ":target=class,drop=id")
	add("wine")
	add("iris") // the session's already
	v := hs.View()
	mustContain(t, v, "a dataset named iris is in the experiment already", "data  first ", "60 × 2 · classification · target class", "data  wine ")
	add(file + ":target=nope")
	mustContain(t, hs.View(), "nope")
	add(file + ":colour=red")
	mustContain(t, hs.View(), `"colour=red" is not a setting of the data`)
	hs.press("esc")
	hs.press("down", "down", "down", "x")
	mustContain(t, hs.View(), "x removes a dataset added here: move up to its row first")
	hs.press("up", "up", "up", "up", "up", "x")
	mustContain(t, hs.View(), "the session's data stay in the experiment")
	hs.press("a", "esc")
	if e.Typing() || hs.a.cur != screenExperiment {
		t.Fatal("esc did not close the field alone")
	}

	markModels(t, hs, "lda", "knn", "tree")
	hs.press("f", "r", "enter")
	hs.runUntil(func() bool { return e.Outcome != nil })
	o := e.Outcome
	if len(o.Plan.Datasets) != 3 || o.Plan.Datasets[1].Name != "first" || o.Plan.Datasets[1].Target.Name != "class" {
		t.Fatalf("datasets %v", o.Plan.Datasets)
	}
	for _, c := range o.Cells {
		if c.Err != nil {
			t.Fatalf("cell %+v: %v", c, c.Err)
		}
	}
	v = hs.View()
	checkFrame(t, v, 120, 40)
	mustContain(t, v, "Experimenter: iris and 2 more", "3 models on iris, first, wine", "Ranking by accuracy over 3 datasets")
	hs.press("e")
	mustContain(t, hs.View(), "wrote experiment-iris-and-2-more.md")
}

// A confined lab's Experimenter reads data in its data directory, by the
// names the lab shows, and nothing outside it.
func TestExperimenterConfined(t *testing.T) {
	t.Parallel()
	c, base := confined(t)
	b, err := os.ReadFile(classFirstCSV(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "data", "first.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, Options{Data: "iris", Files: c.Files}, 120, 40)
	defer closeHarness(hs)
	hs.press("enter", "X")
	for _, spec := range []string{"first.csv:target=class,drop=id", "../home/x.csv:target=class"} {
		hs.press("a")
		hs.typeText(spec)
		hs.press("enter")
		hs.settle()
	}
	v := hs.View()
	mustContain(t, v, "data  first ", "outside the data directory")
	if strings.Contains(v, base) {
		t.Errorf("the view names the server's directories:\n%s", v)
	}
	if d := hs.a.exp.Datasets(); len(d) != 2 || d[1].Source != "first.csv" {
		t.Errorf("datasets %v", d)
	}
}

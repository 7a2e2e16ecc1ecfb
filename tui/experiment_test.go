package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/experiment"
	"github.com/tealab/tealab/tui/screens/experimenter"
)

// markModels marks the named models on the Experimenter's list with space.
func markModels(t testing.TB, hs *harness, names ...string) {
	t.Helper()
	for _, name := range names {
		i := 0
		for i < len(hs.a.exp.Specs) && hs.a.exp.Specs[i].Name != name {
			i++
		}
		if i == len(hs.a.exp.Specs) {
			t.Fatalf("%s is not on the Experimenter's list", name)
		}
		hs.a.exp.Cursor = i
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

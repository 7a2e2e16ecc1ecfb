package tui

import (
	"os"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/experiment"
)

// markModels marks the named models on the Experimenter's list with space.
func markModels(t testing.TB, hs *harness, names ...string) {
	t.Helper()
	for _, name := range names {
		i := 0
		for i < len(hs.a.exp.specs) && hs.a.exp.specs[i].Name != name {
			i++
		}
		if i == len(hs.a.exp.specs) {
			t.Fatalf("%s is not on the Experimenter's list", name)
		}
		hs.a.exp.cursor = i
		hs.press("space")
	}
}

// experimentOnIris opens the Experimenter from the model list, marks LDA
// and a tree, sets 3 × 3-fold CV... (f: 5 → 10 → 3; r: 2 → 5 → 10 → 1) and
// runs it to the end.
func experimentOnIris(t testing.TB) *harness {
	hs := newHarness(t, Options{Data: "iris"}, 120, 40)
	hs.press("enter", "X")
	if hs.a.cur != screenExperiment {
		t.Fatalf("X on the model list: on the %s screen", screenNames[hs.a.cur])
	}
	markModels(t, hs, "lda", "tree")
	hs.press("f", "f", "r", "r", "r", "enter")
	return hs
}

func TestExperimenterRunsTwoModels(t *testing.T) {
	t.Chdir(t.TempDir())
	hs := experimentOnIris(t)
	defer closeHarness(hs)
	o := hs.a.exp.outcome
	if o == nil {
		t.Fatalf("no results:\n%s", hs.view())
	}
	if o.Plan.Folds != 3 || o.Plan.Repeats != 1 || len(o.Plan.Models) != 2 || o.Plan.Models[0].Label != "lda" {
		t.Fatalf("plan %d × %d folds, models %v", o.Plan.Repeats, o.Plan.Folds, o.Plan.Models)
	}
	v := hs.view()
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
		if b, err := os.ReadFile(name); err != nil || len(b) == 0 {
			t.Errorf("export %s: %v", name, err)
		}
	}
	if !strings.Contains(hs.view(), "wrote experiment-iris.md and experiment-iris.csv") {
		t.Errorf("export not said:\n%s", hs.view())
	}
	hs.press("esc")
	if hs.a.cur != screenExperiment || hs.a.exp.outcome != nil || !strings.Contains(hs.view(), "[b] lda") {
		t.Errorf("esc from the results: want the list with lda the baseline:\n%s", hs.view())
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
	if hs.a.exp.running() || hs.a.exp.outcome != nil || !strings.Contains(hs.view(), "mark two models or more") {
		t.Errorf("one model ran:\n%s", hs.view())
	}
}

type bracket struct{ l, r string }

func (b bracket) Render(s ...string) string { return b.l + strings.Join(s, "") + b.r }

// Two cells that read the same are each painted once, in their own colour.
func TestColourMarksSameCells(t *testing.T) {
	row := []string{"knn", "0.940 ± 0.057 v", "0.940 ± 0.057 v", "0.995 ± 0.012 *"}
	line := "knn  0.940 ± 0.057 v  0.940 ± 0.057 v  0.995 ± 0.012 *"
	got := colourMarks(line, row, []experiment.Mark{experiment.Better, experiment.Better, experiment.Worse}, bracket{"<", ">"}, bracket{"[", "]"})
	want := "knn  <0.940 ± 0.057 v>  <0.940 ± 0.057 v>  [0.995 ± 0.012 *]"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

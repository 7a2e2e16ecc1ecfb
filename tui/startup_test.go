package tui

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
)

// --model without --data is applied once the
// data are chosen.
func TestStartupModelWithoutData(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Model: "lda"}, 120, 30)
	if hs.a.cur != screenData {
		t.Fatalf("screen %v, want data", hs.a.cur)
	}
	hs.pickData("iris")
	hs.press("enter")
	if hs.a.cur != screenParams || hs.a.spec == nil || hs.a.spec.Name != "lda" {
		t.Fatalf("after choosing the data: screen %v, spec %v; want lda's parameters", hs.a.cur, hs.a.spec)
	}
}

func TestStartupTaskAndLOO(t *testing.T) {
	t.Parallel()
	// y is whole numbers with few values: inferred classification.
	p := writeFile(t, "small.csv", "a,y\n1,1\n2,2\n3,1\n4,2\n5,3\n6,3\n")
	hs := newHarness(t, Options{Data: p, Model: "tuitest_slow"}, 120, 40)
	if hs.a.ds.Task != datasets.Classification {
		t.Fatalf("inferred %v", hs.a.ds.Task)
	}
	hs = newHarness(t, Options{Data: p, Task: "regression", Model: "tuitest_slow", Eval: loo()}, 120, 40)
	if hs.a.ds == nil || hs.a.ds.Task != datasets.Regression {
		t.Fatalf("Task regression: dataset %+v (%v)", hs.a.ds, hs.a.data.DsErr)
	}
	hs.focusParam("evaluation")
	if got := hs.a.params.Current().Raw(); got != eval.SchemeLOO {
		t.Errorf("LOO: evaluation %q", got)
	}
	if o, err := hs.a.params.Options(); err != nil || !o.LOO {
		t.Errorf("LOO: options %+v, %v", o, err)
	}
	// Choosing a target in the preview infers again.
	hs.a.data.SetTarget("y", datasets.Auto)
	if hs.a.data.Ds.Task != datasets.Classification {
		t.Errorf("a target chosen in the preview kept the forced task")
	}
	if _, err := newApp(Options{Data: p, Task: "sorting"}); err == nil ||
		!strings.Contains(err.Error(), "sorting") {
		t.Errorf("unknown task: err %v", err)
	}
}

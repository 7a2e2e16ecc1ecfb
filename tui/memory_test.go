package tui

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
)

// A model whose fit of the data the machine's memory cannot hold (with its
// defaults) is greyed in the list, and its panel says why, with the words
// training would refuse it with; the others are listed as ever.
func TestModelListSaysWhatMemoryCannotHold(t *testing.T) {
	t.Setenv(engine.MemoryEnv, "100MB")
	hs := newHarness(t, Options{Data: "moons:n=5000", Model: "logistic"}, 120, 40)
	hs.press("esc") // from the form back to the list
	if hs.a.cur != screenModel {
		t.Fatalf("on screen %v, want the model list", hs.a.cur)
	}
	want := "hclust on moons: a 5000 x 5000 matrix of pairwise distances needs 200 MB, more than the 100 MB $TEALAB_MEMORY allows"
	if got := hs.a.model.TooBig["hclust"]; !strings.HasPrefix(got, want) {
		t.Errorf("hclust: %q\nwant %q", got, want)
	}
	if why, ok := hs.a.model.TooBig["logistic"]; ok {
		t.Errorf("logistic refused: %s", why)
	}
	hs.a.model.Point("hclust")
	if v := hs.View(); !strings.Contains(strings.Join(strings.Fields(v), " "), "⚠ with its defaults, hclust on moons: a 5000 x 5000 matrix") {
		t.Errorf("the panel does not say why:\n%s", v)
	}
}

// A forest cancelled part-way keeps its trees: the lab scores that model on
// the held-out rows and says it stopped early, instead of "no final scores".
func TestCancelledForestIsScored(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "moons:n=2000", Model: "forest", Params: paramsOf("forest", map[string]string{"trees": "10000"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) >= 5 }) {
		t.Fatal("no progress")
	}
	hs.queue = append(hs.queue, keyMsg("c"))
	if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
		t.Fatalf("cancel did not lead to the results:\n%s", hs.View())
	}
	r := hs.a.history[0]
	if r.Result == nil || !strings.HasSuffix(r.Result.StoppedEarly, " of 10000 trees") || !(r.Result.Metrics["accuracy"] > 0.8) {
		t.Fatalf("cancelled forest: %+v", r.Result)
	}
	mustContain(t, hs.View(), "cancelled: stopped early after", "the model it had scored on the held-out rows", "Confusion")
}

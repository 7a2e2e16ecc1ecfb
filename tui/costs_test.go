package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// A cost matrix typed in the form is read as it is typed (a class it lacks
// refused beside the field), and the run is scored by it: the summary has
// the cost at the chosen threshold and at the model's own decision.
func TestCostsInTheForm(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "costs.csv")
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(good, []byte("actual,benign,malignant\nbenign,0,1\nmalignant,10,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("actual,benign,other\nbenign,0,1\nother,10,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, Options{Data: "breast_cancer", Model: "logistic"}, 120, 40)
	hs.focusParam("costs")
	hs.typeText(bad)
	mustContain(t, hs.View(), "other")
	hs.press("enter")
	if hs.a.cur != screenParams {
		t.Fatalf("a cost matrix of other classes trained (screen %v)", hs.a.cur)
	}
	for range len(bad) {
		hs.press("backspace")
	}
	hs.typeText(good)
	hs.press("enter")
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v after enter:\n%s", hs.a.cur, hs.View())
	}
	res := hs.a.history[0].Result
	if res.Costs == nil || res.Threshold == nil || *res.Threshold >= 0.5 || !(res.Metrics["cost"] < res.Metrics["cost_default"]) {
		t.Errorf("the run was not scored by the costs: threshold %v, metrics %v", res.Threshold, res.Metrics)
	}
	mustContain(t, hs.View(), "cost")
	// The precision-recall tab says the cost at its operating point, and
	// moving the threshold changes it.
	hs.resultTab("PR")
	at := hs.View()
	mustContain(t, at, "a row", "the run's")
	hs.press(">", ">", ">")
	if hs.View() == at {
		t.Errorf("a higher threshold changed nothing:\n%s", at)
	}
}

// A regression is offered no cost matrix.
func TestNoCostsForRegression(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "diabetes", Model: "ridge"}, 120, 40)
	for _, f := range hs.a.params.Visible() {
		if f.P.Name == "costs" {
			t.Fatalf("a regression's form offers costs")
		}
	}
}

// The lab on a terminal: a run scored by a cost matrix, its precision-recall
// tab, and the positive class's confusion and cost following the threshold
// as < moves it, typed as a keyboard types.
func TestFlowThresholdMovesTheMatrix(t *testing.T) {
	t.Parallel()
	o := eval.DefaultOptions()
	c, err := metrics.ReadCosts(strings.NewReader("actual,benign,malignant\nbenign,0,1\nmalignant,10,0\n"), []string{"malignant", "benign"})
	if err != nil {
		t.Fatal(err)
	}
	c.Source, o.Costs = "costs.csv", c
	tm := startFlow(t, Options{Data: "breast_cancer", Model: "logistic", Train: true, Eval: &o})
	waitScreen(t, tm, "Summary", "cost at default")
	tm.Type("\t\t\t")
	waitScreen(t, tm, "threshold (< >)", "the model's own decision", "malignant        41         1", "cost 0.096 a row")
	tm.Type("<<<")
	waitScreen(t, tm, "malignant at a score ≥ 0.175", "benign            4        68")
	if strings.Contains(tm.term.Text(), "cost 0.096 a row") {
		t.Errorf("the cost did not follow the threshold:\n%s", tm.term.Text())
	}
	sendKeys(tm, "q")
	finalApp(t, tm)
}

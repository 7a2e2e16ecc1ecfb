package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/data"
)

// mustNotShow fails when v shows any of bad.
func mustNotShow(t *testing.T, v string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(v, b) {
			t.Errorf("view shows %q:\n%s", b, v)
		}
	}
}

// The model list filters as bubbles' list does: / opens the
// field, typing narrows (any case), letters are text, enter keeps the
// filter, esc clears it; the count says how many of all are shown.
func TestModelListFilter(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris"}, 80, 24)
	hs.press("enter")
	all := len(hs.a.model.All)
	mustContain(t, hs.View(), "/ filter")
	hs.press("/")
	hs.typeText("KMEANSq")
	if hs.a.ctx.Err() != nil {
		t.Fatal("q typed in the filter quit the lab")
	}
	hs.press("backspace")
	v := hs.View()
	mustContain(t, v, "kmeans", fmt.Sprintf("1 of %d", all), "enter keep filter")
	mustNotShow(t, v, " lda ")
	hs.press("enter")
	if hs.a.model.Typing() {
		t.Error("enter did not give the keys back to the list")
	}
	mustContain(t, hs.View(), "/KMEANS", fmt.Sprintf("1 of %d", all), "esc clear filter")
	hs.press("esc")
	if hs.a.cur != screenModel {
		t.Fatal("esc left the screen instead of clearing the filter")
	}
	mustContain(t, hs.View(), "▸ kmeans") // the cursor stays on the model it was on
	if len(hs.a.model.Specs) != all {
		t.Errorf("%d models listed after esc, want all %d", len(hs.a.model.Specs), all)
	}
}

// Keys typed faster than the terminal is read ("/kmeans" in one read, as
// over SSH) each act as the key they are: / opens the filter, the rest are
// typed into it. A paste is text, not keys: pasted into the open filter it
// is typed, and its q does not quit.
func TestKeysTypedAtOnce(t *testing.T) {
	t.Parallel()
	tm := startFlow(t, Options{Data: "iris"})
	waitScreen(t, tm, "target species", "use this data") // the preview is open: enter goes on
	tm.Type("\r")
	waitScreen(t, tm, "Models for classification")
	tm.Type("/kmeans")
	waitScreen(t, tm, "/kmeans", "1 of ")
	tm.Type("\x1b[200~q/\x1b[201~")
	waitScreen(t, tm, "/kmeansq/")
	tm.Type("\x1b") // esc: the query cleared
	waitScreen(t, tm, "linear models", "q quit")
	tm.Type("q")
	a := finalApp(t, tm)
	if a.cur != screenModel {
		t.Errorf("the lab ended on the %s screen", screenNames[a.cur])
	}
}

// "Models for classification (N)" counts the models that learn
// classification, not the clustering and reduction models listed below
// them (it said 20 with 8 of them clustering or reducing).
func TestModelCountIsOfItsHeading(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris"}, 120, 40)
	hs.press("enter")
	own := 0
	for _, sp := range engine.Specs() {
		if sp.Supports(datasets.Classification) {
			own++
		}
	}
	if own == len(hs.a.model.All) {
		t.Fatal("every listed model classifies: the test needs clustering models registered")
	}
	v := hs.View()
	mustContain(t, v, fmt.Sprintf("Models for classification (%d)", own), fmt.Sprintf("+%d that cluster or reduce", len(hs.a.model.All)-own),
		fmt.Sprintf("%d models for classification", own))
}

// The data list and the preview's columns filter too; a key on a
// filtered column acts on that column.
func TestDataFilters(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 80, 24)
	hs.press("/")
	hs.typeText("moo")
	hs.press("enter")
	v := hs.View()
	mustContain(t, v, "moons", fmt.Sprintf("1 of %d", len(hs.a.data.Entries)))
	mustNotShow(t, v, "iris")
	if e := hs.a.data.SelectedEntry(); e == nil || e.Name != "moons" {
		t.Errorf("the cursor is on %v, want moons", e)
	}

	hs = newHarness(t, Options{Data: "iris"}, 80, 24)
	hs.previewTab(data.PreviewColumns)
	hs.press("/")
	hs.typeText("width")
	hs.press("enter", "down", "s")
	v = hs.View()
	mustContain(t, v, "2 of 5")
	mustNotShow(t, v, "sepal_length_cm")
	if hs.a.data.Target != "petal_width_cm" {
		t.Errorf("s on the second filtered column set target %q, want petal_width_cm", hs.a.data.Target)
	}
}

// The runs list filters, and shows the selected run (the newest, where
// the cursor starts) in full at 80x24: its data (a generator's knobs the
// table cuts), model, parameters, evaluation and seed.
func TestRunsFilterAndDetail(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "moons:n=123,noise=0.25", Model: "gnb", Train: true}, 80, 24)
	hs.press("esc", "enter", "R")
	if hs.a.cur != screenRuns || len(hs.a.runs.Runs) != 2 {
		t.Fatalf("on %s with %d runs, want the runs screen with 2", screenNames[hs.a.cur], len(hs.a.runs.Runs))
	}
	v := hs.View()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "#2 moons n=123 noise=0.25 · Gaussian naive Bayes (defaults) · stratified 80/20", "seed 1")
	hs.press("/")
	hs.typeText("#1")
	v = hs.View()
	mustContain(t, v, "1 of 2", "#1 moons n=123")
}

// An exact name, or else a whole word of a title, wins over a match of
// part of a name or a family: /tree then enter (keep the filter) and enter
// (choose) opens the decision tree, not AdaBoost (first of "trees and
// ensembles"); /logistic opens logistic, not klogistic; with no exact
// match the first match is chosen, as before.
func TestModelFilterExactNameWins(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ data, query, want string }{
		{"iris", "tree", "tree"}, {"iris", "logistic", "logistic"}, {"iris", "TREE", "tree"},
		{"iris", "perceptron", "perceptron"}, {"diabetes", "ridge", "ridge"}, {"iris", "boost", "adaboost"},
	} {
		hs := newHarness(t, Options{Data: c.data}, 80, 24)
		hs.press("enter", "/")
		hs.typeText(c.query)
		hs.press("enter", "enter")
		if hs.a.cur != screenParams || hs.a.spec == nil || hs.a.spec.Name != c.want {
			name := ""
			if hs.a.spec != nil {
				name = hs.a.spec.Name
			}
			t.Errorf("/%s, enter, enter: screen %v, model %q; want the form of %s", c.query, hs.a.cur, name, c.want)
		}
	}
}

// The filter's ranking: the name or the whole title, then a whole word of
// the title (the decision tree's "tree" over "trees and ensembles"), then
// the query within the name (adaboost's "boost" over the family "boosting").
func TestFilterExactness(t *testing.T) {
	t.Parallel()
	f := kit.NewListFilter()
	f.Field.SetValue("Tree")
	for _, c := range []struct {
		name, title string
		want        int
	}{
		{"tree", "decision tree", 3}, {"cart", "Decision tree", 2}, {"x", "tree", 3},
		{"adaboost", "AdaBoost", 0}, {"trees", "bagged trees", 1}, {"t", "tree-based (k-d)", 2},
	} {
		if got := f.Exactness(c.name, c.title); got != c.want {
			t.Errorf("/Tree on %q %q: exactness %d, want %d", c.name, c.title, got, c.want)
		}
	}
	f.Field.SetValue("")
	if got := f.Exactness("tree", "tree"); got != 0 {
		t.Errorf("no query: exactness %d, want 0", got)
	}
}

// The model cursor starts on a model made for the data: on all-numeric
// iris it started on categorical naive Bayes (naive Bayes on level counts,
// Gaussian naive Bayes under another name on numeric columns); now on the
// first model that does not ask for nominal codes, while on data with
// nominal columns it starts on the first that takes them as they are. A
// model chosen before is kept.
func TestModelCursorStartsOnAFit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		data    string
		nominal bool
	}{{"iris", false}, {"../datasets/testdata/weather.nominal.arff", true}, {"digits", false}} {
		hs := newHarness(t, Options{Data: c.data}, 120, 40)
		hs.press("enter")
		sp := hs.a.model.Selected()
		if hs.a.cur != screenModel || sp == nil {
			t.Fatalf("%s: screen %v, no model under the cursor", c.data, hs.a.cur)
		}
		if sp.Input.Nominal != c.nominal || !sp.Supports(hs.a.model.Task) {
			t.Errorf("%s: the cursor starts on %s (takes nominal codes: %v), want a model for %s that takes them: %v",
				c.data, sp.Name, sp.Input.Nominal, hs.a.model.Task, c.nominal)
		}
		if sp.Advise != nil && len(sp.Advise(hs.a.ds.Features)) > 0 {
			t.Errorf("%s: the cursor starts on %s, which warns about these data", c.data, sp.Name)
		}
	}
	hs := newHarness(t, Options{Data: "iris", Model: "cnb"}, 120, 40)
	hs.press("esc", "esc", "enter")
	if sp := hs.a.model.Selected(); hs.a.cur != screenModel || sp == nil || sp.Name != "cnb" {
		t.Errorf("the model chosen before is not under the cursor: %v", sp)
	}
}

package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
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
	hs := newHarness(t, Options{Data: "iris"}, 80, 24)
	hs.press("enter")
	all := len(hs.a.model.all)
	mustContain(t, hs.view(), "/ filter")
	hs.press("/")
	hs.typeText("KMEANSq")
	if hs.a.ctx.Err() != nil {
		t.Fatal("q typed in the filter quit the lab")
	}
	hs.press("backspace")
	v := hs.view()
	mustContain(t, v, "kmeans", fmt.Sprintf("1 of %d", all), "enter keep filter")
	mustNotShow(t, v, " lda ")
	hs.press("enter")
	if hs.a.model.Typing() {
		t.Error("enter did not give the keys back to the list")
	}
	mustContain(t, hs.view(), "/KMEANS", fmt.Sprintf("1 of %d", all), "esc clear filter")
	hs.press("esc")
	if hs.a.cur != screenModel {
		t.Fatal("esc left the screen instead of clearing the filter")
	}
	mustContain(t, hs.view(), "▸ kmeans") // the cursor stays on the model it was on
	if len(hs.a.model.specs) != all {
		t.Errorf("%d models listed after esc, want all %d", len(hs.a.model.specs), all)
	}
}

// Keys typed faster than the terminal is read arrive as one message
// ("/kmeans"); each still acts as the key it is: / opens the filter, the rest
// are typed into it.
func TestKeysTypedAtOnce(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris"}, 80, 24)
	hs.press("enter")
	hs.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/kmeans")})
	mustContain(t, hs.view(), "/kmeans", fmt.Sprintf("1 of %d", len(hs.a.model.all)))
	// A paste is text, not keys: pasted into the open filter it is typed.
	hs.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q/"), Paste: true})
	if hs.a.ctx.Err() != nil {
		t.Fatal("a pasted q quit the lab")
	}
	mustContain(t, hs.view(), "/kmeansq/")
}

// "Models for classification (N)" counts the models that learn
// classification, not the clustering and reduction models listed below
// them (it said 20 with 8 of them clustering or reducing).
func TestModelCountIsOfItsHeading(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris"}, 120, 40)
	hs.press("enter")
	own := 0
	for _, sp := range engine.Specs() {
		if sp.Supports(datasets.Classification) {
			own++
		}
	}
	if own == len(hs.a.model.all) {
		t.Fatal("every listed model classifies: the test needs clustering models registered")
	}
	v := hs.view()
	mustContain(t, v, fmt.Sprintf("Models for classification (%d)", own), fmt.Sprintf("+%d that cluster or reduce", len(hs.a.model.all)-own),
		fmt.Sprintf("%d models for classification", own))
}

// The data list and the preview's columns filter too; a key on a
// filtered column acts on that column.
func TestDataFilters(t *testing.T) {
	hs := newHarness(t, Options{}, 80, 24)
	hs.press("/")
	hs.typeText("moo")
	hs.press("enter")
	v := hs.view()
	mustContain(t, v, "moons", fmt.Sprintf("1 of %d", len(hs.a.data.entries)))
	mustNotShow(t, v, "iris")
	if e := hs.a.data.selectedEntry(); e == nil || e.Name != "moons" {
		t.Errorf("the cursor is on %v, want moons", e)
	}

	hs = newHarness(t, Options{Data: "iris"}, 80, 24)
	hs.previewTab(previewColumns)
	hs.press("/")
	hs.typeText("width")
	hs.press("enter", "down", "s")
	v = hs.view()
	mustContain(t, v, "2 of 5")
	mustNotShow(t, v, "sepal_length_cm")
	if hs.a.data.target != "petal_width_cm" {
		t.Errorf("s on the second filtered column set target %q, want petal_width_cm", hs.a.data.target)
	}
}

// The runs list filters, and shows the selected run (the newest, where
// the cursor starts) in full at 80x24: its data (a generator's knobs the
// table cuts), model, parameters, evaluation and seed.
func TestRunsFilterAndDetail(t *testing.T) {
	hs := newHarness(t, Options{Data: "moons:n=123,noise=0.25", Model: "gnb", Train: true}, 80, 24)
	hs.press("esc", "enter", "R")
	if hs.a.cur != screenRuns || len(hs.a.runs.runs) != 2 {
		t.Fatalf("on %s with %d runs, want the runs screen with 2", screenNames[hs.a.cur], len(hs.a.runs.runs))
	}
	v := hs.view()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "#2 moons n=123 noise=0.25 · Gaussian naive Bayes (defaults) · stratified 80/20", "seed 1")
	hs.press("/")
	hs.typeText("#1")
	v = hs.view()
	mustContain(t, v, "1 of 2", "#1 moons n=123")
}

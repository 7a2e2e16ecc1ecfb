package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tealab/tealab/tui/screens/features"
)

// F on the data screen's preview (its footer says so) opens the
// Features screen: every method that takes the target ranks the
// features in the background, as sorted bars side by side or a table of
// ranks, and says how it took the numeric features; esc goes back.
func TestFeaturesFromTheDataScreen(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		w, h := size[0], size[1]
		hs := newHarness(t, Options{Data: "iris"}, w, h)
		if !strings.Contains(fmt.Sprint(hs.a.data.ShortHelp()), "rank features") {
			t.Errorf("%dx%d: the data screen's footer does not offer F", w, h)
		}
		hs.press("F")
		if hs.a.cur != screenFeatures {
			t.Fatalf("%dx%d: F left the lab on %s", w, h, screenNames[hs.a.cur])
		}
		v := hs.View()
		checkFrame(t, v, w, h)
		mustContain(t, v, "tealab ▸ iris ▸ features", "Features of iris · 4 features against species (classification)",
			"5 methods ranked", "information gain (bits)", "gain ratio (ratio)", "petal_length_cm", "Fayyad & Irani's MDL",
			"permutation: no model (m)")
		if len(hs.a.feats.Results) != 5 {
			t.Fatalf("%d rankings", len(hs.a.feats.Results))
		}
		hs.press("tab", "tab", "tab", "tab")
		mustContain(t, hs.View(), "ReliefF (weight)", "ReliefFAttributeEval")
		hs.press("v")
		v = hs.View()
		checkFrame(t, v, w, h)
		mustContain(t, v, "InfoGain", "▾ReliefF", "petal_width_cm")
		hs.press("esc")
		if hs.a.cur != screenData {
			t.Errorf("%dx%d: esc went to %s", w, h, screenNames[hs.a.cur])
		}
	}
}

// Permutation importance is offered for the session's model, and m
// picks another model of the registry that does the task; enter ranks
// again with it.
func TestFeaturesPermutationImportance(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "lda"}, 120, 40)
	hs.press("esc", "esc")
	if hs.a.cur != screenData {
		t.Fatalf("on %s", screenNames[hs.a.cur])
	}
	hs.press("F")
	mustContain(t, hs.View(), "permutation: lda", "6 methods ranked")
	hs.press("tab", "tab", "tab", "tab", "tab")
	mustContain(t, hs.View(), "permutation importance (drop) by lda", "the mean drop of 5 shuffles", "hold-out")
	hs.press("m")
	name := hs.a.feats.HeaderInfo()
	if name == "permutation: lda" || !strings.HasPrefix(name, "permutation: ") {
		t.Fatalf("m chose %q", name)
	}
	mustContain(t, hs.View(), "enter ranks again with the model chosen")
	hs.press("enter")
	by := strings.TrimPrefix(name, "permutation: ")
	if by != "no model (m)" {
		mustContain(t, hs.View(), "by "+by)
	}
}

// A regression target: ReliefF alone (RReliefF) among the filters.
func TestFeaturesOfARegression(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "diabetes"}, 120, 40)
	hs.press("F")
	mustContain(t, hs.View(), "1 method ranked", "ReliefF (weight)", "RReliefF")
}

// c stops a ranking in flight and keeps the methods that finished.
func TestFeaturesCancel(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "digits"}, 120, 40)
	_, cmd := hs.a.Update(keyMsg("F"))
	_, cmd = hs.a.Update(cmd())
	cancelled := false
	for hs.a.feats.Running() {
		if cmd == nil {
			t.Fatal("the ranking stopped sending")
		}
		msg := cmd()
		_, cmd = hs.a.Update(msg)
		if p, ok := msg.(features.ProgressMsg); ok && p.P.Method == "relieff" && !cancelled {
			mustContain(t, hs.View(), "ranking: 4 of 5 methods done · relieff", "of 1797 rows · c cancels")
			hs.a.Update(keyMsg("c"))
			cancelled = true
		}
	}
	mustContain(t, hs.View(), "cancelled: 4 of 5 methods ranked")
	if hs.a.cur != screenFeatures {
		t.Errorf("cancelling left the screen")
	}
}

// Data without a target: no method ranks, and the screen says why and
// what to do, in one line.
func TestFeaturesWithoutATarget(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Target: "-"}, 80, 24)
	hs.press("F")
	v := hs.View()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "no method ranks features against clustering")
	if hs.a.feats.Running() {
		t.Error("a ranking runs without a target")
	}
}

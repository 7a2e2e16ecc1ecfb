package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/views"
)

// Gaussian naive Bayes gets some of the 8x8 digits wrong: the Mistakes
// view draws them, labelled true→predicted, a page at a time.
func TestMistakesDrawsMisclassifiedDigits(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		hs := newHarness(t, Options{Data: "digits", Model: "gnb", Train: true}, size[0], size[1])
		r := hs.a.history[0]
		wrong := views.Misclassified(r)
		if len(wrong) == 0 {
			t.Fatal("gnb misclassified no digit")
		}
		hs.resultTab("Mistakes")
		v := hs.View()
		checkFrame(t, v, size[0], size[1])
		mustContain(t, v, fmt.Sprintf("%d of %d held-out rows misclassified", len(wrong), len(r.Result.Actual)), "page 1 of")
		// The first mistake's row, its label and its pixels as they are.
		first := wrong[0]
		mustContain(t, v, r.Dataset.Classes[first.Actual]+"→"+r.Dataset.Classes[first.Guessed])
		if r.Result.Actual[0] == r.Result.Predicted[0] && first.Row == r.Result.TestRows[0] {
			t.Errorf("a right prediction listed as a mistake")
		}
		hs.press("]")
		if v2 := hs.View(); !strings.Contains(v2, "page 2 of") {
			t.Errorf("] did not turn the page:\n%s", v2)
		}
	}
	// Iris is no image: no such view.
	hs := newHarness(t, Options{Data: "iris", Model: "gnb", Train: true}, 120, 40)
	if strings.Contains(strings.Join(hs.a.results.Tabs.Names(), "|"), "Mistakes") {
		t.Errorf("iris got the mistakes view: %v", hs.a.results.Tabs.Names())
	}
}

func TestImageSide(t *testing.T) {
	num := func(n int) *datasets.Dataset {
		d := &datasets.Dataset{}
		for range n {
			d.Features = append(d.Features, datasets.Column{Kind: datasets.Numeric})
		}
		return d
	}
	for n, want := range map[int]int{64: 8, 16: 4, 4: 0, 63: 0, 784: 28} {
		if got := kit.ImageSide(num(n)); got != want {
			t.Errorf("%d columns: side %d, want %d", n, got, want)
		}
	}
}

package tui

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/tui/kit"
)

// The lab says a warning's remedy as its own screens and keys, never as a
// command-line flag: a hold-out that leaves 5 training rows says to lower
// the test fraction on the parameters screen; an identifier column says
// where to drop it.
func TestWarningsSayTheLabsWords(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "lda", Eval: holdOut(0.97), Train: true}, 160, 40)
	mustContain(t, hs.View(), "⚠ the training part has 4 rows")
	hs.press("w")
	v := hs.View()
	mustContain(t, v, "hold out less (lower the test fraction on the parameters screen)")
	hs = newHarness(t, Options{Data: "../datasets/testdata/iris_id.csv", Model: "tree", Train: true}, 200, 40)
	hs.press("w")
	v += hs.View()
	mustContain(t, hs.View(), `drop it (select "id" in the Columns tab and press d on the data screen)`)
	if strings.Contains(v, "--") {
		t.Errorf("the lab names a flag:\n%s", v)
	}
}

// A model too big for the memory says what to do in the lab's words.
func TestMemoryRemedyInTheLabsWords(t *testing.T) {
	t.Setenv(engine.MemoryEnv, "1MB")
	if got := (&kit.Common{Remedy: remedyText}).ErrText(engine.CheckNeed("lda on digits", engine.Matrix(2000, 64, "matrix of prepared rows"))); strings.Contains(got, "--") ||
		!strings.Contains(got, "set reduce first on the parameters screen") {
		t.Errorf("%q", got)
	}
}

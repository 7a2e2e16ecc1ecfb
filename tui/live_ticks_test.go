package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
)

// A tick of a long epoch moves the progress bar and the clock but adds no
// point to the charts: halfway through epoch 3 of 10 the bar is a quarter
// full, and the history still has two epochs.
func TestTickMovesTheBarNotTheCharts(t *testing.T) {
	t.Parallel()
	a := trainingScreenFor(t, "mlp", 120, 40)
	steps := stepsWith(nil, nil)
	for i := range steps {
		steps[i].Total, steps[i].Elapsed = 10, time.Duration(i+1)*time.Second
	}
	a.train.Progress(kit.ProgressMsg{Run: 1, Steps: steps})
	before := statusBar(view(a))
	tick := eval.Progress{Fold: 1, Folds: 1, Point: steps[1].Point, Total: 10, Elapsed: 2500 * time.Millisecond, Within: 0.5}
	a.train.Progress(kit.ProgressMsg{Run: 1, Steps: []eval.Progress{tick}})
	after := statusBar(view(a))
	if n := len(a.train.Hist[0]); n != 2 {
		t.Errorf("%d points after the tick, want the 2 epochs", n)
	}
	if strings.Count(after, "█") <= strings.Count(before, "█") || !strings.Contains(after, "2/10 epochs · 2.5 s") {
		t.Errorf("the tick did not move the bar or the clock:\n%s\n%s", before, after)
	}
}

// statusBar is the training screen's line with the progress bar.
func statusBar(v string) string {
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "epochs ·") {
			return line
		}
	}
	return ""
}

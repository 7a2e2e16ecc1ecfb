package runs

import (
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/eval"
)

// The loss chart tells training from validation: dots for the training
// loss, a line for the validation figure, and a legend that says so (both
// were the same line, without a legend). The validation figure, known at
// fewer steps, is laid on the same step axis, so that its last value is at
// the right edge (it was squeezed into the chart's first columns).
func TestLossChartTellsTheSeriesApart(t *testing.T) {
	r := finished(t, "iris", "logistic")
	h := make([]eval.Point, 100)
	for i := range h {
		h[i] = eval.Point{Step: i + 1, TrainLoss: 1 / float64(i+1), ValLoss: math.NaN(), ValError: math.NaN()}
		if i%10 == 9 || i == 0 {
			h[i].ValLoss = 0.5 + float64(i)/200
		}
	}
	r.Result.History = h
	chart := LossChart(r, 60, 8)
	lines := strings.Split(chart, "\n")
	legend := lines[len(lines)-1]
	for _, want := range []string{"· " + r.Spec.LossName(r.Task()), "─ validation loss", "per iteration (1..100)"} {
		if !strings.Contains(legend, want) {
			t.Errorf("the legend %q lacks %q:\n%s", legend, want, chart)
		}
	}
	dots, lastLine, width := 0, -1, 0
	for _, l := range lines[:len(lines)-1] {
		_, plot, ok := strings.Cut(l, "┤")
		if !ok {
			_, plot, ok = strings.Cut(l, "┼")
		}
		if !ok {
			continue
		}
		cells := []rune(plot)
		width = max(width, len(cells))
		for c, r := range cells {
			switch {
			case r == '·':
				dots++
			case strings.ContainsRune("─╮╯╭╰│", r):
				lastLine = max(lastLine, c)
			}
		}
	}
	if dots < 10 {
		t.Errorf("the training loss is not drawn in dots (%d):\n%s", dots, chart)
	}
	if width == 0 || lastLine < width*9/10 {
		t.Errorf("the validation line ends in column %d of %d, want at the right edge:\n%s", lastLine+1, width, chart)
	}
}

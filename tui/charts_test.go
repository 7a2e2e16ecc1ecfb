package tui

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
)

// pane cuts the box whose top border holds title out of a screen: the lines
// inside its border. nil when no box has that title.
func pane(screen, title string) []string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		row := []rune(l)
		at := strings.Index(l, title)
		if at < 0 {
			continue
		}
		col := len([]rune(l[:at]))
		left := col
		for left >= 0 && row[left] != '╭' {
			left--
		}
		right := col
		for right < len(row) && row[right] != '╮' {
			right++
		}
		if left < 0 || right == len(row) {
			return nil
		}
		var out []string
		for _, below := range lines[i+1:] {
			r := []rune(below)
			if len(r) <= right || r[left] == '╰' {
				break
			}
			out = append(out, string(r[left+1:right]))
		}
		return out
	}
	return nil
}

// curveRows counts the rows of a chart's pane that its curve passes
// through (strokes right of the y axis).
func curveRows(p []string) int {
	n := 0
	for _, l := range p {
		at := strings.IndexAny(l, "┤┼")
		if at < 0 {
			continue
		}
		if strings.ContainsAny(l[at+len("┤"):], "╭╮╰╯│─") {
			n++
		}
	}
	return n
}

// A classifier's validation log-loss (2.3 down to 0.2) and error
// rate (0.3 down to 0.05) shared one axis, where the error was a flat line
// at the bottom. Each quantity has a pane of its own, titled with it, and
// the error's curve fills its pane's height.
func TestLiveChartGivesEachQuantityItsAxis(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		a := trainingApp(t, size[0], size[1], 0)
		steps := make([]eval.Progress, 60)
		for i := range steps {
			s := float64(i + 1)
			p := eval.Point{Step: i + 1, TrainLoss: 2.1*math.Exp(-s/8) + 0.1,
				ValLoss: 2.1*math.Exp(-s/8) + 0.2, ValError: 0.25*math.Exp(-s/15) + 0.05}
			steps[i] = eval.Progress{Fold: 1, Folds: 1, Total: 100, Point: p, Elapsed: time.Duration(i) * time.Millisecond}
		}
		a.train.Progress(kit.ProgressMsg{Run: 1, Steps: steps})
		v := view(a)
		checkFrame(t, v, size[0], size[1])
		logLoss, errRate := pane(v, "validation log-loss"), pane(v, "validation error rate")
		if logLoss == nil || errRate == nil {
			t.Fatalf("%dx%d: no pane of its own for the log-loss and the error rate:\n%s", size[0], size[1], v)
		}
		if p := strings.Join(logLoss, "\n"); !strings.Contains(p, "val log-loss") || strings.Contains(p, "val error") {
			t.Errorf("%dx%d: the log-loss pane's legend:\n%s", size[0], size[1], p)
		}
		if p := strings.Join(errRate, "\n"); !strings.Contains(p, "val error") || strings.Contains(p, "log-loss") {
			t.Errorf("%dx%d: the error pane's legend:\n%s", size[0], size[1], p)
		}
		// The error falls by 80% of its range: its curve crosses most of
		// the pane's rows, not one or two at the bottom of a log-loss axis.
		rows, plotted := curveRows(errRate), 0
		for _, l := range errRate {
			if strings.ContainsAny(l, "┤┼") {
				plotted++
			}
		}
		if rows < 3 || rows < plotted/2 {
			t.Errorf("%dx%d: the error's curve spans %d of %d rows:\n%s", size[0], size[1], rows, plotted, strings.Join(errRate, "\n"))
		}
	}
}

// A PCA has a biplot: the rows as points in PC1 and PC2, and an
// arrow per feature, labelled with its name.
func TestBiplot(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "wine", Model: "pca", Params: paramsOf("pca", map[string]string{"scale": "true"}), Train: true}, 120, 40)
	hs.resultTab("Biplot")
	v := hs.View()
	checkFrame(t, v, 120, 40)
	mustContain(t, v, "rows: PC1 (36.2% of the variance) across, PC2 (19.2%) up", "10 longest of 13", "flavanoids", "color_intensity")
	if p := strings.Count(v, "·"); p < 50 {
		t.Errorf("%d points drawn for 178 rows:\n%s", p, v)
	}
	if a := strings.Count(v, "●"); a != 10 {
		t.Errorf("%d arrow heads, want 10:\n%s", a, v)
	}
}

// A classifier without probabilities (an SVM, a perceptron) has a
// validation error but never a log-loss: its pane says so rather than
// waiting for data that will not come.
func TestLogLossPaneSaysWhyItIsEmpty(t *testing.T) {
	t.Parallel()
	a := trainingApp(t, 120, 40, 0)
	steps := make([]eval.Progress, 5)
	for i := range steps {
		p := eval.Point{Step: i + 1, TrainLoss: 1 / float64(i+1), ValLoss: math.NaN(), ValError: 0.3 / float64(i+1)}
		steps[i] = eval.Progress{Fold: 1, Folds: 1, Total: 10, Point: p, Elapsed: time.Duration(i) * time.Millisecond}
	}
	a.train.Progress(kit.ProgressMsg{Run: 1, Steps: steps})
	v := view(a)
	if p := strings.Join(pane(v, "validation log-loss"), "\n"); !strings.Contains(p, "none: the model gives no probabilities") {
		t.Errorf("the log-loss pane:\n%s", p)
	}
}

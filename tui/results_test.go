package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/tui/widgets"
)

// The tests of issue 9: each defect of the walkthrough, reproduced.

// lastLine is the footer of a view.
func lastLine(v string) string {
	lines := strings.Split(v, "\n")
	return strings.TrimRight(lines[len(lines)-1], " ")
}

// Defect 13: the footer is cut at 80 and 120 columns; it must keep
// "? help · q quit" at its end on every screen.
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	for _, w := range []int{80, 120} {
		hs := newHarness(t, Options{}, w, 30)
		check := func(where string) {
			t.Helper()
			if f := lastLine(hs.view()); !strings.HasSuffix(f, "? help · q quit") {
				t.Errorf("%d columns, %s: footer %q does not end with '? help · q quit'", w, where, f)
			}
		}
		check("data list")
		hs.pickData("iris")
		check("data preview")
		hs.press("enter")
		check("model list")
		hs.pickModel("logistic")
		hs.focusParam("solver")
		check("parameters (a choice)")
		hs.press("enter")
		if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
			t.Fatalf("training did not reach the results: screen %v", hs.a.cur)
		}
		check("results")
		hs.press("R")
		check("runs")
	}
}

// Defect 2: while a text field has focus, letters are typed into it, so
// the footer must not offer q, R, t or ?.
func TestFooterWhileTyping(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "logistic"}, 120, 30)
	hs.focusParam("C")
	if !hs.a.params.Typing() {
		t.Fatal("the C field should have the keyboard")
	}
	f := lastLine(hs.view())
	for _, bad := range []string{"q quit", "R runs", "t theme", "? help"} {
		if strings.Contains(f, bad) {
			t.Errorf("footer %q offers %q while a field has focus", f, bad)
		}
	}
	if !strings.Contains(f, "ctrl+c quit") || !strings.Contains(f, "esc") {
		t.Errorf("footer %q should offer esc and ctrl+c while typing", f)
	}
}

// Defect 14: the footer names the theme in use, and t changes it.
func TestFooterNamesTheme(t *testing.T) {
	hs := newHarness(t, Options{}, 160, 30)
	if f := lastLine(hs.view()); !strings.Contains(f, "theme: dark") {
		t.Errorf("footer %q does not name the theme", f)
	}
	hs.press("t")
	if f := lastLine(hs.view()); !strings.Contains(f, "theme: light") {
		t.Errorf("after t, footer %q does not name the light theme", f)
	}
}

// Defect 12: below the smallest usable size, one centred line says the
// size needed, never cut.
func TestTooSmallIsOneWholeLine(t *testing.T) {
	for _, sz := range [][2]int{{30, 8}, {60, 15}, {12, 3}, {79, 24}} {
		a := newTestApp(t, Options{}, sz[0], sz[1])
		v := view(a)
		checkFrame(t, v, sz[0], sz[1])
		text := strings.TrimSpace(v)
		if strings.Contains(text, "\n") || strings.Contains(text, "…") {
			t.Errorf("%dx%d: %q is not one whole line", sz[0], sz[1], text)
		}
		if sz[0] >= 10 && !strings.Contains(text, "80x24") {
			t.Errorf("%dx%d: %q does not say the size needed", sz[0], sz[1], text)
		}
	}
}

// Defect 10 (the lab's part): --model without --data is applied once the
// data are chosen.
func TestStartupModelWithoutData(t *testing.T) {
	hs := newHarness(t, Options{Model: "lda"}, 120, 30)
	if hs.a.cur != screenData {
		t.Fatalf("screen %v, want data", hs.a.cur)
	}
	hs.pickData("iris")
	hs.press("enter")
	if hs.a.cur != screenParams || hs.a.spec == nil || hs.a.spec.Name != "lda" {
		t.Fatalf("after choosing the data: screen %v, spec %v; want lda's parameters", hs.a.cur, hs.a.spec)
	}
}

// Views: `tealab --data moons` shows the data as a scatter by class before
// any model is chosen; wider data get histograms per column by class, and
// a scatter in the principal plane or of any two chosen columns.
func TestDataShownBeforeTraining(t *testing.T) {
	hs := newHarness(t, Options{Data: "moons"}, 120, 40)
	if hs.a.cur != screenData || hs.a.data.tabs.ActiveName() != previewPlot {
		t.Fatalf("--data moons: screen %v, tab %q; want the data's plot", hs.a.cur, hs.a.data.tabs.ActiveName())
	}
	mustContain(t, hs.view(), "x1 against x0 · by class", "●", "○", "● 0", "○ 1")

	hs = newHarness(t, Options{Data: "iris"}, 120, 40)
	hs.previewTab(previewPlot)
	mustContain(t, hs.view(), "first two principal directions", "● setosa")
	hs.press("x")
	mustContain(t, hs.view(), "sepal_width_cm against petal_length_cm")
	hs.press("p")
	mustContain(t, hs.view(), "first two principal directions")
	hs.previewTab(previewHist)
	mustContain(t, hs.view(), "petal_width_cm", "sepal_length_cm by class", "versicolor")

	hs = newHarness(t, Options{Data: "cubic"}, 120, 40)
	mustContain(t, hs.view(), "y against x0 · by y")
}

// Rows of large data page past the first thousand.
func TestRowsPage(t *testing.T) {
	hs := newHarness(t, Options{Data: "digits"}, 120, 40)
	hs.previewTab(previewRows)
	mustContain(t, hs.view(), "rows 1-1000 of 1797")
	hs.press("]")
	mustContain(t, hs.view(), "rows 1001-1797 of 1797")
	hs.press("[")
	mustContain(t, hs.view(), "rows 1-1000 of 1797")
}

// Views: regression with one feature shows the fitted curve over the
// points (cubic with a degree-3 least squares).
func TestFittedCurve(t *testing.T) {
	hs := newHarness(t, Options{Data: "cubic", Model: "linear", Params: map[string]string{"degree": "3"}, Train: true}, 120, 40)
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v", hs.a.cur)
	}
	for range 3 {
		hs.press("tab")
	}
	v := hs.view()
	mustContain(t, v, "[Fit]", "the curve least squares fitted", "━")
	if strings.Count(v, "━") < 60 {
		t.Errorf("the curve should span the plot:\n%s", v)
	}
}

// Defect 1: leave-one-out showed a baseline AUC of 0, no spread and no
// per-fold figures, and no warning before 1,797 fits on digits.
func TestLeaveOneOutSummary(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "lda", LOO: true, Train: true}, 120, 40)
	if hs.a.cur != screenResults {
		t.Fatalf("screen %v", hs.a.cur)
	}
	v := hs.view()
	mustContain(t, v, "pooled", "± rows", "0.140", "per fold (one row each)", "147 rows right, 3 rows wrong")
	for _, line := range strings.Split(v, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "AUC") && !strings.Contains(line, "0.500") {
			t.Errorf("baseline AUC should be 0.500: %q", line)
		}
	}

	hs = newHarness(t, Options{Data: "digits", Model: "gnb", LOO: true}, 120, 40)
	mustContain(t, hs.view(), "leave-one-out fits the model 1797 times")
}

// Defect 8: pooled (all folds together) and per-fold-mean figures appeared
// side by side unlabelled.
func TestPooledAndMeanLabelled(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Folds: 5, Train: true}, 120, 40)
	v := hs.view()
	mustContain(t, v, "mean of 5 folds", "scores mean ± sd of 5 folds (the baseline's too)")
	if !strings.Contains(v, " mean ") {
		t.Errorf("the summary's value column should say mean:\n%s", v)
	}
	hs.press("tab") // Confusion
	mustContain(t, hs.view(), "pooled over the 5 folds' held-out rows (150 rows), not the mean of the folds")
	hs.press("tab") // ROC
	mustContain(t, hs.view(), "curves pooled over the 5 folds", "the Summary's AUC is the fold mean")
}

// Defect 9: "better" only beyond the folds' noise.
func TestRunsVerdictsAllowForNoise(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Folds: 5, Train: true}, 140, 40)
	hs.press("R")
	mustContain(t, hs.view(), "better")
	hs = newHarness(t, Options{Data: "diabetes", Model: "linear", Train: true}, 140, 40)
	hs.press("R")
	v := hs.view()
	mustContain(t, v, "no spread")
	if strings.Contains(v, "better") {
		t.Errorf("one hold-out's R² cannot be called better than the baseline's:\n%s", v)
	}
}

// Defect 12: plurals ("1 features", "1 folds").
func TestPlurals(t *testing.T) {
	hs := newHarness(t, Options{Data: "cubic", Model: "linear", Train: true}, 120, 40)
	v := hs.view()
	mustContain(t, v, "(100 rows, 1 feature)")
	if strings.Contains(v, "1 features") {
		t.Errorf("'1 features':\n%s", v)
	}
	hs.press("R")
	mustContain(t, hs.view(), "Runs (1)")
}

// Defect 5: the model list's columns were misaligned (padding counted
// bytes, and a title cut with … is three bytes for one cell).
func TestModelColumnsAligned(t *testing.T) {
	for _, w := range []int{80, 120, 200} {
		hs := newHarness(t, Options{Data: "iris"}, w, 40)
		hs.press("enter")
		// The summary column starts at the same cell on every model line.
		col := -1
		for _, sp := range hs.a.model.specs {
			for _, line := range strings.Split(hs.view(), "\n") {
				if !strings.Contains(line, " "+sp.Name+" ") || strings.Contains(line, "╭") {
					continue
				}
				i := strings.Index(line, string([]rune(sp.Summary)[:16]))
				if i < 0 {
					continue
				}
				c := ansi.StringWidth(line[:i])
				if col < 0 {
					col = c
				} else if c != col {
					t.Errorf("%d columns: %s's summary starts at cell %d, others at %d:\n%s", w, sp.Name, c, col, line)
				}
				break
			}
		}
		if col < 0 {
			t.Errorf("%d columns: no summary column found", w)
		}
	}
}

// Defect 6: the map flooded with × on large data, and on digits the
// legend lost its symbols.
func TestMapOnDigits(t *testing.T) {
	hs := newHarness(t, Options{Data: "digits", Model: "lda", Train: true}, 120, 40)
	for hs.a.results.tabs.ActiveName() != "Map" {
		hs.press("tab")
	}
	if !hs.runUntil(func() bool { return strings.Contains(hs.view(), "PC1") }) {
		t.Fatalf("no map:\n%s", hs.view())
	}
	v := hs.view()
	for c := range 10 {
		mustContain(t, v, widgets.ClassMarker(c)+" "+strconv.Itoa(c))
	}
	if n := strings.Count(v, "×"); n > 60 {
		t.Errorf("%d × marks flood the map:\n%s", n, v)
	}
	mustContain(t, v, "misclassified (unmarked: too many)", "points drawn")
}

// Forms: + and - step numbers (on a log scale where the range is
// logarithmic), and still type into "1e-6"; parameters that do not apply
// are dimmed and say why; the focused parameter's help is whole in a side
// panel.
func TestFormStepsDimsAndExplains(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "logistic"}, 120, 40)
	hs.focusParam("C")
	hs.press("+")
	if got := hs.a.params.current().raw(); got != "3" {
		t.Errorf("C=1, +: %q, want 3", got)
	}
	hs.press("-", "-")
	if got := hs.a.params.current().raw(); got != "0.3" {
		t.Errorf("C=3, - -: %q, want 0.3", got)
	}
	for range 3 {
		hs.press("backspace")
	}
	hs.typeText("1e-6")
	if f := hs.a.params.current(); f.raw() != "1e-6" || f.err != nil {
		t.Errorf("typing 1e-6: %q (%v)", f.raw(), f.err)
	}
	v := hs.view()
	mustContain(t, v, "(only when solver is gd or sgd)", "+ and - step it along 1, 3, 10, 30")
	hs.focusParam("lr")
	mustContain(t, hs.view(), "Not used now: only when solver is gd")
	hs.focusParam("solver")
	hs.press("right", "right", "right") // auto → newton → lbfgs → gd
	if strings.Contains(hs.view(), "(only when solver is gd or sgd)") {
		t.Error("with solver=gd, lr applies and should not be dimmed")
	}
	// The help is never cut: at 80 columns it goes under the form, whole.
	hs = newHarness(t, Options{Data: "iris", Model: "logistic"}, 80, 30)
	hs.focusParam("solver")
	v = hs.view()
	mustContain(t, v, "sgd: stochastic gradient", "descent", "←/→ choose: auto, newton, lbfgs, gd, sgd")
}

// Views: coefficients of every class at once as a class x feature heat
// table; for image data (digits) each class's weights as a picture.
func TestCoefficientViews(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	for hs.a.results.tabs.ActiveName() != "Coefficients" {
		hs.press("tab")
	}
	mustContain(t, hs.view(), "4 features × 3 classes", "setosa", "versicolor", "virginica", "petal_width_cm", "(intercept)")

	hs = newHarness(t, Options{Data: "digits", Model: "logistic", Train: true}, 120, 40)
	for hs.a.results.tabs.ActiveName() != "Coefficients" {
		hs.press("tab")
	}
	v := hs.view()
	mustContain(t, v, "each class's weights as a picture")
	blocks := 0
	for _, g := range []string{"░", "▒", "▓", "█"} {
		blocks += strings.Count(v, g)
	}
	if blocks < 10*20 {
		t.Errorf("ten 8x8 pictures should draw hundreds of blocks, got %d:\n%s", blocks, v)
	}
	hs.press("m")
	mustContain(t, hs.view(), "weights for 0", "o: next")
	hs.press("m")
	mustContain(t, hs.view(), "61 features × 10 classes", "features 1-")
}

// Space: at 200x60 the screens use the room (the curves beside the
// figures, the live figures beside the charts); at 80x24 the summary
// scrolls instead of losing its last lines.
func TestSpaceAtEverySize(t *testing.T) {
	hs := newHarness(t, Options{Data: "breast_cancer", Model: "logistic", Params: map[string]string{"solver": "gd", "max_iter": "50"}, Folds: 5, Train: true}, 200, 60)
	v := hs.view()
	mustContain(t, v, "accuracy per fold", "validation log-loss · fold 1, others faint", "validation error rate · fold 1, others faint")
	checkFrame(t, v, 200, 60)

	hs = newHarness(t, Options{Data: "iris", Model: "tuitest_slow", Params: map[string]string{"steps": "1000000", "sleep_us": "100"}}, 200, 60)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) > 3 }) {
		t.Fatal("no progress")
	}
	job := hs.a.job
	t.Cleanup(func() { job.stop(5 * time.Second) })
	mustContain(t, view(hs.a), "live figures", "baseline error", "settings")

	hs = newHarness(t, Options{Data: "iris", Model: "logistic", Folds: 5, Train: true}, 80, 24)
	v = hs.view()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "accuracy", "↑/↓ scroll")
	for range 30 {
		hs.press("down")
	}
	mustContain(t, hs.view(), "seed", "fitting", "shown model")
}

// The full help (?) lost its last column at 80 columns: every key shows,
// the columns wrap to further rows.
func TestFullHelpFitsAt80(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "logistic"}, 80, 24)
	hs.press("?")
	v := hs.view()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "q quit", "t theme: dark", "R   runs", "↑/shift+tab previous", "ctrl+r defaults")
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "…") && strings.Contains(line, "│") {
			t.Errorf("help cut: %q", line)
		}
	}
}

// Defect 4: a regressor's validation chart drew MSE and RMSE on one axis.
func TestRegressionValidationIsRMSE(t *testing.T) {
	hs := newHarness(t, Options{Data: "diabetes", Model: "lasso", Params: map[string]string{"alpha": "0.01"}, Train: true}, 120, 40)
	for hs.a.results.tabs.ActiveName() != tabHistory {
		hs.press("tab")
	}
	v := hs.view()
	mustContain(t, v, "val RMSE")
	if strings.Contains(v, "val MSE") {
		t.Errorf("MSE drawn beside RMSE:\n%s", v)
	}
}

// Leave-one-out has a fold per row: the chart draws at most maxGhosts of
// the others.
func TestGhostsBounded(t *testing.T) {
	folds := make([][]eval.Point, 500)
	for f := range folds {
		folds[f] = []eval.Point{{Step: 1, TrainLoss: 1}, {Step: 2, TrainLoss: 0.5}}
	}
	c := newTestApp(t, Options{}, 120, 40).c
	spec, _ := engine.Lookup("lda")
	r := &runRecord{Record: &runs.Record{Spec: spec, Result: &eval.Result{Task: "classification"}}}
	fc := newFoldCharts(r, c.styles)
	for _, cur := range []int{0, 250, 499} {
		fc.draw(folds, cur)
		if n := fc.charts[0].Ghosts(); n != maxGhosts {
			t.Errorf("current fold %d: %d ghosts, want %d", cur, n, maxGhosts)
		}
	}
}

// At 200x60 the ROC plot keeps a square aspect and lists the areas beside
// it.
func TestROCUsesTheRoom(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 200, 60)
	for hs.a.results.tabs.ActiveName() != "ROC" {
		hs.press("tab")
	}
	v := hs.view()
	checkFrame(t, v, 200, 60)
	mustContain(t, v, "area under each curve", "macro mean", "versicolor")
}

// The comparison of two runs says which differences are within noise.
func TestCompareSaysWithinNoise(t *testing.T) {
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Folds: 10, Train: true}, 120, 40)
	hs.press("e")
	hs.a.params.setModel(hs.a.ds, mustSpec(t, "gnb"), nil, nil)
	hs.a.spec = hs.a.params.spec
	hs.press("enter")
	hs.runUntil(func() bool { return hs.a.cur == screenResults && len(hs.a.history) == 2 && hs.a.history[1].Done() })
	hs.press("R", " ", "up", " ", "enter")
	v := hs.view()
	mustContain(t, v, "Run #", "≈ within noise", "identical splits")
	checkFrame(t, v, 120, 40)
}

func mustSpec(t *testing.T, name string) *engine.Spec {
	t.Helper()
	sp, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// Defect 11: a generator's seed knob read 0…9.007199254740992e15.
func TestKnobRangesReadable(t *testing.T) {
	hs := newHarness(t, Options{}, 120, 40)
	for hs.a.data.selectedEntry() == nil || hs.a.data.selectedEntry().Name != "moons" {
		hs.press("down")
	}
	v := hs.view()
	mustContain(t, v, "0…2^53")
	if strings.Contains(v, "e15") || strings.Contains(v, "e+") {
		t.Errorf("float noise in the knobs:\n%s", v)
	}
}

// A newline or an escape sequence in a column's level or name is shown
// escaped (it was dropped: "x\ny" read "xy"), and every line stays inside
// the window (issue 10, defect 9).
func TestPreviewEscapesControlCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "esc.csv")
	text := "a,\"c\x1b[2J\",label\n1,\"x\ny\",p\n2,z,q\n3,z,p\n4,x,q\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, Options{Data: path}, 120, 40)
	for _, key := range []string{"", "right", "right"} {
		if key != "" {
			hs.press(key)
		}
		v := hs.view()
		checkFrame(t, v, 120, 40)
		if strings.Contains(v, "\x1b[2J") {
			t.Fatalf("the raw escape reached the screen")
		}
	}
	mustContain(t, hs.view(), "[Rows]", `x\ny`, `c\x1b[2J`)
}

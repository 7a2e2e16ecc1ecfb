package views_test

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/tealab/tealab/internal/termtest"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/views"
)

// made is run r's view named name, sized w x h.
func made(t *testing.T, r *kit.RunRecord, name string, w, h int) views.View {
	t.Helper()
	c, err := kit.NewCommon("mono", colorprofile.NoTTY, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range views.For(r) {
		if s.Name == name {
			v := s.Make(views.Env{C: c, Ctx: context.Background()}, r)
			v.SetSize(w, h)
			return v
		}
	}
	t.Fatalf("run of %s has no %s view (%s)", r.Spec.Name, name, names(views.For(r)))
	return nil
}

// The precision-recall view starts at the model's own decision and moves
// the threshold along the curve with < and >: the confusion beside the
// plot follows, and it is the run's at the model's own decision.
func TestPRThresholdMovesTheConfusion(t *testing.T) {
	r := trainedOn(t, "breast_cancer", "logistic")
	v := made(t, r, "PR", 120, 30)
	start := v.View()
	c := r.Result.Confusion
	pos, neg := 0, 1 // malignant, the rarer, is class 0
	for _, want := range []string{"malignant AP", "the model's own decision", "threshold (< >)"} {
		if !strings.Contains(start, want) {
			t.Errorf("the view lacks %q:\n%s", want, start)
		}
	}
	own := "malignant " + itoa(c.Matrix[pos][pos]) + " " + itoa(c.Matrix[pos][neg])
	if !strings.Contains(strings.Join(strings.Fields(start), " "), own) {
		t.Errorf("at the model's own decision the view's confusion is not the run's (%v):\n%s", c.Matrix, start)
	}
	v.Update(termtest.Press("<"))
	v.Update(termtest.Press("<"))
	v.Update(termtest.Press("<"))
	lower := v.View()
	if lower == start || strings.Contains(lower, "the model's own decision") {
		t.Errorf("a lower threshold changed nothing:\n%s", lower)
	}
	for range 3 {
		v.Update(termtest.Press(">"))
	}
	if v.View() != start {
		t.Errorf("back at the model's own threshold the view differs:\n%s", v.View())
	}
}

// Calibration and gains come with their tables when there is room.
func TestCalibrationAndGainsViews(t *testing.T) {
	r := trainedOn(t, "breast_cancer", "logistic")
	if cal := made(t, r, "Calibration", 140, 30).View(); !strings.Contains(cal, "observed") || !strings.Contains(cal, "predicted") {
		t.Errorf("calibration view:\n%s", cal)
	}
	if g := made(t, r, "Gains", 140, 30).View(); !strings.Contains(g, "lift@10%") || !strings.Contains(g, "10%") {
		t.Errorf("gains view:\n%s", g)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The predictions tab lists every held-out row; m keeps the mistakes,
// as many as the confusion matrix's off-diagonal counts, and s puts the
// surest first.
func TestPredictionsViewMistakes(t *testing.T) {
	r := trainedOn(t, "breast_cancer", "logistic")
	v := made(t, r, "Predictions", 100, 400)
	c := r.Result.Confusion
	wrong := c.Matrix[0][1] + c.Matrix[1][0]
	all := v.View()
	if !strings.Contains(all, itoa(len(r.Result.Actual))+" rows held out, "+itoa(wrong)+" wrong") {
		t.Errorf("the head does not count the rows and mistakes (%d wrong):\n%s", wrong, all)
	}
	v.Update(termtest.Press("m"))
	v.Update(termtest.Press("s"))
	mistakes := v.View()
	if got := strings.Count(mistakes, "✗"); got != wrong {
		t.Errorf("m shows %d mistakes, the confusion matrix %d:\n%s", got, wrong, mistakes)
	}
	var confs []float64
	for _, line := range strings.Split(mistakes, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[len(f)-1] == "✗" {
			x, err := strconv.ParseFloat(f[len(f)-2], 64)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			confs = append(confs, x)
		}
	}
	if !slices.IsSortedFunc(confs, func(a, b float64) int { return cmp.Compare(b, a) }) {
		t.Errorf("s does not put the surest first: %v", confs)
	}
}

// p makes the other class the positive one: its curve, and at the model's
// own decision its row of the run's confusion matrix.
func TestPRFlipsThePositiveClass(t *testing.T) {
	r := trainedOn(t, "breast_cancer", "logistic")
	v := made(t, r, "PR", 120, 30)
	v.Update(termtest.Press("p"))
	got := strings.Join(strings.Fields(v.View()), " ")
	c := r.Result.Confusion
	for _, want := range []string{"benign AP", "benign at a score", "benign " + itoa(c.Matrix[1][1]) + " " + itoa(c.Matrix[1][0]), "the model's own decision"} {
		if !strings.Contains(got, want) {
			t.Errorf("after p the view lacks %q:\n%s", want, v.View())
		}
	}
	if strings.Contains(got, "malignant AP") {
		t.Errorf("after p the view still draws malignant's curve:\n%s", v.View())
	}
}

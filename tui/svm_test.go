package tui

import (
	"context"
	"maps"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/charmbracelet/x/ansi"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/svm"
	"github.com/tealab/tealab/internal/fakemodels/fakesvm"
	"github.com/tealab/tealab/tui/live"
	"github.com/tealab/tealab/tui/widgets"
)

// The lab's pictures of a kernel machine, drawn for the small linear SVM
// of internal/fakemodels (kept out of the registry, as fakeNetSpec is):
// the margin band and the support vectors on the map, the table of
// support vectors, and the objectives while it trains.

// svmSpec is the test SVM with settings over its defaults; pause slows
// each of its steps (its fits are otherwise over before a screen shows).
func svmSpec(settings engine.Values, pause time.Duration) *engine.Spec {
	spec := fakesvm.LinearSVM
	spec.New = func(v engine.Values) (engine.Model, error) {
		v = maps.Clone(v)
		maps.Copy(v, settings)
		m, err := fakesvm.LinearSVM.New(v)
		return &slowSVM{Model: m, pause: pause}, err
	}
	return &spec
}

// slowSVM is an SVM whose steps each take pause more.
type slowSVM struct {
	engine.Model
	pause time.Duration
}

func (s *slowSVM) Fit(ctx context.Context, tr engine.Train, rec engine.Recorder) error {
	return s.Model.Fit(ctx, tr, pausing{rec, s.pause})
}

func (s *slowSVM) Predict(X mat.Matrix) ([]float64, error) {
	return s.Model.(engine.Predictor).Predict(X)
}

func (s *slowSVM) Margin(X mat.Matrix) ([]float64, error) { return s.Model.(engine.Marginer).Margin(X) }

func (s *slowSVM) SupportVectors() *engine.SupportVectors {
	return s.Model.(engine.SupportVectorer).SupportVectors()
}

// pausing is a recorder that waits before each step.
type pausing struct {
	engine.Recorder
	pause time.Duration
}

func (p pausing) Step(s engine.Step) error {
	time.Sleep(p.pause)
	return p.Recorder.Step(s)
}

// svmResults fits the test SVM on data in a w x h lab and opens tab.
func svmResults(t *testing.T, data, tab string, w, h int) *harness {
	t.Helper()
	hs := runOn(t, data, svmSpec(nil, 0), w, h)
	if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
		t.Fatalf("no results:\n%s", hs.View())
	}
	hs.resultTab(tab)
	return hs
}

// A linear SVM on circles: its map shows the margin band, the boundary
// and the support vectors, and says what they are; the band covers the
// rings, every point inside it: the picture of why a line fails there.
func TestMapShowsMarginAndSupportVectors(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		hs := svmResults(t, "circles", "Map", size[0], size[1])
		if !hs.runUntil(func() bool { return strings.Contains(hs.View(), "refit on all") }) {
			t.Fatalf("no map:\n%s", hs.View())
		}
		v := hs.View()
		t.Logf("%dx%d:\n%s", size[0], size[1], v)
		checkFrame(t, v, size[0], size[1])
		mustContain(t, v, "boundary f=0", "margin |f|≤1", "support vectors of this refit", "refit on all 200 rows")
		if n := strings.Count(v, widgets.SupportMarker(0)) + strings.Count(v, widgets.SupportMarker(1)); n < 10 {
			t.Errorf("%d support-vector markers on the map of a linear SVM on circles:\n%s", n, v)
		}
	}
}

func TestSupportVectorsView(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		hs := svmResults(t, "circles", "Support vectors", size[0], size[1])
		v := hs.View()
		t.Logf("%dx%d:\n%s", size[0], size[1], v)
		checkFrame(t, v, size[0], size[1])
		mustContain(t, v, "support vectors of the shown model · kernel k(a,b) = a·b", "of class 0", "of class 1", "at the bound α = C",
			"row", "class", "y·α", "at C", "yes", "order: by row", "features as the model saw them")
		hs.press("s")
		mustContain(t, hs.View(), "order: heaviest |α| first")
		before := hs.View()
		hs.press("down")
		if hs.View() == before {
			t.Errorf("↓ did not scroll the table:\n%s", before)
		}
	}
	// A model without support vectors has no such tab.
	hs := newHarness(t, Options{Data: "circles", Model: "lda", Train: true}, 120, 40)
	if strings.Contains(hs.View(), "Support vectors") {
		t.Errorf("lda's results have a support-vector tab:\n%s", hs.View())
	}
}

// While an SVM trains: its primal and dual objectives, the gap between
// them and the support vectors so far; a solver without a dual shows the
// primal alone; a run of another family has no such view.
func TestLiveSVMObjectives(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		hs := runOn(t, "circles", svmSpec(engine.Values{"epochs": 10000}, time.Millisecond), size[0], size[1])
		hs.runUntil(func() bool { return trainSteps(hs) > 10 })
		showLive(hs, "support vectors · gap ")
		v := hs.View()
		t.Logf("%dx%d:\n%s", size[0], size[1], v)
		checkFrame(t, v, size[0], size[1])
		mustContain(t, v, "objective", "━━ dual", "duality gap", "support vectors · gap ")
		if size[0] >= 120 {
			mustContain(t, v, "── primal", "duality gap · log y", "· dual ")
		}
		// The live map of a margin model has its band.
		if s := regionsNow(t, hs); s.M.Margin == nil {
			t.Error("the live map of a margin model has no margin")
		}
	}
	hs := runOn(t, "circles", svmSpec(engine.Values{"epochs": 10000, "primal_only": true}, time.Millisecond), 120, 40)
	hs.runUntil(func() bool { return trainSteps(hs) > 10 })
	showLive(hs, "primal only")
	v := hs.View()
	mustContain(t, v, "objective", "── primal", "primal only")
	if strings.Contains(v, "duality gap") || strings.Contains(v, "━━ dual") {
		t.Errorf("a solver without a dual drew a gap:\n%s", v)
	}
	slow, err := engine.Lookup("tuitest_slow")
	if err != nil {
		t.Fatal(err)
	}
	if v := sowingRun(t, slow, 120, 40).View(); strings.Contains(v, "── primal") {
		t.Errorf("a run without svm.Progress drew the SVM's objectives:\n%s", v)
	}
}

// A solver that evaluates its primal on some steps only (SMO while it has
// shrunk variables, dcd on a budget): the figures under the charts give
// the latest primal and gap evaluated, with their step, never NaN.
func TestLiveSVMFiguresBetweenPrimals(t *testing.T) {
	t.Parallel()
	c := plainCommon(t)
	nan := math.NaN()
	h := []eval.Point{
		{Step: 1, Detail: svm.Progress{Primal: 50, Dual: 10, Gap: 40, SupportVectors: 9}},
		{Step: 2, Detail: svm.Progress{Primal: nan, Dual: 12, Gap: nan, SupportVectors: 8}},
	}
	v := &live.SvmLiveView{C: c, Objective: widgets.NewLineChart("objective", "step", c.Styles), Gap: widgets.NewLineChart("gap", "step", c.Styles)}
	v.SetSize(100, 10)
	v.Show([][]eval.Point{h}, 0, "")
	got := ansi.Strip(v.Figures())
	for _, want := range []string{"8 support vectors", "gap 40", "primal 50 (step 1)", "dual 12"} {
		if !strings.Contains(got, want) {
			t.Errorf("figures %q lack %q", got, want)
		}
	}
	if strings.Contains(got, "NaN") {
		t.Errorf("figures %q show NaN", got)
	}
}

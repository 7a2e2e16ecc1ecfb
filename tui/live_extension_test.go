package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/live"
)

// The promise of live views: a family's own picture of its fits is a step
// payload type and one registration. Everything this test adds lives in
// this file: a family whose model sows seeds, its payload (the seeds sown
// so far) and a live view that draws it. The view must appear on the
// training screen of that family's runs, and of no other, with no edit
// elsewhere. The model is not put in the registry (it would join every
// model list of the other tests): the run starts as the parameters screen
// starts one, from the spec the lab has chosen.

// sowing is the sower family's step payload.
type sowing struct{ Seeds int }

func (s sowing) Figures() []engine.Figure {
	return []engine.Figure{{Name: "seeds", Value: float64(s.Seeds)}}
}

// sowerModel sows seven seeds a step, slowly, and predicts the first class.
type sowerModel struct{ fitted bool }

func (m *sowerModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	for i := 1; i <= 1e6; i++ {
		time.Sleep(100 * time.Microsecond)
		if err := rec.Step(engine.Step{Step: i, Total: 1e6, TrainLoss: 1 / float64(i), Detail: sowing{Seeds: 7 * i}}); err != nil {
			return err
		}
	}
	m.fitted = true
	return nil
}

func (m *sowerModel) Predict(X mat.Matrix) ([]float64, error) {
	r, _ := X.Dims()
	return make([]float64, r), nil
}

var sowerSpec = engine.Spec{
	Name: "tuitest_sower", Title: "sower", Family: "test models",
	Summary: "sows seeds while it fits", Notes: "none (tests)",
	Tasks: []engine.Task{datasets.Classification}, Unit: "furrow",
	New: func(engine.Values) (engine.Model, error) { return &sowerModel{}, nil },
}

func init() {
	live.Register(live.Spec{Order: 25, Applies: live.Carries[sowing],
		Make: func(c *kit.Common, r *kit.RunRecord) live.View { return &sowingView{} }})
}

// sowingView says how many seeds the fold being fitted has sown.
type sowingView struct {
	seeds, w, h int
}

func (v *sowingView) Show(folds [][]eval.Point, cur int, note string) {
	h := folds[cur]
	if s, ok := h[len(h)-1].Detail.(sowing); ok {
		v.seeds = s.Seeds
	}
}

func (v *sowingView) SetSize(w, h int) { v.w, v.h = w, h }
func (v *sowingView) View() string {
	return kit.Fit(fmt.Sprintf(" the sower has sown %d seeds", v.seeds), v.w, v.h)
}
func (v *sowingView) Panes() int { return 1 }

// sowingRun starts a run of spec in a w x h lab on iris, from the
// parameters screen, and returns once the training screen has a step.
func sowingRun(t *testing.T, spec *engine.Spec, w, h int) *harness {
	t.Helper()
	return runOn(t, "iris", spec, w, h)
}

// runOn is sowingRun on data.
func runOn(t *testing.T, data string, spec *engine.Spec, w, h int) *harness {
	t.Helper()
	hs := newHarness(t, Options{Data: data, Model: "tuitest_slow"}, w, h)
	hs.a.spec = spec
	v, err := spec.Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cmd := hs.a.startRun(v, eval.DefaultOptions()); cmd != nil {
		hs.queue = append(hs.queue, cmd())
	}
	if !hs.runUntil(func() bool { return trainSteps(hs) > 0 }) || hs.a.cur != screenTrain {
		t.Fatalf("the run did not start:\n%s", hs.View())
	}
	t.Cleanup(func() { closeHarness(hs) })
	return hs
}

func TestFamilyGetsItsLiveView(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {200, 60}} {
		hs := sowingRun(t, &sowerSpec, size[0], size[1])
		v := hs.View()
		checkFrame(t, v, size[0], size[1])
		steps := trainSteps(hs)
		mustContain(t, v, fmt.Sprintf("the sower has sown %d seeds", 7*steps), "training loss", "validation error rate")
		// The payload's figures are listed with the others.
		mustContain(t, v, fmt.Sprintf("seeds %d", 7*steps))
	}
	// A family whose steps carry no sowing has no such view.
	slow, err := engine.Lookup("tuitest_slow")
	if err != nil {
		t.Fatal(err)
	}
	hs := sowingRun(t, slow, 120, 40)
	if v := hs.View(); strings.Contains(v, "the sower") {
		t.Errorf("a run without sowing drew the sowing view:\n%s", v)
	}
}

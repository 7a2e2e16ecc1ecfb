package eval

import (
	"context"
	"math"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// "evalpaced" is evalfake validated every third step (engine.Paced), which
// ticks halfway through each step (engine.Ticker).
func init() {
	engine.Register(engine.Spec{
		Name: "evalpaced", Title: "fake paced", Family: "test", Unit: "epoch",
		Tasks:  []engine.Task{datasets.Classification},
		Params: []engine.Param{{Name: "steps", Kind: engine.Int, Default: 5, Min: 1, Max: 100000, Help: "steps"}},
		New: func(v engine.Values) (engine.Model, error) {
			return &pacedModel{fakeModel: &fakeModel{steps: v.Int("steps")}}, nil
		},
	})
}

type pacedModel struct{ *fakeModel }

func (m *pacedModel) ValidateEvery(rows int) int { return 3 }

func (m *pacedModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	return m.fakeModel.Fit(ctx, d, halfwayTicks{rec})
}

// halfwayTicks ticks each step halfway before it is recorded.
type halfwayTicks struct{ engine.Recorder }

func (r halfwayTicks) Step(s engine.Step) error {
	if t, ok := r.Recorder.(engine.Ticker); ok {
		if err := t.Tick(s.Step, s.Total, 0.5); err != nil {
			return err
		}
	}
	return r.Recorder.Step(s)
}

func TestPacedValidationAndTicks(t *testing.T) {
	var ticks, steps []Progress
	opt := DefaultOptions()
	opt.Tick = func(p Progress) { ticks = append(ticks, p) }
	res, err := Run(context.Background(), blobs(60, 2, 1), spec(t, "evalpaced"), params(t, spec(t, "evalpaced"), map[string]string{"steps": "20"}), opt,
		func(p Progress) { steps = append(steps, p) })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.History) != 20 || len(steps) != 20 {
		t.Fatalf("%d points, %d progress calls; want one a step, 20", len(res.History), len(steps))
	}
	var validated []int
	for _, p := range res.History {
		if !math.IsNaN(p.ValError) {
			validated = append(validated, p.Step)
		}
	}
	want := []int{1, 3, 6, 9, 12, 15, 18, 20} // the first, every third, and the last after Fit returns
	if !sameInts(validated, want) {
		t.Errorf("validated at %v, want %v", validated, want)
	}
	if len(ticks) != 20 {
		t.Fatalf("%d ticks, want 20", len(ticks))
	}
	for i, p := range ticks {
		if p.Within != 0.5 || p.Point.Step != i || p.Total != 20 {
			t.Errorf("tick %d: within %v of step %d+1 of %d", i, p.Within, p.Point.Step, p.Total)
		}
	}
}

func TestTickStopsACancelledFit(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	opt := DefaultOptions()
	opt.Tick = func(Progress) {}
	progress := func(p Progress) {
		if p.Point.Step == 3 {
			cancel()
		}
	}
	res, err := Run(ctx, blobs(60, 2, 1), spec(t, "evalpaced"), params(t, spec(t, "evalpaced"), map[string]string{"steps": "20"}), opt, progress)
	if err != context.Canceled || res == nil || len(res.History) != 3 {
		t.Fatalf("err %v; want Canceled by the tick after step 3, with 3 steps", err)
	}
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

package tui

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/tui/kit"
)

// A parameter written once, in a spec defined in this file, gets its field
// in the form with its default, range and help, is refused out of range
// with the spec's words, and reaches the fit typed, with no edit elsewhere.

// thermometer predicts class 0 and reports the temperature it was built
// with as its training loss, so that a run shows what Fit was handed.
type thermometer struct{ temperature float64 }

func (m *thermometer) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	return rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: m.temperature})
}

func (m *thermometer) Predict(X mat.Matrix) ([]float64, error) {
	n, _ := X.Dims()
	return make([]float64, n), nil
}

func init() {
	engine.Register(engine.Spec{
		Name: "tuitest_thermometer", Title: "thermometer", Family: "test models",
		Summary: "predicts the first class at a temperature", Notes: "none (tests)",
		Tasks: []engine.Task{datasets.Classification}, Unit: "step",
		Params: []engine.Param{{Name: "temperature", Kind: engine.Float, Default: 0.7, Min: 0, Max: 2,
			Help: "how warm the predictions run"},
			{Name: "layers", Kind: engine.Ints, Default: []int{8, 4}, Min: 1, Max: 64, Help: "widths of the layers"}},
		New: func(v engine.Values) (engine.Model, error) {
			return &thermometer{temperature: v.Float("temperature")}, nil
		},
	})
}

func TestNewParameterInTheForm(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_thermometer"}, 120, 40)
	hs.focusParam("temperature")
	mustContain(t, hs.View(), "temperature", "0.7", "how warm the predictions run", "float in [0, 2] · default 0.7")

	for range 3 {
		hs.press("backspace")
	}
	hs.typeText("3")
	mustContain(t, hs.View(), `"3" is out of range (float in [0, 2])`)
	hs.press("enter")
	if hs.a.cur != screenParams || len(hs.a.history) != 0 {
		t.Fatal("trained at temperature 3, outside the spec's range")
	}

	hs.press("backspace")
	hs.typeText("1.5")
	hs.press("enter")
	hs.runUntil(func() bool { return len(hs.a.history) == 1 && hs.a.history[0].Done() })
	if len(hs.a.history) != 1 {
		t.Fatal("no run at temperature 1.5")
	}
	r := hs.a.history[0]
	if x, ok := r.Params["temperature"].(float64); !ok || x != 1.5 {
		t.Errorf("the run keeps temperature %#v, want the float 1.5", r.Params["temperature"])
	}
	if h := r.Result.History; len(h) == 0 || h[len(h)-1].TrainLoss != 1.5 {
		t.Errorf("history %+v: Fit was not handed temperature 1.5", h)
	}
	if got := kit.KeyParams(r.Spec, r.Params); got != "temperature=1.5" {
		t.Errorf("the runs table says %q, want temperature=1.5", got)
	}
}

// A list parameter is a text field of comma-separated values, each checked
// against the spec's range.
func TestListParameterInTheForm(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_thermometer"}, 120, 40)
	hs.focusParam("layers")
	mustContain(t, hs.View(), "layers", "[8,4 ", "ints in [1, 64]", "default 8,4")
	hs.typeText(",99")
	mustContain(t, hs.View(), `parameter layers: "99" is out of range`)
	hs.press("backspace")
	hs.press("enter")
	hs.runUntil(func() bool { return len(hs.a.history) == 1 && hs.a.history[0].Done() })
	if len(hs.a.history) != 1 {
		t.Fatal("no run with layers 8,4,9")
	}
	if got := hs.a.history[0].Params["layers"]; engine.Format(got) != "8,4,9" {
		t.Errorf("the run keeps layers %#v, want [8 4 9]", got)
	}
}

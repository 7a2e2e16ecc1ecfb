package tui

import (
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// + and - step numbers (on a log scale where the range is
// logarithmic), and still type into "1e-6"; parameters that do not apply
// are dimmed and say why; the focused parameter's help is whole in a side
// panel.
func TestFormStepsDimsAndExplains(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic"}, 120, 40)
	hs.focusParam("C")
	hs.press("+")
	if got := hs.a.params.Current().Raw(); got != "3" {
		t.Errorf("C=1, +: %q, want 3", got)
	}
	hs.press("-", "-")
	if got := hs.a.params.Current().Raw(); got != "0.3" {
		t.Errorf("C=3, - -: %q, want 0.3", got)
	}
	for range 3 {
		hs.press("backspace")
	}
	hs.typeText("1e-6")
	if f := hs.a.params.Current(); f.Raw() != "1e-6" || f.Err != nil {
		t.Errorf("typing 1e-6: %q (%v)", f.Raw(), f.Err)
	}
	v := hs.View()
	mustContain(t, v, "(only when solver is gd or sgd)", "+ and - step it along 1, 3, 10, 30")
	hs.focusParam("lr")
	mustContain(t, hs.View(), "Not used now: only when solver is gd")
	hs.focusParam("solver")
	hs.press("right", "right", "right") // auto → newton → lbfgs → gd
	if strings.Contains(hs.View(), "(only when solver is gd or sgd)") {
		t.Error("with solver=gd, lr applies and should not be dimmed")
	}
	// The help is never cut: at 80 columns it goes under the form, whole.
	hs = newHarness(t, Options{Data: "iris", Model: "logistic"}, 80, 30)
	hs.focusParam("solver")
	v = hs.View()
	mustContain(t, v, "sgd: stochastic gradient", "descent", "←/→ choose: auto, newton, lbfgs, gd, sgd")
}

func mustSpec(t *testing.T, name string) *engine.Spec {
	t.Helper()
	sp, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// A generator's seed knob read 0…9.007199254740992e15.
func TestKnobRangesReadable(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 120, 40)
	for hs.a.data.SelectedEntry() == nil || hs.a.data.SelectedEntry().Name != "moons" {
		hs.press("down")
	}
	v := hs.View()
	mustContain(t, v, "0…2^53")
	if strings.Contains(v, "e15") || strings.Contains(v, "e+") {
		t.Errorf("float noise in the knobs:\n%s", v)
	}
}

// Seeds are uint64 end to end: MaxUint64 went through int as -1.
func TestSeedMaxUint64(t *testing.T) {
	t.Parallel()
	o := eval.DefaultOptions()
	o.Seed = math.MaxUint64
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow", Eval: &o,
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "2", "sleep_us": "0"})}, 120, 40)
	hs.focusParam("seed")
	if got := hs.a.params.Current().Raw(); got != "18446744073709551615" {
		t.Fatalf("seed field %q", got)
	}
	mustContain(t, hs.View(), "int in [0, 2^64-1]")
	hs.press("enter")
	if len(hs.a.history) != 1 {
		t.Fatalf("no run: %v", hs.a.params.Err)
	}
	if r := hs.a.history[0]; r.Options.Seed != math.MaxUint64 || r.Result == nil || r.Result.Seed != math.MaxUint64 {
		t.Errorf("run seed %d (result %+v)", r.Options.Seed, r.Result)
	}
	hs.press("esc") // results -> parameters
	hs.focusParam("seed")
	hs.press("backspace")
	hs.typeText("6") // 18446744073709551616: one too many
	if f := hs.a.params.Current(); f.Err == nil {
		t.Error("2^64 accepted as a seed")
	}
	hs.press("backspace")
	hs.typeText("5")
	if f := hs.a.params.Current(); f.Err != nil {
		t.Errorf("MaxUint64 rejected: %v", f.Err)
	}
}

// A network's validation_fraction is dimmed while patience is 0 (no early
// stopping, no rows held back) and says why; it was never dimmed.
func TestValidationFractionDimmedWithoutPatience(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "mlp", Params: paramsOf("mlp", map[string]string{"patience": "0"})}, 120, 40)
	mustContain(t, hs.View(), "(only when patience > 0)")
	hs.focusParam("validation_fraction")
	mustContain(t, hs.View(), "Not used now: only when patience >")
	hs.focusParam("patience")
	hs.press("+")
	if strings.Contains(hs.View(), "only when patience > 0") {
		t.Error("with patience=1, validation_fraction applies and should not be dimmed")
	}
}

package engine

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
)

var testSpec = Spec{
	Name: "fake", Title: "fake model", Family: "test", Tasks: []Task{datasets.Classification},
	Params: []Param{
		{Name: "epochs", Kind: Int, Default: 10, Min: 1, Max: 1000, Help: "passes"},
		{Name: "lr", Kind: Float, Default: 0.1, Min: 0, Max: math.NaN(), Log: true, Help: "step size"},
		{Name: "bias", Kind: Bool, Default: true, Help: "lift"},
		{Name: "mode", Kind: Choice, Default: "batch", Choices: []string{"batch", "stochastic"}, Help: "updates"},
		{Name: "loss", Kind: Text, Default: "", Help: "matrix", Check: func(s string) error {
			if strings.Contains(s, "x") {
				return errors.New("x is not a number")
			}
			return nil
		}},
	},
	New: func(Values) (Model, error) { return nil, nil },
}

func TestParseAppliesSettingsOverDefaults(t *testing.T) {
	v, err := testSpec.Parse(map[string]string{"epochs": "20", "lr": "1e-3", "bias": "false", "mode": "Stochastic", "loss": "0,1;1,0"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Int("epochs") != 20 || v.Float("lr") != 1e-3 || v.Bool("bias") || v.String("mode") != "stochastic" || v.String("loss") != "0,1;1,0" {
		t.Errorf("got %v", v)
	}
	if d := testSpec.Defaults(); d.Int("epochs") != 10 || d.Float("epochs") != 10 {
		t.Errorf("defaults %v", d)
	}
	if got := testSpec.Describe(v); got != "epochs=20 lr=0.001 bias=false mode=stochastic loss=0,1;1,0" {
		t.Errorf("Describe = %q", got)
	}
}

func TestParseRejectsWithReasons(t *testing.T) {
	cases := []struct {
		set  map[string]string
		want []string
	}{
		{map[string]string{"nope": "1"}, []string{`"nope"`, "epochs, lr, bias, mode, loss"}},
		{map[string]string{"epochs": "1.5"}, []string{"epochs", "whole number", "[1, 1000]"}},
		{map[string]string{"epochs": "0"}, []string{"epochs", "out of range", "[1, 1000]"}},
		{map[string]string{"lr": "-1"}, []string{"lr", "out of range", "[0, +inf]"}},
		{map[string]string{"lr": "NaN"}, []string{"lr", "not a number"}},
		{map[string]string{"lr": "fast"}, []string{"lr", "not a number"}},
		{map[string]string{"bias": "maybe"}, []string{"bias", "true or false"}},
		{map[string]string{"mode": "online"}, []string{"mode", "batch, stochastic"}},
		{map[string]string{"loss": "x"}, []string{"loss", "x is not a number"}},
	}
	for _, c := range cases {
		_, err := testSpec.Parse(c.set)
		if err == nil {
			t.Errorf("%v: no error", c.set)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q lacks %q", c.set, err, w)
			}
		}
	}
}

type constModel struct{}

func (constModel) Fit(context.Context, Train, Recorder) error { return nil }
func (constModel) Predict(X mat.Matrix) ([]float64, error) {
	r, _ := X.Dims()
	return make([]float64, r), nil
}

func TestRegistryLookup(t *testing.T) {
	s := testSpec
	s.Name = "test-const"
	s.New = func(Values) (Model, error) { return constModel{}, nil }
	Register(s)
	got, v, m, err := New("test-const", map[string]string{"epochs": "3"})
	if err != nil || got.Name != "test-const" || v.Int("epochs") != 3 || m == nil {
		t.Fatalf("New: %v %v %v", got, v, err)
	}
	if _, err := Lookup("missing"); err == nil || !strings.Contains(err.Error(), "test-const") {
		t.Errorf("Lookup error should list valid names: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("duplicate registration did not panic")
		}
	}()
	Register(s)
}

// Parameters that do not apply say why; numbers step on their
// scale (1-3-10 on a log range, a round twentieth of a linear one, 1 for an
// integer) and stay in range.
func TestAppliesToAndStep(t *testing.T) {
	lr := Param{Name: "lr", Kind: Float, Default: 0.1, Min: 1e-8, Max: 1e6, Log: true,
		When: &Applies{Param: "solver", In: []string{"gd", "sgd"}}}
	if ok, why := lr.AppliesTo(Values{"solver": "newton"}); ok || why != "only when solver is gd or sgd" {
		t.Errorf("newton: %v %q", ok, why)
	}
	if ok, _ := lr.AppliesTo(Values{"solver": "sgd"}); !ok {
		t.Error("sgd: lr applies")
	}
	for _, c := range []struct {
		p    Param
		v    float64
		dir  int
		want float64
	}{
		{lr, 0.1, 1, 0.3}, {lr, 0.3, 1, 1}, {lr, 0.1, -1, 0.03}, {lr, 0.05, -1, 0.03}, {lr, 0.05, 1, 0.1},
		{lr, 1e6, 1, 1e6}, {lr, 3e-5, -1, 1e-5},
		{Param{Kind: Float, Min: 0, Max: 1}, 0.1, 1, 0.15}, {Param{Kind: Float, Min: 0, Max: 1}, 0, -1, 0},
		{Param{Kind: Float, Min: 0.01, Max: 0.99}, 0.2, -1, 0.15},
		{Param{Kind: Int, Min: 1, Max: 6}, 3, 1, 4}, {Param{Kind: Int, Min: 1, Max: 6}, 6, 1, 6},
		{Param{Kind: Int, Min: 1, Max: 1e5, Log: true}, 100, 1, 300}, {Param{Kind: Int, Min: 1, Max: 1e5, Log: true}, 1, -1, 1},
	} {
		if got := c.p.Step(c.v, c.dir); got != c.want {
			t.Errorf("Step(%v, %+d) on [%v, %v] log=%v = %v, want %v", c.v, c.dir, c.p.Min, c.p.Max, c.p.Log, got, c.want)
		}
	}
}

// A parameter may apply only when a number is above a bound
// (validation_fraction only when patience > 0): it says so, its title
// leaves it out, and a spec whose condition a parameter cannot both meet
// and fail is refused when registered.
func TestAppliesAbove(t *testing.T) {
	s := &Spec{Name: "net", New: func(Values) (Model, error) { return constModel{}, nil }, Tasks: []Task{0}, Params: []Param{
		{Name: "patience", Kind: Int, Default: 10, Min: 0, Max: 1000},
		{Name: "tol", Kind: Float, Default: 0.0, Min: 0, Max: 1},
		{Name: "validation_fraction", Kind: Float, Default: 0.1, Min: 0.01, Max: 0.5, When: &Applies{Param: "patience"}},
		{Name: "step", Kind: Float, Default: 0.5, Min: 0, Max: 1, When: &Applies{Param: "tol", Above: 0.25}},
	}}
	vf, _ := s.Param("validation_fraction")
	for _, c := range []struct {
		v    Values
		want bool
	}{{Values{"patience": 0}, false}, {Values{"patience": 1}, true}, {Values{"patience": 1.5}, true}, {Values{"patience": "5"}, false}, {nil, false}} {
		ok, why := vf.AppliesTo(c.v)
		if ok != c.want || (!ok && why != "only when patience > 0") {
			t.Errorf("%v: applies %v (%q), want %v", c.v, ok, why, c.want)
		}
	}
	step, _ := s.Param("step")
	if ok, why := step.AppliesTo(Values{"tol": 0.25}); ok || why != "only when tol > 0.25" {
		t.Errorf("tol 0.25: %v %q", ok, why)
	}
	if ok, _ := step.AppliesTo(Values{"tol": 0.3}); !ok {
		t.Error("tol 0.3: step does not apply")
	}
	v := s.Defaults()
	v["patience"] = 0
	if got := s.Describe(v); got != "patience=0 tol=0" {
		t.Errorf("patience 0: %q", got)
	}
	s.Name = "test-applies-above"
	Register(*s)
	for _, bad := range []Applies{{Param: "patience", Above: 1000}, {Param: "patience", Above: -1}, {Param: "step"}, {Param: "nothing"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a parameter that applies only when %s was registered", bad)
				}
			}()
			b := *s
			b.Name = "test-applies-bad"
			b.Params = append([]Param{{Name: "c", Kind: Choice, Choices: []string{"a"}, Default: "a"}}, s.Params...)
			b.Params[3].When = &bad
			if bad.Param == "step" {
				b.Params[3].When = &Applies{Param: "c"}
			}
			Register(b)
		}()
	}
}

// A title names only the parameters that apply and are set.
func TestDescribeLeavesOutWhatDoesNotApply(t *testing.T) {
	s := &Spec{Name: "m", Params: []Param{
		{Name: "solver", Kind: Choice, Choices: []string{"newton", "gd"}, Default: "newton"},
		{Name: "lr", Kind: Float, Default: 0.1, Min: 0, Max: 1, When: &Applies{Param: "solver", In: []string{"gd"}}},
		{Name: "loss", Kind: Text, Default: ""},
	}}
	if got := s.Describe(s.Defaults()); got != "solver=newton" {
		t.Errorf("newton: %q", got)
	}
	v := s.Defaults()
	v["solver"], v["loss"] = "gd", "0,1;1,0"
	if got := s.Describe(v); got != "solver=gd lr=0.1 loss=0,1;1,0" {
		t.Errorf("gd: %q", got)
	}
}

// A list parameter is parsed once into []int, each element checked against
// the range, and formatted back as it is written.
func TestIntsParameter(t *testing.T) {
	spec := Spec{Name: "net", Params: []Param{{Name: "hidden", Kind: Ints, Default: []int{100}, Min: 1, Max: 4096, Help: "widths"}}}
	v, err := spec.Parse(map[string]string{"hidden": " 64, 32 ,8"})
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Ints("hidden"); len(got) != 3 || got[0] != 64 || got[1] != 32 || got[2] != 8 {
		t.Errorf("hidden = %v, want [64 32 8]", got)
	}
	if got := Format(v["hidden"]); got != "64,32,8" {
		t.Errorf("Format = %q", got)
	}
	if d := spec.Defaults().Ints("hidden"); len(d) != 1 || d[0] != 100 {
		t.Errorf("default = %v", d)
	}
	for text, want := range map[string]string{
		"":       "empty",
		"64,0":   `"0" is out of range (ints in [1, 4096], comma-separated)`,
		"64,,8":  `"" is not a whole number`,
		"64,2.5": `"2.5" is not a whole number`,
		"1e9":    "out of range",
		"64;32":  "not a whole number",
	} {
		_, err := spec.Parse(map[string]string{"hidden": text})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "parameter hidden") {
			t.Errorf("hidden=%q: %v, want an error saying %q", text, err, want)
		}
	}
}

// A simpler direction goes with a number and says lower or higher; Number
// goes with a text: a spec that says otherwise is refused when registered.
func TestSimplerAndNumberAreChecked(t *testing.T) {
	for _, p := range []Param{
		{Name: "c", Kind: Choice, Choices: []string{"a"}, Default: "a", Simpler: SimplerLower},
		{Name: "k", Kind: Int, Default: 1, Min: 1, Max: 9, Simpler: "smaller"},
		{Name: "x", Kind: Float, Default: 1.0, Min: 0, Max: 9, Number: true},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("parameter %s (Simpler %q, Number %v) was registered", p.Name, p.Simpler, p.Number)
				}
			}()
			Register(Spec{Name: "test-simpler-bad", New: func(Values) (Model, error) { return constModel{}, nil }, Tasks: []Task{0}, Params: []Param{p}})
		}()
	}
}

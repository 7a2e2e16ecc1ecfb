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

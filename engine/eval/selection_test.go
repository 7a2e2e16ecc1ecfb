package eval

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
)

// signalAndNoise has two features whose sum tells the classes apart (each
// alone, three rows in four) and three of noise, in between them.
func signalAndNoise() *datasets.Dataset {
	r := rand.New(rand.NewPCG(5, 9))
	n := 120
	X := mat.NewDense(n, 5, nil)
	y := make([]float64, n)
	for i := range n {
		g1, g2 := r.NormFloat64(), r.NormFloat64()
		if g1+g2 > 0 {
			y[i] = 1
		}
		X.SetRow(i, []float64{r.NormFloat64(), g1, r.NormFloat64(), g2, r.NormFloat64()})
	}
	return &datasets.Dataset{Name: "signal", X: X, Y: y, Classes: []string{"no", "yes"}, Task: datasets.Classification,
		Features: []datasets.Column{{Name: "noise1"}, {Name: "good1"}, {Name: "noise2"}, {Name: "good2"}, {Name: "noise3"}}}
}

// Forward and backward selection run inside each training part, scored
// by an inner cross-validation, and the result says which features each
// part kept; the shown model's preprocessing keeps the final selection.
func TestWrapperSelection(t *testing.T) {
	d := signalAndNoise()
	for _, sel := range []string{"forward:2", "backward:2"} {
		res := run(t, d, "logistic", nil, Options{Folds: 4, Seed: 1, Pipeline: Pipeline{Select: sel}})
		if len(res.Parts) != 5 {
			t.Fatalf("%s: parts %+v", sel, res.Parts)
		}
		for _, p := range res.Parts {
			if !slices.Equal(p.Features, []string{"good1", "good2"}) {
				t.Errorf("%s fold %d kept %v", sel, p.Fold, p.Features)
			}
		}
		if got := res.Prep.Selected(); !slices.Equal(got, []int{1, 3}) {
			t.Errorf("%s: the shown model's preprocessing selects %v", sel, got)
		}
		b, _ := json.Marshal(res)
		if !strings.Contains(string(b), `"features_kept":["good1","good2"]`) {
			t.Errorf("%s: JSON %s", sel, b)
		}
	}
	// Forward without k stops when no feature helps.
	res := run(t, d, "logistic", nil, Options{Folds: 4, Seed: 1, Pipeline: Pipeline{Select: "forward"}})
	for _, p := range res.Parts {
		if len(p.Features) == 5 || !slices.Contains(p.Features, "good1") || !slices.Contains(p.Features, "good2") {
			t.Errorf("forward fold %d kept %v", p.Fold, p.Features)
		}
	}
	if _, err := ParseSelection("sideways:2"); err == nil || !strings.Contains(err.Error(), `"sideways:2" names no selection`) {
		t.Errorf("an unknown selection: %v", err)
	}
	if _, err := ParseSelection("forward:0"); err == nil {
		t.Error("forward:0 accepted")
	}
}

// A clustering takes no selection and no rebalancing, and its form does
// not offer them.
func TestUnsupervisedRefusesSelection(t *testing.T) {
	d := signalAndNoise()
	km := spec(t, "kmeans")
	for _, pl := range []Pipeline{{Select: "forward"}, {Resample: ResampleOver}} {
		_, err := Run(t.Context(), d, km, nil, Options{Pipeline: pl}, nil)
		if err == nil || !strings.Contains(err.Error(), "kmeans does clustering") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v", pl, err)
		}
	}
	for _, s := range SettingsFor(km, d) {
		if s.Name == SettingSelect || s.Name == SettingResample || s.Name == SettingClassWeight {
			t.Errorf("the form of kmeans offers %s", s.Name)
		}
	}
}

// A pipeline edited by hand into a choice the settings do not offer is
// refused in one line naming the setting.
func TestPipelineCheck(t *testing.T) {
	d := signalAndNoise()
	for _, c := range []struct {
		pl   Pipeline
		want string
	}{
		{Pipeline{Scale: "max-abs"}, `scaling: "max-abs" is not one of min-max, robust`},
		{Pipeline{Encode: "binary"}, `nominal encoding: "binary"`},
		{Pipeline{Resample: "adasyn"}, `resample: "adasyn"`},
		{Pipeline{Bins: 1, Discretize: DiscretizeWidth}, "bins: 1 is out of range"},
		{Pipeline{Select: "gini:2"}, `select features: "gini:2" names no selection`},
	} {
		_, err := Run(t.Context(), d, spec(t, "logistic"), nil, Options{Pipeline: c.pl}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want %q", c.pl, err, c.want)
		}
	}
}

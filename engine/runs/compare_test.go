package runs

import (
	"math"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/gda"
)

// foldRun is a finished record whose folds scored accuracy as given.
func foldRun(acc []float64, base float64) *Record {
	folds := make([]map[string]float64, len(acc))
	mean := 0.0
	for i, a := range acc {
		folds[i] = map[string]float64{"accuracy": a}
		mean += a / float64(len(acc))
	}
	return &Record{Result: &eval.Result{Folds: folds,
		Metrics:  map[string]float64{"accuracy": mean},
		Baseline: map[string]float64{"accuracy": base}}}
}

// The corrected resampled t statistic; reference values from scipy 1.10
// (t = mean(d) / (sd(d, ddof=1) * sqrt(1/k + 1/(k-1))), critical value
// stats.t.ppf(0.975, 9) = 2.2622): 2.9824 for d1, 0.3990 for d2.
var (
	d1 = []float64{0.01, 0.02, 0.0, 0.03, 0.01, 0.02, 0.01, 0.0, 0.02, 0.01}
	d2 = []float64{0.01, -0.02, 0.0, 0.03, -0.01, 0.02, -0.01, 0.0, 0.02, -0.01}
)

func TestCorrectedT(t *testing.T) {
	if m, sig := correctedT(d1); !sig || math.Abs(m-0.013) > 1e-12 {
		t.Errorf("d1: mean %v significant %v; want 0.013, true (t = 2.98 > 2.26)", m, sig)
	}
	if _, sig := correctedT(d2); sig {
		t.Error("d2: t = 0.40 is not significant")
	}
}

// a run was marked better when the difference was
// within noise.
func TestVersusWithinNoise(t *testing.T) {
	base := []float64{0.90, 0.92, 0.88, 0.91, 0.89, 0.93, 0.90, 0.87, 0.92, 0.90}
	a, b := foldRun(base, 0.33), foldRun(base, 0.33)
	for i := range b.Result.Folds {
		b.Result.Folds[i]["accuracy"] += d2[i] // a tiny, noisy difference
	}
	if v := Versus("accuracy", b, a); v != Tie {
		t.Errorf("noise: %v, want within noise", v)
	}
	c := foldRun(base, 0.33)
	for i := range c.Result.Folds {
		c.Result.Folds[i]["accuracy"] += d1[i]
	}
	if v := Versus("accuracy", c, a); v != Better {
		t.Errorf("consistent gain: %v, want better", v)
	}
	if v := Versus("accuracy", a, c); v != Worse {
		t.Errorf("consistent loss: %v, want worse", v)
	}
	// error: lower is better.
	for _, r := range []*Record{a, c} {
		for _, f := range r.Result.Folds {
			f["error"] = 1 - f["accuracy"]
		}
	}
	if v := Versus("error", c, a); v != Better {
		t.Errorf("lower error: %v, want better", v)
	}
	// On other data the same gain declares nothing.
	c.Data.Source = "wine"
	if v := Versus("error", c, a); v != Unknown {
		t.Errorf("runs on other data: %v, want no verdict", v)
	}
	c.Data.Source = ""
	if v := VersusBaseline("accuracy", a); v != Better {
		t.Errorf("0.90 against a 0.33 baseline: %v", v)
	}
	if v := VersusBaseline("accuracy", foldRun([]float64{0.30, 0.40, 0.35, 0.31, 0.36}, 0.34)); v != Tie {
		t.Errorf("around the baseline: %v, want within noise", v)
	}
	hold := &Record{Result: &eval.Result{Metrics: map[string]float64{"r2": 0.5}, Baseline: map[string]float64{"r2": 0}}}
	if v := VersusBaseline("r2", hold); v != Unknown {
		t.Errorf("one hold-out R²: %v, want no spread", v)
	}
}

// The comparison declared a winner between runs on different
// data or different folds. Incomparable says why two runs cannot be
// compared, and nothing for runs on the same rows and folds.
func TestIncomparable(t *testing.T) {
	spec, err := engine.Lookup("gnb")
	if err != nil {
		t.Fatal(err)
	}
	run := func(src, target string, opt eval.Options) *Record {
		data := Data{Source: src, Target: target}
		d, err := data.Open()
		if err != nil {
			t.Fatal(err)
		}
		return New(1, data, d, spec, spec.Defaults(), opt)
	}
	cv10 := eval.Options{Folds: 10, Seed: 1}
	for _, tc := range []struct {
		name string
		a, b *Record
		want string
	}{
		{"other datasets", run("iris", "", cv10), run("wine", "", cv10), "runs on different data: iris vs wine"},
		{"a generator's other knobs", run("moons(n=50)", "", cv10), run("moons(n=200)", "", cv10),
			"runs on different data: moons(n=50, noise=0.1, seed=1) vs moons(n=200, noise=0.1, seed=1)"},
		{"other targets", run("iris", "", cv10), run("iris", "petal_width_cm", cv10),
			"runs on different targets: species vs petal_width_cm"},
		{"CV against a hold-out", run("iris", "", cv10), run("iris", "", eval.Options{Split: 0.3, Seed: 1}),
			"different evaluation: 10-fold CV vs hold-out 30%"},
		{"other fold counts", run("iris", "", cv10), run("iris", "", eval.Options{Folds: 5, Seed: 1}),
			"different evaluation: 10-fold CV vs 5-fold CV"},
		{"other seeds", run("iris", "", cv10), run("iris", "", eval.Options{Folds: 10, Seed: 2}),
			"different evaluation: seed 1 vs seed 2 draw other folds"},
		{"the default hold-out", run("iris", "", eval.Options{Seed: 1}), run("iris", "", eval.Options{Split: eval.DefaultOptions().Split, Seed: 1}), ""},
		{"the same rows and folds", run("iris", "", cv10), run("iris", "species", cv10), ""},
		{"leave-one-out draws nothing", run("iris", "", eval.Options{LOO: true, Seed: 1}), run("iris", "", eval.Options{LOO: true, Seed: 7}), ""},
		{"preprocessing is compared", run("iris", "", cv10), run("iris", "", eval.Options{Folds: 10, Seed: 1, Reduce: 2}), ""},
	} {
		if got := Incomparable(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

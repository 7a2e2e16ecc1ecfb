package runs

import (
	"math"
	"testing"

	"github.com/tealab/tealab/engine/eval"
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

// Issue 9, defect 9: a run was marked better when the difference was
// within noise.
func TestVersusWithinNoise(t *testing.T) {
	base := []float64{0.90, 0.92, 0.88, 0.91, 0.89, 0.93, 0.90, 0.87, 0.92, 0.90}
	a, b := foldRun(base, 0.33), foldRun(base, 0.33)
	for i := range b.Result.Folds {
		b.Result.Folds[i]["accuracy"] += d2[i] // a tiny, noisy difference
	}
	if v := Versus("accuracy", b, a, true); v != Tie {
		t.Errorf("noise: %v, want within noise", v)
	}
	c := foldRun(base, 0.33)
	for i := range c.Result.Folds {
		c.Result.Folds[i]["accuracy"] += d1[i]
	}
	if v := Versus("accuracy", c, a, true); v != Better {
		t.Errorf("consistent gain: %v, want better", v)
	}
	if v := Versus("accuracy", a, c, true); v != Worse {
		t.Errorf("consistent loss: %v, want worse", v)
	}
	// error: lower is better.
	for _, r := range []*Record{a, c} {
		for _, f := range r.Result.Folds {
			f["error"] = 1 - f["accuracy"]
		}
	}
	if v := Versus("error", c, a, true); v != Better {
		t.Errorf("lower error: %v, want better", v)
	}
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

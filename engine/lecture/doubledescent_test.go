package lecture

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

func ddRun(t *testing.T, settings map[string]string, show func(Frame)) (DDResult, error) {
	t.Helper()
	e, err := Lookup("double-descent")
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Parse(settings)
	if err != nil {
		t.Fatal(err)
	}
	if show == nil {
		show = func(Frame) {}
	}
	res, err := e.Run(context.Background(), In{Values: v}, show)
	if res == nil {
		return DDResult{}, err
	}
	return res.(DDResult), err
}

func ddRow(t *testing.T, r DDResult, p int) DDRow {
	t.Helper()
	for _, row := range r.Rows {
		if row.Features == p {
			return row
		}
	}
	t.Fatalf("no row with %d features", p)
	return DDRow{}
}

// The least-norm solution against numpy's pinv and lstsq (and a ridge
// solution against its closed form), from testdata/doubledescent_pinv.py.
func TestDDSolveMatchesNumpy(t *testing.T) {
	b, err := os.ReadFile("testdata/doubledescent_pinv.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []struct {
			Name   string
			A      [][]float64
			Y      []float64
			Lambda float64
			W      []float64
		}
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Cases) < 8 {
		t.Fatalf("%d cases in the reference file", len(ref.Cases))
	}
	for _, c := range ref.Cases {
		a := mat.NewDense(len(c.A), len(c.A[0]), nil)
		for i, row := range c.A {
			a.SetRow(i, row)
		}
		w, err := bvSolve(a, c.Y, c.Lambda)
		if err != nil {
			t.Fatal(c.Name, err)
		}
		for j := range c.W {
			if math.Abs(w[j]-c.W[j]) > 1e-9*(1+math.Abs(c.W[j])) {
				t.Errorf("%s: w[%d] = %.12g, numpy %.12g", c.Name, j, w[j], c.W[j])
			}
		}
	}
}

// The done-when: with the defaults (n = 40), the training error is 0 from
// p = n on (float noise: below 1e-20, against labels of variance 1 + σ²),
// the test error at p = n is above that at p = n/2 and at p = 4n by more
// than their standard errors, and it is the largest of all p; checked for
// seeds 1 to 3. The training error never rises with p: a trial's features
// are nested, so each fit has the last one's columns to use.
func TestDDDoubleDescent(t *testing.T) {
	for seed := 1; seed <= 3; seed++ {
		settings := map[string]string{"seed": strconv.Itoa(seed)}
		if seed > 1 { // the default list for seed 1, the threshold's neighbourhood for the others
			settings["features"] = "5,10,20,30,38..42,45,50,80,160"
		}
		r, err := ddRun(t, settings, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := r.Threshold
		if n != 40 {
			t.Fatalf("threshold %d, want the 40 points", n)
		}
		peak := ddRow(t, r, n)
		for _, p := range []int{n / 2, 4 * n} {
			other := ddRow(t, r, p)
			if peak.TestError-peak.TestErrorSE <= other.TestError+other.TestErrorSE {
				t.Errorf("seed %d: test error at p = n %.4g ± %.2g not above p = %d's %.4g ± %.2g", seed, peak.TestError, peak.TestErrorSE, p, other.TestError, other.TestErrorSE)
			}
			if peak.TestErrorMedian <= other.TestErrorMedian {
				t.Errorf("seed %d: median test error at p = n %.4g not above p = %d's %.4g", seed, peak.TestErrorMedian, p, other.TestErrorMedian)
			}
		}
		for i, row := range r.Rows {
			if row.TestError > peak.TestError && row.Features != n {
				t.Errorf("seed %d: test error at p = %d (%.4g) above the threshold's %.4g", seed, row.Features, row.TestError, peak.TestError)
			}
			if row.Features >= n && row.TrainError > 1e-20 {
				t.Errorf("seed %d: training error %.3g at p = %d ≥ n", seed, row.TrainError, row.Features)
			}
			if row.Features < n && row.TrainError < 1e-6 {
				t.Errorf("seed %d: training error %.3g at p = %d < n: interpolating already", seed, row.TrainError, row.Features)
			}
			if i > 0 && row.TrainError > r.Rows[i-1].TrainError*(1+1e-9)+1e-24 {
				t.Errorf("seed %d: training error rises from p = %d to %d", seed, r.Rows[i-1].Features, row.Features)
			}
		}
		// the second descent goes below the first: the least test error
		// is beyond the threshold
		best := r.Rows[0]
		for _, row := range r.Rows {
			if row.TestError < best.TestError {
				best = row
			}
		}
		if best.Features <= 2*n {
			t.Errorf("seed %d: least test error at p = %d, want beyond 2n", seed, best.Features)
		}
	}
}

// Ridge flattens the peak: at p = n a penalty of 0.1 takes the test error
// below a tenth of the least-norm fit's, and the cosine features show the
// peak as the ReLUs do.
func TestDDRidgeAndCosine(t *testing.T) {
	plain, err := ddRun(t, map[string]string{"features": "20,40,160"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ridge, err := ddRun(t, map[string]string{"features": "20,40,160", "ridge": "0.1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := ddRow(t, ridge, 40).TestError, ddRow(t, plain, 40).TestError; a >= b/10 {
		t.Errorf("ridge 0.1 at p = n: test error %.4g, least norm %.4g", a, b)
	}
	if r := ddRow(t, ridge, 40); r.TrainError < 1e-3 {
		t.Errorf("ridge 0.1 interpolates at p = n (training error %.3g)", r.TrainError)
	}
	cos, err := ddRun(t, map[string]string{"features": "20,40,160", "activation": "cos"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := ddRow(t, cos, 40); p.TestError <= 2*ddRow(t, cos, 20).TestError || p.TestError <= 2*ddRow(t, cos, 160).TestError {
		t.Errorf("cos features: no peak at p = n: %+v", cos.Rows)
	}
}

// The same fit by hand for one trial: the scaled features and the
// unscaled ones with λp give the same predictions.
func TestDDScaling(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 0xdd))
	tr := ddDraw(r, 12, 3, 20, 0.3, true)
	for _, p := range []int{5, 12, 20} {
		a := tr.train.Slice(0, 12, 0, p).(*mat.Dense)
		var scaled mat.Dense
		scaled.Scale(1/math.Sqrt(float64(p)), a)
		w1, _ := bvSolve(&scaled, tr.y, 0.2)
		w2, _ := bvSolve(a, tr.y, 0.2*float64(p))
		for j := range w1 {
			if math.Abs(w1[j]/math.Sqrt(float64(p))-w2[j]) > 1e-9*(1+math.Abs(w2[j])) {
				t.Errorf("p=%d: w[%d] scaled %.10g, unscaled %.10g", p, j, w1[j]/math.Sqrt(float64(p)), w2[j])
			}
		}
	}
}

func TestDDFramesLimitsAndRoundTrip(t *testing.T) {
	var frames []Frame
	r, err := ddRun(t, map[string]string{"features": "1..10,40,80", "trials": "3"}, func(f Frame) { frames = append(frames, f) })
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 12 {
		t.Fatalf("%d frames, want one a p", len(frames))
	}
	for i, f := range frames {
		if p := f.Result.(DDResult); f.Done != i+1 || f.Total != 12 || len(p.Rows) != i+1 {
			t.Errorf("frame %d: done %d of %d, %d rows", i, f.Done, f.Total, len(p.Rows))
		}
	}
	a, _ := json.Marshal(r)
	e, _ := Lookup("double-descent")
	back, err := e.Decode(a)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(back); string(a) != string(b) {
		t.Error("the result does not round-trip through its JSON")
	}
	if _, err := ddRun(t, map[string]string{"features": "4000", "trials": "1000", "points": "1000"}, nil); !errors.Is(err, engine.ErrLimit) {
		t.Errorf("a billion feature values: %v, want a limit", err)
	}
	// the extremes the knobs admit
	for _, s := range []map[string]string{
		{"features": "1,2,3", "points": "2", "dim": "1", "trials": "2", "noise": "0"},
		{"features": "1,5", "points": "2", "dim": "200", "trials": "2", "ridge": "1000", "activation": "cos"},
	} {
		if _, err := ddRun(t, s, nil); err != nil {
			t.Errorf("%v: %v", s, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	res, err := e.Run(ctx, In{Values: e.Defaults()}, func(Frame) {
		if n++; n == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || len(res.(DDResult).Rows) != 2 {
		t.Errorf("cancelled: %v with %d rows", err, len(res.(DDResult).Rows))
	}
}

package lecture

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

func runHoeffdingWith(t *testing.T, settings map[string]string) *HoeffdingResult {
	return runTo[HoeffdingResult](t, "hoeffding", settings)
}

// The PMFs at n = 20 and 500, risk 0.25 (the notes' figures), against
// scipy.stats.binom.pmf, and the exact tails against binom.cdf + binom.sf:
// testdata/hoeffding_binom.py.
func TestHoeffdingMatchesScipy(t *testing.T) {
	b, err := os.ReadFile("testdata/hoeffding_binom.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		PMF  map[string][]float64 `json:"pmf"`
		Tail map[string]float64   `json:"tail"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	r := runHoeffdingWith(t, map[string]string{"n": "20,500", "risk": "0.25"})
	if len(r.Samples) != 2 {
		t.Fatalf("%d samples", len(r.Samples))
	}
	for _, s := range r.Samples {
		want := ref.PMF[strconv.Itoa(s.N)]
		if len(s.PMF) != s.N+1 || len(want) != s.N+1 {
			t.Fatalf("n=%d: %d PMF values, scipy %d", s.N, len(s.PMF), len(want))
		}
		sum := 0.0
		for k, p := range s.PMF {
			sum += p
			if want[k] > 1e-300 && math.Abs(p-want[k]) > 1e-12*want[k] {
				t.Errorf("n=%d k=%d: pmf %.17g, scipy %.17g (rel %.2g)", s.N, k, p, want[k], math.Abs(p-want[k])/want[k])
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("n=%d: PMF sums to %.17g", s.N, sum)
		}
		if math.Abs(s.Mean-0.25) > 1e-13 || math.Abs(s.SD-math.Sqrt(0.25*0.75/float64(s.N))) > 1e-12 {
			t.Errorf("n=%d: mean %g, sd %g; want 0.25, √(R(1−R)/n)", s.N, s.Mean, s.SD)
		}
		if w := ref.Tail[strconv.Itoa(s.N)]; math.Abs(s.Tail-w) > 1e-12*w {
			t.Errorf("n=%d: exact tail %.17g, scipy %.17g", s.N, s.Tail, w)
		}
	}
	// The curve's tails, summed from the edges outward, agree with scipy
	// at every n it has a reference for (the knob's n are on the curve).
	r = runHoeffdingWith(t, map[string]string{"n": "20,100,200,500"})
	seen := 0
	for _, p := range r.Curve {
		if w, ok := ref.Tail[strconv.Itoa(p.N)]; ok {
			seen++
			if math.Abs(p.Tail-w) > 1e-12*w {
				t.Errorf("curve n=%d: tail %.17g, scipy %.17g", p.N, p.Tail, w)
			}
		}
	}
	if seen != 4 {
		t.Errorf("the curve holds %d of the n 20, 100, 200, 500", seen)
	}
}

// The notes: ε = 0.1 at n = 200 bounds the tail by 2e^(−4) ≈ 0.0366
// (Shewchuk: "it takes at least 200 training points"); Verma N32: m = 100,
// ε = 0.1 gives 2e^(−2) ≈ 0.2707. The exact tails lie below them.
func TestHoeffdingBoundWorkedExamples(t *testing.T) {
	r := runHoeffdingWith(t, map[string]string{"n": "100,200", "epsilon": "0.1"})
	want := map[int]float64{100: 0.2707, 200: 0.0366}
	for _, s := range r.Samples {
		if math.Abs(s.Bound-want[s.N]) > 5e-5 {
			t.Errorf("n=%d: bound %.6g, want %g", s.N, s.Bound, want[s.N])
		}
		if !(s.Tail < s.Bound) {
			t.Errorf("n=%d: exact tail %g not below the bound %g", s.N, s.Tail, s.Bound)
		}
	}
	if b := HoeffdingBound(200, 0.1); math.Abs(b-2*math.Exp(-4)) > 1e-16 {
		t.Errorf("2e^(−4): %.17g", b)
	}
	// The bound is raw: above 1 for small n.
	if b := HoeffdingBound(1, 0.1); !(b > 1.9) {
		t.Errorf("n=1: bound %g, want 2e^(−0.02) ≈ 1.96", b)
	}
	for _, p := range r.Curve {
		if p.Tail > p.Bound+1e-15 {
			t.Errorf("n=%d: exact tail %g above Hoeffding's %g", p.N, p.Tail, p.Bound)
		}
	}
}

// ε = 0.1, δ = 0.05, Π = 1: ln(40)/0.02 = 184.4… → 185; Π multiplies
// inside the log.
func TestHoeffdingSampleSize(t *testing.T) {
	r := runHoeffdingWith(t, map[string]string{})
	if r.SampleSize != 185 || math.Abs(r.SampleSizeExact-math.Log(40)/0.02) > 1e-9 {
		t.Errorf("sample size %d (%g), want 185 (ln 40/0.02)", r.SampleSize, r.SampleSizeExact)
	}
	// Verma's Occam bound, corrected (the proof's 2 inside the log):
	// (2/ε²)·ln(2/δ) = 200·ln 40 = 737.8 → 738, four times the above
	if r.ERMSampleSize != 738 || math.Abs(r.ERMSampleSizeExact-200*math.Log(40)) > 1e-9 {
		t.Errorf("ERM sample size %d (%g), want 738 (200 ln 40)", r.ERMSampleSize, r.ERMSampleSizeExact)
	}
	r = runHoeffdingWith(t, map[string]string{"dichotomies": "1000"})
	if want := int(math.Ceil(math.Log(40000) / 0.02)); r.SampleSize != want {
		t.Errorf("Π = 1000: sample size %d, want %d", r.SampleSize, want)
	}
	// 2Π/δ = e^(2ε²n) exactly at a whole n: ε = 0.5, Π = 1, δ = 2e^(−1)
	// gives 1/(2·0.25) = 2, not 3.
	if n, _ := HoeffdingSampleSize(0.5, 2*math.Exp(-1), 1); n != 2 {
		t.Errorf("a whole quotient: %d, want 2", n)
	}
	// the uniform ε at n = sample size is at most ε
	for _, s := range runHoeffdingWith(t, map[string]string{"n": "185"}).Samples {
		if !(s.Uniform <= 0.1) || !(s.Uniform > 0.099) {
			t.Errorf("uniform ε at n=185: %g", s.Uniform)
		}
	}
}

// A tie is not in the strict tail: at n = 20, R = 0.25, ε = 0.1 the counts
// 3 and 7 (|k − 5| = 2 = nε) are out, 2 and 8 in.
func TestHoeffdingTiesAreNotInTheTail(t *testing.T) {
	for k, in := range map[int]bool{2: true, 3: false, 7: false, 8: true} {
		if got := hoeffdingInTail(20, k, 0.25, 0.1); got != in {
			t.Errorf("k=%d: in the tail %v, want %v", k, got, in)
		}
	}
}

// The extremes of the knobs run, their JSON finite, the PMF summing to 1.
func TestHoeffdingExtremes(t *testing.T) {
	for _, s := range []map[string]string{
		{"n": "1,2,100000", "risk": "0.001", "epsilon": "0.001", "delta": "1e-12", "dichotomies": "1e300"},
		{"n": "1", "risk": "0.999", "epsilon": "1"},
	} {
		r := runHoeffdingWith(t, s)
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
		for _, smp := range r.Samples {
			sum := 0.0
			for _, p := range smp.PMF {
				sum += p
			}
			if math.Abs(sum-1) > 1e-10 {
				t.Errorf("%v n=%d: PMF sums to %.17g", s, smp.N, sum)
			}
		}
		if len(r.Curve) > hoeffdingMaxPoints {
			t.Errorf("%d curve points", len(r.Curve))
		}
	}
	e, _ := Lookup("hoeffding")
	v, _ := e.Parse(map[string]string{"n": "1,2,3,4,5"})
	if rec := Start(context.Background(), e, In{Values: v}, nil); rec.Status != Failed {
		t.Errorf("five n: status %s", rec.Status)
	}
}

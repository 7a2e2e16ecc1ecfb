package gda

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCancerExample is the worked example of Shewchuk, Concise Machine
// Learning, lecture 6:
// P(cancer) = 0.1; P(job|cancer) = miner 20%, farmer 50%, other 30%;
// P(job|no cancer) = 1%, 10%, 89%. A false negative costs 5, a false positive 1.
// Shewchuk gives r*(miner) = r*(farmer) = cancer, r*(other) = no cancer, and
// Bayes risk 0.1(5×0.3) + 0.9(1×0.01 + 1×0.1) = 0.249; the posterior
// P(cancer|farmer) = 5/14.
func TestCancerExample(t *testing.T) {
	const no, cancer = 0, 1
	prior := []float64{0.9, 0.1}
	likelihood := [][]float64{ // [class][job]: miner, farmer, other
		{0.01, 0.10, 0.89},
		{0.20, 0.50, 0.30},
	}
	// Posteriors by Bayes' rule, one row per job.
	post := mat.NewDense(3, 2, nil)
	pJob := make([]float64, 3)
	for j := 0; j < 3; j++ {
		for c := 0; c < 2; c++ {
			pJob[j] += likelihood[c][j] * prior[c]
		}
		for c := 0; c < 2; c++ {
			post.Set(j, c, likelihood[c][j]*prior[c]/pJob[j])
		}
	}
	if got := post.At(1, cancer); math.Abs(got-5.0/14) > 1e-15 {
		t.Fatalf("P(cancer|farmer) = %v, want 5/14", got)
	}
	if math.Abs(pJob[1]-0.14) > 1e-15 {
		t.Fatalf("P(farmer) = %v, want 0.14", pJob[1])
	}
	L, err := ParseLoss("0,1;5,0") // row = truth: no cancer, cancer
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		loss *mat.Dense
		want []float64 // miner, farmer, other
		risk float64
	}{
		{"asymmetric loss", L, []float64{cancer, cancer, no}, 0.249},
		// Under the 0-1 loss only the miner (posterior 0.69) is diagnosed:
		// risk = P(miner)P(no|miner) + P(farmer)P(cancer|farmer) + P(other)P(cancer|other)
		//      = 0.009 + 0.05 + 0.03 = 0.089.
		{"0-1 loss", nil, []float64{cancer, no, no}, 0.089},
	} {
		got := Decide(post, tc.loss)
		for j := range got {
			if got[j] != tc.want[j] {
				t.Errorf("%s: decisions %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		// Bayes risk = Σ_x P(x) Σ_i L(i, r(x)) P(i|x).
		loss := tc.loss
		if loss == nil {
			loss, _ = ParseLoss("0,1;1,0")
		}
		R := ConditionalRisk(post, loss)
		risk := 0.0
		for j := range got {
			risk += pJob[j] * R.At(j, int(got[j]))
		}
		if math.Abs(risk-tc.risk) > 1e-12 {
			t.Errorf("%s: Bayes risk %v, want %v", tc.name, risk, tc.risk)
		}
	}
}

func TestParseLoss(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []float64 // row-major; nil for the 0-1 loss
		err  string    // substring of the error; "" for none
	}{
		{"", nil, ""},
		{"  ", nil, ""},
		{"0,1;5,0", []float64{0, 1, 5, 0}, ""},
		{" 0, 1 ; 5, 0 ", []float64{0, 1, 5, 0}, ""},
		{"0 1\n5 0\n", []float64{0, 1, 5, 0}, ""},
		{"0,1,1;5,0,1;1,1,0", []float64{0, 1, 1, 5, 0, 1, 1, 1, 0}, ""},
		{"0,1e-3;2.5,0", []float64{0, 1e-3, 2.5, 0}, ""},
		{"0,1;x,0", nil, `row 2, entry 1: "x" is not a number`},
		{"0,-1;1,0", nil, "row 1, entry 2: -1 must be a finite number >= 0"},
		{"0,NaN;1,0", nil, "finite"},
		{"0,Inf;1,0", nil, "finite"},
		{"0,1;1", nil, "row 2 has 1 entries, row 1 has 2"},
		{"0,1,2;1,0,2", nil, "2x3; it must be square"},
		{"0", nil, "at least 2x2"},
		{"0,0;0,0", nil, "all zeros"},
		{"0,1;;1,0", nil, "row 2 is empty"},
	} {
		L, err := ParseLoss(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseLoss(%q) error = %v, want one containing %q", tc.in, err, tc.err)
			}
			if CheckLoss(tc.in) == nil {
				t.Errorf("CheckLoss(%q) accepted it", tc.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseLoss(%q): %v", tc.in, err)
			continue
		}
		if tc.want == nil {
			if L != nil {
				t.Errorf("ParseLoss(%q) = %v, want nil (0-1 loss)", tc.in, mat.Formatted(L))
			}
			continue
		}
		k, _ := L.Dims()
		if !mat.Equal(L, mat.NewDense(k, k, tc.want)) {
			t.Errorf("ParseLoss(%q) = %v, want %v", tc.in, mat.Formatted(L), tc.want)
		}
	}
}

func TestDecide(t *testing.T) {
	post := mat.NewDense(4, 3, []float64{
		0.5, 0.3, 0.2,
		0.2, 0.3, 0.5,
		0.4, 0.4, 0.2, // tie: the first class wins
		0.02, 0.03, 0.95,
	})
	if got, want := Decide(post, nil), []float64{0, 2, 0, 2}; !equal(got, want) {
		t.Errorf("MAP decisions %v, want %v", got, want)
	}
	// Predicting class 2 is very costly when the truth is 0 or 1:
	// risks (by hand) of row 2 (0.2,0.3,0.5): predict 0: 0.3+0.5=0.8,
	// predict 1: 0.2+0.5=0.7, predict 2: 10·0.2+10·0.3=5 -> 1; of row 4
	// (0.02,0.03,0.95): 0.98, 0.97, 0.5 -> 2.
	L, _ := ParseLoss("0,1,10;1,0,10;1,1,0")
	if got, want := Decide(post, L), []float64{0, 1, 0, 2}; !equal(got, want) {
		t.Errorf("risk decisions %v, want %v", got, want)
	}
	R := ConditionalRisk(post, L)
	if got := R.RawRowView(1); math.Abs(got[0]-0.8) > 1e-15 || math.Abs(got[1]-0.7) > 1e-15 || math.Abs(got[2]-5) > 1e-15 {
		t.Errorf("conditional risks of row 2 = %v, want [0.8 0.7 5]", got)
	}
}

func TestMeanLoss(t *testing.T) {
	L, _ := ParseLoss("0,1;5,0")
	truth := []float64{0, 0, 1, 1}
	pred := []float64{0, 1, 0, 1}
	if got, err := meanLoss(truth, pred, L); err != nil || got != 6.0/4 {
		t.Errorf("MeanLoss = %v, %v; want 1.5", got, err)
	}
	if got, err := meanLoss(truth, pred, nil); err != nil || got != 0.5 {
		t.Errorf("MeanLoss (0-1) = %v, %v; want 0.5", got, err)
	}
	if _, err := meanLoss(truth, pred[:3], L); err == nil {
		t.Error("MeanLoss accepted mismatched lengths")
	}
	if _, err := meanLoss([]float64{2}, []float64{0}, L); err == nil || !strings.Contains(err.Error(), "outside the 2x2") {
		t.Errorf("MeanLoss with class 2: %v", err)
	}
}

func equal(a, b []float64) bool {
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

// FuzzParseLoss: ParseLoss never panics, and what it accepts is a square,
// non-negative, finite matrix of at least 2x2 that CheckLoss accepts too.
func FuzzParseLoss(f *testing.F) {
	for _, s := range []string{"", "0,1;5,0", "0 1\n5 0\n", "0,1,1;5,0,1;1,1,0", "0,1;;1,0", "1e308,0;0,-0", "0,1;x,0", ";", "0,NaN;1,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		L, err := ParseLoss(s)
		if (CheckLoss(s) == nil) != (err == nil) {
			t.Fatalf("CheckLoss and ParseLoss disagree on %q", s)
		}
		if err != nil || L == nil {
			return
		}
		r, c := L.Dims()
		if r != c || r < 2 {
			t.Fatalf("%q: %dx%d", s, r, c)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if v := L.At(i, j); v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%q: entry %v", s, v)
				}
			}
		}
	})
}

// meanLoss is the average loss (1/n) Σ L(truth_i, pred_i) of predictions, the
// empirical risk of a decision rule the references report; a nil loss counts errors (0-1 loss).
func meanLoss(truth, pred []float64, loss *mat.Dense) (float64, error) {
	if len(truth) != len(pred) {
		return 0, fmt.Errorf("%d true classes for %d predictions", len(truth), len(pred))
	}
	if len(truth) == 0 {
		return 0, errors.New("no predictions")
	}
	k := math.MaxInt
	if loss != nil {
		k, _ = loss.Dims()
	}
	sum := 0.0
	for i := range truth {
		t, p := int(truth[i]), int(pred[i])
		if t < 0 || p < 0 || t >= k || p >= k {
			return 0, fmt.Errorf("row %d: class %d or %d is outside the %dx%d loss matrix", i+1, t, p, k, k)
		}
		switch {
		case loss != nil:
			sum += loss.At(t, p)
		case t != p:
			sum++
		}
	}
	return sum / float64(len(truth)), nil
}

package lecture

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/tealab/tealab/engine"
)

// bvRun runs the experiment with its defaults and settings.
func bvRun(t *testing.T, settings map[string]string, show func(Frame)) (BVResult, error) {
	t.Helper()
	e, err := Lookup("bias-variance")
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
		return BVResult{}, err
	}
	return res.(BVResult), err
}

// The done-when of the experiment: `tealab lab bias-variance --model poly
// --degree 0..9`. What is tested, for seeds 1 to 5:
//   - bias² at degree 9 is below a tenth of degree 0's (≈ 0.5, the mean of
//     sin² over the interval), and bias² does not rise from degree 0 to 5
//     by more than 0.01: the truth is odd and the design symmetric, so an
//     added even power leaves bias² as it was in expectation (degrees 1
//     and 2, 3 and 4 tie), and the tolerance is 2% of degree 0's bias²,
//     above the estimates' noise at 50 hypotheses;
//   - variance is largest at degree 9, and over 10 times degree 0's;
//   - the test error is U-shaped: its least at degree 3 to 6, above it at
//     both ends.
func TestBVPolyShape(t *testing.T) {
	for seed := 1; seed <= 5; seed++ {
		r, err := bvRun(t, map[string]string{"model": "poly", "degree": "0..9", "seed": strconv.Itoa(seed)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows := r.Rows
		if len(rows) != 10 || r.Complexity != "degree" {
			t.Fatalf("seed %d: %d rows of %s, want 10 degrees", seed, len(rows), r.Complexity)
		}
		if rows[9].Bias2 >= rows[0].Bias2/10 {
			t.Errorf("seed %d: bias² at degree 9 %.4g, not below a tenth of degree 0's %.4g", seed, rows[9].Bias2, rows[0].Bias2)
		}
		for d := 0; d < 5; d++ {
			if rows[d+1].Bias2 > rows[d].Bias2+0.01 {
				t.Errorf("seed %d: bias² rises from degree %d (%.4g) to %d (%.4g)", seed, d, rows[d].Bias2, d+1, rows[d+1].Bias2)
			}
		}
		best := 0
		for d := range rows {
			if d < 9 && rows[d].Variance >= rows[9].Variance {
				t.Errorf("seed %d: variance at degree %d (%.4g) not below degree 9's (%.4g)", seed, d, rows[d].Variance, rows[9].Variance)
			}
			if rows[d].TestError < rows[best].TestError {
				best = d
			}
		}
		if rows[9].Variance <= 10*rows[0].Variance {
			t.Errorf("seed %d: variance at degree 9 %.4g, not 10 times degree 0's %.4g", seed, rows[9].Variance, rows[0].Variance)
		}
		if best < 3 || best > 6 {
			t.Errorf("seed %d: least test error at degree %d, want 3 to 6 (the U's bottom)", seed, best)
		}
		for _, d := range []int{0, 9} {
			if rows[d].TestError <= rows[best].TestError+2*rows[best].TestErrorSE {
				t.Errorf("seed %d: test error at degree %d (%.4g) not above the least (%.4g) by 2 SE", seed, d, rows[d].TestError, rows[best].TestError)
			}
		}
	}
}

// bias² + variance + noise against the Monte-Carlo test error. Given the
// training sets, bias² + variance is mean_h mean_z (h − g)² exactly (the
// variance divides by the number of hypotheses), so the test error
// differs from the sum by D = mean_{h,z} (ε² − σ² − 2(h − g)ε) over the
// fresh test noise ε alone: mean 0, variance Σ (2σ⁴ + 4(h − g)²σ²)/(MZ)².
// The reported SE (the spread of the per-hypothesis errors over √M) is at
// least that standard deviation in expectation, since it counts the
// training sets' spread as well; so |D| ≤ 3 SE holds with probability
// above 99.7% at each degree, and |D| ≤ 4 sd(D) above 99.99%.
func TestBVSumIsTheTestError(t *testing.T) {
	r, err := bvRun(t, map[string]string{"model": "poly", "degree": "0..9"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rows {
		if d := row.TestError - row.Total(); math.Abs(d) > 3*row.TestErrorSE {
			t.Errorf("degree %g: test error %.5g vs bias²+variance+noise %.5g: %.2f SE apart", row.Value, row.TestError, row.Total(), d/row.TestErrorSE)
		}
	}
	// the same, from the fits themselves: the algebraic identity exactly
	// and D against its own standard deviation
	const m, n, sigma = 50, 20, 0.3
	sets := bvDraw(1, m, n, sigma, true)
	gx, gg := bvGridPoints()
	for d := 0; d <= 9; d++ {
		fit := func(x, y, z []float64) ([]float64, error) { return bvPolyFit(x, y, z, d) }
		row, preds, err := bvDecompose(context.Background(), fit, sets, gx, gg, sigma)
		if err != nil {
			t.Fatal(err)
		}
		var direct, vd float64
		for _, p := range preds {
			for j := range p {
				e := p[j] - gg[j]
				direct += e * e
				vd += 2*math.Pow(sigma, 4) + 4*e*e*sigma*sigma
			}
		}
		mz := float64(m * len(gx))
		direct /= mz
		if math.Abs(row.Bias2+row.Variance-direct) > 1e-12*direct {
			t.Errorf("degree %d: bias² + variance %.15g, mean (h − g)² %.15g", d, row.Bias2+row.Variance, direct)
		}
		sd := math.Sqrt(vd) / mz
		if diff := row.TestError - row.Total(); math.Abs(diff) > 4*sd {
			t.Errorf("degree %d: test error − (bias²+variance+noise) = %.3g, %.1f times its sd %.3g", d, diff, diff/sd, sd)
		}
	}
}

// The pointwise decomposition of the degree-0 model against its closed
// form. h = ȳ, the mean of the n labels, the same at every z: so
// E[h] = E[g(x)] and bias²(z) = (E[g(x)] − g(z))², and variance(z) =
// Var(ȳ) at every z. For x uniform on [-1, 1], E[sin πx] = 0 and
// Var(sin πx) = 1/2, so Var(ȳ) = (1/2 + σ²)/n. Stratified, x_i is uniform
// on the i-th of n strips [a_i, b_i], and Var(ȳ) = σ²/n + Σ Var_i/n² with
// Var_i = E_i[sin²] − E_i[sin]², E_i[sin πx] = (cos πa_i − cos πb_i)/(π(b_i −
// a_i)), E_i[sin² πx] = 1/2 − (sin 2πb_i − sin 2πa_i)/(4π(b_i − a_i)).
// With M = 2000 hypotheses the variance estimate (ȳ is near normal) has a
// relative sd of √(2/M) ≈ 3.2%: the test allows 4 of them; h̄ is within
// 4√(Var/M) of E[h].
func TestBVPointwiseDegreeZero(t *testing.T) {
	const m, n, sigma = 2000, 20, 0.3
	for _, design := range []string{"uniform", "stratified"} {
		want := (0.5 + sigma*sigma) / n
		if design == "stratified" {
			var s float64
			for i := range n {
				a, b := -1+2*float64(i)/n, -1+2*float64(i+1)/n
				e1 := (math.Cos(math.Pi*a) - math.Cos(math.Pi*b)) / (math.Pi * (b - a))
				e2 := 0.5 - (math.Sin(2*math.Pi*b)-math.Sin(2*math.Pi*a))/(4*math.Pi*(b-a))
				s += e2 - e1*e1
			}
			want = sigma*sigma/n + s/(n*n)
		}
		sets := bvDraw(7, m, n, sigma, design == "stratified")
		gx, gg := bvGridPoints()
		preds := make([][]float64, m)
		for h := range m {
			p, err := bvPolyFit(sets.x[h], sets.y[h], gx, 0)
			if err != nil {
				t.Fatal(err)
			}
			preds[h] = p
		}
		mean, bias2, variance := bvPointwise(preds, gg)
		tolMean := 4 * math.Sqrt(want/m)
		for j := range gx {
			if math.Abs(variance[j]-want) > 4*math.Sqrt(2.0/m)*want {
				t.Errorf("%s: variance at z=%.3f %.5g, want (1/2+σ²)/n-like %.5g", design, gx[j], variance[j], want)
			}
			if math.Abs(mean[j]) > tolMean {
				t.Errorf("%s: h̄(%.3f) = %.4g, want 0 within %.3g", design, gx[j], mean[j], tolMean)
			}
			// bias² = (h̄ − g)², g² when h̄ = 0: within 2|g|·tol + tol²
			if math.Abs(bias2[j]-gg[j]*gg[j]) > 2*math.Abs(gg[j])*tolMean+tolMean*tolMean {
				t.Errorf("%s: bias² at z=%.3f %.5g, want g² = %.5g", design, gx[j], bias2[j], gg[j]*gg[j])
			}
		}
		if t.Failed() {
			return
		}
	}
}

// bvRef is the reference file made by testdata/biasvariance_fits.py.
type bvRef struct {
	X, Y, Z []float64
	Poly    []struct {
		Degree      int
		Pred, Train []float64
	}
	Ridge []struct {
		Degree int
		Lambda float64
		Pred   []float64
	}
	KNN []struct {
		K    int
		Pred []float64
	} `json:"knn"`
	Tree []struct {
		Depth       int
		Pred, Train []float64
		Leaves      int
	}
}

func TestBVFitsMatchNumpyAndScikitLearn(t *testing.T) {
	b, err := os.ReadFile("testdata/biasvariance_fits.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref bvRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	close := func(what string, got, want []float64, tol float64) {
		t.Helper()
		for i := range want {
			if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
				t.Errorf("%s: prediction %d = %.10g, reference %.10g", what, i, got[i], want[i])
			}
		}
	}
	if len(ref.Poly) == 0 || len(ref.Ridge) == 0 || len(ref.KNN) == 0 || len(ref.Tree) == 0 {
		t.Fatal("the reference file lacks a model")
	}
	for _, p := range ref.Poly {
		got, err := bvPolyFit(ref.X, ref.Y, append(append([]float64{}, ref.Z...), ref.X...), p.Degree)
		if err != nil {
			t.Fatal(err)
		}
		close("polyfit degree "+strconv.Itoa(p.Degree), got, append(append([]float64{}, p.Pred...), p.Train...), 1e-7)
	}
	for _, r := range ref.Ridge {
		got, err := bvRidgeFit(ref.X, ref.Y, ref.Z, r.Degree, r.Lambda)
		if err != nil {
			t.Fatal(err)
		}
		close("ridge λ="+strconv.FormatFloat(r.Lambda, 'g', -1, 64), got, r.Pred, 1e-7)
	}
	for _, k := range ref.KNN {
		close("knn k="+strconv.Itoa(k.K), bvKNN(ref.X, ref.Y, ref.Z, k.K), k.Pred, 1e-12)
	}
	for _, d := range ref.Tree {
		tree := bvTreeFit(ref.X, ref.Y, d.Depth)
		close("tree depth "+strconv.Itoa(d.Depth), tree.predict(append(append([]float64{}, ref.Z...), ref.X...)), append(append([]float64{}, d.Pred...), d.Train...), 1e-12)
		leaves := 0
		for _, l := range tree.left {
			if l < 0 {
				leaves++
			}
		}
		if leaves != d.Leaves {
			t.Errorf("tree depth %d: %d leaves, scikit-learn %d", d.Depth, leaves, d.Leaves)
		}
	}
}

// Equal distances go to the earlier training point; duplicates too.
func TestBVKNNTiesByOrder(t *testing.T) {
	x := []float64{0.5, -0.5, 0.5, 1, -1}
	y := []float64{1, 2, 3, 4, 5}
	cases := []struct {
		z    float64
		k    int
		want float64
	}{
		{0, 1, 1},   // 0.5 (index 0) and -0.5 (1) tie: the first
		{0, 2, 1.5}, // then -0.5
		{0, 3, 2},   // then the second 0.5
		{0.5, 2, 2}, // both 0.5s
		{0.75, 3, (1 + 3 + 4) / 3.0},
		{-0.75, 2, 3.5}, // -0.5 and -1 tie at 0.25: -0.5 is earlier (index 1)
		{-0.75, 1, 2},
	}
	for _, c := range cases {
		if got := bvKNN(x, y, []float64{c.z}, c.k)[0]; math.Abs(got-c.want) > 1e-12 {
			t.Errorf("z=%g k=%d: %g, want %g", c.z, c.k, got, c.want)
		}
	}
}

func TestBVModelsRunAndRefuseTheImpossible(t *testing.T) {
	for _, model := range []string{"ridge", "knn", "tree"} {
		r, err := bvRun(t, map[string]string{"model": model}, nil)
		if err != nil {
			t.Fatal(model, err)
		}
		first, last := r.Rows[0], r.Rows[len(r.Rows)-1]
		simple, complex := first, last
		if r.Simpler == engine.SimplerHigher {
			simple, complex = last, first
		}
		// at every model's ends: the simplest has more bias² and less
		// variance than the most complex
		if simple.Bias2 <= complex.Bias2 || simple.Variance >= complex.Variance {
			t.Errorf("%s: simplest %s=%g bias² %.4g variance %.4g; most complex %g bias² %.4g variance %.4g",
				model, r.Complexity, simple.Value, simple.Bias2, simple.Variance, complex.Value, complex.Bias2, complex.Variance)
		}
	}
	for _, bad := range []map[string]string{
		{"model": "poly", "degree": "0..20", "points": "20"},
		{"model": "knn", "k": "1..21", "points": "20"},
	} {
		if _, err := bvRun(t, bad, nil); !errors.Is(err, engine.ErrLimit) {
			t.Errorf("%v: %v, want a limit", bad, err)
		}
	}
	// the extremes the knobs admit run without a panic
	for _, s := range []map[string]string{
		{"model": "poly", "degree": "1", "points": "2", "hypotheses": "2", "noise": "0"},
		{"model": "ridge", "lambda": "1e-12,1e6", "ridge_degree": "20", "points": "2", "hypotheses": "2"},
		{"model": "knn", "k": "2", "points": "2", "hypotheses": "2", "design": "uniform"},
		{"model": "tree", "depth": "30", "points": "2", "hypotheses": "2", "noise": "0"},
	} {
		if _, err := bvRun(t, s, nil); err != nil {
			t.Errorf("%v: %v", s, err)
		}
	}
}

func TestBVFramesShowAndRoundTrip(t *testing.T) {
	var frames []Frame
	r, err := bvRun(t, nil, func(f Frame) { frames = append(frames, f) })
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 10 {
		t.Fatalf("%d frames, want one a degree", len(frames))
	}
	for i, f := range frames {
		p := f.Result.(BVResult)
		if f.Done != i+1 || f.Total != 10 || len(p.Rows) != i+1 || p.Curves == nil || p.Curves.Index != i {
			t.Errorf("frame %d: done %d of %d, %d rows, curves %+v", i, f.Done, f.Total, len(p.Rows), p.Curves)
		}
	}
	best := 0
	for i, row := range r.Rows {
		if row.TestError < r.Rows[best].TestError {
			best = i
		}
	}
	if r.Curves == nil || r.Curves.Index != best || len(r.Curves.Hypotheses) != 50 || len(r.Curves.Mean) != bvGrid {
		t.Errorf("show=best: curves of row %v, want %d with 50 hypotheses", r.Curves, best)
	}
	for show, want := range map[string]int{"first": 0, "last": 9} {
		r, err := bvRun(t, map[string]string{"show": show}, nil)
		if err != nil || r.Curves.Index != want {
			t.Errorf("show=%s: curves of row %d (%v), want %d", show, r.Curves.Index, err, want)
		}
	}
	again, _ := bvRun(t, nil, nil)
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Error("the same seed gave another result")
	}
	e, _ := Lookup("bias-variance")
	back, err := e.Decode(a)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := json.Marshal(back)
	if string(a) != string(c) {
		t.Error("the result does not round-trip through its JSON")
	}
}

func TestBVCancelled(t *testing.T) {
	e, _ := Lookup("bias-variance")
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	res, err := e.Run(ctx, In{Values: e.Defaults()}, func(Frame) {
		if n++; n == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want cancelled", err)
	}
	if r := res.(BVResult); len(r.Rows) != 3 {
		t.Errorf("%d rows after cancelling at the third, want 3", len(r.Rows))
	}
}

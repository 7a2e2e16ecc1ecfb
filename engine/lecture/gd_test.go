package lecture

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/tealab/tealab/engine"
)

// runGDWith runs experiment gd through its registry, as `tealab lab gd`
// does, with the settings given.
func runGDWith(t *testing.T, settings map[string]string) *GDResult {
	return runTo[GDResult](t, "gd", settings)
}

func gdClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// On a bowl a1·w1² + a2·w2², GD's step is w ← (1 − 2εa)w per axis, so
// w_t = (1 − 2εa)^t·w_0: the notes' lecture 5 figures, checked point by
// point, and each cost the cost of its point.
func TestGDBowlsFollowTheClosedForm(t *testing.T) {
	for _, c := range []struct {
		surface string
		a       [2]float64
	}{{"quadratic", [2]float64{2, 1}}, {"ill", [2]float64{10, 1}}} {
		r := runGDWith(t, map[string]string{"surface": c.surface, "lr": "0.105,0.055", "steps": "20"})
		if len(r.Trajectories) != 2 {
			t.Fatalf("%s: %d trajectories, want 2", c.surface, len(r.Trajectories))
		}
		for k, lr := range []float64{0.105, 0.055} {
			tr := r.Trajectories[k]
			if tr.Method != "gd" || tr.LR != lr || len(tr.Points) != 21 || len(tr.Cost) != 21 || tr.Diverged {
				t.Fatalf("%s ε=%v: method %s lr %v, %d points, diverged %v", c.surface, lr, tr.Method, tr.LR, len(tr.Points), tr.Diverged)
			}
			for step, p := range tr.Points {
				for i := range 2 {
					want := math.Pow(1-2*lr*c.a[i], float64(step)) * r.Start[i]
					if !gdClose(p[i], want, 1e-12) {
						t.Errorf("%s ε=%v step %d: w%d = %.17g, want %.17g", c.surface, lr, step, i+1, p[i], want)
					}
				}
				if want := c.a[0]*p[0]*p[0] + c.a[1]*p[1]*p[1]; !gdClose(tr.Cost[step], want, 1e-14) {
					t.Errorf("%s ε=%v step %d: cost %g, not the point's %g", c.surface, lr, step, tr.Cost[step], want)
				}
			}
			if f := tr.Factors; f == nil || !gdClose(f[0], 1-2*lr*c.a[0], 1e-15) || !gdClose(f[1], 1-2*lr*c.a[1], 1e-15) {
				t.Errorf("%s ε=%v: factors %v", c.surface, lr, tr.Factors)
			}
		}
	}
	// The notes: with ε = 0.105 the ill-conditioned bowl diverges in w1
	// (factor −1.1); ε = 0.055 converges, slowly in w2 (factor 0.89).
	ill := runGDWith(t, map[string]string{"surface": "ill"})
	div, slow := ill.Trajectories[0], ill.Trajectories[1]
	for s := 1; s < len(div.Points); s++ {
		if ratio := div.Points[s][0] / div.Points[s-1][0]; !gdClose(ratio, -1.1, 1e-12) {
			t.Fatalf("ill ε=0.105 step %d: w1 ratio %g, want −1.1", s, ratio)
		}
	}
	if !div.Rising || div.StepsToTol != nil || div.StepsText() != "never (cost rising)" {
		t.Errorf("ill ε=0.105: rising %v, steps %q", div.Rising, div.StepsText())
	}
	if slow.Rising || slow.StepsToTol != nil {
		t.Errorf("ill ε=0.055: rising %v, steps to 1e-6 %q (w2 ×0.89 a step leaves cost 3²·0.89⁴⁰ ≈ 0.085 after 20)", slow.Rising, slow.StepsText())
	}
	if f := slow.Factors; !gdClose(f[0], -0.1, 1e-12) || !gdClose(f[1], 0.89, 1e-12) {
		t.Errorf("ill ε=0.055: factors %v, want −0.1, 0.89", f)
	}
	good := runGDWith(t, map[string]string{})
	if f := good.Trajectories[0].Factors; !gdClose(f[0], 0.58, 1e-12) || !gdClose(f[1], 0.79, 1e-12) {
		t.Errorf("quadratic ε=0.105: factors %v, want 0.58, 0.79", f)
	}
}

// A path leaving the bound stops there, its numbers finite (JSON holds
// no Inf), and says at which step.
func TestGDDivergenceStopsAtTheBound(t *testing.T) {
	r := runGDWith(t, map[string]string{"surface": "ill", "lr": "0.2", "steps": "10000", "methods": "gd,momentum,rmsprop,adam"})
	tr := r.Trajectories[0] // factor 1 − 2·0.2·10 = −3
	bound := 1e6 * 4
	// |w1| = 4·3^t passes 4e6 at t = 13 (3^13 = 1594323 > 1e6 > 3^12).
	if !tr.Diverged || tr.DivergedAt != 13 || len(tr.Points) != 13 || tr.Bound != bound {
		t.Fatalf("diverged %v at %d with %d points, bound %g", tr.Diverged, tr.DivergedAt, len(tr.Points), tr.Bound)
	}
	if tr.StepsText() != "diverged at step 13" {
		t.Errorf("steps text %q", tr.StepsText())
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
}

// Adam's bias-corrected first step is ε·g/(|g| + eps) per coordinate: ε
// itself to within eps/|g| relative (1e-8 here), and ε exactly when eps = 0.
func TestGDAdamFirstStepIsTheLearningRate(t *testing.T) {
	for _, eps := range []string{"1e-8", "0"} {
		r := runGDWith(t, map[string]string{"methods": "adam", "lr": "0.105,0.3", "steps": "1", "eps": eps})
		for _, tr := range r.Trajectories {
			for i := range 2 {
				d := math.Abs(tr.Points[1][i] - tr.Points[0][i])
				tol := 1e-7
				if eps == "0" {
					tol = 1e-14
				}
				if !gdClose(d, tr.LR, tol) {
					t.Errorf("eps=%s ε=%v: |Δw%d| = %.17g, want ε", eps, tr.LR, i+1, d)
				}
			}
		}
	}
}

// With eps = 0, RMSprop and Adam started on the minimum (gradient 0)
// stay there rather than divide 0 by 0.
func TestGDAdaptiveMethodsRestOnTheMinimum(t *testing.T) {
	r := runGDWith(t, map[string]string{"methods": "rmsprop,adam", "lr": "0.1", "eps": "0", "start": "0,0"})
	for _, tr := range r.Trajectories {
		if tr.Diverged || len(tr.Points) != 21 || tr.Points[20] != [2]float64{} {
			t.Errorf("%s from the minimum: diverged %v, last point %v", tr.Method, tr.Diverged, tr.Points[len(tr.Points)-1])
		}
	}
}

// Momentum (heavy ball) and RMSprop's first two steps, by hand, on
// 2w1² + w2² from (−4, 3) with ε = 0.1: ∇f = (4w1, 2w2).
func TestGDMomentumAndRMSpropByHand(t *testing.T) {
	r := runGDWith(t, map[string]string{"methods": "momentum,rmsprop", "lr": "0.1", "steps": "2", "momentum": "0.9", "rho": "0.9", "eps": "1e-8"})
	mom, rms := r.Trajectories[0], r.Trajectories[1]
	// g0 = (−16, 6); v1 = g0; w1 = (−4, 3) − 0.1·(−16, 6) = (−2.4, 2.4).
	// g1 = (−9.6, 4.8); v2 = 0.9·(−16, 6) + (−9.6, 4.8) = (−24, 10.2);
	// w2 = (−2.4, 2.4) − 0.1·(−24, 10.2) = (0, 1.38).
	want := [][2]float64{{-4, 3}, {-2.4, 2.4}, {0, 1.38}}
	for s, p := range want {
		if !gdClose(mom.Points[s][0], p[0], 1e-13) || !gdClose(mom.Points[s][1], p[1], 1e-13) {
			t.Errorf("momentum step %d: %v, want %v", s, mom.Points[s], p)
		}
	}
	// r1 = 0.1·g0² = (25.6, 3.6); w1 = w0 − 0.1·g0/(√r1 + 1e-8), that is
	// w0 + 0.1·(1, −1)/√0.1 (to 1e-9): (−3.683772234, 2.683772234).
	w1 := [2]float64{-4 + 0.1/math.Sqrt(0.1), 3 - 0.1/math.Sqrt(0.1)}
	// g1 = (4·w1[0], 2·w1[1]); r2 = 0.9·r1 + 0.1·g1²; w2 = w1 − 0.1·g1/(√r2 + 1e-8).
	g1 := [2]float64{4 * w1[0], 2 * w1[1]}
	r2 := [2]float64{0.9*25.6 + 0.1*g1[0]*g1[0], 0.9*3.6 + 0.1*g1[1]*g1[1]}
	w2 := [2]float64{w1[0] - 0.1*g1[0]/(math.Sqrt(r2[0])+1e-8), w1[1] - 0.1*g1[1]/(math.Sqrt(r2[1])+1e-8)}
	for s, p := range [][2]float64{w1, w2} {
		if !gdClose(rms.Points[s+1][0], p[0], 1e-8) || !gdClose(rms.Points[s+1][1], p[1], 1e-8) {
			t.Errorf("rmsprop step %d: %v, want %v", s+1, rms.Points[s+1], p)
		}
	}
	if !gdClose(rms.Points[1][0], -3.683772234, 1e-9) {
		t.Errorf("rmsprop step 1: w1 = %.10f, want −3.683772234", rms.Points[1][0])
	}
}

// Newton's step H⁻¹∇f lands on a quadratic's minimum at once; on the
// logistic loss it converges to the minimum the engine reports.
func TestGDNewton(t *testing.T) {
	for _, s := range []string{"quadratic", "ill", "leastsquares"} {
		r := runGDWith(t, map[string]string{"surface": s, "methods": "newton", "steps": "3"})
		tr := r.Trajectories[0]
		if tr.LR != 1 || len(tr.Points) != 4 {
			t.Fatalf("%s: newton lr %v, %d points", s, tr.LR, len(tr.Points))
		}
		p := tr.Points[1]
		if !gdClose(p[0], r.Minimum[0], 1e-12) || !gdClose(p[1], r.Minimum[1], 1e-12) {
			t.Errorf("%s: newton's first step %v, minimum %v", s, p, r.Minimum)
		}
		if tr.StepsToTol == nil || *tr.StepsToTol != 1 {
			t.Errorf("%s: steps to tol %v, want 1", s, tr.StepsToTol)
		}
	}
	r := runGDWith(t, map[string]string{"surface": "logistic", "methods": "newton", "steps": "10", "start": "0,0"})
	last := r.Trajectories[0].Points[10]
	if !gdClose(last[0], r.Minimum[0], 1e-10) || !gdClose(last[1], r.Minimum[1], 1e-10) {
		t.Errorf("logistic: newton's 10th iterate %v, minimum %v", last, r.Minimum)
	}
	// From (−4, 3), far on the flat side of the loss, the curvature is
	// small and Newton's full step overshoots without end: no line search.
	r = runGDWith(t, map[string]string{"surface": "logistic", "methods": "newton", "steps": "10"})
	if tr := r.Trajectories[0]; !tr.Diverged {
		t.Errorf("logistic from (−4, 3): newton's full steps did not diverge: %v", tr.Points)
	}
}

// The gradients (and Newton's Hessians) against central differences of
// the cost, away from the minimum.
func TestGDGradientsMatchFiniteDifferences(t *testing.T) {
	for _, kind := range []string{"logistic", "leastsquares", "bowl"} {
		s := &gdSurface{kind: kind, a: [2]float64{3, 0.5}}
		switch kind {
		case "logistic":
			s.data = gdLogisticData(7)
		case "leastsquares":
			s.data = gdLeastSquaresData(7)
		}
		const h = 1e-5
		for _, w := range [][2]float64{{-4, 3}, {0.7, -1.3}, {2, 1}} {
			g, H := s.grad(w), s.hess(w)
			for i := range 2 {
				up, dn := w, w
				up[i] += h
				dn[i] -= h
				fd := (s.cost(up) - s.cost(dn)) / (2 * h)
				if !gdClose(g[i], fd, 1e-7) {
					t.Errorf("%s at %v: ∂f/∂w%d = %.10g, finite difference %.10g", kind, w, i+1, g[i], fd)
				}
				gu, gd := s.grad(up), s.grad(dn)
				for j := range 2 {
					if fd := (gu[j] - gd[j]) / (2 * h); !gdClose(H[i][j], fd, 1e-6) {
						t.Errorf("%s at %v: H[%d][%d] = %.10g, finite difference %.10g", kind, w, i, j, H[i][j], fd)
					}
				}
			}
		}
	}
}

// gdRef is testdata/gd_ref.json: the data seed 1 draws and the minima
// scikit-learn and numpy find for them (gd_ref.py).
type gdRef struct {
	Logistic struct {
		X    [][2]float64 `json:"x"`
		Y    []float64    `json:"y"`
		Coef [2]float64   `json:"coef"`
		Loss float64      `json:"loss"`
	} `json:"logistic"`
	LeastSquares struct {
		X    [][2]float64 `json:"x"`
		Y    []float64    `json:"y"`
		Coef [2]float64   `json:"coef"`
		Loss float64      `json:"loss"`
	} `json:"leastsquares"`
}

// TestGDMinimaMatchScikitLearn checks the logistic and least-squares
// minima against scikit-learn's LogisticRegression (no penalty, no
// intercept) and numpy's lstsq on the same points. GD_WRITE_DATA=1
// rewrites the points into testdata/gd_data.json for gd_ref.py to read.
func TestGDMinimaMatchScikitLearn(t *testing.T) {
	lg, ls := gdLogisticData(1), gdLeastSquaresData(1)
	if os.Getenv("GD_WRITE_DATA") == "1" {
		b, _ := json.MarshalIndent(map[string]*GDData{"logistic": lg, "leastsquares": ls}, "", " ")
		if err := os.WriteFile("testdata/gd_data.json", b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile("testdata/gd_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref gdRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	same := func(name string, d *GDData, x [][2]float64, y []float64) {
		if len(d.X) != len(x) || len(d.Y) != len(y) {
			t.Fatalf("%s: %d points, the reference %d: rerun gd_ref.py", name, len(d.X), len(x))
		}
		for i := range x {
			if d.X[i] != x[i] || d.Y[i] != y[i] {
				t.Fatalf("%s: point %d is %v, %v; the reference's %v, %v: rerun gd_ref.py", name, i, d.X[i], d.Y[i], x[i], y[i])
			}
		}
	}
	same("logistic", lg, ref.Logistic.X, ref.Logistic.Y)
	same("leastsquares", ls, ref.LeastSquares.X, ref.LeastSquares.Y)
	for _, c := range []struct {
		surface string
		coef    [2]float64
		loss    float64
		tol     float64
	}{{"logistic", ref.Logistic.Coef, ref.Logistic.Loss, 1e-10}, {"leastsquares", ref.LeastSquares.Coef, ref.LeastSquares.Loss, 1e-10}} {
		r := runGDWith(t, map[string]string{"surface": c.surface, "seed": "1", "steps": "1"})
		for i := range 2 {
			if !gdClose(r.Minimum[i], c.coef[i], c.tol) {
				t.Errorf("%s: minimum w%d = %.10g, reference %.10g", c.surface, i+1, r.Minimum[i], c.coef[i])
			}
		}
		if !gdClose(r.MinCost, c.loss, 1e-10) {
			t.Errorf("%s: min cost %.12g, reference %.12g", c.surface, r.MinCost, c.loss)
		}
	}
}

// Too many paths for a picture is a limit naming the knobs; the result
// reads back from its JSON; a cancelled run returns what it has.
func TestGDLimitsRoundTripAndCancel(t *testing.T) {
	e, _ := Lookup("gd")
	v, err := e.Parse(map[string]string{"methods": "gd,momentum,rmsprop,adam", "lr": "0.01..0.1:4"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runGD(context.Background(), In{Values: v}, func(Frame) {}); !errors.Is(err, engine.ErrLimit) {
		t.Errorf("16 paths: err %v, want a limit", err)
	}
	for _, bad := range []map[string]string{{"methods": "sgd"}, {"methods": "gd,gd"}, {"start": "1"}, {"start": "1,x"}, {"start": "1,2000"}, {"lr": "0"}} {
		if _, err := e.Parse(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	r := runGDWith(t, map[string]string{"surface": "logistic", "methods": "gd,adam,newton", "lr": "1"})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := e.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	rb := back.(*GDResult)
	if len(rb.Trajectories) != 3 || rb.Cost(1, 2) != r.Cost(1, 2) || rb.Window != r.Window {
		t.Errorf("the result does not round-trip: %d trajectories, cost %g vs %g", len(rb.Trajectories), rb.Cost(1, 2), r.Cost(1, 2))
	}
	ctx, cancel := context.WithCancel(context.Background())
	v, _ = e.Parse(map[string]string{"methods": "gd,momentum", "lr": "0.01", "steps": "10000"})
	var frames int
	res, err := runGD(ctx, In{Values: v}, func(f Frame) { frames++; cancel() })
	if !errors.Is(err, context.Canceled) || frames != 1 || len(res.(*GDResult).Trajectories) != 1 {
		t.Errorf("cancelled: err %v, %d frames", err, frames)
	}
}

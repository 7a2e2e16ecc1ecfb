package lecture

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

func runKernelWith(t *testing.T, settings map[string]string) *KernelResult {
	return runTo[KernelResult](t, "kernel", settings)
}

// The SVM against scikit-learn's SVC(kernel="linear") on the same lifted
// points: testdata/kernel_svm.py (a separable case with C = 10, an
// overlapping one with C = 1; both maps).
func TestKernelSVMMatchesSklearn(t *testing.T) {
	b, err := os.ReadFile("testdata/kernel_svm.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []struct {
			Name, Map string
			C         float64
			X         [][2]float64
			Y         []int
			W         [3]float64
			B         float64
			NSupport  int `json:"n_support"`
			Accuracy  float64
		}
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Cases) != 4 {
		t.Fatalf("%d cases", len(ref.Cases))
	}
	for _, c := range ref.Cases {
		var z [][3]float64
		for _, x := range c.X {
			z = append(z, KernelLift(c.Map, x))
		}
		p := KernelSVM(z, c.Y, c.C, 1e-9, 400*len(z), nil)
		if !p.Converged {
			t.Errorf("%s %s: not converged after %d steps (gap %g)", c.Name, c.Map, p.Iterations, p.Gap)
		}
		scale := math.Hypot(math.Hypot(c.W[0], c.W[1]), c.W[2])
		for k := range 3 {
			if math.Abs(p.W[k]-c.W[k]) > 1e-5*scale {
				t.Errorf("%s %s: w = %v, sklearn %v", c.Name, c.Map, p.W, c.W)
				break
			}
		}
		if math.Abs(p.B-c.B) > 1e-5*math.Max(1, math.Abs(c.B)) {
			t.Errorf("%s %s: b = %.8g, sklearn %.8g", c.Name, c.Map, p.B, c.B)
		}
		if p.Support != c.NSupport {
			t.Errorf("%s %s: %d support vectors, sklearn %d", c.Name, c.Map, p.Support, c.NSupport)
		}
		right := 0
		for i := range z {
			if (p.Decision(z[i]) > 0) == (c.Y[i] > 0) {
				right++
			}
		}
		if acc := float64(right) / float64(len(z)); math.Abs(acc-c.Accuracy) > 1e-12 {
			t.Errorf("%s %s: accuracy %g, sklearn %g", c.Name, c.Map, acc, c.Accuracy)
		}
	}
}

// The point of it: circles a plane separates perfectly once lifted, while
// the best line in the plane does little better than the line tangent to
// the inner circle, which gets 1/2 + arccos(r_in/r_out)/(2π) ≈ 2/3 for
// r_out = 2 r_in (all the inner class and the third of the outer circle
// beyond the tangent).
func TestKernelLiftSeparatesWhatNoLineDoes(t *testing.T) {
	for _, m := range []string{"parabolic", "quadratic"} {
		r := runKernelWith(t, map[string]string{"map": m, "points": "150", "noise": "0"})
		if r.LiftedAccuracy != 1 {
			t.Errorf("%s: lifted accuracy %g, want 1", m, r.LiftedAccuracy)
		}
		if !r.Searched || r.LineAccuracy < 0.62 || r.LineAccuracy > 0.75 {
			t.Errorf("%s: best line's accuracy %g, want about 2/3", m, r.LineAccuracy)
		}
		// the enumerated line is no worse than any of 3000 random lines
		rng := rand.New(rand.NewPCG(1, 2))
		for range 3000 {
			a := 2 * math.Pi * rng.Float64()
			nx, ny, c := math.Cos(a), math.Sin(a), 2.5*(2*rng.Float64()-1)
			errs := 0
			for i, x := range r.X {
				if (nx*x[0]+ny*x[1] > c) != (r.Y[i] > 0) {
					errs++
				}
			}
			if errs < r.Line.Errors {
				t.Fatalf("%s: a random line makes %d errors, the best line %d", m, errs, r.Line.Errors)
			}
		}
		// and its stated errors are its errors, the pair on its line aside
		errs, on := 0, 0
		for i, x := range r.X {
			f := r.Line.Normal[0]*x[0] + r.Line.Normal[1]*x[1] - r.Line.Offset
			switch {
			case math.Abs(f) < 1e-9:
				on++
			case (f > 0) != (r.Y[i] > 0):
				errs++
			}
		}
		if on != 2 || errs != r.Line.Errors {
			t.Errorf("%s: %d points on the line, %d errors off it; stated %d", m, on, errs, r.Line.Errors)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	}
}

// The induced curve: parabolic gives the circle ‖x − c‖ = ρ, between the
// two radii and about the origin for the default circles; quadratic an
// ellipse about the origin with semi-axes between them. Points on the
// curve lie on the plane.
func TestKernelInducedBoundary(t *testing.T) {
	r := runKernelWith(t, map[string]string{})
	bd := r.Boundary
	if bd.Kind != "circle" || bd.Radius < 1.2 || bd.Radius > 1.8 || math.Hypot(bd.Centre[0], bd.Centre[1]) > 0.2 {
		t.Errorf("parabolic: %+v", bd)
	}
	for k := range 8 {
		a := float64(k)
		x := [2]float64{bd.Centre[0] + bd.Radius*math.Cos(a), bd.Centre[1] + bd.Radius*math.Sin(a)}
		if f := r.Plane.Decision(KernelLift("parabolic", x)); math.Abs(f) > 1e-9 {
			t.Errorf("parabolic: W·Φ(x) + B = %g on the circle", f)
		}
	}
	q := runKernelWith(t, map[string]string{"map": "quadratic"})
	bd = q.Boundary
	if bd.Kind != "ellipse" || bd.Axes[0] < 1.1 || bd.Axes[0] > 1.9 || bd.Axes[1] < 1.1 || bd.Axes[1] > 1.9 {
		t.Errorf("quadratic: %+v", bd)
	}
	for k := range 8 {
		u, v := bd.Axes[0]*math.Cos(float64(k)), bd.Axes[1]*math.Sin(float64(k))
		x := [2]float64{u*math.Cos(bd.Angle) - v*math.Sin(bd.Angle), u*math.Sin(bd.Angle) + v*math.Cos(bd.Angle)}
		if f := q.Plane.Decision(KernelLift("quadratic", x)); math.Abs(f) > 1e-9 {
			t.Errorf("quadratic: W·Φ(x) + B = %g on the ellipse", f)
		}
	}
	// closed forms: the plane z3 = 2 is the circle of radius √2 (parabolic)
	// and z1 + z3 = 2 the same circle (quadratic); z1 − z3 = 1 a hyperbola
	if bd := KernelInduced("parabolic", KernelPlane{W: [3]float64{0, 0, -1}, B: 2}); bd.Kind != "circle" || math.Abs(bd.Radius-math.Sqrt2) > 1e-15 {
		t.Errorf("z3 = 2: %+v", bd)
	}
	if bd := KernelInduced("quadratic", KernelPlane{W: [3]float64{-1, 0, -1}, B: 2}); bd.Kind != "ellipse" || math.Abs(bd.Axes[0]-math.Sqrt2) > 1e-15 || math.Abs(bd.Axes[1]-math.Sqrt2) > 1e-15 {
		t.Errorf("z1 + z3 = 2: %+v", bd)
	}
	if bd := KernelInduced("quadratic", KernelPlane{W: [3]float64{1, 0, -1}, B: -1}); bd.Kind != "hyperbola" {
		t.Errorf("z1 − z3 = 1: %+v", bd)
	}
	if bd := KernelInduced("parabolic", KernelPlane{W: [3]float64{-1, 0, -1}, B: -1}); bd.Kind != "empty" {
		t.Errorf("a plane below the paraboloid: %+v", bd)
	}
}

// The quadratic map is the kernel's: Φ(x)·Φ(z) = (xᵀz)²; the parabolic
// map's last coordinate is ‖x‖².
func TestKernelMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		x := [2]float64{rng.NormFloat64(), rng.NormFloat64()}
		z := [2]float64{rng.NormFloat64(), rng.NormFloat64()}
		a, b := KernelLift("quadratic", x), KernelLift("quadratic", z)
		k := x[0]*z[0] + x[1]*z[1]
		if got := a[0]*b[0] + a[1]*b[1] + a[2]*b[2]; math.Abs(got-k*k) > 1e-12*(1+k*k) {
			t.Fatalf("Φ(x)·Φ(z) = %g, (xᵀz)² = %g", got, k*k)
		}
		if p := KernelLift("parabolic", x); p[0] != x[0] || p[1] != x[1] || math.Abs(p[2]-(x[0]*x[0]+x[1]*x[1])) > 0 {
			t.Fatalf("parabolic %v of %v", p, x)
		}
	}
}

// The knobs' extremes run: tiny and huge C, classes that coincide, heavy
// noise, three points a class; the same seed gives the same points.
func TestKernelExtremes(t *testing.T) {
	for _, s := range []map[string]string{
		{"points": "3", "c": "0.001"},
		{"points": "100", "c": "100", "noise": "5", "map": "quadratic"},
		{"inner": "2", "outer": "2", "noise": "0"},
		{"inner": "10", "outer": "0.05", "view": "projections"},
	} {
		r := runKernelWith(t, s)
		if _, err := json.Marshal(r); err != nil {
			t.Errorf("%v: %v", s, err)
		}
		if r.LiftedAccuracy < 0 || r.LiftedAccuracy > 1 || r.LineAccuracy < 0.5 {
			t.Errorf("%v: accuracies %g, %g", s, r.LiftedAccuracy, r.LineAccuracy)
		}
	}
	a, b := runKernelWith(t, map[string]string{"seed": "7"}), runKernelWith(t, map[string]string{"seed": "7"})
	if a.X[17] != b.X[17] || a.Plane != b.Plane {
		t.Error("the same seed drew different results")
	}
	// cancelled, it returns what it has
	e, _ := Lookup("kernel")
	v, _ := e.Parse(map[string]string{"points": "300"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rec := Start(ctx, e, In{Values: v}, nil); rec.Status != Cancelled || rec.Result == nil {
		t.Errorf("cancelled: %s, %v", rec.Status, rec.Result == nil)
	}
}

// A fit stopped early says so; the frames shown grow: the data, the plane,
// the best line.
func TestKernelStopsAndFrames(t *testing.T) {
	x, y := kernelCircles(40, 1, 1.3, 0.3, 5)
	var z [][3]float64
	for _, p := range x {
		z = append(z, KernelLift("parabolic", p))
	}
	if p := KernelSVM(z, y, 10, 1e-9, 3, nil); p.Converged || p.Iterations != 3 || !(p.Gap > 1e-9) {
		t.Errorf("3 steps: %+v", p)
	}
	e, _ := Lookup("kernel")
	v, _ := e.Parse(nil)
	var frames []*KernelResult
	rec := Start(context.Background(), e, In{Values: v}, func(f Frame) { frames = append(frames, f.Result.(*KernelResult)) })
	if rec.Status != Done || len(frames) != 2 || frames[0].Fitted || !frames[1].Fitted || frames[1].Searched || !rec.Result.(*KernelResult).Searched {
		t.Errorf("%s: %d frames", rec.Status, len(frames))
	}
}

package lecture

import (
	"context"
	"math"
	"testing"
)

func runKernelWith(t *testing.T, settings map[string]string) *KernelResult {
	t.Helper()
	e, err := Lookup("kernel")
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Parse(settings)
	if err != nil {
		t.Fatal(err)
	}
	rec := Start(context.Background(), e, In{Values: v}, nil)
	if rec.Status != Done {
		t.Fatalf("kernel %v: %s %s", settings, rec.Status, rec.Error)
	}
	return rec.Result.(*KernelResult)
}

// The lift separates what no line does: Shewchuk's theorem, on the
// default circles (noise 0.2, radii 1 and 2.5: separable by a circle).
func TestKernelLiftSeparatesTheCircles(t *testing.T) {
	for _, m := range []string{"parabolic", "quadratic"} {
		r := runKernelWith(t, map[string]string{"map": m})
		if r.Acc3D != 1 {
			t.Errorf("%s: the plane gets %.3f of the lifted points right, want all", m, r.Acc3D)
		}
		if r.Acc2D > 0.75 {
			t.Errorf("%s: a line gets %.3f of concentric circles right, want near chance", m, r.Acc2D)
		}
		if len(r.X) != 120 || len(r.Lifted) != 120 {
			t.Errorf("%s: %d points, %d lifted", m, len(r.X), len(r.Lifted))
		}
	}
}

// The plane's preimage under the parabolic map is the circle reported:
// its points lift onto the plane; and it lies between the two circles.
func TestKernelInducedCircle(t *testing.T) {
	r := runKernelWith(t, nil)
	c := r.Circle
	if c == nil || c.Radius <= 1 || c.Radius >= 2.5 {
		t.Fatalf("induced circle %+v, want a radius between the circles' 1 and 2.5", c)
	}
	for k := range 12 {
		a := 2 * math.Pi * float64(k) / 12
		x := [2]float64{c.Center[0] + c.Radius*math.Cos(a), c.Center[1] + c.Radius*math.Sin(a)}
		z := kernelLift("parabolic", x)
		if on := r.Plane.W[0]*z[0] + r.Plane.W[1]*z[1] + r.Plane.W[2]*z[2] + r.Plane.B; math.Abs(on) > 1e-9 {
			t.Errorf("a point of the circle lifts %g off the plane", on)
		}
	}
}

// The maps' inner products are the kernels the notes name: (xᵀz)² for
// the degree-2 monomials (lecture 16), xᵀz + ‖x‖²‖z‖² for the parabolic map.
func TestKernelMapsComputeTheirKernels(t *testing.T) {
	pairs := [][2][2]float64{{{1, 2}, {3, -1}}, {{-0.5, 0.25}, {4, 7}}, {{0, 0}, {1, 1}}}
	for _, p := range pairs {
		x, z := p[0], p[1]
		dot := x[0]*z[0] + x[1]*z[1]
		q, qz := kernelLift("quadratic", x), kernelLift("quadratic", z)
		if got := q[0]*qz[0] + q[1]*qz[1] + q[2]*qz[2]; math.Abs(got-dot*dot) > 1e-12*math.Max(1, dot*dot) {
			t.Errorf("quadratic: Φ(x)ᵀΦ(z) = %g, (xᵀz)² = %g", got, dot*dot)
		}
		pp, pz := kernelLift("parabolic", x), kernelLift("parabolic", z)
		want := dot + (x[0]*x[0]+x[1]*x[1])*(z[0]*z[0]+z[1]*z[1])
		if got := pp[0]*pz[0] + pp[1]*pz[1] + pp[2]*pz[2]; math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("parabolic: Φ(x)ᵀΦ(z) = %g, want %g", got, want)
		}
	}
}

// The logistic fit is the penalised optimum: its gradient vanishes.
func TestKernelLogisticIsOptimal(t *testing.T) {
	r := runKernelWith(t, map[string]string{"points": "30", "noise": "0.8"}) // overlapping: a finite optimum
	rows := make([][]float64, len(r.Lifted))
	for i, z := range r.Lifted {
		rows[i] = []float64{z[0], z[1], z[2]}
	}
	w, b := kernelLogistic(rows, r.Labels)
	grad := make([]float64, 4)
	for i, x := range rows {
		p := 1 / (1 + math.Exp(-(w[0]*x[0] + w[1]*x[1] + w[2]*x[2] + b)))
		d := (p - float64(r.Labels[i])) / float64(len(rows))
		for j := range 3 {
			grad[j] += d * x[j]
		}
		grad[3] += d
	}
	for j := range 3 {
		grad[j] += kernelPenalty * w[j]
	}
	for j, g := range grad {
		if math.Abs(g) > 1e-10 {
			t.Errorf("gradient %d = %g at the fit", j, g)
		}
	}
}

func TestKernelSameSeedSamePoints(t *testing.T) {
	a, b := runKernelWith(t, map[string]string{"seed": "7"}), runKernelWith(t, map[string]string{"seed": "7"})
	c := runKernelWith(t, map[string]string{"seed": "8"})
	if a.X[5] != b.X[5] || a.Plane != b.Plane {
		t.Error("the same seed drew different points")
	}
	if a.X[5] == c.X[5] {
		t.Error("another seed drew the same points")
	}
}

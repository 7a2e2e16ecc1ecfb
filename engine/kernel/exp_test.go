package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Exp agrees with math.Exp to a few units in the last place over the
// range a kernel row needs, and is 0 where math.Exp is.
func TestExp(t *testing.T) {
	worst := 0.0
	for x := -720.0; x <= 1; x += 0.00731 {
		want := math.Exp(x)
		got := Exp(x)
		if want == 0 {
			if got != 0 {
				t.Fatalf("Exp(%g) = %g, want 0", x, got)
			}
			continue
		}
		worst = math.Max(worst, math.Abs(got-want)/want)
	}
	if worst > 1e-15 {
		t.Errorf("largest relative error %g, want at most 1e-15", worst)
	}
	if got := Exp(math.Inf(-1)); got != 0 {
		t.Errorf("Exp(-Inf) = %g", got)
	}
}

// RBFRow gives exp(−γ max(0, ‖a‖² + ‖b‖² − 2a·b)) to 1e-15 relative on
// every length (the kernel's quads and the tail), in place too, and 0
// below e^−708; rounding that makes a squared distance negative gives 1.
func TestRBFRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	worst := 0.0
	for n := 0; n <= 41; n++ {
		for _, gamma := range []float64{1e-3, 0.05, 1, 30, 400} {
			dots, sqb := make([]float64, n), make([]float64, n)
			sqa := 10 * rng.Float64()
			for j := range dots {
				sqb[j] = 10 * rng.Float64()
				dots[j] = (rng.Float64()*2 - 1) * math.Sqrt(sqa*sqb[j])
			}
			if n > 3 {
				dots[3] = (sqa + sqb[3]) / 2 * (1 + 1e-15) // a distance that rounds below 0
			}
			want := make([]float64, n)
			for j := range want {
				x := -gamma * math.Max(0, sqa+sqb[j]-2*dots[j])
				if x >= -708 {
					want[j] = math.Exp(x)
				}
			}
			for _, inPlace := range []bool{false, true} {
				out := make([]float64, n)
				src := append([]float64(nil), dots...)
				if inPlace {
					out = src
				}
				RBFRow(out, src, sqb, sqa, gamma)
				for j, w := range want {
					if w == 0 {
						if out[j] != 0 {
							t.Fatalf("n=%d γ=%g: value %d is %g, want 0", n, gamma, j, out[j])
						}
						continue
					}
					worst = math.Max(worst, math.Abs(out[j]-w)/w)
				}
			}
		}
	}
	if worst > 1e-15 {
		t.Errorf("largest relative error %g, want at most 1e-15", worst)
	}
}

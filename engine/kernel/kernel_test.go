package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naive is AᵀA's upper triangle, the definition.
func naive(a []float64, lda, rows, k int) []float64 {
	c := make([]float64, k*k)
	for r := 0; r < rows; r++ {
		for i := 0; i < k; i++ {
			for j := i; j < k; j++ {
				c[i*k+j] += a[r*lda+i] * a[r*lda+j]
			}
		}
	}
	return c
}

func TestSyrkUpper(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 3, 4, 7, 8, 9, 16, 21, 51, 64} {
		for _, rows := range []int{0, 1, 3, 4, 5, 37, 256} {
			lda := Pad(k)
			a := make([]float64, rows*lda)
			for i := 0; i < rows; i++ {
				for j := 0; j < k; j++ {
					a[i*lda+j] = r.NormFloat64()
				}
			}
			want := naive(a, lda, rows, k)
			for _, fast := range []bool{false, true} {
				if fast && !useAVX {
					continue
				}
				ldc := Pad(k)
				c := make([]float64, Pad(k)*ldc)
				c[0] = 1 // adds to what is there
				if fast {
					SyrkUpper(c, ldc, a, lda, rows, k)
				} else {
					syrkGo(c, ldc, a, lda, rows, k)
				}
				c[0]--
				for i := 0; i < k; i++ {
					for j := i; j < k; j++ {
						if got := c[i*ldc+j]; math.Abs(got-want[i*k+j]) > 1e-12*(1+math.Abs(want[i*k+j])) {
							t.Fatalf("k %d rows %d fast %v: c[%d][%d] = %v, want %v", k, rows, fast, i, j, got, want[i*k+j])
						}
					}
				}
			}
		}
	}
	t.Logf("AVX2/FMA path: %v", useAVX)
}

func BenchmarkSyrk80000x51(b *testing.B) {
	const rows, k = 80000, 51
	r := rand.New(rand.NewPCG(1, 2))
	lda := Pad(k)
	a := make([]float64, rows*lda)
	for i := 0; i < rows; i++ {
		for j := 0; j < k; j++ {
			a[i*lda+j] = r.NormFloat64()
		}
	}
	c := make([]float64, Pad(k)*Pad(k))
	for _, fast := range []bool{true, false} {
		name := "go"
		if fast {
			name = "avx"
			if !useAVX {
				continue
			}
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for s := 0; s < rows; s += 64 {
					m := min(64, rows-s)
					if fast {
						SyrkUpper(c, lda, a[s*lda:], lda, m, k)
					} else {
						syrkGo(c, lda, a[s*lda:], lda, m, k)
					}
				}
			}
		})
	}
}

// CrossTile's products equal a plain loop's, on the assembly path where
// there is one.
func TestCrossTile(t *testing.T) {
	rows, lda := 11, 40
	a := make([]float64, rows*lda)
	for i := range a {
		a[i] = float64((i*7919)%23) - 11.5
	}
	c := make([]float64, 4*9)
	for i := range c {
		c[i] = 99 // overwritten, not added to
	}
	CrossTile(c, 9, a, lda, rows, 3, 20)
	for u := range 4 {
		for v := range 8 {
			want := 0.0
			for r := range rows {
				want += a[r*lda+3+u] * a[r*lda+20+v]
			}
			if got := c[u*9+v]; math.Abs(got-want) > 1e-9 {
				t.Errorf("c[%d][%d] = %v, want %v", u, v, got, want)
			}
		}
	}
}

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

// RowDots' products equal the definition's on every row count (the tail
// of fewer than four rows takes the portable loop), with strides wider than
// the data, on the assembly path where there is one and on the portable one.
func TestRowDots(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 2, 10, 33} {
		for _, rows := range []int{0, 1, 3, 4, 5, 8, 13, 64} {
			ldx, ldo := d+3, 11
			// As short as the data allow: nothing is read or written
			// past the last row's last entry (one sentinel after it).
			x := make([]float64, max(rows-1, 0)*ldx+d)
			for i := range x {
				x[i] = r.NormFloat64()
			}
			cen := make([]float64, d*8)
			for i := range cen {
				cen[i] = r.NormFloat64()
			}
			for _, fast := range []bool{false, true} {
				if fast && !useAVX {
					continue
				}
				out := make([]float64, max(rows-1, 0)*ldo+9)
				for i := range out {
					out[i] = 99 // overwritten, not added to
				}
				if fast {
					RowDots(out, ldo, x, ldx, rows, d, cen)
				} else {
					rowDotsGo(out, ldo, x, ldx, rows, d, cen)
				}
				for i := range rows {
					for v := range 8 {
						want := 0.0
						for j := range d {
							want += x[i*ldx+j] * cen[j*8+v]
						}
						if got := out[i*ldo+v]; math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
							t.Fatalf("d %d rows %d fast %v: out[%d][%d] = %v, want %v", d, rows, fast, i, v, got, want)
						}
					}
					if rows > 0 && out[i*ldo+8] != 99 {
						t.Fatalf("d %d rows %d fast %v: wrote past column 8 of row %d", d, rows, fast, i)
					}
				}
			}
		}
	}
}

// DotsBelow reports exactly the rows and queries whose sum is below the
// threshold (within float32 rounding of it), with NaN norms and thresholds
// never reported, on every row count (the tail of fewer than four rows
// takes the portable loop), on the assembly path and the portable one.
func TestDotsBelow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 2, 7, 20, 33} {
		for _, rows := range []int{1, 3, 4, 5, 8, 13, 64, 301} {
			ldx := d + 2
			x := make([]float32, (rows-1)*ldx+d)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			q := make([]float32, d*16)
			for i := range q {
				q[i] = float32(r.NormFloat64())
			}
			nb := make([]float32, rows)
			for i := range nb {
				nb[i] = float32(r.Float64() * 3)
			}
			nb[rows/2] = float32(math.NaN())
			sum := func(i, v int) float64 {
				s := float64(nb[i])
				for j := range d {
					s += float64(x[i*ldx+j]) * float64(q[j*16+v])
				}
				return s
			}
			var thr [16]float32
			for v := range thr {
				thr[v] = float32(sum(r.IntN(rows), v)) + 0.5 // about half the rows below
			}
			thr[15] = float32(math.NaN())
			for _, fast := range []bool{false, true} {
				if fast && !useAVX {
					continue
				}
				hits := make([]uint32, rows)
				var n int
				if fast {
					n = DotsBelow(hits, x, ldx, rows, d, q, nb, &thr)
				} else {
					for i := range rows {
						if m := rowBelow(x[i*ldx:i*ldx+d], q, nb[i], &thr); m != 0 {
							hits[n] = uint32(i)<<16 | m
							n++
						}
					}
				}
				got := map[int]uint32{}
				for _, h := range hits[:n] {
					got[int(h>>16)] = h & 0xffff
				}
				if len(got) != n {
					t.Fatalf("d %d rows %d fast %v: a row reported twice", d, rows, fast)
				}
				for i := range rows {
					for v := range 16 {
						s := sum(i, v)
						want := s <= float64(thr[v])
						if got[i]>>v&1 == 1 != want && math.Abs(s-float64(thr[v])) > 1e-4*(1+math.Abs(s)) {
							t.Fatalf("d %d rows %d fast %v: row %d query %d sum %v thr %v: reported %v", d, rows, fast, i, v, s, thr[v], !want)
						}
					}
				}
			}
		}
	}
}

// DotRows gives Dot's sums, up to rounding, for every shape: rows and
// widths on either side of the kernel's multiples of four, strides wider
// than the rows.
func TestDotRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for d := 0; d <= 13; d++ {
		for rows := 0; rows <= 11; rows++ {
			for _, pad := range []int{0, 3} {
				ldx := d + pad
				x := make([]float64, max(rows*ldx, 1))
				for i := range x {
					x[i] = rng.NormFloat64()
				}
				q := make([]float64, d)
				for i := range q {
					q[i] = rng.NormFloat64()
				}
				out := make([]float64, rows+1)
				out[rows] = 42 // beyond the rows: left alone
				DotRows(out, x, ldx, rows, q)
				for i := range rows {
					want := Dot(q, x[i*ldx:])
					if math.Abs(out[i]-want) > 1e-12*(1+math.Abs(want)) {
						t.Fatalf("d=%d rows=%d ldx=%d: row %d: %g, want %g", d, rows, ldx, i, out[i], want)
					}
				}
				if out[rows] != 42 {
					t.Fatalf("d=%d rows=%d: wrote past the rows", d, rows)
				}
			}
		}
	}
}

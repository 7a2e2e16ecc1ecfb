// Package kernel holds the few hot loops that decide tealab's speed on the
// BLAS-shaped cases (least squares, ridge, covariances, k-means distances,
// a kernel machine's kernel rows):
// plain Go, with an AVX2/FMA path in Go assembly on amd64 processors that
// have it. Go assembly is not cgo: the default `go build` stays one static
// binary, and every other platform (or an old amd64) runs the portable
// loops, which give the same sums up to rounding.
package kernel

// Pad is the row stride (and Gram size) SyrkUpper wants for k columns: k
// rounded up to a multiple of 8, so that its 4x8 tiles never run past a row.
func Pad(k int) int { return (k + 7) &^ 7 }

// SyrkUpper adds AᵀA to C over the upper triangle (and, on the AVX path, a
// few entries below it): A is rows x k, row-major with stride lda, and C is
// k x k, row-major with stride ldc. With lda and ldc at least Pad(k), C
// holding Pad(k) rows, and the padding columns of A zero, the tiles of the
// fast path stay inside the slices; the portable path needs only k.
func SyrkUpper(c []float64, ldc int, a []float64, lda, rows, k int) {
	if rows == 0 || k == 0 {
		return
	}
	if useAVX && lda >= Pad(k) && ldc >= Pad(k) && len(c) >= Pad(k)*ldc && len(a) >= (rows-1)*lda+Pad(k) {
		syrkTiles(c, ldc, a, lda, rows, k)
		return
	}
	syrkGo(c, ldc, a, lda, rows, k)
}

// syrkTiles covers the upper triangle with 4x8 tiles of the AVX kernel.
func syrkTiles(c []float64, ldc int, a []float64, lda, rows, k int) {
	for i := 0; i < k; i += 4 {
		for j := i &^ 7; j < k; j += 8 {
			gramTile(&c[i*ldc+j], ldc, &a[i], &a[j], lda, rows)
		}
	}
}

// syrkGo is the portable loop: four rows and two output rows at a time, so
// that every load feeds eight multiply-adds.
func syrkGo(c []float64, ldc int, b []float64, ldb, rows, q int) {
	r := 0
	for ; r+4 <= rows; r += 4 {
		a0 := b[r*ldb : r*ldb+q]
		a1 := b[(r+1)*ldb : (r+1)*ldb+q]
		a2 := b[(r+2)*ldb : (r+2)*ldb+q]
		a3 := b[(r+3)*ldb : (r+3)*ldb+q]
		i := 0
		for ; i+2 <= q; i += 2 {
			u0, u1, u2, u3 := a0[i], a1[i], a2[i], a3[i]
			v0, v1, v2, v3 := a0[i+1], a1[i+1], a2[i+1], a3[i+1]
			c[i*ldc+i] += u0*u0 + u1*u1 + u2*u2 + u3*u3
			ci := c[i*ldc+i+1 : i*ldc+q]
			cj := c[(i+1)*ldc+i+1 : (i+1)*ldc+q]
			b0, b1, b2, b3 := a0[i+1:], a1[i+1:], a2[i+1:], a3[i+1:]
			b1 = b1[:len(b0)]
			b2 = b2[:len(b0)]
			b3 = b3[:len(b0)]
			ci = ci[:len(b0)]
			cj = cj[:len(b0)]
			for j := range b0 {
				x0, x1, x2, x3 := b0[j], b1[j], b2[j], b3[j]
				ci[j] += u0*x0 + u1*x1 + u2*x2 + u3*x3
				cj[j] += v0*x0 + v1*x1 + v2*x2 + v3*x3
			}
		}
		if i < q {
			u0, u1, u2, u3 := a0[i], a1[i], a2[i], a3[i]
			c[i*ldc+i] += u0*u0 + u1*u1 + u2*u2 + u3*u3
		}
	}
	for ; r < rows; r++ {
		a0 := b[r*ldb : r*ldb+q]
		for i, u := range a0 {
			if u == 0 {
				continue
			}
			ci := c[i*ldc+i : i*ldc+q]
			for j, v := range a0[i:] {
				ci[j] += u * v
			}
		}
	}
}

// RowDots sets out[i·ldo+v] = Σ_j x[i·ldx+j] · cen[j·8+v] for the rows
// i < rows of x (row-major, stride ldx, d features) and the eight columns v
// of cen (d x 8, row-major): the dot products of every row with eight
// points at once, as k-means needs them (a distance is ‖x‖² − 2x·μ + ‖μ‖²).
// The rows are read in place, four at a time by the assembly kernel.
func RowDots(out []float64, ldo int, x []float64, ldx, rows, d int, cen []float64) {
	if rows == 0 {
		return
	}
	_ = out[(rows-1)*ldo+7]
	if d == 0 {
		rowDotsGo(out, ldo, x, ldx, rows, d, cen)
		return
	}
	_ = cen[d*8-1]
	_ = x[(rows-1)*ldx+d-1]
	done := 0
	if useAVX && rows >= 4 {
		done = rows &^ 3
		rowDots(&out[0], ldo, &x[0], ldx, &cen[0], d, done/4)
	}
	if done < rows {
		rowDotsGo(out[done*ldo:], ldo, x[done*ldx:], ldx, rows-done, d, cen)
	}
}

// rowDotsGo is RowDots' portable loop.
func rowDotsGo(out []float64, ldo int, x []float64, ldx, rows, d int, cen []float64) {
	for i := range rows {
		o := out[i*ldo : i*ldo+8]
		clear(o)
		for j, xv := range x[i*ldx : i*ldx+d] {
			c := cen[j*8 : j*8+8]
			for v := range o {
				o[v] += xv * c[v]
			}
		}
	}
}

// SqDist is the squared Euclidean distance between a and b (b at least as
// long as a): the loop every distance-based model and score shares.
func SqDist(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for j, v := range a {
		e := v - b[j]
		s += e * e
	}
	return s
}

// Dot is a·b (b at least as long as a) with four running sums, so that the
// additions do not wait on one another: the inner loop of the perceptron,
// the linear SVM's solvers and kernel rows.
func Dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(a); j += 4 {
		s0 += a[j] * b[j]
		s1 += a[j+1] * b[j+1]
		s2 += a[j+2] * b[j+2]
		s3 += a[j+3] * b[j+3]
	}
	for ; j < len(a); j++ {
		s0 += a[j] * b[j]
	}
	return (s0 + s1) + (s2 + s3)
}

// DotRows sets out[i] = Σ_j x[i·ldx+j]·q[j] for the rows i < rows of x
// (row-major, stride ldx ≥ len(q)): one point's dot products with many
// rows, as a kernel machine's kernel rows need them. The assembly kernel
// takes four rows and four values at a time; the sums differ from Dot's
// only by rounding.
func DotRows(out []float64, x []float64, ldx, rows int, q []float64) {
	if rows <= 0 {
		return
	}
	d := len(q)
	_ = out[rows-1]
	if d == 0 {
		clear(out[:rows])
		return
	}
	_ = x[(rows-1)*ldx+d-1]
	quads, done := 0, 0
	if useAVX && rows >= 4 && d >= 4 {
		quads, done = d/4, rows&^3
		dotRows(&out[0], &x[0], ldx, &q[0], quads, done/4)
		if tail := q[4*quads:]; len(tail) > 0 {
			for i := range done {
				out[i] += Dot(tail, x[i*ldx+4*quads:])
			}
		}
	}
	for i := done; i < rows; i++ {
		out[i] = Dot(q, x[i*ldx:])
	}
}

// DotsBelow is the candidate scan of exhaustive nearest-neighbour search:
// with q holding sixteen queries times −2 (d x 16, row-major) and nb the
// rows' squared norms, nb[i] + Σ_j x[i·ldx+j]·q[j·16+v] is row i's squared
// distance to query v less the query's own squared norm. For every row
// i < rows of x (float32, row-major, stride ldx) where that sum is at most
// thr[v] for some v, DotsBelow writes uint32(i)<<16 | mask (bit v for each
// such v) to hits and returns how many it wrote. A NaN in nb or thr never
// compares, so NaN rows and unused queries give no hits. The sums are
// float32 with the rounding of any order of summation (the caller allows
// for it); rows must be below 1<<16, and hits have room for rows entries.
func DotsBelow(hits []uint32, x []float32, ldx, rows, d int, q, nb []float32, thr *[16]float32) int {
	if rows <= 0 {
		return 0
	}
	if rows >= 1<<16 {
		panic("kernel: DotsBelow takes fewer than 65536 rows")
	}
	_ = hits[rows-1]
	_ = nb[rows-1]
	if d > 0 {
		_ = q[d*16-1]
		_ = x[(rows-1)*ldx+d-1]
	}
	done, count := 0, 0
	if useAVX && rows >= 4 && d > 0 {
		done = rows &^ 3
		count = dotsBelow(&hits[0], &x[0], ldx, &q[0], d, &nb[0], &thr[0], done/4)
	}
	for i := done; i < rows; i++ {
		if mask := rowBelow(x[i*ldx:i*ldx+d], q, nb[i], thr); mask != 0 {
			hits[count] = uint32(i)<<16 | mask
			count++
		}
	}
	return count
}

// rowBelow is the mask of the queries v whose sum nb + Σ_j row[j]·q[j·16+v]
// is at most thr[v]: DotsBelow's portable loop for one row.
func rowBelow(row, q []float32, nb float32, thr *[16]float32) uint32 {
	var s [16]float32
	for j, xv := range row {
		qj := q[j*16 : j*16+16]
		for v := range s {
			s[v] += xv * qj[v]
		}
	}
	mask := uint32(0)
	for v := range s {
		if nb+s[v] <= thr[v] {
			mask |= 1 << v
		}
	}
	return mask
}

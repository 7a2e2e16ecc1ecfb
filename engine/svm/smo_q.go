package svm

import (
	"github.com/tealab/tealab/engine/kernel"
	"gonum.org/v1/gonum/mat"
)

// smoRows are the rows a kernel machine computes kernel values between,
// stored one after another with their squared norms (the RBF kernel is
// exp(−γ(‖a‖² + ‖b‖² − 2a·b))).
type smoRows struct {
	x  []float64
	d  int
	sq []float64
	k  Kernel
}

// newSMORows copies the rows idx of X (all rows when idx is nil).
func newSMORows(X mat.Matrix, idx []int, k Kernel) *smoRows {
	n, d := X.Dims()
	if idx == nil {
		idx = make([]int, n)
		for i := range idx {
			idx[i] = i
		}
	}
	r := &smoRows{x: make([]float64, len(idx)*d), d: d, sq: make([]float64, len(idx)), k: k}
	for i, src := range idx {
		row := r.row(i)
		mat.Row(row, src, X)
		r.sq[i] = kernel.Dot(row, row)
	}
	return r
}

func (r *smoRows) row(i int) []float64 { return r.x[i*r.d : (i+1)*r.d : (i+1)*r.d] }

// fill sets out[j] = k(x_i, x_j) for j in [from, to).
func (r *smoRows) fill(out []float64, i, from, to int) {
	if from >= to {
		return
	}
	r.dots(out, r.row(i), from, to)
	r.fromDots(out[from:to], r.sq[i], r.sq[from:to])
}

// fromDots turns the dot products v[j] = a·b_j into kernel values, in
// place, given ‖a‖² and each ‖b_j‖²; the RBF kernel, the one that costs,
// is computed four values at a time (kernel.RBFRow).
func (r *smoRows) fromDots(v []float64, sqa float64, sqb []float64) {
	if r.k.Kind != RBF {
		for j, ab := range v {
			v[j] = r.k.fromDot(ab, sqa, sqb[j])
		}
		return
	}
	kernel.RBFRow(v, v, sqb, sqa, r.k.Gamma)
}

// eval sets out[j] = k(x_j, b) for a row b whose squared norm is sqb.
func (r *smoRows) eval(out []float64, b []float64, sqb float64) {
	r.dots(out, b, 0, len(out))
	r.fromDots(out, sqb, r.sq)
}

func (r *smoRows) swap(i, j int) {
	a, b := r.row(i), r.row(j)
	for t := range a {
		a[t], b[t] = b[t], a[t]
	}
	r.sq[i], r.sq[j] = r.sq[j], r.sq[i]
}

// svcQ is Q_ij = y_i y_j k(x_i, x_j) of a two-class SVM; its rows, the
// labels and the cache move together when the solver swaps variables.
type svcQ struct {
	rows  *smoRows
	y     []float64
	cache *smoCache
	qd    []float64
}

func newSVCQ(rows *smoRows, y []float64, budget int) *svcQ {
	q := &svcQ{rows: rows, y: append([]float64(nil), y...), cache: newSMOCache(len(y), budget), qd: make([]float64, len(y))}
	for i := range q.qd {
		q.qd[i] = rows.k.Eval(rows.row(i), rows.row(i))
	}
	return q
}

// row fills what the cache lacks of row i.
func (q *svcQ) row(i, length int) []float64 {
	buf, have := q.cache.get(i, length)
	q.rows.fill(buf, i, have, length)
	yi := q.y[i]
	for j := have; j < length; j++ {
		buf[j] *= yi * q.y[j]
	}
	return buf[:length]
}

// diag is read once, before any swap (the solver keeps its own copy).
func (q *svcQ) diag() []float64 { return q.qd }

func (q *svcQ) swap(i, j int) {
	q.cache.swap(i, j)
	q.rows.swap(i, j)
	q.y[i], q.y[j] = q.y[j], q.y[i]
}

// svrQ is the Q of ε-SVR's 2n variables (α then α*): Q_st =
// sign_s sign_t k(x_s mod n, x_t mod n). Kernel rows are cached by row of
// X, whole, and never move; swaps move only the variables' signs and rows.
type svrQ struct {
	rows  *smoRows
	sign  []float64
	index []int
	cache *smoCache
	qd    []float64
	buf   [2][]float64
	next  int
}

func newSVRQ(rows *smoRows, budget int) *svrQ {
	n := len(rows.sq)
	q := &svrQ{rows: rows, sign: make([]float64, 2*n), index: make([]int, 2*n), cache: newSMOCache(n, budget),
		qd: make([]float64, 2*n), buf: [2][]float64{make([]float64, 2*n), make([]float64, 2*n)}}
	for i := 0; i < n; i++ {
		q.sign[i], q.sign[i+n] = 1, -1
		q.index[i], q.index[i+n] = i, i
		kii := rows.k.Eval(rows.row(i), rows.row(i))
		q.qd[i], q.qd[i+n] = kii, kii
	}
	return q
}

func (q *svrQ) row(i, length int) []float64 {
	n := len(q.rows.sq)
	real := q.index[i]
	kr, have := q.cache.get(real, n)
	if have < n {
		q.rows.fill(kr, real, have, n)
	}
	buf := q.buf[q.next][:length]
	q.next ^= 1
	si := q.sign[i]
	for j := range buf {
		buf[j] = si * q.sign[j] * kr[q.index[j]]
	}
	return buf
}

func (q *svrQ) diag() []float64 { return q.qd }

func (q *svrQ) swap(i, j int) {
	q.sign[i], q.sign[j] = q.sign[j], q.sign[i]
	q.index[i], q.index[j] = q.index[j], q.index[i]
}

// dots sets out[j] = xi·x_j for j in [from, to) (kernel.DotRows: four rows
// and four features at a time).
func (r *smoRows) dots(out, xi []float64, from, to int) {
	if from < to {
		kernel.DotRows(out[from:to], r.x[from*r.d:], r.d, to-from, xi[:r.d])
	}
}

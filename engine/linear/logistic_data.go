// The training data as Logistic's solvers read it: BLAS products with X and
// the (subsampled) weighted Gram matrices the Newton Hessians are built from.

package linear

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// logitData is the training data as the batch solvers read it: the rows of
// X in place (row-major, as prepared: no transposed or lifted copy, which
// would double the memory a large fit needs), with the intercept handled
// apart. X·w and Xᵀr are BLAS matrix-vector products.
type logitData struct {
	n, p, q int
	X       blas64.General // n × p, the training rows
	sw      []float64      // sample weights; nil = all 1
	wsum    float64
	C       float64
	// sample is the order in which the Newton Hessian takes rows: shuffled
	// when it is subsampled (its sample is then the leading entries), nil
	// when every row is used.
	sample []int
	b, v   []float64 // gramChunk × q scratch for the Hessian
	h      []float64 // n scratch for the Hessian's row weights, made on first use
}

// rowWeights is the shared n scratch of the Hessians (runs take turns).
func (d *logitData) rowWeights() []float64 {
	if d.h == nil {
		d.h = make([]float64, d.n)
	}
	return d.h
}

func newLogitData(X *mat.Dense, C float64, sw []float64) *logitData {
	n, p := X.Dims()
	q := p + 1
	d := &logitData{n: n, p: p, q: q, C: C, X: X.RawMatrix(), sw: sw, wsum: float64(n),
		b: make([]float64, gramChunk*q), v: make([]float64, gramChunk*q)}
	if sw != nil {
		d.wsum = floats.Sum(sw)
	}
	return d
}

// gramChunk is how many rows the Hessian gathers at a time.
const gramChunk = 1024

// linear sets z = X θ[:p] + θ[p], the logits of one output with weights and
// intercept θ.
func (d *logitData) linear(z, theta []float64) {
	for i := range z {
		z[i] = theta[d.p]
	}
	blas64.Gemv(blas.NoTrans, 1, d.X, blas64.Vector{N: d.p, Inc: 1, Data: theta[:d.p]}, 1, blas64.Vector{N: d.n, Inc: 1, Data: z})
}

// gradient sets grad[:p] = Xᵀr + θ[:p] and grad[p] = Σr.
func (d *logitData) gradient(grad, theta, r []float64) {
	copy(grad[:d.p], theta[:d.p])
	blas64.Gemv(blas.Trans, 1, d.X, blas64.Vector{N: d.n, Inc: 1, Data: r}, 1, blas64.Vector{N: d.p, Inc: 1, Data: grad[:d.p]})
	grad[d.p] = floats.Sum(r)
}

func (d *logitData) weight(i int) float64 {
	if d.sw == nil {
		return 1
	}
	return d.sw[i]
}

// hessRows is how many rows the Hessian of iteration it (0-based) uses:
// every row for small data, else a sample growing from logitHessMin by √2 an
// iteration (doubling was measured slower: the early iterations need little
// accuracy, and a Hessian from 10^4 rows already gives fast linear
// convergence on a few dozen features).
func (d *logitData) hessRows(it int) int {
	if d.n <= 2*logitHessMin || it >= 40 {
		return d.n
	}
	return min(d.n, int(logitHessMin*math.Pow(2, float64(it)/2)))
}

// hessIndex returns the rows a Hessian on rows rows uses, nil for all.
func (d *logitData) hessIndex(rows int) []int {
	if rows >= d.n || d.sample == nil {
		return nil
	}
	return d.sample[:rows]
}

// hessScale estimates a full-data sum from the rows idx (nil: all).
func (d *logitData) hessScale(idx []int) float64 {
	if idx == nil {
		return 1
	}
	if d.sw == nil {
		return float64(d.n) / float64(len(idx))
	}
	s := 0.0
	for _, i := range idx {
		s += d.sw[i]
	}
	if s == 0 {
		return 1
	}
	return d.wsum / s
}

// addWeightedGram adds scale·Σ_i a_i x_i x_iᵀ over the rows idx (nil: all),
// x_i lifted by a final 1, into the q × q block of the row-major matrix H
// (leading dimension ld) at (r0, c0). The rows go in chunks: a chunk B of
// lifted rows and its weighted copy V = diag(a) B, then one matrix product
// Bᵀ V. A diagonal block (upper) of a matrix stored as its upper triangle
// may have its lower triangle written too; nothing reads it.
func (d *logitData) addWeightedGram(H []float64, ld, r0, c0 int, a []float64, idx []int, scale float64, upper bool) {
	_ = upper
	q, p := d.q, d.p
	rows := d.n
	if idx != nil {
		rows = len(idx)
	}
	blk := blas64.General{Rows: q, Cols: q, Stride: ld, Data: H[r0*ld+c0:]}
	for i0 := 0; i0 < rows; i0 += gramChunk {
		m := min(rows, i0+gramChunk) - i0
		B := blas64.General{Rows: m, Cols: q, Stride: q, Data: d.b[:m*q]}
		V := blas64.General{Rows: m, Cols: q, Stride: q, Data: d.v[:m*q]}
		for r := 0; r < m; r++ {
			i := i0 + r
			if idx != nil {
				i = idx[i]
			}
			x := d.X.Data[i*d.X.Stride : i*d.X.Stride+p]
			br, vr := B.Data[r*q:(r+1)*q], V.Data[r*q:(r+1)*q]
			copy(br, x)
			br[p] = 1
			floats.ScaleTo(vr, a[i], br)
		}
		blas64.Gemm(blas.Trans, blas.NoTrans, scale, B, V, 1, blk)
	}
}

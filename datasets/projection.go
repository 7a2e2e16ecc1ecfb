package datasets

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// projection is the "reduce first" stage of a Prep: the rows centred and
// projected onto the top k eigenvectors of their covariance (principal
// components), fitted on the training rows.
type projection struct {
	mean []float64
	V    *mat.Dense // k × p, one component a row
}

func (pr *projection) fit(Z *mat.Dense, k int) error {
	n, p := Z.Dims()
	if n < 2 {
		return fmt.Errorf("preprocessing: principal axes need at least 2 rows")
	}
	pr.mean = make([]float64, p)
	for i := range n {
		for j, v := range Z.RawRowView(i) {
			pr.mean[j] += v / float64(n)
		}
	}
	_, V, err := PrincipalAxes(Covariance(Z, pr.mean, nil), k)
	if err != nil {
		return fmt.Errorf("preprocessing: %w", err)
	}
	pr.V = V
	return nil
}

// blockRows is how many rows Covariance and Project centre at a time:
// about 1 MB, however many rows there are, instead of a centred copy of all.
func blockRows(p int) int { return max(64, (1<<20)/8/max(p, 1)) }

// centreBlock writes rows i0.. of X, less mean and divided by scale (nil:
// neither), into B, one row of B a row of X.
func centreBlock(B, X *mat.Dense, i0 int, mean, scale []float64) {
	r, _ := B.Dims()
	for u := range r {
		dst := B.RawRowView(u)
		copy(dst, X.RawRowView(i0+u))
		if mean != nil {
			for j := range dst {
				dst[j] -= mean[j]
			}
		}
		if scale != nil {
			for j := range dst {
				dst[j] /= scale[j]
			}
		}
	}
}

// Covariance is C'C/(n−1) for C the rows of X (n ≥ 2) less mean and
// divided by scale (nil: neither), formed a block of rows at a time.
func Covariance(X *mat.Dense, mean, scale []float64) *mat.SymDense {
	n, p := X.Dims()
	S := mat.NewSymDense(p, nil)
	buf := mat.NewDense(min(n, blockRows(p)), p, nil)
	for i0 := 0; i0 < n; i0 += blockRows(p) {
		B := buf.Slice(0, min(blockRows(p), n-i0), 0, p).(*mat.Dense)
		centreBlock(B, X, i0, mean, scale)
		S.SymRankK(S, 1, B.T())
	}
	S.ScaleSym(1/float64(n-1), S)
	return S
}

// Project returns the rows of X less mean and divided by scale (nil:
// neither) times Vᵀ: their coordinates along the rows of V, a block of rows
// at a time.
func Project(X *mat.Dense, mean, scale []float64, V *mat.Dense) *mat.Dense {
	n, p := X.Dims()
	k, _ := V.Dims()
	out := mat.NewDense(n, k, nil)
	buf := mat.NewDense(min(n, blockRows(p)), p, nil)
	for i0 := 0; i0 < n; i0 += blockRows(p) {
		r := min(blockRows(p), n-i0)
		B := buf.Slice(0, r, 0, p).(*mat.Dense)
		centreBlock(B, X, i0, mean, scale)
		out.Slice(i0, i0+r, 0, k).(*mat.Dense).Mul(B, V.T())
	}
	return out
}

// ComponentsError is PrincipalAxes' error for more components than
// features: a choice these data do not allow (the engine's callers report
// it as such).
type ComponentsError struct{ K, Features int }

func (e *ComponentsError) Error() string {
	return fmt.Sprintf("%d principal components but the data have %d features; use at most %d", e.K, e.Features, e.Features)
}

// PrincipalAxes decomposes a p × p covariance S: every eigenvalue, largest
// first, and the eigenvectors of the first k as the rows of V, each signed
// so that its largest loading is positive (the same data give the same
// axes).
func PrincipalAxes(S *mat.SymDense, k int) (values []float64, V *mat.Dense, err error) {
	p := S.SymmetricDim()
	if k > p {
		return nil, nil, &ComponentsError{K: k, Features: p}
	}
	var eig mat.EigenSym
	if !eig.Factorize(S, true) {
		return nil, nil, fmt.Errorf("the covariance's eigendecomposition did not converge")
	}
	asc := eig.Values(nil)
	values = make([]float64, p)
	for i := range p {
		values[i] = max(asc[p-1-i], 0)
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	V = mat.NewDense(k, p, nil)
	for c := range k {
		v := mat.Col(nil, p-1-c, &vecs)
		big := 0
		for j := range v {
			if math.Abs(v[j]) > math.Abs(v[big]) {
				big = j
			}
		}
		if v[big] < 0 {
			for j := range v {
				v[j] = -v[j]
			}
		}
		V.SetRow(c, v)
	}
	return values, V, nil
}

func (pr *projection) apply(Z *mat.Dense) *mat.Dense { return Project(Z, pr.mean, nil, pr.V) }

func (pr *projection) names() []string {
	k, _ := pr.V.Dims()
	out := make([]string, k)
	for c := range out {
		out[c] = fmt.Sprintf("PC%d", c+1)
	}
	return out
}

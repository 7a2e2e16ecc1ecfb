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
	pr.mean = make([]float64, p)
	for i := range n {
		for j, v := range Z.RawRowView(i) {
			pr.mean[j] += v / float64(n)
		}
	}
	_, V, err := PrincipalAxes(pr.centre(Z), k)
	if err != nil {
		return fmt.Errorf("preprocessing: %w", err)
	}
	pr.V = V
	return nil
}

// ComponentsError is PrincipalAxes' error for more components than
// features: a choice these data do not allow (the engine's callers report
// it as such).
type ComponentsError struct{ K, Features int }

func (e *ComponentsError) Error() string {
	return fmt.Sprintf("%d principal components but the data have %d features; use at most %d", e.K, e.Features, e.Features)
}

// PrincipalAxes decomposes the covariance C'C/(n−1) of centred rows C
// (n × p): every eigenvalue, largest first, and the eigenvectors of the
// first k as the rows of V, each signed so that its largest loading is
// positive (the same data give the same axes). One symmetric p × p
// eigendecomposition, however many rows.
func PrincipalAxes(C *mat.Dense, k int) (values []float64, V *mat.Dense, err error) {
	n, p := C.Dims()
	if n < 2 {
		return nil, nil, fmt.Errorf("principal axes need at least 2 rows")
	}
	if k > p {
		return nil, nil, &ComponentsError{K: k, Features: p}
	}
	var S mat.SymDense
	S.SymOuterK(1/float64(n-1), C.T())
	var eig mat.EigenSym
	if !eig.Factorize(&S, true) {
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

func (pr *projection) apply(Z *mat.Dense) *mat.Dense {
	n, _ := Z.Dims()
	k, _ := pr.V.Dims()
	out := mat.NewDense(n, k, nil)
	out.Mul(pr.centre(Z), pr.V.T())
	return out
}

// centre is a copy of Z less the training means.
func (pr *projection) centre(Z *mat.Dense) *mat.Dense {
	n, p := Z.Dims()
	C := mat.NewDense(n, p, nil)
	for i := range n {
		row := C.RawRowView(i)
		for j, v := range Z.RawRowView(i) {
			row[j] = v - pr.mean[j]
		}
	}
	return C
}

func (pr *projection) names() []string {
	k, _ := pr.V.Dims()
	out := make([]string, k)
	for c := range out {
		out[c] = fmt.Sprintf("PC%d", c+1)
	}
	return out
}

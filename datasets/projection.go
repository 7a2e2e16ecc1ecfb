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
	if k > p {
		return fmt.Errorf("preprocessing: %d principal components asked of %d features", k, p)
	}
	if n < 2 {
		return fmt.Errorf("preprocessing: principal components need at least 2 training rows")
	}
	pr.mean = make([]float64, p)
	for i := range n {
		for j, v := range Z.RawRowView(i) {
			pr.mean[j] += v / float64(n)
		}
	}
	C := mat.NewDense(n, p, nil)
	for i := range n {
		row := C.RawRowView(i)
		for j, v := range Z.RawRowView(i) {
			row[j] = v - pr.mean[j]
		}
	}
	var S mat.SymDense
	S.SymOuterK(1/float64(n-1), C.T())
	var eig mat.EigenSym
	if !eig.Factorize(&S, true) {
		return fmt.Errorf("preprocessing: the covariance's eigendecomposition did not converge")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	pr.V = mat.NewDense(k, p, nil)
	for c := range k {
		v := mat.Col(nil, p-1-c, &vecs) // largest eigenvalue first
		big := 0
		for j := range v {
			if math.Abs(v[j]) > math.Abs(v[big]) {
				big = j
			}
		}
		if v[big] < 0 { // sign: the largest loading positive
			for j := range v {
				v[j] = -v[j]
			}
		}
		pr.V.SetRow(c, v)
	}
	return nil
}

func (pr *projection) apply(Z *mat.Dense) *mat.Dense {
	n, p := Z.Dims()
	k, _ := pr.V.Dims()
	C := mat.NewDense(n, p, nil)
	for i := range n {
		row := C.RawRowView(i)
		for j, v := range Z.RawRowView(i) {
			row[j] = v - pr.mean[j]
		}
	}
	out := mat.NewDense(n, k, nil)
	out.Mul(C, pr.V.T())
	return out
}

func (pr *projection) names() []string {
	k, _ := pr.V.Dims()
	out := make([]string, k)
	for c := range out {
		out[c] = fmt.Sprintf("PC%d", c+1)
	}
	return out
}

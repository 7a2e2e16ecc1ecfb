package cluster

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// Model files (engine.Persistent): each clustering keeps what places a new
// row (centres, medoid rows, the mixture's components; for hierarchical
// and spectral clustering, which have no rule of their own, the training
// rows) and the cluster of each training row.

// unmarshalState decodes a state into s and checks it with check.
func unmarshalState(model string, b []byte, s any, check func() error) error {
	err := engine.DecodeStrict(b, s)
	if err == nil {
		err = check()
	}
	if err != nil {
		return fmt.Errorf("%s: model state: %w", model, err)
	}
	return nil
}

// rowsOf lists the rows of A.
func rowsOf(A *mat.Dense) [][]float64 {
	r, _ := A.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = mat.Row(nil, i, A)
	}
	return out
}

// denseOf is rows as a matrix: at least one row, all of one length, at
// least one column.
func denseOf(name string, rows [][]float64) (*mat.Dense, error) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil, fmt.Errorf("no %s", name)
	}
	d := len(rows[0])
	A := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		if len(r) != d {
			return nil, fmt.Errorf("%s: row %d has %d values, row 0 has %d", name, i, len(r), d)
		}
		A.SetRow(i, r)
	}
	return A, nil
}

// checkClusters checks the number of clusters against the model's k (0:
// as many as the data had classes, so any).
func checkClusters(name string, got, k int) error {
	if k > 0 && got != k {
		return fmt.Errorf("%d %s, but the model was built with k=%d", got, name, k)
	}
	return nil
}

// checkLabels checks the training rows' clusters: each one of 0..k-1.
func checkLabels(labels []int, k int) error {
	for i, c := range labels {
		if c < 0 || c >= k {
			return fmt.Errorf("labels: row %d is in cluster %d, not one of 0..%d", i, c, k-1)
		}
	}
	return nil
}

type kmeansState struct {
	Centres [][]float64 `json:"centres"`
	Labels  []int       `json:"labels"`
	Inertia float64     `json:"inertia"`
}

// MarshalState implements engine.Persistent.
func (m *KMeans) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("k-means", m.Fitted, func() any {
		return kmeansState{Centres: rowsOf(m.centres), Labels: m.labels, Inertia: m.inertia}
	})
}

// UnmarshalState implements engine.Persistent.
func (m *KMeans) UnmarshalState(b []byte) error {
	var s kmeansState
	var C *mat.Dense
	return unmarshalState("k-means", b, &s, func() (err error) {
		if C, err = denseOf("centres", s.Centres); err != nil {
			return err
		}
		if err := checkClusters("centres", len(s.Centres), m.K); err != nil {
			return err
		}
		if err := checkLabels(s.Labels, len(s.Centres)); err != nil {
			return err
		}
		m.centres, m.labels, m.inertia, m.Fitted = C, s.Labels, s.Inertia, true
		return nil
	})
}

type kmedoidsState struct {
	Medoids [][]float64 `json:"medoids"` // the medoids' rows
	Labels  []int       `json:"labels"`
}

// MarshalState implements engine.Persistent.
func (m *KMedoids) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("k-medoids", m.Fitted, func() any {
		s := kmedoidsState{Medoids: make([][]float64, len(m.medoids)), Labels: m.labels}
		for c, i := range m.medoids {
			s.Medoids[c] = mat.Row(nil, i, m.X)
		}
		return s
	})
}

// UnmarshalState implements engine.Persistent: the medoids' rows become
// the rows the model keeps, medoid c its row c.
func (m *KMedoids) UnmarshalState(b []byte) error {
	var s kmedoidsState
	return unmarshalState("k-medoids", b, &s, func() error {
		X, err := denseOf("medoids", s.Medoids)
		if err != nil {
			return err
		}
		if err := checkClusters("medoids", len(s.Medoids), m.K); err != nil {
			return err
		}
		if err := checkLabels(s.Labels, len(s.Medoids)); err != nil {
			return err
		}
		dist, err := metricFunc(m.Metric)
		if err != nil {
			return err
		}
		m.medoids = make([]int, len(s.Medoids))
		for c := range m.medoids {
			m.medoids[c] = c
		}
		m.X, m.labels, m.dist, m.Fitted = X, s.Labels, dist, true
		return nil
	})
}

type gmmState struct {
	Weights     []float64     `json:"weights"`
	Means       [][]float64   `json:"means"`
	Covariances [][][]float64 `json:"covariances,omitempty"` // covariance=full: a d × d matrix a component
	Variances   [][]float64   `json:"variances,omitempty"`   // diagonal, spherical: d variances a component
	Labels      []int         `json:"labels"`
	LogLik      float64       `json:"loglik"`
}

// MarshalState implements engine.Persistent.
func (g *GMM) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("Gaussian mixture", g.Fitted, func() any {
		s := gmmState{Weights: g.weights, Means: rowsOf(g.means), Labels: g.labels, LogLik: g.loglik}
		if g.cov == CovFull {
			for _, S := range g.covs {
				s.Covariances = append(s.Covariances, rowsOf(mat.DenseCopyOf(S)))
			}
		} else {
			s.Variances = rowsOf(g.vars)
		}
		return s
	})
}

// UnmarshalState implements engine.Persistent: a full covariance is
// factorised again, as the fit factorised it.
func (g *GMM) UnmarshalState(b []byte) error {
	var s gmmState
	return unmarshalState("Gaussian mixture", b, &s, func() error {
		means, err := denseOf("means", s.Means)
		if err != nil {
			return err
		}
		k, d := means.Dims()
		if err := checkClusters("components", k, g.K); err != nil {
			return err
		}
		if len(s.Weights) != k {
			return fmt.Errorf("%d weights for %d components", len(s.Weights), k)
		}
		for c, w := range s.Weights {
			if !(w > 0) {
				return fmt.Errorf("component %d has weight %v, not positive", c, w)
			}
		}
		if err := checkLabels(s.Labels, k); err != nil {
			return err
		}
		var chols []*mat.Cholesky
		var covs []*mat.SymDense
		var vars *mat.Dense
		if g.Covariance == CovFull {
			chols, covs, err = factorised(s.Covariances, s.Variances, k, d)
		} else {
			vars, err = variances(s.Variances, s.Covariances, k, d)
		}
		if err != nil {
			return err
		}
		g.weights, g.means, g.chols, g.covs, g.vars = s.Weights, means, chols, covs, vars
		g.labels, g.loglik, g.d, g.cov, g.Fitted = s.Labels, s.LogLik, d, g.Covariance, true
		return nil
	})
}

// factorised checks k symmetric positive definite d × d covariances and
// factorises them.
func factorised(rows [][][]float64, other [][]float64, k, d int) ([]*mat.Cholesky, []*mat.SymDense, error) {
	if len(other) > 0 || len(rows) != k {
		return nil, nil, fmt.Errorf("covariance=full needs covariances, a d × d matrix for each of the %d components", k)
	}
	chols, covs := make([]*mat.Cholesky, k), make([]*mat.SymDense, k)
	for c, r := range rows {
		A, err := denseOf(fmt.Sprintf("covariance %d", c), r)
		if err != nil {
			return nil, nil, err
		}
		if n, m := A.Dims(); n != d || m != d {
			return nil, nil, fmt.Errorf("covariance %d is %d × %d, not %d × %d", c, n, m, d, d)
		}
		if !mat.Equal(A, A.T()) {
			return nil, nil, fmt.Errorf("covariance %d is not symmetric", c)
		}
		S := mat.NewSymDense(d, A.RawMatrix().Data)
		var ch mat.Cholesky
		if !ch.Factorize(S) {
			return nil, nil, fmt.Errorf("covariance %d is not positive definite", c)
		}
		chols[c], covs[c] = &ch, S
	}
	return chols, covs, nil
}

// variances checks k rows of d positive variances.
func variances(rows [][]float64, other [][][]float64, k, d int) (*mat.Dense, error) {
	if len(other) > 0 || len(rows) != k {
		return nil, fmt.Errorf("diagonal and spherical covariances need variances, d of them for each of the %d components", k)
	}
	V, err := denseOf("variances", rows)
	if err != nil {
		return nil, err
	}
	if _, m := V.Dims(); m != d {
		return nil, fmt.Errorf("variances: %d a component for %d features", m, d)
	}
	for c, r := range rows {
		for j, v := range r {
			if !(v > 0) {
				return nil, fmt.Errorf("component %d's variance %d is %v, not positive", c, j, v)
			}
		}
	}
	return V, nil
}

// rowsState is a clustering that keeps its training rows and their
// clusters: hierarchical and spectral clustering, whose Assign puts a new
// row in the cluster of its nearest training row.
type rowsState struct {
	Rows   [][]float64 `json:"rows"`
	Labels []int       `json:"labels"`
}

// restore checks the rows and their clusters (at most one a row).
func (s *rowsState) restore() (*mat.Dense, error) {
	X, err := denseOf("rows", s.Rows)
	if err != nil {
		return nil, err
	}
	if len(s.Labels) != len(s.Rows) {
		return nil, fmt.Errorf("%d labels for %d rows", len(s.Labels), len(s.Rows))
	}
	return X, checkLabels(s.Labels, len(s.Rows))
}

// nearestRowLabels gives each row of X the cluster of its nearest training
// row (Euclidean distance; the first such row on a tie).
func nearestRowLabels(model string, rows *mat.Dense, labels []int, X mat.Matrix) ([]float64, error) {
	n, d := X.Dims()
	m, fd := rows.Dims()
	if d != fd {
		return nil, fmt.Errorf("%s: got %d features, fitted on %d", model, d, fd)
	}
	out := make([]float64, n)
	x := make([]float64, d)
	for i := range n {
		mat.Row(x, i, X)
		best, bd := 0, math.Inf(1)
		for r := range m {
			if v := kernel.SqDist(x, rows.RawRowView(r)[:d]); v < bd {
				best, bd = r, v
			}
		}
		out[i] = float64(labels[best])
	}
	return out, nil
}

type hclustState struct {
	rowsState
	// The merge tree, scipy's linkage matrix by columns.
	A      []int     `json:"merge_a"`
	B      []int     `json:"merge_b"`
	Height []float64 `json:"merge_height"`
	Size   []int     `json:"merge_size"`
}

// MarshalState implements engine.Persistent.
func (h *Hclust) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("hierarchical clustering", h.Fitted, func() any {
		s := hclustState{rowsState: rowsState{Rows: rowsOf(h.rows), Labels: h.labels}}
		for _, m := range h.link.Merges {
			s.A, s.B, s.Height, s.Size = append(s.A, m.A), append(s.B, m.B), append(s.Height, m.Height), append(s.Size, m.Size)
		}
		return s
	})
}

// UnmarshalState implements engine.Persistent.
func (h *Hclust) UnmarshalState(b []byte) error {
	var s hclustState
	return unmarshalState("hierarchical clustering", b, &s, func() error {
		X, err := s.restore()
		if err != nil {
			return err
		}
		merges, err := s.merges(len(s.Rows))
		if err != nil {
			return err
		}
		h.rows, h.labels, h.Fitted = X, s.Labels, true
		h.link = &engine.Linkage{Merges: merges, Leaves: len(s.Rows), Method: h.Method}
		return nil
	})
}

// merges checks the merge tree of n rows: n−1 merges, merge i joining two
// clusters formed before it (rows are 0..n−1, merge i forms n+i), none
// twice, its size theirs together.
func (s *hclustState) merges(n int) ([]engine.Merge, error) {
	if len(s.A) != n-1 || len(s.B) != n-1 || len(s.Height) != n-1 || len(s.Size) != n-1 {
		return nil, fmt.Errorf("a merge tree of %d rows has %d merges (merge_a, merge_b, merge_height, merge_size have %d, %d, %d, %d)",
			n, n-1, len(s.A), len(s.B), len(s.Height), len(s.Size))
	}
	size := make([]int, 2*n-1)
	for i := range n {
		size[i] = 1
	}
	out := make([]engine.Merge, n-1)
	for i := range out {
		m := engine.Merge{A: s.A[i], B: s.B[i], Height: s.Height[i], Size: s.Size[i]}
		for _, c := range [2]int{m.A, m.B} {
			if c < 0 || c >= n+i || size[c] == 0 {
				return nil, fmt.Errorf("merge %d joins cluster %d, not one of the clusters left (0..%d)", i, c, n+i-1)
			}
		}
		if m.A == m.B || m.Size != size[m.A]+size[m.B] {
			return nil, fmt.Errorf("merge %d joins clusters %d and %d (%d rows) into %d rows", i, m.A, m.B, size[m.A]+size[m.B], m.Size)
		}
		size[n+i], size[m.A], size[m.B] = m.Size, 0, 0
		out[i] = m
	}
	return out, nil
}

// Assign implements engine.Assigner: the cluster of each row's nearest
// training row.
func (h *Hclust) Assign(X mat.Matrix) ([]float64, error) {
	if !h.Fitted {
		return nil, engine.ErrNotFitted
	}
	return nearestRowLabels("hierarchical clustering", h.rows, h.labels, X)
}

// MarshalState implements engine.Persistent.
func (s *Spectral) MarshalState() ([]byte, error) {
	return engine.MarshalFitted("spectral clustering", s.Fitted, func() any {
		return rowsState{Rows: rowsOf(s.rows), Labels: s.labels}
	})
}

// UnmarshalState implements engine.Persistent.
func (s *Spectral) UnmarshalState(b []byte) error {
	var st rowsState
	return unmarshalState("spectral clustering", b, &st, func() error {
		X, err := st.restore()
		if err != nil {
			return err
		}
		s.rows, s.labels, s.Fitted = X, st.Labels, true
		return nil
	})
}

// Assign implements engine.Assigner: the cluster of each row's nearest
// training row.
func (s *Spectral) Assign(X mat.Matrix) ([]float64, error) {
	if !s.Fitted {
		return nil, engine.ErrNotFitted
	}
	return nearestRowLabels("spectral clustering", s.rows, s.labels, X)
}

var (
	_ engine.Persistent = (*KMeans)(nil)
	_ engine.Persistent = (*KMedoids)(nil)
	_ engine.Persistent = (*GMM)(nil)
	_ engine.Persistent = (*Hclust)(nil)
	_ engine.Persistent = (*Spectral)(nil)
	_ engine.Assigner   = (*Hclust)(nil)
	_ engine.Assigner   = (*Spectral)(nil)
)

package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Similarity graphs and Laplacians.
const (
	GraphKNN      = "knn"
	GraphGaussian = "gaussian"
	GraphEpsilon  = "epsilon"

	LaplacianNormalized   = "normalized"
	LaplacianUnnormalized = "unnormalized"
)

// spectralMemory: the distances, the affinity graph and its Laplacian,
// each a dense n x n matrix.
func spectralMemory(n int) engine.Need {
	need := engine.Matrix(n, n, "affinity graph").Times(3)
	need.Advice = "sample the rows, or use k-means"
	return need
}

// denseEigenRows is the most rows whose Laplacian is decomposed whole; above
// it a Lanczos iteration finds the few eigenvectors needed.
const denseEigenRows = 600

func init() {
	engine.Register(engine.Spec{
		Name:    "spectral",
		Title:   "spectral clustering",
		Family:  family,
		Summary: "cut a similarity graph: the Fiedler vector and a sweep cut for 2 clusters, k eigenvectors and k-means for more",
		Notes:   "Shewchuk, Concise Machine Learning, bonus lecture (graph Laplacians, the Fiedler vector, sweep cuts, normalised cut); Recht, Malik & Tu, CS 189 notes, section 15.3; Ng, Jordan & Weiss 2002",
		Tasks:   []engine.Task{datasets.Clustering},
		Unit:    "step",
		Loss:    "cut (k=2) or k-means objective in the embedding",
		Params: []engine.Param{
			kParam(),
			{Name: "graph", Kind: engine.Choice, Default: GraphKNN, Choices: []string{GraphKNN, GraphGaussian, GraphEpsilon},
				Help: "similarity: each row joined to its nearest neighbours (symmetrised), a Gaussian kernel exp(-gamma·d²) between all rows, or an edge when d <= radius"},
			{Name: "neighbors", Kind: engine.Int, Default: 10, Min: 1, Max: 1000,
				When: &engine.Applies{Param: "graph", In: []string{GraphKNN}}, Help: "neighbours each row is joined to"},
			{Name: "gamma", Kind: engine.Float, Default: 1.0, Min: 1e-6, Max: 1e6, Log: true,
				When: &engine.Applies{Param: "graph", In: []string{GraphGaussian}}, Help: "width of the Gaussian kernel: larger is more local"},
			{Name: "radius", Kind: engine.Float, Default: 1.0, Min: 1e-9, Max: 1e9, Log: true,
				When: &engine.Applies{Param: "graph", In: []string{GraphEpsilon}}, Help: "largest distance joined by an edge"},
			{Name: "laplacian", Kind: engine.Choice, Default: LaplacianNormalized, Choices: []string{LaplacianNormalized, LaplacianUnnormalized},
				Help: "normalized: I − D^-½WD^-½ (normalised cut, Ng–Jordan–Weiss); unnormalized: D − W (ratio cut)"},
		},
		Bench: []engine.BenchCase{{Name: "spectral", Data: "blobs_2k_10", Task: datasets.Clustering,
			Params: map[string]string{"k": "4", "graph": GraphGaussian, "gamma": "1"}}},
		Memory: func(s engine.Shape, _ engine.Values) engine.Need { return spectralMemory(s.Rows) },
		New: func(v engine.Values) (engine.Model, error) {
			return &Spectral{K: v.Int("k"), Graph: v.String("graph"), Neighbors: v.Int("neighbors"),
				Gamma: v.Float("gamma"), Radius: v.Float("radius"), Laplacian: v.String("laplacian")}, nil
		},
	})
}

// Spectral clusters the rows of a similarity graph by the eigenvectors of
// its Laplacian: for two clusters the Fiedler vector (the second smallest)
// ordered and cut where the normalised (or ratio) cut is least; for k
// clusters the first k eigenvectors, each row's entries normalised (the
// normalised version), clustered by k-means.
type Spectral struct {
	K         int
	Graph     string
	Neighbors int
	Gamma     float64
	Radius    float64
	Laplacian string

	labels []int
	rows   *mat.Dense // the training rows, which Assign measures new rows against
	engine.FitState
}

// TrainingLabels implements engine.Labeler.
func (s *Spectral) TrainingLabels() []int { return s.labels }

// Fit implements engine.Model.
func (s *Spectral) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	n, _ := t.X.Dims()
	if err := engine.CheckFinite(t.X, t.Features); err != nil {
		return fmt.Errorf("spectral clustering: %w", err)
	}
	if err := engine.CheckNeed("spectral clustering", spectralMemory(n)); err != nil {
		return err
	}
	k, err := clusters(s.K, t, n)
	if err != nil {
		return fmt.Errorf("spectral clustering: %w", err)
	}
	W, err := s.graph(ctx, t.X)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	normalized := s.Laplacian != LaplacianUnnormalized
	deg := make([]float64, n)
	for i := range n {
		deg[i] = floats.Sum(W.RawRowView(i))
	}
	for i, v := range deg {
		if v == 0 {
			return fmt.Errorf("spectral clustering: row %d has no neighbour in the graph (an isolated point); widen the graph (neighbors, gamma or radius)", i+1)
		}
	}
	vecs, err := smallestEigenvectors(W, deg, normalized, max(k, 2), t.Seed)
	if err != nil {
		return err
	}
	step := 1
	if err := rec.Step(engine.Step{Step: step, TrainLoss: 0, Detail: SpectralGraph{Edges: edges(W)}}); err != nil {
		return err
	}
	if k == 2 {
		// The Fiedler vector (for the normalised Laplacian, D^-½ times its
		// eigenvector: the random-walk one), ordered, cut at the best prefix.
		f := mat.Col(nil, 1, vecs)
		if normalized {
			for i := range f {
				f[i] /= math.Sqrt(deg[i])
			}
		}
		labels, cut := sweepCut(W, deg, f, normalized)
		s.labels, s.rows, s.Fitted = labels, t.X, true
		step++
		if err := rec.Step(engine.Step{Step: step, TrainLoss: cut}); err != nil {
			return err
		}
		return ctx.Err()
	}
	// k eigenvectors as coordinates; rows normalised (Ng–Jordan–Weiss).
	E := mat.DenseCopyOf(vecs.Slice(0, n, 0, k))
	if normalized {
		for i := range n {
			row := E.RawRowView(i)
			if nrm := floats.Norm(row, 2); nrm > 0 {
				floats.Scale(1/nrm, row)
			}
		}
	}
	km := innerKMeans(k, 10)
	inner := engine.Train{X: E, Seed: t.Seed}
	kr := &stepsOf{rec: rec, base: step}
	if err := engine.Fit(ctx, km, inner, kr); err != nil {
		return err
	}
	s.labels, s.rows, s.Fitted = km.TrainingLabels(), t.X, true
	return ctx.Err()
}

// stepsOf passes an inner fit's steps on, numbered after the outer ones.
type stepsOf struct {
	rec  engine.Recorder
	base int
}

func (r *stepsOf) Step(st engine.Step) error {
	st.Step += r.base
	st.Total = 0
	return r.rec.Step(st)
}

func edges(W *mat.Dense) float64 {
	n, _ := W.Dims()
	e := 0
	for i := range n {
		for _, v := range W.RawRowView(i)[i+1:] {
			if v > 0 {
				e++
			}
		}
	}
	return float64(e)
}

// graph builds the similarity matrix (zero diagonal).
func (s *Spectral) graph(ctx context.Context, X *mat.Dense) (*mat.Dense, error) {
	n, _ := X.Dims()
	dd := make([]float64, n*n) // squared distances
	if err := pairDistances(ctx, X, dd, true); err != nil {
		return nil, err
	}
	W := mat.NewDense(n, n, nil)
	switch s.Graph {
	case GraphGaussian:
		g := s.Gamma
		ww := W.RawMatrix().Data
		for i := range n {
			for j := i + 1; j < n; j++ {
				v := math.Exp(-g * dd[i*n+j])
				ww[i*n+j], ww[j*n+i] = v, v
			}
		}
	case GraphEpsilon:
		r2 := s.Radius * s.Radius
		for i := range n {
			for j := range n {
				if i != j && dd[i*n+j] <= r2 {
					W.Set(i, j, 1)
				}
			}
		}
	case GraphKNN:
		nb := s.Neighbors
		if nb > n-1 {
			return nil, engine.Limitf("spectral clustering: neighbors=%d but the data have %d rows, so a row has at most %d neighbours; use neighbors at most %d", nb, n, n-1, n-1)
		}
		idx := make([]int, n)
		for i := range n {
			row := dd[i*n : (i+1)*n]
			for j := range idx {
				idx[j] = j
			}
			sort.Slice(idx, func(a, b int) bool {
				if row[idx[a]] != row[idx[b]] {
					return row[idx[a]] < row[idx[b]]
				}
				return idx[a] < idx[b]
			})
			taken := 0
			for _, j := range idx {
				if j == i {
					continue
				}
				W.Set(i, j, 1)
				W.Set(j, i, 1)
				if taken++; taken == nb {
					break
				}
			}
		}
	default:
		return nil, fmt.Errorf("parameter graph: %q is not one of knn, gaussian, epsilon", s.Graph)
	}
	return W, nil
}

// smallestEigenvectors returns the eigenvectors of the k smallest
// eigenvalues of the Laplacian (n × k, smallest first). They are found as
// the largest of M = D^-½WD^-½ (normalized) or cI − L (c above L's
// largest eigenvalue): whole for small graphs, by block Lanczos for large
// ones.
func smallestEigenvectors(W *mat.Dense, deg []float64, normalized bool, k int, seed uint64) (*mat.Dense, error) {
	n, _ := W.Dims()
	M := mat.NewDense(n, n, nil)
	c := 0.0
	if !normalized {
		c = 2 * slices.Max(deg) // Gershgorin: L's eigenvalues are at most 2·max degree
	}
	inv := make([]float64, n)
	for i, v := range deg {
		inv[i] = 1 / math.Sqrt(v)
	}
	for i := range n {
		row, wr := M.RawRowView(i), W.RawRowView(i)
		for j, w := range wr {
			if normalized {
				row[j] = w * inv[i] * inv[j]
			} else {
				row[j] = w
			}
		}
		if !normalized {
			row[i] = c - deg[i] + wr[i]
		}
	}
	if n <= denseEigenRows {
		var eig mat.EigenSym
		if !eig.Factorize(mat.NewSymDense(n, M.RawMatrix().Data), true) {
			return nil, fmt.Errorf("spectral clustering: the eigendecomposition did not converge")
		}
		var V mat.Dense
		eig.VectorsTo(&V)
		out := mat.NewDense(n, k, nil)
		for c := range k {
			out.SetCol(c, mat.Col(nil, n-1-c, &V)) // largest of M first
		}
		return out, nil
	}
	return lanczosTop(operatorOf(M), k, seed)
}

// operator multiplies a block of vectors by a symmetric n × n matrix:
// out = M·in, in and out n × b.
type operator interface {
	size() int
	mulBlock(out, in *mat.Dense)
}

// denseOp is M as it is.
type denseOp struct{ M *mat.Dense }

func (o denseOp) size() int                   { n, _ := o.M.Dims(); return n }
func (o denseOp) mulBlock(out, in *mat.Dense) { out.Mul(o.M, in) }

// sparseOp is M in compressed rows: row i's entries val[start[i]:start[i+1]]
// in columns col[...].
type sparseOp struct {
	start, col []int
	val        []float64
}

func (o *sparseOp) size() int { return len(o.start) - 1 }

func (o *sparseOp) mulBlock(out, in *mat.Dense) {
	_, b := in.Dims()
	src, dst := in.RawMatrix(), out.RawMatrix()
	for i := range o.size() {
		cols, vals := o.col[o.start[i]:o.start[i+1]], o.val[o.start[i]:o.start[i+1]]
		acc := dst.Data[i*dst.Stride : i*dst.Stride+b]
		c := 0
		for ; c+4 <= b; c += 4 { // four columns at once, in registers
			var a0, a1, a2, a3 float64
			for e, j := range cols {
				v, x := vals[e], src.Data[j*src.Stride+c:j*src.Stride+c+4]
				a0 += v * x[0]
				a1 += v * x[1]
				a2 += v * x[2]
				a3 += v * x[3]
			}
			acc[c], acc[c+1], acc[c+2], acc[c+3] = a0, a1, a2, a3
		}
		for ; c < b; c++ {
			a := 0.0
			for e, j := range cols {
				a += vals[e] * src.Data[j*src.Stride+c]
			}
			acc[c] = a
		}
	}
}

// operatorOf is M without the entries too small to change a product of M
// beyond rounding (together at most 2⁻⁵² of M's largest entry, in norm):
// in compressed rows when that leaves fewer than half of them, as a
// Gaussian graph of well separated clusters does. Otherwise M itself.
func operatorOf(M *mat.Dense) operator {
	n, _ := M.Dims()
	data := M.RawMatrix().Data
	big := 0.0
	for _, v := range data {
		big = max(big, math.Abs(v))
	}
	tiny := big * 0x1p-52 / float64(n)
	nnz := 0
	for _, v := range data {
		if math.Abs(v) > tiny {
			nnz++
		}
	}
	if nnz > n*n/2 {
		return denseOp{M}
	}
	o := &sparseOp{start: make([]int, 1, n+1), col: make([]int, 0, nnz), val: make([]float64, 0, nnz)}
	for i := range n {
		for j, v := range M.RawRowView(i) {
			if math.Abs(v) > tiny {
				o.col = append(o.col, j)
				o.val = append(o.val, v)
			}
		}
		o.start = append(o.start, len(o.col))
	}
	return o
}

// lanczosTop finds the eigenvectors of the k largest eigenvalues of the
// symmetric operator by block Lanczos with full reorthogonalisation: the
// Krylov space of a random block of k vectors, so that an eigenvalue
// repeated up to k times (once per cluster of a graph that falls apart, the
// case spectral clustering is for) is found as often as it is repeated,
// which a Krylov space grown from one vector cannot do. The space grows
// until every wanted Ritz pair's residual ‖My − θy‖ is small.
func lanczosTop(M operator, k int, seed uint64) (*mat.Dense, error) {
	n := M.size()
	r := rand.New(rand.NewPCG(seed, 0x4cf5ad432745937f))
	next := mat.NewDense(min(k, n), n, nil) // a block's vectors as rows
	for i := range next.RawMatrix().Data {
		next.RawMatrix().Data[i] = r.NormFloat64()
	}
	kr := krylov{n: n}
	next = kr.extend(M, next)
	for target := min(n, max(4*k, 40)); ; target = min(n, target+max(target/4, 4*k)) {
		for next != nil {
			kr.project(next)
			if kr.m >= target {
				break
			}
			next = kr.extend(M, next)
		}
		Y, converged, err := kr.ritz(k)
		if err != nil {
			return nil, err
		}
		if converged || next == nil || kr.m >= n {
			return Y, nil
		}
		next = kr.extend(M, next)
	}
}

// krylov is an orthonormal basis Q of a Krylov space, MQ, each basis
// vector's product with M (both with the vectors as rows), and the lower
// triangle of T = QᵀMQ, row i once q_i's product has been projected on Q.
type krylov struct {
	n, m  int
	q, mq []float64
	t     [][]float64
}

// project records the rows of T of the newest block, whose products are
// the rows of V, and takes their components along Q out of V: the first
// of the two orthogonalisations extend needs.
func (kr *krylov) project(V *mat.Dense) {
	b, _ := V.Dims()
	C := kr.subtractAlongQ(V)
	for i := range b {
		row := kr.m - b + i
		kr.t = append(kr.t, slices.Clone(C.RawRowView(i)[:row+1]))
	}
}

// subtractAlongQ takes the components along Q out of the rows of V, one
// pass of classical Gram–Schmidt, and returns them (C = VQᵀ).
func (kr *krylov) subtractAlongQ(V *mat.Dense) *mat.Dense {
	Q := mat.NewDense(kr.m, kr.n, kr.q)
	var C, QC mat.Dense
	C.Mul(V, Q.T())
	QC.Mul(&C, Q)
	V.Sub(V, &QC)
	return &C
}

// extend orthonormalises the rows of V (once projected) against Q and each
// other, adds those not (numerically) in the space already, and returns
// their products with M, the next block; nil when none was new (the space
// is invariant).
func (kr *krylov) extend(M operator, V *mat.Dense) *mat.Dense {
	n := kr.n
	b, _ := V.Dims()
	before := make([]float64, b)
	for i := range b {
		before[i] = floats.Norm(V.RawRowView(i), 2)
	}
	if kr.m > 0 { // twice is enough (Kahan): project took the first pass
		kr.subtractAlongQ(V)
	}
	var fresh [][]float64
	for i := range b {
		v := V.RawRowView(i)
		for range 2 {
			for _, u := range fresh {
				floats.AddScaled(v, -floats.Dot(v, u), u)
			}
		}
		if nrm := floats.Norm(v, 2); nrm > 1e-10*before[i] && nrm > 0 && kr.m+len(fresh) < n {
			floats.Scale(1/nrm, v)
			fresh = append(fresh, v)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	B := mat.NewDense(n, len(fresh), nil) // as columns, for the product
	for c, v := range fresh {
		B.SetCol(c, v)
		kr.q = append(kr.q, v...)
	}
	MB := mat.NewDense(n, len(fresh), nil)
	M.mulBlock(MB, B)
	out := mat.NewDense(len(fresh), n, nil)
	out.Copy(MB.T())
	kr.mq = append(kr.mq, out.RawMatrix().Data...)
	kr.m += len(fresh)
	return out
}

// ritz returns the Ritz vectors of the k largest Ritz values (n × k,
// largest first) and whether each has reached lanczosTol.
func (kr *krylov) ritz(k int) (*mat.Dense, bool, error) {
	n, m := kr.n, kr.m
	T := mat.NewSymDense(m, nil)
	for i, row := range kr.t {
		for j, v := range row {
			T.SetSym(i, j, v)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(T, true) {
		return nil, false, fmt.Errorf("spectral clustering: the Lanczos eigenproblem did not converge")
	}
	var S mat.Dense
	eig.VectorsTo(&S)
	vals := eig.Values(nil)
	want := min(k, m)
	top := mat.NewDense(m, want, nil)
	for c := range want {
		top.SetCol(c, mat.Col(nil, m-1-c, &S))
	}
	var Y, MY mat.Dense
	Y.Mul(mat.NewDense(m, n, kr.q).T(), top)
	MY.Mul(mat.NewDense(m, n, kr.mq).T(), top)
	scale := max(math.Abs(vals[0]), math.Abs(vals[m-1]), 1)
	converged := true
	res := make([]float64, n)
	for c := range want {
		floats.AddScaledTo(res, mat.Col(nil, c, &MY), -vals[m-1-c], mat.Col(nil, c, &Y))
		if floats.Norm(res, 2) > lanczosTol*scale {
			converged = false
		}
	}
	out := mat.NewDense(n, k, nil)
	out.Slice(0, n, 0, want).(*mat.Dense).Copy(&Y)
	return out, converged, nil
}

// sweepCut orders the rows by f and cuts the order where the normalised
// cut cut(S)·(1/vol S + 1/vol S̄) (ratio cut: 1/|S| + 1/|S̄|) is least.
func sweepCut(W *mat.Dense, deg, f []float64, normalized bool) ([]int, float64) {
	n := len(f)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return f[order[a]] < f[order[b]] })
	total := floats.Sum(deg)
	in := make([]bool, n)
	cut, vol := 0.0, 0.0
	best, bestAt := math.Inf(1), 1
	for p := 0; p < n-1; p++ {
		v := order[p]
		// Adding v: its edges to the rest join the cut, those to S leave it.
		toS := 0.0
		row := W.RawRowView(v)
		for u, w := range row {
			if in[u] {
				toS += w
			}
		}
		cut += deg[v] - 2*toS
		in[v] = true
		vol += deg[v]
		var score float64
		if normalized {
			score = cut * (1/vol + 1/(total-vol))
		} else {
			score = cut * (1/float64(p+1) + 1/float64(n-p-1))
		}
		if score < best {
			best, bestAt = score, p+1
		}
	}
	labels := make([]int, n)
	for _, v := range order[bestAt:] {
		labels[v] = 1
	}
	if labels[0] == 1 { // number the clusters by their first row
		for i := range labels {
			labels[i] = 1 - labels[i]
		}
	}
	return labels, best
}

// lanczosTol is the residual ‖My − θy‖ (relative to M's scale) a Ritz pair
// must reach: far below what moves a row between clusters.
const lanczosTol = 1e-9

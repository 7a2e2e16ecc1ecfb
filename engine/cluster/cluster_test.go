package cluster

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
	"github.com/tealab/tealab/engine/metrics"
)

type scipyRef struct {
	Linkage map[string][][4]float64 `json:"linkage"`
	KMeans  float64                 `json:"kmeans_iris_inertia"`
	PCA     map[string][]float64    `json:"pca"`
}

func loadRef(t testing.TB) scipyRef {
	t.Helper()
	b, err := os.ReadFile("testdata/scipy_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var r scipyRef
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func table(t testing.TB, source, target string) *datasets.Dataset {
	t.Helper()
	tab, err := datasets.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset(target, datasets.Clustering)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Every merge, with its height and size, is scipy's linkage for each
// method, on points without tied distances; the two ids of a merge match as
// a pair (testdata/scipy_ref.py).
func TestLinkageMatchesScipy(t *testing.T) {
	ref := loadRef(t)
	d := table(t, "testdata/points.csv", datasets.NoTarget)
	for method, want := range ref.Linkage {
		h := &Hclust{K: 3, Method: method}
		if err := engine.Fit(context.Background(), h, engine.Train{X: d.X, Seed: 1}, nil); err != nil {
			t.Fatal(err)
		}
		got := h.Linkage().Merges
		if len(got) != len(want) {
			t.Fatalf("%s: %d merges, scipy %d", method, len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			a, b := int(w[0]), int(w[1])
			if math.Abs(g.Height-w[2]) > 1e-9 || g.Size != int(w[3]) || !(g.A == min(a, b) && g.B == max(a, b)) {
				t.Errorf("%s merge %d: %+v, scipy %v", method, i, g, w)
				break
			}
		}
	}
}

// The linkage stays right on more rows: against the O(n^3) textbook loop.
func TestLinkageMatchesNaive(t *testing.T) {
	d := table(t, "moons:n=150,noise=0.1,seed=3", "")
	for _, method := range []string{Single, Complete, Average, Centroid} {
		got, err := linkage(context.Background(), d.X, method)
		if err != nil {
			t.Fatal(err)
		}
		want := naiveLinkage(d.X, method)
		for i := range want {
			if math.Abs(got[i].Height-want[i].Height) > 1e-9 || got[i].Size != want[i].Size {
				t.Fatalf("%s merge %d: %+v, naive %+v", method, i, got[i], want[i])
			}
		}
	}
}

// naiveLinkage merges the closest pair of clusters each time, measuring
// cluster distances from their members (centroid: between means).
func naiveLinkage(X *mat.Dense, method string) []engine.Merge {
	n, d := X.Dims()
	type cl struct {
		rows []int
		id   int
	}
	var cs []cl
	for i := range n {
		cs = append(cs, cl{[]int{i}, i})
	}
	dist := func(a, b cl) float64 {
		switch method {
		case Centroid:
			ma, mb := make([]float64, d), make([]float64, d)
			for _, i := range a.rows {
				for j := range d {
					ma[j] += X.At(i, j) / float64(len(a.rows))
				}
			}
			for _, i := range b.rows {
				for j := range d {
					mb[j] += X.At(i, j) / float64(len(b.rows))
				}
			}
			return math.Sqrt(kernel.SqDist(ma, mb))
		}
		best, worst, sum := math.Inf(1), 0.0, 0.0
		for _, i := range a.rows {
			for _, j := range b.rows {
				v := math.Sqrt(kernel.SqDist(X.RawRowView(i), X.RawRowView(j)))
				best, worst, sum = min(best, v), max(worst, v), sum+v
			}
		}
		switch method {
		case Single:
			return best
		case Complete:
			return worst
		}
		return sum / float64(len(a.rows)*len(b.rows))
	}
	var out []engine.Merge
	for step := 0; len(cs) > 1; step++ {
		bi, bj, bd := 0, 1, math.Inf(1)
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				if v := dist(cs[i], cs[j]); v < bd {
					bi, bj, bd = i, j, v
				}
			}
		}
		m := cl{append(append([]int(nil), cs[bi].rows...), cs[bj].rows...), n + step}
		out = append(out, engine.Merge{A: cs[bi].id, B: cs[bj].id, Height: bd, Size: len(m.rows)})
		cs = append(cs[:bj], cs[bj+1:]...)
		cs[bi] = m
	}
	return out
}

// Average linkage on iris, cut at 3 clusters, agrees with the species
// (ARI > 0.7).
func TestHclustIris(t *testing.T) {
	d := table(t, "iris", "")
	h := &Hclust{K: 3, Method: Average}
	if err := engine.Fit(context.Background(), h, engine.Train{X: d.X, Seed: 1, KnownClasses: 3}, nil); err != nil {
		t.Fatal(err)
	}
	labels := make([]float64, len(h.labels))
	for i, l := range h.labels {
		labels[i] = float64(l)
	}
	if ari := metrics.AdjustedRand(d.Y, labels); ari < 0.7 {
		t.Errorf("ARI %.3f", ari)
	}
	if got := len(h.Linkage().Merges); got != 149 {
		t.Errorf("%d merges", got)
	}
}

// k-means' objective on iris is no worse than scikit-learn's with the same
// k and restarts; every run's objective falls iteration by iteration.
func TestKMeansObjective(t *testing.T) {
	ref := loadRef(t)
	d := table(t, "iris", "")
	rec := &steps{}
	m := &KMeans{K: 3, Restarts: 10, Init: InitPlusPlus, MaxIter: 300}
	if err := engine.Fit(context.Background(), m, engine.Train{X: d.X, Seed: 1}, rec); err != nil {
		t.Fatal(err)
	}
	if m.inertia > ref.KMeans*(1+1e-9) {
		t.Errorf("inertia %.6f, scikit-learn %.6f", m.inertia, ref.KMeans)
	}
	for i := 1; i < len(rec.s); i++ {
		a, b := rec.s[i-1].Detail.(KMeansStep), rec.s[i].Detail.(KMeansStep)
		if a.Run == b.Run && b.RunObjective > a.RunObjective*(1+1e-12) {
			t.Fatalf("objective rose in run %v: %v -> %v", b.Run, a.RunObjective, b.RunObjective)
		}
	}
}

// The loss k-means reports is the best objective so far over its restarts,
// the centres Predict uses: it never rises when a new run starts from
// scratch (drawn, it was a sawtooth, one tooth per run), and it ends at the
// fit's objective.
func TestKMeansLossIsBestSoFar(t *testing.T) {
	d := table(t, "blobs:n=300,centers=6,dims=2,seed=4", "")
	rec := &steps{}
	m := &KMeans{K: 6, Restarts: 10, Init: InitForgy, MaxIter: 300}
	if err := engine.Fit(context.Background(), m, engine.Train{X: d.X, Seed: 1}, rec); err != nil {
		t.Fatal(err)
	}
	if got := rec.s[len(rec.s)-1].Detail.(KMeansStep).Run; got != 10 {
		t.Fatalf("%v runs", got)
	}
	for i := 1; i < len(rec.s); i++ {
		if a, b := rec.s[i-1], rec.s[i]; b.TrainLoss > a.TrainLoss {
			t.Fatalf("loss rose at step %d (run %v): %v -> %v", b.Step, b.Detail.(KMeansStep).Run, a.TrainLoss, b.TrainLoss)
		}
	}
	if last := rec.s[len(rec.s)-1].TrainLoss; math.Abs(last-m.inertia/300) > 1e-12*last {
		t.Errorf("last loss %v, the fit's objective per row %v", last, m.inertia/300)
	}
}

// One assignment step labels every row with its nearest centre, by brute
// force: with more centres than one kernel group (13 = 8 + 5), a row count
// that is not a multiple of four, and rows that are a view of a wider
// matrix (as a dataset's features are when the target is the last column).
func TestKMeansAssignsNearestCentre(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, d, k = 1003, 7, 13
	wide := mat.NewDense(n, d+2, nil)
	for i := range n {
		for j := range d + 2 {
			wide.Set(i, j, r.NormFloat64()*3)
		}
	}
	X := wide.Slice(0, n, 1, d+1).(*mat.Dense)
	l := newLloyd(X, k)
	for c := range k {
		l.C.SetRow(c, X.RawRowView(r.IntN(n))[:d])
	}
	l.resetLabels()
	l.assign()
	counts := make([]int, k)
	for i := range n {
		best, bd := 0, math.Inf(1)
		for c := range k {
			if v := kernel.SqDist(X.RawRowView(i)[:d], l.C.RawRowView(c)); v < bd {
				best, bd = c, v
			}
		}
		if l.labels[i] != best {
			t.Fatalf("row %d: cluster %d, nearest centre %d", i, l.labels[i], best)
		}
		counts[best]++
	}
	for c := range k {
		if l.counts[c] != counts[c] {
			t.Errorf("cluster %d: counted %d rows, labelled %d", c, l.counts[c], counts[c])
		}
	}
}

// A cluster left empty takes the row farthest from its centre (as
// scikit-learn does), so k clusters stay k.
func TestKMeansEmptyClusterTakesFarthestRow(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 10})
	l := newLloyd(X, 2)
	l.C.SetRow(0, []float64{1})
	l.C.SetRow(1, []float64{100}) // nearer to no row
	l.resetLabels()
	l.assign()
	if l.counts[1] != 0 {
		t.Fatalf("counts %v: cluster 1 should be empty before the update", l.counts)
	}
	l.update()
	if got := []float64{l.C.At(0, 0), l.C.At(1, 0)}; got[0] != 1 || got[1] != 10 {
		t.Errorf("centres %v, want [1 10]: row 10 (farthest from centre 1) moves to the empty cluster", got)
	}
	if l.assign(); l.labels[3] != 1 || l.counts[0] != 3 {
		t.Errorf("labels %v counts %v after the next assignment", l.labels, l.counts)
	}
}

type steps struct{ s []engine.Step }

func (r *steps) Step(s engine.Step) error { r.s = append(r.s, s); return nil }

// Spectral clustering separates circles and moons, where k-means cannot
// (ARI near 1 against near 0).
func TestSpectralSeparatesWhatKMeansCannot(t *testing.T) {
	for _, data := range []string{"circles", "moons"} {
		d := table(t, data, "")
		tr := engine.Train{X: d.X, Seed: 1, KnownClasses: 2}
		ari := func(m engine.Model) float64 {
			if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
				t.Fatal(err)
			}
			labels, err := engine.ClusterLabels(m, d.X)
			if err != nil {
				t.Fatal(err)
			}
			return metrics.AdjustedRand(d.Y, labels)
		}
		sp, km := ari(&Spectral{Graph: GraphKNN, Neighbors: 10, Gamma: 1}), ari(&KMeans{Init: InitPlusPlus, Restarts: 1, MaxIter: 300})
		if sp < 0.9 || (data == "circles" && km > 0.1) || km > sp-0.3 {
			t.Errorf("%s: spectral ARI %.3f, k-means %.3f", data, sp, km)
		}
	}
}

// The Laplacian times the ones vector is zero (the normalised one: times
// D^½ 1).
func TestLaplacianNullVector(t *testing.T) {
	d := table(t, "blobs:n=120,seed=2", "")
	s := &Spectral{Graph: GraphGaussian, Gamma: 0.5, Neighbors: 10}
	W, err := s.graph(context.Background(), d.X)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := W.Dims()
	for _, normalized := range []bool{false, true} {
		L := laplacian(W, normalized)
		v := make([]float64, n)
		for i := range v {
			v[i] = 1
			if normalized {
				v[i] = math.Sqrt(mat.Sum(W.RowView(i)))
			}
		}
		var out mat.VecDense
		out.MulVec(L, mat.NewVecDense(n, v))
		if nrm := mat.Norm(&out, math.Inf(1)); nrm > 1e-10 {
			t.Errorf("normalized=%v: |L v| = %v", normalized, nrm)
		}
	}
}

// Four well separated blobs make a Gaussian graph that falls apart into
// four pieces, so the normalised Laplacian's eigenvalue 0 (M's 1) is
// repeated four times. Lanczos grown from one vector found it only twice on
// these 800 rows (too many for the dense decomposition), and k-means on the
// wrong eigenvectors split the blobs at ARI 0.78; scikit-learn's
// SpectralClustering (affinity="rbf", gamma=1) separates such blobs at 1.
func TestSpectralFindsEveryBlob(t *testing.T) {
	d := table(t, "blobs:n=800,centers=4,dims=10,seed=2", "")
	s := &Spectral{K: 4, Graph: GraphGaussian, Gamma: 1, Neighbors: 10}
	W, err := s.graph(context.Background(), d.X)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := W.Dims()
	deg := make([]float64, n)
	for i := range n {
		deg[i] = mat.Sum(W.RowView(i))
	}
	vecs, err := smallestEigenvectors(W, deg, true, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	L := laplacian(W, true)
	for c := range 4 {
		v := mat.NewVecDense(n, mat.Col(nil, c, vecs))
		var Lv mat.VecDense
		Lv.MulVec(L, v)
		if q := mat.Dot(v, &Lv); math.Abs(q) > 1e-8 {
			t.Errorf("eigenvector %d: Rayleigh quotient %v, want 0", c, q)
		}
	}
	if err := engine.Fit(context.Background(), s, engine.Train{X: d.X, Seed: 1}, nil); err != nil {
		t.Fatal(err)
	}
	labels, err := engine.ClusterLabels(s, d.X)
	if err != nil {
		t.Fatal(err)
	}
	if ari := metrics.AdjustedRand(d.Y, labels); ari != 1 {
		t.Errorf("ARI %v, want 1", ari)
	}
}

// The compressed operator multiplies as the matrix does, for blocks of any
// width, and drops only entries far below rounding.
func TestSparseOperatorMultiplies(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	n := 50
	M := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			if r.Float64() < 0.2 {
				M.Set(i, j, r.NormFloat64())
			} else if r.Float64() < 0.1 {
				M.Set(i, j, 1e-300)
			}
		}
	}
	op := operatorOf(M)
	if _, ok := op.(*sparseOp); !ok {
		t.Fatalf("%T for a matrix a fifth full", op)
	}
	for _, b := range []int{1, 4, 7} {
		B := mat.NewDense(n, b, nil)
		for i := range n * b {
			B.RawMatrix().Data[i] = r.NormFloat64()
		}
		got := mat.NewDense(n, b, nil)
		op.mulBlock(got, B)
		var want mat.Dense
		want.Mul(M, B)
		if !mat.EqualApprox(got, &want, 1e-12) {
			t.Errorf("block of %d: products differ", b)
		}
	}
}

// Lanczos finds the leading eigenvectors the dense decomposition finds.
func TestLanczosMatchesDense(t *testing.T) {
	d := table(t, "blobs:n=300,seed=5", "")
	s := &Spectral{Graph: GraphGaussian, Gamma: 0.3, Neighbors: 10}
	W, _ := s.graph(context.Background(), d.X)
	n, _ := W.Dims()
	M := mat.NewDense(n, n, nil)
	deg := make([]float64, n)
	for i := range n {
		deg[i] = mat.Sum(W.RowView(i))
	}
	for i := range n {
		for j := range n {
			M.Set(i, j, W.At(i, j)/math.Sqrt(deg[i]*deg[j]))
		}
	}
	got, err := lanczosTop(operatorOf(M), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	var eig mat.EigenSym
	eig.Factorize(mat.NewSymDense(n, M.RawMatrix().Data), true)
	var V mat.Dense
	eig.VectorsTo(&V)
	for c := range 3 {
		want := mat.Col(nil, n-1-c, &V)
		g := mat.Col(nil, c, got)
		dot := 0.0
		for i := range g {
			dot += g[i] * want[i]
		}
		if math.Abs(math.Abs(dot)-1) > 1e-6 {
			t.Errorf("eigenvector %d: |cos| = %v", c, math.Abs(dot))
		}
	}
}

// EM's log-likelihood never falls, for every covariance shape, and the
// full mixture recovers iris' species better than k-means does.
func TestGMMLikelihoodRises(t *testing.T) {
	for _, data := range []string{"iris", "wine", "blobs:n=300,seed=3"} {
		d := table(t, data, "")
		for _, cov := range []string{CovFull, CovDiagonal, CovSpherical} {
			rec := &steps{}
			g := &GMM{K: 3, Covariance: cov, Tol: 1e-10, MaxIter: 200}
			if err := engine.Fit(context.Background(), g, engine.Train{X: d.X, Seed: 2}, rec); err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(rec.s); i++ {
				if rec.s[i].TrainLoss > rec.s[i-1].TrainLoss+1e-9*math.Abs(rec.s[i-1].TrainLoss) {
					t.Fatalf("%s %s: the negative log-likelihood rose at iteration %d: %v -> %v", data, cov, i+1, rec.s[i-1].TrainLoss, rec.s[i].TrainLoss)
				}
			}
			if data == "iris" && cov == CovFull {
				labels := make([]float64, len(g.labels))
				for i, l := range g.labels {
					labels[i] = float64(l)
				}
				if ari := metrics.AdjustedRand(d.Y, labels); ari < 0.85 {
					t.Errorf("full mixture on iris: ARI %.3f", ari)
				}
			}
		}
	}
}

// k-medoids' medoids are training rows, its objective falls within a run,
// and on iris it finds the species about as k-means does.
func TestKMedoids(t *testing.T) {
	d := table(t, "iris", "")
	for _, metric := range []string{"l2", "l1", "linf"} {
		rec := &steps{}
		m := &KMedoids{K: 3, Metric: metric, Restarts: 5, MaxIter: 100}
		if err := engine.Fit(context.Background(), m, engine.Train{X: d.X, Seed: 1}, rec); err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(rec.s); i++ {
			if rec.s[i].Detail == rec.s[i-1].Detail && rec.s[i].TrainLoss > rec.s[i-1].TrainLoss+1e-12 {
				t.Fatalf("%s: objective rose: %v -> %v", metric, rec.s[i-1].TrainLoss, rec.s[i].TrainLoss)
			}
		}
		labels, _ := engine.ClusterLabels(m, d.X)
		if ari := metrics.AdjustedRand(d.Y, labels); ari < 0.6 {
			t.Errorf("%s: ARI %.3f", metric, ari)
		}
	}
}

// Divisive clustering builds a whole tree whose heights never exceed their
// parents' (a dendrogram), and cutting it gives k clusters.
func TestDivisive(t *testing.T) {
	d := table(t, "iris", "")
	h := &Hclust{K: 3, Method: Divisive}
	if err := engine.Fit(context.Background(), h, engine.Train{X: d.X, Seed: 1}, nil); err != nil {
		t.Fatal(err)
	}
	l := h.Linkage()
	if len(l.Merges) != 149 {
		t.Fatalf("%d merges", len(l.Merges))
	}
	height := map[int]float64{}
	for i, m := range l.Merges {
		for _, c := range []int{m.A, m.B} {
			if c >= 150 && height[c] > m.Height {
				t.Fatalf("merge %d (height %v) holds a higher one (%v)", i, m.Height, height[c])
			}
		}
		height[150+i] = m.Height
	}
	distinct := map[int]bool{}
	for _, c := range h.TrainingLabels() {
		distinct[c] = true
	}
	if len(distinct) != 3 {
		t.Errorf("%d clusters", len(distinct))
	}
}

// The top of a tree: with room for every row, the linkage renumbered in
// depth-first order; with less, the last merges over groups of rows.
func TestTop(t *testing.T) {
	// Rows 0 and 3 at 1, then 1 and 2 at 2, both at 4: depth first the
	// rows read 0 3 1 2.
	l := &engine.Linkage{Leaves: 4, Method: Average, Merges: []engine.Merge{
		{A: 0, B: 3, Height: 1, Size: 2}, {A: 1, B: 2, Height: 2, Size: 2}, {A: 4, B: 5, Height: 4, Size: 4}}}
	top, groups := Top(l, 40)
	if !slices.EqualFunc(groups, [][]int{{0}, {3}, {1}, {2}}, slices.Equal) {
		t.Errorf("groups %v", groups)
	}
	want := []engine.Merge{{A: 0, B: 1, Height: 1, Size: 2}, {A: 2, B: 3, Height: 2, Size: 2}, {A: 4, B: 5, Height: 4, Size: 4}}
	if top.Leaves != 4 || top.Method != Average || !slices.Equal(top.Merges, want) {
		t.Errorf("top %+v", top)
	}
	// Two leaves: the groups left after the first two merges, the root.
	top, groups = Top(l, 2)
	if !slices.EqualFunc(groups, [][]int{{0, 3}, {1, 2}}, slices.Equal) {
		t.Errorf("groups %v", groups)
	}
	if top.Leaves != 2 || !slices.Equal(top.Merges, []engine.Merge{{A: 0, B: 1, Height: 4, Size: 4}}) {
		t.Errorf("top %+v", top)
	}
}

// Stopped by max_iter, the labels a fit keeps are its centres' nearest,
// as Predict gives them (scikit-learn's final E-step), and the inertia is
// theirs.
func TestKMeansStoppedEarlyIsConsistent(t *testing.T) {
	d := table(t, "wine", "")
	m := &KMeans{K: 3, Restarts: 1, MaxIter: 1, Init: InitForgy}
	if err := engine.Fit(context.Background(), m, engine.Train{X: d.X, Seed: 2}, nil); err != nil {
		t.Fatal(err)
	}
	pred, err := m.Predict(d.X)
	if err != nil {
		t.Fatal(err)
	}
	inertia := 0.0
	for i, l := range m.TrainingLabels() {
		if float64(l) != pred[i] {
			t.Fatalf("row %d: kept label %d, nearest centre %v", i, l, pred[i])
		}
		inertia += kernel.SqDist(d.X.RawRowView(i), m.centres.RawRowView(l))
	}
	if math.Abs(inertia-m.inertia) > 1e-9*inertia {
		t.Errorf("inertia %v, the labels and centres give %v", m.inertia, inertia)
	}
}

// k-medoids stopped by max_iter keeps its medoids' nearest as labels too.
func TestKMedoidsStoppedEarlyIsConsistent(t *testing.T) {
	d := table(t, "wine", "")
	m := &KMedoids{K: 3, Restarts: 1, MaxIter: 1, Metric: "l2"}
	if err := engine.Fit(context.Background(), m, engine.Train{X: d.X, Seed: 2}, nil); err != nil {
		t.Fatal(err)
	}
	pred, err := m.Predict(d.X)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range m.TrainingLabels() {
		if float64(l) != pred[i] {
			t.Fatalf("row %d: kept label %d, nearest medoid %v", i, l, pred[i])
		}
	}
}

// Large data are labelled in ranges on several cores; the ranges are fixed
// and their sums added in order, so the fit is the same on any number.
func TestKMeansSameOnAnyCores(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	X := mat.NewDense(20_000, 6, nil)
	for i := range 20_000 {
		for j := range 6 {
			X.Set(i, j, r.NormFloat64()+float64(3*(i%3)))
		}
	}
	fit := func(procs int) *KMeans {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		m := &KMeans{K: 3, Restarts: 2, Tol: 1e-4, Init: InitPlusPlus, MaxIter: 300}
		if err := engine.Fit(context.Background(), m, engine.Train{X: X, Seed: 1}, nil); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := fit(1), fit(4)
	if a.inertia != b.inertia || !slices.Equal(a.labels, b.labels) || !mat.Equal(a.centres, b.centres) {
		t.Errorf("one core: inertia %v; four: %v", a.inertia, b.inertia)
	}
}

// The knee of an elbow curve is where the objective stops falling fast:
// k = 4 for four blobs' curve even after a large first drop, none for a
// straight line or a rising curve.
func TestKnee(t *testing.T) {
	for _, c := range []struct {
		obj  []float64
		want int
	}{
		{[]float64{100, 60, 30, 5, 4.5, 4, 3.6, 3.3, 3, 2.8}, 4},
		{[]float64{10, 2, 1.5, 1.2, 1}, 2},
		{[]float64{5, 4, 3, 2, 1}, 0},
		{[]float64{1, 2, 3}, 0},
		{[]float64{3, 1}, 0},
		{[]float64{1, 0.28, 0.2, 0.04, 0.035, 0.031, 0.028}, 4},
		{[]float64{9, 3, 2, 0, 0}, 2},
	} {
		if got := Knee(c.obj); got != c.want {
			t.Errorf("Knee(%v) = %d, want %d", c.obj, got, c.want)
		}
	}
}

// laplacian is D − W, the dense oracle the eigenvectors are checked against:, or I − D^-½ W D^-½ when normalized.
func laplacian(W *mat.Dense, normalized bool) *mat.Dense {
	n, _ := W.Dims()
	deg := make([]float64, n)
	for i := range n {
		deg[i] = mat.Sum(W.RowView(i))
	}
	L := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			w := W.At(i, j)
			switch {
			case normalized && i == j:
				L.Set(i, j, 1-w/deg[i])
			case normalized:
				L.Set(i, j, -w/math.Sqrt(deg[i]*deg[j]))
			case i == j:
				L.Set(i, j, deg[i]-w)
			default:
				L.Set(i, j, -w)
			}
		}
	}
	return L
}

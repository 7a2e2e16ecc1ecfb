// Package cluster holds tealab's clusterings: k-means (Lloyd's algorithm
// with Forgy, random-partition or k-means++ starts), agglomerative
// hierarchical clustering with its merge tree, and spectral clustering
// (Shewchuk, Concise Machine Learning, lecture 21 and bonus lectures; Verma, COMS 4771 notes, Unsupervised
// Learning; Recht, Malik & Tu, CS 189 notes, sections 14-15).
//
// Every clustering takes its number of clusters as k; k = 0 means the
// number of known classes when the data have them (Train.KnownClasses),
// else 2.
package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

const family = "clustering"

// k-means starts.
const (
	InitPlusPlus  = "k-means++"
	InitForgy     = "forgy"
	InitPartition = "random-partition"
)

func kParam() engine.Param {
	return engine.Param{Name: "k", Kind: engine.Int, Default: 0, Min: 0, Max: 1e5,
		Help: "number of clusters (0: the number of known classes, else 2)"}
}

// clusters resolves k.
func clusters(k int, t engine.Train, n int) (int, error) {
	if k == 0 {
		if t.KnownClasses == 1 {
			return 0, engine.Limitf("k=0 asks for as many clusters as known classes, but the data have one class; set k to the clusters wanted (2 or more)")
		}
		k = t.KnownClasses
		if k < 2 {
			k = 2
		}
	}
	if k > n {
		return 0, engine.Limitf("k=%d clusters but the data have %d rows; use k at most %d", k, n, n)
	}
	return k, nil
}

func init() {
	engine.Register(engine.Spec{
		Name:    "kmeans",
		Title:   "k-means",
		Family:  family,
		Summary: "Lloyd's algorithm: assign each row to its nearest centre, move each centre to its rows' mean, repeat",
		Notes:   "Shewchuk, Concise Machine Learning, lecture 21 (k-means, Lloyd's algorithm, Forgy / random partition / k-means++); Verma, COMS 4771 notes, Unsupervised Learning; Recht, Malik & Tu, CS 189 notes, sections 14-15; Arthur & Vassilvitskii 2007 (k-means++)",
		Tasks:   []engine.Task{datasets.Clustering},
		Unit:    "iteration",
		Loss:    "within-cluster SS per row, best run so far",
		Params: []engine.Param{
			kParam(),
			{Name: "init", Kind: engine.Choice, Default: InitPlusPlus, Choices: []string{InitPlusPlus, InitForgy, InitPartition},
				Help:   "start: k-means++ (spread out), Forgy (random rows) or a random partition",
				Detail: "Forgy takes k random rows as the centres; a random partition gives every row a random label and starts from the means."},
			{Name: "restarts", Kind: engine.Int, Default: 10, Min: 1, Max: 1000,
				Help: "runs from different starts; the best objective is kept"},
			{Name: "max_iter", Kind: engine.Int, Default: 300, Min: 1, Max: 1e5, Help: "most iterations of a run"},
			{Name: "tol", Kind: engine.Float, Default: 1e-4, Min: 0, Max: 1,
				Help:   "a run also stops when its centres move less than this (0: only when no row changes cluster)",
				Detail: "The move is a squared distance over the features' mean variance (scikit-learn's rule)."},
		},
		Bench: []engine.BenchCase{{Name: "kmeans", Data: "blobs_100k_10", Task: datasets.Clustering,
			Params: map[string]string{"k": "8", "restarts": "1", "max_iter": "100"}}},
		New: func(v engine.Values) (engine.Model, error) {
			return &KMeans{K: v.Int("k"), Init: v.String("init"), Restarts: v.Int("restarts"), MaxIter: v.Int("max_iter"), Tol: v.Float("tol")}, nil
		},
	})
}

// KMeans minimises Σ_i ‖x_i − μ_{y_i}‖² by Lloyd's algorithm (Shewchuk, lecture 21):
// with the centres fixed each row moves to its nearest centre (a tie keeps
// its previous cluster), with the labels fixed each centre moves to its
// rows' mean; a run stops when no row changes cluster, when the centres'
// summed squared shift falls to Tol times the features' mean variance
// (scikit-learn's rule: on data without clear clusters a few rows swap
// clusters for hundreds of iterations that barely move the centres), or at
// MaxIter.
// Several runs from different starts keep the best objective. Distances
// come from blocked matrix products: ‖x‖² − 2x·μ + ‖μ‖².
type KMeans struct {
	K        int
	Init     string
	Restarts int
	MaxIter  int
	Tol      float64 // 0: stop only when no row moves

	centres *mat.Dense
	labels  []int
	inertia float64
	engine.FitState
}

// Fit implements engine.Model: one Step per iteration of every run. Its
// loss is the objective per row of the best centres so far, those Predict
// uses, which never rises: a restart from scratch would otherwise draw a
// sawtooth. The run's own objective is its run_objective.
func (m *KMeans) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	X := t.X
	n, _ := X.Dims()
	if err := engine.CheckFinite(X, t.Features); err != nil {
		return fmt.Errorf("k-means: %w", err)
	}
	k, err := clusters(m.K, t, n)
	if err != nil {
		return fmt.Errorf("k-means: %w", err)
	}
	restarts, maxIter, init := m.Restarts, m.MaxIter, m.Init
	r := rand.New(rand.NewPCG(t.Seed, 0x2127599bf4325c37))
	km := newLloyd(X, k)
	tol := m.Tol * meanVariance(X)
	step := 0
	bestObj := math.Inf(1)
	for run := 0; run < restarts; run++ {
		switch init {
		case InitPlusPlus:
			km.plusPlus(r)
		case InitForgy:
			km.forgy(r)
		case InitPartition:
			km.partition(r)
		}
		converged := false
		for it := 1; it <= maxIter; it++ {
			changed := km.assign()
			shift := km.update()
			// Publish the run's state: Predict from inside Step uses it
			// (this run's centres until a better run replaces them).
			if run == 0 || km.obj < bestObj {
				m.publish(km)
			}
			step++
			if err := rec.Step(engine.Step{Step: step, TrainLoss: min(bestObj, km.obj) / float64(n),
				Detail: KMeansStep{Run: run + 1, Moved: changed, RunObjective: km.obj / float64(n)}}); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if changed == 0 {
				converged = true
				break
			}
			if shift <= tol {
				break
			}
		}
		if !converged {
			// Stopped by tol or max_iter: the labels are the last
			// centres' and the centres moved since; one more assignment
			// makes them agree (scikit-learn's final E-step), and obj
			// theirs.
			km.assign()
		}
		if km.obj < bestObj {
			bestObj = km.obj
			m.publish(km)
		}
	}
	return nil
}

func (m *KMeans) publish(km *lloyd) {
	m.centres = mat.DenseCopyOf(km.C)
	m.labels = append(m.labels[:0], km.labels...)
	m.inertia = km.obj
	m.Fitted = true
}

// TrainingLabels implements engine.Labeler.
func (m *KMeans) TrainingLabels() []int { return m.labels }

// Predict implements engine.Predictor: the nearest centre of each row.
func (m *KMeans) Predict(X mat.Matrix) ([]float64, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, d := X.Dims()
	if _, cd := m.centres.Dims(); cd != d {
		return nil, fmt.Errorf("k-means: got %d features, fitted on %d", d, cd)
	}
	k, _ := m.centres.Dims()
	km := newLloyd(datasets.DenseOf(X), k)
	km.C = m.centres
	km.resetLabels()
	km.assign()
	out := make([]float64, n)
	for i, l := range km.labels {
		out[i] = float64(l)
	}
	return out, nil
}

// Centres are the fitted cluster centres (k × features).
func (m *KMeans) Centres() *mat.Dense { return m.centres }

// lloyd is one k-means run's state.
type lloyd struct {
	x      []float64 // the rows' entries, row i from i·ldx
	ldx    int
	n, d   int
	k      int
	C      *mat.Dense // k × d centres
	xx     []float64  // ‖x_i‖²
	labels []int
	obj    float64
	sums   []float64 // k × d: each cluster's sum of rows
	counts []int
	// The points rows are measured against (centres, or k-means++
	// candidates), packed eight at a time for kernel.RowDots: group g holds
	// points 8g..8g+7 as a d × 8 block from g·8d.
	cen  []float64
	kpad int       // room for points: a multiple of 8
	out  []float64 // a block of rows' dot products, row u from u·kpad
	// parts are the row ranges assign labels on separate cores: a fixed
	// number, each with its own sums, added up in order afterwards, so the
	// result does not depend on the cores.
	parts []assignPart
}

// assignPart is a range of rows assign labels, and what it tallies.
type assignPart struct {
	lo, hi  int
	sums    []float64
	counts  []int
	changed int
	obj     float64
	out     []float64
}

// assignParts is how many row ranges assign splits its rows into above
// partRows rows: enough to keep two or four cores busy.
const (
	assignParts = 8
	partRows    = 4 * block
)

// block is how many rows' dot products are formed at once: 2,048 rows by 8
// points is 128 KB, which stays in cache while it is read.
const block = 2048

func newLloyd(X *mat.Dense, k int) *lloyd {
	n, d := X.Dims()
	raw := X.RawMatrix()
	l := &lloyd{x: raw.Data, ldx: raw.Stride, n: n, d: d, k: k, xx: make([]float64, n), labels: make([]int, n),
		C: mat.NewDense(k, d, nil), sums: make([]float64, k*d), counts: make([]int, k)}
	for i := range n {
		s := 0.0
		for _, v := range l.row(i) {
			s += v * v
		}
		l.xx[i] = s
	}
	// Room for k centres or the k-means++ candidates, whichever is more.
	l.kpad = (max(k, plusPlusTrials(k), 1) + 7) &^ 7
	l.cen = make([]float64, l.kpad*d)
	l.out = make([]float64, min(n, block)*l.kpad)
	return l
}

func (l *lloyd) row(i int) []float64 { return l.x[i*l.ldx : i*l.ldx+l.d] }

// plusPlusTrials is how many candidates greedy k-means++ draws a step.
func plusPlusTrials(k int) int { return 2 + int(math.Log(float64(max(k, 1)))) }

// pack puts points (the first m rows of p) where blockDots reads them.
func (l *lloyd) pack(p *mat.Dense, m int) {
	clear(l.cen)
	d := l.d
	for c := range m {
		g := l.cen[(c/8)*8*d:]
		for j, v := range p.RawRowView(c)[:d] {
			g[j*8+c%8] = v
		}
	}
}

// blockDots sets out[u·kpad+c] = x_{i0+u} · point c for the rows of a block
// and the m packed points.
func (l *lloyd) blockDots(i0, rows, m int) {
	for g := 0; g*8 < m; g++ {
		kernel.RowDots(l.out[g*8:], l.kpad, l.x[i0*l.ldx:], l.ldx, rows, l.d, l.cen[g*8*l.d:])
	}
}

// assign moves every row to its nearest centre (a tie keeps the row where
// it was) and returns how many moved; obj becomes the objective. Large
// data are labelled in assignParts ranges on up to as many cores.
func (l *lloyd) assign() int {
	k := l.k
	cc := make([]float64, k)
	for c := range k {
		row := l.C.RawRowView(c)
		s := 0.0
		for _, v := range row {
			s += v * v
		}
		cc[c] = s
	}
	l.pack(l.C, k)
	if l.parts == nil {
		parts := 1
		if l.n >= partRows {
			parts = assignParts
		}
		l.parts = make([]assignPart, parts)
		for p := range l.parts {
			pt := &l.parts[p]
			pt.lo, pt.hi = l.n*p/parts, l.n*(p+1)/parts
			pt.sums, pt.counts = make([]float64, k*l.d), make([]int, k)
			pt.out = l.out
			if parts > 1 {
				pt.out = make([]float64, min(block, pt.hi-pt.lo)*l.kpad)
			}
		}
	}
	var next atomic.Int64
	work := func() {
		for p := int(next.Add(1)) - 1; p < len(l.parts); p = int(next.Add(1)) - 1 {
			l.assignPart(&l.parts[p], cc)
		}
	}
	if jobs := min(runtime.GOMAXPROCS(0), len(l.parts)); jobs > 1 {
		engine.Workers(jobs, work)
	} else {
		work()
	}
	clear(l.sums)
	clear(l.counts)
	changed, obj := 0, 0.0
	for _, pt := range l.parts {
		floats.Add(l.sums, pt.sums)
		for c, n := range pt.counts {
			l.counts[c] += n
		}
		changed, obj = changed+pt.changed, obj+pt.obj
	}
	l.obj = obj
	return changed
}

// assignPart labels the rows of one part, tallying their sums, counts,
// moves and objective in it.
func (l *lloyd) assignPart(pt *assignPart, cc []float64) {
	k := l.k
	clear(pt.sums)
	clear(pt.counts)
	changed, obj := 0, 0.0
	for i0 := pt.lo; i0 < pt.hi; i0 += block {
		rows := min(block, pt.hi-i0)
		for g := 0; g*8 < k; g++ {
			kernel.RowDots(pt.out[g*8:], l.kpad, l.x[i0*l.ldx:], l.ldx, rows, l.d, l.cen[g*8*l.d:])
		}
		for u := range rows {
			i := i0 + u
			dots := pt.out[u*l.kpad : u*l.kpad+k]
			bd := nearest(cc, dots)
			// ‖x‖² − 2x·μ + ‖μ‖² carries rounding of the order of ‖x‖²·ε:
			// a row leaves its cluster only for a centre nearer by more
			// than that, or it could flip between two equally near ones
			// for ever.
			prev, best := l.labels[i], 0
			if prev >= 0 && cc[prev]-2*dots[prev] <= bd+1e-12*(l.xx[i]+1) {
				best, bd = prev, cc[prev]-2*dots[prev]
			} else {
				for best < k-1 && cc[best]-2*dots[best] != bd {
					best++
				}
			}
			if best != prev {
				changed++
				l.labels[i] = best
			}
			obj += max(bd+l.xx[i], 0)
			s := pt.sums[best*l.d : (best+1)*l.d]
			for j, v := range l.row(i) {
				s[j] += v
			}
			pt.counts[best]++
		}
	}
	pt.changed, pt.obj = changed, obj
}

// nearest is min_c cc[c] − 2·dots[c]: the nearest centre's ‖μ‖² − 2x·μ.
// Branchless (which way a comparison goes is a coin toss in the first
// iterations), with four running minima: one would be a chain of k
// dependent steps.
func nearest(cc, dots []float64) float64 {
	inf := math.Inf(1)
	m0, m1, m2, m3 := inf, inf, inf, inf
	cc = cc[:len(dots)]
	c := 0
	for ; c+4 <= len(dots); c += 4 {
		m0 = min(m0, cc[c]-2*dots[c])
		m1 = min(m1, cc[c+1]-2*dots[c+1])
		m2 = min(m2, cc[c+2]-2*dots[c+2])
		m3 = min(m3, cc[c+3]-2*dots[c+3])
	}
	for ; c < len(dots); c++ {
		m0 = min(m0, cc[c]-2*dots[c])
	}
	return min(min(m0, m1), min(m2, m3))
}

// tally sets every cluster's sum of rows and count from the labels
// (assign keeps them as it labels).
func (l *lloyd) tally() {
	clear(l.sums)
	clear(l.counts)
	for i, c := range l.labels {
		l.add(i, c)
	}
}

// add counts row i in cluster c's sum and count.
func (l *lloyd) add(i, c int) {
	s := l.sums[c*l.d : (c+1)*l.d]
	for j, v := range l.row(i) {
		s[j] += v
	}
	l.counts[c]++
}

// update moves each centre to its rows' mean and returns the centres'
// summed squared shift. An empty cluster takes the row farthest from its
// centre, as scikit-learn does (so k clusters stay k); the next
// assignment moves that row.
func (l *lloyd) update() float64 {
	k, d := l.k, l.d
	if slices.Contains(l.counts, 0) {
		l.relocate()
	}
	shift := 0.0
	for c := range k {
		row := l.C.RawRowView(c)
		for j := range row {
			v := l.sums[c*d+j] / float64(l.counts[c])
			shift += (v - row[j]) * (v - row[j])
			row[j] = v
		}
	}
	return shift
}

// meanVariance is the mean over the columns of X of their variances.
func meanVariance(X *mat.Dense) float64 {
	n, d := X.Dims()
	if n < 2 || d == 0 {
		return 0
	}
	mean := make([]float64, d)
	for i := range n {
		floats.Add(mean, X.RawRowView(i))
	}
	floats.Scale(1/float64(n), mean)
	ss := 0.0
	for i := range n {
		for j, v := range X.RawRowView(i) {
			ss += (v - mean[j]) * (v - mean[j])
		}
	}
	return ss / float64(n*d)
}

// relocate gives each empty cluster the row farthest from its centre among
// rows whose cluster would not empty by losing it.
func (l *lloyd) relocate() {
	far := make([]int, l.n)
	dist := make([]float64, l.n)
	for i, c := range l.labels {
		far[i] = i
		dist[i] = kernel.SqDist(l.row(i), l.C.RawRowView(c))
	}
	sort.SliceStable(far, func(a, b int) bool { return dist[far[a]] > dist[far[b]] })
	next := 0
	for c := range l.k {
		if l.counts[c] > 0 {
			continue
		}
		for l.counts[l.labels[far[next]]] < 2 {
			next++
		}
		i := far[next]
		next++
		old := l.sums[l.labels[i]*l.d : (l.labels[i]+1)*l.d]
		for j, v := range l.row(i) {
			old[j] -= v
		}
		l.counts[l.labels[i]]--
		l.add(i, c)
	}
}

// forgy takes k distinct random rows as centres.
func (l *lloyd) forgy(r *rand.Rand) {
	perm := r.Perm(l.n)[:l.k]
	for c, i := range perm {
		l.C.SetRow(c, l.row(i))
	}
	l.resetLabels()
}

// partition gives every row a random cluster and starts from their means.
func (l *lloyd) partition(r *rand.Rand) {
	for i := range l.labels {
		l.labels[i] = r.IntN(l.k)
	}
	l.tally()
	l.update()
	l.resetLabels()
}

// plusPlus is k-means++: each next centre drawn with probability
// proportional to the squared distance to the nearest centre so far; as
// scikit-learn does, 2 + ln k candidates are drawn at each step and the
// one that lowers the objective most is kept ("greedy" k-means++). The
// candidates' distances to every row come from one blocked matrix product.
func (l *lloyd) plusPlus(r *rand.Rand) {
	n, d := l.n, l.d
	trials := plusPlusTrials(l.k)
	first := r.IntN(n)
	l.C.SetRow(0, l.row(first))
	near := make([]float64, n) // squared distance to the nearest centre
	l.pack(l.C, 1)
	for i0 := 0; i0 < n; i0 += block {
		rows := min(block, n-i0)
		l.blockDots(i0, rows, 1)
		for u, xu := range l.xx[i0 : i0+rows] {
			near[i0+u] = max(xu-2*l.out[u*l.kpad]+l.xx[first], 0)
		}
	}
	cand := mat.NewDense(trials, d, nil)
	picks := make([]int, trials)
	dists := make([]float64, n*trials) // candidate t, row i
	pots := make([]float64, trials)
	candSq := make([]float64, trials) // ‖candidate‖²
	cum := make([]float64, n)
	for c := 1; c < l.k; c++ {
		total := 0.0
		for i, v := range near {
			total += v
			cum[i] = total
		}
		for t := range trials {
			pick := r.IntN(n)
			if total > 0 {
				// The first row whose running sum passes u.
				u := r.Float64() * total
				pick = min(sort.SearchFloat64s(cum, math.Nextafter(u, math.Inf(1))), n-1)
			}
			picks[t] = pick
			cand.SetRow(t, l.row(pick))
		}
		l.pack(cand, trials)
		clear(pots)
		for t := range trials {
			candSq[t] = l.xx[picks[t]]
		}
		for i0 := 0; i0 < n; i0 += block {
			rows := min(block, n-i0)
			l.blockDots(i0, rows, trials)
			xx, nr := l.xx[i0:i0+rows], near[i0:i0+rows]
			for t := range trials {
				dt, ct, s := dists[t*n+i0:t*n+i0+rows], candSq[t], 0.0
				for u, ni := range nr {
					v := min(max(xx[u]-2*l.out[u*l.kpad+t]+ct, 0), ni)
					dt[u] = v
					s += v
				}
				pots[t] += s
			}
		}
		best := 0
		for t, p := range pots {
			if p < pots[best] {
				best = t
			}
		}
		l.C.SetRow(c, l.row(picks[best]))
		copy(near, dists[best*n:(best+1)*n])
	}
	l.resetLabels()
}

func (l *lloyd) resetLabels() {
	for i := range l.labels {
		l.labels[i] = -1
	}
}

// CapCentres offers a k-means fit's centres, one row per cluster, on the
// features as the model saw them.
var CapCentres = engine.DefineCapability("centres", "cluster centres", 370, func(m engine.Model) ([][]float64, bool) {
	k, ok := m.(*KMeans)
	if !ok || !k.Fitted {
		return nil, false
	}
	r, _ := k.centres.Dims()
	out := make([][]float64, r)
	for i := range r {
		out[i] = mat.Row(nil, i, k.centres)
	}
	return out, true
})

// Elbow is the k-means objective (within-cluster sum of squares) for each
// k from 1 to kmax, the best of restarts runs each: the elbow plot by which
// a person picks k.
func Elbow(ctx context.Context, X *mat.Dense, kmax, restarts int, seed uint64) ([]float64, error) {
	n, _ := X.Dims()
	out := make([]float64, 0, kmax)
	for k := 1; k <= min(kmax, n); k++ {
		m := innerKMeans(k, restarts)
		if err := engine.Fit(ctx, m, engine.Train{X: X, Seed: seed}, nil); err != nil {
			return nil, err
		}
		out = append(out, m.inertia)
	}
	return out, nil
}

// innerKMeans is k-means as other fits use it: restarts runs from k-means++
// starts, each iterated until no row moves (at most 300 times).
func innerKMeans(k, restarts int) *KMeans {
	return &KMeans{K: k, Init: InitPlusPlus, Restarts: restarts, MaxIter: 300}
}

// Knee is the k (1-based) at the bend of a falling elbow curve obj[k-1]:
// the k where the fall, as a ratio, slows the most (the largest second
// difference of the log objective), k−1 → k paying and k → k+1 not. Ratios
// make it blind to the objective's scale and to one large first drop. It is
// 0 when the curve nowhere bends that way, or has fewer than three points.
func Knee(obj []float64) int {
	best, knee := 1e-9, 0 // rounding does not make a straight line bend
	for k := 2; k < len(obj); k++ {
		a, b, c := obj[k-2], obj[k-1], obj[k]
		if !(a > 0 && b > 0 && c > 0) {
			break // a perfect fit ends the curve
		}
		if d := math.Log(a/b) - math.Log(b/c); d > best {
			best, knee = d, k
		}
	}
	return knee
}

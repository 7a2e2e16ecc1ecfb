package neighbors

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Search algorithms.
const (
	Auto   = "auto"  // a k-d tree up to treeDims features, else exhaustive
	Brute  = "brute" // look at every training row
	KDTree = "kdtree"
)

// treeDims is where auto stops choosing the k-d tree: in more dimensions
// a tree prunes too little to beat looking at every row. Measured with
// BenchmarkPredict (Gaussian rows, where a tree prunes least) and on the
// bench's data sets: exhaustive Euclidean search, by matrix products,
// overtakes the tree from 4 features on 10,000 rows and from 6-7 on
// 100,000, Gaussian or clustered; exact exhaustive search (L1, L∞) only
// past 20 features, and Lp's, where every term is a power, past 12.
func treeDims(m metric) int {
	switch m.p {
	case 2:
		return 6
	case 1, math.Inf(1):
		return 20
	}
	return 12
}

// looSample bounds the training rows whose leave-one-out error a plain fit
// reports as its training loss (the k sweep uses every row).
const looSample = 100

// KNN is the k-nearest-neighbour classifier and regressor: a query takes the
// majority class of its k nearest training rows (their class shares are its
// probabilities) or their mean target. Distances are L1, L2, L∞ or Lp.
// Rows as near as the kth all take part (Weka's rule: with discrete
// features many rows tie, and picking k of them by row order would make
// the prediction depend on the file's order). Ties between classes go to
// the tied class with the nearest member (a vote of 1-1 at k=2 follows the
// nearest row). Exhaustive search reads the training rows in blocks, the
// Euclidean distance by matrix products that only pick candidates (see
// blocked.go); it finds exactly the neighbours the row-by-row loop finds.
// With KMax > 0 the fit tries every k from 1 to KMax in one pass (the
// PRED1TOKMAXNN of Hocking, CS499 Optimization Algorithms for ML, sections
// 2-4), reporting one step per k, and keeps the k of
// least leave-one-out error on its training rows.
type KNN struct {
	K         int     // neighbours that vote
	Metric    string  // l1, l2, linf, lp
	P         float64 // the p of lp
	Algorithm string  // auto, brute, kdtree
	LeafSize  int     // k-d tree leaves hold at most this many rows
	Eps       float64 // k-d tree: (1+eps)-approximate search; 0 is exact
	KMax      int     // > 0: choose k in 1..KMax by leave-one-out error

	n, p    int
	x       []float64 // training rows (row-major)
	y       []float64
	k       int // classes; 0 for regression
	classes []string
	tree    *kdTree
	l2      *l2Scan // exhaustive Euclidean search by matrix products
	m       metric
	kUse    int // the k predictions use
	loo     []float64
	fits    int             // Fit calls: a scorer's answers are of one fit
	stop    <-chan struct{} // the fit's cancellation, while it searches
	engine.FitState

	// During the k sweep, the neighbour lists of the last matrix queried
	// (the recorder validates on the same rows at every k).
	sweep  bool
	cacheX mat.Matrix
	cache  [][]neighbor
}

func init() {
	engine.Register(engine.Spec{
		Name:      "knn",
		Title:     "k nearest neighbours",
		Family:    "nearest neighbours",
		Summary:   "the majority class (or mean) of the k closest training rows; exhaustive or k-d tree search",
		Notes:     "Shewchuk, Concise Machine Learning, lectures 24-25 (nearest neighbours, Voronoi cells, k-d trees); Verma, COMS 4771 notes, Nearest Neighbors and Decision Trees; Hocking, CS499 Optimization Algorithms for ML, sections 2-4 (choosing K by cross-validation)",
		Tasks:     []engine.Task{datasets.Classification, datasets.Regression},
		Unit:      "k value",
		Loss:      "leave-one-out error",
		ErrorLoss: true,
		// Distances mix the features' units: each is standardised first
		// (Hocking's ozone example does so, CS499 Optimization
		// Algorithms for ML).
		Standardize: true,
		Params: []engine.Param{
			{Name: "choose_k", Kind: engine.Choice, Default: "fixed", Choices: []string{"fixed", "loo"},
				Help:   "fixed: use k; loo: the k up to k_max of least leave-one-out error",
				Detail: "loo tries every k from 1 to k_max in one pass and keeps the one of least leave-one-out error on the training rows (Hocking's model-selection picture)."},
			{Name: "k", Kind: engine.Int, Default: 5, Min: 1, Max: 1e6, Simpler: engine.SimplerHigher, Help: "neighbours that vote (or are averaged)",
				When: &engine.Applies{Param: "choose_k", In: []string{"fixed"}}},
			{Name: "k_max", Kind: engine.Int, Default: 30, Min: 1, Max: 1000,
				When: &engine.Applies{Param: "choose_k", In: []string{"loo"}}, Help: "largest k tried"},
			{Name: "metric", Kind: engine.Choice, Default: "l2", Choices: []string{"l2", "l1", "linf", "lp"},
				Help: "distance: Euclidean, Manhattan, the largest coordinate gap, or (Σ|d|^p)^(1/p)"},
			{Name: "p", Kind: engine.Float, Default: 3.0, Min: 1, Max: 100,
				When: &engine.Applies{Param: "metric", In: []string{"lp"}}, Help: "the p of the Lp distance"},
			{Name: "algorithm", Kind: engine.Choice, Default: Auto, Choices: []string{Auto, KDTree, Brute},
				Help:   "neighbour search: kdtree, brute (every row) or auto",
				Detail: "The k-d tree splits on the widest feature at the median. auto takes the tree up to 6 features for l2, 12 for lp, 20 for l1 and linf, and every row beyond (by matrix products for l2)."},
			{Name: "leaf_size", Kind: engine.Int, Default: 30, Min: 1, Max: 1e6,
				When: &engine.Applies{Param: "algorithm", In: []string{Auto, KDTree}}, Help: "most rows in a k-d tree leaf"},
			{Name: "eps", Kind: engine.Float, Default: 0.0, Min: 0, Max: 10,
				When: &engine.Applies{Param: "algorithm", In: []string{Auto, KDTree}},
				Help: "approximate search: each neighbour within (1+eps) of the true one's distance (0: exact)"},
		},
		Bench: []engine.BenchCase{{Name: "knn", Data: "knn_25k_8", Task: datasets.Classification,
			Params: map[string]string{"algorithm": KDTree}}},
		// A copy of the training rows (and the k-d tree's order of them).
		Memory: func(s engine.Shape, _ engine.Values) engine.Need {
			return engine.Matrix(s.Rows, s.Cols, "copy of the training rows")
		},
		New: func(v engine.Values) (engine.Model, error) {
			m := &KNN{K: v.Int("k"), Metric: v.String("metric"), P: v.Float("p"), Algorithm: v.String("algorithm"),
				LeafSize: v.Int("leaf_size"), Eps: v.Float("eps")}
			if v.String("choose_k") == "loo" {
				m.KMax = v.Int("k_max")
			}
			return m, nil
		},
	})
}

// metricOf is the distance the settings name.
func metricOf(name string, p float64) metric {
	switch name {
	case "l1":
		return metric{"l1", 1}
	case "linf":
		return metric{"linf", math.Inf(1)}
	case "lp":
		return metric{"lp", p}
	}
	return metric{"l2", 2}
}

// Fit stores the training rows and builds the search structure.
func (m *KNN) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	m.fits++
	m.tree, m.l2, m.x, m.loo, m.sweep, m.cacheX, m.cache = nil, nil, nil, nil, false, nil, nil
	met := metricOf(m.Metric, m.P)
	n, p := t.X.Dims()
	if n == 0 || len(t.Y) != n {
		return fmt.Errorf("k nearest neighbours: %d rows and %d targets", n, len(t.Y))
	}
	k := m.K
	kmax := k
	if m.KMax > 0 {
		kmax = m.KMax
	}
	if kmax > n {
		name := "k"
		if m.KMax > 0 {
			name = "k_max"
		}
		return engine.Limitf("k nearest neighbours: %s=%d but the training part has %d rows; use %s at most %d", name, kmax, n, name, n)
	}
	if err := engine.CheckFinite(t.X, t.Features); err != nil {
		return fmt.Errorf("k nearest neighbours: %w", err)
	}
	x := make([]float64, n*p)
	for i := range n {
		copy(x[i*p:], t.X.RawRowView(i)[:p])
	}
	m.n, m.p, m.y, m.m = n, p, t.Y, met
	m.k, m.classes = 0, nil
	if t.Classes != nil {
		m.k, m.classes = len(t.Classes), t.Classes
	}
	m.index(x)
	if err := ctx.Err(); err != nil {
		return err
	}
	m.kUse, m.Fitted = k, true
	m.stop = ctx.Done()
	defer func() { m.stop = nil }()
	if m.KMax == 0 {
		rows := sampleRows(n, looSample, t.Seed)
		loo := m.looErrors(rows, k)
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: loo[k-1],
			Detail: KChoice{K: k, LOORows: len(rows)}}); err != nil {
			return err
		}
		return ctx.Err()
	}
	// The k sweep: every training row's leave-one-out neighbours once; then
	// one step per k, the model predicting with that k.
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	m.loo = m.looErrors(rows, kmax)
	if err := ctx.Err(); err != nil {
		return err
	}
	m.sweep = true
	defer func() { m.sweep, m.cacheX, m.cache = false, nil, nil }()
	for kk := 1; kk <= kmax; kk++ {
		m.kUse = kk
		err := rec.Step(engine.Step{Step: kk, Total: kmax, TrainLoss: m.loo[kk-1],
			Detail: KChoice{K: kk}})
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
	}
	m.kUse = 1 + argmin(m.loo)
	return nil
}

// index builds the search structure the settings ask for over the
// training rows x (n × p, row-major), as Fit and loading a saved state do.
func (m *KNN) index(x []float64) {
	m.x, m.tree, m.l2 = x, nil, nil
	if m.Algorithm == KDTree || (m.Algorithm == Auto && m.p <= treeDims(m.m)) {
		m.tree = buildKD(x, m.n, m.p, m.LeafSize)
		m.x = nil // the tree keeps its own copy, in its order
	} else if m.m.p == 2 {
		m.l2 = newL2Scan(x, m.n, m.p)
	}
}

func argmin(v []float64) int {
	b := 0
	for i, x := range v {
		if x < v[b] {
			b = i
		}
	}
	return b
}

// sampleRows is every row, or most of them drawn without replacement.
func sampleRows(n, most int, seed uint64) []int {
	if n <= most {
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		return rows
	}
	rows := rand.New(rand.NewPCG(seed, 0xda3e39cb94b95bdb)).Perm(n)[:most]
	slices.Sort(rows)
	return rows
}

// looErrors is the leave-one-out error at every k from 1 to kmax over the
// given training rows: each is predicted from its nearest other rows (all
// of them when k reaches n).
func (m *KNN) looErrors(rows []int, kmax int) []float64 {
	errs := make([]float64, kmax)
	Q := make([]float64, len(rows)*m.p)
	skip := make([]int32, len(rows))
	for r, i := range rows {
		m.row(i, Q[r*m.p:(r+1)*m.p])
		skip[r] = int32(i)
	}
	nbs := m.searchAll(Q, m.p, len(rows), skip, kmax)
	if m.stopped() {
		return errs // cut short: the fit returns its cancellation
	}
	votes := make([]float64, max(m.k, 1))
	for r, i := range rows {
		nb := nbs[r]
		if len(nb) == 0 {
			continue // a single training row has no other to predict it
		}
		for kk := 1; kk <= kmax; kk++ {
			// With k = n, leaving one out leaves n−1 neighbours.
			v := m.predictFrom(withTies(nb, kk), votes)
			if m.k > 0 {
				if v != m.y[i] {
					errs[kk-1]++
				}
			} else {
				e := v - m.y[i]
				errs[kk-1] += e * e
			}
		}
	}
	for kk := range errs {
		errs[kk] /= float64(len(rows))
	}
	return errs
}

// row copies training row i into q.
func (m *KNN) row(i int, q []float64) {
	if m.tree == nil {
		copy(q, m.x[i*m.p:(i+1)*m.p])
		return
	}
	k := m.tree.slot[i] // the tree holds the rows in its order
	copy(q, m.tree.pts[int(k)*m.p:int(k+1)*m.p])
}

// withTies is the k nearest of neighbours sorted nearest first, with those
// beyond as near as the kth.
func withTies(nb []neighbor, k int) []neighbor {
	k = min(k, len(nb))
	if k == 0 {
		return nb[:0]
	}
	for k < len(nb) && nb[k].r == nb[k-1].r {
		k++
	}
	return nb[:k]
}

// predictFrom is the prediction from neighbours sorted nearest first: the
// mean target, or the class of most votes, a tie going to the tied class
// whose member comes first.
func (m *KNN) predictFrom(nb []neighbor, votes []float64) float64 {
	if m.k == 0 {
		s := 0.0
		for _, x := range nb {
			s += m.y[x.row]
		}
		return s / float64(len(nb))
	}
	clear(votes)
	top := 0.0
	for _, x := range nb {
		c := int(m.y[x.row])
		votes[c]++
		top = max(top, votes[c])
	}
	for _, x := range nb { // nearest first: the first class at the top count
		if c := int(m.y[x.row]); votes[c] == top {
			return float64(c)
		}
	}
	return 0
}

// neighbours finds the kUse (or, in the sweep, kmax) nearest training rows
// of every row of X.
func (m *KNN) neighbours(X mat.Matrix) ([][]neighbor, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, c := X.Dims()
	if c != m.p {
		return nil, fmt.Errorf("k nearest neighbours: got %d features, fitted on %d", c, m.p)
	}
	if m.sweep && X == m.cacheX && len(m.cache) == n {
		return m.cache, nil
	}
	k := m.kUse
	if m.sweep {
		k = len(m.loo)
	}
	D := datasets.DenseOf(X)
	for i := range n {
		for j, v := range D.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("k nearest neighbours: row %d, feature %d is %v", i+1, j+1, v)
			}
		}
	}
	raw := D.RawMatrix()
	out := m.searchAll(raw.Data, raw.Stride, n, nil, k)
	if m.sweep {
		m.cacheX, m.cache = X, out
	}
	return out, nil
}

// Predict implements engine.Predictor.
func (m *KNN) Predict(X mat.Matrix) ([]float64, error) {
	nbs, err := m.neighbours(X)
	if err != nil {
		return nil, err
	}
	return m.predictions(nbs), nil
}

func (m *KNN) predictions(nbs [][]neighbor) []float64 {
	out := make([]float64, len(nbs))
	votes := make([]float64, max(m.k, 1))
	for i, nb := range nbs {
		out[i] = m.predictFrom(withTies(nb, m.kUse), votes)
	}
	return out
}

// Stages implements engine.Staged: predictions and class shares from one
// search of the rows' neighbours, where Predict and PredictProba would
// search twice.
func (m *KNN) Stages(X mat.Matrix) (engine.StageScorer, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	return &knnScorer{m: m, X: X}, nil
}

// knnScorer scores fixed rows; asked again for the same fit and k (the
// fit's one step, then its end), it answers from its last search.
type knnScorer struct {
	m      *KNN
	X      mat.Matrix
	fit, k int // of the last answer
	pred   []float64
	proba  *mat.Dense
}

func (s *knnScorer) Scores() ([]float64, *mat.Dense, error) {
	m := s.m
	if s.pred != nil && s.fit == m.fits && s.k == m.kUse {
		return s.pred, s.proba, nil
	}
	nbs, err := m.neighbours(s.X)
	if err != nil {
		return nil, nil, err
	}
	s.pred, s.proba, s.fit, s.k = m.predictions(nbs), nil, m.fits, m.kUse
	if m.k > 0 {
		s.proba = m.shares(nbs)
	}
	return s.pred, s.proba, nil
}

// Choice is what a k-NN fit settled on, for the report and the lab.
type Choice struct {
	K      int       `json:"k"`
	Chosen bool      `json:"chosen"`        // by leave-one-out error over k = 1..len(LOO)
	LOO    []float64 `json:"loo,omitempty"` // the leave-one-out error at each k
	Metric string    `json:"metric"`
	Search string    `json:"search"` // "k-d tree" or "exhaustive"
}

// CapChoice offers a fit's k, and how it was chosen.
var CapChoice = engine.DefineCapability("neighbours", "neighbours", 410, func(m engine.Model) (*Choice, bool) {
	k, ok := m.(*KNN)
	if !ok || !k.Fitted {
		return nil, false
	}
	return k.Choice(), true
})

// Choice reports the k the fit uses and how it was reached.
func (m *KNN) Choice() *Choice {
	c := &Choice{K: m.kUse, Chosen: m.loo != nil, LOO: m.loo, Metric: m.m.name, Search: "exhaustive"}
	if m.m.name == "lp" {
		c.Metric = fmt.Sprintf("lp (p=%g)", m.m.p)
	}
	if m.tree != nil {
		c.Search = "k-d tree"
		if m.Eps > 0 {
			c.Search = fmt.Sprintf("k-d tree, (1+%g)-approximate", m.Eps)
		}
	}
	return c
}

// PredictProba implements engine.Prober: the class shares among the k
// neighbours (Hocking's histogram: 0, 1/3, 2/3, 1 for k = 3).
func (m *KNN) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	if m.Fitted && m.k == 0 {
		return nil, fmt.Errorf("k nearest neighbours: a regression has no class probabilities")
	}
	nbs, err := m.neighbours(X)
	if err != nil {
		return nil, err
	}
	return m.shares(nbs), nil
}

// shares is each row's class shares among its neighbours.
func (m *KNN) shares(nbs [][]neighbor) *mat.Dense {
	P := mat.NewDense(len(nbs), m.k, nil)
	for i, nb := range nbs {
		nb = withTies(nb, m.kUse)
		row := P.RawRowView(i)
		for _, x := range nb {
			row[int(m.y[x.row])] += 1 / float64(len(nb))
		}
	}
	return P
}

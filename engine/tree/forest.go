package tree

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Forest is bagging (every feature at every split) or a random forest (a
// fresh random sample of MaxFeatures features at each split), Shewchuk, Concise Machine Learning, lecture 15:
// each tree grows on a bootstrap sample of the rows (n draws with
// replacement: a row drawn j times weighs j), deep by default; the
// ensemble averages the trees' class shares (classification) or values.
// The rows a tree did not draw (about 36.8%) are its out-of-bag rows: their
// error, tree after tree, is the progress curve.
type Forest struct {
	Trees       int
	MaxFeatures int // features tried per split; 0: √d for classification, d/3 for regression (bagging: d)
	Bagging     bool
	Criterion   string
	MaxDepth    int
	MinLeaf     int
	MinSplit    int
	Purity      float64
	MinDecrease float64
	Jobs        int // trees built at once (0 or 1: one); the result does not depend on it

	d        *data
	trees    []*packed
	imps     [][]float64 // each tree's normalised impurity decreases
	nodes    int         // of all the trees
	m        int         // features tried per split in the fit
	features []string
	engine.FitState
}

func init() {
	forestParams := func(bagging bool) []engine.Param {
		ps := []engine.Param{
			{Name: "trees", Kind: engine.Int, Default: 100, Min: 1, Max: 10000,
				Help: "number of trees (more only lowers the variance: Shewchuk calls it not really a hyperparameter)"},
		}
		if !bagging {
			ps = append(ps, engine.Param{Name: "max_features", Kind: engine.Int, Default: 0, Min: 0, Max: 1e6,
				Help: "m, the features tried at each split, drawn afresh at each node (0: √d for classification, d/3 for regression)"})
		}
		ps = append(ps, growthParams()...)
		return append(ps, engine.Param{Name: "jobs", Kind: engine.Int, Default: 1, Min: 1, Max: 256,
			Help: "trees built at once on separate cores; the forest is the same whatever the number"})
	}
	newForest := func(bagging bool) func(v engine.Values) (engine.Model, error) {
		return func(v engine.Values) (engine.Model, error) {
			f := &Forest{Trees: v.Int("trees"), Bagging: bagging, Criterion: v.String("criterion"),
				MaxDepth: v.Int("max_depth"), MinLeaf: v.Int("min_samples_leaf"), MinSplit: v.Int("min_samples_split"),
				Purity: v.Float("purity"), MinDecrease: v.Float("min_impurity_decrease"), Jobs: v.Int("jobs")}
			if !bagging {
				f.MaxFeatures = v.Int("max_features")
			}
			return f, nil
		}
	}
	engine.Register(engine.Spec{
		Weighted:  true,
		Name:      "bagging",
		Title:     "bagged trees",
		Family:    family,
		Summary:   "deep trees on bootstrap samples, averaged: less variance than one tree",
		Notes:     "Shewchuk, Concise Machine Learning, lecture 15 (ensemble learning, bagging); Breiman 1996",
		Tasks:     []engine.Task{datasets.Classification, datasets.Regression},
		Unit:      "tree",
		Loss:      "out-of-bag error",
		ErrorLoss: true,
		Input:     engine.Input{Nominal: true, Missing: true},
		Params:    forestParams(true),
		Memory:    forestMemory,
		New:       newForest(true),
	})
	engine.Register(engine.Spec{
		Weighted:  true,
		Name:      "forest",
		Title:     "random forest",
		Family:    family,
		Summary:   "bagged trees that try m random features at each split: decorrelated trees, feature importances",
		Notes:     "Shewchuk, Concise Machine Learning, lecture 15 (random forests); Breiman 2001",
		Tasks:     []engine.Task{datasets.Classification, datasets.Regression},
		Unit:      "tree",
		Loss:      "out-of-bag error",
		ErrorLoss: true,
		Input:     engine.Input{Nominal: true, Missing: true},
		Params:    forestParams(false),
		Bench:     []engine.BenchCase{{Name: "forest", Data: "clf_20k_20", Task: datasets.Classification}},
		Memory:    forestMemory,
		New:       newForest(false),
	})
}

func (f *Forest) name() string {
	if f.Bagging {
		return "bagged trees"
	}
	return "random forest"
}

// Fit grows the trees, reporting each with the out-of-bag error so far.
func (f *Forest) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	f.trees, f.imps, f.nodes, f.d = nil, nil, 0, nil
	k := classesOf(t)
	cfg := growthConfig(f.Criterion, f.MaxDepth, f.MinSplit, f.MinLeaf, f.Purity, f.MinDecrease, k)
	T := f.Trees
	d, err := newData(ctx, t, f.name(), k)
	if err != nil {
		return err
	}
	if err := cfg.splittable(f.name(), d.n); err != nil {
		return err
	}
	m := f.MaxFeatures
	switch {
	case f.Bagging:
		m = d.p
	case m == 0 && k > 0:
		m = max(1, int(math.Sqrt(float64(d.p))))
	case m == 0:
		m = max(1, d.p/3)
	}
	cfg.maxFeatures = min(m, d.p)
	f.d, f.m, f.features = d, cfg.maxFeatures, d.names
	defer d.release() // after the builders stop (deferred below)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type built struct {
		t   *packed
		imp []float64
		oob []int32 // rows the tree did not draw
	}
	slots := make([]chan built, T)
	for i := range slots {
		slots[i] = make(chan built, 1)
	}
	jobs := max(f.Jobs, 1)
	jobs = min(jobs, T, runtime.GOMAXPROCS(0))
	var next atomic.Int64
	var crash atomic.Pointer[any] // a builder's panic, raised again below
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					crash.CompareAndSwap(nil, &p)
					cancel()
				}
			}()
			g := newGrower(d, cfg, 0)
			g.stop = ctx.Done()
			w := make([]float64, d.n)
			for {
				i := int(next.Add(1)) - 1
				if i >= T || ctx.Err() != nil {
					return
				}
				// Each tree's randomness comes from the seed and its index,
				// so the forest does not depend on the number of jobs.
				r := rand.New(rand.NewPCG(t.Seed, uint64(i)*0x9e3779b97f4a7c15+1))
				g.rng = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
				bootstrap(r, w)
				var oob []int32
				for j := range w {
					if w[j] == 0 {
						oob = append(oob, int32(j))
					} else if t.Weights != nil {
						w[j] *= t.Weights[j]
					}
				}
				tr, err := g.grow(w, nil)
				if err != nil {
					return // stopped: the tree is not whole
				}
				slots[i] <- built{pack(tr), importances(tr, d.p), oob}
			}
		}()
	}
	defer func() { cancel(); wg.Wait() }() // stop the builders, then let them go

	kk := max(k, 1)
	oobSum := make([]float64, d.n*kk)
	oobN := make([]int32, d.n)
	f.trees = make([]*packed, 0, T)
	for i := range T {
		var b built
		select {
		case b = <-slots[i]:
		case <-ctx.Done():
			if p := crash.Load(); p != nil {
				panic(*p) // in Fit's goroutine, where the caller's recover reaches it
			}
			return f.StoppedEarly(ctx.Err()) // the trees so far stay
		}
		f.trees, f.imps = append(f.trees, b.t), append(f.imps, b.imp)
		f.nodes += len(b.t.nodes)
		f.Fitted = true
		for _, r := range b.oob {
			addValues(oobSum[int(r)*kk:int(r+1)*kk], b.t.leaf(d.row(int(r))))
			oobN[r]++
		}
		oobErr, rows := oobError(d, oobSum, oobN)
		err := rec.Step(engine.Step{Step: i + 1, Total: T, TrainLoss: oobErr,
			Detail: ForestStep{OOBRows: rows, Nodes: f.nodes}})
		if err == nil {
			err = ctx.Err() // cancelled during the step
		}
		if err != nil {
			return f.StoppedEarly(err) // cancelled, the trees so far stay
		}
	}
	return nil
}

// oobError is the error over the rows some tree left out: the share
// misclassified by their out-of-bag vote, or the MSE of its mean (NaN while
// no row has been left out).
func oobError(d *data, sum []float64, n []int32) (float64, int) {
	var loss float64
	rows := 0
	for i, c := range n {
		if c == 0 {
			continue
		}
		rows++
		if d.k > 0 {
			s := sum[i*d.k : (i+1)*d.k]
			best := 0
			for j, v := range s {
				if v > s[best] {
					best = j
				}
			}
			if best != d.y[i] {
				loss++
			}
		} else {
			e := sum[i]/float64(c) - d.yr[i]
			loss += e * e
		}
	}
	if rows == 0 {
		return math.NaN(), 0
	}
	return loss / float64(rows), rows
}

// scores is the forest's mean class shares (k columns) or mean value.
func (f *Forest) scores(X mat.Matrix) (*mat.Dense, error) {
	if !f.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, c := X.Dims()
	if c != f.d.p {
		return nil, fmt.Errorf("%s: got %d features, fitted on %d", f.name(), c, f.d.p)
	}
	S := mat.NewDense(n, max(f.d.k, 1), nil)
	f.addTrees(S, X, f.trees)
	S.Scale(1/float64(len(f.trees)), S)
	return S, nil
}

// addTrees adds the class shares (or values) that trees give each row of X
// to the rows of S, tree after tree: the running sums the forest's scores
// and its stage scorer share, so that both add in the same order.
func (f *Forest) addTrees(S *mat.Dense, X mat.Matrix, trees []*packed) {
	n, _ := X.Dims()
	x := make([]float64, f.d.p)
	for i := range n {
		mat.Row(x, i, X)
		row := S.RawRowView(i)
		for _, t := range trees {
			addValues(row, t.leaf(x))
		}
	}
}

// addValues adds a leaf's class shares (or value) to a row of sums.
func addValues(row, leaf []float64) {
	for c, v := range leaf {
		row[c] += v
	}
}

// Stages implements engine.Staged: the forest's votes on X, kept as
// running sums to which each new tree adds its own.
func (f *Forest) Stages(X mat.Matrix) (engine.StageScorer, error) {
	if f.d == nil {
		return nil, engine.ErrNotFitted
	}
	n, c := X.Dims()
	if c != f.d.p {
		return nil, fmt.Errorf("%s: got %d features, fitted on %d", f.name(), c, f.d.p)
	}
	k := max(f.d.k, 1)
	st := &forestStages{f: f, X: X, sum: mat.NewDense(n, k, nil), mean: mat.NewDense(n, k, nil), pred: make([]float64, n)}
	if f.d.k > 0 {
		st.proba = mat.NewDense(n, k, nil)
	}
	return st, nil
}

// forestStages scores fixed rows as the forest grows.
type forestStages struct {
	f         *Forest
	X         mat.Matrix
	sum, mean *mat.Dense // the trees' summed and mean shares (or values)
	done      int        // trees in sum
	pred      []float64
	proba     *mat.Dense // nil for regression
}

func (st *forestStages) Scores() ([]float64, *mat.Dense, error) {
	f := st.f
	if !f.Fitted {
		return nil, nil, engine.ErrNotFitted
	}
	f.addTrees(st.sum, st.X, f.trees[st.done:])
	st.done = len(f.trees)
	st.mean.Scale(1/float64(st.done), st.sum)
	copy(st.pred, argmaxRows(st.mean, f.d.k))
	if st.proba == nil {
		return st.pred, nil, nil
	}
	st.proba.Copy(st.mean)
	normaliseRows(st.proba)
	return st.pred, st.proba, nil
}

// Predict implements engine.Predictor: the class of the largest mean share,
// or the mean value.
func (f *Forest) Predict(X mat.Matrix) ([]float64, error) {
	S, err := f.scores(X)
	if err != nil {
		return nil, err
	}
	return argmaxRows(S, f.d.k), nil
}

// argmaxRows is each row's largest column (k > 0), or its only value.
func argmaxRows(S *mat.Dense, k int) []float64 {
	n, _ := S.Dims()
	out := make([]float64, n)
	for i := range n {
		row := S.RawRowView(i)
		if k == 0 {
			out[i] = row[0]
			continue
		}
		out[i] = float64(floats.MaxIdx(row))
	}
	return out
}

// PredictProba implements engine.Prober: the trees' mean class shares
// (each row rescaled to sum to 1 exactly, rounding aside).
func (f *Forest) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	if f.Fitted && f.d.k == 0 {
		return nil, errors.New(f.name() + ": a regression forest has no class probabilities")
	}
	S, err := f.scores(X)
	if err != nil {
		return nil, err
	}
	normaliseRows(S)
	return S, nil
}

// normaliseRows rescales each row of positive shares to sum to 1.
func normaliseRows(S *mat.Dense) {
	n, _ := S.Dims()
	for i := range n {
		row := S.RawRowView(i)
		if s := floats.Sum(row); s > 0 {
			floats.Scale(1/s, row)
		}
	}
}

// FeatureImportances implements engine.Importancer: the trees' mean
// decrease in impurity, each tree's normalised first (scikit-learn's rule).
func (f *Forest) FeatureImportances() *engine.Importances {
	if !f.Fitted {
		return nil
	}
	v := make([]float64, f.d.p)
	for _, imp := range f.imps {
		for j, x := range imp {
			v[j] += x / float64(len(f.trees))
		}
	}
	return &engine.Importances{Features: f.features, Values: v,
		Method: fmt.Sprintf("mean decrease in impurity over %d trees", len(f.trees))}
}

// bootstrap draws len(w) rows with replacement: w[i] becomes how many times
// row i was drawn (about 63.2% of rows at least once, Shewchuk's 1 − 1/e,
// Concise Machine Learning, lecture 15).
func bootstrap(r *rand.Rand, w []float64) {
	clear(w)
	for range w {
		w[r.IntN(len(w))]++
	}
}

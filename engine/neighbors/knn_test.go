package neighbors

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
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/internal/sweep"
)

var metrics = []metric{{"l2", 2}, {"l1", 1}, {"linf", math.Inf(1)}, {"lp", 3}}

// The k-d tree finds exactly the neighbours exhaustive search finds, in the
// same order, for random data of every shape, every metric and k, ties
// included (integer coordinates make many equal distances).
func TestKDTreeEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 300 {
		n, p := 1+r.IntN(300), 1+r.IntN(6)
		X := make([]float64, n*p)
		for i := range X {
			if trial%2 == 0 {
				X[i] = float64(r.IntN(5))
			} else {
				X[i] = r.NormFloat64()
			}
		}
		tree := buildKD(X, n, p, 1+r.IntN(12))
		m := metrics[trial%len(metrics)]
		k := 1 + r.IntN(min(n, 10))
		q := make([]float64, p)
		var bt, bb best
		var a, b []neighbor
		for range 5 {
			for j := range q {
				q[j] = X[r.IntN(n)*p+j] + float64(r.IntN(3)-1)*0.5
			}
			skip := int32(-1)
			if r.IntN(2) == 0 {
				skip = int32(r.IntN(n))
			}
			bt.reset(min(k, n-1))
			bb.reset(min(k, n-1))
			if bt.k == 0 {
				continue
			}
			tree.search(q, &bt, m, 0, skip)
			bruteSearch(X, n, p, q, &bb, m, skip)
			a, b = bt.sorted(a), bb.sorted(b)
			for i := range b {
				if a[i] != b[i] {
					t.Fatalf("trial %d (n=%d p=%d k=%d %s): tree %v, brute %v", trial, n, p, k, m.name, a, b)
				}
			}
		}
	}
}

// Approximate search (eps > 0) finds each neighbour within (1+eps) of the
// true one's distance, and visits fewer nodes.
func TestKDTreeApproximate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	n, p := 5000, 4
	X := make([]float64, n*p)
	for i := range X {
		X[i] = r.NormFloat64()
	}
	tree := buildKD(X, n, p, 8)
	m := metric{"l2", 2}
	eps := 0.5
	var exact, approx best
	var a, b []neighbor
	visitedExact, visitedApprox := 0, 0
	q := make([]float64, p)
	for range 200 {
		for j := range q {
			q[j] = r.NormFloat64()
		}
		exact.reset(5)
		approx.reset(5)
		visitedExact += tree.search(q, &exact, m, 0, -1)
		visitedApprox += tree.search(q, &approx, m, eps, -1)
		a, b = approx.sorted(a), exact.sorted(b)
		for i := range b {
			if m.distance(a[i].r) > (1+eps)*m.distance(b[i].r)+1e-12 {
				t.Fatalf("neighbour %d at %v, true %v", i, m.distance(a[i].r), m.distance(b[i].r))
			}
		}
	}
	if visitedApprox >= visitedExact {
		t.Errorf("approximate search visited %d nodes, exact %d", visitedApprox, visitedExact)
	}
	// Shewchuk, lecture 25: median splits give depth ⌊log₂(n / leaf)⌋ or so.
	if d := kdDepth(tree, 0); d > int(math.Ceil(math.Log2(float64(n)/8)))+1 {
		t.Errorf("depth %d for %d points in leaves of 8", d, n)
	}
}

func kdDepth(t *kdTree, id int32) int {
	nd := t.nodes[id]
	if nd.dim < 0 {
		return 0
	}
	return 1 + max(kdDepth(t, nd.left), kdDepth(t, nd.right))
}

// The quiz of Hocking's NAU CS499 course, 2019-01-17 (L1 distance, k = 3): X = (170,140), (200,160),
// (180,200), (140,150), (150,130), y = 0 0 1 1 1, query (160,130). The
// distances are 20, 70, 90, 40, 10; predictions for k = 1..5 are 1, tie, 1,
// tie, 1, and a tie goes to the class of the nearest row (row 5: class 1).
func TestQuizOfTheNotes(t *testing.T) {
	X := mat.NewDense(5, 2, []float64{170, 140, 200, 160, 180, 200, 140, 150, 150, 130})
	y := []float64{0, 0, 1, 1, 1}
	q := mat.NewDense(1, 2, []float64{160, 130})
	for _, algo := range []string{Brute, KDTree} {
		for k, want := range map[int]float64{1: 1, 2: 1, 3: 1, 4: 1, 5: 1} {
			m := &KNN{K: k, Metric: "l1", Algorithm: algo, LeafSize: 1, P: 3}
			if err := engine.Fit(context.Background(), m, engine.Train{X: X, Y: y, Classes: []string{"0", "1"}}, nil); err != nil {
				t.Fatal(err)
			}
			got, err := m.Predict(q)
			if err != nil || got[0] != want {
				t.Errorf("%s k=%d: %v %v, want %v", algo, k, got, err, want)
			}
			P, _ := m.PredictProba(q)
			votes := map[int]float64{1: 1, 2: 0.5, 3: 2.0 / 3, 4: 0.5, 5: 0.6}[k]
			if math.Abs(P.At(0, 1)-votes) > 1e-12 {
				t.Errorf("%s k=%d: P(1) = %v, want %v (Hocking's histogram)", algo, k, P.At(0, 1), votes)
			}
		}
	}
}

// Choosing k: one step per k with the leave-one-out error, which at k = 1
// on distinct points is the 1-NN error; the fit keeps the best k.
func TestChooseKByLeaveOneOut(t *testing.T) {
	d := dataset(t, "iris")
	tr := engine.Train{X: d.X, Y: d.Y, Classes: d.Classes}
	rec := &steps{}
	m := &KNN{KMax: 25, K: 5, Metric: "l2", P: 3, Algorithm: Auto, LeafSize: 30}
	if err := engine.Fit(context.Background(), m, tr, rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.s) != 25 {
		t.Fatalf("%d steps, want 25", len(rec.s))
	}
	c := m.Choice()
	best := rec.s[c.K-1].TrainLoss
	for _, s := range rec.s {
		if s.TrainLoss < best {
			t.Errorf("kept k=%d (error %v) but k=%v has %v", c.K, best, s.Detail.(KChoice).K, s.TrainLoss)
		}
	}
	// Leave-one-out at k by brute force, for k = 1 and the chosen k.
	for _, k := range []int{1, c.K} {
		wrong := 0
		n, _ := d.X.Dims()
		for i := range n {
			rows := make([]int, 0, n-1)
			for j := range n {
				if j != i {
					rows = append(rows, j)
				}
			}
			sub := d.Subset(rows)
			one := &KNN{K: k, Algorithm: Brute, Metric: "l2", P: 3, LeafSize: 30}
			if err := engine.Fit(context.Background(), one, engine.Train{X: sub.X, Y: sub.Y, Classes: d.Classes}, nil); err != nil {
				t.Fatal(err)
			}
			p, _ := one.Predict(d.X.Slice(i, i+1, 0, 4))
			if p[0] != d.Y[i] {
				wrong++
			}
		}
		if got := rec.s[k-1].TrainLoss; math.Abs(got-float64(wrong)/float64(n)) > 1e-12 {
			t.Errorf("k=%d: leave-one-out error %v, by refitting %v", k, got, float64(wrong)/float64(n))
		}
	}
}

type steps struct{ s []engine.Step }

func (r *steps) Step(s engine.Step) error { r.s = append(r.s, s); return nil }

func dataset(t testing.TB, name string) *datasets.Dataset {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// 10-fold CV accuracy of 5-NN on standardised features within noise of
// scikit-learn 1.2.1's (engine/tree/testdata/sklearn_ref.py).
func TestCVAccuracyLikeScikitLearn(t *testing.T) {
	b, err := os.ReadFile("../tree/testdata/sklearn_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		CV map[string][2]float64 `json:"cv"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	spec, err := engine.Lookup("knn")
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{"iris", "wine", "breast_cancer"} {
		r := ref.CV["knn/"+data]
		opt := eval.DefaultOptions()
		opt.Folds = 10
		res, err := eval.Run(context.Background(), dataset(t, data), spec, spec.Defaults(), opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := res.Metrics["accuracy"]
		allow := max(3*r[1]/math.Sqrt(10), 0.02)
		if math.Abs(got-r[0]) > allow {
			t.Errorf("knn on %s: 10-fold accuracy %.4f, scikit-learn %.4f ± %.4f", data, got, r[0], allow)
		}
	}
}

// Exhaustive search in blocks (float32 matrix-product candidates for L2,
// exact tiles otherwise) finds exactly the neighbours, ties included and in
// the same order, that the row-by-row loop finds: on integer data full of
// equal distances and duplicate rows, on data far from the origin (large
// norms, small differences), at tiny and huge scales, with an outlier, with
// queries far outside the data, near float64's limits, and leaving a row out as leave-one-out does.
func TestBlockedSearchEqualsExact(t *testing.T) { blockedSearchTrials(t, 0, 40) }

// The same on 120 trials more.
func TestBlockedSearchEqualsExactLong(t *testing.T) {
	sweep.Skip(t, "the blocked search on 120 trials more")
	blockedSearchTrials(t, 40, 160)
}

// blockedSearchTrials draws trials 0 to to-1 of one random stream and
// checks those from from on.
func blockedSearchTrials(t *testing.T, from, to int) {
	r := rand.New(rand.NewPCG(11, 12))
	shapes := []string{"integers", "duplicates", "offset", "tiny", "huge", "outlier", "limits", "gaussian"}
	for trial := range to {
		shape := shapes[trial%len(shapes)]
		n, p := 1+r.IntN(700), 1+r.IntN(40)
		if trial%40 == 0 {
			n = 5000 + r.IntN(3000) // past the largest chunk
		}
		X := blockTestRows(r, shape, n, p)
		m := &KNN{K: 1 + r.IntN(min(n, 12)), Metric: metrics[trial%len(metrics)].name, P: 3, Algorithm: Brute, LeafSize: 30}
		nq := 1 + r.IntN(40)
		Q := make([]float64, nq*p)
		skip := make([]int32, nq)
		for i := range nq {
			src := r.IntN(n)
			copy(Q[i*p:], X[src*p:(src+1)*p])
			skip[i] = -1
			switch r.IntN(4) {
			case 0: // a training row, left out
				skip[i] = int32(src)
			case 1: // between rows: half steps give more equal distances
				for j := range p {
					Q[i*p+j] = Q[i*p+j]/2 + X[r.IntN(n)*p+j]/2
				}
			case 2: // far out
				Q[i*p+r.IntN(p)] = math.Ldexp(1, 40+r.IntN(400))
			}
		}
		k := min(m.K, n-1)
		if k == 0 || trial < from {
			continue
		}
		if err := engine.Fit(context.Background(), m, engine.Train{X: mat.NewDense(n, p, X), Y: make([]float64, n)}, nil); err != nil {
			t.Fatal(err)
		}
		got := m.searchAll(Q, p, nq, skip, k)
		var b best
		for i := range nq {
			b.reset(k)
			bruteSearch(X, n, p, Q[i*p:(i+1)*p], &b, m.m, skip[i])
			want := b.sorted(nil)
			if !slices.Equal(got[i], want) {
				t.Fatalf("trial %d (%s n=%d p=%d k=%d %s) query %d:\nblocked %v\nexact   %v", trial, shape, n, p, k, m.m.name, i, got[i], want)
			}
		}
	}
}

// blockTestRows draws n rows of p features of the given shape.
func blockTestRows(r *rand.Rand, shape string, n, p int) []float64 {
	X := make([]float64, n*p)
	for i := range X {
		switch shape {
		case "integers", "duplicates":
			X[i] = float64(r.IntN(3))
		case "offset":
			X[i] = 1e8 + float64(r.IntN(4))*0.25
		case "tiny":
			X[i] = float64(r.IntN(5)) * 1e-30
		case "huge":
			X[i] = float64(r.IntN(5)) * 1e30
		case "limits": // the mean overflows
			X[i] = float64(r.IntN(3)-1) * 1.7e308
		default:
			X[i] = r.NormFloat64()
		}
	}
	switch shape {
	case "duplicates": // every row copies one of a few
		for i := p; i < len(X); i += p {
			src := r.IntN(min(i/p, 5))
			copy(X[i:i+p], X[src*p:(src+1)*p])
		}
	case "outlier":
		X[r.IntN(len(X))] = 1e12
	}
	return X
}

// Predictions do not depend on the number of cores: each query's
// neighbours are found on their own.
func TestSearchSameOnAnyCores(t *testing.T) {
	X, y := gaussianRows(3000, 12, 3)
	Q, _ := gaussianRows(500, 12, 4)
	for _, algo := range []string{Brute, KDTree} {
		m := &KNN{K: 5, Algorithm: algo, Metric: "l2", P: 3, LeafSize: 30}
		if err := engine.Fit(context.Background(), m, engine.Train{X: X, Y: y, Classes: []string{"0", "1"}}, nil); err != nil {
			t.Fatal(err)
		}
		raw := Q.RawMatrix()
		prev := runtime.GOMAXPROCS(1)
		one := m.searchAll(raw.Data, raw.Stride, 500, nil, 5)
		runtime.GOMAXPROCS(4)
		four := m.searchAll(raw.Data, raw.Stride, 500, nil, 5)
		runtime.GOMAXPROCS(prev)
		for i := range one {
			if !slices.Equal(one[i], four[i]) {
				t.Fatalf("%s query %d: one core %v, four %v", algo, i, one[i], four[i])
			}
		}
	}
}

// auto keeps the k-d tree where it wins (BenchmarkPredict): up to 6
// features for L2, whose exhaustive search runs on matrix products, and up
// to 20 for L1 and L∞, whose exhaustive search is exact row by row.
func TestAutoChoosesSearchByDimension(t *testing.T) {
	for _, c := range []struct {
		data, metric, want string
	}{
		{"iris", "l2", "k-d tree"},              // 4 features
		{"wine", "l2", "exhaustive"},            // 13
		{"wine", "l1", "k-d tree"},              // 13
		{"breast_cancer", "linf", "exhaustive"}, // 30
	} {
		d := dataset(t, c.data)
		m := &KNN{Metric: c.metric, K: 5, P: 3, Algorithm: Auto, LeafSize: 30}
		if err := engine.Fit(context.Background(), m, engine.Train{X: d.X, Y: d.Y, Classes: d.Classes}, nil); err != nil {
			t.Fatal(err)
		}
		if got := m.Choice().Search; got != c.want {
			t.Errorf("%s, %s: auto chose %s, want %s", c.data, c.metric, got, c.want)
		}
	}
}

// The stage scorer gives what Predict and PredictProba give, from one
// search, and asked again for the same fit and k answers without one;
// during the k sweep it follows the k of each step.
func TestStageScorerMatchesPredictions(t *testing.T) {
	d := dataset(t, "wine")
	tr := engine.Train{X: d.X, Y: d.Y, Classes: d.Classes}
	for _, m := range []*KNN{{K: 7, Metric: "l2", P: 3, Algorithm: Auto, LeafSize: 30}, {KMax: 9, K: 5, Metric: "l2", P: 3, Algorithm: Auto, LeafSize: 30}} {
		var st engine.StageScorer
		steps := 0
		rec := recFunc(func(engine.Step) error {
			if st == nil {
				var err error
				if st, err = m.Stages(d.X); err != nil {
					return err
				}
			}
			pred, proba, err := st.Scores()
			if err != nil {
				return err
			}
			want, _ := m.Predict(d.X)
			P, _ := m.PredictProba(d.X)
			if !slices.Equal(pred, want) || !mat.Equal(proba, P) {
				t.Errorf("k=%d: staged scores differ from Predict and PredictProba", m.kUse)
			}
			steps++
			return nil
		})
		if err := engine.Fit(context.Background(), m, tr, rec); err != nil {
			t.Fatal(err)
		}
		if steps == 0 {
			t.Fatal("no step")
		}
		again, _, _ := st.Scores()
		if s := st.(*knnScorer); &again[0] != &s.pred[0] && m.KMax == 0 {
			t.Error("scored again for the same fit and k")
		}
	}
}

type recFunc func(engine.Step) error

func (f recFunc) Step(s engine.Step) error { return f(s) }

// distance turns a reduced distance back into a distance.
func (m metric) distance(r float64) float64 {
	switch m.p {
	case 2:
		return math.Sqrt(r)
	case 1, math.Inf(1):
		return r
	}
	return math.Pow(r, 1/m.p)
}

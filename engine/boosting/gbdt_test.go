package boosting

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

func build(t testing.TB, settings map[string]string) *GBDT {
	t.Helper()
	return engine.MustBuild("gbdt", settings).(*GBDT)
}

func fit(t testing.TB, m *GBDT, tr engine.Train) {
	t.Helper()
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
		t.Fatal(err)
	}
}

// One round, one split, computed by hand. Squared loss, targets 1, 2 at
// x = 0 and 10, 11, 13 at x = 1; λ = 1, learning rate 0.5. The base is the
// mean, 7.4; gradients f − y are 6.4, 5.4 | −2.6, −3.6, −5.6, so G_L = 11.8,
// H_L = 2, G_R = −11.8, H_R = 3. Leaf weights −G/(H+λ) times 0.5:
// −11.8/3·0.5 = −1.9667 and 11.8/4·0.5 = 1.475. Gain ½(11.8²/3 + 11.8²/4 −
// 0²/6) = ½(46.413 + 34.81).
func TestOneSplitByHand(t *testing.T) {
	X := mat.NewDense(5, 1, []float64{0, 0, 1, 1, 1})
	y := []float64{1, 2, 10, 11, 13}
	m := build(t, map[string]string{"rounds": "1", "learning_rate": "0.5", "max_depth": "1", "min_child_weight": "0", "min_samples_leaf": "1"})
	fit(t, m, engine.Train{X: X, Y: y})
	if got := m.m.base[0]; math.Abs(got-7.4) > 1e-12 {
		t.Fatalf("base %v, want 7.4", got)
	}
	tr := m.m.trees[0]
	if tr.nodes() != 3 || tr.feature[0] != 0 || tr.thresh[0] != 0.5 {
		t.Fatalf("tree %+v, want one split at x <= 0.5", tr)
	}
	wantL, wantR := -11.8/3*0.5, 11.8/4*0.5
	if l, r := tr.value[tr.left[0]], tr.value[tr.right[0]]; math.Abs(l-wantL) > 1e-12 || math.Abs(r-wantR) > 1e-12 {
		t.Errorf("leaves %v, %v; want %v, %v", l, r, wantL, wantR)
	}
	if want := 0.5 * (11.8*11.8/3 + 11.8*11.8/4); math.Abs(tr.gain[0]-want) > 1e-9 {
		t.Errorf("gain %v, want %v", tr.gain[0], want)
	}
	pred, _ := m.Predict(mat.NewDense(2, 1, []float64{-3, 7}))
	if math.Abs(pred[0]-(7.4+wantL)) > 1e-12 || math.Abs(pred[1]-(7.4+wantR)) > 1e-12 {
		t.Errorf("predictions %v", pred)
	}
}

// The logistic loss's first round by hand: two rows of each class on each
// side of x = 0.5, three of one class and one of the other: the base is
// log(4/4) = 0, every p = ½, g = p − y, h = ¼. Left (y 0,0,0,1): G = 1, H = 1,
// leaf −1/(1+1)·0.1 = −0.05; right (y 1,1,1,0) +0.05.
func TestLogisticRoundByHand(t *testing.T) {
	X := mat.NewDense(8, 1, []float64{0, 0, 0, 0, 1, 1, 1, 1})
	y := []float64{0, 0, 0, 1, 1, 1, 1, 0}
	m := build(t, map[string]string{"rounds": "1", "max_depth": "1", "min_child_weight": "0", "min_samples_leaf": "1"})
	fit(t, m, engine.Train{X: X, Y: y, Classes: []string{"a", "b"}})
	tr := m.m.trees[0]
	if m.m.base[0] != 0 || tr.value[tr.left[0]] != -0.05 || tr.value[tr.right[0]] != 0.05 {
		t.Errorf("base %v, leaves %v, %v; want 0, −0.05, 0.05", m.m.base[0], tr.value[tr.left[0]], tr.value[tr.right[0]])
	}
	P, _ := m.PredictProba(mat.NewDense(1, 1, []float64{1}))
	if want := 1 / (1 + math.Exp(-0.05)); math.Abs(P.At(0, 1)-want) > 1e-15 {
		t.Errorf("P(b | x=1) = %v, want σ(0.05) = %v", P.At(0, 1), want)
	}
}

// synth is n rows of p features, a nonlinear rule of three of them, noise,
// some missing values, for classification (k classes) or regression (k 0).
func synth(n, p, k int, missing float64, seed uint64) engine.Train {
	r := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := range n {
		row := X.RawRowView(i)
		for j := range row {
			row[j] = r.NormFloat64()
		}
		s := row[0]*row[1] + math.Sin(2*row[2]) + 0.3*r.NormFloat64()
		for j := range row {
			if r.Float64() < missing {
				row[j] = math.NaN()
			}
		}
		switch {
		case k == 0:
			y[i] = s
		case k == 2:
			y[i] = b2f(s > 0)
		default:
			y[i] = float64(min(k-1, max(0, int(s+float64(k)/2))))
		}
	}
	tr := engine.Train{X: X, Y: y, Seed: 7}
	for c := range k {
		tr.Classes = append(tr.Classes, string(rune('a'+c)))
	}
	return tr
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func accuracy(t *testing.T, m *GBDT, tr engine.Train) float64 {
	pred, err := m.Predict(tr.X)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for i := range pred {
		if pred[i] == tr.Y[i] {
			right++
		}
	}
	return float64(right) / float64(len(pred))
}

// Same seed, same model; one job or two, the same model bit for bit, with
// row and column sampling on.
func TestDeterministicAcrossJobs(t *testing.T) {
	tr := synth(3000, 12, 3, 0.05, 1)
	var states [][]byte
	for _, jobs := range []string{"1", "2", "2"} {
		m := build(t, map[string]string{"rounds": "15", "jobs": jobs, "subsample": "0.7", "colsample": "0.6"})
		fit(t, m, tr)
		s, err := m.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, s)
	}
	if string(states[0]) != string(states[1]) || string(states[1]) != string(states[2]) {
		t.Error("the model depends on jobs or on the run")
	}
}

// Missing values learn their direction: when the class is carried by
// whether x is missing, one split on x separates the classes.
func TestMissingValuesLearnTheirSide(t *testing.T) {
	n := 200
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		X.Set(i, 0, float64(i%7))
		X.Set(i, 1, float64(i%5))
		if i%2 == 1 {
			X.Set(i, 0, math.NaN())
			y[i] = 1
		}
	}
	m := build(t, map[string]string{"rounds": "20", "max_depth": "1"})
	fit(t, m, engine.Train{X: X, Y: y, Classes: []string{"a", "b"}})
	if acc := accuracy(t, m, engine.Train{X: X, Y: y}); acc != 1 {
		t.Errorf("accuracy %v, want 1", acc)
	}
	tr := m.Tree()
	if c := tr.Nodes[tr.Nodes[0].Children[1]].Cond; c.Feature != 0 || !c.Missing {
		t.Errorf("the root's right branch is %q, want x... or missing", c)
	}
}

// A nominal column of many levels, some rare: the split by sorted levels
// finds the set of levels that carries the class, and the tree says it.
func TestNominalManyLevels(t *testing.T) {
	const L = 300
	n := 6000
	r := rand.New(rand.NewPCG(3, 3))
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	levels := make([]string, L)
	for l := range levels {
		levels[l] = "L" + string(rune('A'+l%26)) + string(rune('a'+l/26))
	}
	for i := range n {
		l := r.IntN(L)
		X.Set(i, 0, float64(l))
		X.Set(i, 1, r.NormFloat64())
		y[i] = b2f(l%3 == 0)
	}
	cols := []datasets.Column{{Name: "code", Kind: datasets.Nominal, Levels: levels}, {Name: "noise", Kind: datasets.Numeric}}
	tr := engine.Train{X: X, Y: y, Classes: []string{"no", "yes"}, Columns: cols, Features: []string{"code", "noise"}}
	m := build(t, map[string]string{"rounds": "30", "max_depth": "3"})
	fit(t, m, tr)
	if acc := accuracy(t, m, tr); acc < 0.97 {
		t.Errorf("accuracy %v on a class set by the level", acc)
	}
	root := m.Tree().Nodes
	if c := root[root[0].Children[0]].Cond; c.Feature != 0 || (c.Op != "in" && c.Op != "not in") || len(c.Levels) == 0 {
		t.Errorf("root split %q, want a set of levels of code", c)
	}
	spec, _ := engine.Lookup("gbdt")
	if ws := spec.Advise(cols); len(ws) != 1 || !contains(ws[0].Text, `"code" has 300 levels`) {
		t.Errorf("advice on a column of 300 levels: %v", ws)
	}
	// A code the fit never saw is taken as missing, not a panic.
	if _, err := m.Predict(mat.NewDense(1, 2, []float64{L + 5, 0})); err != nil {
		t.Error(err)
	}
	// A level code that is not one is an error naming the feature.
	bad := tr
	bad.X = mat.DenseCopyOf(X)
	bad.X.Set(4, 0, 2.5)
	if err := engine.Fit(context.Background(), build(t, nil), bad, nil); err == nil || !contains(err.Error(), `"code"`) {
		t.Errorf("a level code 2.5: %v", err)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// A constant column never splits; a class of one row, or a class absent
// from the rows, fits and is predicted with a sane probability.
func TestConstantColumnAndRareClasses(t *testing.T) {
	tr := synth(400, 4, 3, 0, 5)
	for i := range tr.Rows() {
		tr.X.Set(i, 3, 2.5)
	}
	tr.Classes = append(tr.Classes, "absent", "single")
	tr.Y[17] = 4
	m := build(t, map[string]string{"rounds": "20"})
	fit(t, m, tr)
	for _, t2 := range m.m.trees {
		for _, f := range t2.feature {
			if f == 3 {
				t.Fatal("a split on the constant column")
			}
		}
	}
	P, err := m.PredictProba(tr.X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Rows() {
		if P.At(i, 3) > 1e-6 {
			t.Fatalf("row %d: probability %v of a class with no row", i, P.At(i, 3))
		}
	}
	if acc := accuracy(t, m, tr); acc < 0.8 {
		t.Errorf("training accuracy %v", acc)
	}
}

// Early stopping keeps the best round, and the validation loss is a figure
// of each step.
func TestEarlyStoppingKeepsBest(t *testing.T) {
	tr := synth(600, 5, 2, 0, 9)
	m := build(t, map[string]string{"rounds": "500", "learning_rate": "0.5", "early_stopping": "5"})
	var steps []engine.Step
	rec := recorder(func(s engine.Step) error { steps = append(steps, s); return nil })
	if err := engine.Fit(context.Background(), m, tr, rec); err != nil {
		t.Fatal(err)
	}
	if len(steps) >= 500 {
		t.Fatalf("%d rounds: early stopping never stopped", len(steps))
	}
	best := 0
	for i, s := range steps {
		if s.Detail.(Round).ValidLoss < steps[best].Detail.(Round).ValidLoss {
			best = i
		}
	}
	if len(m.m.trees) != best+1 || len(steps)-1-best != 5 {
		t.Errorf("kept %d trees after %d rounds; the best validation loss was at round %d", len(m.m.trees), len(steps), best+1)
	}
	if figs := steps[0].Detail.Figures(); figs[len(figs)-1].Name != "valid_loss" {
		t.Errorf("figures %v", figs)
	}
}

type recorder func(engine.Step) error

func (r recorder) Step(s engine.Step) error { return r(s) }

// Cancelling keeps the rounds so far, and predictions inside a step are
// those of that step's rounds.
func TestCancelKeepsRounds(t *testing.T) {
	tr := synth(500, 5, 2, 0, 2)
	ctx, cancel := context.WithCancel(context.Background())
	m := build(t, nil)
	var inStep []float64
	rec := recorder(func(s engine.Step) error {
		if s.Step == 7 {
			inStep, _ = m.Predict(tr.X)
			cancel()
		}
		return ctx.Err()
	})
	err := engine.Fit(ctx, m, tr, rec)
	if !errors.Is(err, context.Canceled) || len(m.m.trees) != 7 {
		t.Fatalf("%v with %d trees, want cancelled with 7", err, len(m.m.trees))
	}
	after, err := m.Predict(tr.X)
	if err != nil || !slices.Equal(after, inStep) {
		t.Errorf("after the cancel the model predicts otherwise (%v)", err)
	}
}

// Every loss and growth fits better than its base, and the staged scores
// after the last round are the predictions.
func TestLossesAndGrowth(t *testing.T) {
	reg := synth(800, 6, 0, 0.02, 4)
	for _, s := range []map[string]string{
		{"loss": "squared"}, {"loss": "absolute"}, {"loss": "huber"},
		{"max_leaves": "8", "max_depth": "0"}, {"class_weight": "balanced"}, {"importance": "split"},
	} {
		s["rounds"] = "30"
		tr := reg
		if s["class_weight"] != "" {
			tr = synth(800, 6, 4, 0.02, 4)
		}
		m := build(t, s)
		fit(t, m, tr)
		st, err := m.Stages(tr.X)
		if err != nil {
			t.Fatal(err)
		}
		staged, _, _ := st.Scores()
		pred, _ := m.Predict(tr.X)
		if !slices.Equal(staged, pred) {
			t.Errorf("%v: staged scores differ from the predictions", s)
		}
		if s["max_leaves"] != "" {
			for _, x := range m.m.trees {
				if x.leaves() > 8 {
					t.Errorf("a tree of %d leaves, max_leaves 8", x.leaves())
				}
			}
		}
		imp := m.FeatureImportances()
		if sum := floatsSum(imp.Values); math.Abs(sum-1) > 1e-9 || imp.Values[0] < imp.Values[5] {
			t.Errorf("%v: importances %v", s, imp.Values)
		}
	}
}

func floatsSum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// Saved and loaded, gbdt answers bit for bit as fitted; edited states are
// refused.
func TestPersist(t *testing.T) {
	iris := persisttest.Builtin(t, "iris", datasets.Classification)
	cancer := persisttest.Builtin(t, "breast_cancer", datasets.Classification)
	diabetes := persisttest.Builtin(t, "diabetes", datasets.Regression)
	mixed := synth(300, 4, 2, 0.1, 8)
	mixed.Columns = []datasets.Column{{Name: "n", Kind: datasets.Nominal, Levels: []string{"a", "b", "c", "d", "e"}},
		{Name: "x1"}, {Name: "x2"}, {Name: "x3"}}
	for i := range mixed.Rows() {
		if v := mixed.X.At(i, 0); !math.IsNaN(v) {
			mixed.X.Set(i, 0, float64(int(math.Abs(v)*3)%5))
		}
	}
	edits := []persisttest.Mutation{
		persisttest.Set("loss", "hinge"), persisttest.Set("classes", 7.0), persisttest.Shorten("base"),
		persisttest.Set("bins.0", 1000.0), persisttest.Shorten("cuts.1"), persisttest.Set("trees.0.left.0", 0.0),
		persisttest.Set("trees.0.feature.0", 99.0), persisttest.Shorten("trees.0.value"),
		persisttest.Set("trees.0.bin.0", 255.0), persisttest.Set("trees", []any{}),
	}
	persisttest.Check(t, []persisttest.Case{
		{Name: "gbdt", Settings: map[string]string{"rounds": "10"}, Train: iris, X: iris.X, Edits: edits},
		{Name: "gbdt", Settings: map[string]string{"rounds": "10"}, Train: cancer, X: cancer.X, Edits: edits},
		{Name: "gbdt", Settings: map[string]string{"rounds": "10", "loss": "huber"}, Train: diabetes, X: diabetes.X, Edits: edits},
		{Name: "gbdt", Settings: map[string]string{"rounds": "10"}, Train: mixed, X: mixed.X,
			Edits: append(edits, persisttest.Set("level_bins.0.0", 0.0), persisttest.Set("trees.1.cats.0", []any{300.0}))},
	})
}

// The radix sort of the cuts sorts as a comparison sort does, negative
// values, zeros and large magnitudes included.
func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]float64, 5000)
	for i := range v {
		v[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
		if i%97 == 0 {
			v[i] = 0
		}
	}
	want := slices.Clone(v)
	slices.Sort(want)
	var rs radix
	rs.sort(v)
	if !slices.Equal(v, want) {
		t.Error("radix sort differs")
	}
}

// The fixed-step search bins as the plain binary search does.
func TestCountBelow(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, m := range []int{0, 1, 2, 7, 128, 254} {
		cuts := make([]float64, m)
		for k := range cuts {
			cuts[k] = float64(k) + r.Float64()*0.5
		}
		var keys [256]uint64
		for k := range keys {
			keys[k] = orderKey(math.Inf(1))
		}
		for k, c := range cuts {
			keys[k] = orderKey(c)
		}
		for _, v := range []float64{-1, 0, 0.3, 1, 5.25, 127.9, 253.4, 300, math.Inf(1), math.Inf(-1), cuts0(cuts)} {
			if got, want := countBelow(&keys, orderKey(v)), searchCut(cuts, v); got != want {
				t.Errorf("%d cuts, %v: %d below, want %d", m, v, got, want)
			}
		}
	}
}

func cuts0(c []float64) float64 {
	if len(c) == 0 {
		return 0
	}
	return c[len(c)/2]
}

// The tree the Tree tab shows sends every row where the model sends it:
// its conditions on values (thresholds, sets of levels, missing values)
// read as the model's walk on bins.
func TestShownTreeAgreesWithModel(t *testing.T) {
	tr := synth(600, 4, 2, 0.1, 11)
	levels := []string{"a", "b", "c", "d", "e", "f"}
	tr.Columns = []datasets.Column{{Name: "n", Kind: datasets.Nominal, Levels: levels}, {Name: "x1"}, {Name: "x2"}, {Name: "x3"}}
	tr.Features = []string{"n", "x1", "x2", "x3"}
	for i := range tr.Rows() {
		if v := tr.X.At(i, 0); !math.IsNaN(v) {
			l := int(math.Abs(v)*4) % 5 // level f never occurs
			tr.X.Set(i, 0, float64(l))
			if l == 2 {
				tr.Y[i] = 1 - tr.Y[i]
			}
		}
	}
	X := mat.DenseCopyOf(tr.X)
	X.Set(0, 0, 5) // the level never seen in training
	var sets, missing bool
	for show := 1; show <= 10; show++ {
		m := build(t, map[string]string{"rounds": "10", "max_depth": "4"})
		fit(t, m, tr)
		shown := m.TreeAt(show - 1)
		codes := m.m.binRows(X)
		model := m.m.trees[show-1]
		level := func(_, code int) string { return levels[code] }
		for _, nd := range shown.Nodes {
			sets = sets || nd.Cond.Op == "in" || nd.Cond.Op == "not in"
			missing = missing || nd.Cond.Missing
		}
		for i := range X.RawMatrix().Rows {
			path := shown.Path(X.RawRowView(i), level)
			got := shown.Nodes[path[len(path)-1]].Value
			if want := model.value[model.leafRow(codes[i*4:(i+1)*4])]; got != want {
				t.Fatalf("tree %d, row %d: the shown tree gives %v, the model %v", show, i, got, want)
			}
		}
	}
	if !sets || !missing {
		t.Errorf("no split on a set of levels (%v) or taking missing values (%v): the test tests less than it says", sets, missing)
	}
}

// A row of weight 2 counts as the row twice: the same trees, up to the
// order in which sums are taken (which can tip a near-tie between two
// splits, hence a tolerance well below what ignoring the weights moves).
func TestWeightsCountAsCopies(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	n := 300
	X, X2 := mat.NewDense(n, 2, nil), mat.NewDense(2*n, 2, nil)
	y, y2, w := make([]float64, n), make([]float64, 0, 2*n), make([]float64, n)
	k := 0
	for i := range n {
		a, b := float64(r.IntN(20)), float64(r.IntN(30))
		X.Set(i, 0, a)
		X.Set(i, 1, b)
		y[i] = b2f(a+b/2+r.NormFloat64()*3 > 17)
		w[i] = float64(1 + i%2)
		for range int(w[i]) {
			X2.Set(k, 0, a)
			X2.Set(k, 1, b)
			y2 = append(y2, y[i])
			k++
		}
	}
	X2 = X2.Slice(0, k, 0, 2).(*mat.Dense)
	// min_samples_leaf counts rows, not weight (as scikit-learn's does):
	// the copies are more rows, so it is set to 1 for both.
	settings := map[string]string{"rounds": "20", "min_samples_leaf": "1"}
	m1, m2 := build(t, settings), build(t, settings)
	fit(t, m1, engine.Train{X: X, Y: y, Weights: w, Classes: []string{"a", "b"}})
	fit(t, m2, engine.Train{X: X2, Y: y2, Classes: []string{"a", "b"}})
	P1, _ := m1.PredictProba(X)
	P2, _ := m2.PredictProba(X)
	for i := range n {
		if d := math.Abs(P1.At(i, 1) - P2.At(i, 1)); d > 1e-3 {
			t.Fatalf("row %d: weighted %v, copied %v", i, P1.At(i, 1), P2.At(i, 1))
		}
	}
}

// A nominal column of 50,000 levels (most seen once or never): the most
// frequent levels get bins, the rest share one, and the fit, its
// predictions, its tree and its state all come out.
func TestFiftyThousandLevels(t *testing.T) {
	const L = 50000
	n := 4000
	r := rand.New(rand.NewPCG(8, 8))
	levels := make([]string, L)
	for l := range levels {
		levels[l] = "id" + strconv.Itoa(l)
	}
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		l := r.IntN(L)
		if i%2 == 0 {
			l = r.IntN(40) // a few frequent levels carry the class
		}
		X.Set(i, 0, float64(l))
		X.Set(i, 1, r.NormFloat64())
		y[i] = b2f(l < 40 && l%2 == 0)
	}
	tr := engine.Train{X: X, Y: y, Classes: []string{"no", "yes"}, Features: []string{"id", "x"},
		Columns: []datasets.Column{{Name: "id", Kind: datasets.Nominal, Levels: levels}, {Name: "x"}}}
	m := build(t, map[string]string{"rounds": "10"})
	fit(t, m, tr)
	if acc := accuracy(t, m, tr); acc < 0.95 {
		t.Errorf("accuracy %v", acc)
	}
	if nb := m.m.bins.nbins[0]; nb != 256 {
		t.Errorf("%d bins for 50,000 levels, want 256", nb)
	}
	if m.Tree() == nil {
		t.Error("no tree")
	}
	if _, err := m.MarshalState(); err != nil {
		t.Error(err)
	}
}

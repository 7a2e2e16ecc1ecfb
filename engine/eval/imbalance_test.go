package eval

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// imbalanced draws 270 rows of class "common" around (0, 0) and 30 of
// "rare" around (1.5, 1.5), overlapping.
func imbalanced() *datasets.Dataset {
	r := rand.New(rand.NewPCG(11, 4))
	n := 300
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		c := 0.0
		if i%10 == 9 {
			c = 1
		}
		y[i] = c
		X.Set(i, 0, 1.5*c+r.NormFloat64())
		X.Set(i, 1, 1.5*c+r.NormFloat64())
	}
	return &datasets.Dataset{Name: "imbalanced", X: X, Y: y, Classes: []string{"common", "rare"}, Task: datasets.Classification,
		Features: []datasets.Column{{Name: "a"}, {Name: "b"}}}
}

func recallOf(t *testing.T, res *Result, class string) float64 {
	t.Helper()
	for _, c := range res.Classes {
		if c.Class == class {
			return c.Recall
		}
	}
	t.Fatalf("no class %s in %+v", class, res.Classes)
	return 0
}

// Rebalancing the training parts (SMOTE, over- and under-sampling, balanced
// class weights) raises the rare class's recall at the same folds, and the
// result says what each training part looked like after it.
func TestRebalancingRaisesMinorityRecall(t *testing.T) {
	d := imbalanced()
	plain := run(t, d, "logistic", nil, Options{Folds: 5, Seed: 1})
	base := recallOf(t, plain, "rare")
	if plain.Parts != nil {
		t.Errorf("no rebalancing, yet parts %+v", plain.Parts)
	}
	for _, pl := range []Pipeline{{Resample: ResampleSMOTE}, {Resample: ResampleOver}, {Resample: ResampleUnder}, {ClassWeight: ClassWeightBalanced}} {
		res := run(t, d, "logistic", nil, Options{Folds: 5, Seed: 1, Pipeline: pl})
		got := recallOf(t, res, "rare")
		if got < base+0.3 {
			t.Errorf("%+v: rare recall %.3f, without %.3f", pl, got, base)
		}
		t.Logf("%+v: rare recall %.3f, without %.3f", pl, got, base)
		if len(res.Parts) != 6 || res.Parts[5].Fold != 0 {
			t.Fatalf("%+v: parts %+v, want 5 folds and the final fit", pl, res.Parts)
		}
		for _, p := range res.Parts {
			want := []int{216, 216}
			switch {
			case pl.Resample == ResampleUnder:
				want = []int{24, 24}
			case pl.Resample == "":
				want = []int{216, 24}
			}
			if p.Fold == 0 {
				want = []int{max(want[0]*5/4, 30), max(want[1]*5/4, 30)}
				if pl.Resample == "" {
					want = []int{270, 30}
				}
			}
			if !slices.Equal(p.Rows, want) {
				t.Errorf("%+v fold %d: class rows %v, want %v", pl, p.Fold, p.Rows, want)
			}
			if (pl.Resample != "") != (p.Before != nil) || (pl.ClassWeight != "") != (p.Weights != nil) {
				t.Errorf("%+v fold %d: %+v", pl, p.Fold, p)
			}
		}
		if !strings.Contains(res.Eval, "training parts") && !strings.Contains(res.Eval, "class weights") {
			t.Errorf("%+v: evaluation %q does not say it", pl, res.Eval)
		}
	}
	w := run(t, d, "logistic", nil, Options{Folds: 5, Seed: 1, Pipeline: Pipeline{ClassWeight: ClassWeightBalanced}})
	if got := w.Parts[0].Weights; got[0] != 300.0*4/5/(2*216) || got[1] != 300.0*4/5/(2*24) {
		t.Errorf("balanced weights %v, want n/(2·n_class)", got)
	}
	knn := run(t, d, "knn", nil, Options{Folds: 5, Seed: 1, Pipeline: Pipeline{ClassWeight: ClassWeightBalanced}})
	if !slices.ContainsFunc(knn.Warnings, func(w advice.Warning) bool { return strings.Contains(w.String(), "knn ignores row weights") }) {
		t.Errorf("knn ignores weights, but the run says %v", knn.Warnings)
	}
}

// SMOTE's rows lie between a row of their class and one of its nearest
// neighbours of the class, are drawn from the seed, and fill each class up
// to the largest.
func TestSMOTE(t *testing.T) {
	d := imbalanced()
	tr := engine.Train{X: d.X, Y: d.Y, Classes: d.Classes}
	out, err := resample(tr, ResampleSMOTE, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := resample(tr, ResampleSMOTE, 7, 2)
	if !mat.Equal(out.X, again.X) {
		t.Error("the same seed drew other rows")
	}
	if c := classRows(out.Y, 2); c[0] != 270 || c[1] != 270 {
		t.Fatalf("class rows %v", c)
	}
	var rare []int
	for i, v := range d.Y {
		if v == 1 {
			rare = append(rare, i)
		}
	}
	nn := neighboursWithin(d.X, rare, SMOTENeighbors)
	for s := 300; s < 540; s++ {
		x := out.X.RawRowView(s)
		found := false
		for a, i := range rare {
			for _, j := range nn[a] {
				p, q := d.X.RawRowView(i), d.X.RawRowView(j)
				// x = p + g (q - p) for one g in [0, 1]
				g := (x[0] - p[0]) / (q[0] - p[0])
				if g >= -1e-12 && g <= 1+1e-12 && abs(p[1]+g*(q[1]-p[1])-x[1]) < 1e-9 {
					found = true
				}
			}
		}
		if !found || out.Y[s] != 1 {
			t.Fatalf("synthetic row %d %v (class %v) is on no segment to a neighbour", s, x, out.Y[s])
		}
	}
	one := engine.Train{X: mat.NewDense(3, 1, []float64{1, 2, 3}), Y: []float64{0, 0, 1}, Classes: []string{"a", "b"}}
	if _, err := resample(one, ResampleSMOTE, 1, 2); err == nil || !strings.Contains(err.Error(), `class "b" has 1 row`) {
		t.Errorf("a class of one row: %v", err)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// The memory a fit needs counts the pipeline's columns (lift, indicators)
// and the rows over-sampling adds.
func TestMemoryCountsThePipeline(t *testing.T) {
	d := imbalanced()
	s := spec(t, "logistic")
	base := Shape(d, s, Options{})
	if got := Shape(d, s, Options{Pipeline: Pipeline{Lift: 2}}); got.Cols != 5 || base.Cols != 2 {
		t.Errorf("lift 2 of 2 columns: %d columns (without %d), want 5", got.Cols, base.Cols)
	}
	if got := Shape(d, s, Options{Pipeline: Pipeline{Resample: ResampleSMOTE}}); got.Rows != 540 {
		t.Errorf("smote: %d rows, want 540", got.Rows)
	}
	if a, b := MemoryNeed(d, s, nil, Options{}), MemoryNeed(d, s, nil, Options{Pipeline: Pipeline{Lift: 3}}); b.Bytes <= a.Bytes {
		t.Errorf("lift 3 needs %v bytes, none %v", b.Bytes, a.Bytes)
	}
}

package tune_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/tune"
)

// sentinelName is a classifier that remembers, for each model fitted, the
// rows it was fitted on and the rows it was asked to predict, known by
// their first feature, which the test sets to the row's index.
const sentinelName = "tune-sentinel"

type sentinelUse struct {
	mu        sync.Mutex
	fitted    []int
	predicted map[int]bool
}

var sentinelUses struct {
	sync.Mutex
	all []*sentinelUse
}

type sentinel struct{ use *sentinelUse }

func (s *sentinel) Fit(_ context.Context, d engine.Train, _ engine.Recorder) error {
	u := &sentinelUse{predicted: map[int]bool{}}
	r, _ := d.X.Dims()
	for i := range r {
		u.fitted = append(u.fitted, int(d.X.At(i, 0)))
	}
	slices.Sort(u.fitted)
	s.use = u
	sentinelUses.Lock()
	sentinelUses.all = append(sentinelUses.all, u)
	sentinelUses.Unlock()
	return nil
}

func (s *sentinel) Predict(X mat.Matrix) ([]float64, error) {
	r, _ := X.Dims()
	s.use.mu.Lock()
	defer s.use.mu.Unlock()
	out := make([]float64, r)
	for i := range r {
		id := int(X.At(i, 0))
		s.use.predicted[id] = true
		out[i] = float64(id % 2) // a score that depends on the rows
	}
	return out, nil
}

func init() {
	engine.Register(engine.Spec{
		Name: sentinelName, Title: "sentinel (test)", Family: "test", Summary: "remembers its rows", Notes: "none (tests)",
		Tasks:  []engine.Task{datasets.Classification},
		Params: []engine.Param{{Name: "p", Kind: engine.Int, Default: 1, Min: 1, Max: 100, Simpler: engine.SimplerLower, Help: "nothing"}},
		New:    func(engine.Values) (engine.Model, error) { return &sentinel{}, nil },
	})
}

// withIDs is iris with its first feature replaced by each row's index.
func withIDs(t *testing.T) *datasets.Dataset {
	d := open(t, "iris")
	x := mat.DenseCopyOf(d.X)
	for i := range d.Rows() {
		x.Set(i, 0, float64(i))
	}
	d.X = x
	return d
}

// The inner search never sees an outer held-out row: every model fitted
// in a nested cross-validation learns from rows of one outer fold's
// training part, and the only models shown that fold's held-out rows are
// the K fitted on its whole training part, the fold's pick.
func TestNestedNeverSeesTheOuterHeldOutRows(t *testing.T) {
	d := withIDs(t)
	spec := lookup(t, sentinelName)
	no := false
	opt := tune.Options{Eval: eval.Options{Folds: 3, Seed: 5, Standardize: &no}, Jobs: 2}
	const k = 4
	sentinelUses.Lock()
	sentinelUses.all = nil
	sentinelUses.Unlock()
	res, err := tune.Nested(context.Background(), d, spec, nil, []tune.Axis{axis(t, sentinelName, "p=1..3")}, opt, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	outer, _, err := eval.Plan(d, eval.Options{Folds: k, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scored() != k {
		t.Fatalf("%d outer folds scored of %d", res.Scored(), k)
	}
	refits, inner := 0, 0
	for _, u := range sentinelUses.all {
		home := -1 // the outer fold whose training part holds every row fitted
		for f, fold := range outer {
			if subset(u.fitted, fold.Train) {
				home = f
				break
			}
		}
		if home < 0 {
			t.Fatalf("a model was fitted on %d rows, held out by every outer fold", len(u.fitted))
		}
		train := slices.Sorted(slices.Values(outer[home].Train))
		sawHeldOut := false
		for _, i := range outer[home].Test {
			sawHeldOut = sawHeldOut || u.predicted[i]
		}
		switch {
		case slices.Equal(u.fitted, train):
			refits++
		case sawHeldOut:
			t.Errorf("a model of outer fold %d's search (fitted on %d rows) predicted its held-out rows", home+1, len(u.fitted))
		default:
			inner++
		}
	}
	// 4 outer folds × 3 settings × 3 inner folds, and one refit per outer fold.
	if refits != k || inner != k*3*3 {
		t.Errorf("%d refits on outer training parts (want %d), %d inner fits (want %d)", refits, k, inner, k*3*3)
	}
}

func subset(rows, of []int) bool {
	in := map[int]bool{}
	for _, i := range of {
		in[i] = true
	}
	for _, i := range rows {
		if !in[i] {
			return false
		}
	}
	return true
}

// A nested cross-validation is the same for a seed whatever the workers,
// and its outer folds' searches are searches of their training parts.
func TestNestedIsDeterministic(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, "knn")
	axes := []tune.Axis{axis(t, "knn", "k=1..15:5")}
	var got []*tune.NestedResult
	for _, jobs := range []int{1, 3} {
		res, err := tune.Nested(context.Background(), d, spec, nil, axes, tune.Options{Eval: eval.Options{Folds: 3, Seed: 2}, Jobs: jobs}, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res)
	}
	a, b := got[0], got[1]
	if a.Mean != b.Mean || a.Std != b.Std || len(a.Folds) != 4 {
		t.Fatalf("jobs change the nested score: %v ± %v, %v ± %v", a.Mean, a.Std, b.Mean, b.Std)
	}
	for f := range a.Folds {
		pa, _ := a.Folds[f].Pick()
		pb, _ := b.Folds[f].Pick()
		if !reflect.DeepEqual(pa, pb) || a.Folds[f].Score != b.Folds[f].Score || a.Folds[f].Train+a.Folds[f].Test != 150 {
			t.Errorf("outer fold %d: %v %v / %v %v", f+1, pa.Values, a.Folds[f].Score, pb.Values, b.Folds[f].Score)
		}
	}
	if _, err := tune.Nested(context.Background(), d, spec, nil, axes, tune.Options{Eval: eval.Options{Folds: 3}}, 1, nil); err == nil ||
		!strings.Contains(err.Error(), "nested cross-validation needs at least 2 outer folds, not 1") {
		t.Errorf("1 outer fold: %v", err)
	}
}

// Cancelling keeps the outer folds that finished and says so.
func TestNestedCancels(t *testing.T) {
	d := open(t, "iris")
	spec := lookup(t, "knn")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := tune.Nested(ctx, d, spec, nil, []tune.Axis{axis(t, "knn", "k=1..6")}, tune.Options{Eval: eval.Options{Folds: 3, Seed: 1}, Jobs: 1}, 5,
		func(f, i int, p tune.Point) {
			if f == 1 && i == 2 {
				cancel()
			}
		})
	if err != context.Canceled || res == nil || !res.Cancelled {
		t.Fatalf("err %v, result %v", err, res)
	}
	if res.Scored() != 1 || !res.Folds[0].OK() || res.Folds[1].Done {
		t.Errorf("%d folds scored; want the first alone", res.Scored())
	}
}

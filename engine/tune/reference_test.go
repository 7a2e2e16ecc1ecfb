package tune_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/internal/sweep"
)

// The reference data are written by go generate, never by a test: folds.json
// and nested_folds.json by testdata/folds.go (from refEval and refSets,
// which it repeats), then gridsearch.json by testdata/gridsearch.py and
// nested.json by testdata/nested.py (scikit-learn on those folds).
//go:generate go run ./testdata/folds.go
//go:generate sh -c "cd testdata && /usr/bin/python3 gridsearch.py > gridsearch.json.new && mv gridsearch.json.new gridsearch.json"
//go:generate sh -c "cd testdata && /usr/bin/python3 nested.py > nested.json.new && mv nested.json.new nested.json"

// refEval is the evaluation the scikit-learn reference reproduces: the
// folds of testdata/folds.json, written from this plan.
var refEval = eval.Options{Folds: 5, Seed: 1}

var refSets = []string{"breast_cancer", "iris", "wine"}

// foldOf gives each row the fold that holds it among its test rows, as
// scikit-learn's PredefinedSplit takes it.
func foldOf(t *testing.T, d *datasets.Dataset) []int {
	t.Helper()
	folds, _, err := eval.Plan(d, refEval)
	if err != nil {
		t.Fatal(err)
	}
	of := make([]int, d.Rows())
	for f, p := range folds {
		for _, i := range p.Test {
			of[i] = f
		}
	}
	return of
}

type gridRef struct {
	Dataset string            `json:"dataset"`
	Model   string            `json:"model"`
	Param   string            `json:"param"`
	Range   string            `json:"range"`
	Fixed   map[string]string `json:"fixed"`
	Agree   string            `json:"agree"` // "scores": every score; "best": training scores and the best setting
	Values  []int             `json:"values"`
	Mean    []float64         `json:"mean_test_score"`
	Train   []float64         `json:"mean_train_score"`
	Best    int               `json:"best"`
}

// TestBestAgreesWithGridSearchCV: on the same folds, a sweep's best setting
// is scikit-learn's GridSearchCV's, and so are its scores where the two
// models break no ties differently (testdata/gridsearch.py computed them,
// sklearn 1.2.1, and says which; the folds are tealab's, testdata/folds.json).
func TestBestAgreesWithGridSearchCV(t *testing.T) {
	var folds map[string][]int
	readJSON(t, "folds.json", &folds)
	var refs []gridRef
	readJSON(t, "gridsearch.json", &refs)
	for _, name := range refSets {
		if got := foldOf(t, open(t, name)); !slices.Equal(got, folds[name]) {
			t.Fatalf("%s: the folds are no longer those of testdata/folds.json; rewrite it and gridsearch.json with `go generate ./engine/tune`", name)
		}
	}
	for _, ref := range refs {
		t.Run(ref.Model+"/"+ref.Param+"/"+ref.Dataset, func(t *testing.T) {
			d := open(t, ref.Dataset)
			spec, _ := engine.Lookup(ref.Model)
			base, err := spec.Parse(ref.Fixed)
			if err != nil {
				t.Fatal(err)
			}
			axis, err := tune.ParseAxis(spec, ref.Param+"="+ref.Range)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tune.Search(context.Background(), d, spec, base, []tune.Axis{axis}, tune.Options{Eval: refEval, Jobs: 2}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range res.Points {
				valOff := ref.Agree == "scores" && math.Abs(p.ValMean-ref.Mean[i]) > 1e-9
				if p.Values[0] != ref.Values[i] || valOff || math.Abs(p.TrainMean-ref.Train[i]) > 1e-9 {
					t.Errorf("%s=%v: validation %.6f training %.6f, scikit-learn %v: %.6f %.6f",
						ref.Param, p.Values[0], p.ValMean, p.TrainMean, ref.Values[i], ref.Mean[i], ref.Train[i])
				}
			}
			best, ok := res.BestPoint()
			if !ok || best.Values[0] != ref.Best {
				t.Errorf("best %s=%v, GridSearchCV's %d", ref.Param, best.Values, ref.Best)
			}
		})
	}
}

func open(t testing.TB, name string) *datasets.Dataset {
	t.Helper()
	tb, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func readJSON(t *testing.T, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

type nestedRef struct {
	Dataset, Model, Param, Range string
	Folds                        []struct {
		Pick         int
		Inner, Outer float64
	}
	Mean, Std float64
}

// TestNestedAgreesWithScikitLearn: a nested cross-validation (5 outer
// folds, each searching its training part by 5 inner folds, seed 1) picks
// the setting scikit-learn's GridSearchCV picks on the same inner folds in
// every outer fold, and scores it alike on the outer held-out rows
// (testdata/nested.py, sklearn 1.2.1; the folds are tealab's,
// testdata/nested_folds.json). Wine in every run; breast_cancer too in
// the long sweeps (package sweep).
func TestNestedAgreesWithScikitLearnLong(t *testing.T) {
	var refs []nestedRef
	readJSON(t, "nested.json", &refs)
	long := sweep.Long(t)
	for _, ref := range refs {
		if !long && ref.Dataset != "wine" {
			continue
		}
		t.Run(ref.Dataset, func(t *testing.T) {
			d := open(t, ref.Dataset)
			spec := lookup(t, ref.Model)
			a := axis(t, ref.Model, ref.Param+"="+ref.Range)
			res, err := tune.Nested(context.Background(), d, spec, nil, []tune.Axis{a}, tune.Options{Eval: refEval, Jobs: 2}, 5, nil)
			if err != nil {
				t.Fatal(err)
			}
			for f, want := range ref.Folds {
				got := res.Folds[f]
				pick, ok := got.Pick()
				if !ok || pick.Values[0] != want.Pick || math.Abs(pick.ValMean-want.Inner) > 1e-9 || math.Abs(got.Score-want.Outer) > 1e-9 {
					t.Errorf("outer fold %d: %s=%v inner %.6f outer %.6f; scikit-learn %d %.6f %.6f",
						f+1, ref.Param, pick.Values, pick.ValMean, got.Score, want.Pick, want.Inner, want.Outer)
				}
			}
			if math.Abs(res.Mean-ref.Mean) > 1e-9 || math.Abs(res.Std-ref.Std) > 1e-9 {
				t.Errorf("nested score %.6f ± %.6f; scikit-learn %.6f ± %.6f", res.Mean, res.Std, ref.Mean, ref.Std)
			}
		})
	}
}

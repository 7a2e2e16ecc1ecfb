package models_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/internal/sweep"
)

// TestScoresMatchScikitLearn runs every model with its defaults through
// 10-fold CV on each built-in dataset that suits it and compares the mean
// score with scikit-learn's counterpart on the same data
// (testdata/sklearn_cv.py wrote testdata/sklearn_cv.json). The folds differ
// (another shuffle), so the scores must agree within noise: the allowance is
// 2.5 standard errors of a 10-fold mean, and at least 0.02.
func TestScoresMatchScikitLearn(t *testing.T) {
	t.Parallel()
	matchScikitLearn(t, func(data string) bool { return data != "digits" })
}

// The same on digits.
func TestScoresMatchScikitLearnOnDigitsLong(t *testing.T) {
	sweep.Skip(t, "digits")
	t.Parallel()
	matchScikitLearn(t, func(data string) bool { return data == "digits" })
}

// matchScikitLearn checks the references of the data sets that with says.
func matchScikitLearn(t *testing.T, with func(data string) bool) {
	raw, err := os.ReadFile("testdata/sklearn_cv.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs map[string]struct {
		Metric    string
		Mean, Std float64
	}
	if err := json.Unmarshal(raw, &refs); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(refs))
	for k := range refs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		ref := refs[key]
		model, data, _ := strings.Cut(key, "/")
		if !with(data) {
			continue
		}
		t.Run(key, func(t *testing.T) {
			spec, err := engine.Lookup(model)
			if err != nil {
				t.Fatal(err)
			}
			d := builtin(t, data, "")
			res, err := eval.Run(context.Background(), d, spec, spec.Defaults(), eval.Options{Folds: 10, Seed: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := res.Metrics[ref.Metric]
			tol := math.Max(0.02, 2.5*ref.Std/math.Sqrt(10))
			if math.Abs(got-ref.Mean) > tol {
				t.Errorf("%s %s: tealab %.4f, scikit-learn %.4f ± %.4f (allowed %.4f)", key, ref.Metric, got, ref.Mean, ref.Std, tol)
			}
			t.Logf("%s %s: tealab %.4f, scikit-learn %.4f", key, ref.Metric, got, ref.Mean)
		})
	}
}

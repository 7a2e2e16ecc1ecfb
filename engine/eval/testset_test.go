package eval

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

// A supplied test set: the model is fitted on every row of the data, with
// the preprocessing fitted on them, and scored on the test set's rows; the
// scores are those of that fit and predict done by hand.
func TestSuppliedTestSet(t *testing.T) {
	d, test := blobs(120, 3, 1), blobs(60, 3, 2)
	test.Source = "blobs-test.csv"
	s := spec(t, "evalfake")
	res, err := Run(context.Background(), d, s, nil, Options{Seed: 1, Split: DefaultOptions().Split, Test: test}, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, d.Rows())
	for i := range all {
		all[i] = i
	}
	prep, X, err := datasets.FitApplyPrepRows(d.X, all, d.Features, datasets.PrepOptions{Standardize: s.Standardize, KeepNominal: s.Input.Nominal, KeepMissing: s.Input.Missing})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := s.New(s.Defaults())
	if err := engine.Fit(context.Background(), m, engine.Train{X: X, Y: d.Y, Classes: d.Classes, Features: prep.Features(), Columns: prep.Columns(), Seed: 1}, nil); err != nil {
		t.Fatal(err)
	}
	Xte, err := prep.Apply(test.X)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.(engine.Predictor).Predict(Xte)
	if !slices.Equal(res.Predicted, want) || !slices.Equal(res.Actual, test.Y) {
		t.Errorf("predicted %v\nwant      %v", res.Predicted, want)
	}
	if acc := metrics.Accuracy(test.Y, want); res.Metrics["accuracy"] != acc || res.Confusion.Total() != 60 {
		t.Errorf("accuracy %v, want %v; confusion total %d", res.Metrics["accuracy"], acc, res.Confusion.Total())
	}
	if res.Eval != "supplied test set blobs-test.csv (60 rows)" || res.Rows != 120 || !strings.HasPrefix(res.FittedOn, "all 120 rows") {
		t.Errorf("eval %q, rows %d, fitted on %q", res.Eval, res.Rows, res.FittedOn)
	}
	if last := res.History[len(res.History)-1]; last.ValError != res.Metrics["error"] {
		t.Errorf("the validation curve is not on the test rows: last point %+v, error %v", last, res.Metrics["error"])
	}
	if d.Rows() != 120 || test.Rows() != 60 {
		t.Errorf("the data changed: %d and %d rows", d.Rows(), test.Rows())
	}
}

func TestSuppliedTestSetRefusals(t *testing.T) {
	d, test := blobs(60, 3, 1), blobs(30, 3, 2)
	ctx := context.Background()
	if _, err := Run(ctx, d, spec(t, "evalfake"), nil, Options{Folds: 5, Test: test}, nil); err == nil || !strings.Contains(err.Error(), "supplied test set replaces") {
		t.Errorf("with k-fold CV: %v", err)
	}
	if _, err := Run(ctx, d, spec(t, "evalcluster"), nil, Options{Test: test}, nil); err == nil || !strings.Contains(err.Error(), "leave the test set out") {
		t.Errorf("a clustering: %v", err)
	}
}

// A small supplied test set is warned about as such, not as a hold-out
// whose fraction could change.
func TestSuppliedTestSetTooSmall(t *testing.T) {
	res, err := Run(context.Background(), blobs(60, 3, 1), spec(t, "evalfake"), nil, Options{Seed: 1, Test: blobs(6, 3, 2)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.String())
	}
	all := strings.Join(got, "\n")
	if !strings.Contains(all, "the supplied test set has 6 rows: its scores move in steps of 0.17") || strings.Contains(all, "test part") {
		t.Errorf("warnings:\n%s", all)
	}
}

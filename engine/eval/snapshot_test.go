package eval

import (
	"context"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// TestRows name the data's row of every held-out target, so that a view
// can draw the rows a model got wrong.
func TestTestRowsNameTheHeldOutRows(t *testing.T) {
	d := blobs(60, 3, 2)
	for _, opt := range []Options{DefaultOptions(), {Folds: 5, Seed: 3}} {
		res := run(t, d, "evalfake", nil, opt)
		if len(res.TestRows) != len(res.Actual) {
			t.Fatalf("%s: %d test rows for %d targets", res.Eval, len(res.TestRows), len(res.Actual))
		}
		for i, r := range res.TestRows {
			if d.Y[r] != res.Actual[i] {
				t.Fatalf("%s: target %d is %v, row %d holds %v", res.Eval, i, res.Actual[i], r, d.Y[r])
			}
		}
	}
}

// Options.Snapshot is called on the fitting goroutine, between steps, with
// the model being fitted and its preprocessing: the model predicts then.
func TestSnapshotSeesTheModelBetweenSteps(t *testing.T) {
	d := blobs(60, 3, 2)
	s := spec(t, "evalfake")
	calls, predicted := 0, 0
	opt := DefaultOptions()
	opt.Snapshot = func(m engine.Model, prep *datasets.Prep) {
		calls++
		X, err := prep.Apply(d.X)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.(engine.Predictor).Predict(X); err == nil {
			predicted++
		}
	}
	if _, err := Run(context.Background(), d, s, params(t, s, map[string]string{"steps": "50"}), opt, nil); err != nil {
		t.Fatal(err)
	}
	// 50 quick steps: the first is handed over, nearly all the others
	// fall within SnapshotEvery of the one before.
	if calls < 1 || calls > 5 || predicted != calls {
		t.Errorf("Snapshot called %d times for 50 quick steps, predicted %d times; want 1 (a few on a slow machine), each predicting", calls, predicted)
	}
}

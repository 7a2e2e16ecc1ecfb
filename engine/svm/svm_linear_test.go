package svm

import (
	"context"
	"math"
	"testing"

	"github.com/tealab/tealab/engine"
)

// The svm model with kernel=linear runs the linear solvers: every step it
// reports has a finite training loss (a NaN is what eval takes for a
// divergence), it predicts as LinearSVC does on breast_cancer (0.9877 on
// its training rows, testdata/linear_ref.py), and its support vectors name
// their classes.
func TestSVMLinearSolversThroughTheModel(t *testing.T) {
	d := svcReferenceSet(t, "breast_cancer")
	for _, solver := range []string{"dcd", "sgd"} {
		m := engine.MustBuild(svcName, map[string]string{"kernel": "linear", "solver": solver})
		steps := 0
		rec := smoRecorder(func(s engine.Step) error {
			steps++
			if math.IsNaN(s.TrainLoss) || math.IsInf(s.TrainLoss, 0) {
				t.Errorf("%s: step %d has training loss %g", solver, s.Step, s.TrainLoss)
			}
			return nil
		})
		if err := engine.Fit(context.Background(), m, d, rec); err != nil {
			t.Fatalf("%s: %v", solver, err)
		}
		if steps == 0 {
			t.Errorf("%s: no steps", solver)
		}
		pred, err := m.(engine.Predictor).Predict(d.X)
		if err != nil {
			t.Fatal(err)
		}
		right := 0
		for i, p := range pred {
			if p == d.Y[i] {
				right++
			}
		}
		if acc := float64(right) / float64(len(pred)); acc < 0.98 {
			t.Errorf("%s: training accuracy %.4f, LinearSVC 0.9877", solver, acc)
		}
	}
	m := fitSMO(t, svcName, map[string]string{"kernel": "linear"}, d)
	sv := m.(*SVC).SupportVectors()
	for i, c := range sv.Class {
		if c != d.Classes[0] && c != d.Classes[1] {
			t.Fatalf("support vector %d has class %q; want one of %v", i, c, d.Classes)
		}
	}
}

// With the linear solvers the model predicts from w alone: its support
// vectors are not read (an expansion over thousands of them made
// predicting 4,000 rows of the svm_linear case take 257 ms, not 0.3 ms).
func TestSVMLinearPredictsFromW(t *testing.T) {
	d := svcReferenceSet(t, "breast_cancer")
	m := fitSMO(t, svcName, map[string]string{"kernel": "linear"}, d).(*SVC)
	want, err := m.Predict(d.X)
	if err != nil {
		t.Fatal(err)
	}
	m.fit.sv.x = nil // any read of a support vector would now fail
	got, err := m.Predict(d.X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d: %v, then %v", i, want[i], got[i])
		}
	}
}

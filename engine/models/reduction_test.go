package models_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/eval"
)

// A reduction is scored by what it keeps: against the known classes by the
// leave-one-out 1-NN accuracy in the reduced space (its baseline the same
// on the features), PCA by the RMSE of the rows rebuilt, a random
// projection by its worst distortion. References: testdata/reduction_ref.py
// (scikit-learn 1.2.1).
func TestReductionScores(t *testing.T) {
	t.Parallel()
	reduce := func(data, model string, params map[string]string) (*eval.Result, error) {
		t.Helper()
		spec, v := specWith(t, model, params)
		return eval.Run(context.Background(), builtin(t, data, ""), spec, v, eval.Options{Seed: 1}, nil)
	}
	res, err := reduce("digits", "pca", map[string]string{"k": "2"})
	if err != nil {
		t.Fatal(err)
	}
	// 1055 and 1776 rows of 1797: counts, so exact.
	if got, want := res.Metrics["knn_accuracy"], 0.5870895937673901; math.Abs(got-want) > 1e-12 {
		t.Errorf("digits PCA(2) 1-NN accuracy %v, scikit-learn %v", got, want)
	}
	if got, want := res.Baseline["knn_accuracy"], 0.988313856427379; math.Abs(got-want) > 1e-12 {
		t.Errorf("digits 1-NN accuracy on the features %v, want %v", got, want)
	}
	for _, c := range []struct {
		scale string
		want  float64
	}{{"false", 0.7695452734092416}, {"true", 0.576905514344845}} {
		res, err := reduce("wine", "pca", map[string]string{"k": "3", "scale": c.scale})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Metrics["reconstruction_rmse"]; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("wine PCA(3) scale=%s: reconstruction RMSE %v, scikit-learn %v", c.scale, got, c.want)
		}
	}
	res, err = reduce("wine", "randproj", map[string]string{"k": "5"})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Metrics["distortion"]; !(d > 0 && d < 10) {
		t.Errorf("random projection to 5 of 13: worst distortion %v", d)
	}
	// The Johnson–Lindenstrauss k of Shewchuk's lecture 22 for the defaults
	// (72) is no reduction of 13 features:
	// half of them, and a warning that says why.
	res, err = reduce("wine", "randproj", nil)
	if err != nil || res.Metrics["components"] != 7 || len(res.Warnings) != 1 ||
		!strings.Contains(res.Warnings[0].Text, "72 dimensions") || !strings.Contains(res.Warnings[0].Text, "projected onto 7") {
		t.Errorf("JL k above the features: %v, metrics %v, warnings %q", err, res.Metrics, res.Warnings)
	}
	if _, err := reduce("wine", "randproj", map[string]string{"k": "20"}); err == nil || !strings.Contains(err.Error(), "20 directions but the data have 13 features") {
		t.Errorf("k above the features: %v", err)
	}
}

package models

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Spec.Weighted is true of a model exactly when its fit changes with the
// rows' weights (an evaluation's balanced class weights reach only such a
// model, and a run of any other says it ignores them): a fit with a third
// of the rows down-weighted differs from the unweighted fit, in its saved
// state or its predictions, for every Weighted classifier or regressor
// and for no other.
func TestWeightedSpecsHonourWeights(t *testing.T) {
	for _, data := range []string{"iris", "diabetes"} {
		weightedOn(t, data)
	}
}

func weightedOn(t *testing.T, data string) {
	tab, err := datasets.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	n := d.Rows()
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	p, Z, err := datasets.FitApplyPrepRows(d.X, rows, d.Features, datasets.PrepOptions{Standardize: true})
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
		if i%3 == 0 {
			w[i] = 0.2
		}
	}
	for _, s := range engine.Specs() {
		if !s.Supports(d.Task) || d.Task == datasets.Regression && s.Supports(datasets.Classification) {
			continue // a model of both tasks is checked on classes
		}
		fit := func(weights []float64) string {
			m, err := s.New(s.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			tr := engine.Train{X: Z, Y: d.Y, Classes: d.Classes, Features: p.Features(), Weights: weights, Seed: 1}
			if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			var b bytes.Buffer
			if ps, ok := m.(engine.Persistent); ok {
				state, err := ps.MarshalState()
				if err != nil {
					t.Fatalf("%s: %v", s.Name, err)
				}
				b.Write(state)
			}
			if pr, ok := m.(engine.Prober); ok {
				P, _ := pr.PredictProba(Z)
				fmt.Fprint(&b, mat.Formatted(P))
			}
			if pr, ok := m.(engine.Predictor); ok {
				y, _ := pr.Predict(Z)
				fmt.Fprint(&b, y)
			}
			return b.String()
		}
		if changed := fit(nil) != fit(w); changed != s.Weighted {
			t.Errorf("%s: Weighted is %v, but weights change its fit: %v", s.Name, s.Weighted, changed)
		}
	}
}

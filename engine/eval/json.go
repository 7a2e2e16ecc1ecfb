package eval

import (
	"encoding/json"

	"github.com/tealab/tealab/engine/metrics"
)

// encoding/json fails on NaN and ±Inf, and a result holds NaN by design
// (validation not computed on a step, a metric undefined on a fold). Point
// and Result marshal every non-finite number as null, so that
// json.MarshalIndent(result) never fails.

// jfloat is short for metrics.JSONFloat, a float64 that marshals as null when
// it is not finite.
type jfloat = metrics.JSONFloat

func jmap(m map[string]float64) map[string]jfloat {
	if m == nil {
		return nil
	}
	out := make(map[string]jfloat, len(m))
	for k, v := range m {
		out[k] = jfloat(v)
	}
	return out
}

// MarshalJSON writes NaN and ±Inf as null.
func (p Point) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Step      int               `json:"step"`
		TrainLoss jfloat            `json:"train_loss"`
		ValLoss   jfloat            `json:"val_loss"`
		ValError  jfloat            `json:"val_error"`
		Extra     map[string]jfloat `json:"extra,omitempty"`
	}{p.Step, jfloat(p.TrainLoss), jfloat(p.ValLoss), jfloat(p.ValError), jmap(p.Extra)})
}

// MarshalJSON writes NaN and ±Inf as null (curves and class reports marshal
// themselves the same way). Keys come in the order of Result's fields;
// TestJSONFields checks that every tagged field is written.
func (r Result) MarshalJSON() ([]byte, error) {
	var folds []map[string]jfloat
	for _, f := range r.Folds {
		folds = append(folds, jmap(f))
	}
	var params map[string]any
	if r.Params != nil {
		params = make(map[string]any, len(r.Params))
		for k, v := range r.Params {
			if f, ok := v.(float64); ok {
				v = jfloat(f)
			}
			params[k] = v
		}
	}
	history := r.History
	if history == nil {
		history = []Point{}
	}
	return json.Marshal(struct {
		Task      string                `json:"task"`
		Dataset   string                `json:"dataset"`
		Model     string                `json:"model"`
		Params    map[string]any        `json:"params"`
		Eval      string                `json:"evaluation"`
		Seed      uint64                `json:"seed"`
		Rows      int                   `json:"rows"`
		Features  int                   `json:"features"`
		Metrics   map[string]jfloat     `json:"metrics"`
		Std       map[string]jfloat     `json:"std,omitempty"`
		Folds     []map[string]jfloat   `json:"folds,omitempty"`
		Baseline  map[string]jfloat     `json:"baseline"`
		Confusion *metrics.Confusion    `json:"confusion,omitempty"`
		Classes   []metrics.ClassReport `json:"per_class,omitempty"`
		ROC       []metrics.ROC         `json:"roc,omitempty"`
		History   []Point               `json:"history"`
		Cancelled bool                  `json:"cancelled,omitempty"`
		FitSecs   jfloat                `json:"fit_seconds"`
	}{
		r.Task, r.Dataset, r.Model, params, r.Eval, r.Seed, r.Rows, r.Features,
		jmap(r.Metrics), jmap(r.Std), folds, jmap(r.Baseline),
		r.Confusion, r.Classes, r.ROC, history, r.Cancelled, jfloat(r.FitSecs),
	})
}

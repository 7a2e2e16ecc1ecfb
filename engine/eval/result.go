// Package eval evaluates a registered model on a dataset honestly: a
// stratified hold-out, k-fold cross-validation or leave-one-out, with
// preprocessing fitted inside each training part only, a baseline to compare
// against, and the per-step history that live charts draw.
package eval

import (
	"time"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

// Options chooses how a model is evaluated. The zero value is a stratified
// 80/20 hold-out with seed 0; DefaultOptions gives the documented defaults.
type Options struct {
	Split float64 // hold-out: fraction of rows held out for testing (0 < Split < 1)
	Folds int     // k-fold cross-validation when >= 2 (overrides Split)
	LOO   bool    // leave-one-out (overrides Folds and Split)
	Seed  uint64  // seeds the split and the model
	// Standardize overrides the spec's default when not nil.
	Standardize *bool
	// Labels are known classes of the rows of a clustering dataset (one per
	// row): when set, the clustering is scored by its adjusted Rand index
	// against them. Nil means the dataset's own Y, if it has one.
	Labels []float64
}

// DefaultOptions is a stratified 80/20 hold-out with seed 1.
func DefaultOptions() Options { return Options{Split: 0.2, Seed: 1} }

// Point is one step of a fit's history. ValLoss and ValError are NaN on steps
// where validation was not computed (long fits are sampled, see Run).
type Point struct {
	Step      int                `json:"step"`
	TrainLoss float64            `json:"train_loss"`
	ValLoss   float64            `json:"val_loss"`
	ValError  float64            `json:"val_error"`
	Extra     map[string]float64 `json:"extra,omitempty"`
}

// Progress is what Run reports while it works, from the fitting goroutine.
type Progress struct {
	Fold    int // 1-based fold (1 for a hold-out)
	Folds   int // number of folds (1 for a hold-out)
	Point   Point
	Total   int // expected steps of this fold's fit; 0 if unknown
	Elapsed time.Duration
}

// Result is everything an evaluation produced. Metrics are on held-out rows:
// the test part of a hold-out, or the mean over folds under CV.
type Result struct {
	Task     string        `json:"task"`
	Dataset  string        `json:"dataset"`
	Model    string        `json:"model"`
	Params   engine.Values `json:"params"`
	Eval     string        `json:"evaluation"` // e.g. "stratified 80/20 hold-out" or "10-fold CV"
	Seed     uint64        `json:"seed"`
	Rows     int           `json:"rows"`
	Features int           `json:"features"`

	Metrics  map[string]float64   `json:"metrics"`
	Std      map[string]float64   `json:"std,omitempty"`   // standard deviation over folds
	Folds    []map[string]float64 `json:"folds,omitempty"` // per-fold metrics under CV / LOO
	Baseline map[string]float64   `json:"baseline"`        // majority class / mean predictor, same evaluation

	Confusion *metrics.Confusion    `json:"confusion,omitempty"` // pooled over folds
	Classes   []metrics.ClassReport `json:"per_class,omitempty"`
	ROC       []metrics.ROC         `json:"roc,omitempty"` // one curve (binary) or one per class (one-vs-rest)
	Actual    []float64             `json:"-"`             // held-out targets, pooled over folds
	Predicted []float64             `json:"-"`             // predictions for Actual
	History   []Point               `json:"history"`       // of the first fold's fit
	Coefs     *engine.Coefficients  `json:"-"`             // of the first fold's fit, if linear
	Fitted    engine.Model          `json:"-"`             // the first fold's fitted model
	Prep      *PrepInfo             `json:"-"`             // how the first fold's features were prepared
	Cancelled bool                  `json:"cancelled,omitempty"`
	FitSecs   float64               `json:"fit_seconds"` // summed over folds
}

// PrepInfo names the features the model saw after preprocessing.
type PrepInfo struct {
	Features []string
}

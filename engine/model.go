// Package engine is tealab's learning core: the model registry that menus, the
// CLI and model files are generated from, the Model and Recorder contracts that
// every estimator follows, and typed hyperparameters.
//
// Model families live in sub-packages (engine/linear, engine/gda, ...) and
// register themselves in init; engine/models imports them all. Evaluation
// (hold-out, k-fold CV, metrics) lives in engine/eval and engine/metrics.
//
// The rules every estimator keeps (DESIGN.md, contract 4):
//   - Hyperparameters come from Values; Fit validates them and the data and
//     replaces any earlier fit. Predict before Fit returns ErrNotFitted.
//   - Fit reports every step (epoch, iteration, sweep, round, merge) to its
//     Recorder and returns at once the error Step returns: that is how
//     cancellation and divergence stop a fit within one step.
//   - Before each Recorder.Step the model's current state is predictable:
//     Predict and PredictProba called from inside Step use the weights of
//     that step, which is how live validation curves are drawn. A Fit that
//     fails leaves the model unfitted.
//   - Randomness comes from Train.Seed through math/rand/v2 PCG.
//   - Data-dependent failures are returned as errors a person can act on;
//     no panic escapes Fit or Predict.
package engine

import (
	"context"
	"errors"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
)

// Task is re-exported from datasets: what a model can learn.
type Task = datasets.Task

// ErrNotFitted is returned by Predict and friends before a successful Fit.
var ErrNotFitted = errors.New("model is not fitted")

// ErrDiverged is wrapped by the error a fit returns when its loss becomes NaN
// or infinite.
var ErrDiverged = errors.New("diverged")

// Train is what Fit learns from. X holds only numeric, non-missing values:
// preprocessing (imputation, one-hot encoding, scaling) happened before.
type Train struct {
	X        *mat.Dense
	Y        []float64 // class code 0..len(Classes)-1, or target value; nil for clustering
	Classes  []string  // class names (classification); len(Classes) is the number of classes
	Features []string  // column names of X, for coefficients and rules
	Weights  []float64 // optional sample weights; nil means all 1
	Seed     uint64    // seeds every random choice the model makes
}

// Rows is the number of training observations.
func (t Train) Rows() int { r, _ := t.X.Dims(); return r }

// Cols is the number of features.
func (t Train) Cols() int { _, c := t.X.Dims(); return c }

// Step is one unit of progress of a fit.
type Step struct {
	Step      int     // 1-based
	Total     int     // expected number of steps; 0 if unknown
	TrainLoss float64 // the model's own training objective after this step
	// Extra holds other per-step quantities a model wants charted or logged,
	// such as "nonzero" weights per lasso sweep or "mistakes" per epoch.
	Extra map[string]float64
}

// Recorder receives a fit's steps. A non-nil error from Step (the context was
// cancelled, or the loss diverged) must make Fit stop and return that error.
type Recorder interface {
	Step(s Step) error
}

// Model is a learner. Predict returns class codes for classification,
// values for regression, and cluster indices for clustering.
type Model interface {
	Fit(ctx context.Context, d Train, rec Recorder) error
	Predict(X mat.Matrix) ([]float64, error)
}

// Prober is a classifier that gives class probabilities (n x classes).
type Prober interface {
	PredictProba(X mat.Matrix) (*mat.Dense, error)
}

// Scorer is a classifier that gives class scores (n x classes), higher meaning
// more likely; used for ROC curves when there are no probabilities.
type Scorer interface {
	DecisionFunction(X mat.Matrix) (*mat.Dense, error)
}

// Coefficients is a fitted linear model's weights: Weights has one row per
// output (one per class, or a single row) and one column per feature.
type Coefficients struct {
	Features  []string
	Outputs   []string // row names: class names, or the target's name
	Weights   *mat.Dense
	Intercept []float64 // one per output
}

// Coefficienter is a model that can show its coefficients.
type Coefficienter interface {
	Coefficients() Coefficients
}

// NopRecorder accepts every step; for fits nobody watches.
type NopRecorder struct{}

// Step implements Recorder.
func (NopRecorder) Step(Step) error { return nil }

// ContextRecorder stops a fit when ctx is done; for tests and simple callers.
type ContextRecorder struct{ Ctx context.Context }

// Step implements Recorder.
func (r ContextRecorder) Step(Step) error { return r.Ctx.Err() }

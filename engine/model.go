// Package engine is tealab's learning core: the model registry that menus, the
// CLI and model files are generated from, the Model and Recorder contracts that
// every estimator follows, and typed hyperparameters.
//
// Model families live in sub-packages (engine/linear, engine/gda, ...) and
// register themselves in init; engine/models imports them all. Evaluation
// (hold-out, k-fold CV, metrics) lives in engine/eval and engine/metrics.
//
// The rules every estimator keeps (engine/models checks them all):
//   - A model is fitted through the function Fit, never by calling its Fit
//     method: Fit supplies the context and the recorder, checks the rows'
//     shape, and leaves a model whose fit failed unfitted (FitState, which
//     every model embeds), so that a family's Fit holds its mathematics.
//   - Hyperparameters come from Values, validated when they were parsed
//     (Spec.Parse); Fit validates the data, never re-validates or re-defaults
//     a parameter, and replaces any earlier fit. Predict before Fit returns
//     ErrNotFitted.
//   - Fit reports every step (epoch, iteration, sweep, round, merge) to its
//     Recorder and returns at once the error Step returns: that is how
//     cancellation and divergence stop a fit within one step.
//   - Before each Recorder.Step the model's current state is predictable:
//     Predict and PredictProba called from inside Step use the weights of
//     that step, which is how live validation curves are drawn. A Fit that
//     fails leaves the model unfitted; one stopped by its context keeps
//     that step's state if the model says so (FitState.StoppedEarly).
//   - Randomness comes from Train.Seed through math/rand/v2 PCG.
//   - Data-dependent failures are returned as errors a person can act on;
//     no panic escapes Fit or Predict.
package engine

import (
	"context"
	"errors"
	"fmt"
	"math"

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

// Train is what Fit learns from, prepared as the model's Spec.Input asks:
// by default every column of X is numeric and no value is missing (nominal
// columns were one-hot encoded and missing values imputed); a model that
// asks for raw nominal columns gets level codes, and one that asks for raw
// missing values gets NaN where a value is missing. Columns says which is
// which.
type Train struct {
	X        *mat.Dense
	Y        []float64 // class code 0..len(Classes)-1, or target value; nil when no target is learned
	Classes  []string  // class names (classification); len(Classes) is the number of classes
	Features []string  // column names of X, for coefficients and rules
	// Columns describes each column of X: its name, whether it is numeric
	// or nominal (with its levels; X holds the level's index), and how many
	// of its values are missing (NaN) in these rows. Nil means all numeric
	// with none missing.
	Columns []datasets.Column
	Weights []float64 // optional sample weights; nil means all 1
	Seed    uint64    // seeds every random choice the model makes
	// KnownClasses is the number of classes the rows are known to have when
	// a clustering is scored against them (0 when unknown); models may use
	// it as the default number of clusters. It is never a label.
	KnownClasses int
}

// Input says how a model wants its features prepared (Spec.Input). The zero
// value is what most models need: nominal columns one-hot encoded, missing
// values imputed (mean, or most frequent level), inside each training part.
type Input struct {
	// Nominal: nominal columns reach the model as level codes 0..L-1
	// (Train.Columns marks them), not one-hot encoded. Trees and
	// categorical naive Bayes split on or count levels themselves.
	Nominal bool
	// Missing: missing values reach the model as NaN, not imputed; the
	// model routes or ignores them itself.
	Missing bool
	// Constant: columns constant on the training rows reach the model,
	// not dropped, so that an image's pixels keep their places.
	Constant bool
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
	// Detail is what else the step has to say, as the family's own type
	// (a tree's growth, a boosting round's vote, a lasso sweep's duality
	// gap): a front end may draw it in a picture of its own, and every
	// one can list its Figures. Nil when the step has nothing more.
	Detail Detail
}

// Detail is a family's per-step payload. Figures lists its quantities, by
// names that run files keep under "extra", in an order fixed by the type;
// a quantity not computed on this step is left out. A Detail is a value
// the step owns: the recorder keeps it in the history as it is.
type Detail interface {
	Figures() []Figure
}

// Figure is one named quantity of a step.
type Figure struct {
	Name  string
	Value float64
}

// Figures is a Detail that is only its figures: what a step of a run read
// back from a file, or of a family without a type of its own, says.
type Figures []Figure

// Figures returns f.
func (f Figures) Figures() []Figure { return f }

// FiguresOf is d's figures; none when d is nil.
func FiguresOf(d Detail) []Figure {
	if d == nil {
		return nil
	}
	return d.Figures()
}

// Recorder receives a fit's steps. A non-nil error from Step (the context was
// cancelled, or the loss diverged) must make Fit stop and return that error.
type Recorder interface {
	Step(s Step) error
}

// Ticker is a Recorder that also hears how far a long step has got (an
// epoch of many mini-batches) between two Steps: done is the share of
// step (of total expected, 0 if unknown) made so far, which moves a front
// end's progress. A tick is not a
// step (histories keep one point a step); a non-nil error stops the fit
// as Step's would.
type Ticker interface {
	Tick(step, total int, done float64) error
}

// Paced is a model whose steps are short next to scoring held-out rows
// (a network's epoch passes each training row forward and back once, a
// scoring passes each held-out row forward once), so that scoring them
// after every step would cost a large share of the fit. ValidateEvery is
// how many steps the live validation lets pass between two scorings of
// rows held-out rows, at least 1: a rule of the row counts, never of the
// clock, so that a run's history is the same every time. It is called on
// the fitting goroutine, from the fit's first step.
type Paced interface {
	ValidateEvery(rows int) int
}

// Model is a learner: Fit learns from the training rows. What a fitted
// model can then do is told by the interfaces it implements: Predictor
// (every classifier and regressor), Labeler or Predictor (clusterings),
// Transformer (reductions), and the capabilities in learned.go.
//
// The method is called by the function Fit, which hands it a context and
// a recorder that are never nil and rows whose shape CheckRows passed,
// and which unfits a model whose fit failed: the method neither falls
// back on a missing recorder nor clears its state when it fails. It sets
// FitState.Fitted when it publishes a state.
type Model interface {
	Fit(ctx context.Context, d Train, rec Recorder) error
}

// Predictor is a model that predicts new rows: class codes for
// classification, values for regression, cluster indices for clustering.
type Predictor interface {
	Model
	Predict(X mat.Matrix) ([]float64, error)
}

// Labeler is a clustering that labels the rows it was fitted on (cluster
// index per training row, in row order), whether or not it can predict new
// rows (hierarchical and spectral clustering cannot).
type Labeler interface {
	TrainingLabels() []int
}

// Transformer is a model that maps rows to fewer dimensions (reduction).
type Transformer interface {
	Transform(X mat.Matrix) (*mat.Dense, error)
}

// Measurer is a model that measures itself on its training rows, beyond
// what evaluation computes (a mixture's log-likelihood, k-means' inertia, a
// random projection's distortion). Names should be in the metric table
// (engine/metrics); they join the result's metrics.
type Measurer interface {
	Measures() map[string]float64
}

// Warner is a model with something a person should know about its last fit
// (a singular matrix replaced by a pseudo-inverse, a solver that stopped
// before converging). The warnings reach the report, --json and the lab.
type Warner interface {
	Warnings() []string
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

// Marginer is a two-class classifier with a signed decision value f(x),
// positive for the second class, whose margin is the band |f(x)| <= 1 (a
// support vector machine): the lab shades that band on a plane.
type Marginer interface {
	Margin(X mat.Matrix) ([]float64, error)
}

// Staged is a model that scores fixed rows, step after step, for less than
// Predict and PredictProba would: an ensemble that adds members one step at
// a time (the trees of a forest, the rounds of boosting) keeps running sums
// and adds only the new members (from scratch, a curve of T steps would
// cost T²/2 members); a tree moves each row down the level it grew; k-NN
// gives predictions and class shares from one search.
type Staged interface {
	// Stages returns a scorer of the rows X for this model as it grows.
	// Fit must keep the members it has so far where the scorer can read
	// them whenever Recorder.Step is called, and afterwards.
	Stages(X mat.Matrix) (StageScorer, error)
}

// StageScorer scores fixed rows for a Staged model.
type StageScorer interface {
	// Scores adds the members fitted since its last call and returns the
	// model's current predictions for every row and, for a classifier that
	// gives them, its class probabilities (else nil). The returned slices
	// belong to the scorer until its next call.
	Scores() (pred []float64, proba *mat.Dense, err error)
}

// NopRecorder accepts every step; for fits nobody watches.
type NopRecorder struct{}

// Step implements Recorder.
func (NopRecorder) Step(Step) error { return nil }

// ContextRecorder stops a fit when ctx is done; for tests and simple callers.
type ContextRecorder struct{ Ctx context.Context }

// Step implements Recorder.
func (r ContextRecorder) Step(Step) error { return r.Ctx.Err() }

// ClusterLabels is the cluster of each row of X, the rows a clustering was
// fitted on: what the model says of its own rows (Labeler), else its
// predictions for them. Labels that are not cluster indices 0..n-1, or not
// one a row, are an error (a bug in the model).
func ClusterLabels(m Model, X mat.Matrix) ([]float64, error) {
	n, _ := X.Dims()
	var out []float64
	switch c := m.(type) {
	case Labeler:
		labels := c.TrainingLabels()
		out = make([]float64, len(labels))
		for i, l := range labels {
			out[i] = float64(l)
		}
	case Predictor:
		var err error
		if out, err = c.Predict(X); err != nil {
			return nil, err
		}
	default:
		return nil, errors.New("the model neither labels its rows nor predicts")
	}
	if len(out) != n {
		return nil, fmt.Errorf("%d cluster labels for %d rows (a bug in the model)", len(out), n)
	}
	for i, v := range out {
		if !(v >= 0 && v < float64(n)) || v != math.Trunc(v) {
			return nil, fmt.Errorf("row %d: %v is not a cluster index (a bug in the model)", i+1, v)
		}
	}
	return out, nil
}

// Package eval evaluates a registered model on a dataset honestly: a
// stratified hold-out, k-fold cross-validation or leave-one-out, with
// preprocessing fitted inside each training part only, a baseline to compare
// against, and the per-step history that live charts draw. Clustering and
// reduction models fit every row and are scored against the known classes
// when the data have them.
package eval

import (
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

// Options chooses how a model is evaluated. The zero value is a stratified
// hold-out of the declared default fraction with seed 0; DefaultOptions
// gives the declared defaults. The settings a person chooses are declared
// once, in settings.go (Settings, OptionsFrom, ValuesOf).
type Options struct {
	Split float64 // hold-out: fraction of rows held out for testing (0 < Split < 1; 0 the declared default)
	Folds int     // k-fold cross-validation when >= 2 (overrides Split)
	LOO   bool    // leave-one-out (overrides Folds and Split)
	Seed  uint64  // seeds the split and the model
	// Reduce, when above 0, projects the prepared features onto their first
	// Reduce principal components, fitted inside each training part, before
	// the model sees them ("reduce first").
	Reduce int
	// Positive names the positive class of a two-class target: the class
	// the binary metrics (precision, recall, f1, brier) and the curves are
	// about. "" is the rarer class of the data, the second on a tie
	// (PositiveClass).
	Positive string
	// Costs, when set, is a cost matrix of the data's classes, in their
	// order (metrics.ReadCosts; the caller opens the file, as it does a
	// test set): the run then chooses the decision of least cost without
	// the held-out rows (Result.Threshold) and scores it as the metric
	// cost, beside cost_default at the model's own decision. Only a
	// classifier takes one.
	Costs *metrics.Costs `json:"-"`
	// Plan, when set, gives the folds to use instead of drawing them (a
	// comparison or sweep reusing another run's folds); PlanDesc describes it.
	Plan     []Fold `json:"-"`
	PlanDesc string `json:"-"`
	// Test, when set, is a supplied test set, its columns matched to the
	// data's (Dataset.Align): the model is fitted on every row of the data
	// and scored on Test's rows, as Weka's "supplied test set" is. It
	// replaces the hold-out; cross-validation and leave-one-out exclude it.
	// Only a classifier or a regressor is scored so.
	Test *datasets.Dataset `json:"-"`
	// Standardize overrides the spec's default when not nil (and
	// Pipeline.Scale does not choose another scaling).
	Standardize *bool `json:"-"`
	// Pipeline is the preprocessing a person chose beyond the model's
	// habits: imputation, indicators, scaling, discretisation, encoding,
	// lift (Reduce is its principal components), each fitted on each
	// training part only.
	Pipeline Pipeline `json:"-"`
	// Labels are known classes of the rows of a clustering (one per row):
	// when set, the clustering is scored against them. Nil means the
	// dataset's own classes, if it has them.
	Labels []float64 `json:"-"`
	// NoRefit skips the final fit on all rows under cross-validation (the
	// fitted model shown is then the first fold's); for sweeps that only
	// want scores.
	NoRefit bool `json:"-"`
	// TrainScores also scores each fold's model on its own training rows
	// (Result.TrainFolds): what a validation or learning curve sets beside
	// the held-out score to show over- and underfitting.
	TrainScores bool `json:"-"`
	// Consume gives a hold-out the dataset's rows: for a caller that needs
	// them no more (tealab train). The rows are reordered, training rows
	// first, and prepared in place, so that the parts are views of the
	// table instead of copies beside it, and the dataset is released
	// (Dataset.Release) once they are prepared.
	Consume bool `json:"-"`
	// Snapshot, when set, is called from the fitting goroutine between
	// steps, at most every SnapshotEvery, with the model as it stands and
	// the preprocessing fitted for it: the only safe moment to ask a model
	// being fitted for predictions (the lab's live decision regions).
	// It must return quickly and keep nothing of the model.
	Snapshot func(m engine.Model, prep *datasets.Prep) `json:"-"`
	// Tick, when set, hears how far a long step has got between two
	// steps of a model that ticks (engine.Ticker): a Progress whose Point
	// is the last whole step's and whose Within is the share of the next
	// step done. It never joins a history.
	Tick func(Progress) `json:"-"`
}

// SnapshotEvery is the least time between two calls of Options.Snapshot.
const SnapshotEvery = 250 * time.Millisecond

// Point is one step of a fit's history. ValLoss and ValError are NaN on steps
// where validation was not computed (long fits are sampled, see Run).
type Point struct {
	Step      int     `json:"step"`
	TrainLoss float64 `json:"train_loss"`
	ValLoss   float64 `json:"val_loss"`
	ValError  float64 `json:"val_error"`
	// Detail is what the model said of the step besides its loss (its
	// family's type, engine.Figures when read back from a file); its
	// figures are written under "extra".
	Detail engine.Detail `json:"-"`
}

// Progress is what Run reports while it works, from the fitting goroutine.
type Progress struct {
	Fold    int // 1-based fold (1 for a hold-out); Folds+1 for the final refit
	Folds   int // number of folds (1 for a hold-out)
	Final   bool
	Point   Point
	Total   int // expected steps of this fit; 0 if unknown
	Elapsed time.Duration
	// Within is, for a tick (Options.Tick), the share of step Point.Step+1
	// done; 0 for a whole step.
	Within float64
}

// Result is everything an evaluation produced. Metrics are on held-out rows:
// the test part of a hold-out, or the mean over folds under CV; clustering
// and reduction are scored on all rows.
type Result struct {
	Task     string        // the task the model ran: classification, regression, clustering, reduction
	Dataset  string        //
	Model    string        // spec name
	Params   engine.Values //
	Eval     string        // e.g. "stratified 80/20 hold-out" or "10-fold CV"
	Seed     uint64
	Rows     int
	Features int

	Metrics map[string]float64
	Std     map[string]float64   // sample standard deviation over folds
	Folds   []map[string]float64 // per-fold metrics under CV
	// TrainFolds are the metrics of each fold's model on its own training
	// rows, when Options.TrainScores asked for them (one per fold that
	// finished, hold-out included).
	TrainFolds []map[string]float64
	Baseline   map[string]float64 // majority class / mean predictor, same evaluation (a reduction: the unreduced features)

	// Parts say what each training part looked like after resampling,
	// class weights or a selection, when the run asked for one (the
	// final fit on all rows last, fold 0).
	Parts []Part

	Confusion *metrics.Confusion    // pooled over folds
	Classes   []metrics.ClassReport // per class, from the pooled confusion
	// Positive is the positive class of a two-class target
	// (Options.Positive, or the rarer class): the class of the binary
	// metrics (precision, recall, f1, brier) and of the one binary curve
	// below. "" for other tasks and for more classes.
	Positive string
	// Costs is the cost matrix the run was scored with (Options.Costs),
	// nil without one. Threshold is then, for two classes scored by the
	// model, the threshold on the positive class's score (probability, or
	// decision value) of least cost: the one the shown model decides by
	// (positive iff its score is at least Threshold) and a model file
	// keeps; nil without costs, for more classes (the Bayes decision
	// argmin_j Σ_i p_i·cost(i, j) needs none) and for a model without
	// scores. The metric cost is the mean cost of that decision on the
	// held-out rows, cost_default that of the model's own; the confusion
	// matrix and every other metric stay those of the model's own
	// decision.
	Costs     *metrics.Costs
	Threshold *float64
	// The curves of the held-out scores, pooled over folds as Confusion
	// is: one for the positive class with two classes, one per class
	// against the rest with more. Calibration needs probabilities (nil
	// for a model with decision scores only).
	ROC         []metrics.ROC
	PR          []metrics.PR
	Calibration []metrics.Calibration
	Lift        []metrics.Lift
	// FoldCurves are each fold's curves, in fold order, under k-fold CV
	// (nil for a single fold and for leave-one-out, whose folds are one
	// row each), for a chart to draw each fold faintly behind the pooled.
	FoldCurves []metrics.Curves

	Actual    []float64 // held-out targets (or known classes), pooled over folds
	Predicted []float64 // predictions (or cluster labels) for Actual
	// TestRows are the rows of the data whose targets Actual holds, in
	// order: a supplied test set's rows follow the data's (Rows and up).
	// TestFolds are the fold (1-based) that scored each of them; TestNames
	// their names when the data have row names (else nil). Scores are the
	// model's scores for them (a row each, a column per class, or one
	// column of decision values for two classes: class 1's minus class
	// 0's), probabilities when Proba; nil when it has none. None of these
	// is kept in a run file (a row each: too big); nil for a result read
	// from JSON.
	TestRows  []int      `json:"-"`
	TestFolds []int      `json:"-"`
	TestNames []string   `json:"-"`
	Scores    *mat.Dense `json:"-"`
	Proba     bool       `json:"-"`

	History       []Point   // the first fold's fit, step by step
	FoldHistories [][]Point // every fold's (History is FoldHistories[0]); nil with one fold

	// Learned holds what the shown model offers, by capability name
	// (engine.Capabilities): coefficients, tree, rules, linkage...
	Learned map[string]any
	// Warnings are what a person should know about the data, the
	// evaluation or the fit, one sentence each, with what would fix it.
	Warnings []advice.Warning
	// WarningFolds says, for each warning, how many folds of a
	// cross-validation raised it (0: not a fold's warning); nil when no
	// fold warned.
	WarningFolds []int
	// Embedding is a reduction's output for every row (rows x components).
	Embedding *mat.Dense

	// Fitted is the shown model: fitted on the training part of a hold-out,
	// or refit on all rows after cross-validation (FittedOn says which);
	// Prep is the preprocessing fitted on the same rows, to apply before it.
	Fitted   engine.Model
	Prep     *datasets.Prep
	FittedOn string
	// FittedRows are the rows of the data (0-based) the shown model was
	// fitted on, in the order it saw them, so that what it says of its
	// training rows (a support vector's index) can name a row of the
	// data; nil when it saw every row in order. Not kept in a run file.
	FittedRows []int

	Cancelled bool
	// StoppedEarly, on a cancelled run, says how far the fit whose scores
	// the result holds got ("37 of 300 trees"): the model it kept then is
	// scored and shown like a finished one. Empty otherwise.
	StoppedEarly string

	// Where the time went. FitSecs is fitting (summed over folds; the
	// final refit after cross-validation excluded); ScoreSecs is scoring
	// the held-out rows, after each step for the live curves and at the
	// end; WallSecs is the whole evaluation (with preprocessing, the final
	// refit and the metrics), the time a person waited.
	FitSecs   float64
	ScoreSecs float64
	WallSecs  float64

	scoredRows int // ScoredRows of a result read from JSON, which keeps no rows
}

// ScoredRows is the number of rows the metrics were computed on: the
// held-out rows, pooled over the folds (0 for a clustering or reduction,
// scored on all Rows).
func (r *Result) ScoredRows() int {
	if len(r.Actual) > 0 {
		return len(r.Actual)
	}
	return r.scoredRows
}

// Features the shown model saw, after preprocessing; nil when unknown.
func (r *Result) PreparedFeatures() []string {
	if r == nil || r.Prep == nil {
		return nil
	}
	return r.Prep.Features()
}

// LearnedAs returns what r's model learned under a capability's name, of
// the type that capability holds; ok is false when it has none.
func LearnedAs[T any](r *Result, name string) (v T, ok bool) {
	if r == nil {
		return v, false
	}
	v, ok = r.Learned[name].(T)
	return v, ok
}

// Timed is a share of an evaluation's time.
type Timed struct {
	What string
	Secs float64
}

// Timing splits the evaluation's wall time into fitting, scoring (the
// held-out rows, after each step and at the end) and other work
// (preparing the data, the metrics, the final refit), so that no report
// shows a part as if it were the whole. A result
// saved before the wall time was kept has fitting alone.
func (r *Result) Timing() (total float64, parts []Timed) {
	if r.WallSecs <= 0 {
		return r.FitSecs, []Timed{{"fitting", r.FitSecs}}
	}
	rest := max(r.WallSecs-r.FitSecs-r.ScoreSecs, 0)
	return r.WallSecs, []Timed{{"fitting", r.FitSecs}, {"scoring", r.ScoreSecs}, {"other", rest}}
}

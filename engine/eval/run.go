package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
)

// LOOWarnRows is the number of rows above which leave-one-out gets a
// warning saying how many fits it means.
const LOOWarnRows = 500

// Run evaluates the model spec with hyperparameters v (nil: the defaults) on
// d, honestly:
//
//   - the model performs the task spec.RunsOn gives for d's task: a
//     classifier or regressor learns d's target; a clustering or reduction
//     runs on any data, never learns the target, and fits every row;
//   - supervised rows are split by opt (Plan): a stratified hold-out
//     (default 80/20), k-fold cross-validation or leave-one-out;
//   - preprocessing (impute or keep missing values, one-hot encode or keep
//     nominal codes as spec.Input says, drop constant columns, standardise
//     numeric columns when opt.Standardize or else spec.Standardize says
//     so) is fitted on each training part only;
//   - a fresh model is fitted per fold, seeded with opt.Seed;
//   - metrics are computed on held-out rows only: for a hold-out on its test
//     rows, under k-fold CV per fold and then the mean and sample standard
//     deviation (k-1) over folds, under leave-one-out once on the pooled
//     predictions. The baseline (majority class with the class prior as its
//     probabilities, or the training mean) is evaluated on the same folds.
//     A clustering is scored on all rows: against the known classes when d
//     has them (adjusted Rand index, normalised mutual information) and by
//     its silhouette; a reduction by what it keeps, and with known classes
//     by the leave-one-out 1-NN accuracy in the reduced space, its baseline
//     the same on the features before reduction.
//   - after cross-validation the model is fitted once more on all rows (not
//     timed or scored): that is the model Result.Fitted shows, as Weka does.
//
// While a model fits, every step goes to progress (which may be nil) with its
// validation loss and error on the fold's held-out rows, computed on steps
// 1..100, then every 10th to 1000, every 100th to 10000 and so on, and on the
// last step (filled in after Fit returns); a Paced model's schedule is
// stretched by its ValidateEvery. A Staged model is scored by adding its
// new members only. Every fold's steps are kept.
//
// When ctx is cancelled, or a fit diverges, Run returns the partial Result
// (the histories so far, the scores of the folds that finished; Cancelled
// set on cancellation) together with the error: ctx.Err(), or an error
// wrapping engine.ErrDiverged. Other errors met while fitting also come with
// the partial Result; errors found before any fit (task, options, labels)
// come with a nil Result.
func Run(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, v engine.Values, opt Options, progress func(Progress)) (*Result, error) {
	if d == nil || d.X == nil {
		return nil, errors.New("evaluation: no dataset")
	}
	if spec == nil {
		return nil, errors.New("evaluation: no model")
	}
	task, ok := spec.RunsOn(d.Task)
	if !ok {
		return nil, fmt.Errorf("model %s does not do %s (it does: %s)", spec.Name, d.Task, taskList(spec.Tasks))
	}
	if v == nil {
		v = spec.Defaults()
	}
	n := d.Rows()
	if n == 0 {
		return nil, fmt.Errorf("dataset %s has no rows", d.Name)
	}
	if task.Supervised() && len(d.Y) != n {
		return nil, fmt.Errorf("dataset %s has %d rows but %d targets", d.Name, n, len(d.Y))
	}
	if err := d.Trainable(); err != nil && task.Supervised() { // a clustering or reduction learns no target
		return nil, err
	}
	pos := -1
	if task.Supervised() {
		var err error
		if pos, err = PositiveClass(d, opt.Positive); err != nil {
			return nil, err
		}
	}
	if err := checkCosts(opt.Costs, d, task, spec.Name); err != nil {
		return nil, err
	}
	if err := opt.Pipeline.Check(); err != nil {
		return nil, err
	}
	if pl := opt.Pipeline; (pl.Resample != "" || pl.ClassWeight != "") && task != datasets.Classification {
		return nil, engine.Limitf("resample and class weights rebalance classes; %s does %s here: leave them out", spec.Name, task)
	}
	if opt.Pipeline.Select != "" && !task.Supervised() {
		return nil, engine.Limitf("select features: a selection is scored against a target, and %s does %s, learning none: leave it out", spec.Name, task)
	}
	warnings := adviseWarnings(d, spec)
	if opt.Test != nil {
		if !task.Supervised() {
			return nil, fmt.Errorf("a supplied test set scores a classifier or a regressor; %s does %s, fitted and scored on every row: leave the test set out", spec.Name, task)
		}
		var err error
		if d, opt, err = withTestSet(d, opt); err != nil {
			return nil, err
		}
	}
	std := spec.Standardize
	if opt.Standardize != nil {
		std = *opt.Standardize
	}
	rn := &runner{ctx: ctx, d: d, spec: spec, v: v, opt: opt, task: task, std: std, progress: progress, start: time.Now(), pos: pos}
	rn.res = &Result{
		Task: task.String(), Dataset: d.Name, Model: spec.Name, Params: v, Seed: opt.Seed,
		Rows: n, Features: len(d.Features),
		Metrics: map[string]float64{}, Baseline: map[string]float64{}, History: []Point{},
	}
	if pos >= 0 {
		rn.res.Positive = d.Classes[pos]
	}
	if err := CheckMemory(d, spec, v, opt); err != nil {
		return nil, err
	}
	rn.advise(warnings...)
	res, err := rn.run()
	if res != nil {
		res.WallSecs = time.Since(rn.start).Seconds()
	}
	return res, err
}

// run evaluates as Run says, once the data, the model and the options are
// checked.
func (rn *runner) run() (*Result, error) {
	d, opt, n := rn.d, rn.opt, rn.d.Rows()
	if !rn.task.Supervised() {
		return rn.unsupervised()
	}
	folds, desc, err := Plan(d, opt)
	if err != nil {
		return nil, err
	}
	rn.res.Eval = desc + prepNote(opt)
	switch {
	case opt.Test != nil:
		rn.advise(testSetWarnings(len(folds[0].Test))...)
	case len(folds) == 1:
		rn.advise(holdoutWarnings(d, folds[0])...)
	}
	if len(folds) > LOOWarnRows && opt.LOO {
		rn.advise(advice.Say("leave-one-out on %d rows means %d fits (and one more on all rows), about %d times as many as 10-fold cross-validation",
			n, n, n/10).With(advice.Remedy{Kind: advice.CrossValidate, K: 10}))
	}
	if len(folds) > 1 {
		rn.foldWarn = &foldWarnings{folds: len(folds)}
		defer rn.addFoldWarnings()
	}
	return rn.supervised(folds)
}

// addFoldWarnings adds the warnings the folds raised, once each, with how
// many folds raised them (Result.WarningFolds).
func (rn *runner) addFoldWarnings() {
	msgs, counts := rn.foldWarn.lines()
	rn.foldWarn = nil
	if len(msgs) == 0 {
		return
	}
	res := rn.res
	res.WarningFolds = append(res.WarningFolds, make([]int, len(res.Warnings)-len(res.WarningFolds))...)
	for _, m := range msgs {
		res.Warnings = append(res.Warnings, advice.Warning{Text: m})
	}
	res.WarningFolds = append(res.WarningFolds, counts...)
}

// PrepNote is what a run's evaluation says of how the features were
// prepared when a person chose it (", numeric features standardised, the
// top 5 features by chi2 in each training part"): for a sweep's header,
// whose points each say it too.
func PrepNote(opt Options) string { return prepNote(opt) }

// prepNote says how the features were prepared when a person chose it:
// standardised or not against the model's habit, the pipeline's choices,
// reduced first.
func prepNote(opt Options) string {
	note := ""
	if opt.Standardize != nil {
		if *opt.Standardize {
			note += ", numeric features standardised"
		} else {
			note += ", features not standardised"
		}
	}
	note += pipelineNote(opt)
	if opt.Reduce > 0 {
		note += fmt.Sprintf(", features reduced to %s first", numfmt.Count(opt.Reduce, "principal component"))
	}
	return note
}

func taskList(ts []engine.Task) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

type runner struct {
	ctx      context.Context
	d        *datasets.Dataset
	spec     *engine.Spec
	v        engine.Values
	opt      Options
	task     datasets.Task
	std      bool
	progress func(Progress)
	start    time.Time
	res      *Result
	// inPlace: the rows of d are the hold-out's, training rows first, and
	// the runner's to prepare in place (Options.Consume); moved[r] is then
	// the data's row that row r of d was.
	inPlace bool
	moved   []int
	// inFit is the fit under way when a cross-validation's fits raise
	// warnings: fold k (1-based), finalFit, or 0 for none; the warnings
	// are gathered in foldWarn and added once each when the folds end.
	inFit    int
	foldWarn *foldWarnings
	// pos is the positive class of a two-class target (PositiveClass);
	// -1 otherwise.
	pos int
}

// finalFit is runner.inFit during the refit on all rows.
const finalFit = -1

// warn adds warnings a person should read, each once; during a
// cross-validation's fits, once with the number of folds that raised it.
func (rn *runner) warn(msgs ...string) {
	for _, m := range msgs {
		if m != "" && rn.foldWarn != nil && rn.inFit != 0 {
			rn.foldWarn.add(max(rn.inFit, 0), m)
			continue
		}
		if m != "" {
			rn.advise(advice.Warning{Text: m})
		}
	}
}

// advise adds warnings with their remedies, each once.
func (rn *runner) advise(ws ...advice.Warning) {
	for _, w := range ws {
		if !slices.ContainsFunc(rn.res.Warnings, func(had advice.Warning) bool { return had.String() == w.String() }) {
			rn.res.Warnings = append(rn.res.Warnings, w)
		}
	}
}

// fail returns the partial result with err, or with ctx.Err() once cancelled.
func (rn *runner) fail(err error) (*Result, error) {
	if cerr := rn.ctx.Err(); cerr != nil {
		rn.res.Cancelled = true
		return rn.res, cerr
	}
	return rn.res, err
}

// maxSquarable is the largest magnitude whose square is a finite float64.
var maxSquarable = math.Sqrt(math.MaxFloat64)

// show makes model (fitted on the rows it says, with prep) the one the
// result shows, and keeps what it learned; rows are the data's rows it was
// fitted on (nil: all, in order).
func (rn *runner) show(model engine.Model, prep *datasets.Prep, on string, rows []int) {
	res := rn.res
	if rows != nil && rn.moved != nil {
		rows = slices.Clone(rows)
		for i, r := range rows {
			rows[i] = rn.moved[r]
		}
	}
	res.Fitted, res.Prep, res.FittedOn, res.FittedRows = model, prep, on, rows
	learned, err := engine.Learned(model)
	res.Learned = learned
	if err != nil {
		rn.warn(fmt.Sprintf("model %s: %v", rn.spec.Name, err))
	}
}

// fitted is what one fold's fit gives the metrics.
type fitted struct {
	actual, pred []float64
	rows         []int      // the data's rows actual holds
	folds        []int      // the fold (1-based) of each row
	scores       *mat.Dense // probabilities, or decision scores; nil if neither
	proba        bool       // scores are probabilities
	basePred     []float64
	baseProba    *mat.Dense // class prior per row; nil for regression
	stopped      string     // the fit was cancelled: how far it got ("37 of 300 trees")
}

func (rn *runner) supervised(folds []Fold) (*Result, error) {
	d, res := rn.d, rn.res
	classify := rn.task == datasets.Classification
	cv := !rn.opt.LOO && len(folds) > 1
	var all fitted
	var foldMetrics, foldBase []map[string]float64
	var firstModel engine.Model
	var firstPrep *datasets.Prep
	if rn.opt.Consume && len(folds) == 1 && len(folds[0].Train)+len(folds[0].Test) == d.Rows() && len(folds[0].Test) > 0 {
		rn.splitInPlace(&folds[0])
	}
	// summarise scores the folds that finished (all of them, unless the run
	// was cancelled part-way).
	summarise := func(done int) {
		res.Actual, res.Predicted, res.TestFolds = all.actual, all.pred, all.folds
		res.Scores, res.Proba = all.scores, all.proba && all.scores != nil
		res.TestRows, res.TestNames = all.rows, nil
		if d.RowNames != nil || d.RowNumbers != nil { // else a row's number is its place, TestRows
			res.TestNames = make([]string, len(all.rows))
			for i, r := range all.rows {
				if d.RowNames != nil {
					res.TestNames[i] = d.RowNames[r]
				} else {
					res.TestNames[i] = strconv.Itoa(d.RowNumber(r))
				}
			}
		}
		if rn.moved != nil { // the data's rows before splitInPlace reordered them
			res.TestRows = make([]int, len(all.rows))
			for i, r := range all.rows {
				res.TestRows[i] = rn.moved[r]
			}
		}
		if done == 0 {
			return
		}
		if cv {
			res.Folds = foldMetrics
			if done > 1 {
				res.Metrics, res.Std = meanStd(foldMetrics)
			} else {
				res.Metrics = foldMetrics[0]
			}
			res.Baseline, _ = meanStd(foldBase)
		} else {
			res.Metrics = rn.metricsOf(all.actual, all.pred, all.scores, all.proba)
			res.Baseline = rn.baseMetrics(all, res.Metrics)
			if rn.opt.LOO {
				res.Std = looSpread(rn.task, all.actual, all.pred)
				// Each fold's baseline scores every row with its training
				// part's class prior, which is lowest for the row's own
				// class: pooled, those scores rank every row wrong (AUC 0).
				// A constant score ranks nothing: its AUC is 0.5.
				if _, ok := res.Baseline["auc"]; ok {
					res.Baseline["auc"] = 0.5
				}
				if _, ok := res.Baseline["average_precision"]; ok {
					res.Baseline["average_precision"] = rn.chanceAP(all.actual)
				}
			}
		}
		if classify {
			c := metrics.ConfusionMatrix(all.actual, all.pred, d.Classes)
			res.Confusion = &c
			res.Classes = metrics.Report(c)
			if all.scores != nil {
				c := metrics.CurvesOf(all.actual, all.scores, all.proba, d.Classes, rn.pos)
				res.ROC, res.PR, res.Calibration, res.Lift = c.ROC, c.PR, c.Calibration, c.Lift
			}
		}
		switch {
		case res.StoppedEarly != "" && len(folds) == 1:
			res.Eval += fmt.Sprintf(" (stopped early after %s: the scores of the model so far)", res.StoppedEarly)
		case res.StoppedEarly != "":
			res.Eval += fmt.Sprintf(" (cancelled in fold 1 of %d, stopped early after %s: the scores of that model so far)", len(folds), res.StoppedEarly)
		case done < len(folds):
			res.Eval += fmt.Sprintf(" (cancelled: scores of the %s that finished)", plural(done, len(folds)))
		}
	}
	for f, p := range folds {
		if err := rn.ctx.Err(); err != nil {
			summarise(f)
			return rn.fail(err)
		}
		one, model, prep, err := rn.fold(f, len(folds), p)
		// A fit cancelled part-way whose model kept its last step is
		// scored when no fold has finished: it is all the run has.
		stoppedFirst := err != nil && one.stopped != "" && f == 0
		if err != nil && !stoppedFirst {
			if len(folds) > 1 && rn.ctx.Err() == nil {
				err = fmt.Errorf("fold %d of %d: %w", f+1, len(folds), err)
			}
			summarise(f)
			return rn.fail(err)
		}
		if f == 0 {
			firstModel, firstPrep = model, prep
		}
		if cv {
			var curves *metrics.Curves
			if classify && one.scores != nil {
				c := metrics.CurvesOf(one.actual, one.scores, one.proba, d.Classes, rn.pos)
				res.FoldCurves, curves = append(res.FoldCurves, c), &c
			}
			m := metricsWith(rn.task, d.Classes, rn.pos, one.actual, one.pred, one.scores, one.proba, curves)
			foldMetrics = append(foldMetrics, m)
			foldBase = append(foldBase, rn.baseMetrics(one, m))
		}
		all.actual = append(all.actual, one.actual...)
		all.pred = append(all.pred, one.pred...)
		all.rows = append(all.rows, one.rows...)
		for range one.actual {
			all.folds = append(all.folds, f+1)
		}
		all.basePred = append(all.basePred, one.basePred...)
		all.scores = stack(all.scores, one.scores)
		all.baseProba = stack(all.baseProba, one.baseProba)
		all.proba = one.proba
		if stoppedFirst {
			res.StoppedEarly = one.stopped
			summarise(1)
			on := fmt.Sprintf("the %d training rows of fold 1", len(p.Train))
			if len(folds) == 1 {
				res.FoldHistories = nil
				on = rn.holdoutRows(len(p.Train))
			}
			rn.show(model, prep, on+", stopped early after "+one.stopped, p.Train)
			return rn.fail(err)
		}
	}
	summarise(len(folds))
	rn.addCosts(all, len(folds), foldMetrics, foldBase)
	if len(folds) == 1 {
		res.FoldHistories = nil
		rn.show(firstModel, firstPrep, rn.holdoutRows(len(folds[0].Train)), folds[0].Train)
		return res, nil
	}
	if rn.opt.NoRefit {
		rn.show(firstModel, firstPrep, fmt.Sprintf("the %d training rows of fold 1", len(folds[0].Train)), folds[0].Train)
		return res, nil
	}
	rn.refit(len(folds), firstModel, firstPrep, folds[0].Train)
	return res, nil
}

// holdoutRows says which rows a model fitted on the n training rows of a
// single fold learnt from.
func (rn *runner) holdoutRows(n int) string {
	if rn.opt.Test != nil {
		return fmt.Sprintf("all %d rows of the data", n)
	}
	return fmt.Sprintf("the %d training rows of the hold-out", n)
}

func plural(done, of int) string {
	if done == 1 {
		return fmt.Sprintf("1 fold of %d", of)
	}
	return fmt.Sprintf("%d folds of %d", done, of)
}

// fold fits and scores fold f (0-based) of k.
func (rn *runner) fold(f, k int, p Fold) (fitted, engine.Model, *datasets.Prep, error) {
	d, res := rn.d, rn.res
	var one fitted
	rn.inFit = f + 1
	prep, tr, err := rn.prepare(p.Train)
	rn.inFit = 0
	if err != nil {
		return one, nil, nil, err
	}
	var Xte *mat.Dense
	if rn.inPlace {
		Xte, err = prep.ApplyOwned(rowsView(d.X, p.Test))
	} else {
		Xte, err = prep.ApplyRows(d.X, p.Test)
	}
	if err != nil {
		return one, nil, nil, err
	}
	if rn.opt.Consume && k == 1 {
		d.Release()
	}
	one.actual = make([]float64, len(p.Test))
	one.rows = slices.Clone(p.Test)
	for r, i := range p.Test {
		one.actual[r] = d.Y[i]
	}
	rec := &recorder{rn: rn, xval: Xte, yval: one.actual, fold: f + 1, folds: k, prep: prep}
	rn.inFit = f + 1
	model, fitErr := rn.fitOne(tr, rec, true)
	rn.inFit = 0
	if f == 0 {
		res.History = rec.history
	}
	res.FoldHistories = append(res.FoldHistories, rec.history)
	if model == nil {
		return one, nil, nil, fitErr
	}
	if fitErr != nil {
		one.stopped = rec.stoppedEarly()
	}
	// The recorder scored the held-out rows with the fitted model: its
	// predictions are the fold's. Anything it could not give is asked
	// again, so that its error is reported.
	if one.pred = rec.pred; one.pred == nil {
		if one.pred, err = rn.predict(model, Xte); err != nil {
			return one, nil, nil, err
		}
	}
	if rn.task == datasets.Classification {
		if _, ok := model.(engine.Prober); ok && rec.proba != nil {
			one.scores, one.proba = rec.proba, true
		} else if one.scores, one.proba, err = rn.scores(model, Xte); err != nil {
			return one, nil, nil, err
		}
	}
	rn.baseline(&one, p.Train)
	if rn.opt.TrainScores && fitErr == nil {
		m, err := rn.trainMetrics(model, tr)
		if err != nil {
			return one, nil, nil, err
		}
		res.TrainFolds = append(res.TrainFolds, m)
	}
	return one, model, prep, fitErr
}

// refit fits the model on all rows after cross-validation: the model shown.
// Its failure or cancellation leaves the scores as they are and shows the
// first fold's model instead, saying so.
func (rn *runner) refit(folds int, first engine.Model, firstPrep *datasets.Prep, firstRows []int) {
	n := rn.d.Rows()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	rn.inFit = finalFit
	prep, tr, err := rn.prepare(all)
	var model engine.Model
	if err == nil {
		rec := &recorder{rn: rn, fold: folds + 1, folds: folds, final: true, prep: prep}
		model, err = rn.fitOne(tr, rec, false)
	}
	rn.inFit = 0
	if err != nil {
		why := "failed (" + err.Error() + ")"
		if rn.ctx.Err() != nil {
			why = "was cancelled"
		}
		rn.warn(fmt.Sprintf("the final fit on all %d rows %s: the model shown is fold 1's", n, why))
		rn.show(first, firstPrep, fmt.Sprintf("the %d training rows of fold 1", len(firstRows)), firstRows)
		return
	}
	rn.show(model, prep, fmt.Sprintf("all %d rows (refit after cross-validation)", n), nil)
}

// BaselineError is what a model that learned nothing gets on all of d: the
// error of always predicting the majority class, or the RMSE of always
// predicting the mean; NaN without a target. (A run's own baseline is
// computed on its split.)
func BaselineError(d *datasets.Dataset) float64 {
	switch d.Task {
	case datasets.Classification:
		counts := d.ClassCounts()
		best, n := 0, 0
		for _, c := range counts {
			best, n = max(best, c), n+c
		}
		if n == 0 {
			return math.NaN()
		}
		return 1 - float64(best)/float64(n)
	case datasets.Regression:
		_, sd := stat.PopMeanStdDev(d.Y, nil)
		return sd
	}
	return math.NaN()
}

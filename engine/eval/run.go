package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

// ErrPanic is wrapped by the error Run returns when a model panicked. That is
// a bug in the model; Run turns it into an error so that a run in the TUI
// never takes the program down, and the conformance suite can tell it apart.
var ErrPanic = errors.New("panicked")

// silhouetteMax is the number of rows beyond which the silhouette, O(n²d), is
// computed on a seeded sample of rows (about 0.1 s for 5000 rows of 10
// features). A variable so that tests can lower it.
var silhouetteMax = 5000

// evalPCGStream is the second PCG word of eval's own random choices.
const evalPCGStream = 0xe7a1_5a3b1e

// DivergedError says that a fit's training loss became NaN or infinite. It
// wraps engine.ErrDiverged.
type DivergedError struct {
	Model string  // spec name
	Unit  string  // what a step is: "epoch", "iteration", ...
	Step  int     // the step whose loss was not finite
	Loss  float64 // that loss
	Param string  // the learning-rate parameter to lower, if the model has one
}

func (e *DivergedError) Error() string {
	hint := "try a smaller learning rate or standardised features"
	if e.Param != "" {
		hint = "try a smaller learning rate (" + e.Param + ")"
	}
	return fmt.Sprintf("%s diverged at %s %d (training loss is %s); %s",
		e.Model, e.Unit, e.Step, strconv.FormatFloat(e.Loss, 'g', -1, 64), hint)
}

// Unwrap makes errors.Is(err, engine.ErrDiverged) true.
func (e *DivergedError) Unwrap() error { return engine.ErrDiverged }

// Run evaluates the model spec with hyperparameters v (nil: the defaults) on
// d, honestly:
//
//   - rows are split by opt: a stratified hold-out (default 80/20), k-fold
//     cross-validation or leave-one-out (stratified for classification), all
//     drawn from opt.Seed; clustering fits all rows, with no split;
//   - preprocessing (impute, one-hot, drop constant columns, standardise when
//     opt.Standardize or else spec.Standardize says so) is fitted on each
//     training part only;
//   - a fresh model is fitted per fold, seeded with opt.Seed;
//   - metrics are computed on held-out rows only: for a hold-out on its test
//     rows, under k-fold CV per fold and then the mean and sample
//     standard deviation (k-1) over folds, under leave-one-out once on the pooled
//     predictions. The baseline (majority class with the class prior as its
//     probabilities, or the training mean) is evaluated on the same folds.
//
// While a model fits, every step goes to progress (which may be nil) with its
// validation loss and error on the fold's held-out rows, computed on steps
// 1..100, then every 10th to 1000, every 100th to 10000 and so on, and on the
// last step (filled in after Fit returns). The first fold's steps are kept in
// Result.History.
//
// When ctx is cancelled, or a fit diverges, Run returns the partial Result
// (History so far; Cancelled set on cancellation) together with the error:
// ctx.Err(), or an error wrapping engine.ErrDiverged. Other errors met while
// fitting also come with the partial Result; errors found before any fit
// (task, options, labels) come with a nil Result.
func Run(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, v engine.Values, opt Options, progress func(Progress)) (*Result, error) {
	if d == nil || d.X == nil {
		return nil, errors.New("evaluation: no dataset")
	}
	if spec == nil {
		return nil, errors.New("evaluation: no model")
	}
	if !spec.Supports(d.Task) {
		return nil, fmt.Errorf("model %s does not do %s (it does: %s)", spec.Name, d.Task, taskList(spec.Tasks))
	}
	if v == nil {
		v = spec.Defaults()
	}
	n := d.Rows()
	if n == 0 {
		return nil, fmt.Errorf("dataset %s has no rows", d.Name)
	}
	if d.Task != datasets.Clustering && len(d.Y) != n {
		return nil, fmt.Errorf("dataset %s has %d rows but %d targets", d.Name, n, len(d.Y))
	}
	std := spec.Standardize
	if opt.Standardize != nil {
		std = *opt.Standardize
	}
	rn := &runner{ctx: ctx, d: d, spec: spec, v: v, opt: opt, std: std, progress: progress, start: time.Now()}
	rn.res = &Result{
		Task: d.Task.String(), Dataset: d.Name, Model: spec.Name, Params: v, Seed: opt.Seed,
		Rows: n, Features: len(d.Features),
		Metrics: map[string]float64{}, Baseline: map[string]float64{}, History: []Point{},
	}
	if d.Task == datasets.Clustering {
		return rn.cluster()
	}
	folds, desc, err := plan(d, opt)
	if err != nil {
		return nil, err
	}
	rn.res.Eval = desc
	return rn.supervised(folds)
}

func taskList(ts []engine.Task) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

// part is one fold: rows to train on and rows to test on.
type part struct{ train, test []int }

// plan splits the rows as opt says and describes the evaluation.
func plan(d *datasets.Dataset, opt Options) ([]part, string, error) {
	n := d.Rows()
	classes := 0
	strat := ""
	if d.Task == datasets.Classification {
		classes = len(d.Classes)
		strat = "stratified "
	}
	switch {
	case opt.LOO:
		if n < 2 {
			return nil, "", fmt.Errorf("leave-one-out needs at least 2 rows, have %d", n)
		}
		tests := datasets.LeaveOneOut(n)
		parts := make([]part, len(tests))
		for i, t := range tests {
			parts[i] = part{datasets.Complement(n, t), t}
		}
		return parts, "leave-one-out", nil
	case opt.Folds != 0:
		tests, err := datasets.KFold(n, d.Y, classes, opt.Folds, opt.Seed)
		if err != nil {
			return nil, "", err
		}
		parts := make([]part, len(tests))
		for i, t := range tests {
			parts[i] = part{datasets.Complement(n, t), t}
		}
		return parts, fmt.Sprintf("%s%d-fold CV", strat, opt.Folds), nil
	default:
		split := opt.Split
		if split == 0 {
			split = 0.2
		}
		train, test, err := datasets.Holdout(n, d.Y, classes, split, opt.Seed)
		if err != nil {
			return nil, "", err
		}
		return []part{{train, test}}, fmt.Sprintf("%s%s/%s hold-out", strat, pct(1-split), pct(split)), nil
	}
}

func pct(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/10, 'f', -1, 64)
}

type runner struct {
	ctx      context.Context
	d        *datasets.Dataset
	spec     *engine.Spec
	v        engine.Values
	opt      Options
	std      bool
	progress func(Progress)
	start    time.Time
	res      *Result
}

// PanicError is the error of a model that panicked; it wraps ErrPanic and
// keeps the stack for a bug report (Error is one line without it).
type PanicError struct {
	Model, Where string
	Value        any
	Stack        []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("model %s panicked in %s: %v (a bug in the model)", e.Model, e.Where, e.Value)
}

// Unwrap makes errors.Is(err, ErrPanic) true.
func (e *PanicError) Unwrap() error { return ErrPanic }

// safely calls f, turning a panic into a *PanicError.
func safely(model, where string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Model: model, Where: where, Value: p, Stack: debug.Stack()}
		}
	}()
	return f()
}

// fail returns the partial result with err, or with ctx.Err() once cancelled.
func (rn *runner) fail(err error) (*Result, error) {
	if cerr := rn.ctx.Err(); cerr != nil {
		rn.res.Cancelled = true
		return rn.res, cerr
	}
	return rn.res, err
}

// fitted is what one fold's fit gives the metrics.
type fitted struct {
	actual, pred []float64
	scores       *mat.Dense // probabilities, or decision scores; nil if neither
	proba        bool       // scores are probabilities
	basePred     []float64
	baseProba    *mat.Dense // class prior per row; nil for regression
}

// fit prepares the features, fits a fresh model and records its steps. With
// test rows, the recorder validates on them; keep says to keep the history
// and the fitted model in the result (first fold).
func (rn *runner) fit(fold, folds int, train, test []int, keep bool) (engine.Model, *datasets.Prep, *mat.Dense, *mat.Dense, error) {
	d := rn.d
	trainD := d.Subset(train)
	prep, err := datasets.FitPrep(trainD.X, d.Features, datasets.PrepOptions{Standardize: rn.std})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	Xtr, err := prep.Apply(trainD.X)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	var Xte *mat.Dense
	var yte []float64
	if len(test) > 0 {
		testD := d.Subset(test)
		if Xte, err = prep.Apply(testD.X); err != nil {
			return nil, nil, nil, nil, err
		}
		yte = testD.Y
	}
	var model engine.Model
	err = safely(rn.spec.Name, "New", func() (err error) {
		model, err = rn.spec.New(rn.v)
		return err
	})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	rec := &recorder{rn: rn, model: model, xval: Xte, yval: yte, fold: fold, folds: folds, keep: keep}
	tr := engine.Train{X: Xtr, Y: trainD.Y, Classes: d.Classes, Features: prep.Features(), Seed: rn.opt.Seed}
	if d.Task == datasets.Clustering {
		tr.Y = nil
	}
	t0 := time.Now()
	err = safely(rn.spec.Name, "Fit", func() error { return model.Fit(rn.ctx, tr, rec) })
	if err == nil {
		rec.finish()
	}
	rn.res.FitSecs += max(time.Since(t0)-rec.valTime, 0).Seconds()
	if keep {
		rn.res.History = rec.history
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if keep {
		rn.res.Fitted = model
		rn.res.Prep = &PrepInfo{Features: prep.Features()}
		if cf, ok := model.(engine.Coefficienter); ok {
			_ = safely(rn.spec.Name, "Coefficients", func() error {
				c := cf.Coefficients()
				rn.res.Coefs = &c
				return nil
			})
		}
	}
	return model, prep, Xtr, Xte, nil
}

// predict returns the model's predictions for X, checked: one per row, and
// class codes for classification.
func (rn *runner) predict(model engine.Model, X *mat.Dense) ([]float64, error) {
	rows, _ := X.Dims()
	var pred []float64
	err := safely(rn.spec.Name, "Predict", func() (err error) {
		pred, err = model.Predict(X)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(pred) != rows {
		return nil, fmt.Errorf("model %s returned %d predictions for %d rows (a bug in the model)", rn.spec.Name, len(pred), rows)
	}
	if rn.d.Task == datasets.Classification {
		if err := metrics.CheckCodes(pred, len(rn.d.Classes)); err != nil {
			return nil, fmt.Errorf("model %s predicted an invalid class: %v (a bug in the model)", rn.spec.Name, err)
		}
	}
	return pred, nil
}

// scores returns class probabilities (Prober) or decision scores (Scorer;
// with two classes, one column: class 1's score minus class 0's), or nil.
func (rn *runner) scores(model engine.Model, X *mat.Dense) (*mat.Dense, bool, error) {
	rows, _ := X.Dims()
	k := len(rn.d.Classes)
	var S *mat.Dense
	proba := false
	err := safely(rn.spec.Name, "PredictProba", func() (err error) {
		switch m := model.(type) {
		case engine.Prober:
			proba = true
			S, err = m.PredictProba(X)
		case engine.Scorer:
			S, err = m.DecisionFunction(X)
		}
		return err
	})
	if err != nil || S == nil {
		return nil, false, err
	}
	r, c := S.Dims()
	if r != rows || (c != k && !(k == 2 && c == 1 && !proba)) {
		return nil, false, fmt.Errorf("model %s returned %dx%d scores for %d rows and %d classes (a bug in the model)", rn.spec.Name, r, c, rows, k)
	}
	if k == 2 && c == 2 && !proba {
		diff := mat.NewDense(rows, 1, nil)
		for i := range rows {
			diff.Set(i, 0, S.At(i, 1)-S.At(i, 0))
		}
		S = diff
	}
	return S, proba, nil
}

func (rn *runner) supervised(parts []part) (*Result, error) {
	d, res := rn.d, rn.res
	classify := d.Task == datasets.Classification
	cv := !rn.opt.LOO && len(parts) > 1
	var all fitted
	var foldMetrics, foldBase []map[string]float64
	for f, p := range parts {
		if err := rn.ctx.Err(); err != nil {
			return rn.fail(err)
		}
		model, _, _, Xte, err := rn.fit(f+1, len(parts), p.train, p.test, f == 0)
		if err == nil && Xte == nil {
			err = errors.New("evaluation: a fold has no test rows")
		}
		var one fitted
		if err == nil {
			one.actual = d.Subset(p.test).Y
			one.pred, err = rn.predict(model, Xte)
		}
		if err == nil && classify {
			one.scores, one.proba, err = rn.scores(model, Xte)
		}
		if err != nil {
			if len(parts) > 1 && rn.ctx.Err() == nil {
				err = fmt.Errorf("fold %d of %d: %w", f+1, len(parts), err)
			}
			return rn.fail(err)
		}
		rn.baseline(&one, p.train)
		if cv {
			m := rn.metricsOf(one.actual, one.pred, one.scores, one.proba)
			foldMetrics = append(foldMetrics, m)
			foldBase = append(foldBase, rn.baseMetrics(one, m))
		}
		all.actual = append(all.actual, one.actual...)
		all.pred = append(all.pred, one.pred...)
		all.basePred = append(all.basePred, one.basePred...)
		all.scores = stack(all.scores, one.scores)
		all.baseProba = stack(all.baseProba, one.baseProba)
		all.proba = one.proba
	}
	res.Actual, res.Predicted = all.actual, all.pred
	if cv {
		res.Folds = foldMetrics
		res.Metrics, res.Std = meanStd(foldMetrics)
		res.Baseline, _ = meanStd(foldBase)
	} else {
		res.Metrics = rn.metricsOf(all.actual, all.pred, all.scores, all.proba)
		res.Baseline = rn.baseMetrics(all, res.Metrics)
	}
	if classify {
		c := metrics.ConfusionMatrix(all.actual, all.pred, d.Classes)
		res.Confusion = &c
		res.Classes = metrics.Report(c)
		if all.scores != nil {
			res.ROC = metrics.ROCs(all.actual, all.scores, d.Classes)
		}
	}
	return res, nil
}

// stack appends the rows of b below a; nil stays nil.
func stack(a, b *mat.Dense) *mat.Dense {
	if b == nil {
		return a
	}
	if a == nil {
		return mat.DenseCopyOf(b)
	}
	ra, c := a.Dims()
	rb, _ := b.Dims()
	out := mat.NewDense(ra+rb, c, nil)
	out.Slice(0, ra, 0, c).(*mat.Dense).Copy(a)
	out.Slice(ra, ra+rb, 0, c).(*mat.Dense).Copy(b)
	return out
}

// baseline fills in the baseline's predictions for one fold: the training
// part's majority class (ties to the lower code) with its class prior as
// probabilities, or the training mean.
func (rn *runner) baseline(one *fitted, train []int) {
	y := rn.d.Y
	m := len(one.actual)
	one.basePred = make([]float64, m)
	if rn.d.Task != datasets.Classification {
		var mean float64
		for _, i := range train {
			mean += y[i]
		}
		mean /= float64(len(train))
		for i := range one.basePred {
			one.basePred[i] = mean
		}
		return
	}
	k := len(rn.d.Classes)
	prior := make([]float64, k)
	for _, i := range train {
		prior[int(y[i])]++
	}
	best := 0
	for c, v := range prior {
		if v > prior[best] {
			best = c
		}
	}
	for c := range prior {
		prior[c] /= float64(len(train))
	}
	P := mat.NewDense(m, k, nil)
	for i := range m {
		one.basePred[i] = float64(best)
		copy(P.RawRowView(i), prior)
	}
	one.baseProba = P
}

// metricsOf scores predictions on held-out rows.
func (rn *runner) metricsOf(actual, pred []float64, scores *mat.Dense, proba bool) map[string]float64 {
	if rn.d.Task != datasets.Classification {
		mse := metrics.MSE(actual, pred)
		return map[string]float64{
			"r2": metrics.R2(actual, pred), "rmse": math.Sqrt(mse),
			"mae": metrics.MAE(actual, pred), "mse": mse,
		}
	}
	c := metrics.ConfusionMatrix(actual, pred, rn.d.Classes)
	macro, weighted := metrics.Averages(c)
	acc := metrics.Accuracy(actual, pred)
	m := map[string]float64{
		"accuracy": acc, "error": 1 - acc,
		"macro_f1": macro.F1, "weighted_f1": weighted.F1,
		"macro_precision": macro.Precision, "macro_recall": macro.Recall,
		"kappa": metrics.CohenKappa(c), "mcc": metrics.MCC(c),
	}
	if scores != nil {
		if proba {
			m["log_loss"] = metrics.LogLoss(actual, scores)
		}
		m["auc"] = metrics.MacroAUC(metrics.ROCs(actual, scores, rn.d.Classes))
	}
	return m
}

// baseMetrics scores the baseline with the keys the model's metrics have.
func (rn *runner) baseMetrics(one fitted, model map[string]float64) map[string]float64 {
	b := rn.metricsOf(one.actual, one.basePred, one.baseProba, true)
	for key := range b {
		if _, ok := model[key]; !ok {
			delete(b, key)
		}
	}
	return b
}

// meanStd averages per-fold metrics; the spread is the sample standard
// deviation (divisor k-1), the estimate of how much a fold's score varies
// that Weka reports and that comparisons between runs need.
func meanStd(folds []map[string]float64) (mean, std map[string]float64) {
	mean, std = map[string]float64{}, map[string]float64{}
	if len(folds) == 0 {
		return mean, std
	}
	keys := make([]string, 0, len(folds[0]))
	for key := range folds[0] {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	xs := make([]float64, len(folds))
	for _, key := range keys {
		for f, m := range folds {
			xs[f] = m[key]
		}
		mean[key], std[key] = stat.MeanStdDev(xs, nil)
	}
	return mean, std
}

// cluster fits all rows and scores the clustering by its silhouette, and by
// its adjusted Rand index when the rows' classes are known.
func (rn *runner) cluster() (*Result, error) {
	d, res := rn.d, rn.res
	n := d.Rows()
	truth := rn.opt.Labels
	if truth == nil {
		truth = d.Y
	}
	if truth != nil && len(truth) != n {
		return nil, fmt.Errorf("evaluation: %d labels for the %d rows of %s", len(truth), n, d.Name)
	}
	res.Eval = "all rows (no split)"
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	model, _, X, _, err := rn.fit(1, 1, all, nil, true)
	if err != nil {
		return rn.fail(err)
	}
	labels, err := rn.predict(model, X)
	if err != nil {
		return rn.fail(err)
	}
	res.Predicted = labels
	distinct := map[float64]bool{}
	for _, l := range labels {
		distinct[l] = true
	}
	res.Metrics["clusters"] = float64(len(distinct))
	res.Metrics["silhouette"] = math.NaN()
	if k := len(distinct); k >= 2 && k <= n-1 {
		Xs, ls := X, labels
		if n > silhouetteMax {
			r := rand.New(rand.NewPCG(rn.opt.Seed, evalPCGStream))
			rows := r.Perm(n)[:silhouetteMax]
			slices.Sort(rows)
			_, p := X.Dims()
			Xs = mat.NewDense(len(rows), p, nil)
			ls = make([]float64, len(rows))
			for i, row := range rows {
				copy(Xs.RawRowView(i), X.RawRowView(row))
				ls[i] = labels[row]
			}
			res.Eval += fmt.Sprintf("; silhouette on %d sampled rows", silhouetteMax)
		}
		if s, err := metrics.Silhouette(Xs, ls); err == nil {
			res.Metrics["silhouette"] = s
		}
	}
	if truth != nil {
		res.Actual = truth
		res.Metrics["ari"] = metrics.AdjustedRand(truth, labels)
		res.Baseline["ari"] = metrics.AdjustedRand(truth, make([]float64, n))
	}
	return res, nil
}

// recorder is the Recorder Run passes to Fit: it stops the fit on
// cancellation or divergence, validates on the fold's held-out rows and
// reports progress.
type recorder struct {
	rn          *runner
	model       engine.Model
	xval        *mat.Dense // nil: no held-out rows (clustering)
	yval        []float64
	fold, folds int
	keep        bool

	history []Point
	last    Point
	steps   int
	lastVal bool // validation was computed on the last step
	valTime time.Duration
}

// validateAt says whether step is on the validation schedule: every step to
// 100, every 10th to 1000, every 100th to 10000, and so on.
func validateAt(step int) bool {
	if step <= 100 {
		return true
	}
	stride := 10
	for limit := 1000; step > limit && limit < math.MaxInt/10; limit *= 10 {
		stride *= 10
	}
	return step%stride == 0
}

func (rc *recorder) Step(s engine.Step) error {
	if err := rc.rn.ctx.Err(); err != nil {
		return err
	}
	if math.IsNaN(s.TrainLoss) || math.IsInf(s.TrainLoss, 0) {
		unit := rc.rn.spec.Unit
		if unit == "" {
			unit = "step"
		}
		return &DivergedError{Model: rc.rn.spec.Name, Unit: unit, Step: s.Step, Loss: s.TrainLoss, Param: lrParam(rc.rn.spec)}
	}
	p := Point{Step: s.Step, TrainLoss: s.TrainLoss, ValLoss: math.NaN(), ValError: math.NaN()}
	if s.Extra != nil {
		p.Extra = make(map[string]float64, len(s.Extra))
		for k, v := range s.Extra {
			p.Extra[k] = v
		}
	}
	rc.lastVal = false
	if rc.xval != nil && validateAt(s.Step) {
		p.ValLoss, p.ValError = rc.validate()
		// A model that cannot predict yet (one-step models report before
		// they publish their state) is validated again by finish.
		rc.lastVal = !math.IsNaN(p.ValError)
	}
	rc.steps++
	rc.last = p
	if rc.keep {
		rc.history = append(rc.history, p)
	}
	if rc.rn.progress != nil {
		rc.rn.progress(Progress{Fold: rc.fold, Folds: rc.folds, Point: p, Total: s.Total, Elapsed: time.Since(rc.rn.start)})
	}
	return nil
}

// finish completes the history after a successful fit: a model that
// reported no step gets one, and the last step gets its validation.
func (rc *recorder) finish() {
	if rc.steps == 0 {
		rc.last = Point{Step: 1, TrainLoss: math.NaN(), ValLoss: math.NaN(), ValError: math.NaN()}
		rc.steps = 1
		if rc.keep {
			rc.history = append(rc.history, rc.last)
		}
	}
	if rc.xval != nil && !rc.lastVal {
		rc.last.ValLoss, rc.last.ValError = rc.validate()
		rc.lastVal = true
		if rc.keep && len(rc.history) > 0 {
			rc.history[len(rc.history)-1] = rc.last
		}
	}
}

// validate scores the model as it stands on the held-out rows: log-loss (if
// the model gives probabilities) and error rate for classification, MSE and
// RMSE for regression. A model that cannot predict mid-fit gives NaN.
func (rc *recorder) validate() (loss, rate float64) {
	t0 := time.Now()
	defer func() { rc.valTime += time.Since(t0) }()
	loss, rate = math.NaN(), math.NaN()
	defer func() {
		if recover() != nil {
			loss, rate = math.NaN(), math.NaN()
		}
	}()
	pred, err := rc.model.Predict(rc.xval)
	if err != nil || len(pred) != len(rc.yval) {
		return loss, rate
	}
	if rc.rn.d.Task != datasets.Classification {
		mse := metrics.MSE(rc.yval, pred)
		return mse, math.Sqrt(mse)
	}
	k := len(rc.rn.d.Classes)
	if metrics.CheckCodes(pred, k) != nil {
		return loss, rate
	}
	rate = 1 - metrics.Accuracy(rc.yval, pred)
	if pr, ok := rc.model.(engine.Prober); ok {
		if P, err := pr.PredictProba(rc.xval); err == nil && P != nil {
			if r, c := P.Dims(); r == len(rc.yval) && c == k {
				loss = metrics.LogLoss(rc.yval, P)
			}
		}
	}
	return loss, rate
}

// lrParam names the model's learning-rate parameter, if it has one.
func lrParam(s *engine.Spec) string {
	for _, name := range []string{"lr", "learning_rate", "eta", "step_size", "step"} {
		if _, ok := s.Param(name); ok {
			return name
		}
	}
	return ""
}

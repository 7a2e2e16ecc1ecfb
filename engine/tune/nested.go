package tune

import (
	"context"
	"errors"
	"fmt"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// Nested cross-validation scores the whole tuning procedure rather than the
// setting it picks: the best score of a search is optimistic, since the
// setting was chosen on the very folds that score it. Each outer fold runs
// the search alone on its training part (its own inner folds, drawn from
// those rows only), fits the setting the search picks on the whole
// training part and scores it on the outer held-out part, which no step of
// the search ever saw (Cawley & Talbot 2010, "On over-fitting in model
// selection and subsequent selection bias in performance evaluation";
// scikit-learn's GridSearchCV inside cross_val_score).

// NestedFold is one outer fold: its search and the score of its pick.
type NestedFold struct {
	Train, Test int     // rows of the outer training and held-out parts
	Search      *Result // the search on the outer training part alone; nil when not reached
	Score       float64 // the picked setting fitted on the training part, scored on the held-out part
	Done        bool    // scored (perhaps with Err)
	Err         error   // the search or the outer fit failed
}

// Pick is the setting the fold's search picked, false when it picked none.
func (f NestedFold) Pick() (Point, bool) {
	if f.Search == nil {
		return Point{}, false
	}
	return f.Search.BestPoint()
}

// OK says whether the fold was scored.
func (f NestedFold) OK() bool { return f.Done && f.Err == nil }

// NestedResult is a nested cross-validation as far as it went.
type NestedResult struct {
	Eval  string // the outer evaluation, e.g. "stratified 5-fold CV"
	Folds []NestedFold
	// Mean and the sample standard deviation of the outer scores (over
	// the folds scored): the estimate of how the tuned model does on new
	// rows.
	Mean, Std float64
	Cancelled bool
}

// Scored counts the outer folds scored.
func (n *NestedResult) Scored() int {
	k := 0
	for _, f := range n.Folds {
		if f.OK() {
			k++
		}
	}
	return k
}

// Nested runs the search of axes (as Search: grid or random, opt.Pick's
// rule, opt.Eval's inner folds) inside each of k outer folds of d,
// stratified and drawn from opt.Eval.Seed, and scores each fold's pick on
// the fold's held-out rows. The outer folds run one after another, each
// search's points on opt.Jobs workers sharing the memory as a search's do
// (each fits beside the copy of the outer training part, which is
// reserved too); the result does not depend on opt.Jobs. progress, which
// may be nil, hears each point of fold f (0-based) as it finishes.
// Cancelling ctx keeps what finished: the partial result, Cancelled set,
// with ctx.Err().
func Nested(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, base engine.Values, axes []Axis, opt Options, k int, progress func(f, i int, p Point)) (*NestedResult, error) {
	if k < 2 {
		return nil, fmt.Errorf("nested cross-validation needs at least 2 outer folds, not %d", k)
	}
	if err := CheckAxes(axes, opt.Random); err != nil {
		return nil, err
	}
	if err := CheckPick(axes, opt.Pick); err != nil {
		return nil, err
	}
	if opt.Eval.Test != nil {
		return nil, errors.New("nested cross-validation scores the outer folds' held-out rows; it takes no supplied test set")
	}
	if _, _, err := start(d, spec, base, opt); err != nil { // the checks of a search
		return nil, err
	}
	// The positive class of two is the whole data's (the rarer class, or
	// the one named), so that every part scores the same class.
	if pos, err := eval.PositiveClass(d, opt.Eval.Positive); err != nil {
		return nil, err
	} else if pos >= 0 {
		opt.Eval.Positive = d.Classes[pos]
	}
	outer := opt.Eval
	outer.Folds, outer.LOO, outer.Plan, outer.PlanDesc = k, false, nil, ""
	folds, desc, err := eval.Plan(d, outer)
	if err != nil {
		return nil, err
	}
	res := &NestedResult{Eval: desc, Folds: make([]NestedFold, len(folds))}
	var acc engine.Accountant
	for f, fold := range folds {
		if ctx.Err() != nil {
			break
		}
		nf := &res.Folds[f]
		nf.Train, nf.Test = len(fold.Train), len(fold.Test)
		nf.Search, nf.Score, nf.Err = nestedFold(ctx, d, spec, base, axes, opt, fold, f, &acc, progress)
		if ctx.Err() != nil {
			break
		}
		nf.Done = true
	}
	var scores []float64
	var first error
	for _, f := range res.Folds {
		if f.OK() {
			scores = append(scores, f.Score)
		} else if f.Err != nil && first == nil {
			first = f.Err
		}
	}
	if len(scores) > 0 {
		res.Mean, res.Std = meanStd(scores)
	}
	if err := ctx.Err(); err != nil {
		res.Cancelled = true
		return res, err
	}
	if len(scores) == 0 {
		return res, first
	}
	return res, nil
}

// nestedFold searches the outer training part of fold alone (a copy of its
// rows, reserved in acc while the search runs), then fits the pick on it
// and scores the held-out part.
func nestedFold(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, base engine.Values, axes []Axis, opt Options, fold eval.Fold, f int,
	acc *engine.Accountant, progress func(f, i int, p Point)) (*Result, float64, error) {
	what := fmt.Sprintf("the training part of outer fold %d", f+1)
	copyNeed := engine.Matrix(len(fold.Train), len(d.Features), "copy of "+what)
	release, err := acc.ReserveWait(ctx, spec.Name+" on "+d.Name, copyNeed)
	if err != nil {
		return nil, 0, fmt.Errorf("outer fold %d: %w", f+1, err)
	}
	inner := d.Subset(fold.Train) // the search sees these rows and no other
	res, folds, err := start(inner, spec, base, opt)
	if err != nil {
		release()
		return nil, 0, fmt.Errorf("outer fold %d: %w", f+1, err)
	}
	res.Axes, res.Random = axes, opt.Random > 0
	if opt.Pick == PickOneSE {
		res.Pick = PickOneSE
	}
	var hear func(int, Point)
	if progress != nil {
		hear = func(i int, p Point) { progress(f, i, p) }
	}
	err = run(ctx, inner, spec, res, searchJobs(res, axes, folds, opt), opt, acc, copyNeed, hear)
	inner.Release()
	release()
	if err != nil {
		if ctx.Err() != nil {
			return res, 0, err
		}
		return res, 0, fmt.Errorf("outer fold %d: %w", f+1, err)
	}
	best, ok := res.BestPoint()
	if !ok {
		return res, 0, fmt.Errorf("outer fold %d: no point of its search was scored", f+1)
	}
	o := opt.Eval
	o.Plan, o.PlanDesc, o.NoRefit, o.TrainScores, o.Consume = []eval.Fold{fold}, fmt.Sprintf("outer fold %d", f+1), true, false, false
	release, err = acc.ReserveWait(ctx, spec.Name+" on "+d.Name, eval.MemoryNeed(d, spec, best.Params, o))
	if err != nil {
		return res, 0, fmt.Errorf("outer fold %d: %s: %w", f+1, res.Label(best), err)
	}
	defer release()
	r, err := eval.Run(ctx, d, spec, best.Params, o, nil)
	if err != nil {
		return res, 0, fmt.Errorf("outer fold %d: %s: %w", f+1, res.Label(best), err)
	}
	score, ok := r.Metrics[res.Metric.Name]
	if !ok {
		return res, 0, fmt.Errorf("model %s gives no %s on these data (it has no scores); choose another metric", spec.Name, res.Metric.Label)
	}
	return res, score, nil
}

package eval

import (
	"fmt"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/metrics"
	"gonum.org/v1/gonum/stat"
)

// Decisions under a cost matrix (Options.Costs). With two classes scored
// by the model, the decision is a threshold on the positive class's
// score, chosen without the rows it decides:
//
//   - probabilities take the Bayes threshold of the matrix, (c_FP − c_TN)
//     / ((c_FP − c_TN) + (c_FN − c_TP)), the least expected cost if they
//     are calibrated, under every scheme: it uses no rows at all. (The
//     empirical minimum over the other folds' held-out rows was tried
//     first: on breast_cancer with logistic regression and a false
//     negative ten times a false positive, it cost more than the model's
//     own 0.5 in 11 of 16 cross-validations (seeds 1-8, 5 and 10 folds),
//     the Bayes threshold less in 13 of 16: a few confident mistakes move
//     the empirical minimum about.) A matrix whose denominator is not
//     above 0 keeps the model's own threshold, 0.5.
//   - decision values (no probabilities) under k-fold CV and leave-one-out:
//     fold i's threshold minimises the mean cost of the other folds'
//     held-out predictions, which are rows of fold i's training part; the
//     result's threshold (the shown model's, refit on all rows, and a
//     model file's) minimises it over every held-out prediction
//     (metrics.Costs.MinCostThreshold: the middle of the best gap between
//     scores, ties to the threshold nearest the model's own, 0). Under a
//     hold-out or a supplied test set there are no other folds, and the
//     threshold stays the model's own (0): cost is then cost_default.
//
// With more classes and probabilities the decision is Bayes's, argmin_j
// Σ_i p_i·cost(i, j), with no threshold; without probabilities it is the
// model's own. The baseline's cost (and cost_default) is that of its
// majority class.

// checkCosts refuses a cost matrix the run cannot use.
func checkCosts(c *metrics.Costs, d *datasets.Dataset, task datasets.Task, model string) error {
	if c == nil {
		return nil
	}
	if task != datasets.Classification {
		return fmt.Errorf("a cost matrix scores a classifier's decisions; %s does %s: leave the costs out", model, task)
	}
	return c.Check(d.Classes)
}

// addCosts adds cost and cost_default to the metrics of the folds (under
// cross-validation, fold by fold; else pooled) and to the baseline's, and
// sets the result's threshold; all holds every held-out row, its fold and
// scores.
func (rn *runner) addCosts(all fitted, folds int, foldMetrics, foldBase []map[string]float64) {
	c, res := rn.opt.Costs, rn.res
	if c == nil || rn.task != datasets.Classification {
		return
	}
	res.Costs = c
	cv := folds > 1 && !rn.opt.LOO
	// decide gives the decisions of least cost for the rows in, chosen on
	// the rows fit (nil: with no rows of their own to choose on).
	var decide func(in, fit []int) ([]float64, *float64)
	chooses := false // whether decide reads the rows it is given to choose on
	switch {
	case len(rn.d.Classes) == 2 && all.scores != nil && rn.pos >= 0:
		s := metrics.PositiveScores(all.scores, rn.pos)
		chooses = !all.proba // probabilities take the Bayes threshold, chosen on no rows
		own := 0.0
		if all.proba {
			own = 0.5
		}
		decide = func(in, fit []int) ([]float64, *float64) {
			t := own
			if b, ok := c.BayesThreshold(rn.pos); ok && all.proba {
				t = b
			} else if fit != nil && !all.proba {
				t = c.MinCostThreshold(pickAll(all.actual, fit), pickAll(s, fit), rn.pos, own)
			}
			return metrics.Threshold(pickAll(s, in), t, rn.pos), &t
		}
	case all.scores != nil && all.proba:
		decide = func(in, _ []int) ([]float64, *float64) {
			return c.BayesDecision(pick(all.scores, in)), nil
		}
	default:
		decide = func(in, _ []int) ([]float64, *float64) { return pickAll(all.pred, in), nil }
	}
	byFold := make([][]int, folds)
	for i, f := range all.folds {
		byFold[f-1] = append(byFold[f-1], i)
	}
	// others are the held-out rows of every fold but f: the rows fold f
	// chooses its threshold on (none when the decision needs none: under
	// leave-one-out, n copies of n rows).
	others := func(f int) []int {
		if !chooses {
			return nil
		}
		var out []int
		for g, rows := range byFold {
			if g != f {
				out = append(out, rows...)
			}
		}
		return out
	}
	every := make([]int, len(all.actual))
	for i := range every {
		every[i] = i
	}
	// The threshold shown and kept: on every held-out row under
	// cross-validation, else the rule of a single fold.
	var fit []int
	if folds > 1 {
		fit = every
	}
	_, res.Threshold = decide(nil, fit)
	switch {
	case cv:
		for f, rows := range byFold {
			if f >= len(foldMetrics) {
				break
			}
			pred, _ := decide(rows, others(f))
			actual := pickAll(all.actual, rows)
			foldMetrics[f]["cost"] = c.Mean(actual, pred)
			foldMetrics[f]["cost_default"] = c.Mean(actual, pickAll(all.pred, rows))
			base := c.Mean(actual, pickAll(all.basePred, rows))
			foldBase[f]["cost"], foldBase[f]["cost_default"] = base, base
		}
		res.Metrics, res.Std = meanStd(foldMetrics)
		res.Baseline, _ = meanStd(foldBase)
	default:
		pred := make([]float64, len(all.actual))
		if folds > 1 { // leave-one-out: each row by the threshold of the others
			for f, rows := range byFold {
				p, _ := decide(rows, others(f))
				for r, i := range rows {
					pred[i] = p[r]
				}
			}
		} else {
			pred, _ = decide(every, nil)
		}
		res.Metrics["cost"] = c.Mean(all.actual, pred)
		res.Metrics["cost_default"] = c.Mean(all.actual, all.pred)
		base := c.Mean(all.actual, all.basePred)
		res.Baseline["cost"], res.Baseline["cost_default"] = base, base
		if rn.opt.LOO && res.Std != nil { // the rows' spread, as looSpread gives accuracy's
			res.Std["cost"] = rowCostSpread(c, all.actual, pred)
			res.Std["cost_default"] = rowCostSpread(c, all.actual, all.pred)
		}
	}
}

// rowCostSpread is the sample standard deviation of the rows' costs.
func rowCostSpread(c *metrics.Costs, actual, pred []float64) float64 {
	x := make([]float64, len(actual))
	for i, a := range actual {
		x[i] = c.Cost[int(a)][int(pred[i])]
	}
	return stat.StdDev(x, nil)
}

package runs

import (
	"math"
	"slices"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// MaxCurve is how many points a curve keeps in the history: a fold's
// per-step history and a ROC curve. A chart is a few hundred cells wide,
// so a run of 100,000 steps or a ROC of a million rows draws the same from
// a thousand points, and its history line stays small.
const MaxCurve = 1000

// thinned is the entry with its result's curves thinned to MaxCurve
// points; the entry itself (which the lab may be showing) is unchanged.
func (e *Entry) thinned() *Entry {
	if e.Run == nil || e.Run.Result == nil || !longCurves(e.Run.Result) {
		return e
	}
	res := *e.Run.Result
	res.History = thinPoints(res.History)
	res.FoldHistories = slices.Clone(res.FoldHistories)
	for i, h := range res.FoldHistories {
		res.FoldHistories[i] = thinPoints(h)
	}
	res.ROC, res.PR, res.Lift = thinCurves(res.ROC, res.PR, res.Lift)
	res.FoldCurves = slices.Clone(res.FoldCurves)
	for i, c := range res.FoldCurves {
		c.ROC, c.PR, c.Lift = thinCurves(c.ROC, c.PR, c.Lift)
		res.FoldCurves[i] = c
	}
	run := *e.Run
	run.Result = &res
	out := *e
	out.Run = &run
	return &out
}

func longCurves(r *eval.Result) bool {
	long := len(r.History) > MaxCurve
	for _, h := range r.FoldHistories {
		long = long || len(h) > MaxCurve
	}
	long = long || longOnes(metrics.Curves{ROC: r.ROC, PR: r.PR, Lift: r.Lift})
	for _, c := range r.FoldCurves {
		long = long || longOnes(c)
	}
	return long
}

// longOnes says whether a curve of c has more than MaxCurve points.
func longOnes(c metrics.Curves) bool {
	for _, x := range c.ROC {
		if len(x.FPR) > MaxCurve {
			return true
		}
	}
	for _, x := range c.PR {
		if len(x.Recall) > MaxCurve {
			return true
		}
	}
	for _, x := range c.Lift {
		if len(x.Depth) > MaxCurve {
			return true
		}
	}
	return false
}

// thinCurves thins ROC, precision-recall and gains curves (copies; the
// scores they carry are the full curves').
func thinCurves(roc []metrics.ROC, pr []metrics.PR, lift []metrics.Lift) ([]metrics.ROC, []metrics.PR, []metrics.Lift) {
	roc, pr, lift = slices.Clone(roc), slices.Clone(pr), slices.Clone(lift)
	for i := range roc {
		roc[i] = thinROC(roc[i])
	}
	for i, c := range pr {
		if len(c.Recall) > MaxCurve && len(c.Precision) == len(c.Recall) {
			keep := evenly(len(c.Recall), MaxCurve)
			c.Recall, c.Precision, c.Thresholds = pickAt(keep, c.Recall), pickAt(keep, c.Precision), pickAt(keep, c.Thresholds)
			pr[i] = c
		}
	}
	for i, c := range lift {
		if len(c.Depth) > MaxCurve && len(c.Gain) == len(c.Depth) {
			keep := evenly(len(c.Depth), MaxCurve)
			c.Depth, c.Gain = pickAt(keep, c.Depth), pickAt(keep, c.Gain)
			lift[i] = c
		}
	}
	return roc, pr, lift
}

// pickAt is xs at the indices keep; nil when xs is shorter.
func pickAt(keep []int, xs []float64) []float64 {
	if len(keep) > 0 && keep[len(keep)-1] >= len(xs) {
		return nil
	}
	out := make([]float64, len(keep))
	for i, k := range keep {
		out[i] = xs[k]
	}
	return out
}

// thinPoints keeps at most MaxCurve points of a history, evenly spaced by
// index, always with the first and the last and the lowest training and
// validation losses (where a curve turns is what a person looks for).
func thinPoints(h []eval.Point) []eval.Point {
	if len(h) <= MaxCurve {
		return h
	}
	minAt := func(loss func(eval.Point) float64) int {
		at := 0
		for i, p := range h {
			if v := loss(p); !math.IsNaN(v) && (math.IsNaN(loss(h[at])) || v < loss(h[at])) {
				at = i
			}
		}
		return at
	}
	keep := evenly(len(h), MaxCurve-2)
	keep = append(keep, minAt(func(p eval.Point) float64 { return p.TrainLoss }), minAt(func(p eval.Point) float64 { return p.ValLoss }))
	slices.Sort(keep)
	keep = slices.Compact(keep)
	out := make([]eval.Point, len(keep))
	for i, k := range keep {
		out[i] = h[k]
	}
	return out
}

// thinROC keeps at most MaxCurve points of a ROC curve, evenly spaced,
// with both ends; its AUC is the full curve's.
func thinROC(c metrics.ROC) metrics.ROC {
	if len(c.FPR) <= MaxCurve || len(c.TPR) != len(c.FPR) {
		return c
	}
	keep := evenly(len(c.FPR), MaxCurve)
	pick := func(xs []float64) []float64 {
		if len(xs) != len(c.FPR) {
			return nil
		}
		out := make([]float64, len(keep))
		for i, k := range keep {
			out[i] = xs[k]
		}
		return out
	}
	c.FPR, c.TPR, c.Thresholds = pick(c.FPR), pick(c.TPR), pick(c.Thresholds)
	return c
}

// evenly is k indices of 0..n-1 evenly spaced, the first and the last
// among them (k ≥ 2, n > k).
func evenly(n, k int) []int {
	out := make([]int, k)
	for i := range k {
		out[i] = int(int64(i) * int64(n-1) / int64(k-1))
	}
	return out
}

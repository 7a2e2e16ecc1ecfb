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
	res.ROC = slices.Clone(res.ROC)
	for i := range res.ROC {
		res.ROC[i] = thinROC(res.ROC[i])
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
	for _, c := range r.ROC {
		long = long || len(c.FPR) > MaxCurve
	}
	return long
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

package metrics

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Curve is a binary ROC curve, as Shewchuk, Concise Machine Learning, lecture
// 11, "ROC curves", defines it:
// sweep every threshold of the scores, and at each one plot the false-positive
// rate (% of negatives classified positive) against the true-positive rate.
// It follows sklearn.metrics.roc_curve with drop_intermediate=True: tied
// scores make one point, collinear points are dropped, and the curve starts at
// (0,0) with threshold +Inf (scikit-learn before 1.3 used max+1 there). If
// there are no positives (or no negatives) TPR (or FPR) is all NaN.
// NaN scores (scikit-learn rejects them) rank below every other score, -Inf
// included, and tie with each other: they make the last point, threshold NaN.
func Curve(positive []bool, scores []float64) (fpr, tpr, thresholds []float64) {
	sameLen("Curve", len(positive), len(scores))
	type pair struct {
		s   float64
		pos bool
	}
	ps := make([]pair, len(scores))
	for i, s := range scores {
		ps[i] = pair{s, positive[i]}
	}
	// Descending by score; cmp.Compare orders NaN lowest, so NaN scores
	// never break the sort.
	slices.SortFunc(ps, func(a, b pair) int { return cmp.Compare(b.s, a.s) })

	// One point per distinct score: cumulative true and false positives.
	tps := make([]float64, 0, len(ps))
	fps := make([]float64, 0, len(ps))
	th := make([]float64, 0, len(ps))
	var tp, fp float64
	for i, p := range ps {
		if p.pos {
			tp++
		} else {
			fp++
		}
		if i == len(ps)-1 || cmp.Compare(ps[i+1].s, p.s) != 0 {
			tps = append(tps, tp)
			fps = append(fps, fp)
			th = append(th, p.s)
		}
	}
	// Drop points on a straight segment (second differences zero).
	if len(tps) > 2 {
		k := 1
		for i := 1; i < len(tps)-1; i++ {
			if fps[i+1]-2*fps[i]+fps[i-1] != 0 || tps[i+1]-2*tps[i]+tps[i-1] != 0 {
				tps[k], fps[k], th[k] = tps[i], fps[i], th[i]
				k++
			}
		}
		last := len(tps) - 1
		tps[k], fps[k], th[k] = tps[last], fps[last], th[last]
		tps, fps, th = tps[:k+1], fps[:k+1], th[:k+1]
	}
	m := len(tps) + 1
	fpr = make([]float64, m)
	tpr = make([]float64, m)
	thresholds = make([]float64, m)
	thresholds[0] = math.Inf(1)
	copy(thresholds[1:], th)
	totP, totN := tp, fp
	for i := range tps {
		fpr[i+1] = ratio(fps[i], totN)
		tpr[i+1] = ratio(tps[i], totP)
	}
	if totN == 0 {
		fpr[0] = math.NaN()
	}
	if totP == 0 {
		tpr[0] = math.NaN()
	}
	return fpr, tpr, thresholds
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// AUC is the area under a curve by the trapezoidal rule, as sklearn.metrics.auc
// for increasing x. For an ROC curve 1 is perfect and 1/2 is chance (Shewchuk, lecture 11).
func AUC(x, y []float64) float64 {
	sameLen("AUC", len(x), len(y))
	var a float64
	for i := 1; i < len(x); i++ {
		a += (x[i] - x[i-1]) * (y[i] + y[i-1]) / 2
	}
	return a
}

// ROCs gives the ROC curves of a classifier from its scores (probabilities or
// decision values, higher meaning more likely; one column per class, or a
// single column of class 1's score minus class 0's for two classes). With two
// classes there is one curve, the positive class (a code) against the other,
// from its column (or the single column, negated for class 0). With more, one
// curve per class against the rest, from its column, and positive is unused.
// A class absent from actual has an all-NaN TPR and AUC NaN.
func ROCs(actual []float64, scores *mat.Dense, labels []string, positive int) []ROC {
	n, _ := scores.Dims()
	sameLen("ROCs", len(actual), n)
	var out []ROC
	for _, p := range problems(actual, scores, len(labels), positive) {
		fpr, tpr, th := Curve(p.pos, p.s)
		out = append(out, ROC{Class: labels[p.class], FPR: fpr, TPR: tpr, Thresholds: th, AUC: AUC(fpr, tpr)})
	}
	return out
}

// MacroAUC is the mean AUC of the curves ROCs gives, skipping undefined (NaN)
// ones: the binary AUC for two classes, and for more the one-vs-rest macro AUC
// of sklearn.metrics.roc_auc_score(multi_class="ovr", average="macro").
func MacroAUC(rocs []ROC) float64 {
	var sum float64
	k := 0
	for _, r := range rocs {
		if !math.IsNaN(r.AUC) {
			sum += r.AUC
			k++
		}
	}
	if k == 0 {
		return math.NaN()
	}
	return sum / float64(k)
}

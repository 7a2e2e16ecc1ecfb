package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The curves of a classifier's scores beside ROC: precision-recall with
// average precision, calibration (a reliability diagram), cumulative gains
// and lift; and the Brier score. Each is computed on one set of scored rows
// (a fold's held-out rows, or all of them pooled) for one class against the
// rest: with two classes once, for the positive class, and with more once
// per class (one-vs-rest), as ROCs does.

// oneVsRest is one class against the rest: which rows are of the class,
// and their scores for it (higher: more likely the class).
type oneVsRest struct {
	class int
	pos   []bool
	s     []float64
}

// problems are the binary problems of a classifier's scores: with two
// classes one, positive against the other, from the positive class's
// column, or from the single column of decision values (class 1's score
// minus class 0's, negated for positive 0); with more, one per class
// against the rest, from its column.
func problems(actual []float64, scores *mat.Dense, k, positive int) []oneVsRest {
	n, cols := scores.Dims()
	one := func(class, col int, sign float64) oneVsRest {
		p := oneVsRest{class: class, pos: make([]bool, n), s: make([]float64, n)}
		for i, a := range actual {
			p.pos[i] = int(a) == class
			p.s[i] = sign * scores.At(i, col)
		}
		return p
	}
	if k == 2 {
		if positive != 0 && positive != 1 {
			panic(fmt.Sprintf("metrics: positive class %d of 2", positive))
		}
		if cols == 1 {
			return []oneVsRest{one(positive, 0, float64(2*positive-1))}
		}
		return []oneVsRest{one(positive, positive, 1)}
	}
	out := make([]oneVsRest, 0, k)
	for c := 0; c < k && c < cols; c++ {
		out = append(out, one(c, c, 1))
	}
	return out
}

// PR is a precision-recall curve for one class against the rest, as
// sklearn.metrics.precision_recall_curve (1.2) computes it but in the order
// a chart draws it: from the highest threshold down, recall rising. Point 0
// is (recall 0, precision 1), threshold +Inf; then one point per distinct
// score (ties make one point), every one kept. A threshold with no row
// above it has precision 0, as scikit-learn sets it.
type PR struct {
	Class      string    `json:"class"`
	Recall     []float64 `json:"recall"`
	Precision  []float64 `json:"precision"`
	Thresholds []float64 `json:"-"`
	// AP is the average precision, sklearn.metrics.average_precision_score:
	// Σ (R_n − R_{n−1}) P_n over the points, step-wise, no interpolation.
	// NaN when the class has no rows.
	AP float64 `json:"average_precision"`
	// Prevalence is the share of rows of the class: the precision of a
	// ranking by chance, where a chart draws its baseline.
	Prevalence float64 `json:"prevalence"`
}

// counts are the cumulative true and false positives at each distinct
// score, from the highest down, and those scores (NaN lowest, as Curve).
func counts(pos []bool, scores []float64) (tps, fps, th []float64) {
	sameLen("counts", len(pos), len(scores))
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	var tp, fp float64
	for i, r := range order {
		if pos[r] {
			tp++
		} else {
			fp++
		}
		if i == len(order)-1 || cmp.Compare(scores[order[i+1]], scores[r]) != 0 {
			tps, fps, th = append(tps, tp), append(fps, fp), append(th, scores[r])
		}
	}
	return tps, fps, th
}

// PRCurve is the precision-recall curve of one class against the rest:
// pos marks its rows, scores rank them.
func PRCurve(pos []bool, scores []float64) PR {
	tps, fps, th := counts(pos, scores)
	m := len(tps)
	c := PR{Recall: make([]float64, m+1), Precision: make([]float64, m+1), Thresholds: make([]float64, m+1)}
	c.Precision[0], c.Thresholds[0] = 1, math.Inf(1)
	var totP float64
	if m > 0 {
		totP = tps[m-1]
	}
	for i := range m {
		if ps := tps[i] + fps[i]; ps != 0 {
			c.Precision[i+1] = tps[i] / ps
		}
		c.Recall[i+1] = ratio(tps[i], totP)
		c.Thresholds[i+1] = th[i]
	}
	c.Prevalence = ratio(totP, float64(len(pos)))
	c.AP = math.NaN()
	if totP > 0 {
		c.AP = 0
		for i := 1; i <= m; i++ {
			c.AP += (c.Recall[i] - c.Recall[i-1]) * c.Precision[i]
		}
	}
	return c
}

// AveragePrecision is the mean average precision of curves, skipping
// undefined ones: the binary AP for two classes, and for more the macro
// one-vs-rest AP (sklearn.metrics.average_precision_score on the binarized
// classes, average="macro"). NaN when none is defined.
func AveragePrecision(curves []PR) float64 {
	var sum float64
	k := 0
	for _, c := range curves {
		if !math.IsNaN(c.AP) {
			sum, k = sum+c.AP, k+1
		}
	}
	if k == 0 {
		return math.NaN()
	}
	return sum / float64(k)
}

// PRs gives the precision-recall curves of a classifier's scores, as ROCs
// gives its ROC curves: one, for the positive class, with two classes;
// one per class against the rest with more.
func PRs(actual []float64, scores *mat.Dense, labels []string, positive int) []PR {
	n, _ := scores.Dims()
	sameLen("PRs", len(actual), n)
	var out []PR
	for _, p := range problems(actual, scores, len(labels), positive) {
		c := PRCurve(p.pos, p.s)
		c.Class = labels[p.class]
		out = append(out, c)
	}
	return out
}

// Brier is the Brier score of probabilities (one column per class) for the
// actual classes. With two classes it is sklearn.metrics.brier_score_loss
// for the positive class: the mean of (p − y)², y 1 for the positive class
// and 0 otherwise (0 perfect, 0.25 a constant ½). With more it is Brier's
// own multiclass score, the mean over rows of Σ_k (p_k − y_k)² over the
// one-hot classes (0 perfect, at most 2); for two classes that sum would
// be twice the binary score. NaN without rows.
func Brier(actual []float64, proba *mat.Dense, positive int) float64 {
	n, k := proba.Dims()
	sameLen("Brier", len(actual), n)
	if n == 0 {
		return math.NaN()
	}
	var sum float64
	for i, a := range actual {
		if k == 2 {
			y := 0.0
			if int(a) == positive {
				y = 1
			}
			d := proba.At(i, positive) - y
			sum += d * d
			continue
		}
		for j, p := range proba.RawRowView(i) {
			y := 0.0
			if int(a) == j {
				y = 1
			}
			sum += (p - y) * (p - y)
		}
	}
	return sum / float64(n)
}

// CalibrationBins is how many bins a calibration curve has for n rows:
// deciles of the predicted probability from 100 rows, else one bin per ten
// rows (at least one), so that a bin's observed frequency rests on about
// ten rows or more.
func CalibrationBins(n int) int { return min(10, max(1, n/10)) }

// Bin is one bin of a calibration curve: the rows whose predicted
// probability is in (Lo, Hi] (the first bin includes its Lo).
type Bin struct {
	Lo, Hi        float64
	Count         int     // rows in the bin
	MeanPredicted float64 // their mean predicted probability of the class
	Observed      float64 // the share of them that are of the class
}

// Calibration is a reliability diagram for one class against the rest:
// the rows binned by their predicted probability of the class, each bin's
// mean prediction against how often the class occurs in it. The edges
// are quantiles of the predictions (CalibrationBins of them), so bins hold
// about as many rows each; empty bins (tied edges) are left out. This is
// sklearn.calibration.calibration_curve(strategy="quantile") with those
// bins: edges numpy.percentile's (linear interpolation), a prediction on
// an inner edge in the bin below it.
type Calibration struct {
	Class string `json:"class"`
	Bins  []Bin  `json:"bins"`
}

// Calibrate bins the probabilities p of one class (pos marks its rows)
// into bins quantile bins.
func Calibrate(pos []bool, p []float64, bins int) Calibration {
	sameLen("Calibrate", len(pos), len(p))
	var c Calibration
	if len(p) == 0 || bins < 1 {
		return c
	}
	sorted := slices.Clone(p)
	slices.Sort(sorted)
	edges := make([]float64, bins+1)
	for i := range edges {
		edges[i] = percentile(sorted, float64(i)/float64(bins))
	}
	inner := edges[1:bins]
	sum := make([]float64, bins)
	hit := make([]float64, bins)
	count := make([]int, bins)
	for i, v := range p {
		b, _ := slices.BinarySearch(inner, v) // numpy.searchsorted, side left
		sum[b] += v
		count[b]++
		if pos[i] {
			hit[b]++
		}
	}
	for b := range bins {
		if count[b] == 0 {
			continue
		}
		n := float64(count[b])
		c.Bins = append(c.Bins, Bin{Lo: edges[b], Hi: edges[b+1], Count: count[b], MeanPredicted: sum[b] / n, Observed: hit[b] / n})
	}
	return c
}

// percentile is numpy.percentile(x, 100 q) of sorted x, its default
// linear interpolation between the closest ranks.
func percentile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	t := h - float64(lo)
	a, b := sorted[lo], sorted[lo+1]
	if t >= 0.5 { // numpy's _lerp, exact at t = 1
		return b - (b-a)*(1-t)
	}
	return a + (b-a)*t
}

// Calibrations gives the calibration curves of probabilities (one column
// per class): one, for the positive class, with two classes; one per class
// against the rest with more.
func Calibrations(actual []float64, proba *mat.Dense, labels []string, positive int) []Calibration {
	n, _ := proba.Dims()
	sameLen("Calibrations", len(actual), n)
	var out []Calibration
	for _, p := range problems(actual, proba, len(labels), positive) {
		c := Calibrate(p.pos, p.s, CalibrationBins(n))
		c.Class = labels[p.class]
		out = append(out, c)
	}
	return out
}

// Lift is the cumulative gains curve of one class against the rest, on the
// ranking of the ROC curve: the rows sorted by score, highest first, and
// at each distinct score (ties make one point, collinear points dropped as
// Curve drops them) the share of rows taken (Depth) against the share of
// the class's rows among them (Gain). Lift is Gain/Depth: how many times
// better than taking rows at random. Deciles are the gain at depths 10%,
// 20%... 100%, read off the curve by linear interpolation (the expected
// gain when tied rows are taken in random order).
type Lift struct {
	Class   string    `json:"class"`
	Depth   []float64 `json:"depth"`
	Gain    []float64 `json:"gain"`
	Deciles []float64 `json:"decile_gain"`
}

// LiftAt is the lift at depth d (0 < d ≤ 1): the decile gain or curve's
// gain over d.
func LiftAt(gain, depth float64) float64 { return ratio(gain, depth) }

// Gains is the cumulative gains curve of one class (pos marks its rows)
// ranked by scores.
func Gains(pos []bool, scores []float64) Lift {
	fpr, tpr, _ := Curve(pos, scores)
	var totP float64
	for _, p := range pos {
		if p {
			totP++
		}
	}
	return gainsOf(fpr, tpr, totP, float64(len(scores)))
}

// gainsOf is the gains curve read off a ROC curve (fpr, tpr) of totP
// positives among n rows: the same ranking, so no second sort.
func gainsOf(fpr, tpr []float64, totP, n float64) Lift {
	totN := n - totP
	l := Lift{Depth: make([]float64, len(fpr)), Gain: make([]float64, len(fpr))}
	for i := range fpr {
		tp, fp := tpr[i]*totP, fpr[i]*totN
		if totP == 0 {
			tp = 0
		}
		if totN == 0 {
			fp = 0
		}
		l.Depth[i] = ratio(tp+fp, n)
		l.Gain[i] = tpr[i]
	}
	l.Deciles = make([]float64, 10)
	for d := range l.Deciles {
		l.Deciles[d] = interpolate(l.Depth, l.Gain, float64(d+1)/10)
	}
	return l
}

// interpolate reads y at x off the piecewise-linear curve (xs rising).
func interpolate(xs, ys []float64, x float64) float64 {
	for i := 1; i < len(xs); i++ {
		if x <= xs[i] {
			w := xs[i] - xs[i-1]
			if w == 0 {
				return ys[i]
			}
			return ys[i-1] + (ys[i]-ys[i-1])*(x-xs[i-1])/w
		}
	}
	if len(ys) == 0 {
		return math.NaN()
	}
	return ys[len(ys)-1]
}

// Lifts gives the gains curves of a classifier's scores: one, for the
// positive class, with two classes; one per class against the rest with
// more.
func Lifts(actual []float64, scores *mat.Dense, labels []string, positive int) []Lift {
	return liftsOf(actual, ROCs(actual, scores, labels, positive), labels)
}

// Curves are every curve of one set of scored rows (a fold's, or all of
// them pooled): ROC, precision-recall and gains from scores, calibration
// from probabilities only (nil for decision values).
type Curves struct {
	ROC         []ROC         `json:"roc,omitempty"`
	PR          []PR          `json:"pr_curve,omitempty"`
	Calibration []Calibration `json:"calibration,omitempty"`
	Lift        []Lift        `json:"lift,omitempty"`
}

// liftsOf are the gains curves of rocs, the ROC curves of actual by ROCs.
func liftsOf(actual []float64, rocs []ROC, labels []string) []Lift {
	out := make([]Lift, len(rocs))
	for i, r := range rocs {
		class := slices.Index(labels, r.Class)
		var totP float64
		for _, a := range actual {
			if int(a) == class {
				totP++
			}
		}
		out[i] = gainsOf(r.FPR, r.TPR, totP, float64(len(actual)))
		out[i].Class = r.Class
	}
	return out
}

// CurvesOf computes Curves of scores (probabilities when proba) for the
// actual classes, the binary ones for class positive.
func CurvesOf(actual []float64, scores *mat.Dense, proba bool, labels []string, positive int) Curves {
	c := Curves{
		ROC: ROCs(actual, scores, labels, positive),
		PR:  PRs(actual, scores, labels, positive),
	}
	c.Lift = liftsOf(actual, c.ROC, labels) // as Lifts, on the ROC curves drawn already
	if proba {
		c.Calibration = Calibrations(actual, scores, labels, positive)
	}
	return c
}

// Operating is the positive class's confusion at one threshold: the rows
// whose score is at least Threshold are called positive.
type Operating struct {
	Threshold      float64
	TP, FP, FN, TN int
}

// OperatingPoints are the positive class's confusion at each point of its
// precision-recall curve (PRCurve's points, in its order: point 0 calls
// nothing positive), for two classes scored as ROCs takes them; nil for
// more classes.
func OperatingPoints(actual []float64, scores *mat.Dense, k, positive int) []Operating {
	if k != 2 {
		return nil
	}
	p := problems(actual, scores, k, positive)[0]
	tps, fps, th := counts(p.pos, p.s)
	var totP, totN int
	if m := len(tps); m > 0 {
		totP, totN = int(tps[m-1]), int(fps[m-1])
	}
	out := []Operating{{Threshold: math.Inf(1), FN: totP, TN: totN}}
	for i := range tps {
		tp, fp := int(tps[i]), int(fps[i])
		out = append(out, Operating{Threshold: th[i], TP: tp, FP: fp, FN: totP - tp, TN: totN - fp})
	}
	return out
}

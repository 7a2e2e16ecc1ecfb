package metrics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Class codes: every classification function here takes actual and predicted
// classes as float64 codes 0..k-1, as datasets.Dataset.Y and Model.Predict
// give them. Slices of different lengths, and codes outside 0..k-1 where k is
// known, are programmer errors and panic; CheckCodes lets a caller that holds
// untrusted predictions turn them into an error first.

// CheckCodes returns an error naming the first value of codes that is not a
// class code in 0..k-1 (NaN, ±Inf, fractional or out of range).
func CheckCodes(codes []float64, k int) error {
	for i, v := range codes {
		if !(v >= 0 && v < float64(k)) || v != math.Trunc(v) {
			return fmt.Errorf("row %d: %v is not a class code (valid: 0..%d)", i+1, v, k-1)
		}
	}
	return nil
}

func sameLen(fn string, a, b int) {
	if a != b {
		panic(fmt.Sprintf("metrics: %s: %d actual values but %d predictions", fn, a, b))
	}
}

// Accuracy is the fraction of predictions equal to the actual class; NaN when
// there are no rows.
func Accuracy(actual, pred []float64) float64 {
	sameLen("Accuracy", len(actual), len(pred))
	if len(actual) == 0 {
		return math.NaN()
	}
	hit := 0
	for i, a := range actual {
		if pred[i] == a {
			hit++
		}
	}
	return float64(hit) / float64(len(actual))
}

// ConfusionMatrix counts rows of actual class i predicted as class j. It is
// not in the sources the models cite (an extension); it is the standard table, as
// sklearn.metrics.confusion_matrix with labels = 0..len(labels)-1.
func ConfusionMatrix(actual, pred []float64, labels []string) Confusion {
	sameLen("ConfusionMatrix", len(actual), len(pred))
	k := len(labels)
	m := make([][]int, k)
	cells := make([]int, k*k)
	for i := range m {
		m[i] = cells[i*k : (i+1)*k : (i+1)*k]
	}
	for i, a := range actual {
		ai, pi := int(a), int(pred[i])
		if a != float64(ai) || pred[i] != float64(pi) || ai < 0 || ai >= k || pi < 0 || pi >= k {
			panic(fmt.Sprintf("metrics: ConfusionMatrix: row %d: codes %v, %v outside 0..%d", i+1, a, pred[i], k-1))
		}
		m[ai][pi]++
	}
	return Confusion{Labels: append([]string(nil), labels...), Matrix: m}
}

// Total is the number of rows counted.
func (c Confusion) Total() int {
	n := 0
	for _, row := range c.Matrix {
		for _, v := range row {
			n += v
		}
	}
	return n
}

// sums returns the row sums (support of each actual class), the column sums
// (how often each class was predicted) and the trace.
func (c Confusion) sums() (actual, pred []float64, trace, n float64) {
	k := len(c.Matrix)
	actual = make([]float64, k)
	pred = make([]float64, k)
	for i, row := range c.Matrix {
		for j, v := range row {
			actual[i] += float64(v)
			pred[j] += float64(v)
			n += float64(v)
		}
		trace += float64(row[i])
	}
	return actual, pred, trace, n
}

// Report gives precision, recall, F1 and support per class, as
// sklearn.metrics.precision_recall_fscore_support with zero_division=0: a
// ratio whose denominator is zero (a class never predicted, or absent from the
// actual rows) is 0.
func Report(c Confusion) []ClassReport {
	actual, pred, _, _ := c.sums()
	out := make([]ClassReport, len(c.Matrix))
	for i := range c.Matrix {
		tp := float64(c.Matrix[i][i])
		r := ClassReport{Class: c.Labels[i], Support: int(actual[i])}
		if pred[i] > 0 {
			r.Precision = tp / pred[i]
		}
		if actual[i] > 0 {
			r.Recall = tp / actual[i]
		}
		if r.Precision+r.Recall > 0 {
			r.F1 = 2 * r.Precision * r.Recall / (r.Precision + r.Recall)
		}
		out[i] = r
	}
	return out
}

// Averages gives the macro average (unweighted mean over classes) and the
// support-weighted average of the per-class precision, recall and F1. As
// sklearn's average="macro" with its default labels, the macro mean runs over
// the classes that occur among the actual or the predicted rows only, so a
// class absent from a small test fold does not count as a zero. Support is the
// total number of rows.
func Averages(c Confusion) (macro, weighted ClassReport) {
	rep := Report(c)
	actual, pred, _, n := c.sums()
	macro = ClassReport{Class: "macro avg", Support: int(n)}
	weighted = ClassReport{Class: "weighted avg", Support: int(n)}
	present := 0
	for i, r := range rep {
		if actual[i] == 0 && pred[i] == 0 {
			continue
		}
		present++
		macro.Precision += r.Precision
		macro.Recall += r.Recall
		macro.F1 += r.F1
		w := actual[i]
		weighted.Precision += w * r.Precision
		weighted.Recall += w * r.Recall
		weighted.F1 += w * r.F1
	}
	if present == 0 {
		nan := math.NaN()
		macro.Precision, macro.Recall, macro.F1 = nan, nan, nan
		weighted.Precision, weighted.Recall, weighted.F1 = nan, nan, nan
		return macro, weighted
	}
	macro.Precision /= float64(present)
	macro.Recall /= float64(present)
	macro.F1 /= float64(present)
	if n > 0 {
		weighted.Precision /= n
		weighted.Recall /= n
		weighted.F1 /= n
	}
	return macro, weighted
}

// CohenKappa is agreement beyond chance, (p_o - p_e) / (1 - p_e), as
// sklearn.metrics.cohen_kappa_score (unweighted). It is NaN when chance
// agreement is already perfect (one class only on both sides).
func CohenKappa(c Confusion) float64 {
	actual, pred, trace, n := c.sums()
	if n == 0 {
		return math.NaN()
	}
	// sklearn: 1 - sum(w*O)/sum(w*E) with w = 1 - I and E = outer(actual, pred)/n.
	var offE float64
	for i := range actual {
		for j := range pred {
			if i != j {
				offE += actual[i] * pred[j] / n
			}
		}
	}
	offO := n - trace
	if offE == 0 {
		return math.NaN()
	}
	return 1 - offO/offE
}

// MCC is the multiclass Matthews correlation coefficient (Gorodkin's R_K), as
// sklearn.metrics.matthews_corrcoef: 0 when either side is constant.
func MCC(c Confusion) float64 {
	actual, pred, trace, n := c.sums()
	var tp, pp, tt float64
	for i := range actual {
		tp += actual[i] * pred[i]
		pp += pred[i] * pred[i]
		tt += actual[i] * actual[i]
	}
	covTP := trace*n - tp
	covPP := n*n - pp
	covTT := n*n - tt
	if covPP*covTT == 0 {
		return 0
	}
	return covTP / math.Sqrt(covTT*covPP)
}

// LogEps is the probability clip of LogLoss, as scikit-learn's eps=1e-15.
const LogEps = 1e-15

// LogLoss is the mean negative log-probability of the actual class (the
// cross-entropy of logistic regression in Shewchuk, Concise Machine Learning,
// lectures 10-11, averaged). As
// sklearn.metrics.log_loss with eps=1e-15, each probability is clipped to
// [1e-15, 1-1e-15] and each row renormalised, so a confident mistake costs
// about 34.5 and not +Inf. proba has one row per observation and one column
// per class.
func LogLoss(actual []float64, proba *mat.Dense) float64 {
	n, k := proba.Dims()
	sameLen("LogLoss", len(actual), n)
	if n == 0 {
		return math.NaN()
	}
	var sum float64
	for i, a := range actual {
		row := proba.RawRowView(i)
		c := int(a)
		if a != float64(c) || c < 0 || c >= k {
			panic(fmt.Sprintf("metrics: LogLoss: row %d: class %v outside 0..%d", i+1, a, k-1))
		}
		var tot, pc float64
		for j, p := range row {
			p = min(max(p, LogEps), 1-LogEps)
			tot += p
			if j == c {
				pc = p
			}
		}
		sum -= math.Log(pc / tot)
	}
	return sum / float64(n)
}

package eval

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/metrics"
)

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
	if rn.task != datasets.Classification {
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
	return metricsWith(rn.task, rn.d.Classes, rn.pos, actual, pred, scores, proba, nil)
}

// Metrics scores predictions of a model of task on held-out rows, as a run
// does: under the metric table's names, for the classes (pos the positive
// class of two, -1 for none) given the model's scores, when it has any
// (proba: probabilities). A scored prediction (modelfile.Score) reads the
// same as a run.
func Metrics(task datasets.Task, classes []string, pos int, actual, pred []float64, scores *mat.Dense, proba bool) map[string]float64 {
	return metricsWith(task, classes, pos, actual, pred, scores, proba, nil)
}

// metricsWith is Metrics reading the AUC and the average precision off
// curves already drawn of the same scores (nil: draws them), so that a
// fold's scores are ranked once.
func metricsWith(task datasets.Task, classes []string, pos int, actual, pred []float64, scores *mat.Dense, proba bool, curves *metrics.Curves) map[string]float64 {
	if task != datasets.Classification {
		mse := metrics.MSE(actual, pred)
		return map[string]float64{
			"r2": metrics.R2(actual, pred), "rmse": math.Sqrt(mse),
			"mae": metrics.MAE(actual, pred), "mse": mse,
		}
	}
	c := metrics.ConfusionMatrix(actual, pred, classes)
	macro, weighted := metrics.Averages(c)
	acc := metrics.Accuracy(actual, pred)
	m := map[string]float64{
		"accuracy": acc, "error": 1 - acc,
		"macro_f1": macro.F1, "weighted_f1": weighted.F1,
		"macro_precision": macro.Precision, "macro_recall": macro.Recall,
		"kappa": metrics.CohenKappa(c), "mcc": metrics.MCC(c),
	}
	if pos >= 0 { // two classes: the positive class's row of the report
		p := metrics.Report(c)[pos]
		m["precision"], m["recall"], m["f1"] = p.Precision, p.Recall, p.F1
	}
	if scores != nil {
		if proba {
			m["log_loss"] = metrics.LogLoss(actual, scores)
			m["brier"] = metrics.Brier(actual, scores, pos)
		}
		if curves == nil {
			curves = &metrics.Curves{ROC: metrics.ROCs(actual, scores, classes, pos), PR: metrics.PRs(actual, scores, classes, pos)}
		}
		m["auc"] = metrics.MacroAUC(curves.ROC)
		m["average_precision"] = metrics.AveragePrecision(curves.PR)
	}
	return m
}

// chanceAP is the average precision of a score that ranks nothing (every
// row alike): each class's share of the rows, averaged as the metric is.
func (rn *runner) chanceAP(actual []float64) float64 {
	same := mat.NewDense(max(len(actual), 1), len(rn.d.Classes), nil)
	return metrics.AveragePrecision(metrics.PRs(actual, same.Slice(0, len(actual), 0, len(rn.d.Classes)).(*mat.Dense), rn.d.Classes, rn.pos))
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

// looSpread is the sample standard deviation over leave-one-out's
// one-row folds of the metrics a single row defines: right or wrong
// (accuracy, error) for a classifier, the absolute and squared error (MAE,
// MSE) for a regressor. The pooled metrics are the means of those.
func looSpread(task datasets.Task, actual, pred []float64) map[string]float64 {
	n := len(actual)
	if n < 2 {
		return nil
	}
	a, b := make([]float64, n), make([]float64, n)
	for i := range actual {
		d := pred[i] - actual[i]
		if task == datasets.Classification {
			if d == 0 {
				a[i] = 1
			}
			continue
		}
		a[i], b[i] = math.Abs(d), d*d
	}
	if task == datasets.Classification {
		sd := stat.StdDev(a, nil)
		return map[string]float64{"accuracy": sd, "error": sd}
	}
	return map[string]float64{"mae": stat.StdDev(a, nil), "mse": stat.StdDev(b, nil)}
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

package metrics

import "math"

// MSE is the mean squared error (the residual sum of squares of Shewchuk,
// Concise Machine Learning, lectures 10-11, divided by n).
func MSE(actual, pred []float64) float64 {
	sameLen("MSE", len(actual), len(pred))
	if len(actual) == 0 {
		return math.NaN()
	}
	var s float64
	for i, a := range actual {
		d := a - pred[i]
		s += d * d
	}
	return s / float64(len(actual))
}

// RMSE is the square root of MSE, in the target's units.
func RMSE(actual, pred []float64) float64 { return math.Sqrt(MSE(actual, pred)) }

// MAE is the mean absolute error.
func MAE(actual, pred []float64) float64 {
	sameLen("MAE", len(actual), len(pred))
	if len(actual) == 0 {
		return math.NaN()
	}
	var s float64
	for i, a := range actual {
		s += math.Abs(a - pred[i])
	}
	return s / float64(len(actual))
}

// R2 is the coefficient of determination 1 - RSS/TSS, as
// sklearn.metrics.r2_score (force_finite=True): when the actual values are
// constant it is 1 for a perfect prediction and 0 otherwise.
func R2(actual, pred []float64) float64 {
	sameLen("R2", len(actual), len(pred))
	n := len(actual)
	if n == 0 {
		return math.NaN()
	}
	var mean float64
	for _, a := range actual {
		mean += a
	}
	mean /= float64(n)
	var rss, tss float64
	for i, a := range actual {
		d := a - pred[i]
		rss += d * d
		e := a - mean
		tss += e * e
	}
	if tss == 0 {
		if rss == 0 {
			return 1
		}
		return 0
	}
	return 1 - rss/tss
}

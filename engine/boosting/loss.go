package boosting

import (
	"cmp"
	"math"
	"slices"
)

// Losses: what a round's trees fit the negative gradient of.
const (
	LossSquared  = "squared"
	LossAbsolute = "absolute"
	LossHuber    = "huber"
	lossLogistic = "logistic" // two classes: one raw score, the log-odds
	lossSoftmax  = "softmax"  // k classes: one raw score a class
)

// sigmoid is 1/(1+e^−x), computed without overflow.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// softmaxInto writes softmax(f) into p.
func softmaxInto(p, f []float64) {
	mx := math.Inf(-1)
	for _, v := range f {
		mx = max(mx, v)
	}
	s := 0.0
	for c, v := range f {
		p[c] = math.Exp(v - mx)
		s += p[c]
	}
	for c := range p {
		p[c] /= s
	}
}

// weightedQuantile is the q-quantile of v under weights w (the smallest
// value whose cumulative weight reaches q of the total); idx is scratch of
// len(v). NaN when there is no weight.
func weightedQuantile(v, w []float64, q float64, idx []int) float64 {
	idx = idx[:len(v)]
	total := 0.0
	for i := range idx {
		idx[i] = i
		total += w[i]
	}
	if !(total > 0) {
		return math.NaN()
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	acc := 0.0
	for _, i := range idx {
		acc += w[i]
		if acc >= q*total {
			return v[i]
		}
	}
	return v[idx[len(idx)-1]]
}

// clip is r bounded to [−d, d].
func clip(r, d float64) float64 {
	return max(-d, min(d, r))
}

// huberLoss is Huber's loss of residual r at delta d.
func huberLoss(r, d float64) float64 {
	if a := math.Abs(r); a > d {
		return d * (a - d/2)
	}
	return r * r / 2
}

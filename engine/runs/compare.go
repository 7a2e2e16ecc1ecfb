package runs

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tealab/tealab/engine/metrics"
)

// Verdict is how one score compares with another once noise is allowed
// for: a difference smaller than the folds' spread says nothing.
type Verdict int

const (
	Unknown Verdict = iota // no spread to judge by (one hold-out, no folds)
	Better
	Worse
	Tie // the difference is within noise
)

func (v Verdict) String() string {
	switch v {
	case Better:
		return "better"
	case Worse:
		return "worse"
	case Tie:
		return "within noise"
	}
	return "no spread"
}

// level is the two-sided significance of every verdict.
const level = 0.05

// correctedT is the corrected resampled t-test of Nadeau and Bengio (2003),
// as Weka's Experimenter uses it: the k fold differences d of k-fold
// cross-validation share training rows, so their variance is inflated by
// 1/k + n_test/n_train = 1/k + 1/(k-1) rather than divided by k. It reports
// whether mean(d) differs from zero at the 5% level.
func correctedT(d []float64) (mean float64, significant bool) {
	k := len(d)
	if k < 2 {
		return math.NaN(), false
	}
	mean, sd := stat.MeanStdDev(d, nil)
	if sd == 0 {
		return mean, mean != 0
	}
	t := mean / (sd * math.Sqrt(1/float64(k)+1/float64(k-1)))
	crit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(k - 1)}.Quantile(1 - level/2)
	return mean, math.Abs(t) > crit
}

// verdict turns a mean difference (a minus b) and its significance into a
// verdict in the metric's direction.
func verdict(metric string, diff float64, significant bool) Verdict {
	switch {
	case math.IsNaN(diff):
		return Unknown
	case !significant:
		return Tie
	case metrics.Lookup(metric).Compare(diff, 0) > 0:
		return Better
	}
	return Worse
}

// Versus compares two finished runs on metric. Runs scored on the same
// folds (same data, target, task, evaluation and seed: the caller knows)
// are compared fold by fold with the corrected resampled t-test; other
// runs with folds by their means and spreads; runs without folds cannot be
// told apart from noise (Unknown).
func Versus(metric string, a, b *Record, sameFolds bool) Verdict {
	fa, fb := foldScores(a, metric), foldScores(b, metric)
	if fa == nil || fb == nil {
		return Unknown
	}
	if sameFolds && len(fa) == len(fb) {
		d := make([]float64, len(fa))
		for i := range d {
			d[i] = fa[i] - fb[i]
		}
		m, sig := correctedT(d)
		return verdict(metric, m, sig)
	}
	// Different folds: the difference of the means against the two
	// spreads, each corrected as above.
	ma, sa := stat.MeanStdDev(fa, nil)
	mb, sb := stat.MeanStdDev(fb, nil)
	va := sa * sa * (1/float64(len(fa)) + 1/float64(len(fa)-1))
	vb := sb * sb * (1/float64(len(fb)) + 1/float64(len(fb)-1))
	diff := ma - mb
	if va+vb == 0 {
		return verdict(metric, diff, diff != 0)
	}
	return verdict(metric, diff, math.Abs(diff) > 1.96*math.Sqrt(va+vb))
}

// VersusBaseline compares a finished run's score on metric with its
// baseline's, by the run's folds: the corrected t-test of the folds'
// differences from the baseline (under leave-one-out, of the per-row
// spread the result carries; for a hold-out's accuracy or error, of the
// binomial spread of its test rows).
func VersusBaseline(metric string, r *Record) Verdict {
	res := r.Result
	if res == nil {
		return Unknown
	}
	v, ok1 := res.Metrics[metric]
	base, ok2 := res.Baseline[metric]
	if !ok1 || !ok2 || math.IsNaN(v) || math.IsNaN(base) {
		return Unknown
	}
	if f := foldScores(r, metric); f != nil {
		d := make([]float64, len(f))
		for i, x := range f {
			d[i] = x - base
		}
		m, sig := correctedT(d)
		return verdict(metric, m, sig)
	}
	n := float64(len(res.Actual))
	var se float64
	switch {
	case r.Options.LOO && res.Std[metric] > 0:
		se = res.Std[metric] * math.Sqrt(1/n+1/(n-1))
	case (metric == "accuracy" || metric == "error") && n > 0:
		se = math.Sqrt(v * (1 - v) / n)
	default:
		return Unknown
	}
	diff := v - base
	if se == 0 {
		return verdict(metric, diff, diff != 0)
	}
	return verdict(metric, diff, math.Abs(diff) > 1.96*se)
}

// foldScores are a run's per-fold values of metric; nil without at least
// two folds that all have it.
func foldScores(r *Record, metric string) []float64 {
	if r == nil || r.Result == nil || len(r.Result.Folds) < 2 {
		return nil
	}
	out := make([]float64, len(r.Result.Folds))
	for i, f := range r.Result.Folds {
		v, ok := f[metric]
		if !ok || math.IsNaN(v) {
			return nil
		}
		out[i] = v
	}
	return out
}

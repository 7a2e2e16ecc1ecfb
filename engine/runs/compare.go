package runs

import (
	"fmt"
	"math"
	"strconv"

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

// TTest is the outcome of a corrected resampled t-test of paired
// differences (a minus b): their mean, the statistic, its degrees of
// freedom, the two-sided p-value and whether it falls below 5%.
type TTest struct {
	Mean, T     float64
	DF          int
	P           float64
	Significant bool
}

// CorrectedTTest is the corrected resampled t-test of Nadeau and Bengio
// (2003), as Weka's Experimenter uses it. The n = k·r differences d of r
// repeats of k-fold cross-validation share training rows, so their
// variance is inflated by 1/n + testTrain (the ratio of test to training
// rows, 1/(k-1) for k folds) rather than divided by n; df = n - 1.
func CorrectedTTest(d []float64, testTrain float64) TTest {
	n := len(d)
	if n < 2 {
		return TTest{Mean: math.NaN(), T: math.NaN(), P: math.NaN()}
	}
	mean, sd := stat.MeanStdDev(d, nil)
	tt := TTest{Mean: mean, DF: n - 1}
	if sd == 0 { // identical differences: any non-zero mean is certain
		tt.Significant = mean != 0
		tt.T, tt.P = math.Copysign(math.Inf(1), mean), 0
		if mean == 0 {
			tt.T, tt.P = 0, 1
		}
		return tt
	}
	tt.T = mean / (sd * math.Sqrt(1/float64(n)+testTrain))
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
	tt.P = 2 * dist.CDF(-math.Abs(tt.T))
	tt.Significant = math.Abs(tt.T) > dist.Quantile(1-level/2)
	return tt
}

// Verdict reads the test in metric's direction: which of a and b is
// better, or a tie within noise.
func (t TTest) Verdict(metric string) Verdict { return verdict(metric, t.Mean, t.Significant) }

// correctedT tests the k fold differences of one k-fold cross-validation.
func correctedT(d []float64) (mean float64, significant bool) {
	t := CorrectedTTest(d, 1/float64(len(d)-1))
	return t.Mean, t.Significant
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

// Versus compares two finished runs on metric, fold by fold with the
// corrected resampled t-test. Runs that Incomparable refuses (other data or
// other folds), or without folds, cannot be told apart from noise
// (Unknown).
func Versus(metric string, a, b *Record) Verdict {
	fa, fb := foldScores(a, metric), foldScores(b, metric)
	if fa == nil || fb == nil || len(fa) != len(fb) || Incomparable(a, b) != "" {
		return Unknown
	}
	d := make([]float64, len(fa))
	for i := range d {
		d[i] = fa[i] - fb[i]
	}
	m, sig := correctedT(d)
	return verdict(metric, m, sig)
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
	n := float64(res.ScoredRows())
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

// Incomparable says why two runs cannot be compared, "" when they can: a
// winner needs the same rows with the same target and task (the same
// data) scored on the same folds (the same evaluation and seed). Anything
// else (model, parameters, preprocessing, dropped columns) is what a
// comparison compares.
func Incomparable(a, b *Record) string {
	da, db := dataOf(a), dataOf(b)
	switch {
	case da.name != db.name:
		return "runs on different data: " + da.name + " vs " + db.name
	case da.source != db.source:
		return "runs on different data: " + da.source + " vs " + db.source
	case da.rows != db.rows:
		return fmt.Sprintf("runs on different data: %s with %d rows vs %d rows", da.name, da.rows, db.rows)
	case da.target != db.target:
		return "runs on different targets: " + da.target + " vs " + db.target
	case a.Task() != b.Task():
		return "runs on different tasks: " + a.Task().String() + " vs " + b.Task().String()
	}
	if ea, eb := scheme(a), scheme(b); ea != eb {
		return "different evaluation: " + ea + " vs " + eb
	}
	if drawsFolds(a) && a.Options.Seed != b.Options.Seed {
		return fmt.Sprintf("different evaluation: seed %d vs seed %d draw other folds", a.Options.Seed, b.Options.Seed)
	}
	return ""
}

// runData is what makes a run's data the same as another's.
type runData struct {
	name, source, target string
	rows                 int
}

// dataOf reads a run's data from its dataset, or, for a run loaded from a
// file without it, from its recipe and result.
func dataOf(r *Record) runData {
	d := runData{name: r.Data.Source, source: r.Data.Source, target: r.Data.Target}
	if r.Result != nil {
		d.rows = r.Result.Rows
		if r.Result.Dataset != "" {
			d.name = r.Result.Dataset
		}
	}
	if ds := r.Dataset; ds != nil {
		d.name, d.source, d.target = ds.Name, ds.Source, "none"
		if ds.Target != nil {
			d.target = ds.Target.Name
		}
		if d.rows == 0 {
			d.rows = ds.Rows()
		}
	}
	return d
}

// scheme names how a run splits its rows, the seed aside: "10-fold CV",
// "hold-out 30%", "leave-one-out", "all rows" (no split) or a given plan.
func scheme(r *Record) string {
	o := r.Options
	switch {
	case !r.Task().Supervised():
		return "all rows"
	case len(o.Plan) > 0 && o.PlanDesc != "":
		return o.PlanDesc
	case len(o.Plan) > 0:
		return fmt.Sprintf("%d given folds", len(o.Plan))
	case o.LOO:
		return "leave-one-out"
	case o.Folds != 0:
		return fmt.Sprintf("%d-fold CV", o.Folds)
	}
	split := o.Split
	if split == 0 {
		split = 0.2 // eval.Plan's default
	}
	return "hold-out " + strconv.FormatFloat(math.Round(split*1000)/10, 'f', -1, 64) + "%"
}

// drawsFolds says whether the run's seed draws its folds (k-fold CV or a
// hold-out); leave-one-out, a given plan and no split draw nothing.
func drawsFolds(r *Record) bool {
	o := r.Options
	return r.Task().Supervised() && len(o.Plan) == 0 && !o.LOO
}

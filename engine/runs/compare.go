package runs

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
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
// comparison compares. Data are known by their fingerprint (Data.Hash)
// and resolved target, not by how they were spelled or whether they are
// open, so that a run of an earlier session, read from the history, is
// compared with the same run of this one.
func Incomparable(a, b *Record) string {
	da, db := dataOf(a), dataOf(b)
	switch {
	case !da.same(db) && da.label == db.label:
		return "runs on different data: " + da.label + " changed between them (" + short(da.id) + " vs " + short(db.id) + ")"
	case !da.same(db):
		return "runs on different data: " + da.label + " vs " + db.label
	case da.rows != db.rows:
		return fmt.Sprintf("runs on different data: %s with %d rows vs %d rows", da.label, da.rows, db.rows)
	case !sameTarget(a, b):
		return "runs on different targets: " + targetLabel(a) + " vs " + targetLabel(b)
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
	label  string // the data as a refusal names them: the source, a generator's knobs spelled out
	id     string // the fingerprint, a name's in its one spelling; "" none recorded
	source string // the source, a name in its one spelling: what is compared without a fingerprint
	rows   int
}

// same says whether two runs read the same data: by their fingerprints
// when both have one (a file's bytes, wherever it was), else by their
// sources.
func (d runData) same(e runData) bool {
	if d.id != "" && e.id != "" {
		return d.id == e.id
	}
	return d.source == e.source
}

// dataOf reads a run's data from its record, as a run of this session and
// one read back from the history both have it.
func dataOf(r *Record) runData {
	src := strings.TrimSpace(r.Data.Source)
	d := runData{label: src, source: src, id: r.Data.Hash}
	if p, ok := datasets.Provenance(src); ok {
		d.label, d.source = strings.TrimPrefix(p, "builtin:"), p
	} else if src != datasets.Stdin && src != "" {
		d.source = filepath.Clean(src)
	}
	if spec, ok := strings.CutPrefix(d.id, specHash); ok { // a name: its one spelling
		if p, ok := datasets.Provenance(spec); ok {
			d.id = specHash + p
		}
	}
	if r.Result != nil {
		d.rows = r.Result.Rows
	}
	if d.rows == 0 && r.Dataset != nil {
		d.rows = r.Dataset.Rows()
	}
	return d
}

// sameTarget says whether two runs predict the same column: by the names
// they resolved; a run of an older history, which did not keep the name of
// the last column, by the target as chosen ("" the last column), which may
// also name the other's resolved target.
func sameTarget(a, b *Record) bool {
	ta, tb := a.Target(), b.Target()
	if ta != "" && tb != "" {
		return ta == tb
	}
	sa, sb := a.Data.Target, b.Data.Target
	return sa == sb || (ta != "" && ta == sb) || (tb != "" && tb == sa)
}

// targetLabel names a run's target in a refusal.
func targetLabel(r *Record) string {
	switch t := r.Target(); t {
	case "":
		return "the last column"
	case datasets.NoTarget:
		return "none"
	default:
		return t
	}
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
		split = eval.DefaultOptions().Split // as eval.Plan reads it
	}
	return "hold-out " + strconv.FormatFloat(math.Round(split*1000)/10, 'f', -1, 64) + "%"
}

// drawsFolds says whether the run's seed draws its folds (k-fold CV or a
// hold-out); leave-one-out, a given plan and no split draw nothing.
func drawsFolds(r *Record) bool {
	o := r.Options
	return r.Task().Supervised() && len(o.Plan) == 0 && !o.LOO
}

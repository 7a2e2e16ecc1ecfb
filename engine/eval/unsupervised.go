package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
)

// silhouetteMax is the number of rows beyond which the silhouette, O(n²d), is
// computed on a seeded sample of rows (about 0.1 s for 5000 rows of 10
// features).
const silhouetteMax = 5000

// neighbourMax is the number of rows beyond which a reduction's 1-NN
// accuracy (O(n²d), in both spaces) is computed on a seeded sample.
var neighbourMax = 2000

// evalPCGStream is the second PCG word of eval's own random choices.
const evalPCGStream = 0xe7a1_5a3b1e

// truth is the known class of every row a clustering or reduction is
// scored against: Options.Labels, else the dataset's classes; nil if none.
func (rn *runner) truth() []float64 {
	if rn.opt.Labels != nil {
		return rn.opt.Labels
	}
	if rn.d.Classes != nil && len(rn.d.Y) == rn.d.Rows() {
		return rn.d.Y
	}
	return nil
}

// unsupervised fits a clustering or a reduction on all rows and scores it.
func (rn *runner) unsupervised() (*Result, error) {
	d, res := rn.d, rn.res
	n := d.Rows()
	truth := rn.truth()
	if truth != nil && len(truth) != n {
		return nil, fmt.Errorf("evaluation: %d labels for the %d rows of %s", len(truth), n, d.Name)
	}
	res.Eval = fmt.Sprintf("all %d rows, no split", n) + prepNote(rn.opt)
	switch {
	case truth != nil && d.Target != nil:
		res.Eval += fmt.Sprintf("; scored against the known classes of %s (not learned from)", d.Target.Name)
	case truth != nil:
		res.Eval += "; scored against the known classes"
	case rn.task == datasets.Clustering:
		res.Eval += "; no known classes, so only the silhouette scores it"
	}
	rn.warn(splitIgnored(rn.opt, rn.task, truth != nil))
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	prep, tr, err := rn.prepare(all)
	if err != nil {
		return nil, err
	}
	rec := &recorder{rn: rn, fold: 1, folds: 1}
	model, err := rn.fitOne(tr, rec, true)
	res.History = rec.history
	if err != nil {
		return rn.fail(err)
	}
	rn.show(model, prep, fmt.Sprintf("all %d rows", n), nil)
	if m, ok := model.(engine.Measurer); ok {
		_ = safely(rn.spec.Name, "Measures", func() error {
			for k, v := range m.Measures() {
				res.Metrics[k] = v
			}
			return nil
		})
	}
	if rn.task == datasets.Reduction {
		return rn.reduction(model, tr.X, truth)
	}
	return rn.clustering(model, tr.X, truth)
}

// UnsupervisedScoring says how a clustering or a reduction is evaluated:
// on every row, none held out, and by which scores; labelled says known
// classes score it too.
func UnsupervisedScoring(task datasets.Task, labelled bool) string {
	by := "its silhouette"
	switch {
	case task == datasets.Reduction && labelled:
		by = "the variance its components explain, and by how often a row's nearest neighbour shares its known class (1-NN accuracy) there and in the features"
	case task == datasets.Reduction:
		by = "the variance its components explain"
	case labelled:
		by = "its silhouette, and by ARI and NMI against the known classes"
	}
	return "fitted on all rows, none held out, and scored by " + by
}

// splitIgnored says that the cross-validation or leave-one-out asked of a
// clustering or a reduction does not apply, and what is done instead; ""
// when none was asked.
func splitIgnored(opt Options, task datasets.Task, labelled bool) string {
	var asked string
	switch {
	case opt.LOO:
		asked = "leave-one-out"
	case opt.Folds >= 2:
		asked = fmt.Sprintf("%d-fold cross-validation", opt.Folds)
	default:
		return ""
	}
	return fmt.Sprintf("%s does not apply to %s: the model is %s", asked, task, UnsupervisedScoring(task, labelled))
}

func (rn *runner) clustering(model engine.Model, X *mat.Dense, truth []float64) (*Result, error) {
	res := rn.res
	n, _ := X.Dims()
	var labels []float64
	err := safely(rn.spec.Name, "TrainingLabels", func() (err error) {
		labels, err = engine.ClusterLabels(model, X)
		return err
	})
	if err != nil {
		return rn.fail(fmt.Errorf("model %s: %w", rn.spec.Name, err))
	}
	res.Predicted = labels
	distinct := map[float64]bool{}
	for _, l := range labels {
		distinct[l] = true
	}
	res.Metrics["clusters"] = float64(len(distinct))
	res.Metrics["silhouette"] = math.NaN()
	if k := len(distinct); k >= 2 && k <= n-1 {
		rows := rn.sample(n, silhouetteMax)
		if rows != nil {
			res.Eval += fmt.Sprintf("; silhouette on %d sampled rows", silhouetteMax)
		}
		if s, err := metrics.Silhouette(pick(X, rows), pickAll(labels, rows)); err == nil {
			res.Metrics["silhouette"] = s
		}
	}
	if truth != nil {
		res.Actual = truth
		one := make([]float64, n)
		res.Metrics["ari"] = metrics.AdjustedRand(truth, labels)
		res.Metrics["nmi"] = metrics.NMI(truth, labels)
		res.Baseline["ari"] = metrics.AdjustedRand(truth, one)
		res.Baseline["nmi"] = metrics.NMI(truth, one)
	}
	return res, nil
}

func (rn *runner) reduction(model engine.Model, X *mat.Dense, truth []float64) (*Result, error) {
	res := rn.res
	t, ok := model.(engine.Transformer)
	if !ok {
		return rn.fail(fmt.Errorf("model %s cannot transform rows (a bug: it registers for reduction)", rn.spec.Name))
	}
	var Z *mat.Dense
	err := safely(rn.spec.Name, "Transform", func() (err error) { Z, err = t.Transform(X); return err })
	if err != nil {
		return rn.fail(err)
	}
	n, _ := X.Dims()
	if r, _ := Z.Dims(); r != n {
		return rn.fail(fmt.Errorf("model %s transformed %d rows into %d (a bug in the model)", rn.spec.Name, n, r))
	}
	res.Embedding = Z
	_, k := Z.Dims()
	res.Metrics["components"] = float64(k)
	if c, ok := res.Learned[engine.CapComponents.Name].(*engine.Components); ok && len(c.Ratio) > 0 {
		sum := 0.0
		for _, r := range c.Ratio {
			sum += r
		}
		res.Metrics["explained_variance"] = sum
	}
	if truth != nil {
		res.Actual = truth
		// Are the classes as far apart in the reduced space as in the
		// features? The same rows score both.
		rows := rn.sample(n, neighbourMax)
		if rows != nil {
			res.Eval += fmt.Sprintf("; 1-NN accuracy on %d sampled rows", neighbourMax)
		}
		y := pickAll(truth, rows)
		res.Metrics["knn_accuracy"] = metrics.NeighbourAccuracy(pick(Z, rows), y)
		res.Baseline["knn_accuracy"] = metrics.NeighbourAccuracy(pick(X, rows), y)
	}
	return res, nil
}

// sample is a seeded choice of limit of n rows, in order; nil when n is
// within the limit (every row).
func (rn *runner) sample(n, limit int) []int {
	if n <= limit {
		return nil
	}
	r := rand.New(rand.NewPCG(rn.opt.Seed, evalPCGStream))
	rows := r.Perm(n)[:limit]
	slices.Sort(rows)
	return rows
}

// pick is the rows of X (all of them when rows is nil).
func pick(X *mat.Dense, rows []int) *mat.Dense {
	if rows == nil {
		return X
	}
	return datasets.GatherRows(X, rows)
}

// pickAll is the entries of v at rows (all of them when rows is nil).
func pickAll(v []float64, rows []int) []float64 {
	if rows == nil {
		return v
	}
	out := make([]float64, len(rows))
	for i, row := range rows {
		out[i] = v[row]
	}
	return out
}

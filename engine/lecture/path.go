package lecture

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// The regularisation path (Shewchuk, lecture 13; ISL figure 6.6): a
// penalised linear model fitted at every λ of a log grid, its weights
// drawn against λ, and the cross-validated error that picks one λ.
//
// Every model here minimises a mean loss plus λ times a penalty, on the
// features standardised to mean 0 and population standard deviation 1,
// with an unpenalised intercept:
//
//	lasso        (1/2n)‖y − b − Zw‖² + λ‖w‖₁       scikit-learn Lasso(alpha=λ)
//	ridge        (1/2n)‖y − b − Zw‖² + (λ/2)‖w‖²   Ridge(alpha=nλ)
//	logistic-l1  (1/n)Σ log-loss + λ‖w‖₁            LogisticRegression(penalty="l1", C=1/(nλ))
//	logistic-l2  (1/n)Σ log-loss + (λ/2)‖w‖²        LogisticRegression(penalty="l2", C=1/(nλ))
//
// One convention for all four, so that λ reads the same on every axis;
// the weights are reported on the standardised scale (a weight is the
// change of the prediction per standard deviation of its feature), which
// is the scale the penalty treats alike.

// PathResult is a regularisation path and its cross-validated error.
type PathResult struct {
	Model string `json:"model"`
	Data  string `json:"data"`
	Task  string `json:"task"`
	// Target is the target column; Positive the class whose log-odds a
	// logistic model's weights move (class 1 of the data's classes).
	Target    string   `json:"target"`
	Positive  string   `json:"positive_class,omitempty"`
	Rows      int      `json:"rows"`
	Features  []string `json:"features"`
	Objective string   `json:"objective"`
	// Scale says on which scale Coefs are: "standardised".
	Scale   string    `json:"coef_scale"`
	Lambdas []float64 `json:"lambdas"` // descending: the whole grid, known from the start
	// Coefs[i][j] is feature j's weight at Lambdas[i]; Intercepts[i] the
	// intercept. A partial result holds the first len(Coefs) λs.
	Coefs      [][]float64 `json:"coefs"`
	Intercepts []float64   `json:"intercepts"`
	Nonzero    []int       `json:"nonzero"`
	// EntryOrder lists the features of an L1 path in the order their
	// weights leave zero going down from λ_max; EntryLambda the λ at which
	// each does.
	EntryOrder  []string  `json:"entry_order,omitempty"`
	EntryLambda []float64 `json:"entry_lambda,omitempty"`
	// The cross-validated error: Metric is "mse" (regression, in the
	// target's squared units) or "log-loss" (mean negative log-likelihood,
	// natural log); ErrorRate the share misclassified at p ≥ 0.5 (logistic).
	Metric      string      `json:"cv_metric"`
	Folds       int         `json:"folds"`
	FoldsDone   int         `json:"folds_done"`
	FoldErrors  [][]float64 `json:"fold_errors"` // [fold][λ]
	CVError     []float64   `json:"cv_error,omitempty"`
	CVSE        []float64   `json:"cv_se,omitempty"`
	CVErrorRate []float64   `json:"cv_error_rate,omitempty"`
	// BestLambda minimises CVError; Lambda1SE is the largest λ whose
	// CVError is within one standard error of the minimum (the simpler
	// model the one-standard-error rule picks). Set once every fold is done.
	BestLambda *float64 `json:"best_lambda,omitempty"`
	BestIndex  *int     `json:"best_index,omitempty"`
	Lambda1SE  *float64 `json:"lambda_1se,omitempty"`
	Index1SE   *int     `json:"index_1se,omitempty"`
}

// L1 says whether the model's penalty is ‖w‖₁ (weights that hit zero).
func (r *PathResult) L1() bool { return r.Model == "lasso" || r.Model == "logistic-l1" }

var pathModels = []string{"lasso", "ridge", "logistic-l1", "logistic-l2"}

func init() {
	Register(Experiment{
		Name:    "path",
		Title:   "regularisation paths: lasso, ridge and penalised logistic regression",
		Summary: "the weights of a penalised linear model against λ, as the lasso zeroes them one by one, with the cross-validated error that chooses λ (its minimum and the one-standard-error rule)",
		Source:  "Shewchuk, Concise Machine Learning, lecture 13 (ridge, lasso); James, Witten, Hastie & Tibshirani, ISL figures 6.4 and 6.6; Hocking, notes on L1 regularisation (proximal gradient, the subdifferential optimality condition)",
		Knobs: []engine.Param{
			{Name: "data", Kind: engine.Text, Default: "diabetes", Help: "the data set, as compare's data takes it (SOURCE[:target=COL,...]): numeric features; a numeric target for lasso and ridge, two classes for logistic"},
			{Name: "model", Kind: engine.Choice, Default: "lasso", Choices: pathModels, Help: "the penalised model: lasso (L1) or ridge (L2) regression, logistic regression with an L1 or L2 penalty",
				Detail: "each minimises the mean loss (half squared error, or log-loss) + λ·‖w‖₁ (L1) or λ·½‖w‖² (L2) on standardised features with an unpenalised intercept: scikit-learn's Lasso(alpha=λ), Ridge(alpha=nλ), LogisticRegression(C=1/(nλ))"},
			{Name: "lambdas", Kind: engine.Int, Default: 100, Min: 2, Max: 1000, Help: "how many λs on the log grid (as lasso_path's n_alphas)"},
			{Name: "ratio", Kind: engine.Float, Default: 1e-3, Min: 1e-8, Max: 0.5, Log: true, Help: "the grid's span, λ_min/λ_max (as lasso_path's eps)",
				Detail: "L1 models: λ runs from λ_max = max|Zᵀ(y−ȳ)|/n, the smallest λ at which every weight is zero, down to ratio·λ_max. L2 weights are never exactly zero and shrink gradually, so there λ runs from 100·h, where every weight is within 1% of zero, down twice as many decades, to 100·h·ratio², h being the largest eigenvalue of the loss's Hessian at w = 0 (ZᵀZ/n for ridge, ȳ(1−ȳ)ZᵀZ/n for logistic)"},
			{Name: "folds", Kind: engine.Int, Default: 5, Min: 2, Max: 20, Help: "folds of the cross-validated error (stratified for logistic)"},
			SeedKnob(),
		},
		Data:   "data",
		Run:    runPath,
		Decode: DecodeAs[PathResult],
	})
}

// maxPathFeatures bounds the features: the solvers keep p×p matrices.
const maxPathFeatures = 1000

// pathProblem is the data a path is fitted to: raw features X (n×p, row
// major), target y (values, or 0/1 for logistic).
type pathProblem struct {
	x        []float64
	n, p     int
	y        []float64
	logistic bool
	l1       bool
}

func runPath(ctx context.Context, in In, show func(Frame)) (any, error) {
	v := in.Values
	model := v.String("model")
	L, ratio, folds := v.Int("lambdas"), v.Float("ratio"), v.Int("folds")
	prob, res, err := preparePath(in.Data, v.String("data"), model, folds)
	if err != nil {
		return nil, err
	}
	full := standardise(prob, nil)
	res.Lambdas = pathGrid(prob, full, L, ratio)
	res.Folds = folds
	total := L + folds
	emit := func(done int) {
		if show != nil {
			show(Frame{Result: res.clone(), Done: done, Total: total})
		}
	}
	// The path on all rows, λ by λ.
	err = fitPath(ctx, prob, full, res.Lambdas, func(i int, w []float64, b float64) {
		res.Coefs = append(res.Coefs, w)
		res.Intercepts = append(res.Intercepts, b)
		nz := 0
		for _, x := range w {
			if x != 0 {
				nz++
			}
		}
		res.Nonzero = append(res.Nonzero, nz)
		if prob.l1 && (i == 0 || nz != res.Nonzero[i-1]) {
			// Entries known so far: those of a longer path only add to them.
			res.EntryOrder, res.EntryLambda = entryOrder(res, prob, full)
		}
		emit(i + 1)
	})
	if err != nil {
		return res, err
	}
	// The cross-validated error, fold by fold, on the same grid.
	var classes int
	if prob.logistic {
		classes = 2
	}
	parts, err := datasets.KFold(prob.n, prob.y, classes, folds, uint64(v.Int("seed")))
	if err != nil {
		return res, engine.Limitf("%v: choose fewer folds", err)
	}
	var rates [][]float64
	for f, test := range parts {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		train := datasets.Complement(prob.n, test)
		errs, rate, err := foldErrors(ctx, prob, train, test, res.Lambdas)
		if err != nil {
			return res, err
		}
		res.FoldErrors = append(res.FoldErrors, errs)
		rates = append(rates, rate)
		res.FoldsDone = f + 1
		res.summarise(rates)
		emit(L + f + 1)
	}
	return res, nil
}

// clone copies r so that a shown frame is never changed afterwards.
func (r *PathResult) clone() *PathResult {
	c := *r
	c.Coefs = append([][]float64(nil), r.Coefs...) // rows are never changed once appended
	c.Intercepts = append([]float64(nil), r.Intercepts...)
	c.Nonzero = append([]int(nil), r.Nonzero...)
	c.FoldErrors = append([][]float64(nil), r.FoldErrors...)
	c.EntryOrder = append([]string(nil), r.EntryOrder...)
	c.EntryLambda = append([]float64(nil), r.EntryLambda...)
	c.CVError = append([]float64(nil), r.CVError...)
	c.CVSE = append([]float64(nil), r.CVSE...)
	c.CVErrorRate = append([]float64(nil), r.CVErrorRate...)
	return &c
}

// preparePath checks that the data fit the model and reads them out.
func preparePath(d *datasets.Dataset, spec, model string, folds int) (*pathProblem, *PathResult, error) {
	if d == nil {
		return nil, nil, fmt.Errorf("path needs a data set (the data knob)")
	}
	logistic := model == "logistic-l1" || model == "logistic-l2"
	res := &PathResult{Model: model, Data: spec, Task: d.Task.String(), Rows: d.Rows(), Features: d.FeatureNames(), Scale: "standardised"}
	if d.Target != nil {
		res.Target = d.Target.Name
	}
	switch {
	case logistic && d.Task != datasets.Classification:
		if spec == "diabetes" {
			return nil, nil, engine.Limitf("model %s needs a target of two classes, and diabetes's is numeric: choose data breast_cancer (or model lasso or ridge)", model)
		}
		return nil, nil, engine.Limitf("model %s needs a target of two classes, and %s's is %s: choose model lasso or ridge, or a data set with two classes", model, d.Name, d.Task)
	case logistic && len(d.Classes) != 2:
		return nil, nil, engine.Limitf("model %s needs a target of two classes, and %s has %d: choose a data set (or a target=COL) with two", model, d.Name, len(d.Classes))
	case !logistic && d.Task != datasets.Regression:
		return nil, nil, engine.Limitf("model %s needs a numeric target, and %s's task is %s: choose model logistic-l1 or logistic-l2 (two classes), read the target as numbers (data SRC:task=regression), or data diabetes", model, d.Name, d.Task)
	}
	n, p := d.X.Dims()
	if p == 0 {
		return nil, nil, engine.Limitf("%s has no features", d.Name)
	}
	if p > maxPathFeatures {
		return nil, nil, engine.Limitf("%s has %d features; the path takes at most %d: drop some (data SRC:drop=COL,...)", d.Name, p, maxPathFeatures)
	}
	for _, c := range d.Features {
		if c.Kind == datasets.Nominal {
			return nil, nil, engine.Limitf("feature %q is nominal: the path takes numeric features only; drop it (data SRC:drop=%s) or one-hot encode it in the file", c.Name, c.Name)
		}
	}
	x := make([]float64, n*p)
	for i := range n {
		for j := range p {
			a := d.X.At(i, j)
			if math.IsNaN(a) {
				return nil, nil, engine.Limitf("feature %q has missing values (row %d): the path needs complete rows; drop the column (data SRC:drop=%s) or fill the gaps in the file", d.Features[j].Name, i+1, d.Features[j].Name)
			}
			x[i*p+j] = a
		}
	}
	y := append([]float64(nil), d.Y...)
	if logistic {
		res.Positive = d.Classes[1]
		res.Metric = "log-loss"
		for c, k := range d.ClassCounts() {
			if k < folds {
				return nil, nil, engine.Limitf("class %q has %d rows, fewer than the %d folds: choose folds %d or fewer", d.Classes[c], k, folds, max(2, k))
			}
		}
	} else {
		res.Metric = "mse"
		if n < 2*folds {
			return nil, nil, engine.Limitf("%d rows are too few for %d folds: choose folds %d or fewer", n, folds, max(2, n/2))
		}
	}
	l1 := model == "lasso" || model == "logistic-l1"
	res.Objective = map[string]string{
		"lasso":       "(1/2n)‖y − b − Zw‖² + λ‖w‖₁ (scikit-learn Lasso(alpha=λ))",
		"ridge":       "(1/2n)‖y − b − Zw‖² + (λ/2)‖w‖² (scikit-learn Ridge(alpha=nλ))",
		"logistic-l1": "(1/n)Σ log-loss + λ‖w‖₁ (scikit-learn LogisticRegression(penalty=l1, C=1/(nλ)))",
		"logistic-l2": "(1/n)Σ log-loss + (λ/2)‖w‖² (scikit-learn LogisticRegression(penalty=l2, C=1/(nλ)))",
	}[model]
	return &pathProblem{x: x, n: n, p: p, y: y, logistic: logistic, l1: l1}, res, nil
}

// stdData is a part of the rows, standardised by its own means and
// population standard deviations: z columns (column major), the target
// (centred for regression, with its mean kept).
type stdData struct {
	z      [][]float64 // z[j][i]
	y      []float64
	yMean  float64
	mean   []float64
	sd     []float64 // 0 for a constant feature, whose z column is 0
	n      int
	yBinom []float64 // logistic: the 0/1 target as is
}

// standardise fits the scaling on rows (nil: all) and applies it to them.
func standardise(prob *pathProblem, rows []int) *stdData {
	if rows == nil {
		rows = make([]int, prob.n)
		for i := range rows {
			rows[i] = i
		}
	}
	n, p := len(rows), prob.p
	s := &stdData{z: make([][]float64, p), mean: make([]float64, p), sd: make([]float64, p), n: n}
	col := make([]float64, n)
	for j := range p {
		for k, i := range rows {
			col[k] = prob.x[i*p+j]
		}
		m, sd := datasets.MeanStd(col)
		if !(sd > 1e-12*math.Max(math.Abs(m), 1e-300)) {
			sd = 0
		}
		s.mean[j], s.sd[j] = m, sd
		z := make([]float64, n)
		if sd > 0 {
			for k := range z {
				z[k] = (col[k] - m) / sd
			}
		}
		s.z[j] = z
	}
	s.y = make([]float64, n)
	for k, i := range rows {
		s.y[k] = prob.y[i]
	}
	if prob.logistic {
		s.yBinom = s.y
		s.yMean = mean(s.y)
		return s
	}
	s.yMean = mean(s.y)
	yc := make([]float64, n)
	for k := range yc {
		yc[k] = s.y[k] - s.yMean
	}
	s.y = yc
	return s
}

// foldErrors fits the path on the training rows (standardised by their own
// means and deviations) and scores every λ on the test rows: the mean
// squared error, or the log-loss and the error rate.
func foldErrors(ctx context.Context, prob *pathProblem, train, test []int, lambdas []float64) (errs, rates []float64, err error) {
	s := standardise(prob, train)
	p := prob.p
	errs = make([]float64, len(lambdas))
	if prob.logistic {
		rates = make([]float64, len(lambdas))
	}
	err = fitPath(ctx, prob, s, lambdas, func(li int, w []float64, b float64) {
		var e, wrong float64
		for _, i := range test {
			eta := b
			for j := range p {
				if s.sd[j] > 0 {
					eta += w[j] * (prob.x[i*p+j] - s.mean[j]) / s.sd[j]
				}
			}
			y := prob.y[i]
			if prob.logistic {
				pr := math.Min(math.Max(sigmoid(eta), 1e-15), 1-1e-15)
				e -= y*math.Log(pr) + (1-y)*math.Log(1-pr)
				if (pr >= 0.5) != (y == 1) {
					wrong++
				}
			} else {
				e += (y - eta) * (y - eta)
			}
		}
		errs[li] = e / float64(len(test))
		if rates != nil {
			rates[li] = wrong / float64(len(test))
		}
	})
	return errs, rates, err
}

// summarise averages the folds done so far: the mean error per λ, its
// standard error (the folds' standard deviation over √folds), and once
// every fold is in, the best λ and the one-standard-error λ.
func (r *PathResult) summarise(rates [][]float64) {
	k := len(r.FoldErrors)
	L := len(r.Lambdas)
	r.CVError = make([]float64, L)
	r.CVSE = make([]float64, L)
	if len(rates) > 0 && rates[0] != nil {
		r.CVErrorRate = make([]float64, L)
	}
	for i := range L {
		var m, rate float64
		for f := range k {
			m += r.FoldErrors[f][i]
			if r.CVErrorRate != nil {
				rate += rates[f][i]
			}
		}
		m /= float64(k)
		ss := 0.0
		for f := range k {
			d := r.FoldErrors[f][i] - m
			ss += d * d
		}
		r.CVError[i] = m
		if k > 1 {
			r.CVSE[i] = math.Sqrt(ss/float64(k-1)) / math.Sqrt(float64(k))
		}
		if r.CVErrorRate != nil {
			r.CVErrorRate[i] = rate / float64(k)
		}
	}
	if k < r.Folds {
		return
	}
	best := 0
	for i := range L {
		if r.CVError[i] < r.CVError[best] {
			best = i
		}
	}
	one := best
	for i := 0; i < best; i++ { // the largest λ (earliest) within one SE
		if r.CVError[i] <= r.CVError[best]+r.CVSE[best] {
			one = i
			break
		}
	}
	bl, ol := r.Lambdas[best], r.Lambdas[one]
	r.BestLambda, r.BestIndex, r.Lambda1SE, r.Index1SE = &bl, &best, &ol, &one
}

// entryOrder lists the features in the order their weights first leave
// zero going down the path. Features that leave zero between the same two
// λs of the grid are ordered by how close each was to entering at the
// larger λ: the size of its loss gradient there (a zero weight enters when
// that reaches λ). So the first is the feature whose gradient at w = 0 is
// largest: on standardised features, the one most correlated with y.
func entryOrder(r *PathResult, prob *pathProblem, s *stdData) ([]string, []float64) {
	type entry struct {
		j, at int
		pull  float64
	}
	var es []entry
	grads := map[int][]float64{}
	for j := range r.Features {
		for i, w := range r.Coefs {
			if w[j] != 0 {
				e := entry{j: j, at: i}
				if i > 0 {
					if grads[i-1] == nil {
						grads[i-1] = lossGradient(prob, s, r.Coefs[i-1], r.Intercepts[i-1])
					}
					e.pull = math.Abs(grads[i-1][j])
				}
				es = append(es, e)
				break
			}
		}
	}
	sort.SliceStable(es, func(a, b int) bool {
		if es[a].at != es[b].at {
			return es[a].at < es[b].at
		}
		return es[a].pull > es[b].pull
	})
	names := make([]string, len(es))
	at := make([]float64, len(es))
	for k, e := range es {
		names[k], at[k] = r.Features[e.j], r.Lambdas[e.at]
	}
	return names, at
}

// lossGradient is the gradient of the mean loss in w at (w, b): −Zᵀ(y − ŷ)/n.
func lossGradient(prob *pathProblem, s *stdData, w []float64, b float64) []float64 {
	resid := make([]float64, s.n)
	for i := range resid {
		eta := b
		for j, z := range s.z {
			eta += w[j] * z[i]
		}
		if prob.logistic {
			resid[i] = s.yBinom[i] - sigmoid(eta)
		} else {
			resid[i] = s.y[i] + s.yMean - eta // s.y is centred; b is ȳ
		}
	}
	g := make([]float64, len(s.z))
	for j, z := range s.z {
		g[j] = -dot(z, resid) / float64(s.n)
	}
	return g
}

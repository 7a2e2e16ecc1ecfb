package lecture

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"gonum.org/v1/gonum/mat"
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

func mean(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

func dot(a, b []float64) float64 {
	t := 0.0
	for i := range a {
		t += a[i] * b[i]
	}
	return t
}

// gram is ZᵀZ/n.
func (s *stdData) gram() [][]float64 {
	p := len(s.z)
	g := make([][]float64, p)
	for j := range g {
		g[j] = make([]float64, p)
	}
	for j := range p {
		for k := j; k < p; k++ {
			v := dot(s.z[j], s.z[k]) / float64(s.n)
			g[j][k], g[k][j] = v, v
		}
	}
	return g
}

// topEigen is the largest eigenvalue of the symmetric matrix g.
func topEigen(g [][]float64) float64 {
	p := len(g)
	a := mat.NewSymDense(p, nil)
	for j := range p {
		for k := j; k < p; k++ {
			a.SetSym(j, k, g[j][k])
		}
	}
	var e mat.EigenSym
	if !e.Factorize(a, false) {
		return 1
	}
	vals := e.Values(nil)
	return vals[len(vals)-1]
}

// pathGrid is the λ grid, descending (see the ratio knob).
func pathGrid(prob *pathProblem, s *stdData, L int, ratio float64) []float64 {
	var hi, lo float64
	if prob.l1 {
		// At w = 0 the loss's gradient is −Zᵀ(y − ȳ)/n for both losses
		// (the intercept fitted: ȳ, or logit ȳ); λ_max is its largest entry.
		yc := make([]float64, s.n)
		for i := range yc {
			yc[i] = s.y[i]
			if prob.logistic {
				yc[i] -= s.yMean
			}
		}
		for _, z := range s.z {
			hi = math.Max(hi, math.Abs(dot(z, yc))/float64(s.n))
		}
		lo = hi * ratio
	} else {
		h := topEigen(s.gram())
		if prob.logistic {
			h *= s.yMean * (1 - s.yMean)
		}
		hi = 100 * h // every weight within 1% of zero
		lo = hi * ratio * ratio
	}
	if !(hi > 0) { // no feature moves with the target: a token grid
		hi, lo = 1, ratio
	}
	out := make([]float64, L)
	for i := range out {
		t := float64(i) / float64(L-1)
		out[i] = math.Exp(math.Log(hi) + t*(math.Log(lo)-math.Log(hi)))
	}
	out[0], out[L-1] = hi, lo
	return out
}

// fitPath fits the model at every λ in turn, warm-starting each from the
// last, and hands each fit to got (w on the standardised scale, b the
// intercept).
func fitPath(ctx context.Context, prob *pathProblem, s *stdData, lambdas []float64, got func(i int, w []float64, b float64)) error {
	switch {
	case prob.logistic:
		return logisticPath(ctx, s, lambdas, prob.l1, got)
	case prob.l1:
		return lassoPath(ctx, s, lambdas, got)
	default:
		return ridgePath(ctx, s, lambdas, got)
	}
}

// lassoPath is cyclic coordinate descent on the Gram matrix (Friedman,
// Hastie & Tibshirani 2010): with q = Zᵀy/n − Gw, coordinate j's exact
// minimiser is soft(q_j + G_jj w_j, λ)/G_jj. It stops when a sweep moves
// no weight by more than 1e-13 of the largest, so the path matches
// scikit-learn's lasso_path run to a tiny tolerance.
func lassoPath(ctx context.Context, s *stdData, lambdas []float64, got func(int, []float64, float64)) error {
	p := len(s.z)
	g := s.gram()
	c := make([]float64, p)
	for j := range p {
		c[j] = dot(s.z[j], s.y) / float64(s.n)
	}
	w := make([]float64, p)
	q := make([]float64, p)
	for i, lam := range lambdas {
		if err := ctx.Err(); err != nil {
			return err
		}
		for j := range p { // afresh at each λ, so that rounding does not pile up
			q[j] = c[j] - dot(g[j], w)
		}
		for sweep := 0; sweep < 100000; sweep++ {
			moved, top := 0.0, 0.0
			for j := range p {
				if g[j][j] == 0 {
					continue
				}
				nw := soft(q[j]+g[j][j]*w[j], lam) / g[j][j]
				if d := nw - w[j]; d != 0 {
					for k := range p {
						q[k] -= d * g[k][j]
					}
					w[j] = nw
					moved = math.Max(moved, math.Abs(d))
				}
				top = math.Max(top, math.Abs(w[j]))
			}
			if moved <= 1e-13*top {
				break
			}
		}
		got(i, append([]float64(nil), w...), s.yMean)
	}
	return nil
}

func soft(z, t float64) float64 {
	switch {
	case z > t:
		return z - t
	case z < -t:
		return z + t
	}
	return 0
}

// ridgePath is the closed form through the SVD Z = U diag(s) Vᵀ:
// w(λ) = V diag(s/(s² + nλ)) Uᵀy.
func ridgePath(ctx context.Context, s *stdData, lambdas []float64, got func(int, []float64, float64)) error {
	p := len(s.z)
	z := mat.NewDense(s.n, p, nil)
	for j := range p {
		for i := range s.n {
			z.Set(i, j, s.z[j][i])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(z, mat.SVDThin) {
		return fmt.Errorf("path: the SVD of the features did not converge")
	}
	sv := svd.Values(nil)
	var u, vt mat.Dense
	svd.UTo(&u)
	svd.VTo(&vt) // V, p×k
	k := len(sv)
	uty := make([]float64, k)
	for c := range k {
		for i := range s.n {
			uty[c] += u.At(i, c) * s.y[i]
		}
	}
	n := float64(s.n)
	for i, lam := range lambdas {
		if err := ctx.Err(); err != nil {
			return err
		}
		w := make([]float64, p)
		for c := range k {
			f := sv[c] / (sv[c]*sv[c] + n*lam) * uty[c]
			for j := range p {
				w[j] += vt.At(j, c) * f
			}
		}
		got(i, w, s.yMean)
	}
	return nil
}

// logisticPath is a proximal Newton method (glmnet's, with a line search
// as Lee, Sun & Saunders 2014 give it): at each step the log-loss is
// replaced by its quadratic model, which coordinate descent minimises
// with the L1 penalty (or a linear solve with the L2 one), and a
// backtracking search along the step keeps the objective going down. It
// stops when the optimality condition 0 ∈ ∂C(w) holds to 1e-11: for an
// L1 weight, |g_j + λ sign w_j| when w_j ≠ 0 and (|g_j| − λ)₊ when w_j = 0
// (Hocking's sub-optimality, with the sign corrected), g the gradient of
// the mean log-loss.
func logisticPath(ctx context.Context, s *stdData, lambdas []float64, l1 bool, got func(int, []float64, float64)) error {
	p, n := len(s.z), s.n
	m := p + 1 // coordinate 0 is the intercept
	v := make([]float64, m)
	v[0] = math.Log(s.yMean / (1 - s.yMean))
	prob := make([]float64, n)
	wt := make([]float64, n)
	grad := make([]float64, m)
	hess := make([][]float64, m)
	for j := range hess {
		hess[j] = make([]float64, m)
	}
	// The rows with a leading 1 for the intercept, row major, so that the
	// Hessian's n·m²/2 products run down contiguous memory.
	aug := make([]float64, n*m)
	for i := range n {
		aug[i*m] = 1
		for j := 1; j < m; j++ {
			aug[i*m+j] = s.z[j-1][i]
		}
	}
	penalty := func(u []float64) float64 {
		t := 0.0
		for _, x := range u[1:] {
			if l1 {
				t += math.Abs(x)
			} else {
				t += x * x / 2
			}
		}
		return t
	}
	loss := func(u []float64) float64 {
		t := 0.0
		for i := range n {
			e := dot(aug[i*m:(i+1)*m], u)
			t += softplus(e) - s.yBinom[i]*e
		}
		return t / float64(n)
	}
	u := make([]float64, m)
	r := make([]float64, m)
	for li, lam := range lambdas {
		if err := ctx.Err(); err != nil {
			return err
		}
		for outer := 0; outer < 200; outer++ {
			if err := ctx.Err(); err != nil { // near separation one λ can take a while
				return err
			}
			clear(grad)
			for i := range n {
				row := aug[i*m : (i+1)*m]
				prob[i] = sigmoid(dot(row, v))
				wt[i] = prob[i] * (1 - prob[i])
				d := (prob[i] - s.yBinom[i]) / float64(n)
				for j, a := range row {
					grad[j] += a * d
				}
			}
			viol := optimality(grad, v, lam, l1)
			if viol < 1e-11 {
				break
			}
			for j := range m {
				clear(hess[j])
			}
			for i := range n {
				row := aug[i*m : (i+1)*m]
				wi := wt[i] / float64(n)
				for j, a := range row {
					f, h := wi*a, hess[j][j:]
					for k, b := range row[j:] {
						h[k] += f * b
					}
				}
			}
			for j := range m {
				for k := j + 1; k < m; k++ {
					hess[k][j] = hess[j][k]
				}
			}
			// The step: u minimises gᵀ(u−v) + ½(u−v)ᵀH(u−v) + λP(u).
			copy(u, v)
			if l1 {
				copy(r, grad) // r = g + H(u − v)
				// Solved as exactly as the outer step needs: to a small
				// share of the current violation, ever finer as it falls.
				inner := 1e-3 * viol
				for sweep := 0; sweep < 10000; sweep++ {
					moved, top := 0.0, 0.0
					for j := range m {
						a := hess[j][j]
						if a <= 0 {
							continue
						}
						var nu float64
						if j == 0 {
							nu = u[j] - r[j]/a
						} else {
							nu = soft(a*u[j]-r[j], lam) / a
						}
						if d := nu - u[j]; d != 0 {
							for k, h := range hess[j] { // H is symmetric: row j is column j
								r[k] += h * d
							}
							u[j] = nu
							if d < 0 {
								d = -d
							}
							if d > moved {
								moved = d
							}
						}
						if a := math.Abs(u[j]); a > top {
							top = a
						}
					}
					if moved <= math.Max(1e-15, inner)*math.Max(top, 1) {
						break
					}
				}
			} else {
				a := mat.NewSymDense(m, nil)
				rhs := mat.NewVecDense(m, nil)
				for j := range m {
					for k := j; k < m; k++ {
						a.SetSym(j, k, hess[j][k])
					}
					rhs.SetVec(j, -grad[j])
					if j > 0 {
						a.SetSym(j, j, hess[j][j]+lam)
						rhs.SetVec(j, -grad[j]-lam*v[j])
					}
				}
				var ch mat.Cholesky
				var d mat.VecDense
				if !ch.Factorize(a) || ch.SolveVecTo(&d, rhs) != nil {
					return fmt.Errorf("path: the Newton step at λ=%g is singular", lam)
				}
				for j := range m {
					u[j] = v[j] + d.AtVec(j)
				}
			}
			// Backtracking along d = u − v (Armijo, with the directional
			// derivative of the penalised objective).
			d := make([]float64, m)
			delta := 0.0
			for j := range m {
				d[j] = u[j] - v[j]
				delta += grad[j] * d[j]
			}
			if l1 {
				delta += lam * (penalty(u) - penalty(v))
			} else {
				for j := 1; j < m; j++ {
					delta += lam * v[j] * d[j]
				}
			}
			if delta >= 0 { // no descent left at rounding level
				break
			}
			f0 := loss(v) + lam*penalty(v)
			if -delta < 1e-13*(1+math.Abs(f0)) {
				// The decrease is below the objective's rounding, where a
				// line search cannot tell better from worse: near the
				// optimum the Newton step is taken whole.
				copy(v, u)
				continue
			}
			t := 1.0
			trial := make([]float64, m)
			for ; t > 1e-12; t /= 2 {
				for j := range m {
					trial[j] = v[j] + t*d[j]
				}
				if loss(trial)+lam*penalty(trial) <= f0+1e-4*t*delta {
					break
				}
			}
			if t <= 1e-12 {
				break
			}
			copy(v, trial)
		}
		got(li, append([]float64(nil), v[1:]...), v[0])
	}
	return nil
}

// optimality is the largest violation of 0 ∈ ∂C at v (v[0] the intercept).
func optimality(g, v []float64, lam float64, l1 bool) float64 {
	worst := math.Abs(g[0])
	for j := 1; j < len(v); j++ {
		var c float64
		switch {
		case !l1:
			c = math.Abs(g[j] + lam*v[j])
		case v[j] > 0:
			c = math.Abs(g[j] + lam)
		case v[j] < 0:
			c = math.Abs(g[j] - lam)
		default:
			c = math.Max(math.Abs(g[j])-lam, 0)
		}
		worst = math.Max(worst, c)
	}
	return worst
}

func sigmoid(e float64) float64 {
	if e >= 0 {
		return 1 / (1 + math.Exp(-e))
	}
	x := math.Exp(e)
	return x / (1 + x)
}

// softplus is log(1 + eᵉ) without overflow.
func softplus(e float64) float64 {
	if e > 0 {
		return e + math.Log1p(math.Exp(-e))
	}
	return math.Log1p(math.Exp(e))
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

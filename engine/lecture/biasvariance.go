package lecture

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// The bias-variance decomposition by Monte Carlo, as Shewchuk's lecture 12
// draws it: the sine wave fitted by 50 hypotheses, each fitted to 20 noisy
// training points. For every complexity of a model (a polynomial's degree,
// a ridge penalty, k of k-NN, a tree's depth) the same training sets are
// fitted, and over a grid of test points z on the interval
//
//	bias²    = mean_z (h̄(z) − g(z))²
//	variance = mean_z mean_h (h(z) − h̄(z))²
//	noise    = σ²
//
// with h̄ the mean of the hypotheses (so variance divides by their number):
// then bias² + variance = mean_h mean_z (h(z) − g(z))² exactly, and the
// Monte-Carlo test error against fresh noisy labels y = g(z) + ε differs
// from bias² + variance + noise by its test noise alone.

// BVResult is the decomposition at every complexity.
type BVResult struct {
	Truth      string  `json:"truth"`  // "sin(πx) on [-1, 1]"
	Model      string  `json:"model"`  // poly, ridge, knn, tree
	Design     string  `json:"design"` // stratified or uniform training x
	Noise      float64 `json:"noise"`  // σ of the label noise
	Points     int     `json:"points"` // per training set
	Hypotheses int     `json:"hypotheses"`
	// RidgeDegree is the ridge model's polynomial degree (0 for others).
	RidgeDegree int `json:"ridge_degree,omitempty"`
	// Complexity names the axis: degree, lambda, k or depth; Simpler says
	// in which direction of it the model is simpler (lower or higher).
	Complexity string  `json:"complexity"`
	Simpler    string  `json:"simpler"`
	Rows       []BVRow `json:"rows"` // one per complexity, ascending
	// GridX are the test points z (evenly spaced on the interval), GridG
	// the truth g there.
	GridX []float64 `json:"grid_x"`
	GridG []float64 `json:"grid_g"`
	// Curves are the fits drawn at one complexity: the one the show knob
	// picks, or while running the latest computed.
	Curves *BVCurves `json:"curves,omitempty"`
	// Show is the show knob: best, first or last.
	Show string `json:"show"`
}

// BVRow is the decomposition at one complexity (all means over the test
// grid; test error over hypotheses too).
type BVRow struct {
	Value    float64 `json:"value"`
	Bias2    float64 `json:"bias2"`
	Variance float64 `json:"variance"`
	Noise    float64 `json:"noise"` // σ²
	// TestError is mean_h mean_z (h(z) − y)², y = g(z) + fresh noise;
	// TestErrorSE is the standard deviation of the per-hypothesis means
	// over √hypotheses.
	TestError   float64 `json:"test_error"`
	TestErrorSE float64 `json:"test_error_se"`
	TrainError  float64 `json:"train_error"` // mean training MSE
}

// Total is bias² + variance + noise: the decomposition's expected error.
func (r BVRow) Total() float64 { return r.Bias2 + r.Variance + r.Noise }

// BVCurves are hypotheses (at most bvMaxCurves, rounded to 4 decimals: they
// are for drawing) and their mean over all hypotheses, on the grid.
type BVCurves struct {
	Value      float64     `json:"value"`
	Index      int         `json:"index"` // into Rows
	Mean       []float64   `json:"mean"`
	Hypotheses [][]float64 `json:"hypotheses"`
}

const (
	bvGrid      = 100 // test points
	bvMaxCurves = 50
	bvLo, bvHi  = -1.0, 1.0
)

// bvTruth is the notes' sine wave.
func bvTruth(x float64) float64 { return math.Sin(math.Pi * x) }

var (
	bvDegree = ListKnob("degree", "0..9", "polynomial degrees to compare (the complexity axis)", 0, 20, true, false)
	bvLambda = ListKnob("lambda", "1e-6..10:8", "ridge penalties λ to compare (the complexity axis; larger is simpler)", 1e-12, 1e6, false, true)
	bvK      = ListKnob("k", "1..20", "neighbour counts k to compare (the complexity axis; larger is simpler)", 1, 1000, true, false)
	bvDepth  = ListKnob("depth", "1..8", "tree depths to compare (the complexity axis)", 1, 30, true, false)
)

func init() {
	when := func(model string) *engine.Applies { return &engine.Applies{Param: "model", In: []string{model}} }
	degree, lambda, k, depth := bvDegree, bvLambda, bvK, bvDepth
	degree.When, lambda.When, k.When, depth.When = when("poly"), when("ridge"), when("knn"), when("tree")
	Register(Experiment{
		Name:    "bias-variance",
		Title:   "the bias-variance decomposition",
		Summary: "many hypotheses fitted to fresh noisy samples of a sine wave: bias², variance and noise against the model's complexity, their sum beside the Monte-Carlo test error",
		Source:  "Shewchuk, Concise Machine Learning, lecture 12 (the bias-variance decomposition; the sine wave fitted by 50 lines, each on 20 points)",
		Knobs: []engine.Param{
			{Name: "model", Kind: engine.Choice, Default: "poly", Choices: []string{"poly", "ridge", "knn", "tree"},
				Help: "the hypotheses: least-squares polynomials, ridge polynomials, k-NN regression or regression trees",
				Detail: "poly: least squares on Legendre polynomials up to the degree (the same fit as on powers of x, computed stably); " +
					"ridge: a polynomial of ridge_degree, min ‖Xw + b − y‖² + λ‖w‖² on x, x², …, the intercept b not penalised; " +
					"knn: the mean label of the k nearest training points (ties by training order); " +
					"tree: a CART regression tree to the depth (squared error, midpoint thresholds, leaves of one point allowed)"},
			degree,
			{Name: "ridge_degree", Kind: engine.Int, Default: 9, Min: 1, Max: 20, Help: "the ridge model's polynomial degree", When: when("ridge")},
			lambda, k, depth,
			{Name: "noise", Kind: engine.Float, Default: 0.3, Min: 0, Max: 3, Help: "σ of the label noise ε ~ N(0, σ²); noise = σ² is the irreducible error"},
			{Name: "points", Kind: engine.Int, Default: 20, Min: 2, Max: 500, Help: "training points per hypothesis"},
			{Name: "hypotheses", Kind: engine.Int, Default: 50, Min: 2, Max: 2000, Help: "hypotheses: training sets drawn and fitted at each complexity"},
			{Name: "design", Kind: engine.Choice, Default: "stratified", Choices: []string{"stratified", "uniform"},
				Help: "training x: one uniform point in each of n equal strips of [-1, 1], or n independent uniform points",
				Detail: "uniform leaves gaps at the ends of the interval now and then, into which a high-degree polynomial extrapolates wildly: " +
					"its variance is then heavy-tailed and 50 hypotheses cannot estimate it (nor its bias²); stratified keeps every strip filled"},
			{Name: "show", Kind: engine.Choice, Default: "best", Choices: []string{"best", "first", "last"},
				Help: "whose fits are drawn: the complexity of least test error, or the first or last of the axis"},
			SeedKnob(),
		},
		Run:    runBiasVariance,
		Decode: DecodeAs[BVResult],
	})
}

// bvFit fits one hypothesis to (x, y) and predicts at z.
type bvFit func(x, y, z []float64) ([]float64, error)

// bvAxis reads the model's complexity axis: its name, direction, values
// (sorted, without repeats) and the fit at each value.
func bvAxis(v engine.Values) (name, simpler string, values []float64, fit func(c float64) bvFit, err error) {
	n := v.Int("points")
	switch v.String("model") {
	case "poly":
		values = bvSorted(List(v, bvDegree))
		if d := values[len(values)-1]; int(d) >= n {
			return "", "", nil, nil, engine.Limitf("degree %d needs more than %d points per training set: lower degree or raise points", int(d), n)
		}
		return "degree", engine.SimplerLower, values, func(c float64) bvFit {
			return func(x, y, z []float64) ([]float64, error) { return bvPolyFit(x, y, z, int(c)) }
		}, nil
	case "ridge":
		deg := v.Int("ridge_degree")
		return "lambda", engine.SimplerHigher, bvSorted(List(v, bvLambda)), func(c float64) bvFit {
			return func(x, y, z []float64) ([]float64, error) { return bvRidgeFit(x, y, z, deg, c) }
		}, nil
	case "knn":
		values = bvSorted(List(v, bvK))
		if k := values[len(values)-1]; int(k) > n {
			return "", "", nil, nil, engine.Limitf("k=%d but a training set has %d points: lower k or raise points", int(k), n)
		}
		return "k", engine.SimplerHigher, values, func(c float64) bvFit {
			return func(x, y, z []float64) ([]float64, error) { return bvKNN(x, y, z, int(c)), nil }
		}, nil
	case "tree":
		return "depth", engine.SimplerLower, bvSorted(List(v, bvDepth)), func(c float64) bvFit {
			return func(x, y, z []float64) ([]float64, error) { return bvTreeFit(x, y, int(c)).predict(z), nil }
		}, nil
	}
	return "", "", nil, nil, fmt.Errorf("unknown model %q", v.String("model"))
}

func bvSorted(xs []float64) []float64 {
	xs = slices.Clone(xs)
	for i, x := range xs {
		xs[i] = engine.Tidy(x) // 0.01, not 0.009999999999999995 from a log range
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// bvSets are the training sets and test noise, drawn once from the seed
// and shared by every complexity, so that the complexities differ by the
// model alone.
type bvSets struct {
	x, y [][]float64 // per hypothesis, the training points
	eps  [][]float64 // per hypothesis, the test labels' noise on the grid
}

func bvDraw(seed uint64, m, n int, sigma float64, stratified bool) bvSets {
	r := rand.New(rand.NewPCG(seed, 0xb1a5))
	s := bvSets{x: make([][]float64, m), y: make([][]float64, m), eps: make([][]float64, m)}
	for h := range m {
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			if stratified {
				x[i] = bvLo + (float64(i)+r.Float64())*(bvHi-bvLo)/float64(n)
			} else {
				x[i] = bvLo + r.Float64()*(bvHi-bvLo)
			}
			y[i] = bvTruth(x[i]) + sigma*r.NormFloat64()
		}
		s.x[h], s.y[h] = x, y
	}
	for h := range m {
		e := make([]float64, bvGrid)
		for j := range e {
			e[j] = sigma * r.NormFloat64()
		}
		s.eps[h] = e
	}
	return s
}

func bvGridPoints() (x, g []float64) {
	x, g = make([]float64, bvGrid), make([]float64, bvGrid)
	for j := range x {
		x[j] = bvLo + float64(j)*(bvHi-bvLo)/float64(bvGrid-1)
		g[j] = bvTruth(x[j])
	}
	return x, g
}

func runBiasVariance(ctx context.Context, in In, show func(Frame)) (any, error) {
	v := in.Values
	name, simpler, values, fitAt, err := bvAxis(v)
	if err != nil {
		return nil, err
	}
	m, n, sigma := v.Int("hypotheses"), v.Int("points"), v.Float("noise")
	gx, gg := bvGridPoints()
	res := BVResult{
		Truth: "sin(πx) on [-1, 1]", Model: v.String("model"), Design: v.String("design"),
		Noise: sigma, Points: n, Hypotheses: m, Complexity: name, Simpler: simpler,
		GridX: gx, GridG: gg, Show: v.String("show"),
	}
	if res.Model == "ridge" {
		res.RidgeDegree = v.Int("ridge_degree")
	}
	sets := bvDraw(uint64(v.Int("seed")), m, n, sigma, res.Design == "stratified")
	var kept *BVCurves // the curves the show knob picks, so far
	for i, c := range values {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		row, preds, err := bvDecompose(ctx, fitAt(c), sets, gx, gg, sigma)
		if err != nil {
			return res, err
		}
		row.Value = c
		curves := bvCurvesOf(preds, c, i)
		switch {
		case res.Show == "first" && i == 0,
			res.Show == "last" && i == len(values)-1,
			res.Show == "best" && (kept == nil || row.TestError < res.Rows[kept.Index].TestError):
			kept = curves
		}
		// a fresh result each time: what was shown is never changed
		next := res
		next.Rows = append(slices.Clone(res.Rows), row)
		next.Curves = curves
		res = next
		show(Frame{Result: res, Done: i + 1, Total: len(values)})
	}
	res.Curves = kept
	return res, nil
}

// bvDecompose fits every training set with fit and decomposes the error
// on the grid; preds are the hypotheses' predictions there.
func bvDecompose(ctx context.Context, fit bvFit, s bvSets, gx, gg []float64, sigma float64) (BVRow, [][]float64, error) {
	m := len(s.x)
	preds := make([][]float64, m)
	var train float64
	for h := range m {
		if h%64 == 0 && ctx.Err() != nil {
			return BVRow{}, nil, ctx.Err()
		}
		z := append(slices.Clone(gx), s.x[h]...) // the grid, then the training points
		p, err := fit(s.x[h], s.y[h], z)
		if err != nil {
			return BVRow{}, nil, err
		}
		var sse float64
		for i, yi := range s.y[h] {
			d := p[len(gx)+i] - yi
			sse += d * d
		}
		train += sse / float64(len(s.y[h]))
		preds[h] = p[:len(gx)]
	}
	row := BVRow{Noise: sigma * sigma, TrainError: train / float64(m)}
	row.Bias2, row.Variance = bvBiasVariance(preds, gg)
	errs := make([]float64, m)
	for h, p := range preds {
		var e float64
		for j := range p {
			d := p[j] - (gg[j] + s.eps[h][j])
			e += d * d
		}
		errs[h] = e / float64(len(p))
	}
	row.TestError, row.TestErrorSE = bvMeanSE(errs)
	for _, x := range []float64{row.Bias2, row.Variance, row.TestError, row.TestErrorSE, row.TrainError} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return row, nil, engine.Limitf("the fits' predictions overflow: lower the complexity")
		}
	}
	return row, preds, nil
}

// bvPointwise is the pointwise decomposition at each test point: bias²(z)
// = (h̄(z) − g(z))² and variance(z) = mean_h (h(z) − h̄(z))², dividing by
// the number of hypotheses so that their sum is mean_h (h(z) − g(z))².
func bvPointwise(preds [][]float64, g []float64) (mean, bias2, variance []float64) {
	m := float64(len(preds))
	mean, bias2, variance = make([]float64, len(g)), make([]float64, len(g)), make([]float64, len(g))
	for j := range g {
		var s float64
		for _, p := range preds {
			s += p[j]
		}
		mean[j] = s / m
		var v float64
		for _, p := range preds {
			d := p[j] - mean[j]
			v += d * d
		}
		bias2[j] = (mean[j] - g[j]) * (mean[j] - g[j])
		variance[j] = v / m
	}
	return mean, bias2, variance
}

// bvBiasVariance is the mean version: the pointwise terms averaged over
// the test grid.
func bvBiasVariance(preds [][]float64, g []float64) (bias2, variance float64) {
	_, b, v := bvPointwise(preds, g)
	for j := range b {
		bias2 += b[j]
		variance += v[j]
	}
	return bias2 / float64(len(b)), variance / float64(len(v))
}

// bvMeanSE is the mean and its standard error (sample standard deviation
// over √count).
func bvMeanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))
}

func bvCurvesOf(preds [][]float64, c float64, index int) *BVCurves {
	mean := make([]float64, len(preds[0]))
	for _, p := range preds {
		for j, x := range p {
			mean[j] += x
		}
	}
	for j := range mean {
		mean[j] = bvRound(mean[j] / float64(len(preds)))
	}
	cu := &BVCurves{Value: c, Index: index, Mean: mean}
	for _, p := range preds[:min(len(preds), bvMaxCurves)] {
		q := make([]float64, len(p))
		for j, x := range p {
			q[j] = bvRound(x)
		}
		cu.Hypotheses = append(cu.Hypotheses, q)
	}
	return cu
}

// bvRound keeps 4 decimals: the curves are drawn, not computed with, and
// the JSON stays small.
func bvRound(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// bvSolve is argmin ‖Aw − b‖² + λ‖w‖² of least norm, from the SVD of A:
// singular values at or below max(rows, cols)·ε·s_max count as zero (as
// numpy's lstsq and MATLAB's pinv cut them), so that a rank-deficient A
// (λ = 0) gets the minimum-norm solution rather than noise-sized
// directions blown up.
func bvSolve(a *mat.Dense, b []float64, lambda float64) ([]float64, error) {
	r, c := a.Dims()
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, fmt.Errorf("the least-squares SVD did not converge")
	}
	s := svd.Values(nil)
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	tol := float64(max(r, c)) * 0x1p-52 * s[0]
	coef := make([]float64, len(s))
	bv := mat.NewVecDense(len(b), b)
	for k, sk := range s {
		if lambda == 0 && sk <= tol || sk == 0 {
			continue
		}
		uk := mat.Dot(u.ColView(k), bv)
		if lambda == 0 {
			coef[k] = uk / sk
		} else {
			coef[k] = uk * sk / (sk*sk + lambda)
		}
	}
	w := make([]float64, c)
	wv := mat.NewVecDense(c, w)
	wv.MulVec(&v, mat.NewVecDense(len(coef), coef))
	return w, nil
}

// bvLegendre fills row with P_0(x) … P_d(x), by Bonnet's recursion: on
// [-1, 1] these are far better conditioned than 1, x, …, x^d.
func bvLegendre(x float64, row []float64) {
	row[0] = 1
	if len(row) > 1 {
		row[1] = x
	}
	for k := 2; k < len(row); k++ {
		row[k] = (float64(2*k-1)*x*row[k-1] - float64(k-1)*row[k-2]) / float64(k)
	}
}

// bvPolyFit is the least-squares polynomial of degree d, fitted on the
// Legendre basis (x is in [-1, 1]).
func bvPolyFit(x, y, z []float64, d int) ([]float64, error) {
	a := mat.NewDense(len(x), d+1, nil)
	for i, xi := range x {
		bvLegendre(xi, a.RawRowView(i))
	}
	w, err := bvSolve(a, y, 0)
	if err != nil {
		return nil, err
	}
	out, row := make([]float64, len(z)), make([]float64, d+1)
	for j, zj := range z {
		bvLegendre(zj, row)
		out[j] = bvDot(row, w)
	}
	return out, nil
}

// bvRidgeFit is ridge regression on x, x², …, x^d with an unpenalised
// intercept: the powers and y are centred, and the penalised fit of the
// centred problem is read from its SVD (stable for any λ > 0).
func bvRidgeFit(x, y, z []float64, d int, lambda float64) ([]float64, error) {
	n := len(x)
	a := mat.NewDense(n, d, nil)
	means := make([]float64, d)
	for i, xi := range x {
		p := 1.0
		for k := range d {
			p *= xi
			a.Set(i, k, p)
			means[k] += p / float64(n)
		}
	}
	var ymean float64
	for _, yi := range y {
		ymean += yi / float64(n)
	}
	yc := make([]float64, n)
	for i := range n {
		for k := range d {
			a.Set(i, k, a.At(i, k)-means[k])
		}
		yc[i] = y[i] - ymean
	}
	w, err := bvSolve(a, yc, lambda)
	if err != nil {
		return nil, err
	}
	b := ymean - bvDot(means, w)
	out := make([]float64, len(z))
	for j, zj := range z {
		p, s := 1.0, b
		for k := range d {
			p *= zj
			s += w[k] * p
		}
		out[j] = s
	}
	return out, nil
}

func bvDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// bvKNN is k-NN regression in one dimension: at each z the mean label of
// the k nearest training points, equal distances taken in training order.
// The points sorted up from z and down from it are merged by distance, so
// a query costs log n + k.
func bvKNN(x, y, z []float64, k int) []float64 {
	n := len(x)
	up := make([]int, n) // by x ascending, then training order
	for i := range up {
		up[i] = i
	}
	sort.SliceStable(up, func(a, b int) bool { return x[up[a]] < x[up[b]] })
	down := slices.Clone(up) // by x descending, then training order
	sort.SliceStable(down, func(a, b int) bool { return x[down[a]] > x[down[b]] })
	out := make([]float64, len(z))
	for j, q := range z {
		r := sort.Search(n, func(i int) bool { return x[up[i]] >= q })  // up[r:] are at or right of q
		l := sort.Search(n, func(i int) bool { return x[down[i]] < q }) // down[l:] are left of q
		var s float64
		for range k {
			takeRight := l >= n || r < n && (x[up[r]]-q < q-x[down[l]] || x[up[r]]-q == q-x[down[l]] && up[r] < down[l])
			if takeRight {
				s += y[up[r]]
				r++
			} else {
				s += y[down[l]]
				l++
			}
		}
		out[j] = s / float64(k)
	}
	return out
}

// bvTree is a regression tree in one dimension: node i splits at
// threshold[i] (x ≤ it goes to left[i]) or, with left[i] < 0, is a leaf
// predicting value[i].
type bvTree struct {
	threshold, value []float64
	left, right      []int
}

// bvTreeFit grows a CART regression tree to depth: each node takes the
// split of least total squared error among midpoints between successive
// distinct x (the first such on ties, as scikit-learn's), and stops at
// the depth, at one point or at labels all equal.
func bvTreeFit(x, y []float64, depth int) *bvTree {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	xs, ys := make([]float64, len(x)), make([]float64, len(x))
	for i, k := range idx {
		xs[i], ys[i] = x[k], y[k]
	}
	t := &bvTree{}
	t.grow(xs, ys, depth)
	return t
}

func (t *bvTree) grow(xs, ys []float64, depth int) int {
	node := len(t.value)
	n := float64(len(ys))
	var sum, sq float64
	for _, v := range ys {
		sum += v
		sq += v * v
	}
	t.threshold = append(t.threshold, 0)
	t.value = append(t.value, sum/n)
	t.left = append(t.left, -1)
	t.right = append(t.right, -1)
	if depth == 0 || len(ys) < 2 || sq/n-(sum/n)*(sum/n) <= 0x1p-52 {
		return node
	}
	best, bestAt := math.Inf(-1), -1
	var ls float64
	for i := 0; i < len(ys)-1; i++ {
		ls += ys[i]
		if xs[i+1] <= xs[i] {
			continue
		}
		nl, nr := float64(i+1), n-float64(i+1)
		rs := sum - ls
		// the squared error left is sq − ls²/nl − rs²/nr: maximise the rest
		if gain := ls*ls/nl + rs*rs/nr; gain > best {
			best, bestAt = gain, i
		}
	}
	if bestAt < 0 {
		return node
	}
	th := (xs[bestAt] + xs[bestAt+1]) / 2
	if th == xs[bestAt+1] { // rounding: keep the right point on the right
		th = xs[bestAt]
	}
	t.threshold[node] = th
	l := t.grow(xs[:bestAt+1], ys[:bestAt+1], depth-1)
	r := t.grow(xs[bestAt+1:], ys[bestAt+1:], depth-1)
	t.left[node], t.right[node] = l, r
	return node
}

func (t *bvTree) predict(z []float64) []float64 {
	out := make([]float64, len(z))
	for j, q := range z {
		i := 0
		for t.left[i] >= 0 {
			if q <= t.threshold[i] {
				i = t.left[i]
			} else {
				i = t.right[i]
			}
		}
		out[j] = t.value[i]
	}
	return out
}

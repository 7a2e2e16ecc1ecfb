package linear

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// LeastSquares is least-squares linear regression (Shewchuk, Concise Machine Learning, lecture 10 "least-squares
// linear regression", 11 polynomial and weighted least squares, 22 the
// pseudoinverse): it minimises Σ ωᵢ (yᵢ − xᵢ·w − b)² with the sample weights ωᵢ
// of Train.Weights (all 1 when nil).
//
// The normal equations XᵀΩX w = XᵀΩy are solved on centred data (so the
// intercept b is unpenalised and computed as ȳ − x̄·w) by a Cholesky
// factorisation, the fast path. When XᵀΩX is singular or ill-conditioned, or
// when Solver is "pinv", w = X⁺y from the SVD X = UDVᵀ (X⁺ = VD⁺Uᵀ, Shewchuk lecture 22), the
// minimum-norm solution of the normal equations; Warnings says when that
// happened.
type LeastSquares struct {
	// Solver is "normal" (Cholesky of XᵀX, falling back to the pseudo-inverse
	// when that is singular or ill-conditioned) or "pinv" (always the SVD).
	Solver string
	// NoIntercept fits a line through the origin (no centring).
	NoIntercept bool
	// Degree expands the features into every monomial of degree 1..Degree
	// (Shewchuk lecture 11, polynomial regression) before fitting; 1 is plain linear.
	Degree int

	lsqModel // with Degree > 1, names and coef are per monomial

	solver string // the solver actually used
	rank   int
}

// lsqModel is the fitted state of the least-squares models (LeastSquares,
// Ridge, Lasso, Stepwise): the prediction x·coef + icept, x lifted first
// when the model has a lift.
type lsqModel struct {
	engine.FitState
	names    []string // one per coefficient
	coef     []float64
	icept    float64
	warnings []string
	lift     *lifted // nil: none
}

// lsqTrain is how the least-squares models' fits begin: the rows checked
// (engine.CheckTrain, errors naming model; their values are checked as
// the solve reads them), lifted to the monomials of degree 1..degree
// (liftTrain, standardised with scale), and the context looked at before
// the solve.
func lsqTrain(ctx context.Context, d engine.Train, model string, degree int, scale bool) (engine.Train, *lifted, error) {
	if err := engine.CheckTrain(d, model, false); err != nil {
		return d, nil, err
	}
	d, lift, err := liftTrain(d, degree, scale, model)
	if err != nil {
		return d, nil, err
	}
	return d, lift, ctx.Err()
}

// publish makes a closed-form fit (names, coef, icept, warnings, lift) the
// model's and reports it as the fit's one step s: published first, so that
// the recorder can predict from it.
func (m *lsqModel) publish(ctx context.Context, rec engine.Recorder, fit lsqModel, s engine.Step) error {
	m.names, m.coef, m.icept, m.warnings, m.lift = fit.names, fit.coef, fit.icept, fit.warnings, fit.lift
	m.Fitted = true
	if err := rec.Step(s); err != nil {
		return err
	}
	// A recorder may cancel without returning the error itself.
	return ctx.Err()
}

// lsqMaxCond is the largest estimated condition number of the equilibrated
// XᵀX that the normal equations are trusted with: they lose about log10(cond)
// of the 16 digits, so past 1e10 we switch to the SVD, which loses only half
// as many.
const lsqMaxCond = 1e10

// lsqMaxTerms bounds the number of polynomial terms, and lsqMaxCells the size
// of the expanded matrix, so that a degree typed by mistake cannot exhaust
// memory.
const (
	lsqMaxTerms = 3000
	lsqMaxCells = 40_000_000
)

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "linear",
		Title:    "least squares",
		Family:   "linear models",
		Summary:  "linear (optionally polynomial, weighted) regression by the normal equations or the pseudo-inverse",
		Notes:    "Shewchuk, Concise Machine Learning, lectures 10-11 (least squares, polynomial and weighted), 22 (pseudoinverse)",
		Tasks:    []engine.Task{datasets.Regression},
		Unit:     "fit",
		Params: []engine.Param{
			{Name: "solver", Kind: engine.Choice, Default: "normal", Choices: []string{"normal", "pinv"},
				Help: "normal: Cholesky of XᵀX (falls back to pinv when singular); pinv: SVD, minimum-norm"},
			{Name: "intercept", Kind: engine.Bool, Default: true, Help: "fit an unpenalised intercept (centre the data)"},
			{Name: "degree", Kind: engine.Int, Default: 1, Min: 1, Max: 6,
				Help:   "polynomial degree: all monomials of the features up to this degree, unscaled",
				Detail: "The other linear models call it lift, and standardise the monomials."},
		},
		Bench: []engine.BenchCase{{Name: "linreg", Data: "reg_100k_50", Task: datasets.Regression}},
		// The polynomial terms of every row, and their Gram matrix.
		Memory: func(s engine.Shape, v engine.Values) engine.Need {
			terms := polyTerms(s.Cols, v.Int("degree"))
			need := engine.Matrix(terms+1, terms+1, "Gram matrix").Times(2)
			if v.Int("degree") > 1 {
				need = need.Plus(engine.Matrix(s.Rows, terms, "matrix of polynomial terms"))
			}
			return need
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &LeastSquares{Solver: v.String("solver"), NoIntercept: !v.Bool("intercept"), Degree: v.Int("degree")}, nil
		},
	})
}

// Fit implements engine.Model. It reports one step whose TrainLoss is the
// (weighted) training mean squared error, with a LeastSquaresFit: whether
// the SVD was used and the numerical rank found.
func (m *LeastSquares) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	solver, deg := m.Solver, m.Degree
	if deg > 1 {
		n, p := d.X.Dims()
		if terms := polyTerms(p, deg); terms > lsqMaxTerms {
			return engine.Limitf("linear: degree %d on %d features makes more than %d terms; lower the degree or use fewer features", deg, p, lsqMaxTerms)
		} else if n*terms > lsqMaxCells {
			return engine.Limitf("linear: degree %d on %d rows makes a %d x %d matrix, too large; lower the degree or use fewer rows or features",
				deg, n, n, terms)
		}
	}
	// Least squares is invariant to the columns' scales (the normal
	// equations are equilibrated): the monomials are fitted as they are, so
	// that the coefficients are the polynomial's.
	d, lift, err := lsqTrain(ctx, d, "linear", deg, false)
	if err != nil {
		return err
	}
	names := lsqFeatureNames(d)
	f, err := lsqFitLS(d.X, d.Y, d.Weights, !m.NoIntercept, solver == "pinv", names)
	if errors.Is(err, errLsqNonFinite) {
		return lsqNonFinite(d, "linear")
	}
	if err != nil {
		return fmt.Errorf("linear: %w", err)
	}
	m.solver, m.rank = f.solver, f.rank
	return m.publish(ctx, rec, lsqModel{names: names, coef: f.coef, icept: f.icept, warnings: f.warnings, lift: lift},
		engine.Step{Step: 1, Total: 1, TrainLoss: f.mse, Detail: LeastSquaresFit{Pinv: f.solver == "pinv", Rank: f.rank}})
}

// Predict implements engine.Model.
func (m *LeastSquares) Predict(X mat.Matrix) ([]float64, error) { return m.predict("linear", X) }

// Coefficients implements engine.Coefficienter. With Degree > 1 the features
// are the monomials, named like "bmi^2" and "age*bmi".
func (m *LeastSquares) Coefficients() engine.Coefficients { return m.coefficients() }

// SolverUsed reports the solver the last fit used: "normal" or "pinv".
func (m *LeastSquares) SolverUsed() string { return m.solver }

// Rank is the numerical rank of the (centred) design found by the last fit.
func (m *LeastSquares) Rank() int { return m.rank }

// Warnings lists what a person should know about the last fit, such as a
// fall-back to the pseudo-inverse; nil when there is nothing to say.
func (m *LeastSquares) Warnings() []string { return m.warnings }

// lsqFit is the result of a least-squares solve.
type lsqFit struct {
	coef     []float64
	icept    float64
	mse      float64 // weighted training mean squared error
	solver   string
	rank     int
	warnings []string
}

// lsqFitLS fits (weighted) least squares on all the columns of X: the
// equilibrated normal equations first unless forcePinv, then the SVD. X and y
// must be finite (see engine.CheckTrain); errLsqNonFinite says they are not.
func lsqFitLS(X *mat.Dense, y, w []float64, intercept, forcePinv bool, names []string) (*lsqFit, error) {
	n, p := X.Dims()
	var warn []string
	switch {
	case forcePinv:
	case n <= p && intercept || n < p:
		warn = append(warn, fmt.Sprintf("%d rows for %d coefficients: the normal equations are singular; used the pseudo-inverse (minimum-norm solution)", n, lsqNumCoef(p, intercept)))
	default:
		g, mu, ybar, sumw := lsqAugGram(X, y, w, nil, intercept)
		if !lsqGramFinite(g) {
			return nil, errLsqNonFinite
		}
		c, cond, why := lsqCholSolve(g, nil, 0)
		if c != nil {
			return &lsqFit{coef: c, icept: lsqIntercept(mu, ybar, c), mse: lsqGramRSS(g, nil, c) / sumw,
				solver: "normal", rank: p}, nil
		}
		switch {
		case why >= 0:
			warn = append(warn, fmt.Sprintf("feature %q is constant: the normal equations are singular; used the pseudo-inverse (minimum-norm solution, its weight is 0)", names[why]))
		case math.IsInf(cond, 1):
			warn = append(warn, "XᵀX is singular (features are linearly dependent); used the pseudo-inverse (minimum-norm solution)")
		default:
			warn = append(warn, fmt.Sprintf("XᵀX is ill-conditioned (condition number %.2g); used the pseudo-inverse", cond))
		}
	}
	if err := checkFinite(X, nil); err != nil {
		return nil, errLsqNonFinite
	}
	mu, ybar, sumw := lsqMoments(X, y, w, nil, intercept)
	c, rank, err := lsqPinvSolve(X, y, w, nil, mu, ybar, 0)
	if err != nil {
		return nil, err
	}
	if rank < p && len(warn) == 0 {
		warn = append(warn, fmt.Sprintf("the design has rank %d < %d features: the solution is the minimum-norm one", rank, p))
	}
	icept := lsqIntercept(mu, ybar, c)
	rss := lsqRSS(X, y, w, c, icept)
	if math.IsInf(rss, 0) {
		return nil, errLsqNonFinite
	}
	return &lsqFit{coef: c, icept: icept, mse: rss / sumw, solver: "pinv", rank: rank, warnings: warn}, nil
}

// errLsqNonFinite is returned by fits that met a NaN, an Inf or an overflow
// in the data; Fit explains it with lsqNonFinite.
var errLsqNonFinite = errors.New("non-finite data")

func lsqNumCoef(p int, intercept bool) int {
	if intercept {
		return p + 1
	}
	return p
}

// lsqFeatureNames returns Train.Features, or x1..xp when they are missing.
func lsqFeatureNames(d engine.Train) []string {
	p := d.Cols()
	if len(d.Features) == p {
		return d.Features
	}
	names := make([]string, p)
	for j := range names {
		names[j] = fmt.Sprintf("x%d", j+1)
	}
	return names
}

// lsqMoments returns the weighted column means of the rows of X (all rows when
// rows is nil), the weighted mean of y and the sum of the weights. Without an
// intercept the means are zero: nothing is centred.
func lsqMoments(X *mat.Dense, y, w []float64, rows []int, intercept bool) (mu []float64, ybar, sumw float64) {
	n, p := X.Dims()
	mu = make([]float64, p)
	count := n
	if rows != nil {
		count = len(rows)
	}
	for k := 0; k < count; k++ {
		i := k
		if rows != nil {
			i = rows[k]
		}
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		sumw += wi
		if intercept && wi != 0 {
			floats.AddScaled(mu, wi, X.RawRowView(i))
			ybar += wi * y[i]
		}
	}
	if intercept && sumw > 0 {
		floats.Scale(1/sumw, mu)
		ybar /= sumw
	}
	return mu, ybar, sumw
}

// lsqIntercept is b = ȳ − x̄·w, the intercept of a fit on centred data.
func lsqIntercept(mu []float64, ybar float64, c []float64) float64 {
	return ybar - floats.Dot(mu, c)
}

// lsqGramBlock is the number of rows centred into the buffer that the Gram
// kernel reads; small enough for the buffer (64 rows of 8-aligned columns)
// to stay in the L1 cache while the kernel's tiles sweep it.
const lsqGramBlock = 64

// lsqAugGram returns, in one pass over X, the (p+1)x(p+1) Gram matrix AᵀA of
// the augmented design A = Ω^½ [X − 1x̄ᵀ, y − ȳ1] over rows (all rows when
// nil), whose top-left block is XᵀΩX, last column XᵀΩy and corner yᵀΩy, all
// centred; and the weighted means x̄ and ȳ and the total weight. Without an
// intercept nothing is centred (the means are 0).
//
// Rows are copied block by block into a small buffer, shifted by the mean of
// the first rows (a cheap estimate of x̄), and the exact centring is applied
// at the end: Σω(x−x̄)(x−x̄)ᵀ = Σω(x−c)(x−c)ᵀ − Ω(x̄−c)(x̄−c)ᵀ. The shift keeps
// the correction small, so it loses no accuracy, and X is read only once and
// never copied whole. A NaN or Inf in the data shows up on the diagonal (see
// lsqGramFinite), so X need not be scanned beforehand.
func lsqAugGram(X *mat.Dense, y, w []float64, rows []int, intercept bool) (g *mat.SymDense, mu []float64, ybar, sumw float64) {
	n, p := X.Dims()
	q := p + 1
	count := n
	if rows != nil {
		count = len(rows)
	}
	at := func(k int) int {
		if rows != nil {
			return rows[k]
		}
		return k
	}
	shift := make([]float64, q)
	if intercept && count > 0 {
		m := min(count, 64)
		for k := 0; k < m; k++ {
			i := at(k)
			floats.Add(shift[:p], X.RawRowView(i))
			shift[p] += y[i]
		}
		floats.Scale(1/float64(m), shift)
	}
	// The block and the Gram are padded to the kernel's stride (zeros).
	ld := kernel.Pad(q)
	cp := make([]float64, ld*ld)
	sum := make([]float64, q) // Σ ω (x − shift), Σ ω (y − shift)
	buf := make([]float64, lsqGramBlock*ld)
	for start := 0; start < count; start += lsqGramBlock {
		m := min(lsqGramBlock, count-start)
		for r := 0; r < m; r++ {
			i := at(start + r)
			wi := 1.0
			if w != nil {
				wi = w[i]
			}
			sumw += wi
			s := math.Sqrt(wi)
			dst := buf[r*ld : r*ld+q]
			src := X.RawRowView(i)
			for j, v := range src {
				dst[j] = s * (v - shift[j])
			}
			dst[p] = s * (y[i] - shift[p])
			if intercept {
				floats.AddScaled(sum, s, dst)
			}
		}
		kernel.SyrkUpper(cp, ld, buf[:m*ld], ld, m, q)
	}
	c := make([]float64, q*q)
	for a := 0; a < q; a++ {
		copy(c[a*q+a:a*q+q], cp[a*ld+a:a*ld+q])
	}
	mu = make([]float64, p)
	if intercept && sumw > 0 {
		delta := sum
		floats.Scale(1/sumw, delta)
		for a := 0; a < q; a++ {
			for b := a; b < q; b++ {
				c[a*q+b] -= sumw * delta[a] * delta[b]
			}
		}
		floats.AddTo(mu, shift[:p], delta[:p])
		ybar = shift[p] + delta[p]
	}
	return mat.NewSymDense(q, c), mu, ybar, sumw
}

// lsqGramFinite reports whether the diagonal of the Gram g (the centred sums
// of squares of every column) is finite: false when the data hold a NaN or
// an Inf, or values whose squares overflow.
func lsqGramFinite(g *mat.SymDense) bool {
	for j := 0; j < g.SymmetricDim(); j++ {
		if v := g.At(j, j); math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// lsqNonFinite explains a sum of squares that is not finite: the NaN or Inf
// in X (row and feature), or else values too large to square.
func lsqNonFinite(d engine.Train, model string) error {
	if err := checkFinite(d.X, d.Features); err != nil {
		return fmt.Errorf("%s: %w", model, err)
	}
	return fmt.Errorf("%s: the features' sums of squares overflow; rescale (standardise) the features", model)
}

// lsqCholSolve solves (G_SS + αI) c = G_Sy for the columns idx (all when nil)
// of the augmented Gram g. The system is equilibrated to unit diagonal first
// (so the condition estimate ignores the features' units). It returns nil
// when the system is not positive definite or its condition estimate exceeds
// lsqMaxCond; then constant >= 0 is the position in idx of a constant column
// (zero diagonal), else -1, and cond the estimate (+Inf when singular).
func lsqCholSolve(g *mat.SymDense, idx []int, alpha float64) (c []float64, cond float64, constant int) {
	q := g.SymmetricDim()
	p := q - 1
	if idx == nil {
		idx = make([]int, p)
		for j := range idx {
			idx[j] = j
		}
	}
	k := len(idx)
	d := make([]float64, k)
	for a, j := range idx {
		v := g.At(j, j) + alpha
		if !(v > 0) {
			return nil, math.Inf(1), a
		}
		d[a] = 1 / math.Sqrt(v)
	}
	s := mat.NewSymDense(k, nil)
	rhs := mat.NewVecDense(k, nil)
	for a, i := range idx {
		for b := a; b < k; b++ {
			v := g.At(i, idx[b])
			if a == b {
				v += alpha
			}
			s.SetSym(a, b, d[a]*v*d[b])
		}
		rhs.SetVec(a, d[a]*g.At(i, p))
	}
	var chol mat.Cholesky
	if !chol.Factorize(s) {
		return nil, math.Inf(1), -1
	}
	if cond = chol.Cond(); cond > lsqMaxCond {
		return nil, cond, -1
	}
	z := mat.NewVecDense(k, nil)
	if err := chol.SolveVecTo(z, rhs); err != nil {
		return nil, cond, -1
	}
	c = make([]float64, k)
	for a := range c {
		c[a] = d[a] * z.AtVec(a)
	}
	return c, cond, -1
}

// lsqGramRSS is the residual sum of squares ‖y − Xc‖² (centred, weighted) of
// coefficients c on the columns idx (all when nil), read off the augmented
// Gram: yᵀy − 2cᵀXᵀy + cᵀXᵀXc. Its rounding error is about 1e-16·yᵀy, far
// below what a loss chart shows; it is clamped at 0.
func lsqGramRSS(g *mat.SymDense, idx []int, c []float64) float64 {
	p := g.SymmetricDim() - 1
	at := func(a int) int {
		if idx == nil {
			return a
		}
		return idx[a]
	}
	rss := g.At(p, p)
	for a, ca := range c {
		i := at(a)
		rss -= 2 * ca * g.At(i, p)
		quad := ca * g.At(i, i)
		for b := a + 1; b < len(c); b++ {
			quad += 2 * c[b] * g.At(i, at(b))
		}
		rss += ca * quad
	}
	return max(rss, 0)
}

// lsqCentred copies the columns idx (all when nil) of the rows of X, centred
// by mu and scaled by √ω, and likewise y.
func lsqCentred(X *mat.Dense, y, w []float64, idx []int, mu []float64, ybar float64) (*mat.Dense, []float64) {
	n, p := X.Dims()
	if idx == nil {
		idx = make([]int, p)
		for j := range idx {
			idx[j] = j
		}
	}
	a := mat.NewDense(n, len(idx), nil)
	b := make([]float64, n)
	for i := 0; i < n; i++ {
		s := 1.0
		if w != nil {
			s = math.Sqrt(w[i])
		}
		src, dst := X.RawRowView(i), a.RawRowView(i)
		for c, j := range idx {
			dst[c] = s * (src[j] - mu[j])
		}
		b[i] = s * (y[i] - ybar)
	}
	return a, b
}

// lsqPinvSolve is w = A⁺b = VD⁺Uᵀb (Shewchuk lecture 22) for the centred, weighted columns
// idx (all when nil) of X: the minimum-norm least-squares solution. Singular
// values below max(n, k)·ε·s₁ count as zero, as numpy's lstsq does. With
// alpha > 0 it is the ridge solution V diag(sᵢ/(sᵢ²+α)) Uᵀb instead (again
// without the numerically zero singular values). It returns the coefficients and the numerical
// rank.
func lsqPinvSolve(X *mat.Dense, y, w []float64, idx []int, mu []float64, ybar, alpha float64) ([]float64, int, error) {
	a, b := lsqCentred(X, y, w, idx, mu, ybar)
	n, k := a.Dims()
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, 0, fmt.Errorf("the singular value decomposition of the %d x %d design did not converge", n, k)
	}
	coef := make([]float64, k)
	s := svd.Values(nil)
	if len(s) == 0 || !(s[0] > 0) {
		return coef, 0, nil // every column is constant: the weights are all 0
	}
	tol := float64(max(n, k)) * 0x1p-52 * s[0]
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	z := mat.NewVecDense(len(s), nil)
	z.MulVec(u.T(), mat.NewVecDense(n, b))
	rank := 0
	for i, si := range s {
		if si > tol {
			rank++
		}
		switch {
		case si <= tol:
			z.SetVec(i, 0) // numerically zero: its direction is rounding noise
		case alpha > 0:
			z.SetVec(i, z.AtVec(i)*si/(si*si+alpha))
		default:
			z.SetVec(i, z.AtVec(i)/si)
		}
	}
	mat.NewVecDense(k, coef).MulVec(&v, z)
	return coef, rank, nil
}

// lsqRSS is Σ ωᵢ (yᵢ − xᵢ·c − b)², computed from the data.
func lsqRSS(X *mat.Dense, y, w []float64, c []float64, b float64) float64 {
	n, _ := X.Dims()
	rss := 0.0
	for i := 0; i < n; i++ {
		r := y[i] - floats.Dot(X.RawRowView(i), c) - b
		if w != nil {
			rss += w[i] * r * r
		} else {
			rss += r * r
		}
	}
	return rss
}

// predict is X·coef + icept for a model fitted on len(coef) features; model
// names it in errors.
func (m *lsqModel) predict(model string, X mat.Matrix) ([]float64, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	D, err := m.lift.input(X, len(m.coef), m.names, model)
	if err != nil {
		return nil, err
	}
	n, _ := D.Dims()
	out := make([]float64, n)
	for i := range out {
		out[i] = floats.Dot(D.RawRowView(i), m.coef) + m.icept
	}
	return out, nil
}

// coefficients packs the coefficients for engine.Coefficienter.
func (m *lsqModel) coefficients() engine.Coefficients {
	if !m.Fitted {
		return engine.Coefficients{}
	}
	return engine.Coefficients{
		Features:  append([]string(nil), m.names...),
		Outputs:   []string{"y"},
		Weights:   mat.NewDense(1, len(m.coef), append([]float64(nil), m.coef...)),
		Intercept: []float64{m.icept},
	}
}

// inputs is the number of features the model reads.
func (m *LeastSquares) inputs() int {
	if m.lift != nil {
		return m.lift.inputs
	}
	return len(m.coef)
}

package linear

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Lasso is the lasso (Tibshirani 1996; Shewchuk, Concise Machine Learning, lecture 13 "LASSO"; Hocking, CS499 Optimization Algorithms for ML, sections 18-21
// for the L1 optimality conditions), in scikit-learn's convention:
//
//	min over w, b of  (1/2n) Σ ωᵢ (yᵢ − xᵢ·w − b)² + α‖w‖₁
//
// with the weights ω rescaled to sum to n and the intercept b unpenalised.
// Shewchuk's lecture names subgradient descent, LARS and forward stagewise as solvers;
// this is cyclic coordinate descent (Friedman, Hastie & Tibshirani 2010, the
// algorithm scikit-learn uses), where each coordinate is set exactly by the
// soft-threshold of the optimality condition ∂L/∂wⱼ = −α·sign(wⱼ) (the sign
// corrected: Hocking's eq. 49 prints it the other way):
//
//	wⱼ ← S(xⱼ·rⱼ, nα) / ‖xⱼ‖²,  S(z, t) = sign(z)·max(|z| − t, 0)
//
// where rⱼ is the residual without feature j. The residual vector is kept up
// to date (O(n) per coordinate) on a centred, column-major copy of X, so a
// sweep over the p coordinates costs O(np) and allocates nothing.
//
// Stopping is scikit-learn's: after a sweep whose largest weight change is
// below Tol times the largest weight (or after the last sweep), the duality
// gap is computed, and the fit stops when it is below Tol·‖y − ȳ‖²/n. A fit
// that runs out of sweeps is kept, with a warning.
type Lasso struct {
	// Alpha is the penalty α > 0 on ‖w‖₁. Features should be standardised
	// (Shewchuk, lecture 13: "normalise features first"); the evaluation does it by
	// default.
	Alpha float64
	// MaxIter is the largest number of sweeps.
	MaxIter int
	// Tol is the tolerance on the weight change and the duality gap.
	Tol float64
	// NoIntercept fits through the origin (no centring).
	NoIntercept bool
	// Lift fits on the monomials of degree 1..Lift (see lifted); <= 1: none.
	Lift int

	// gramRatio, when set, replaces lassoGramRatio: a test forces either
	// layout with it.
	gramRatio int

	lsqModel
	sweeps    int
	gap       float64
	converged bool
}

func init() {
	engine.Register(engine.Spec{
		Weighted:    true,
		Name:        "lasso",
		Title:       "lasso",
		Family:      "linear models",
		Summary:     "least squares with an L1 penalty α‖w‖₁ that sets weights to zero, by coordinate descent",
		Notes:       "Shewchuk, Concise Machine Learning, lecture 13 (LASSO); Hocking, CS499 Optimization Algorithms for ML, sections 18-21 (L1-regularised models, proximal gradient, optimality); Tibshirani 1996",
		Tasks:       []engine.Task{datasets.Regression},
		Unit:        "sweep",
		Standardize: true,
		Params: []engine.Param{
			{Name: "alpha", Kind: engine.Float, Default: 1.0, Min: 1e-8, Max: 1e8, Log: true, Simpler: engine.SimplerHigher,
				Help: "penalty α on ‖w‖₁ (objective (1/2n)‖y−Xw−b‖² + α‖w‖₁); larger: more zero weights"},
			{Name: "max_iter", Kind: engine.Int, Default: 1000, Min: 1, Max: 1e6,
				Help: "largest number of coordinate-descent sweeps"},
			{Name: "tol", Kind: engine.Float, Default: 1e-4, Min: 1e-15, Max: 1, Log: true,
				Help: "stop when the weight change and the duality gap (relative to ‖y‖²/n) are below this"},
			{Name: "intercept", Kind: engine.Bool, Default: true, Help: "fit an unpenalised intercept (centre the data)"},
			liftParam,
		},
		Bench:  []engine.BenchCase{{Name: "lasso", Data: "reg_20k_50", Task: datasets.Regression, Params: map[string]string{"alpha": "0.1"}}},
		Memory: liftMemory(gramMemory),
		New: func(v engine.Values) (engine.Model, error) {
			return &Lasso{Alpha: v.Float("alpha"), MaxIter: v.Int("max_iter"), Tol: v.Float("tol"),
				NoIntercept: !v.Bool("intercept"), Lift: v.Int("lift")}, nil
		},
	})
}

// Fit implements engine.Model. Each sweep over the coordinates is one step:
// TrainLoss is the objective, and a LassoSweep gives the number of
// non-zero weights, the largest weight change of the sweep and, on sweeps
// where it was computed, the duality gap divided by n (on the objective's
// scale).
func (m *Lasso) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	alpha, maxIter, tol := m.Alpha, m.MaxIter, m.Tol
	d, lift, err := lsqTrain(ctx, d, "lasso", m.Lift, true)
	if err != nil {
		return err
	}
	X, y := d.X, d.Y
	n, p := X.Dims()
	var cd lassoCD
	var mu []float64
	var ybar float64
	ratio := lassoGramRatio
	if m.gramRatio > 0 {
		ratio = m.gramRatio
	}
	if n >= ratio*p {
		// Many more rows than features: work with the Gram matrix, p x p,
		// built in one pass by the Gram kernel; every sweep is then O(p²)
		// instead of O(np).
		var g *mat.SymDense
		var sumw float64
		g, mu, ybar, sumw = lsqAugGram(X, y, d.Weights, nil, !m.NoIntercept)
		if !lsqGramFinite(g) {
			return lsqNonFinite(d, "lasso")
		}
		gc := newLassoGram(g, float64(n)/sumw)
		cd = gc
	} else {
		var err error
		var rc *lassoResid
		if rc, mu, ybar, err = newLassoResid(d, !m.NoIntercept); err != nil {
			return err
		}
		cd = rc
	}
	yy := cd.yy()
	if math.IsInf(yy, 0) || math.IsNaN(yy) {
		return fmt.Errorf("lasso: the target's sum of squares overflows; rescale the target")
	}
	coef := make([]float64, p)
	alphaN := alpha * float64(n)
	// Predict reads coef, which the sweeps update in place; the intercept is
	// refreshed before every step, so the recorder sees the current weights.
	m.names = append([]string(nil), lsqFeatureNames(d)...)
	m.coef, m.lift = coef, lift
	gapTol := tol * yy

	var (
		sweep     int
		gap       = math.Inf(1)
		converged bool
	)
	for sweep = 1; sweep <= maxIter; sweep++ {
		wMax, dwMax := 0.0, 0.0
		for j := 0; j < p; j++ {
			nj := cd.norm(j)
			if nj == 0 {
				continue // a constant column: its weight stays 0
			}
			old := coef[j]
			z := cd.corr(j) + old*nj // xⱼ·rⱼ, the residual without feature j
			w := 0.0
			if z > alphaN {
				w = (z - alphaN) / nj
			} else if z < -alphaN {
				w = (z + alphaN) / nj
			}
			if w != old {
				cd.move(j, w-old)
				coef[j] = w
			}
			dwMax = max(dwMax, math.Abs(w-old))
			wMax = max(wMax, math.Abs(w))
		}
		rr := cd.rr(coef)
		l1 := floats.Norm(coef, 1)
		obj := rr/(2*float64(n)) + alpha*l1
		detail := LassoSweep{Nonzero: lassoNonzero(coef), MaxChange: dwMax, DualGap: math.NaN()}
		if wMax == 0 || dwMax/wMax < tol || sweep == maxIter {
			gap = lassoDualGap(cd, rr, l1, alphaN, coef)
			detail.DualGap = gap / float64(n)
			converged = gap < gapTol
		}
		if math.IsNaN(obj) || math.IsInf(obj, 0) {
			return fmt.Errorf("lasso: the objective became %v at sweep %d (%w); check the scale of the data", obj, sweep, engine.ErrDiverged)
		}
		m.icept = lsqIntercept(mu, ybar, coef)
		m.Fitted = true
		if err := rec.Step(engine.Step{Step: sweep, Total: maxIter, TrainLoss: obj, Detail: detail}); err != nil {
			return err
		}
		// A recorder may cancel without returning the error itself.
		if err := ctx.Err(); err != nil {
			return err
		}
		if converged {
			break
		}
	}
	m.sweeps = min(sweep, maxIter)
	m.gap, m.converged = gap/float64(n), converged
	m.warnings = nil
	if !converged {
		m.warnings = []string{fmt.Sprintf("lasso did not converge in %d sweeps (duality gap %.3g > tol·‖y‖²/n = %.3g); raise max_iter or tol, or standardise the features",
			maxIter, gap/float64(n), gapTol/float64(n))}
	}
	m.coef, m.icept = coef, lsqIntercept(mu, ybar, coef)
	m.Fitted = true
	return nil
}

// lassoCD is what coordinate descent needs of the data, on the objective's
// unnormalised scale ½‖r‖² + nα‖w‖₁ with r = y − Xw (centred, rows scaled
// by √(ωᵢ n/Σω) as scikit-learn does, so that the objective keeps its
// 1/(2n) form). Two layouts give it: the residual itself (lassoResid,
// O(n) a coordinate) or the Gram matrix (lassoGram, O(p) a coordinate).
type lassoCD interface {
	norm(j int) float64        // ‖xⱼ‖²
	corr(j int) float64        // xⱼ·r
	move(j int, delta float64) // wⱼ changed by delta: update r (or Gw)
	rr(w []float64) float64    // ‖r‖²
	yy() float64               // ‖y‖²
	xtr(j int) float64         // xⱼ·r, for the duality gap
	ry() float64               // r·y, for the duality gap
}

// lassoResid keeps a column-major centred copy of X and the residual.
type lassoResid struct {
	n, p  int
	xt    []float64 // p x n
	yc, r []float64
	norms []float64
}

func newLassoResid(d engine.Train, intercept bool) (*lassoResid, []float64, float64, error) {
	X, y := d.X, d.Y
	n, p := X.Dims()
	mu, ybar, sumw := lsqMoments(X, y, d.Weights, nil, intercept)
	// Rows are transposed in blocks of lassoBlock so that every column gets
	// whole cache lines written (measured 3x faster than row by row).
	c := &lassoResid{n: n, p: p, xt: make([]float64, p*n), yc: make([]float64, n), norms: make([]float64, p)}
	var (
		scale [lassoBlock]float64
		rows  [lassoBlock][]float64
	)
	for i0 := 0; i0 < n; i0 += lassoBlock {
		m := min(lassoBlock, n-i0)
		for r := 0; r < m; r++ {
			i := i0 + r
			scale[r] = 1
			if d.Weights != nil {
				scale[r] = math.Sqrt(d.Weights[i] * float64(n) / sumw)
			}
			c.yc[i] = scale[r] * (y[i] - ybar)
			rows[r] = X.RawRowView(i)
		}
		for j, mj := range mu {
			col := c.xt[j*n+i0 : j*n+i0+m]
			for r := range col {
				col[r] = scale[r] * (rows[r][j] - mj)
			}
		}
	}
	for j := range c.norms {
		col := c.xt[j*n : j*n+n]
		if c.norms[j] = floats.Dot(col, col); math.IsNaN(c.norms[j]) || math.IsInf(c.norms[j], 0) {
			return nil, nil, 0, lsqNonFinite(d, "lasso") // a NaN or Inf in X, found for free
		}
	}
	c.r = append([]float64(nil), c.yc...) // residual with w = 0
	return c, mu, ybar, nil
}

func (c *lassoResid) col(j int) []float64 { return c.xt[j*c.n : j*c.n+c.n] }
func (c *lassoResid) norm(j int) float64  { return c.norms[j] }
func (c *lassoResid) corr(j int) float64  { return floats.Dot(c.col(j), c.r) }
func (c *lassoResid) move(j int, delta float64) {
	floats.AddScaled(c.r, -delta, c.col(j))
}
func (c *lassoResid) rr([]float64) float64 { return floats.Dot(c.r, c.r) }
func (c *lassoResid) yy() float64          { return floats.Dot(c.yc, c.yc) }
func (c *lassoResid) xtr(j int) float64    { return c.corr(j) }
func (c *lassoResid) ry() float64          { return floats.Dot(c.r, c.yc) }

// lassoGram keeps G = XᵀX, b = Xᵀy and q = Gw (all centred and scaled),
// and y·y: everything coordinate descent reads, in p-space.
type lassoGram struct {
	p    int
	g    []float64 // p x p, full
	b, q []float64
	yyv  float64
	w    []float64 // the weights, as last moved
}

func newLassoGram(aug *mat.SymDense, scale float64) *lassoGram {
	p := aug.SymmetricDim() - 1
	c := &lassoGram{p: p, g: make([]float64, p*p), b: make([]float64, p), q: make([]float64, p), w: make([]float64, p)}
	for a := 0; a < p; a++ {
		for k := 0; k < p; k++ {
			c.g[a*p+k] = scale * aug.At(a, k)
		}
		c.b[a] = scale * aug.At(a, p)
	}
	c.yyv = scale * aug.At(p, p)
	return c
}

func (c *lassoGram) norm(j int) float64 { return c.g[j*c.p+j] }
func (c *lassoGram) corr(j int) float64 { return c.b[j] - c.q[j] }
func (c *lassoGram) move(j int, delta float64) {
	floats.AddScaled(c.q, delta, c.g[j*c.p:j*c.p+c.p])
	c.w[j] += delta
}

// rr is ‖y − Xw‖² = y·y − 2w·b + w·Gw.
func (c *lassoGram) rr(w []float64) float64 {
	return max(c.yyv-2*floats.Dot(w, c.b)+floats.Dot(w, c.q), 0)
}
func (c *lassoGram) yy() float64       { return c.yyv }
func (c *lassoGram) xtr(j int) float64 { return c.corr(j) }
func (c *lassoGram) ry() float64       { return c.yyv - floats.Dot(c.w, c.b) }

// lassoDualGap is the duality gap of scikit-learn's enet_coordinate_descent
// (with no L2 term), in the unnormalised scale ½‖r‖² + nα‖w‖₁: the dual point
// is the residual scaled into the dual feasible set ‖Xᵀθ‖∞ ≤ nα.
func lassoDualGap(cd lassoCD, rr, l1, alphaN float64, w []float64) float64 {
	dualNorm := 0.0
	for j := range w {
		dualNorm = max(dualNorm, math.Abs(cd.xtr(j)))
	}
	c, gap := 1.0, rr
	if dualNorm > alphaN {
		c = alphaN / dualNorm
		gap = 0.5 * (rr + rr*c*c)
	}
	return gap + alphaN*l1 - c*cd.ry()
}

// lassoGramRatio is how many times more rows than features make the Gram
// layout the faster one.
const lassoGramRatio = 2

// lassoBlock is the number of rows transposed together into the
// column-major copy.
const lassoBlock = 16

func lassoNonzero(w []float64) int {
	k := 0
	for _, v := range w {
		if v != 0 {
			k++
		}
	}
	return k
}

// Predict implements engine.Model.
func (m *Lasso) Predict(X mat.Matrix) ([]float64, error) { return m.predict("lasso", X) }

// Coefficients implements engine.Coefficienter.
func (m *Lasso) Coefficients() engine.Coefficients { return m.coefficients() }

// Sweeps is the number of coordinate-descent sweeps of the last fit.
func (m *Lasso) Sweeps() int { return m.sweeps }

// Converged reports whether the last fit met the tolerance.
func (m *Lasso) Converged() bool { return m.converged }

// DualGap is the duality gap of the last fit divided by n: an upper bound on
// how far its objective is from the optimum.
func (m *Lasso) DualGap() float64 { return m.gap }

// Warnings lists what a person should know about the last fit, such as a
// lack of convergence; nil when there is nothing to say.
func (m *Lasso) Warnings() []string { return m.warnings }

package linear

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Ridge is ridge regression, Tikhonov regularisation (Shewchuk, Concise Machine Learning, lecture 13 "Ridge
// regression"; the dual form is lecture 16): it minimises
//
//	Σ ωᵢ (yᵢ − xᵢ·w − b)² + α‖w‖²
//
// with the intercept b not penalised (Shewchuk's I′), which is
// scikit-learn's Ridge objective. The data are centred, so that b = ȳ − x̄·w,
// and the normal equations (XᵀΩX + αI) w = XᵀΩy, positive definite for α > 0,
// are solved by Cholesky. With more features than rows the dual form
// w = Xᵀ(XXᵀ + αI)⁻¹y is solved instead (lecture 16), an n x n system. If the system
// is too ill-conditioned for Cholesky (a tiny α on collinear features), the
// SVD gives w = V diag(sᵢ/(sᵢ²+α)) Uᵀy. Features should be on comparable
// scales (Shewchuk: "normalise features to equal variance"); the evaluation
// standardises them by default.
type Ridge struct {
	// Alpha is the penalty λ > 0 (the spec holds its default and range).
	// For no penalty at all use LeastSquares.
	Alpha float64
	// NoIntercept fits through the origin (no centring).
	NoIntercept bool
	// Lift fits on the monomials of degree 1..Lift (see lifted); <= 1: none.
	Lift int

	lsqModel
}

func init() {
	engine.Register(engine.Spec{
		Weighted:    true,
		Name:        "ridge",
		Title:       "ridge regression",
		Family:      "linear models",
		Summary:     "least squares with an L2 penalty α‖w‖² that shrinks the weights (intercept unpenalised)",
		Notes:       "Shewchuk, Concise Machine Learning, lectures 13 (ridge regression) and 16 (dual form)",
		Tasks:       []engine.Task{datasets.Regression},
		Unit:        "fit",
		Standardize: true,
		Params: []engine.Param{
			{Name: "alpha", Kind: engine.Float, Default: 1.0, Min: 1e-8, Max: 1e8, Log: true, Simpler: engine.SimplerHigher,
				Help: "penalty λ on ‖w‖² (larger: smaller weights, more bias, less variance)"},
			{Name: "intercept", Kind: engine.Bool, Default: true, Help: "fit an unpenalised intercept (centre the data)"},
			liftParam,
		},
		Bench:  []engine.BenchCase{{Name: "ridge", Data: "reg_100k_50", Task: datasets.Regression, Params: map[string]string{"alpha": "1"}}},
		Memory: liftMemory(gramMemory),
		New: func(v engine.Values) (engine.Model, error) {
			return &Ridge{Alpha: v.Float("alpha"), NoIntercept: !v.Bool("intercept"), Lift: v.Int("lift")}, nil
		},
	})
}

// Fit implements engine.Model. It reports one step whose TrainLoss is the
// (weighted) training mean squared error, with a RidgeFit holding the
// penalised objective Σ ωᵢrᵢ² + α‖w‖².
func (m *Ridge) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	alpha := m.Alpha
	d, lift, err := lsqTrain(ctx, d, "ridge", m.Lift, true)
	if err != nil {
		return err
	}
	X, y, w := d.X, d.Y, d.Weights
	n, p := X.Dims()
	intercept := !m.NoIntercept
	var (
		coef, mu   []float64
		ybar, sumw float64
		rss        float64
		warn       []string
	)
	if p > n {
		if err := checkFinite(X, d.Features); err != nil {
			return fmt.Errorf("ridge: %w", err)
		}
		mu, ybar, sumw = lsqMoments(X, y, w, nil, intercept)
		coef = lsqRidgeDual(X, y, w, mu, ybar, alpha)
	} else {
		var g *mat.SymDense
		g, mu, ybar, sumw = lsqAugGram(X, y, w, nil, intercept)
		if !lsqGramFinite(g) {
			return lsqNonFinite(d, "ridge")
		}
		var cond float64
		if coef, cond, _ = lsqCholSolve(g, nil, alpha); coef != nil {
			rss = lsqGramRSS(g, nil, coef)
		} else {
			warn = append(warn, fmt.Sprintf("XᵀX + αI is ill-conditioned (condition number %.2g); solved by the SVD", cond))
		}
	}
	if coef == nil {
		var err error
		if coef, _, err = lsqPinvSolve(X, y, w, nil, mu, ybar, alpha); err != nil {
			return fmt.Errorf("ridge: %w", err)
		}
	}
	icept := lsqIntercept(mu, ybar, coef)
	if rss == 0 {
		rss = lsqRSS(X, y, w, coef, icept)
	}
	obj := rss + alpha*floats.Dot(coef, coef)
	names := append([]string(nil), lsqFeatureNames(d)...)
	return m.publish(ctx, rec, lsqModel{names: names, coef: coef, icept: icept, warnings: warn, lift: lift},
		engine.Step{Step: 1, Total: 1, TrainLoss: rss / sumw, Detail: RidgeFit{Objective: obj}})
}

// lsqRidgeDual solves ridge in the dual (Shewchuk lecture 16): a = (AAᵀ + αI)⁻¹b and w = Aᵀa,
// with A and b the centred, weighted design and target; n x n instead of
// p x p. It returns nil if Cholesky fails, so the SVD takes over.
func lsqRidgeDual(X *mat.Dense, y, w, mu []float64, ybar, alpha float64) []float64 {
	a, b := lsqCentred(X, y, w, nil, mu, ybar)
	n, p := a.Dims()
	k := mat.NewSymDense(n, nil)
	k.SymOuterK(1, a)
	for i := 0; i < n; i++ {
		k.SetSym(i, i, k.At(i, i)+alpha)
	}
	var chol mat.Cholesky
	if !chol.Factorize(k) || chol.Cond() > lsqMaxCond {
		return nil
	}
	var dual mat.VecDense
	if err := chol.SolveVecTo(&dual, mat.NewVecDense(n, b)); err != nil {
		return nil
	}
	coef := make([]float64, p)
	mat.NewVecDense(p, coef).MulVec(a.T(), &dual)
	return coef
}

// Predict implements engine.Model.
func (m *Ridge) Predict(X mat.Matrix) ([]float64, error) { return m.predict("ridge", X) }

// Coefficients implements engine.Coefficienter.
func (m *Ridge) Coefficients() engine.Coefficients { return m.coefficients() }

// Warnings lists what a person should know about the last fit; nil when
// there is nothing to say.
func (m *Ridge) Warnings() []string { return m.warnings }

package gda

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// LDA is linear discriminant analysis: one Gaussian per class, all sharing a
// covariance Σ, so the Bayes rule argmax_k μ_kᵀΣ⁻¹x - ½μ_kᵀΣ⁻¹μ_k + ln π_k
// draws linear boundaries (Shewchuk, Concise Machine Learning, lecture 7 "LDA" and 9 "Anisotropic
// Gaussians"; priors and losses from lecture 6). Σ is the pooled within-class
// covariance Σ = (1/n) Σ_k Σ_{i∈k} (x_i-μ_k)(x_i-μ_k)ᵀ, Shewchuk's MLE; with
// empirical priors this is scikit-learn's solver="lsqr", and with
// Estimator "unbiased" (divide by n-k) its default solver="svd". The pooled
// covariance does not depend on Priors (unlike scikit-learn's lsqr solver
// with given priors, which weights the class covariances by them).
//
// A singular Σ (a feature constant within every class, collinear features,
// fewer rows than features) is handled as Shewchuk suggests, by removing its
// zero-variance eigen-directions: Σ⁻¹ becomes the pseudo-inverse over the
// eigen-directions of the within-class correlation matrix whose eigenvalue
// exceeds 1e-8, scikit-learn's svd tolerance. The step's LDAFit reports how
// many were kept.
//
// Reg shrinks the covariance toward a multiple of the identity with the same
// trace, Σ ← (1-α)Σ + α·(tr Σ/d)·I, which is scikit-learn's shrinkage=α.
type LDA struct {
	Priors    string  // "empirical" (n_k/n) or "uniform"
	Estimator string  // "mle" (divide by n) or "unbiased" (divide by n-k)
	Reg       float64 // shrinkage α in [0, 1]; 0 is none
	Decision  string  // "map" or "risk"
	Loss      string  // loss matrix for Decision "risk" (see ParseLoss); "" is the 0-1 loss

	fitted
	cov       *mat.SymDense
	coef      *mat.Dense // k x d, row k = Σ⁻¹μ_k (zero for an absent class)
	intercept []float64  // -½μ_kᵀΣ⁻¹μ_k + ln π_k (-Inf for an absent class)
}

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "lda",
		Title:    "linear discriminant analysis",
		Family:   family,
		Summary:  "Gaussian classes sharing one covariance: linear boundaries, posterior probabilities",
		Notes:    "Shewchuk, Concise Machine Learning, lectures 6 (decision theory), 7 and 9 (LDA); Verma, COMS 4771 notes, Basics and MLE",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "fit",
		Params: []engine.Param{
			priorsParam(),
			estimatorParam("n (the MLE)", "n - k"),
			{Name: "reg", Kind: engine.Float, Default: 0.0, Min: 0, Max: 1, Simpler: engine.SimplerHigher,
				Help: "shrink the covariance toward (trace/d)·I: (1-reg)Σ + reg·(tr Σ/d)·I"},
			decisionParam(),
			lossParam(),
		},
		Bench: []engine.BenchCase{{Name: "lda", Data: "clf5_50k_20", Task: datasets.Classification}},
		// The pooled covariance, its decomposition and the whitened means.
		Memory: func(s engine.Shape, _ engine.Values) engine.Need {
			return engine.Matrix(s.Cols, s.Cols, "covariance").Times(3)
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &LDA{Priors: v.String("priors"), Estimator: v.String("estimator"), Reg: v.Float("reg"),
				Decision: v.String("decision"), Loss: v.String("loss")}, nil
		},
	})
}

// Fit estimates the class means, the priors and the pooled covariance.
func (m *LDA) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	*m = LDA{Priors: m.Priors, Estimator: m.Estimator, Reg: m.Reg, Decision: m.Decision, Loss: m.Loss}
	estimator := m.Estimator
	f, err := newFitted(t, m.Priors, false, m.Decision, m.Loss)
	if err != nil {
		return err
	}
	s := f.stats
	d := s.d
	S := mat.NewSymDense(d, nil)
	s.scatter(t.X, nil, S)
	denom := s.total
	if estimator == EstimatorUnbiased {
		denom -= float64(s.nPresent)
		if denom <= 0 {
			return fmt.Errorf("estimator unbiased divides by n - k = %g, which is not positive; use estimator=mle", denom)
		}
	}
	cov := mat.NewSymDense(d, nil)
	cov.ScaleSym(1/denom, S)
	if m.Reg > 0 {
		shrink(cov, m.Reg, mat.Trace(cov)/float64(d))
	}
	g, coef, intercept, err := m.discriminants(s, cov)
	if err != nil {
		return err
	}
	nll := s.priorEntropy() + 0.5*(float64(d)*ln2Pi+g.logDet) + 0.5*g.traceProd(S)/s.total
	m.fitted = f
	m.cov, m.coef, m.intercept = cov, coef, intercept
	return m.step(ctx, rec, nll, LDAFit{Rank: g.rank})
}

// discriminants factors the shared covariance and returns its factor and
// the class scores' weights and intercepts: what Fit, and loading a saved
// state, compute from the class statistics and the covariance.
func (m *LDA) discriminants(s *classStats, cov *mat.SymDense) (g gauss, coef *mat.Dense, intercept []float64, err error) {
	d := s.d
	var ref []float64
	if m.Reg == 0 {
		ref = make([]float64, d)
		for c := 0; c < s.k; c++ {
			for j, v := range s.means.RawRowView(c) {
				ref[j] = math.Max(ref[j], math.Abs(v))
			}
		}
	}
	g, err = factorCov(cov, s.features, ref, "the pooled within-class covariance", "within every class",
		"set reg > 0 (shrinkage)", true)
	if err != nil {
		return g, nil, nil, err
	}
	// coef = M Σ⁺ = M W Wᵀ.
	var mw mat.Dense
	mw.Mul(s.means, g.w)
	coef = mat.NewDense(s.k, d, nil)
	coef.Mul(&mw, g.w.T())
	intercept = make([]float64, s.k)
	for c := 0; c < s.k; c++ {
		if !s.present[c] {
			coef.SetRow(c, make([]float64, d))
			intercept[c] = math.Inf(-1)
			continue
		}
		intercept[c] = -0.5*mat.Dot(coef.RowView(c), s.means.RowView(c)) + s.logPrior[c]
	}
	return g, coef, intercept, nil
}

// joint returns the class scores μ_kᵀΣ⁻¹x - ½μ_kᵀΣ⁻¹μ_k + ln π_k: the joint
// log density ln π_k p(x|k) up to a term that is the same for every class.
func (m *LDA) joint(X mat.Matrix) (*mat.Dense, error) {
	D, err := m.fitted.input(X)
	if err != nil {
		return nil, err
	}
	n, _ := D.Dims()
	J := mat.NewDense(n, m.fitted.stats.k, nil)
	J.Mul(D, m.coef.T())
	for i := 0; i < n; i++ {
		row := J.RawRowView(i)
		for c, b := range m.intercept {
			row[c] += b
		}
	}
	return J, nil
}

// Predict returns class codes: the MAP class or the minimum-risk class.
func (m *LDA) Predict(X mat.Matrix) ([]float64, error) {
	return m.fitted.predict(m.joint(X))
}

// DecisionFunction returns the log posteriors ln P(k|x) (n x classes).
func (m *LDA) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return logPosteriors(m.joint(X))
}

// PredictProba returns the posteriors P(k|x) (n x classes).
func (m *LDA) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	return posteriors(m.joint(X))
}

// Coefficients returns the linear discriminants, one row per class seen in
// training: w_k = Σ⁻¹μ_k and b_k = -½μ_kᵀΣ⁻¹μ_k + ln π_k, so that
// P(k|x) = softmax_k(w_kᵀx + b_k).
func (m *LDA) Coefficients() engine.Coefficients {
	s := m.fitted.stats
	if s == nil {
		return engine.Coefficients{}
	}
	out := engine.Coefficients{Features: append([]string(nil), s.features...),
		Weights: mat.NewDense(s.nPresent, s.d, nil)}
	r := 0
	for c := 0; c < s.k; c++ {
		if !s.present[c] {
			continue
		}
		out.Outputs = append(out.Outputs, s.classes[c])
		out.Weights.SetRow(r, m.coef.RawRowView(c))
		out.Intercept = append(out.Intercept, m.intercept[c])
		r++
	}
	return out
}

// Means returns the class means (classes x features); nil before Fit.
func (m *LDA) Means() *mat.Dense { return m.fitted.stats.meansCopy() }

// Covariance returns the shared covariance (after Reg); nil before Fit.
func (m *LDA) Covariance() *mat.SymDense {
	if m.cov == nil {
		return nil
	}
	c := mat.NewSymDense(m.fitted.stats.d, nil)
	c.CopySym(m.cov)
	return c
}

// PriorProbs returns the class priors used (0 for a class without rows); nil before Fit.
func (m *LDA) PriorProbs() []float64 { return m.fitted.stats.priorsCopy() }

// Classes returns the class names, in code order; nil before Fit.
func (m *LDA) Classes() []string { return m.fitted.stats.classesCopy() }

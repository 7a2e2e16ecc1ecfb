package gda

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// QDA is quadratic discriminant analysis: one Gaussian per class with its own
// covariance Σ_k, classified by argmax_k -½(x-μ_k)ᵀΣ_k⁻¹(x-μ_k) - ½ln|Σ_k| +
// ln π_k, which draws quadric boundaries (Shewchuk, Concise Machine Learning, lecture 7 "QDA" and 9
// "Anisotropic Gaussians"; priors and losses from lecture 6). Shewchuk's estimate is
// the MLE Σ_k = (1/n_k) Σ_{i∈k} (x_i-μ_k)(x_i-μ_k)ᵀ; Estimator "unbiased"
// divides by n_k - 1 as scikit-learn does.
//
// A singular Σ_k (a feature constant within the class, collinear features,
// fewer rows than features, a single row) is an error that names the class
// and the feature: an eigenvalue of the class's correlation matrix at or
// below the numerical rank tolerance d·ε·λ_max counts as zero. Reg shrinks
// each class covariance toward a multiple of the identity of the same
// size, Σ_k ← (1-r)Σ_k + r·(tr Σ_k/d)·I, as LDA's reg does for the shared
// one, so that a small r works whatever the features' units (a class whose
// covariance is zero, a single row, uses the trace of the covariance of all
// rows instead). This differs from scikit-learn's reg_param, which adds r·I
// in the features' units.
type QDA struct {
	Priors    string  // "empirical" (n_k/n) or "uniform"
	Estimator string  // "mle" (divide by n_k) or "unbiased" (divide by n_k - 1)
	Reg       float64 // r in [0, 1]: Σ_k ← (1-r)Σ_k + r·(tr Σ_k/d)·I; 0 is none
	Decision  string  // "map" or "risk"
	Loss      string  // loss matrix for Decision "risk" (see ParseLoss); "" is the 0-1 loss

	fitted
	covs     []*mat.SymDense // per class; nil for a class without rows
	warnings []string
	slot     []int      // column block of each class in w; -1 if absent
	w        *mat.Dense // d x (present·d): the W_k side by side, Σ_k⁻¹ = W_k W_kᵀ
	off      *mat.Dense // present x d: μ_kᵀ W_k
	consts   []float64  // ln π_k - ½ln|Σ_k| - ½d ln 2π per class
}

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "qda",
		Title:    "quadratic discriminant analysis",
		Family:   family,
		Summary:  "one Gaussian per class with its own covariance: quadric boundaries, posterior probabilities",
		Notes:    "Shewchuk, Concise Machine Learning, lectures 6 (decision theory), 7 and 9 (QDA); Verma, COMS 4771 notes, Basics and MLE",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "fit",
		Params: []engine.Param{
			priorsParam(),
			estimatorParam("n_k (the MLE)", "n_k - 1"),
			{Name: "reg", Kind: engine.Float, Default: 0.0, Min: 0, Max: 1, Simpler: engine.SimplerHigher,
				Help: "shrink each class covariance toward (trace/d)·I, whatever the units: (1-reg)Σ_k + reg·(tr Σ_k/d)·I"},
			decisionParam(),
			lossParam(),
		},
		Bench: []engine.BenchCase{{Name: "qda", Data: "clf5_50k_20", Task: datasets.Classification}},
		// A covariance per class and its decomposition.
		Memory: func(s engine.Shape, _ engine.Values) engine.Need {
			return engine.Matrices(max(s.Classes, 1), s.Cols, s.Cols, "class covariances").Times(2)
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &QDA{Priors: v.String("priors"), Estimator: v.String("estimator"), Reg: v.Float("reg"),
				Decision: v.String("decision"), Loss: v.String("loss")}, nil
		},
	})
}

// Fit estimates each class's mean, prior and covariance.
func (m *QDA) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	*m = QDA{Priors: m.Priors, Estimator: m.Estimator, Reg: m.Reg, Decision: m.Decision, Loss: m.Loss}
	estimator := m.Estimator
	f, err := newFitted(t, m.Priors, false, m.Decision, m.Loss)
	if err != nil {
		return err
	}
	s := f.stats
	d, k := s.d, s.k

	// Group the rows by class (a counting sort), skipping zero weights.
	start := make([]int, k+1)
	for i, c := range s.y {
		if s.w == nil || s.w[i] > 0 {
			start[c+1]++
		}
	}
	for c := 0; c < k; c++ {
		start[c+1] += start[c]
	}
	order := make([]int, start[k])
	next := append([]int(nil), start[:k]...)
	for i, c := range s.y {
		if s.w == nil || s.w[i] > 0 {
			order[next[c]] = i
			next[c]++
		}
	}

	covs := make([]*mat.SymDense, k)
	slot := make([]int, k)
	consts := make([]float64, k)
	W := mat.NewDense(d, s.nPresent*d, nil)
	off := mat.NewDense(s.nPresent, d, nil)
	nll := s.priorEntropy()
	p := 0
	for c := 0; c < k; c++ {
		slot[c] = -1
		consts[c] = math.Inf(-1)
		if !s.present[c] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rows := order[start[c]:start[c+1]]
		name := "class " + strconv.Quote(s.classes[c])
		denom := s.counts[c]
		if estimator == EstimatorUnbiased {
			denom--
			if denom <= 0 {
				return fmt.Errorf("%s has a single row: its unbiased covariance (divided by n_k - 1) is undefined; use estimator=mle with reg > 0", name)
			}
		}
		if len(rows) == 1 && m.Reg == 0 {
			return fmt.Errorf("%s has a single row, so its covariance is undefined; set reg > 0", name)
		}
		S := mat.NewSymDense(d, nil)
		s.scatter(t.X, rows, S)
		cov := mat.NewSymDense(d, nil)
		cov.ScaleSym(1/denom, S)
		if m.Reg > 0 {
			size := mat.Trace(cov) / float64(d)
			if !(size > 0) {
				size = s.totalVariance(t.X)
			}
			shrink(cov, m.Reg, size)
		}
		g, err := m.place(s, c, p, cov, W, off, consts)
		if err != nil {
			return err
		}
		frac := s.counts[c] / s.total
		nll += frac*0.5*(float64(d)*ln2Pi+g.logDet) + 0.5*g.traceProd(S)/s.total
		covs[c], slot[c] = cov, p
		p++
	}
	m.fitted = f
	m.covs, m.slot, m.w, m.off, m.consts = covs, slot, W, off, consts
	return m.step(ctx, rec, nll, nil)
}

// place factors class c's covariance, writes its W_k into column block p
// of W, μ_kᵀW_k into row p of off and its constant into consts, and notes
// a nearly singular covariance in the warnings: what Fit, and loading a
// saved state, do for every class with rows.
func (m *QDA) place(s *classStats, c, p int, cov *mat.SymDense, W, off *mat.Dense, consts []float64) (gauss, error) {
	d := s.d
	name := "class " + strconv.Quote(s.classes[c])
	var ref []float64
	if m.Reg == 0 {
		ref = make([]float64, d)
		for j, v := range s.means.RawRowView(c) {
			ref[j] = math.Abs(v)
		}
	}
	g, err := factorCov(cov, s.features, ref, name+": covariance", "within the class", "set reg > 0", false)
	if err != nil {
		return g, err
	}
	if g.cond > illConditioned {
		m.warnings = append(m.warnings, fmt.Sprintf("%s: its covariance is nearly singular (condition number %s), so its densities and posteriors are unreliable; set reg (e.g. reg=0.01) to shrink it",
			name, numfmt.Sig(g.cond, 2)))
	}
	W.Slice(0, d, p*d, (p+1)*d).(*mat.Dense).Copy(g.w)
	off.Slice(p, p+1, 0, d).(*mat.Dense).Mul(s.means.Slice(c, c+1, 0, d), g.w)
	consts[c] = s.logPrior[c] - 0.5*g.logDet - 0.5*float64(d)*ln2Pi
	return g, nil
}

// illConditioned is the condition number of a class's correlation matrix
// above which QDA warns: about a millionth of the inverse machine epsilon,
// where a few digits of the densities are left.
const illConditioned = 1e10

// Warnings names the classes whose covariance is nearly singular; nil
// when there are none.
func (m *QDA) Warnings() []string { return m.warnings }

// predictBlock is how many rows are scored per matrix product, bounding the
// n x (classes·d) workspace.
const predictBlock = 1024

// joint returns the joint log densities ln π_k N(x; μ_k, Σ_k).
func (m *QDA) joint(X mat.Matrix) (*mat.Dense, error) {
	D, err := m.fitted.input(X)
	if err != nil {
		return nil, err
	}
	n, d := D.Dims()
	k := m.fitted.stats.k
	J := mat.NewDense(n, k, nil)
	_, wc := m.w.Dims()
	Zbuf := mat.NewDense(min(predictBlock, n), wc, nil)
	for lo := 0; lo < n; lo += predictBlock {
		hi := min(lo+predictBlock, n)
		Z := Zbuf.Slice(0, hi-lo, 0, wc).(*mat.Dense)
		Z.Mul(D.Slice(lo, hi, 0, d), m.w)
		for i := lo; i < hi; i++ {
			z := Z.RawRowView(i - lo)
			row := J.RawRowView(i)
			for c := 0; c < k; c++ {
				p := m.slot[c]
				if p < 0 {
					row[c] = math.Inf(-1)
					continue
				}
				zc := z[p*d : (p+1)*d]
				oc := m.off.RawRowView(p)
				q := 0.0
				for j, v := range zc {
					t := v - oc[j]
					q += t * t
				}
				row[c] = m.consts[c] - 0.5*q
			}
		}
	}
	return J, nil
}

// Predict returns class codes: the MAP class or the minimum-risk class.
func (m *QDA) Predict(X mat.Matrix) ([]float64, error) {
	return m.fitted.predict(m.joint(X))
}

// DecisionFunction returns the log posteriors ln P(k|x) (n x classes).
func (m *QDA) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return logPosteriors(m.joint(X))
}

// PredictProba returns the posteriors P(k|x) (n x classes).
func (m *QDA) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	return posteriors(m.joint(X))
}

// LogDensity returns the joint log densities ln(π_k N(x; μ_k, Σ_k)) (n x
// classes), -Inf for a class without training rows.
func (m *QDA) LogDensity(X mat.Matrix) (*mat.Dense, error) { return m.joint(X) }

// Means returns the class means (classes x features); nil before Fit.
func (m *QDA) Means() *mat.Dense { return m.fitted.stats.meansCopy() }

// Covariances returns each class's covariance (after Reg), nil for a class
// without training rows; nil before Fit.
func (m *QDA) Covariances() []*mat.SymDense {
	if m.covs == nil {
		return nil
	}
	out := make([]*mat.SymDense, len(m.covs))
	for c, cov := range m.covs {
		if cov != nil {
			out[c] = mat.NewSymDense(m.fitted.stats.d, nil)
			out[c].CopySym(cov)
		}
	}
	return out
}

// PriorProbs returns the class priors used (0 for a class without rows); nil before Fit.
func (m *QDA) PriorProbs() []float64 { return m.fitted.stats.priorsCopy() }

// Classes returns the class names, in code order; nil before Fit.
func (m *QDA) Classes() []string { return m.fitted.stats.classesCopy() }

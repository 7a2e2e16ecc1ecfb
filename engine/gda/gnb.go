package gda

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// DefaultVarSmoothing is GaussianNB's default VarSmoothing, as scikit-learn's.
const DefaultVarSmoothing = 1e-9

// GaussianNB is Gaussian naive Bayes: the features are taken as independent
// given the class, each a 1-D Gaussian fitted by MLE (mean, variance divided
// by n_k), so the Bayes rule is argmax_k ln π_k + Σ_j ln N(x_j; μ_kj, σ²_kj)
// (Verma, COMS 4771 notes, "Naïve Bayes Classifier" and "MLE to Classification";
// Shewchuk, Concise Machine Learning, lecture 6 for priors and losses). As in scikit-learn, every variance is
// increased by VarSmoothing times the largest variance of any feature over
// the whole training set, so that a feature constant within a class does not
// give a zero variance.
type GaussianNB struct {
	Priors       string  // "empirical" (n_k/n) or "uniform"
	VarSmoothing float64 // fraction of the largest feature variance added to every variance
	Decision     string  // "map" or "risk"
	Loss         string  // loss matrix for Decision "risk" (see ParseLoss); "" is the 0-1 loss

	fitted
	vars   *mat.Dense // k x d smoothed variances (zero rows for an absent class)
	inv    *mat.Dense // k x d: 1/(2σ²)
	consts []float64  // ln π_k - ½ Σ_j ln(2π σ²_kj)
	eps    float64
}

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "gnb",
		Title:    "Gaussian naive Bayes",
		Family:   family,
		Summary:  "independent 1-D Gaussians per class and feature: fast, ignores correlations",
		Notes:    "Verma, COMS 4771 notes, Basics and MLE (naïve Bayes); Shewchuk, Concise Machine Learning, lecture 6 (decision theory)",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "fit",
		Advise:   nominalAdvice,
		Params: []engine.Param{
			priorsParam(),
			{Name: "var_smoothing", Kind: engine.Float, Default: DefaultVarSmoothing, Min: 1e-15, Max: 1, Log: true,
				Help: "add this fraction of the largest feature variance to every variance"},
			decisionParam(),
			lossParam(),
		},
		Bench: []engine.BenchCase{{Name: "gnb", Data: "clf5_50k_20", Task: datasets.Classification}},
		New: func(v engine.Values) (engine.Model, error) {
			return &GaussianNB{Priors: v.String("priors"), VarSmoothing: v.Float("var_smoothing"),
				Decision: v.String("decision"), Loss: v.String("loss")}, nil
		},
	})
}

// Fit estimates each class's prior and per-feature means and variances.
func (m *GaussianNB) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	*m = GaussianNB{Priors: m.Priors, VarSmoothing: m.VarSmoothing, Decision: m.Decision, Loss: m.Loss}
	vs := m.VarSmoothing
	f, err := newFitted(t, m.Priors, true, m.Decision, m.Loss)
	if err != nil {
		return err
	}
	s := f.stats
	d, k := s.d, s.k
	raw := s.vars
	// The largest variance of any feature over all rows, for the smoothing
	// term, by the law of total variance: Σ_k (W_k/W)(σ²_kj + (μ_kj - μ_j)²).
	mean := make([]float64, d)
	for c := 0; c < k; c++ {
		for j, v := range s.means.RawRowView(c) {
			mean[j] += s.counts[c] / s.total * v
		}
	}
	overall := make([]float64, d)
	for c := 0; c < k; c++ {
		if !s.present[c] {
			continue
		}
		frac := s.counts[c] / s.total
		for j, mu := range s.means.RawRowView(c) {
			dm := mu - mean[j]
			overall[j] += frac * (raw.At(c, j) + dm*dm)
		}
	}
	maxVar := 0.0
	for _, v := range overall {
		maxVar = math.Max(maxVar, v)
	}
	if maxVar == 0 {
		return errors.New("every feature is constant in the training data: there is nothing to learn from")
	}
	eps := vs * maxVar

	vars := mat.NewDense(k, d, nil)
	for c := 0; c < k; c++ {
		if s.present[c] {
			rv, v := raw.RawRowView(c), vars.RawRowView(c)
			for j := range rv {
				v[j] = rv[j] + eps
			}
		}
	}
	inv, consts, logDets := gaussianTerms(s, vars)
	nll := s.priorEntropy()
	for c := 0; c < k; c++ {
		if !s.present[c] {
			continue
		}
		tr := 0.0
		for j, rv := range raw.RawRowView(c) {
			tr += rv / vars.At(c, j)
		}
		nll += s.counts[c] / s.total * 0.5 * (logDets[c] + tr)
	}
	m.fitted = f
	m.vars, m.inv, m.consts, m.eps = vars, inv, consts, eps
	return m.step(ctx, rec, nll, nil)
}

// gaussianTerms is, for the (smoothed) variances of every class with rows,
// 1/(2σ²), the constant ln π_k - ½ Σ_j ln(2π σ²_kj) (-Inf for a class
// without rows) and Σ_j ln(2π σ²_kj): what Fit, and loading a saved state,
// compute from the variances.
func gaussianTerms(s *classStats, vars *mat.Dense) (inv *mat.Dense, consts, logDets []float64) {
	inv = mat.NewDense(s.k, s.d, nil)
	consts, logDets = make([]float64, s.k), make([]float64, s.k)
	for c := 0; c < s.k; c++ {
		consts[c] = math.Inf(-1)
		if !s.present[c] {
			continue
		}
		v, iv := vars.RawRowView(c), inv.RawRowView(c)
		for j := range v {
			iv[j] = 0.5 / v[j]
			logDets[c] += math.Log(2 * math.Pi * v[j])
		}
		consts[c] = s.logPrior[c] - 0.5*logDets[c]
	}
	return inv, consts, logDets
}

// joint returns the joint log densities ln π_k Π_j N(x_j; μ_kj, σ²_kj).
func (m *GaussianNB) joint(X mat.Matrix) (*mat.Dense, error) {
	D, err := m.fitted.input(X)
	if err != nil {
		return nil, err
	}
	n, _ := D.Dims()
	s := m.fitted.stats
	J := mat.NewDense(n, s.k, nil)
	for i := 0; i < n; i++ {
		x := D.RawRowView(i)
		row := J.RawRowView(i)
		for c := 0; c < s.k; c++ {
			if !s.present[c] {
				row[c] = math.Inf(-1)
				continue
			}
			mu, iv := s.means.RawRowView(c), m.inv.RawRowView(c)
			q := 0.0
			for j, v := range x {
				t := v - mu[j]
				q += t * t * iv[j]
			}
			row[c] = m.consts[c] - q
		}
	}
	return J, nil
}

// Predict returns class codes: the MAP class or the minimum-risk class.
func (m *GaussianNB) Predict(X mat.Matrix) ([]float64, error) {
	return m.fitted.predict(m.joint(X))
}

// DecisionFunction returns the log posteriors ln P(k|x) (n x classes).
func (m *GaussianNB) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return logPosteriors(m.joint(X))
}

// PredictProba returns the posteriors P(k|x) (n x classes).
func (m *GaussianNB) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	return posteriors(m.joint(X))
}

// LogDensity returns the joint log densities ln(π_k Π_j N(x_j; μ_kj, σ²_kj))
// (n x classes), -Inf for a class without training rows.
func (m *GaussianNB) LogDensity(X mat.Matrix) (*mat.Dense, error) { return m.joint(X) }

// Means returns the class means (classes x features); nil before Fit.
func (m *GaussianNB) Means() *mat.Dense { return m.fitted.stats.meansCopy() }

// Variances returns the smoothed per-class variances (classes x features);
// nil before Fit.
func (m *GaussianNB) Variances() *mat.Dense {
	if m.vars == nil {
		return nil
	}
	return mat.DenseCopyOf(m.vars)
}

// Epsilon is the variance added to every variance: VarSmoothing times the
// largest feature variance; 0 before Fit.
func (m *GaussianNB) Epsilon() float64 { return m.eps }

// PriorProbs returns the class priors used (0 for a class without rows); nil before Fit.
func (m *GaussianNB) PriorProbs() []float64 { return m.fitted.stats.priorsCopy() }

// Classes returns the class names, in code order; nil before Fit.
func (m *GaussianNB) Classes() []string { return m.fitted.stats.classesCopy() }

// Package gda holds tealab's generative classifiers: linear and quadratic
// discriminant analysis (LDA, QDA), Gaussian naive Bayes and categorical
// naive Bayes (cnb.go, for nominal features), with the decision-theory
// layer they share (MAP or minimum expected loss under a loss matrix).
//
// LDA, QDA and Gaussian naive Bayes fit one Gaussian class-conditional density P(x|k) per class by
// maximum likelihood, combine it with a class prior π_k, and classify with
// Bayes' rule (Shewchuk, Concise Machine Learning, lectures 6 decision theory, 7 and 9 Gaussian
// discriminant analysis; Verma, COMS 4771 notes, "MLE to Classification", "Naïve Bayes").
//
// Rules that hold across the package:
//   - Fit is closed-form and reports exactly one Step. Its TrainLoss is the
//     mean negative log-likelihood per row of the training data under the
//     fitted model, -(1/n) Σ_i ln(π_{y_i} N(x_i; μ_{y_i}, Σ_{y_i})), computed in
//     closed form from the class scatter matrices (no second pass over the
//     data). Densities can exceed 1, so it can be negative. (Naive Bayes uses
//     its diagonal Σ_k; LDA with dropped null directions, the density on the
//     kept subspace.)
//   - PredictProba gives the posteriors P(k|x); DecisionFunction gives their
//     natural logarithms (log posteriors, each row log-sums to zero).
//   - A class named in Train.Classes that has no training rows (it can
//     happen in a fold of cross-validation) cannot be modelled: it gets
//     posterior probability zero (log posterior -Inf) and the priors of the
//     other classes are renormalised. Fewer than two classes with rows is an
//     error.
//   - Train.Weights, when given, act as frequency weights: they weight the
//     class counts, means and covariances.
//   - Covariances are factored through their correlation matrices, so
//     features on wildly different scales are fine. A singular covariance is
//     an error for QDA, naming the class and the feature at fault and
//     suggesting reg > 0; LDA drops the null directions of its pooled
//     covariance instead (as the notes and scikit-learn's svd solver do);
//     naive Bayes smooths its variances.
package gda

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

const family = "generative models"

// Prior choices shared by the three models.
const (
	PriorsEmpirical = "empirical" // π_k = n_k / n, the MLE (Shewchuk lecture 7)
	PriorsUniform   = "uniform"   // π_k = 1 / k
)

// Covariance estimator choices for LDA and QDA.
const (
	EstimatorMLE      = "mle"      // divide the scatter by n (Shewchuk lectures 7, 9)
	EstimatorUnbiased = "unbiased" // divide by n - 1 per class (QDA) or n - k pooled (LDA), as scikit-learn
)

// collinearTol is the residual variance (as a fraction of the feature's own
// variance) under which a feature counts as a linear combination of others.
const collinearTol = 1e-10

// classStats is what every model learns first: class weights, priors and
// means, plus the validated training data.
type classStats struct {
	n, d, k  int
	classes  []string // all class names, index = class code
	features []string
	y        []int     // class code of each row
	w        []float64 // row weights; nil means all 1
	present  []bool    // the class has rows (positive weight)
	counts   []float64 // total weight per class
	total    float64   // total weight
	nPresent int
	priors   []float64 // prior per class, 0 for absent classes
	logPrior []float64 // ln prior, -Inf for absent classes
	means    *mat.Dense
	vars     *mat.Dense // per-class MLE variances (k x d), when asked for
}

// newClassStats validates the training data and computes class weights,
// priors and means (and per-class, per-feature MLE variances if wantVar), in
// one pass over the data. priors is "empirical" or "uniform".
func newClassStats(t engine.Train, priors string, wantVar bool) (*classStats, error) {
	n, d := t.X.Dims()
	if len(t.Y) != n {
		return nil, fmt.Errorf("Y has %d values for %d rows of X", len(t.Y), n)
	}
	features := t.Features
	if len(features) != d {
		if len(features) != 0 {
			return nil, fmt.Errorf("Features names %d columns, X has %d", len(features), d)
		}
		features = make([]string, d)
		for j := range features {
			features[j] = "x" + strconv.Itoa(j)
		}
	}
	k := len(t.Classes)
	y := make([]int, n)
	maxCode := -1
	for i, v := range t.Y {
		c := int(v)
		if float64(c) != v || c < 0 || (k > 0 && c >= k) {
			if k > 0 {
				return nil, fmt.Errorf("row %d: class code %v is not one of 0..%d (classes %s)", i+1, v, k-1, strings.Join(t.Classes, ", "))
			}
			return nil, fmt.Errorf("row %d: class code %v is not a non-negative whole number", i+1, v)
		}
		y[i] = c
		maxCode = max(maxCode, c)
	}
	classes := t.Classes
	if k == 0 {
		k = maxCode + 1
		classes = make([]string, k)
		for c := range classes {
			classes[c] = strconv.Itoa(c)
		}
	}
	s := &classStats{n: n, d: d, k: k, classes: classes, features: features, y: y, w: t.Weights,
		present: make([]bool, k), counts: make([]float64, k), priors: make([]float64, k),
		logPrior: make([]float64, k), means: mat.NewDense(k, d, nil)}
	// One pass: sums (and, for naive Bayes, sums of squares) of x - K_c,
	// where the shift K_c is the class's first row. Shifting keeps the
	// one-pass variance accurate when |mean| >> spread.
	shift := mat.NewDense(k, d, nil)
	var sq *mat.Dense
	if wantVar {
		sq = mat.NewDense(k, d, nil)
	}
	for i, c := range y {
		row := t.X.RawRowView(i)
		wi := 1.0
		if s.w != nil {
			wi = s.w[i]
			if wi < 0 || math.IsNaN(wi) || math.IsInf(wi, 0) {
				return nil, fmt.Errorf("row %d: weight %v is not a finite non-negative number", i+1, wi)
			}
		}
		chk := 0.0 // becomes NaN if a value is NaN or infinite
		if wi == 0 {
			for _, v := range row {
				chk += v - v
			}
		} else {
			K, mu := shift.RawRowView(c), s.means.RawRowView(c)
			if s.counts[c] == 0 {
				copy(K, row)
			}
			s.counts[c] += wi
			switch {
			case sq != nil:
				q := sq.RawRowView(c)
				for j, v := range row {
					chk += v - v
					x := v - K[j]
					mu[j] += wi * x
					q[j] += wi * x * x
				}
			case wi == 1:
				for j, v := range row {
					chk += v - v
					mu[j] += v - K[j]
				}
			default:
				for j, v := range row {
					chk += v - v
					mu[j] += wi * (v - K[j])
				}
			}
		}
		if chk != 0 {
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, badValue(i, j, v, features)
				}
			}
		}
	}
	if wantVar {
		s.vars = mat.NewDense(k, d, nil)
	}
	for c := 0; c < k; c++ {
		if s.counts[c] == 0 {
			continue
		}
		mu, K := s.means.RawRowView(c), shift.RawRowView(c)
		for j := range mu {
			dm := mu[j] / s.counts[c] // mean of x - K
			mu[j] = K[j] + dm
			if wantVar {
				s.vars.Set(c, j, math.Max(0, sq.At(c, j)/s.counts[c]-dm*dm))
			}
		}
	}
	if err := s.tally(priors); err != nil {
		return nil, err
	}
	return s, nil
}

// tally finds, from the class weights, the classes present, their total
// weight and their priors; fewer than two classes present is an error.
func (s *classStats) tally(priors string) error {
	var seen []string
	for c := 0; c < s.k; c++ {
		if s.counts[c] > 0 {
			s.present[c] = true
			s.nPresent++
			s.total += s.counts[c]
			seen = append(seen, strconv.Quote(s.classes[c]))
		}
	}
	if s.nPresent < 2 {
		if s.nPresent == 0 {
			return errors.New("no training rows with positive weight")
		}
		return fmt.Errorf("only one class (%s) in the training data; classification needs at least two", seen[0])
	}
	for c := 0; c < s.k; c++ {
		s.logPrior[c] = math.Inf(-1)
		if !s.present[c] {
			continue
		}
		switch priors {
		case PriorsUniform:
			s.priors[c] = 1 / float64(s.nPresent)
		default:
			s.priors[c] = s.counts[c] / s.total
		}
		s.logPrior[c] = math.Log(s.priors[c])
	}
	return nil
}

func badValue(i, j int, v float64, features []string) error {
	what := "missing (NaN)"
	if math.IsInf(v, 0) {
		what = "infinite"
	}
	return fmt.Errorf("row %d, feature %q: value is %s; impute or drop it first", i+1, features[j], what)
}

// blockRows is how many centred rows the scatter accumulates per rank-k
// update: d x blockRows doubles stay in L2 cache. Not a power of two: a row
// stride of 4 KiB makes the column-wise fill thrash the L1 cache (measured
// 1.6x slower with 512).
const blockRows = 500

// scatter accumulates Σ_i w_i (x_i - μ_{y_i})(x_i - μ_{y_i})ᵀ over rows (all
// rows when rows is nil) into dst. Rows are centred into a feature-major
// buffer so that the rank-k update is a set of long dot products.
func (s *classStats) scatter(X *mat.Dense, rows []int, dst *mat.SymDense) {
	d := s.d
	count := s.n
	if rows != nil {
		count = len(rows)
	}
	m := min(blockRows, count)
	if m == 0 {
		return
	}
	buf := make([]float64, d*m)
	r := 0
	flush := func(b int) {
		blk := mat.NewDense(d, b, buf[:d*b])
		if b < m {
			// A short final block: repack so that the stride equals b.
			for j := 0; j < d; j++ {
				copy(buf[j*b:j*b+b], buf[j*m:j*m+b])
			}
		}
		dst.SymRankK(dst, 1, blk)
	}
	for t := 0; t < count; t++ {
		i := t
		if rows != nil {
			i = rows[t]
		}
		wi := 1.0
		if s.w != nil {
			if s.w[i] == 0 {
				continue
			}
			wi = math.Sqrt(s.w[i])
		}
		mu := s.means.RawRowView(s.y[i])
		for j, v := range X.RawRowView(i) {
			buf[j*m+r] = wi * (v - mu[j])
		}
		r++
		if r == m {
			flush(m)
			r = 0
		}
	}
	if r > 0 {
		flush(r)
	}
}

// gauss is a factored covariance Σ: W is d x r with Σ⁺ = W Wᵀ, so that the
// squared Mahalanobis distance of x from μ is ‖(x-μ)ᵀW‖². r < d when null
// directions were dropped (LDA); logDet is then the log pseudo-determinant.
type gauss struct {
	w      *mat.Dense
	logDet float64 // ln |Σ|, over the kept directions
	rank   int
	cond   float64 // condition number of the correlation matrix, over the kept directions
}

// nullTol is LDA's rank cut: eigen-directions of the within-class
// correlation matrix with eigenvalue <= nullTol are dropped. It is
// scikit-learn's solver="svd" tol = 1e-4 on singular values, squared.
const nullTol = 1e-8

// factorCov factors a covariance matrix through the eigendecomposition of its
// correlation matrix R = S Σ S, S = diag(Σ_jj^-½): the conditioning of R,
// unlike that of Σ, does not depend on the features' units.
//
// With dropNull (LDA) the directions of (near) zero variance are removed, the
// notes' fix for a singular Σ ("remove zero-variance eigen-directions", Shewchuk lecture 7):
// constant features and eigenvalues of R <= nullTol. Otherwise (QDA) a
// constant feature, or an eigenvalue of R below the numerical rank tolerance
// d·ε·λ_max, is an error.
//
// what names the covariance in errors (`class "setosa": covariance`), within
// says where a constant feature is constant ("within the class"), fix is the
// advice; ref holds the features' magnitudes (largest |mean|), to tell a
// constant feature from rounding (nil when the covariance was regularised).
func factorCov(cov *mat.SymDense, features []string, ref []float64, what, within, fix string, dropNull bool) (gauss, error) {
	d := cov.SymmetricDim()
	scale := make([]float64, d)
	idx := make([]int, 0, d) // the features that vary
	for j := 0; j < d; j++ {
		v := cov.At(j, j)
		if !(v > 0) || (ref != nil && math.Sqrt(v) <= 1e-13*math.Abs(ref[j])) {
			if dropNull {
				continue
			}
			return gauss{}, fmt.Errorf("%s is singular (feature %q is constant %s); %s", what, features[j], within, fix)
		}
		scale[j] = 1 / math.Sqrt(v)
		idx = append(idx, j)
	}
	if len(idx) == 0 {
		return gauss{}, fmt.Errorf("%s is zero: every feature is constant %s", what, within)
	}
	p := len(idx)
	R := mat.NewSymDense(p, nil)
	for a, i := range idx {
		for b := a; b < p; b++ {
			j := idx[b]
			R.SetSym(a, b, scale[i]*cov.At(i, j)*scale[j])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(R, true) {
		return gauss{}, fmt.Errorf("%s: the eigendecomposition failed; %s", what, fix)
	}
	vals := es.Values(nil) // ascending
	var V mat.Dense
	es.VectorsTo(&V)
	first := 0
	if dropNull {
		for first < p && vals[first] <= nullTol {
			first++
		}
		if first == p {
			return gauss{}, fmt.Errorf("%s has no direction of positive variance; %s", what, fix)
		}
	} else if vals[0] <= float64(p)*eps*vals[p-1] {
		return gauss{}, fmt.Errorf("%s is singular (%s); %s", what, collinear(R, pick(features, idx)), fix)
	}
	r := p - first
	W := mat.NewDense(d, r, nil)
	logDet := 0.0
	for t := 0; t < r; t++ {
		lam := vals[first+t]
		logDet += math.Log(lam)
		f := 1 / math.Sqrt(lam)
		for a, j := range idx {
			W.Set(j, t, scale[j]*V.At(a, first+t)*f)
		}
	}
	for _, j := range idx {
		logDet -= 2 * math.Log(scale[j])
	}
	return gauss{w: W, logDet: logDet, rank: r, cond: vals[p-1] / vals[first]}, nil
}

// eps is the float64 machine epsilon.
const eps = 0x1p-52

func pick(names []string, idx []int) []string {
	out := make([]string, len(idx))
	for a, j := range idx {
		out[a] = names[j]
	}
	return out
}

// collinear names the first feature that is (nearly) a linear combination of
// the features before it, growing a Cholesky factor one feature at a time.
// Only called on the error path.
func collinear(R *mat.SymDense, features []string) string {
	d := R.SymmetricDim()
	var chol mat.Cholesky
	keep := []int{0}
	if !chol.Factorize(mat.NewSymDense(1, []float64{R.At(0, 0)})) {
		return "features are collinear"
	}
	for j := 1; j < d; j++ {
		v := make([]float64, len(keep)+1)
		for t, i := range keep {
			v[t] = R.At(i, j)
		}
		v[len(keep)] = R.At(j, j)
		var ext mat.Cholesky
		ok := ext.ExtendVecSym(&chol, mat.NewVecDense(len(v), v))
		if ok {
			p := ext.RawU().At(len(keep), len(keep))
			ok = p*p > collinearTol
		}
		if !ok {
			names := make([]string, 0, len(keep))
			for _, i := range keep {
				if len(names) == 6 {
					names = append(names, "...")
					break
				}
				names = append(names, strconv.Quote(features[i]))
			}
			return fmt.Sprintf("feature %q is a linear combination of %s, or there are fewer rows than features", features[j], strings.Join(names, ", "))
		}
		chol = ext
		keep = append(keep, j)
	}
	return "features are nearly collinear"
}

// traceProd is tr(Σ⁻¹ S) = tr(Wᵀ S W) for the Gaussian's W and a scatter S.
func (g gauss) traceProd(S *mat.SymDense) float64 {
	var sw, wsw mat.Dense
	sw.Mul(S, g.w)
	wsw.Mul(g.w.T(), &sw)
	return mat.Trace(&wsw)
}

// shrink returns (1-α)Σ + α·target·I in place.
func shrink(cov *mat.SymDense, alpha, target float64) {
	if alpha == 0 {
		return
	}
	d := cov.SymmetricDim()
	cov.ScaleSym(1-alpha, cov)
	for j := 0; j < d; j++ {
		cov.SetSym(j, j, cov.At(j, j)+alpha*target)
	}
}

// fitted is the state LDA, QDA and Gaussian naive Bayes share, embedded:
// its FitState is theirs.
type fitted struct {
	engine.FitState
	stats    *classStats
	decision decider
}

// newFitted computes the class statistics (see newClassStats) and validates
// the decision rule against the classes found.
func newFitted(t engine.Train, priors string, wantVar bool, decision, loss string) (fitted, error) {
	s, err := newClassStats(t, priors, wantVar)
	if err != nil {
		return fitted{}, err
	}
	dec, err := newDecider(decision, loss, s.classes)
	if err != nil {
		return fitted{}, err
	}
	return fitted{stats: s, decision: dec}, nil
}

// input validates X for prediction and returns it as a *mat.Dense.
func (f *fitted) input(X mat.Matrix) (*mat.Dense, error) {
	if f == nil || !f.Fitted {
		return nil, engine.ErrNotFitted
	}
	if X == nil {
		return nil, errors.New("X is empty")
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, errors.New("X has no rows")
	}
	if d != f.stats.d {
		return nil, fmt.Errorf("X has %d columns; the model was fitted on %d features (%s)", d, f.stats.d, featureList(f.stats.features))
	}
	var D *mat.Dense
	if dense, ok := X.(*mat.Dense); ok {
		D = dense
	} else {
		D = mat.DenseCopyOf(X)
	}
	for i := 0; i < n; i++ {
		for j, v := range D.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, badValue(i, j, v, f.stats.features)
			}
		}
	}
	return D, nil
}

func featureList(names []string) string {
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + fmt.Sprintf(", ... %d more", len(names)-8)
	}
	return strings.Join(names, ", ")
}

// logPosterior turns joint log densities ln(π_k p(x|k)) into log posteriors
// in place (log-sum-exp per row).
func logPosterior(J *mat.Dense) error {
	n, _ := J.Dims()
	for i := 0; i < n; i++ {
		row := J.RawRowView(i)
		m := math.Inf(-1)
		for _, v := range row {
			if v > m {
				m = v
			}
		}
		if math.IsInf(m, 0) || math.IsNaN(m) {
			return fmt.Errorf("row %d: no class gives it a finite density (its values are too extreme)", i+1)
		}
		sum := 0.0
		for _, v := range row {
			sum += math.Exp(v - m)
		}
		lse := m + math.Log(sum)
		for c := range row {
			row[c] -= lse
		}
	}
	return nil
}

// Each model computes the joint log densities J = ln(π_k p(x|k)) of its
// Gaussians; Predict, DecisionFunction and PredictProba are then the same
// for all three: f.predict(m.joint(X)), logPosteriors(m.joint(X)) and
// posteriors(m.joint(X)), which pass an error from joint through.

// predict applies the decision rule to joint log densities.
func (f *fitted) predict(J *mat.Dense, err error) ([]float64, error) {
	if err != nil {
		return nil, err
	}
	if f.decision.loss == nil {
		n, _ := J.Dims()
		out := make([]float64, n)
		for i := range out {
			out[i] = float64(floats.MaxIdx(J.RawRowView(i)))
		}
		return out, nil
	}
	if err := logPosterior(J); err != nil {
		return nil, err
	}
	expInPlace(J)
	return Decide(J, f.decision.loss), nil
}

// logPosteriors returns the log posteriors ln P(k|x) from joint log densities.
func logPosteriors(J *mat.Dense, err error) (*mat.Dense, error) {
	if err != nil {
		return nil, err
	}
	return J, logPosterior(J)
}

// posteriors returns the posteriors P(k|x) from joint log densities.
func posteriors(J *mat.Dense, err error) (*mat.Dense, error) {
	J, err = logPosteriors(J, err)
	if err != nil {
		return nil, err
	}
	expInPlace(J)
	return J, nil
}

func expInPlace(J *mat.Dense) {
	n, _ := J.Dims()
	for i := 0; i < n; i++ {
		row := J.RawRowView(i)
		for c, v := range row {
			row[c] = math.Exp(v)
		}
	}
}

// step publishes a fit whose state the caller has made the model's (f
// among it) and reports it as the fit's single step, so that the recorder
// can predict from it (engine/model.go).
func (f *fitted) step(ctx context.Context, rec engine.Recorder, nll float64, detail engine.Detail) error {
	f.Fitted = true
	return step(ctx, rec, nll, detail)
}

// step reports the single step of a closed-form fit, whose state the
// caller has published first.
func step(ctx context.Context, rec engine.Recorder, nll float64, detail engine.Detail) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if math.IsNaN(nll) || math.IsInf(nll, 0) {
		return fmt.Errorf("%w: the training log-likelihood is %v", engine.ErrDiverged, -nll)
	}
	if err := rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: nll, Detail: detail}); err != nil {
		return err
	}
	// A recorder may cancel without returning the error itself.
	return ctx.Err()
}

// Copies for the exported accessors; nil before Fit (nil stats).

func (s *classStats) meansCopy() *mat.Dense {
	if s == nil {
		return nil
	}
	return mat.DenseCopyOf(s.means)
}

func (s *classStats) priorsCopy() []float64 {
	if s == nil {
		return nil
	}
	return append([]float64(nil), s.priors...)
}

func (s *classStats) classesCopy() []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s.classes...)
}

// priorEntropy is -Σ_k (W_k/W) ln π_k, the prior's share of the mean NLL.
func (s *classStats) priorEntropy() float64 {
	h := 0.0
	for c := 0; c < s.k; c++ {
		if s.present[c] {
			h -= s.counts[c] / s.total * s.logPrior[c]
		}
	}
	return h
}

var ln2Pi = math.Log(2 * math.Pi)

// totalVariance is the mean variance of the features over all rows (the
// trace of their covariance over d), weighted; it sizes the shrinkage
// target of a class whose own covariance is zero.
func (s *classStats) totalVariance(X *mat.Dense) float64 {
	mean := make([]float64, s.d)
	for i := 0; i < s.n; i++ {
		wi := 1.0
		if s.w != nil {
			wi = s.w[i]
		}
		for j, v := range X.RawRowView(i) {
			mean[j] += wi * v / s.total
		}
	}
	ss := 0.0
	for i := 0; i < s.n; i++ {
		wi := 1.0
		if s.w != nil {
			wi = s.w[i]
		}
		for j, v := range X.RawRowView(i) {
			d := v - mean[j]
			ss += wi * d * d
		}
	}
	return ss / s.total / float64(s.d)
}

package cluster

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Covariance shapes of a mixture.
const (
	CovFull      = "full"
	CovDiagonal  = "diagonal"
	CovSpherical = "spherical"
)

func init() {
	engine.Register(engine.Spec{
		Name:    "gmm",
		Title:   "Gaussian mixture (EM)",
		Family:  family,
		Summary: "k Gaussians fitted by expectation–maximisation: soft clusters, with the log-likelihood rising every iteration",
		Notes:   "Verma, COMS 4771 notes, Unsupervised Learning (mixtures fitted by EM); Shewchuk, Concise Machine Learning, lecture 7 (maximum likelihood of Gaussians); Dempster, Laird & Rubin 1977",
		Tasks:   []engine.Task{datasets.Clustering},
		Unit:    "iteration",
		Loss:    "negative log-likelihood per row",
		Params: []engine.Param{
			kParam(),
			{Name: "covariance", Kind: engine.Choice, Default: CovFull, Choices: []string{CovFull, CovDiagonal, CovSpherical},
				Help: "each component's covariance: any (full), axis-aligned (diagonal), or one variance (spherical)"},
			{Name: "max_iter", Kind: engine.Int, Default: 100, Min: 1, Max: 1e5, Help: "most EM iterations"},
			{Name: "tol", Kind: engine.Float, Default: 1e-3, Min: 1e-12, Max: 1, Log: true,
				Help: "stop when the log-likelihood per row rises by less than this"},
			{Name: "reg", Kind: engine.Float, Default: 1e-6, Min: 0, Max: 1, Log: false,
				Help: "added to every variance, so that a component cannot collapse onto a point"},
		},
		Memory: func(s engine.Shape, v engine.Values) engine.Need {
			k := cmp.Or(v.Int("k"), s.KnownClasses, 2)
			need := engine.Matrix(s.Rows, k, "matrix of responsibilities").Times(2)
			if v.String("covariance") == CovFull {
				need = need.Plus(engine.Matrices(k, s.Cols, s.Cols, "component covariances").Times(2))
			}
			return need
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &GMM{K: v.Int("k"), Covariance: v.String("covariance"), MaxIter: v.Int("max_iter"),
				Tol: v.Float("tol"), Reg: v.Float("reg")}, nil
		},
	})
}

// GMM fits a mixture of k Gaussians by EM, started from k-means: the E step
// gives each row its responsibilities P(component | row), the M step the
// weights, means and covariances they imply (each variance plus Reg). The
// log-likelihood never falls from one iteration to the next (a fall would
// be a bug; the tests look for one); the fit stops when it rises by less
// than Tol per row.
type GMM struct {
	K          int
	Covariance string
	MaxIter    int
	Tol        float64
	Reg        float64

	weights []float64
	means   *mat.Dense
	chols   []*mat.Cholesky // full: each covariance's factor
	covs    []*mat.SymDense // full: each covariance, which a model file keeps (its factor's condition number depends on it)
	vars    *mat.Dense      // diagonal / spherical: k × d variances
	labels  []int
	loglik  float64
	engine.FitState
	d   int
	cov string
}

// Fit implements engine.Model.
func (g *GMM) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	X := t.X
	n, d := X.Dims()
	if err := engine.CheckFinite(X, t.Features); err != nil {
		return fmt.Errorf("Gaussian mixture: %w", err)
	}
	k, err := clusters(g.K, t, n)
	if err != nil {
		return fmt.Errorf("Gaussian mixture: %w", err)
	}
	cov, maxIter, tol, reg := g.Covariance, g.MaxIter, g.Tol, g.Reg
	g.d, g.cov = d, cov
	// Start from k-means: responsibilities 0/1.
	km := innerKMeans(k, 1)
	if err := engine.Fit(ctx, km, engine.Train{X: X, Seed: t.Seed}, nil); err != nil {
		return err
	}
	R := mat.NewDense(n, k, nil)
	for i, c := range km.TrainingLabels() {
		R.Set(i, c, 1)
	}
	prev := math.Inf(-1)
	for it := 1; it <= maxIter; it++ {
		if err := g.mStep(X, R, reg); err != nil {
			return err
		}
		ll := g.eStep(X, R)
		g.loglik, g.Fitted = ll, true
		if err := rec.Step(engine.Step{Step: it, Total: maxIter, TrainLoss: -ll / float64(n)}); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if ll-prev < tol*float64(n) {
			break
		}
		prev = ll
	}
	g.labels = make([]int, n)
	for i := range n {
		g.labels[i] = floats.MaxIdx(R.RawRowView(i))
	}
	return nil
}

// mStep sets the weights, means and covariances from responsibilities R.
func (g *GMM) mStep(X, R *mat.Dense, reg float64) error {
	n, d := X.Dims()
	_, k := R.Dims()
	g.weights = make([]float64, k)
	g.means = mat.NewDense(k, d, nil)
	nk := make([]float64, k)
	for i := range n {
		x := X.RawRowView(i)[:d]
		for c, r := range R.RawRowView(i) {
			if r == 0 {
				continue
			}
			nk[c] += r
			m := g.means.RawRowView(c)
			for j, v := range x {
				m[j] += r * v
			}
		}
	}
	for c := range k {
		if nk[c] < 1e-10 {
			return fmt.Errorf("Gaussian mixture: component %d has no rows left; use fewer components (k)", c+1)
		}
		g.weights[c] = nk[c] / float64(n)
		row := g.means.RawRowView(c)
		for j := range row {
			row[j] /= nk[c]
		}
	}
	diff := make([]float64, d)
	if g.cov == CovFull {
		g.chols, g.covs = make([]*mat.Cholesky, k), make([]*mat.SymDense, k)
		for c := range k {
			S := mat.NewSymDense(d, nil)
			mu := g.means.RawRowView(c)
			for i := range n {
				r := R.At(i, c)
				if r == 0 {
					continue
				}
				for j, v := range X.RawRowView(i)[:d] {
					diff[j] = v - mu[j]
				}
				S.SymRankOne(S, r, mat.NewVecDense(d, diff))
			}
			S.ScaleSym(1/nk[c], S)
			for j := range d {
				S.SetSym(j, j, S.At(j, j)+reg)
			}
			var ch mat.Cholesky
			if !ch.Factorize(S) {
				return fmt.Errorf("Gaussian mixture: component %d's covariance is singular; raise reg or use covariance=diagonal", c+1)
			}
			g.chols[c], g.covs[c] = &ch, S
		}
		return nil
	}
	g.vars = mat.NewDense(k, d, nil)
	for c := range k {
		mu := g.means.RawRowView(c)
		v := g.vars.RawRowView(c)
		for i := range n {
			r := R.At(i, c)
			if r == 0 {
				continue
			}
			for j, x := range X.RawRowView(i)[:d] {
				e := x - mu[j]
				v[j] += r * e * e
			}
		}
		if g.cov == CovSpherical {
			s := 0.0
			for _, x := range v {
				s += x
			}
			for j := range v {
				v[j] = s / float64(d)
			}
		}
		for j := range v {
			v[j] = v[j]/nk[c] + reg
		}
	}
	return nil
}

// logDensities writes ln(w_c N(x; μ_c, Σ_c)) for every component into out.
func (g *GMM) logDensities(x []float64, out []float64) {
	d := g.d
	k := len(g.weights)
	diff := make([]float64, d)
	for c := range k {
		mu := g.means.RawRowView(c)
		for j := range d {
			diff[j] = x[j] - mu[j]
		}
		var quad, logdet float64
		if g.cov == CovFull {
			ch := g.chols[c]
			var z mat.VecDense
			if err := ch.SolveVecTo(&z, mat.NewVecDense(d, diff)); err == nil {
				quad = mat.Dot(&z, mat.NewVecDense(d, diff))
			}
			logdet = ch.LogDet()
		} else {
			v := g.vars.RawRowView(c)
			for j := range d {
				quad += diff[j] * diff[j] / v[j]
				logdet += math.Log(v[j])
			}
		}
		out[c] = math.Log(g.weights[c]) - 0.5*(float64(d)*math.Log(2*math.Pi)+logdet+quad)
	}
}

// eStep fills the responsibilities and returns the log-likelihood.
func (g *GMM) eStep(X, R *mat.Dense) float64 {
	n, d := X.Dims()
	ll := 0.0
	for i := range n {
		row := R.RawRowView(i)
		g.logDensities(X.RawRowView(i)[:d], row)
		mx := slices.Max(row)
		s := 0.0
		for c, v := range row {
			row[c] = math.Exp(v - mx)
			s += row[c]
		}
		for c := range row {
			row[c] /= s
		}
		ll += mx + math.Log(s)
	}
	return ll
}

// TrainingLabels implements engine.Labeler: each row's most responsible
// component.
func (g *GMM) TrainingLabels() []int { return g.labels }

// Predict implements engine.Predictor.
func (g *GMM) Predict(X mat.Matrix) ([]float64, error) {
	P, err := g.PredictProba(X)
	if err != nil {
		return nil, err
	}
	n, _ := P.Dims()
	out := make([]float64, n)
	for i := range n {
		out[i] = float64(floats.MaxIdx(P.RawRowView(i)))
	}
	return out, nil
}

// PredictProba implements engine.Prober: the responsibilities.
func (g *GMM) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	if !g.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, d := X.Dims()
	if d != g.d {
		return nil, fmt.Errorf("Gaussian mixture: got %d features, fitted on %d", d, g.d)
	}
	R := mat.NewDense(n, len(g.weights), nil)
	g.eStep(datasets.DenseOf(X), R)
	return R, nil
}

package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Stepwise is forward stepwise selection for least-squares regression (Shewchuk, Concise Machine Learning,
// lecture 13 "Subset selection", heuristic 1): "start with null model (0 features);
// repeatedly add best feature until validation errors start increasing
// instead of decreasing. At each outer iteration, inner loop tries every
// feature & chooses the best by validation."
//
// Criterion says how "best" is judged:
//   - "cv" (the default): k-fold cross-validation inside the training rows
//     (Shewchuk: "choose by (cross-)validation"). Each candidate model is
//     fitted by least squares on k−1 folds and scored on the k-th; the
//     held-out squared errors of all k folds are pooled. A single hold-out
//     is too noisy on a few hundred rows to rank features reliably.
//   - "validation": one hold-out of a fraction Holdout of the training rows.
//   - "rss": the training residual sum of squares (classical forward
//     stepwise regression; scikit-learn's SequentialFeatureSelector scored
//     on the training rows). It never stops on its own: it adds features
//     until MaxFeatures.
//
// Under "cv" and "validation" selection stops as soon as no feature lowers
// the held-out error. The folds and the hold-out are drawn from Train.Seed.
// Either way the selected features are then refitted on all the training
// rows.
//
// No candidate is refitted from scratch: the Gram matrix of each fold's
// fitting rows is swept on every added feature (Beaton's sweep operator),
// which leaves the partial covariances of the remaining features with y, so
// a candidate costs O(1) under "rss"; the held-out residuals of y and of every
// feature are kept orthogonalised against the selected features, so that a
// candidate costs O(held-out rows) under "cv" and "validation".
type Stepwise struct {
	// Criterion chooses the feature to add: "cv", "validation" or "rss".
	Criterion string
	// MaxFeatures caps the number of selected features; 0 means no cap.
	MaxFeatures int
	// Folds is the number of folds of the "cv" criterion.
	Folds int
	// Holdout is the fraction of the training rows held out under the
	// "validation" criterion.
	Holdout float64

	lsqModel // coef: one per feature, zero for those not selected
	selected []int
}

// stepwiseStream is the PCG stream of the fold and hold-out draws.
const stepwiseStream = 0x57e9

func init() {
	engine.Register(engine.Spec{
		Weighted:    true,
		Name:        "stepwise",
		Title:       "forward stepwise selection",
		Family:      "linear models",
		Summary:     "least squares on a subset of features, adding the best feature one at a time",
		Notes:       "Shewchuk, Concise Machine Learning, lecture 13 (subset selection: forward stepwise)",
		Tasks:       []engine.Task{datasets.Regression},
		Unit:        "feature",
		Standardize: true,
		Params: []engine.Param{
			{Name: "criterion", Kind: engine.Choice, Default: "cv", Choices: []string{"cv", "validation", "rss"},
				Help: "cv / validation: best held-out error, stop when it rises (Shewchuk); rss: best training RSS"},
			{Name: "max_features", Kind: engine.Int, Default: 0, Min: 0, Max: 100000,
				Help: "most features to select; 0 means no limit"},
			{Name: "folds", Kind: engine.Int, Default: 5, Min: 2, Max: 20,
				When: &engine.Applies{Param: "criterion", In: []string{"cv"}},
				Help: "folds of the cv criterion"},
			{Name: "holdout", Kind: engine.Float, Default: 0.2, Min: 0.05, Max: 0.5,
				When: &engine.Applies{Param: "criterion", In: []string{"validation"}},
				Help: "fraction of the training rows held out by the validation criterion"},
		},
		Memory: gramMemory,
		New: func(v engine.Values) (engine.Model, error) {
			return &Stepwise{Criterion: v.String("criterion"), MaxFeatures: v.Int("max_features"),
				Folds: v.Int("folds"), Holdout: v.Float("holdout")}, nil
		},
	})
}

// stepwiseFold is one split of the training rows into fitting and held-out
// rows, in the state of the selection so far.
type stepwiseFold struct {
	// a is the augmented Gram of the fitting rows, swept on the selected
	// features: a[j][j] is the residual sum of squares of feature j
	// regressed on them, a[j][p] its residual covariance with y, a[p][p]
	// the RSS.
	a     []float64
	diag0 []float64 // the features' sums of squares before any sweep
	sumw  float64   // total weight of the fitting rows
	// z holds, column-major, the held-out residuals of every feature (and of
	// y, column p) regressed on the selected features with the coefficients
	// of the fitting rows, scaled by √ω; nil without held-out rows.
	z    []float64
	m    int     // held-out rows
	sumv float64 // their total weight
}

func newStepwiseFold(X *mat.Dense, y, w []float64, fitRows, valRows []int) (*stepwiseFold, error) {
	_, p := X.Dims()
	q := p + 1
	g, mu, ybar, sumw := lsqAugGram(X, y, w, fitRows, true)
	if !(sumw > 0) {
		return nil, fmt.Errorf("the rows used for fitting have zero total weight")
	}
	f := &stepwiseFold{a: make([]float64, q*q), diag0: make([]float64, p), sumw: sumw, m: len(valRows)}
	for i := 0; i < q; i++ {
		for j := 0; j < q; j++ {
			f.a[i*q+j] = g.At(i, j)
		}
	}
	for j := range f.diag0 {
		f.diag0[j] = f.a[j*q+j]
	}
	if valRows == nil {
		return f, nil
	}
	f.z = make([]float64, q*f.m)
	for r, i := range valRows {
		s := 1.0
		if w != nil {
			s = math.Sqrt(w[i])
			f.sumv += w[i]
		} else {
			f.sumv++
		}
		for j, v := range X.RawRowView(i) {
			f.z[j*f.m+r] = s * (v - mu[j])
		}
		f.z[p*f.m+r] = s * (y[i] - ybar)
	}
	return f, nil
}

// usable reports whether feature j can be added: not constant and not a
// linear combination of the selected features on the fitting rows.
func (f *stepwiseFold) usable(j, q int) bool {
	return f.a[j*q+j] > 1e-10*f.diag0[j]
}

// rssWith is the fitting rows' RSS after adding feature j.
func (f *stepwiseFold) rssWith(j, q int) float64 {
	p := q - 1
	return f.a[p*q+p] - f.a[j*q+p]*f.a[j*q+p]/f.a[j*q+j]
}

// sseWith is the held-out sum of squared errors after adding feature j.
func (f *stepwiseFold) sseWith(j, q int) float64 {
	p := q - 1
	c := f.a[j*q+p] / f.a[j*q+j]
	zj, zy := f.z[j*f.m:(j+1)*f.m], f.z[p*f.m:q*f.m]
	return max(floats.Dot(zy, zy)-2*c*floats.Dot(zj, zy)+c*c*floats.Dot(zj, zj), 0)
}

func (f *stepwiseFold) sse(q int) float64 {
	zy := f.z[(q-1)*f.m : q*f.m]
	return floats.Dot(zy, zy)
}

// add selects feature k: the held-out columns are residualised on it with
// the fitting rows' coefficients (a before the sweep), then a is swept.
func (f *stepwiseFold) add(k, q int, inS []bool) {
	if f.z != nil {
		zk := f.z[k*f.m : (k+1)*f.m]
		for t := 0; t < q; t++ {
			if t != k && (t == q-1 || !inS[t]) {
				if c := f.a[k*q+t] / f.a[k*q+k]; c != 0 {
					floats.AddScaled(f.z[t*f.m:(t+1)*f.m], -c, zk)
				}
			}
		}
	}
	stepwiseSweep(f.a, q, k)
}

// Fit implements engine.Model. Each added feature is one step: TrainLoss is
// the mean squared error on all the training rows of the least-squares fit
// on the features selected so far, and a StepwiseStep gives their number,
// the 0-based column just added and, under "cv" and "validation", the
// held-out mean squared error. When no
// feature is worth adding, one step reports the intercept-only model.
func (m *Stepwise) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	crit, folds, holdout := m.Criterion, m.Folds, m.Holdout
	d, _, err := lsqTrain(ctx, d, "stepwise", 0, false)
	if err != nil {
		return err
	}
	X, y, w := d.X, d.Y, d.Weights
	n, p := X.Dims()
	q := p + 1

	// all fits every training row: it reports the training loss, drives the
	// "rss" criterion, and gives the final coefficients.
	all, err := newStepwiseFold(X, y, w, nil, nil)
	if err != nil {
		return fmt.Errorf("stepwise: %w", err)
	}
	for j := 0; j < q; j++ {
		if v := all.a[j*q+j]; math.IsNaN(v) || math.IsInf(v, 0) {
			return lsqNonFinite(d, "stepwise") // a NaN or Inf in X, found for free
		}
	}
	gAll := mat.NewSymDense(q, append([]float64(nil), all.a...))
	var held []*stepwiseFold
	switch crit {
	case "validation":
		nVal := int(math.Round(holdout * float64(n)))
		if nVal < 1 || n-nVal < 2 {
			return engine.Limitf("stepwise: %d rows are too few to hold out %.0f%% for validation; use criterion=rss", n, 100*holdout)
		}
		perm := rand.New(rand.NewPCG(d.Seed, stepwiseStream)).Perm(n)
		f, err := stepwiseSplit(X, y, w, perm[nVal:], perm[:nVal])
		if err != nil {
			return err
		}
		held = append(held, f)
	case "cv":
		if n < 2*folds {
			return engine.Limitf("stepwise: folds=%d needs at least %d rows but the training part has %d; use folds at most %d or criterion=rss", folds, 2*folds, n, max(n/2, 2))
		}
		perm := rand.New(rand.NewPCG(d.Seed, stepwiseStream)).Perm(n)
		for k := 0; k < folds; k++ {
			lo, hi := k*n/folds, (k+1)*n/folds
			fit := append(append([]int(nil), perm[:lo]...), perm[hi:]...)
			f, err := stepwiseSplit(X, y, w, fit, perm[lo:hi])
			if err != nil {
				return err
			}
			held = append(held, f)
		}
	}
	heldW := 0.0
	curVal := 0.0
	for _, f := range held {
		heldW += f.sumv
		curVal += f.sse(q)
	}
	if held != nil {
		if !(heldW > 0) {
			return fmt.Errorf("stepwise: the held-out rows have zero total weight; use criterion=rss")
		}
		curVal /= heldW
	}

	// Before every step the model is the least-squares fit on all the
	// training rows of the features selected so far. The sweeps of all have
	// already solved it: the rows of the selected features hold its
	// coefficients (column p), so publishing it costs O(p) and no refit; the
	// final refit below may differ from the last step's in rounding only.
	mu, ybar, _ := lsqMoments(X, y, w, nil, true)
	m.names = append([]string(nil), lsqFeatureNames(d)...)
	m.warnings = nil
	cur := make([]float64, p)
	publish := func(sel []int) {
		clear(cur)
		for _, j := range sel {
			cur[j] = all.a[j*q+p]
		}
		m.coef, m.icept, m.selected = cur, lsqIntercept(mu, ybar, cur), sel
		m.Fitted = true
	}

	limit := p
	if m.MaxFeatures > 0 {
		limit = min(limit, m.MaxFeatures)
	}
	inS := make([]bool, p)
	var sel []int
	for len(sel) < limit {
		best, bestScore := -1, math.Inf(1)
	candidates:
		for j := 0; j < p; j++ {
			if inS[j] || !all.usable(j, q) {
				continue
			}
			var score float64
			if held == nil {
				score = all.rssWith(j, q)
			} else {
				for _, f := range held {
					if !f.usable(j, q) {
						continue candidates
					}
					score += f.sseWith(j, q)
				}
				score /= heldW
			}
			if score < bestScore {
				best, bestScore = j, score
			}
		}
		if best < 0 || held != nil && bestScore >= curVal {
			break // nothing left to add, or the held-out error would not fall
		}
		for _, f := range held {
			f.add(best, q, inS)
		}
		all.add(best, q, inS)
		inS[best] = true
		sel = append(sel, best)
		detail := StepwiseStep{Features: len(sel), Feature: best, ValMSE: math.NaN()}
		if held != nil {
			curVal = bestScore
			detail.ValMSE = curVal
		}
		publish(sel)
		if err := rec.Step(engine.Step{Step: len(sel), Total: limit, TrainLoss: max(all.a[p*q+p], 0) / all.sumw, Detail: detail}); err != nil {
			return err
		}
		// A recorder may cancel without returning the error itself.
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if len(sel) == 0 {
		detail := StepwiseStep{Feature: -1, ValMSE: math.NaN()}
		if held != nil {
			detail.ValMSE = curVal
		}
		publish(nil)
		if err := rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: all.a[p*q+p] / all.sumw, Detail: detail}); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}

	// Refit the selected features on all the training rows.
	coef, warn, err := stepwiseRefit(gAll, X, y, w, sel, mu, ybar)
	if err != nil {
		return err
	}
	m.coef, m.icept = coef, lsqIntercept(mu, ybar, coef)
	m.selected, m.warnings = sel, warn
	m.Fitted = true
	return nil
}

// stepwiseRefit is the least-squares fit of y on the features sel (all
// rows), by Cholesky on the centred Gram gAll, or by the pseudo-inverse when
// that is ill-conditioned: one weight per feature, zero for the others.
func stepwiseRefit(gAll *mat.SymDense, X *mat.Dense, y, w []float64, sel []int, mu []float64, ybar float64) ([]float64, []string, error) {
	var warn []string
	coef := make([]float64, len(mu))
	if len(sel) > 0 {
		c, cond, _ := lsqCholSolve(gAll, sel, 0)
		if c == nil {
			warn = append(warn, fmt.Sprintf("the selected features are ill-conditioned (condition number %.2g); refitted with the pseudo-inverse", cond))
			var err error
			if c, _, err = lsqPinvSolve(X, y, w, sel, mu, ybar, 0); err != nil {
				return nil, nil, fmt.Errorf("stepwise: %w", err)
			}
		}
		for k, j := range sel {
			coef[j] = c[k]
		}
	}
	return coef, warn, nil
}

// stepwiseSplit makes a fold from (unsorted) fitting and held-out rows.
func stepwiseSplit(X *mat.Dense, y, w []float64, fit, val []int) (*stepwiseFold, error) {
	fit, val = slices.Clone(fit), slices.Clone(val)
	slices.Sort(fit)
	slices.Sort(val)
	f, err := newStepwiseFold(X, y, w, fit, val)
	if err != nil {
		return nil, fmt.Errorf("stepwise: %w", err)
	}
	return f, nil
}

// stepwiseSweep sweeps the q x q symmetric matrix a (row-major) on pivot k,
// in place: afterwards row k holds the regression coefficients of every
// other variable on k, and the rest the covariances partialled on k.
func stepwiseSweep(a []float64, q, k int) {
	d := a[k*q+k]
	rowK := a[k*q : k*q+q]
	for j := range rowK {
		if j != k {
			rowK[j] /= d
		}
	}
	for i := 0; i < q; i++ {
		if i == k {
			continue
		}
		b := a[i*q+k]
		if b == 0 {
			continue
		}
		rowI := a[i*q : i*q+q]
		for j := range rowI {
			if j != k {
				rowI[j] -= b * rowK[j]
			}
		}
		rowI[k] = -b / d
	}
	rowK[k] = 1 / d
}

// Predict implements engine.Model.
func (m *Stepwise) Predict(X mat.Matrix) ([]float64, error) { return m.predict("stepwise", X) }

// Coefficients implements engine.Coefficienter: every feature, with zero
// weight for those not selected.
func (m *Stepwise) Coefficients() engine.Coefficients { return m.coefficients() }

// Selected lists the selected features' column indices in the order they
// were added.
func (m *Stepwise) Selected() []int { return append([]int(nil), m.selected...) }

// Warnings lists what a person should know about the last fit; nil when
// there is nothing to say.
func (m *Stepwise) Warnings() []string { return m.warnings }

package gda

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// CategoricalNB is naive Bayes for mixed data: each nominal feature is a
// categorical distribution per class, P(x_j = l | k) = (N_kjl + α) /
// (N_kj + α·L_j), with Laplace (add-α) smoothing so that a level never seen
// with a class keeps a small probability; each numeric feature is a 1-D
// Gaussian per class, as in GaussianNB (Verma, COMS 4771 notes, "Naïve Bayes
// Classifier" and its Laplace smoothing; the categorical form is
// scikit-learn's CategoricalNB, the mixed one Weka's NaiveBayes).
//
// Nominal columns reach it as level codes, not one-hot encoded (its spec
// asks for them). A missing value is left out of both the counts and the
// product, which is what the naive independence assumption gives when the
// value is unknown: the other features still decide. A level code the
// training rows never had (or one beyond the declared levels) is treated as
// missing.
type CategoricalNB struct {
	Alpha        float64 // Laplace smoothing of the level counts
	Priors       string  // "empirical" (n_k/n) or "uniform"
	VarSmoothing float64 // fraction of the largest numeric variance added to every variance
	Decision     string  // "map" or "risk"
	Loss         string  // loss matrix for Decision "risk" (see ParseLoss); "" is the 0-1 loss

	classes  []string
	features []string
	k, d     int
	nominal  []bool
	levels   []int         // L_j for nominal features
	logProb  [][][]float64 // [feature][class][level] ln P(x_j = l | k), nominal features
	mean     *mat.Dense    // k x d, numeric features
	inv      *mat.Dense    // k x d: 1/(2σ²), numeric features
	logNorm  *mat.Dense    // k x d: -½ ln(2πσ²), numeric features
	logPrior []float64     // -Inf for a class without rows
	vars     *mat.Dense    // k x d: smoothed σ², numeric features
	rows     []float64     // training rows per class
	dec      decider
	engine.FitState
}

func init() {
	engine.Register(engine.Spec{
		Name:    "cnb",
		Title:   "categorical naive Bayes",
		Family:  family,
		Summary: "naive Bayes on level counts with Laplace smoothing; numeric columns as Gaussians; missing values skipped",
		Notes:   "Verma, COMS 4771 notes, Basics and MLE (naïve Bayes, Laplace smoothing); Shewchuk, Concise Machine Learning, lecture 6 (decision theory)",
		Tasks:   []engine.Task{datasets.Classification},
		Unit:    "fit",
		Input:   engine.Input{Nominal: true, Missing: true},
		Params: []engine.Param{
			{Name: "alpha", Kind: engine.Float, Default: 1.0, Min: 1e-10, Max: 1e6, Log: true,
				Help: "Laplace smoothing: add alpha to every level count (1 is Laplace's rule)"},
			priorsParam(),
			{Name: "var_smoothing", Kind: engine.Float, Default: DefaultVarSmoothing, Min: 1e-15, Max: 1, Log: true,
				Help: "numeric columns: add this fraction of the largest variance to every variance"},
			decisionParam(),
			lossParam(),
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &CategoricalNB{Alpha: v.Float("alpha"), Priors: v.String("priors"), VarSmoothing: v.Float("var_smoothing"),
				Decision: v.String("decision"), Loss: v.String("loss")}, nil
		},
	})
}

func (m *CategoricalNB) reset() {
	*m = CategoricalNB{Alpha: m.Alpha, Priors: m.Priors, VarSmoothing: m.VarSmoothing, Decision: m.Decision, Loss: m.Loss}
}

// Fit counts the levels of every nominal feature and fits the Gaussians of
// the numeric ones, per class, skipping missing values.
func (m *CategoricalNB) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	m.reset()
	priors, alpha, vs := m.Priors, m.Alpha, m.VarSmoothing
	n, d := t.X.Dims()
	if len(t.Y) != n {
		return fmt.Errorf("Y has %d values for %d rows of X", len(t.Y), n)
	}
	if t.Columns != nil && len(t.Columns) != d {
		return fmt.Errorf("Columns describes %d columns, X has %d", len(t.Columns), d)
	}
	features := make([]string, d)
	for j := range features {
		switch {
		case j < len(t.Features):
			features[j] = t.Features[j]
		case t.Columns != nil:
			features[j] = t.Columns[j].Name
		default:
			features[j] = "x" + strconv.Itoa(j)
		}
	}
	k := len(t.Classes)
	classes := t.Classes
	y := make([]int, n)
	for i, v := range t.Y {
		c := int(v)
		if float64(c) != v || c < 0 || (k > 0 && c >= k) {
			return fmt.Errorf("row %d: class code %v is not one of 0..%d", i+1, v, k-1)
		}
		y[i] = c
	}
	if k == 0 {
		for _, c := range y {
			k = max(k, c+1)
		}
		classes = make([]string, k)
		for c := range classes {
			classes[c] = strconv.Itoa(c)
		}
	}
	dec, err := newDecider(m.Decision, m.Loss, classes)
	if err != nil {
		return err
	}
	nominal := make([]bool, d)
	levels := make([]int, d)
	for j := range nominal {
		if t.Columns != nil && t.Columns[j].Kind == datasets.Nominal {
			nominal[j] = true
			levels[j] = len(t.Columns[j].Levels)
		}
	}
	// Level counts, and the codes beyond the declared levels (which a Train
	// built by code may hold) widen a feature's alphabet.
	counts := make([][][]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range t.X.RawRowView(i) {
			if math.IsInf(v, 0) {
				return fmt.Errorf("row %d, feature %q: value is infinite", i+1, features[j])
			}
			if nominal[j] && !math.IsNaN(v) {
				if v != math.Trunc(v) || v < 0 || v >= 1<<20 {
					return fmt.Errorf("row %d, feature %q: %v is not a level code", i+1, features[j], v)
				}
				levels[j] = max(levels[j], int(v)+1)
			}
		}
	}
	classRows := make([]float64, k)
	for _, c := range y {
		classRows[c]++
	}
	present := 0
	for _, c := range classRows {
		if c > 0 {
			present++
		}
	}
	if present < 2 {
		return errors.New("only one class in the training data; classification needs at least two")
	}
	for j := range counts {
		if nominal[j] {
			counts[j] = make([][]float64, k)
			for c := range counts[j] {
				counts[j][c] = make([]float64, levels[j])
			}
		}
	}
	// Numeric features: sums over the non-missing values, shifted by the
	// class's first value for an accurate one-pass variance.
	seen := mat.NewDense(k, d, nil) // non-missing values per class and feature
	sum := mat.NewDense(k, d, nil)
	sq := mat.NewDense(k, d, nil)
	shift := mat.NewDense(k, d, nil)
	for i := 0; i < n; i++ {
		c := y[i]
		for j, v := range t.X.RawRowView(i) {
			if math.IsNaN(v) {
				continue
			}
			if nominal[j] {
				counts[j][c][int(v)]++
				seen.Set(c, j, seen.At(c, j)+1)
				continue
			}
			if seen.At(c, j) == 0 {
				shift.Set(c, j, v)
			}
			seen.Set(c, j, seen.At(c, j)+1)
			x := v - shift.At(c, j)
			sum.Set(c, j, sum.At(c, j)+x)
			sq.Set(c, j, sq.At(c, j)+x*x)
		}
	}
	mean := mat.NewDense(k, d, nil)
	vars := mat.NewDense(k, d, nil)
	maxVar := 0.0
	for j := 0; j < d; j++ {
		if nominal[j] {
			continue
		}
		// The largest variance is taken over all rows of the feature.
		var all, allSq, cnt float64
		for c := 0; c < k; c++ {
			if s := seen.At(c, j); s > 0 {
				mu := sum.At(c, j) / s
				mean.Set(c, j, shift.At(c, j)+mu)
				vars.Set(c, j, math.Max(0, sq.At(c, j)/s-mu*mu))
				all += s * mean.At(c, j)
				allSq += s * (vars.At(c, j) + mean.At(c, j)*mean.At(c, j))
				cnt += s
			}
		}
		if cnt > 0 {
			mu := all / cnt
			maxVar = math.Max(maxVar, allSq/cnt-mu*mu)
		}
	}
	eps := vs * maxVar
	if !(eps > 0) {
		eps = vs
	}
	logProb := make([][][]float64, d)
	for j := 0; j < d; j++ {
		if nominal[j] {
			logProb[j] = make([][]float64, k)
			for c := 0; c < k; c++ {
				row := make([]float64, levels[j])
				denom := seen.At(c, j) + alpha*float64(levels[j])
				for l, cnt := range counts[j][c] {
					row[l] = math.Log((cnt + alpha) / denom)
				}
				logProb[j][c] = row
			}
			continue
		}
		for c := 0; c < k; c++ {
			vars.Set(c, j, vars.At(c, j)+eps)
		}
	}
	inv, logNorm := cnbGaussians(nominal, vars)
	logPrior := cnbLogPriors(classRows, priors)
	// Publish the fit before its one step, so that the recorder can predict.
	m.classes, m.features, m.k, m.d = classes, features, k, d
	m.nominal, m.levels, m.logProb, m.mean, m.inv, m.logNorm, m.logPrior, m.dec = nominal, levels, logProb, mean, inv, logNorm, logPrior, dec
	m.vars, m.rows = vars, classRows
	m.Fitted = true
	// The training loss: the mean negative log-likelihood of (x_i, y_i).
	J, err := m.joint(t.X)
	if err != nil {
		return err
	}
	nll := 0.0
	for i, c := range y {
		nll -= J.At(i, c) / float64(n)
	}
	return step(ctx, rec, nll, nil)
}

// cnbGaussians is 1/(2σ²) and -½ ln(2πσ²) of the numeric features' smoothed
// variances (0 for the nominal features): what Fit, and loading a saved
// state, compute from them.
func cnbGaussians(nominal []bool, vars *mat.Dense) (inv, logNorm *mat.Dense) {
	k, d := vars.Dims()
	inv, logNorm = mat.NewDense(k, d, nil), mat.NewDense(k, d, nil)
	for j := 0; j < d; j++ {
		if nominal[j] {
			continue
		}
		for c := 0; c < k; c++ {
			v := vars.At(c, j)
			inv.Set(c, j, 0.5/v)
			logNorm.Set(c, j, -0.5*math.Log(2*math.Pi*v))
		}
	}
	return inv, logNorm
}

// cnbLogPriors is ln π_k from the training rows of each class (-Inf for a
// class without rows), the prior empirical or uniform over the classes
// present.
func cnbLogPriors(classRows []float64, priors string) []float64 {
	n, present := 0.0, 0
	for _, r := range classRows {
		n += r
		if r > 0 {
			present++
		}
	}
	logPrior := make([]float64, len(classRows))
	for c := range logPrior {
		switch {
		case classRows[c] == 0:
			logPrior[c] = math.Inf(-1)
		case priors == PriorsUniform:
			logPrior[c] = -math.Log(float64(present))
		default:
			logPrior[c] = math.Log(classRows[c] / n)
		}
	}
	return logPrior
}

// joint returns the joint log densities ln π_k Π_j P(x_j | k), the missing
// features left out.
func (m *CategoricalNB) joint(X mat.Matrix) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	if X == nil {
		return nil, errors.New("X is empty")
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, errors.New("X has no rows")
	}
	if d != m.d {
		return nil, fmt.Errorf("X has %d columns; the model was fitted on %d features (%s)", d, m.d, featureList(m.features))
	}
	J := mat.NewDense(n, m.k, nil)
	x := make([]float64, d)
	for i := 0; i < n; i++ {
		mat.Row(x, i, X)
		row := J.RawRowView(i)
		copy(row, m.logPrior)
		for j, v := range x {
			if math.IsNaN(v) {
				continue
			}
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("row %d, feature %q: value is infinite", i+1, m.features[j])
			}
			if m.nominal[j] {
				l := int(v)
				if float64(l) != v || l < 0 || l >= m.levels[j] {
					continue // a level never seen: as if missing
				}
				for c := range row {
					row[c] += m.logProb[j][c][l]
				}
				continue
			}
			for c := range row {
				t := v - m.mean.At(c, j)
				row[c] += m.logNorm.At(c, j) - t*t*m.inv.At(c, j)
			}
		}
	}
	return J, nil
}

// Predict returns class codes: the MAP class or the minimum-risk class.
func (m *CategoricalNB) Predict(X mat.Matrix) ([]float64, error) {
	f := fitted{decision: m.dec}
	return f.predict(m.joint(X))
}

// DecisionFunction returns the log posteriors ln P(k|x) (n x classes).
func (m *CategoricalNB) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return logPosteriors(m.joint(X))
}

// PredictProba returns the posteriors P(k|x) (n x classes).
func (m *CategoricalNB) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	return posteriors(m.joint(X))
}

// LevelProbs returns P(x_j = l | k) of a nominal feature j (classes x
// levels); nil for a numeric feature or before Fit.
func (m *CategoricalNB) LevelProbs(j int) *mat.Dense {
	if !m.Fitted || j < 0 || j >= m.d || !m.nominal[j] {
		return nil
	}
	P := mat.NewDense(m.k, m.levels[j], nil)
	for c, row := range m.logProb[j] {
		for l, v := range row {
			P.Set(c, l, math.Exp(v))
		}
	}
	return P
}

// nominalAdvice is Gaussian naive Bayes' advice on nominal columns.
func nominalAdvice(cols []datasets.Column) []advice.Warning {
	var names []string
	for _, c := range cols {
		if c.Kind == datasets.Nominal {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	list := strings.Join(names, ", ")
	if len(names) > 4 {
		list = strings.Join(names[:4], ", ") + fmt.Sprintf(" and %d more", len(names)-4)
	}
	return []advice.Warning{advice.Say("Gaussian naive Bayes sees the nominal columns (%s) one-hot encoded and fits a Gaussian to each 0/1 column, which models levels badly; categorical naive Bayes counts the levels instead", list).
		With(advice.Remedy{Kind: advice.Model, Model: "cnb"})}
}

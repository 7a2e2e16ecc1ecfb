package linear

// Feature lifting: a linear model fitted on every monomial of its inputs of
// degree 1..p draws a polynomial boundary in the inputs (Shewchuk, Concise
// Machine Learning, lectures 3-4: the parabolic lift x ↦ (x, ‖x‖²) makes
// a circle a plane; lecture 11: polynomial regression). Least squares calls
// it degree; the other linear models take it as their lift parameter.

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// liftMaxWidth bounds the lifted columns whatever the memory: past it a lift
// is a typing mistake (lift=6 on 64 pixels is 75 million columns), refused
// before anything is allocated.
const liftMaxWidth = 100_000

// liftParam is the lift parameter of the models that take one.
var liftParam = engine.Param{Name: "lift", Kind: engine.Int, Default: 1, Min: 1, Max: 6,
	Help:   "fit on every monomial of the features of degree 1..lift (1: no lift)",
	Detail: "Each monomial is standardised. lift=2 adds x², xy and y²: circles and XOR become separable."}

// monomials lists the monomials of degree 1..D of p features in the order
// of scikit-learn's PolynomialFeatures(include_bias=False): by degree, then
// lexicographically. Term t is term parent[t] times feature factor[t]
// (parent -1 for degree 1), so a row expands in one multiplication per term.
type monomials struct {
	parent []int
	factor []int
	names  []string // "x1", "x1^2", "x1*x2": a space would be ambiguous with feature names that hold one
}

// newMonomials lists the monomials of degree 1..degree of the features
// names; the caller bounds their number (polyTerms) first.
func newMonomials(names []string, degree int) *monomials {
	p := len(names)
	t := &monomials{}
	last := []int{} // last (largest) feature index of each term
	var powers [][]int
	for j := 0; j < p; j++ {
		t.parent = append(t.parent, -1)
		t.factor = append(t.factor, j)
		last = append(last, j)
		pw := make([]int, p)
		pw[j] = 1
		powers = append(powers, pw)
	}
	lo, hi := 0, p // the terms of the previous degree
	for d := 2; d <= degree; d++ {
		for par := lo; par < hi; par++ {
			for j := last[par]; j < p; j++ {
				t.parent = append(t.parent, par)
				t.factor = append(t.factor, j)
				last = append(last, j)
				pw := append([]int(nil), powers[par]...)
				pw[j]++
				powers = append(powers, pw)
			}
		}
		lo, hi = hi, len(t.parent)
	}
	t.names = make([]string, len(powers))
	for k, pw := range powers {
		var parts []string
		for j, e := range pw {
			switch {
			case e == 1:
				parts = append(parts, names[j])
			case e > 1:
				parts = append(parts, fmt.Sprintf("%s^%d", names[j], e))
			}
		}
		t.names[k] = strings.Join(parts, "*")
	}
	return t
}

// expandRow writes the terms of row x into dst.
func (t *monomials) expandRow(dst, x []float64) {
	for k, par := range t.parent {
		if par < 0 {
			dst[k] = x[t.factor[k]]
		} else {
			dst[k] = dst[par] * x[t.factor[k]]
		}
	}
}

func (t *monomials) expand(X *mat.Dense) *mat.Dense {
	n, _ := X.Dims()
	out := mat.NewDense(n, len(t.parent), nil)
	for i := 0; i < n; i++ {
		t.expandRow(out.RawRowView(i), X.RawRowView(i))
	}
	return out
}

// polyTerms is the number of monomials of degree 1..degree in p features,
// C(p+degree, degree) − 1, saturating at polyTermsMax.
func polyTerms(p, degree int) int {
	terms := 1.0 // C(p+degree, degree), the constant included
	for i := 1; i <= degree; i++ {
		terms = terms * float64(p+i) / float64(i)
	}
	return int(min(math.Round(terms)-1, polyTermsMax))
}

const polyTermsMax = 1e9

// lifted is a fitted lift: the monomials of the inputs, and the mean and
// scale that standardise each of them (nil when they are taken as they are).
//
// The models that standardise their inputs (Spec.Standardize) standardise
// the monomials too, for the same reason: a penalty or a step size treats
// the columns alike only when their scales are comparable, and monomials of
// standardised inputs are not (x⁶ of a Gaussian feature has mean 15 and
// standard deviation about 100). Unscaled, ridge, lasso and logistic
// regression would shrink each power by its units rather than by what it
// explains, and the iterative solvers take longer (lasso with lift=2 on
// diabetes: 300 sweeps instead of 141). Least squares, whose fit does not
// depend on the columns' scales, takes the monomials as they are, so that
// its coefficients are the polynomial's. A nil *lifted is no lift.
type lifted struct {
	inputs      int
	terms       *monomials
	mean, scale []float64
}

// liftTrain returns d with X replaced by its monomials of degree 1..degree
// (and Features by their names), and the lift to apply before predicting;
// d itself and nil when degree <= 1. With standardise, every monomial is
// standardised on these rows. model names the model in errors.
func liftTrain(d engine.Train, degree int, standardise bool, model string) (engine.Train, *lifted, error) {
	if degree <= 1 {
		return d, nil, nil
	}
	p := d.Cols()
	if err := liftCheckWidth(p, degree, model); err != nil {
		return d, nil, err
	}
	// The inputs are checked before lifting, so that a NaN is named by its
	// feature rather than by a monomial.
	if err := checkFinite(d.X, d.Features); err != nil {
		return d, nil, fmt.Errorf("%s: %w", model, err)
	}
	l := &lifted{inputs: p, terms: newMonomials(lsqFeatureNames(d), degree)}
	X := l.terms.expand(d.X)
	if standardise {
		l.mean, l.scale = standardiseColumns(X)
	}
	d.X, d.Features, d.Columns = X, l.terms.names, nil
	return d, l, nil
}

// liftCheckWidth refuses a lift that makes more than liftMaxWidth columns.
func liftCheckWidth(p, degree int, model string) error {
	w := polyTerms(p, degree)
	if w <= liftMaxWidth {
		return nil
	}
	width := fmt.Sprint(w)
	if w >= polyTermsMax {
		width = fmt.Sprintf("more than %d", int(polyTermsMax))
	}
	return engine.Limitf("%s: lift=%d on %d features makes %s columns, more than the %d allowed; lower lift or use fewer features",
		model, degree, p, width, liftMaxWidth)
}

// standardiseColumns sets every column of X to mean 0 and population
// standard deviation 1 in place (a constant column only to mean 0, as
// scikit-learn's StandardScaler), and returns the means and scales used.
func standardiseColumns(X *mat.Dense) (mean, scale []float64) {
	n, p := X.Dims()
	mean, scale = make([]float64, p), make([]float64, p)
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			scale[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	for j, ss := range scale {
		scale[j] = 1
		if sd := math.Sqrt(ss / float64(n)); sd > 0 {
			scale[j] = sd
		}
	}
	liftStandardise(X, mean, scale)
	return mean, scale
}

// liftStandardise applies (x − mean) / scale to every row of X in place.
func liftStandardise(X *mat.Dense, mean, scale []float64) {
	n, _ := X.Dims()
	for i := 0; i < n; i++ {
		row := X.RawRowView(i)
		for j := range row {
			row[j] = (row[j] - mean[j]) / scale[j]
		}
	}
}

// input validates the rows X to predict for a model fitted on width columns
// named features, and lifts them as in training; without a lift (l nil)
// it is predictInput.
func (l *lifted) input(X mat.Matrix, width int, features []string, model string) (*mat.Dense, error) {
	if l == nil {
		return predictInput(X, width, features, model)
	}
	var inputs []string
	if len(features) >= l.inputs {
		inputs = features[:l.inputs]
	}
	D, err := predictInput(X, l.inputs, inputs, model)
	if err != nil {
		return nil, err
	}
	if n, _ := D.Dims(); n == 0 {
		return D, nil
	}
	Z := l.terms.expand(D)
	if l.mean != nil {
		liftStandardise(Z, l.mean, l.scale)
	}
	return Z, nil
}

// liftMemory extends a model's memory estimate (nil: none beyond the rows)
// to its lift: the lifted rows, and the estimate for as many columns as the
// lift makes. A lift wider than liftMaxWidth is left to Fit, which refuses
// it by its width before allocating anything.
func liftMemory(base func(engine.Shape, engine.Values) engine.Need) func(engine.Shape, engine.Values) engine.Need {
	return func(s engine.Shape, v engine.Values) engine.Need {
		deg := v.Int("lift")
		w := polyTerms(s.Cols, deg)
		if deg <= 1 || w > liftMaxWidth {
			if base == nil {
				return engine.Need{}
			}
			return base(s, v)
		}
		need := engine.Matrix(s.Rows, w, fmt.Sprintf("matrix of lifted features (lift=%d)", deg))
		need.Advice = "lower lift, or sample the rows"
		if base != nil {
			s.Cols = w
			need = need.Plus(base(s, v))
		}
		return need
	}
}

// liftState is what the file of a lifted model holds beyond its weights:
// the number of inputs (the first Inputs features; the others are their
// monomials) and the standardisation of every monomial. It is empty
// without a lift.
type liftState struct {
	Inputs int       `json:"inputs,omitempty"`
	Mean   []float64 `json:"lift_mean,omitempty"`
	Scale  []float64 `json:"lift_scale,omitempty"`
}

func (l *lifted) state() liftState {
	if l == nil {
		return liftState{}
	}
	return liftState{Inputs: l.inputs, Mean: l.mean, Scale: l.scale}
}

// load validates s for a model of this degree whose weights are on the
// columns features, and returns the lift it describes (nil when degree <=
// 1, or when c has already failed: features may then not be what they
// claim). The monomials are rebuilt from the first Inputs names, as Fit
// builds them.
func (s liftState) load(c *engine.StateCheck, degree int, features []string, standardised bool) *lifted {
	if !c.OK() {
		return nil
	}
	if degree <= 1 {
		c.That(s.Inputs == 0 && s.Mean == nil && s.Scale == nil, "the state holds a lift, but the model's lift is 1")
		return nil
	}
	if !c.Range("inputs", s.Inputs, 1, len(features)) {
		return nil
	}
	if w := polyTerms(s.Inputs, degree); !c.That(w == len(features), "features has %d names; lift=%d of %d inputs makes %d", len(features), degree, s.Inputs, w) {
		return nil
	}
	l := &lifted{inputs: s.Inputs, terms: newMonomials(features[:s.Inputs], degree)}
	for k, name := range l.terms.names {
		if !c.That(features[k] == name, "features entry %d is %q; want the monomial %q", k+1, features[k], name) {
			return nil
		}
	}
	if !standardised {
		c.That(s.Mean == nil && s.Scale == nil, "the state standardises the lifted features; this model takes them as they are")
		return l
	}
	c.Vector("lift_mean", s.Mean, len(features))
	c.Vector("lift_scale", s.Scale, len(features))
	for j, v := range s.Scale {
		if !c.That(v > 0, "lift_scale entry %d is %v; want a positive scale", j+1, v) {
			break
		}
	}
	l.mean, l.scale = s.Mean, s.Scale
	return l
}

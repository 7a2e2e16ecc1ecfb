package datasets

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Imputer replaces missing values (NaN): numeric columns by the training
// mean, median, most frequent value (the smallest of a tie) or a constant
// (scikit-learn's SimpleImputer), nominal columns by the most frequent
// training level (ties to the first level) whatever the strategy.
type Imputer struct {
	Strategy string  // ImputeMean (default), ImputeMedian, ImputeMostFrequent or ImputeConstant, for numeric columns
	Value    float64 // the fill of ImputeConstant

	in      int
	cols    []Column
	fill    []float64
	missing bool // the training rows had a missing value
	fitted  bool
}

// Fit learns the fill value of every column. A column with no value at all in
// the training rows, or with an infinite one, is an error naming it.
func (im *Imputer) Fit(X *mat.Dense, cols []Column) error {
	im.fitted = false
	strategy := im.Strategy
	if strategy == "" {
		strategy = "mean"
	}
	if !slices.Contains(ImputeStrategies, strategy) {
		return fmt.Errorf("imputer: strategy %q is not one of %s", im.Strategy, strings.Join(ImputeStrategies, ", "))
	}
	if strategy == ImputeConstant && (math.IsNaN(im.Value) || math.IsInf(im.Value, 0)) {
		return fmt.Errorf("imputer: the constant fill %v is not a finite number", im.Value)
	}
	cols, err := checkFit("imputer", X, cols)
	if err != nil {
		return err
	}
	n, p := X.Dims()
	// One pass over the rows: counts and sums for means, the values
	// themselves only where a most frequent level or a median needs them.
	nan := make([]int, p)
	sum := make([]float64, p)
	vals := make([][]float64, p)
	keep := make([]bool, p)
	for j, c := range cols {
		keep[j] = c.Kind == Nominal || strategy == ImputeMedian || strategy == ImputeMostFrequent
	}
	missing := false
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if v-v != 0 { // NaN or ±Inf
				if v != v {
					nan[j]++
					missing = true
					continue
				}
				// It would make the mean, and the standardised column, ±Inf.
				return fmt.Errorf("column %q: %v in training row %d is not a finite number; replace it, or mark it missing (NaN)", cols[j].Name, v, i+1)
			}
			sum[j] += v
			if keep[j] {
				vals[j] = append(vals[j], v)
			}
		}
	}
	fill := make([]float64, p)
	for j := 0; j < p; j++ {
		count := n - nan[j]
		if count == 0 && (strategy != ImputeConstant || cols[j].Kind == Nominal) {
			return fmt.Errorf("column %q has no values in the training rows: drop it or fill it in", cols[j].Name)
		}
		switch {
		case cols[j].Kind == Nominal, strategy == ImputeMostFrequent:
			fill[j] = mostFrequent(vals[j])
		case strategy == ImputeConstant:
			fill[j] = im.Value
		case strategy == ImputeMedian:
			v := vals[j]
			sort.Float64s(v)
			m := len(v)
			if m%2 == 1 {
				fill[j] = v[m/2]
			} else {
				fill[j] = (v[m/2-1] + v[m/2]) / 2
			}
		default:
			fill[j] = sum[j] / float64(count)
		}
	}
	im.in, im.cols, im.fill, im.missing, im.fitted = p, cols, fill, missing, true
	return nil
}

// The imputation strategies of numeric columns, as scikit-learn's
// SimpleImputer names them.
const (
	ImputeMean         = "mean"
	ImputeMedian       = "median"
	ImputeMostFrequent = "most_frequent"
	ImputeConstant     = "constant"
)

// ImputeStrategies lists the strategies an Imputer takes.
var ImputeStrategies = []string{ImputeMean, ImputeMedian, ImputeMostFrequent, ImputeConstant}

// mostFrequent returns the most common value, the smallest among ties.
func mostFrequent(vals []float64) float64 {
	count := map[float64]int{}
	for _, v := range vals {
		count[v]++
	}
	best, bestN := 0.0, -1
	for v, c := range count {
		if c > bestN || (c == bestN && v < best) {
			best, bestN = v, c
		}
	}
	return best
}

// Fill returns the value each column's missing entries receive.
func (im *Imputer) Fill() []float64 { return append([]float64(nil), im.fill...) }

// Apply returns a copy of X with missing values filled in.
func (im *Imputer) Apply(X *mat.Dense) (*mat.Dense, error) {
	if !im.fitted {
		return nil, fmt.Errorf("imputer: %w", ErrNotFitted)
	}
	if err := checkApply("imputer", X, im.in); err != nil {
		return nil, err
	}
	Z := mat.DenseCopyOf(X)
	im.fillInPlace(Z)
	return Z, nil
}

func (im *Imputer) fillInPlace(Z *mat.Dense) {
	n, _ := Z.Dims()
	for i := 0; i < n; i++ {
		row := Z.RawRowView(i)
		for j, v := range row {
			if math.IsNaN(v) {
				row[j] = im.fill[j]
			}
		}
	}
}

// OneHot encodes each nominal column as one 0/1 column per level seen in the
// training rows, named "column=level" (scikit-learn's OneHotEncoder with
// handle_unknown="ignore"): a level not seen in training, or a missing value,
// encodes as all zeros. Numeric columns pass through unchanged.
type OneHot struct {
	in     int
	width  int
	enc    []onehotCol
	names  []string
	fitted bool
}

type onehotCol struct {
	nominal bool
	out     int   // first output column
	slot    []int // level code -> offset from out, -1 if unseen
}

// Fit learns the levels of each nominal column present in X.
func (o *OneHot) Fit(X *mat.Dense, cols []Column) error {
	o.fitted = false
	cols, err := checkFit("one-hot encoder", X, cols)
	if err != nil {
		return err
	}
	n, p := X.Dims()
	o.enc = make([]onehotCol, p)
	o.names = o.names[:0]
	out := 0
	for j, c := range cols {
		if c.Kind != Nominal {
			o.enc[j] = onehotCol{out: out}
			o.names = append(o.names, c.Name)
			out++
			continue
		}
		seen := map[int]bool{}
		maxCode := -1
		for i := 0; i < n; i++ {
			v := X.At(i, j)
			if code := int(v); float64(code) == v && code >= 0 && code < 1<<20 {
				seen[code] = true
				maxCode = max(maxCode, code)
			}
		}
		codes := make([]int, 0, len(seen))
		for code := range seen {
			codes = append(codes, code)
		}
		sort.Ints(codes)
		slot := make([]int, maxCode+1)
		for k := range slot {
			slot[k] = -1
		}
		for k, code := range codes {
			slot[code] = k
			level := strconv.Itoa(code)
			if code < len(c.Levels) {
				level = c.Levels[code]
			}
			o.names = append(o.names, c.Name+"="+level)
		}
		o.enc[j] = onehotCol{nominal: true, out: out, slot: slot}
		out += len(codes)
	}
	o.in, o.width, o.fitted = p, out, true
	return nil
}

// indicators marks the output columns that are a nominal column's 0/1
// indicators (the others pass a numeric column through).
func (o *OneHot) indicators() []bool {
	ind := make([]bool, o.width)
	for j, e := range o.enc {
		if !e.nominal {
			continue
		}
		end := o.width
		if j+1 < len(o.enc) {
			end = o.enc[j+1].out
		}
		for k := e.out; k < end; k++ {
			ind[k] = true
		}
	}
	return ind
}

// Features names the output columns.
func (o *OneHot) Features() []string { return append([]string(nil), o.names...) }

// Apply returns the encoded matrix.
func (o *OneHot) Apply(X *mat.Dense) (*mat.Dense, error) {
	if !o.fitted {
		return nil, fmt.Errorf("one-hot encoder: %w", ErrNotFitted)
	}
	if err := checkApply("one-hot encoder", X, o.in); err != nil {
		return nil, err
	}
	Z := o.transform(X)
	if Z == X {
		Z = mat.DenseCopyOf(X)
	}
	return Z, nil
}

// transform encodes X; it returns X itself when there is nothing to encode.
func (o *OneHot) transform(X *mat.Dense) *mat.Dense {
	if o.width == o.in {
		nominal := false
		for _, e := range o.enc {
			nominal = nominal || e.nominal
		}
		if !nominal {
			return X
		}
	}
	n, _ := X.Dims()
	if o.width == 0 {
		return &mat.Dense{}
	}
	Z := mat.NewDense(n, o.width, nil)
	for i := 0; i < n; i++ {
		src, dst := X.RawRowView(i), Z.RawRowView(i)
		for j, e := range o.enc {
			v := src[j]
			if !e.nominal {
				dst[e.out] = v
				continue
			}
			if code := int(v); float64(code) == v && code >= 0 && code < len(e.slot) {
				if k := e.slot[code]; k >= 0 {
					dst[e.out+k] = 1
				}
			}
		}
	}
	return Z
}

// ConstantDropper removes the columns that are constant on the training rows
// (they carry no information and make covariance matrices singular). Two NaN
// count as equal; a value and a NaN do not.
type ConstantDropper struct {
	in     int
	keep   []int
	names  []string
	fitted bool
}

// Fit finds the non-constant columns of X; names (nil: x0, x1, ...) name
// them. Every column constant is an error that lists them.
func (c *ConstantDropper) Fit(X *mat.Dense, names []string) error {
	c.fitted = false
	names, err := namesOrDefault("constant-column filter", X, names)
	if err != nil {
		return err
	}
	n, p := X.Dims()
	constant := make([]bool, p)
	active := make([]int, p) // the columns still constant so far
	for j := range constant {
		constant[j] = true
		active[j] = j
	}
	first := X.RawRowView(0)
	for i := 1; i < n && len(active) > 0; i++ {
		row := X.RawRowView(i)
		k := 0
		for _, j := range active {
			if v := row[j]; v != first[j] && !(math.IsNaN(v) && math.IsNaN(first[j])) {
				constant[j] = false
				continue
			}
			active[k] = j
			k++
		}
		active = active[:k]
	}
	c.keep = c.keep[:0]
	c.names = c.names[:0]
	for j, k := range constant {
		if !k {
			c.keep = append(c.keep, j)
			c.names = append(c.names, names[j])
		}
	}
	if len(c.keep) == 0 {
		return fmt.Errorf("no features left: every column is constant on the %d training rows (%s)", n, listNames(names, 8))
	}
	c.in, c.fitted = p, true
	return nil
}

// keepAll is Fit for data whose every column keeps its place.
func (c *ConstantDropper) keepAll(X *mat.Dense, names []string) error {
	c.fitted = false
	names, err := namesOrDefault("constant-column filter", X, names)
	if err != nil {
		return err
	}
	_, p := X.Dims()
	c.keep, c.names = c.keep[:0], append(c.names[:0], names...)
	for j := range p {
		c.keep = append(c.keep, j)
	}
	c.in, c.fitted = p, true
	return nil
}

func listNames(names []string, most int) string {
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + fmt.Sprintf(", ... %d more", len(names)-most)
}

// Kept lists the input columns that Apply keeps.
func (c *ConstantDropper) Kept() []int { return append([]int(nil), c.keep...) }

// Features names the kept columns.
func (c *ConstantDropper) Features() []string { return append([]string(nil), c.names...) }

// Apply returns X without the constant columns.
func (c *ConstantDropper) Apply(X *mat.Dense) (*mat.Dense, error) {
	if !c.fitted {
		return nil, fmt.Errorf("constant-column filter: %w", ErrNotFitted)
	}
	if err := checkApply("constant-column filter", X, c.in); err != nil {
		return nil, err
	}
	Z := c.transform(X)
	if Z == X {
		Z = mat.DenseCopyOf(X)
	}
	return Z, nil
}

// transform returns X itself when no column is dropped.
func (c *ConstantDropper) transform(X *mat.Dense) *mat.Dense {
	if len(c.keep) == c.in {
		return X
	}
	n, _ := X.Dims()
	Z := mat.NewDense(n, len(c.keep), nil)
	for i := 0; i < n; i++ {
		src, dst := X.RawRowView(i), Z.RawRowView(i)
		for k, j := range c.keep {
			dst[k] = src[j]
		}
	}
	return Z
}

// Polynomial expands features into every monomial of degree 1..Degree
// (Shewchuk, Concise Machine Learning, lecture 11, polynomial regression; the bias column is left to the model),
// in scikit-learn's PolynomialFeatures(include_bias=False) order: x0, x1,
// x0^2, x0*x1, x1^2, ... Degree 0 or 1 leaves X unchanged.
type Polynomial struct {
	Degree int

	in     int
	parent []int // term whose product with x[last] gives this term; -1 for degree 1
	last   []int
	names  []string
	fitted bool
}

// Fit builds the list of monomials for X's columns, named from names (nil:
// x0, x1, ...). More than 10000 output columns is an error.
func (p *Polynomial) Fit(X *mat.Dense, names []string) error {
	p.fitted = false
	if p.Degree < 0 || p.Degree > maxPolyDegree {
		return fmt.Errorf("polynomial features: degree %d is out of range [0, %d]", p.Degree, maxPolyDegree)
	}
	names, err := namesOrDefault("polynomial features", X, names)
	if err != nil {
		return err
	}
	return p.build(names)
}

// build lists the monomials of the columns names, as Fit does; a saved
// preprocessing rebuilds them from its degree and names alone.
func (p *Polynomial) build(names []string) error {
	d := len(names)
	deg := max(p.Degree, 1)
	if total := polyCount(d, deg); total > maxPolyFeatures {
		return fmt.Errorf("polynomial features: degree %d of %d features makes more than %d columns; lower the degree", deg, d, maxPolyFeatures)
	}
	p.parent, p.last, p.names = p.parent[:0], p.last[:0], p.names[:0]
	// A term is a sorted list of columns (a multiset of exponents).
	type term struct {
		idx  int
		cols []int
	}
	prev := make([]term, d)
	for j := 0; j < d; j++ {
		prev[j] = term{idx: j, cols: []int{j}}
		p.parent = append(p.parent, -1)
		p.last = append(p.last, j)
		p.names = append(p.names, names[j])
	}
	for k := 2; k <= deg; k++ {
		var next []term
		// prev is in lexicographic order, so extending each of its terms by
		// every column >= its last column keeps that order: it reproduces
		// itertools.combinations_with_replacement, as scikit-learn does.
		for _, t := range prev {
			for j := t.cols[len(t.cols)-1]; j < d; j++ {
				cols := append(append([]int(nil), t.cols...), j)
				next = append(next, term{idx: len(p.parent), cols: cols})
				p.parent = append(p.parent, t.idx)
				p.last = append(p.last, j)
				p.names = append(p.names, monomialName(names, cols))
			}
		}
		prev = next
	}
	p.in, p.fitted = d, true
	return nil
}

// polyCount is the number of monomials of degree 1..deg in d variables,
// C(d+deg, deg) - 1, saturating past maxPolyFeatures.
// PolyColumns is the number of columns a polynomial expansion of degree
// deg makes of d columns; past the cap an expansion refuses, one more.
func PolyColumns(d, deg int) int {
	if deg < 2 {
		return d
	}
	return min(polyCount(d, deg), maxPolyFeatures+1)
}

func polyCount(d, deg int) int {
	c := 1
	for k := 1; k <= deg; k++ {
		c = c * (d + k) / k
		if c > 1<<40 {
			return maxPolyFeatures + 1
		}
	}
	return c - 1
}

// monomialName spells a sorted column list, e.g. [0 0 1] -> "x0^2*x1".
func monomialName(names []string, cols []int) string {
	var b strings.Builder
	for i := 0; i < len(cols); {
		j := i
		for j < len(cols) && cols[j] == cols[i] {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte('*')
		}
		b.WriteString(names[cols[i]])
		if j-i > 1 {
			b.WriteByte('^')
			b.WriteString(strconv.Itoa(j - i))
		}
		i = j
	}
	return b.String()
}

// Features names the output columns.
func (p *Polynomial) Features() []string { return append([]string(nil), p.names...) }

// Apply returns the expanded matrix.
func (p *Polynomial) Apply(X *mat.Dense) (*mat.Dense, error) {
	if !p.fitted {
		return nil, fmt.Errorf("polynomial features: %w", ErrNotFitted)
	}
	if err := checkApply("polynomial features", X, p.in); err != nil {
		return nil, err
	}
	Z := p.transform(X)
	if Z == X {
		Z = mat.DenseCopyOf(X)
	}
	return Z, nil
}

// transform returns X itself when the degree is 0 or 1.
func (p *Polynomial) transform(X *mat.Dense) *mat.Dense {
	if len(p.parent) == p.in {
		return X
	}
	n, _ := X.Dims()
	Z := mat.NewDense(n, len(p.parent), nil)
	for i := 0; i < n; i++ {
		x, z := X.RawRowView(i), Z.RawRowView(i)
		copy(z, x)
		for t := p.in; t < len(z); t++ {
			z[t] = z[p.parent[t]] * x[p.last[t]]
		}
	}
	return Z
}

// Standardizer centres each column on its training mean and divides it by
// its training population standard deviation (scikit-learn's
// StandardScaler); a constant column is only centred. NaN values are ignored
// by Fit and stay NaN.
type Standardizer struct {
	// Method is ScaleStandard ("" too), ScaleMinMax (scikit-learn's
	// MinMaxScaler: from the minimum, divided by the range) or ScaleRobust
	// (its RobustScaler: from the median, divided by the interquartile
	// range, linear percentiles as numpy's). A column without spread is
	// only moved, as scikit-learn leaves its scale at 1.
	Method      string
	mean, scale []float64
	// unscaled lists the columns whose values differ but by less than
	// rounding can tell from a constant: they are only centred.
	unscaled []int
	fitted   bool
}

// Fit learns the mean and standard deviation of every column. A column is
// summed in units of its largest magnitude (ScaleUnit), so values near
// 1e160, whose squares overflow, or near 1e-170, whose squares underflow,
// standardise as well as values near 1.
func (s *Standardizer) Fit(X *mat.Dense) error {
	s.fitted = false
	if X == nil || X.IsEmpty() {
		return errors.New("standardizer: no training rows")
	}
	switch s.Method {
	case "", ScaleStandard:
	case ScaleMinMax, ScaleRobust:
		return s.fitOrder(X)
	default:
		return fmt.Errorf("scaler: method %q is not one of %s, %s, %s", s.Method, ScaleStandard, ScaleMinMax, ScaleRobust)
	}
	n, p := X.Dims()
	lo, hi := make([]float64, p), make([]float64, p)
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if v < lo[j] { // NaN compares false
				lo[j] = v
			}
			if v > hi[j] {
				hi[j] = v
			}
		}
	}
	unit, inv := make([]float64, p), make([]float64, p)
	for j := range unit {
		unit[j] = ScaleUnit(lo[j], hi[j])
		inv[j] = 1 / unit[j]
	}
	mean := make([]float64, p)
	count := make([]float64, p)
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if !math.IsNaN(v) {
				mean[j] += v * inv[j]
				count[j]++
			}
		}
	}
	for j := range mean {
		if count[j] > 0 {
			mean[j] /= count[j]
		}
	}
	// Two passes: the centred sum of squares is accurate even when the mean
	// is large compared with the spread.
	ss := make([]float64, p)
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if !math.IsNaN(v) {
				d := v*inv[j] - mean[j]
				ss[j] += d * d
			}
		}
	}
	scale := make([]float64, p)
	s.unscaled = s.unscaled[:0]
	for j := range scale {
		scale[j] = 1
		if count[j] > 0 {
			if sd := math.Sqrt(ss[j] / count[j]); sd > 0 && sd > 1e-12*math.Abs(mean[j]) {
				scale[j] = sd * unit[j] // at most the largest magnitude: finite
			} else if lo[j] < hi[j] {
				s.unscaled = append(s.unscaled, j)
			}
		}
		mean[j] *= unit[j]
	}
	s.mean, s.scale, s.fitted = mean, scale, true
	return nil
}

// The scalers' methods.
const (
	ScaleStandard = "standard"
	ScaleMinMax   = "minmax"
	ScaleRobust   = "robust"
	ScaleNone     = "none" // PrepOptions.Scale: no scaling, whatever Standardize says
)

// fitOrder fits the min-max and robust scalers, both of order statistics
// of each column's values (NaN left out).
func (s *Standardizer) fitOrder(X *mat.Dense) error {
	n, p := X.Dims()
	s.mean, s.scale, s.unscaled = make([]float64, p), make([]float64, p), s.unscaled[:0]
	col := make([]float64, 0, n)
	for j := 0; j < p; j++ {
		col = col[:0]
		for i := 0; i < n; i++ {
			if v := X.At(i, j); !math.IsNaN(v) {
				col = append(col, v)
			}
		}
		s.mean[j], s.scale[j] = 0, 1
		if len(col) == 0 {
			continue
		}
		sort.Float64s(col)
		var lo, spread float64
		if s.Method == ScaleMinMax {
			lo, spread = col[0], col[len(col)-1]-col[0]
		} else {
			lo, spread = Percentile(col, 50), Percentile(col, 75)-Percentile(col, 25)
		}
		s.mean[j] = lo
		if spread > 0 && !math.IsInf(spread, 0) {
			s.scale[j] = spread
		}
	}
	s.fitted = true
	return nil
}

// Percentile is numpy's percentile (linear interpolation) of the sorted
// values xs, q in [0, 100].
func Percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	h := q / 100 * float64(len(xs)-1)
	lo := int(math.Floor(h))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	f := h - float64(lo)
	return xs[lo] + f*(xs[lo+1]-xs[lo])
}

// hugeValue is the magnitude from which differences of a column's values
// could overflow float64.
const hugeValue = 1e300

// Mean returns the training mean of each column.
func (s *Standardizer) Mean() []float64 { return append([]float64(nil), s.mean...) }

// Scale returns the divisor of each column (1 for a constant column).
func (s *Standardizer) Scale() []float64 { return append([]float64(nil), s.scale...) }

// Apply returns (X - mean) / scale.
func (s *Standardizer) Apply(X *mat.Dense) (*mat.Dense, error) {
	if !s.fitted {
		return nil, fmt.Errorf("standardizer: %w", ErrNotFitted)
	}
	if err := checkApply("standardizer", X, len(s.mean)); err != nil {
		return nil, err
	}
	Z := mat.DenseCopyOf(X)
	s.applyInPlace(Z)
	return Z, nil
}

func (s *Standardizer) applyInPlace(Z *mat.Dense) {
	n, _ := Z.Dims()
	inv := make([]float64, len(s.scale))
	careful := make([]bool, len(s.scale))
	anyCareful := false
	for j, sc := range s.scale {
		inv[j] = 1 / sc
		// v − mean can overflow near the largest float64, and 1/scale does
		// for a spread near the smallest: divide each term instead.
		careful[j] = sc > hugeValue || math.Abs(s.mean[j]) > hugeValue || math.IsInf(inv[j], 0)
		anyCareful = anyCareful || careful[j]
	}
	for i := 0; i < n; i++ {
		row := Z.RawRowView(i)
		if !anyCareful {
			for j, v := range row {
				row[j] = (v - s.mean[j]) * inv[j]
			}
			continue
		}
		for j, v := range row {
			if careful[j] {
				row[j] = v/s.scale[j] - s.mean[j]/s.scale[j]
			} else {
				row[j] = (v - s.mean[j]) * inv[j]
			}
		}
	}
}

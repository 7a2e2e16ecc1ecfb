package datasets

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// prepState is a fitted Prep as a model file keeps it: each stage's
// statistics, in the order the stages run. A stage that did not run is
// absent.
type prepState struct {
	Inputs int `json:"inputs"` // columns Apply takes
	// Select: the input columns a selection kept, increasing; absent:
	// every one. The stages after it see these alone.
	Select []int `json:"select,omitempty"`
	// Impute: the value each input column's missing entries receive.
	Impute *imputeState `json:"impute,omitempty"`
	// Indicators: the input columns given a 0/1 missing-value column,
	// appended after the inputs in this order (read before imputing,
	// appended after discretising).
	Indicators []int `json:"indicators,omitempty"`
	// Discretize: the inner bin edges of each input column; null for a
	// column left as it is.
	Discretize *binState `json:"discretize,omitempty"`
	// OneHot: per input column, the level codes seen in training (each
	// becomes a 0/1 column, in this order); null for a numeric column.
	OneHot [][]int `json:"one_hot,omitempty"`
	// Keep: the columns (after one-hot encoding) kept by the constant
	// filter, in increasing order.
	Keep []int `json:"keep"`
	// Degree of the polynomial expansion; 0 when none.
	Degree int `json:"degree,omitempty"`
	// Standardize: per column, subtract mean then divide by scale.
	Standardize *scaleState `json:"standardize,omitempty"`
	// Project: the principal axes rows are projected onto, after
	// centring on mean.
	Project *projectState `json:"project,omitempty"`
	// Columns describes what Apply returns: name, and for nominal columns
	// kept as codes their levels.
	Columns []columnState `json:"columns"`
}

type imputeState struct {
	Strategy string    `json:"strategy"`
	Fill     []float64 `json:"fill"`
}

type binState struct {
	Method string      `json:"method"`
	Cuts   [][]float64 `json:"cuts"`
}

type scaleState struct {
	Method string    `json:"method,omitempty"` // "" standard, as files before it
	Mean   []float64 `json:"mean"`
	Scale  []float64 `json:"scale"`
}

type projectState struct {
	Mean       []float64   `json:"mean"`
	Components [][]float64 `json:"components"` // one row a component
}

type columnState struct {
	Name    string   `json:"name"`
	Nominal bool     `json:"nominal,omitempty"` // kept as level codes
	Levels  []string `json:"levels,omitempty"`
}

// MarshalJSON encodes the fitted statistics of every stage, so that a model
// file can apply the same preprocessing to new rows.
func (p *Prep) MarshalJSON() ([]byte, error) {
	if p == nil || !p.fitted {
		return nil, fmt.Errorf("preprocessing: %w", ErrNotFitted)
	}
	s := prepState{Inputs: p.in, Select: p.sel, Keep: p.dropper.keep}
	if p.imputer != nil {
		s.Impute = &imputeState{Strategy: p.imputer.Strategy, Fill: p.imputer.fill}
		if s.Impute.Strategy == "" {
			s.Impute.Strategy = ImputeMean
		}
	}
	s.Indicators = p.indicate
	if p.bins != nil {
		s.Discretize = &binState{Method: p.bins.Method, Cuts: p.bins.cuts}
	}
	if p.onehot != nil {
		s.OneHot = make([][]int, len(p.onehot.enc))
		for j, e := range p.onehot.enc {
			if e.nominal {
				s.OneHot[j] = seenCodes(e.slot)
			}
		}
	}
	if p.poly != nil {
		s.Degree = p.poly.Degree
	}
	if p.std != nil {
		s.Standardize = &scaleState{Mean: p.std.mean, Scale: p.std.scale}
		if p.std.Method != ScaleStandard {
			s.Standardize.Method = p.std.Method
		}
	}
	if p.pca != nil {
		k, _ := p.pca.V.Dims()
		rows := make([][]float64, k)
		for c := range rows {
			rows[c] = p.pca.V.RawRowView(c)
		}
		s.Project = &projectState{Mean: p.pca.mean, Components: rows}
	}
	for _, c := range p.columns {
		cs := columnState{Name: c.Name}
		if c.Kind == Nominal {
			cs.Nominal, cs.Levels = true, c.Levels
		}
		s.Columns = append(s.Columns, cs)
	}
	return json.Marshal(s)
}

// seenCodes lists the level codes a one-hot column encodes, in order.
func seenCodes(slot []int) []int {
	codes := []int{}
	for code, k := range slot {
		if k >= 0 {
			codes = append(codes, code)
		}
	}
	return codes
}

// UnmarshalJSON restores a Prep that MarshalJSON encoded. Everything is
// checked (shapes agree from stage to stage, numbers are finite, indices
// in range): a state edited by hand or truncated is an error saying what is
// wrong, never a Prep that panics in Apply.
func (p *Prep) UnmarshalJSON(data []byte) error {
	var s prepState
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("preprocessing: %w", err)
	}
	q, err := s.prep()
	if err != nil {
		return fmt.Errorf("preprocessing: %w", err)
	}
	*p = *q
	return nil
}

// maxLevelCode bounds the level codes one-hot encoding accepts (as Fit).
const maxLevelCode = 1 << 20

// prep rebuilds the stages from s, checking each against the width the
// stage before it produces.
func (s *prepState) prep() (*Prep, error) {
	if s.Inputs < 1 {
		return nil, fmt.Errorf("inputs %d: at least 1 column", s.Inputs)
	}
	p := &Prep{in: s.Inputs}
	width := s.Inputs
	if s.Select != nil {
		if len(s.Select) == 0 {
			return nil, errors.New("select: no column kept")
		}
		for k, j := range s.Select {
			if j < 0 || j >= width || (k > 0 && j <= s.Select[k-1]) {
				return nil, fmt.Errorf("select: column indices must be increasing, from 0 to %d", width-1)
			}
		}
		p.sel, width = s.Select, len(s.Select)
	}
	if s.Impute != nil {
		if !slices.Contains(ImputeStrategies, s.Impute.Strategy) {
			return nil, fmt.Errorf("impute strategy %q is not one of %s", s.Impute.Strategy, strings.Join(ImputeStrategies, ", "))
		}
		if err := finiteVector("impute fill", s.Impute.Fill, width); err != nil {
			return nil, err
		}
		p.imputer = &Imputer{Strategy: s.Impute.Strategy, in: width, fill: s.Impute.Fill, fitted: true}
	}
	if s.Discretize != nil {
		b, err := binsFrom(s.Discretize, width)
		if err != nil {
			return nil, err
		}
		p.bins = b
	}
	for k, j := range s.Indicators {
		if j < 0 || j >= width || (k > 0 && j <= s.Indicators[k-1]) {
			return nil, fmt.Errorf("indicators: column indices must be increasing, from 0 to %d", width-1)
		}
	}
	p.indicate = s.Indicators
	width += len(s.Indicators)
	if s.OneHot != nil {
		o, err := oneHotFrom(s.OneHot, width)
		if err != nil {
			return nil, err
		}
		p.onehot, width = o, o.width
	}
	if err := keepFrom(&p.dropper, s.Keep, width); err != nil {
		return nil, err
	}
	width = len(s.Keep)
	if s.Degree != 0 {
		if s.Degree < 2 || s.Degree > maxPolyDegree {
			return nil, fmt.Errorf("polynomial degree %d is out of range [2, %d]", s.Degree, maxPolyDegree)
		}
		if polyCount(width, s.Degree) > maxPolyFeatures {
			return nil, fmt.Errorf("polynomial degree %d of %d columns makes more than %d columns", s.Degree, width, maxPolyFeatures)
		}
		p.poly = &Polynomial{Degree: s.Degree}
		names := make([]string, width)
		for j := range names {
			names[j] = fmt.Sprintf("x%d", j)
		}
		if err := p.poly.build(names); err != nil {
			return nil, err
		}
		width = len(p.poly.parent)
	}
	if s.Standardize != nil {
		if err := finiteVector("standardize mean", s.Standardize.Mean, width); err != nil {
			return nil, err
		}
		if err := finiteVector("standardize scale", s.Standardize.Scale, width); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(s.Standardize.Scale, func(v float64) bool { return v <= 0 }) {
			return nil, errors.New("standardize scale: every scale must be above 0")
		}
		method := s.Standardize.Method
		if method == "" {
			method = ScaleStandard
		}
		if method != ScaleStandard && method != ScaleMinMax && method != ScaleRobust {
			return nil, fmt.Errorf("standardize method %q is not one of %s, %s, %s", method, ScaleStandard, ScaleMinMax, ScaleRobust)
		}
		p.std = &Standardizer{Method: method, mean: s.Standardize.Mean, scale: s.Standardize.Scale, fitted: true}
	}
	if s.Project != nil {
		pr, err := projectionFrom(s.Project, width)
		if err != nil {
			return nil, err
		}
		p.pca = pr
		width, _ = pr.V.Dims()
	}
	if len(s.Columns) != width {
		return nil, fmt.Errorf("columns: %d described, the stages make %d", len(s.Columns), width)
	}
	for _, c := range s.Columns {
		col := Column{Name: c.Name}
		if c.Nominal {
			col.Kind, col.Levels = Nominal, c.Levels
		}
		p.columns = append(p.columns, col)
		p.features = append(p.features, c.Name)
	}
	p.fitted = true
	return p, nil
}

// finiteVector checks that v has n finite values.
func finiteVector(what string, v []float64, n int) error {
	if len(v) != n {
		return fmt.Errorf("%s: %d values for %d columns", what, len(v), n)
	}
	for j, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s: value %d is not a finite number", what, j+1)
		}
	}
	return nil
}

// oneHotFrom rebuilds a fitted OneHot over in columns from the level codes
// each nominal column encodes (nil: numeric).
func oneHotFrom(codes [][]int, in int) (*OneHot, error) {
	if len(codes) != in {
		return nil, fmt.Errorf("one_hot: %d columns described for %d inputs", len(codes), in)
	}
	o := &OneHot{in: in, enc: make([]onehotCol, in)}
	for j, cs := range codes {
		if cs == nil {
			o.enc[j] = onehotCol{out: o.width}
			o.width++
			continue
		}
		if !slices.IsSorted(cs) || slices.ContainsFunc(cs, func(c int) bool { return c < 0 || c >= maxLevelCode }) {
			return nil, fmt.Errorf("one_hot: column %d: level codes must be increasing, from 0 to %d", j+1, maxLevelCode-1)
		}
		slot := []int{}
		for k, code := range cs {
			if k > 0 && code == cs[k-1] {
				return nil, fmt.Errorf("one_hot: column %d: level code %d twice", j+1, code)
			}
			for len(slot) <= code {
				slot = append(slot, -1)
			}
			slot[code] = k
		}
		o.enc[j] = onehotCol{nominal: true, out: o.width, slot: slot}
		o.width += len(cs)
	}
	o.fitted = true
	return o, nil
}

// binsFrom restores a fitted Discretizer over in columns.
func binsFrom(s *binState, in int) (*Discretizer, error) {
	if !slices.Contains(BinMethods, s.Method) {
		return nil, fmt.Errorf("discretize method %q is not one of %s", s.Method, strings.Join(BinMethods, ", "))
	}
	if len(s.Cuts) != in {
		return nil, fmt.Errorf("discretize: %d columns described for %d", len(s.Cuts), in)
	}
	for j, cuts := range s.Cuts {
		for k, c := range cuts {
			if math.IsNaN(c) || math.IsInf(c, 0) || (k > 0 && c <= cuts[k-1]) {
				return nil, fmt.Errorf("discretize: column %d: the edges must be finite and increasing", j+1)
			}
		}
		if len(cuts) >= maxLevelCode {
			return nil, fmt.Errorf("discretize: column %d: %d edges, at most %d", j+1, len(cuts), maxLevelCode-1)
		}
	}
	return &Discretizer{Method: s.Method, in: in, cuts: s.Cuts, fitted: true}, nil
}

// keepFrom restores a fitted ConstantDropper over in columns.
func keepFrom(c *ConstantDropper, keep []int, in int) error {
	if len(keep) == 0 {
		return errors.New("keep: no column kept")
	}
	for k, j := range keep {
		if j < 0 || j >= in || (k > 0 && j <= keep[k-1]) {
			return fmt.Errorf("keep: column indices must be increasing, from 0 to %d", in-1)
		}
	}
	c.in, c.keep, c.fitted = in, keep, true
	return nil
}

// projectionFrom restores a projection of rows of width p.
func projectionFrom(s *projectState, p int) (*projection, error) {
	if err := finiteVector("project mean", s.Mean, p); err != nil {
		return nil, err
	}
	k := len(s.Components)
	if k == 0 || k > p {
		return nil, fmt.Errorf("project: %d components of %d columns", k, p)
	}
	V := mat.NewDense(k, p, nil)
	for c, row := range s.Components {
		if err := finiteVector(fmt.Sprintf("project component %d", c+1), row, p); err != nil {
			return nil, err
		}
		V.SetRow(c, row)
	}
	return &projection{mean: s.Mean, V: V}, nil
}

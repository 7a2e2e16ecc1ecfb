package datasets

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ErrNotFitted is returned by a transform's Apply before its Fit succeeded.
var ErrNotFitted = errors.New("transform is not fitted")

// maxPolyFeatures caps polynomial expansion: past it the matrix would not
// fit in memory for any data set worth a terminal.
const maxPolyFeatures = 10000

// maxPolyDegree is the largest polynomial degree accepted.
const maxPolyDegree = 10

// PrepOptions chooses the preprocessing of features. The zero value imputes
// missing values with the mean, one-hot encodes nominal columns, drops
// constant columns, and neither expands nor standardises.
type PrepOptions struct {
	Standardize bool    // scale each numeric feature to mean 0, population std 1 (applied last)
	Impute      string  // numeric missing values: ImputeMean (default), ImputeMedian, ImputeMostFrequent or ImputeConstant
	ImputeValue float64 // the fill of ImputeConstant
	// Impute even when KeepMissing says to keep missing values: a person
	// chose how to fill them.
	ForceImpute bool
	// Indicator adds a 0/1 column "missing_<col>" for each column with a
	// missing value in the training rows, 1 where the value was missing
	// (scikit-learn's MissingIndicator, features="missing-only").
	Indicator bool
	// Scale, when set, chooses the scaling instead of Standardize:
	// ScaleStandard, ScaleMinMax, ScaleRobust, or "none".
	Scale string
	// Discretize, when set (BinWidth, BinFrequency, BinMDL), cuts every
	// numeric column into bins (Bins of them for width and frequency),
	// a nominal column then encoded as the others are. MDL needs Y, the
	// class code of each training row, and Classes.
	Discretize string
	Bins       int
	Y          []float64
	Classes    int
	// Ordinal encodes each nominal column as its level code, a number
	// (scikit-learn's OrdinalEncoder), instead of one-hot or kept nominal.
	Ordinal bool
	// Select, when not nil, keeps only these input columns (increasing
	// indices), chosen by a selection on the training rows: the first
	// stage, every other fitted on what it keeps.
	Select []int
	Degree int // polynomial expansion degree; 0 or 1 means none
	// KeepNominal leaves nominal columns as level codes instead of one-hot
	// encoding them (for models that split on or count levels).
	KeepNominal bool
	// KeepMissing leaves missing values as NaN instead of imputing them
	// (for models that route or ignore them); a column with no value at all
	// in the training rows is then dropped like a constant one.
	KeepMissing bool
	// KeepConstant keeps the columns that are constant on the training
	// rows (an image's border pixels, which hold their place in it).
	KeepConstant bool
	// Reduce, when above 0, projects the prepared rows onto their first
	// Reduce principal components (fitted on the training rows), the last
	// stage: a model then learns from PC1..PCk ("reduce first").
	Reduce int
}

// Prep is a fitted preprocessing pipeline: note missing values, impute,
// discretise, append the missing-value indicators, one-hot (or ordinal) encode, drop constant columns, expand
// polynomially, scale, project onto principal components, in that order. Every
// statistic comes from the rows given to FitPrep (the training rows), so
// applying it to test rows leaks nothing.
type Prep struct {
	in       int
	sel      []int        // the input columns kept by a selection; nil: all
	indicate []int        // the columns (after the selection) given a missing-value indicator
	imputer  *Imputer     // nil when missing values are kept
	bins     *Discretizer // nil without discretisation
	onehot   *OneHot      // nil when nominal columns are kept as codes
	dropper  ConstantDropper
	poly     *Polynomial   // nil without expansion
	std      *Standardizer // nil without standardisation
	pca      *projection   // nil without reduction
	features []string
	columns  []Column // what Apply returns, column by column
	warnings []string
	fitted   bool
}

// FitApplyPrepRows fits the pipeline on the rows idx of X (a training part
// of a split) and returns them transformed too, as Apply would, without
// transforming them a second time. The rows are gathered straight into the matrix the stages then transform in
// place: one copy of the part, however many stages run. When idx is every
// row of X in order and no stage changes a value, the result is X itself,
// not a copy (a clustering's rows are as large as the data): read it, do
// not write it.
func FitApplyPrepRows(X *mat.Dense, idx []int, cols []Column, opt PrepOptions) (*Prep, *mat.Dense, error) {
	if everyRow(X, idx) {
		return fitApplyPrep(X, shared, cols, opt)
	}
	return fitApplyPrep(GatherRows(X, idx), owned, cols, opt)
}

// FitApplyPrepOwned is FitApplyPrepRows on rows the caller gives up: the
// stages transform X in place where they can (imputing, standardising),
// and X itself is returned when nothing changes its shape.
func FitApplyPrepOwned(X *mat.Dense, cols []Column, opt PrepOptions) (*Prep, *mat.Dense, error) {
	return fitApplyPrep(X, owned, cols, opt)
}

// everyRow says whether idx lists the rows of X in order.
func everyRow(X *mat.Dense, idx []int) bool {
	if X == nil || X.IsEmpty() {
		return false
	}
	if n, _ := X.Dims(); len(idx) != n {
		return false
	}
	for r, i := range idx {
		if i != r {
			return false
		}
	}
	return true
}

// access says what fitApplyPrep may do with the matrix it is given.
type access int

const (
	owned  access = iota // a fresh copy: the stages may overwrite it
	shared               // the caller's: copy it before a stage writes, or return it as it is
)

// gatherCols copies the columns idx of X into a new matrix.
func gatherCols(X *mat.Dense, idx []int) *mat.Dense {
	n, _ := X.Dims()
	Z := mat.NewDense(n, len(idx), nil)
	for i := range n {
		src, dst := X.RawRowView(i), Z.RawRowView(i)
		for k, j := range idx {
			dst[k] = src[j]
		}
	}
	return Z
}

// Selected lists the input columns a selection kept (nil: every one).
func (p *Prep) Selected() []int {
	if p == nil {
		return nil
	}
	return slices.Clone(p.sel)
}

// GatherRows copies the rows idx of X into a new matrix (an empty one for
// no rows, which the callers then refuse).
func GatherRows(X *mat.Dense, idx []int) *mat.Dense {
	if len(idx) == 0 {
		return &mat.Dense{}
	}
	_, p := X.Dims()
	Z := mat.NewDense(len(idx), p, nil)
	for r, i := range idx {
		copy(Z.RawRowView(r), X.RawRowView(i))
	}
	return Z
}

// DenseOf returns m as a *mat.Dense to read, copying only when m is
// another type.
func DenseOf(m mat.Matrix) *mat.Dense {
	if d, ok := m.(*mat.Dense); ok {
		return d
	}
	return mat.DenseCopyOf(m)
}

// fitApplyPrep fits the pipeline; acc says whether X may be overwritten,
// which the stages may overwrite.
func fitApplyPrep(X *mat.Dense, acc access, cols []Column, opt PrepOptions) (*Prep, *mat.Dense, error) {
	if opt.Impute == "" {
		opt.Impute = ImputeMean
	}
	if !slices.Contains(ImputeStrategies, opt.Impute) {
		return nil, nil, fmt.Errorf("preprocessing: impute strategy %q is not one of %s", opt.Impute, strings.Join(ImputeStrategies, ", "))
	}
	if opt.ForceImpute {
		opt.KeepMissing = false
	}
	if opt.Scale == "" && opt.Standardize {
		opt.Scale = ScaleStandard
	}
	if opt.Scale == ScaleNone {
		opt.Scale = ""
	}
	if opt.Scale != "" && opt.Scale != ScaleStandard && opt.Scale != ScaleMinMax && opt.Scale != ScaleRobust {
		return nil, nil, fmt.Errorf("preprocessing: scaling %q is not one of %s, %s, %s, %s", opt.Scale, ScaleStandard, ScaleMinMax, ScaleRobust, ScaleNone)
	}
	if opt.Ordinal {
		opt.KeepNominal = false
	}
	if opt.Degree < 0 || opt.Degree > maxPolyDegree {
		return nil, nil, fmt.Errorf("preprocessing: polynomial degree %d is out of range [0, %d]", opt.Degree, maxPolyDegree)
	}
	if opt.Degree >= 2 && (opt.KeepNominal || opt.KeepMissing) {
		return nil, nil, errors.New("preprocessing: polynomial expansion needs nominal columns encoded and missing values imputed")
	}
	if opt.Reduce > 0 && (opt.KeepNominal || opt.KeepMissing) {
		return nil, nil, errors.New("preprocessing: reducing to principal components needs numeric features without missing values; this model takes nominal or missing values as they are")
	}
	cols, err := checkFit("preprocessing", X, cols)
	if err != nil {
		return nil, nil, err
	}
	_, in := X.Dims()
	p := &Prep{in: in}
	if opt.Select != nil {
		for k, j := range opt.Select {
			if j < 0 || j >= in || (k > 0 && j <= opt.Select[k-1]) {
				return nil, nil, fmt.Errorf("preprocessing: the selected columns must be increasing, from 0 to %d", in-1)
			}
		}
		if len(opt.Select) == 0 {
			return nil, nil, errors.New("preprocessing: the selection kept no column")
		}
		p.sel = slices.Clone(opt.Select)
		X, acc = gatherCols(X, p.sel), owned
		kept := make([]Column, len(p.sel))
		for k, j := range p.sel {
			kept[k] = cols[j]
		}
		cols = kept
	}
	_, p0 := X.Dims()
	// Z is X until a stage makes a new matrix; X is copied only where a
	// stage works in place and nothing copied it yet.
	Z := X
	var flags *mat.Dense // the missing-value indicators, read before imputing
	if opt.Indicator {
		if p.indicate = missingCols(X); len(p.indicate) > 0 {
			flags = indicate(X, p.indicate)
		}
	}
	if opt.KeepMissing {
		if err := checkFinite(X, cols); err != nil {
			return nil, nil, err
		}
	} else {
		p.imputer = &Imputer{Strategy: opt.Impute, Value: opt.ImputeValue}
		if err := p.imputer.Fit(X, cols); err != nil { // checks finiteness too
			return nil, nil, err
		}
		if p.imputer.missing {
			if acc != owned {
				Z = mat.DenseCopyOf(X)
			}
			p.imputer.fillInPlace(Z)
		}
	}
	outCols := cols
	if opt.Discretize != "" {
		p.bins = &Discretizer{Method: opt.Discretize, Bins: opt.Bins, Y: opt.Y, Classes: opt.Classes}
		if err := p.bins.Fit(Z, outCols); err != nil {
			return nil, nil, fmt.Errorf("preprocessing: %w", err)
		}
		p.bins.Y = nil // the training rows' classes are not the stage's to keep
		if p.bins.any() {
			if Z == X && acc != owned {
				Z = mat.DenseCopyOf(X)
			}
			p.bins.applyInPlace(Z)
		}
		outCols = p.bins.columns(outCols)
	}
	if flags != nil {
		Z = beside(Z, flags)
		outCols = slices.Clone(outCols)
		for _, j := range p.indicate {
			outCols = append(outCols, Column{Name: IndicatorName(cols[j].Name)})
		}
	}
	if opt.Ordinal {
		outCols = slices.Clone(outCols)
		for j := range outCols {
			outCols[j] = Column{Name: outCols[j].Name}
		}
	}
	if !opt.KeepNominal && !opt.Ordinal {
		p.onehot = &OneHot{}
		if err := p.onehot.Fit(Z, outCols); err != nil {
			return nil, nil, err
		}
		Z = p.onehot.transform(Z)
		outCols = make([]Column, 0, p.onehot.width)
		for _, name := range p.onehot.Features() {
			outCols = append(outCols, Column{Name: name})
		}
	}
	names := make([]string, len(outCols))
	for j, c := range outCols {
		names[j] = c.Name
	}
	fitDropper := p.dropper.Fit
	if opt.KeepConstant {
		fitDropper = p.dropper.keepAll
	}
	if err := fitDropper(Z, names); err != nil {
		return nil, nil, err
	}
	Z = p.dropper.transform(Z)
	p.features = p.dropper.Features()
	for _, j := range p.dropper.keep {
		c := outCols[j]
		p.columns = append(p.columns, Column{Name: c.Name, Kind: c.Kind, Levels: c.Levels})
	}
	if opt.Degree >= 2 {
		p.poly = &Polynomial{Degree: opt.Degree}
		if err := p.poly.Fit(Z, p.features); err != nil {
			return nil, nil, err
		}
		Z = p.poly.transform(Z)
		p.features = p.poly.Features()
		p.columns = p.columns[:0]
		for _, name := range p.features {
			p.columns = append(p.columns, Column{Name: name})
		}
	}
	if opt.Scale != "" {
		if Z == X && acc != owned {
			Z = mat.DenseCopyOf(X)
		}
		p.std = &Standardizer{Method: opt.Scale}
		if err := p.std.Fit(Z); err != nil {
			return nil, nil, err
		}
		var indicator []bool // one-hot and missing-value 0/1 columns, by output column
		if p.poly == nil {
			ind := make([]bool, p0+len(p.indicate))
			if p.onehot != nil {
				ind = p.onehot.indicators()
			}
			for k := range p.indicate { // the indicators, after the inputs (one-hot passes them through last)
				ind[len(ind)-1-k] = true
			}
			for _, j := range p.dropper.keep {
				indicator = append(indicator, ind[j])
			}
		}
		for j, c := range p.columns {
			// Level codes are not measurements; 0/1 indicators are on their
			// scale already (scaled, a rare level's mismatch would weigh
			// more than a common one's in a distance or a penalty).
			if c.Kind == Nominal || (j < len(indicator) && indicator[j]) {
				p.std.mean[j], p.std.scale[j] = 0, 1
			} else if slices.Contains(p.std.unscaled, j) {
				p.warnings = append(p.warnings, unscaledWarning(c.Name))
			}
		}
		p.std.applyInPlace(Z)
	}
	if opt.Reduce > 0 {
		p.pca = &projection{}
		if err := p.pca.fit(Z, opt.Reduce); err != nil {
			return nil, nil, err
		}
		Z = p.pca.apply(Z)
		p.features, p.columns = p.pca.names(), nil
		for _, name := range p.features {
			p.columns = append(p.columns, Column{Name: name})
		}
	}
	p.fitted = true
	return p, Z, nil
}

// unscaledWarning says that a column could not be standardised.
func unscaledWarning(name string) string {
	return fmt.Sprintf("column %q varies by less than 1e-12 of its mean, a spread standardising cannot tell from rounding: it is only centred, and a model can hardly use it; subtract a typical value from it before loading it",
		name)
}

// Warnings says which columns the preprocessing could not make usable,
// each naming its column.
func (p *Prep) Warnings() []string {
	if p == nil {
		return nil
	}
	return append([]string(nil), p.warnings...)
}

// checkFinite refuses an infinite value: it would make a mean, and every
// standardised value of its column, infinite or NaN.
func checkFinite(X *mat.Dense, cols []Column) error {
	n, _ := X.Dims()
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if v-v != 0 && v == v { // ±Inf
				return fmt.Errorf("column %q: %v in training row %d is not a finite number; replace it, or mark it missing (NaN)", cols[j].Name, v, i+1)
			}
		}
	}
	return nil
}

// Apply transforms any rows with the statistics learned by FitPrep. X must
// have the columns FitPrep saw; X is not modified.
func (p *Prep) Apply(X *mat.Dense) (*mat.Dense, error) {
	if p == nil || !p.fitted {
		return nil, fmt.Errorf("preprocessing: %w", ErrNotFitted)
	}
	if err := checkApply("preprocessing", X, p.in); err != nil {
		return nil, err
	}
	return p.transform(mat.DenseCopyOf(X)), nil
}

// ApplyRows is Apply on the rows idx of X, gathered straight into the
// matrix that is transformed: one copy of the part.
func (p *Prep) ApplyRows(X *mat.Dense, idx []int) (*mat.Dense, error) {
	if p == nil || !p.fitted {
		return nil, fmt.Errorf("preprocessing: %w", ErrNotFitted)
	}
	if err := checkApply("preprocessing", X, p.in); err != nil {
		return nil, err
	}
	if len(idx) == 0 {
		return nil, errors.New("preprocessing: no rows to transform")
	}
	return p.transform(GatherRows(X, idx)), nil
}

// ApplyOwned is Apply on rows the caller gives up: transformed in place
// where a stage can.
func (p *Prep) ApplyOwned(X *mat.Dense) (*mat.Dense, error) {
	if p == nil || !p.fitted {
		return nil, fmt.Errorf("preprocessing: %w", ErrNotFitted)
	}
	if err := checkApply("preprocessing", X, p.in); err != nil {
		return nil, err
	}
	return p.transform(X), nil
}

// transform runs the fitted stages on Z, overwriting it where a stage works
// in place.
func (p *Prep) transform(Z *mat.Dense) *mat.Dense {
	if p.sel != nil {
		Z = gatherCols(Z, p.sel)
	}
	var flags *mat.Dense
	if len(p.indicate) > 0 {
		flags = indicate(Z, p.indicate)
	}
	if p.imputer != nil {
		p.imputer.fillInPlace(Z)
	}
	if p.bins != nil {
		p.bins.applyInPlace(Z)
	}
	if flags != nil {
		Z = beside(Z, flags)
	}
	if p.onehot != nil {
		Z = p.onehot.transform(Z)
	}
	Z = p.dropper.transform(Z)
	if p.poly != nil {
		Z = p.poly.transform(Z)
	}
	if p.std != nil {
		p.std.applyInPlace(Z)
	}
	if p.pca != nil {
		Z = p.pca.apply(Z)
	}
	return Z
}

// Columns describes the columns Apply returns: names, and for nominal
// columns kept as codes their kind and levels. Missing counts are not
// known here (they depend on the rows).
func (p *Prep) Columns() []Column {
	if p == nil {
		return nil
	}
	out := make([]Column, len(p.columns))
	for j, c := range p.columns {
		out[j] = Column{Name: c.Name, Kind: c.Kind, Levels: c.Levels}
	}
	return out
}

// Inputs is the number of columns Apply takes.
func (p *Prep) Inputs() int {
	if p == nil {
		return 0
	}
	return p.in
}

// Used says, for each input column, whether anything Apply returns comes
// from it: a column the constant filter dropped (every one of its levels,
// for a nominal column) is not used, and its values may be missing.
func (p *Prep) Used() []bool {
	if p == nil || !p.fitted {
		return nil
	}
	kept := make(map[int]bool, len(p.dropper.keep))
	for _, j := range p.dropper.keep {
		kept[j] = true
	}
	used := make([]bool, p.in)
	width := p.in // the columns after the selection
	if p.sel != nil {
		width = len(p.sel)
	}
	// Column c of the encoder's input is column c after the selection, or
	// after them the indicator of column p.indicate[c-width]; input j is
	// the selection's.
	for c := range width + len(p.indicate) {
		j := c
		if c >= width {
			j = p.indicate[c-width]
		}
		if p.sel != nil {
			j = p.sel[j]
		}
		first, end := c, c+1 // the columns c becomes
		if p.onehot != nil {
			first, end = p.onehot.enc[c].out, p.onehot.width
			if c+1 < len(p.onehot.enc) {
				end = p.onehot.enc[c+1].out
			}
		}
		for k := first; k < end && !used[j]; k++ {
			used[j] = kept[k]
		}
	}
	return used
}

// Features names the columns Apply returns, e.g. "sepal_length",
// "colour=red", "x0^2", "x0*x1".
func (p *Prep) Features() []string {
	if p == nil {
		return nil
	}
	return append([]string(nil), p.features...)
}

func checkApply(what string, X *mat.Dense, in int) error {
	if X == nil || X.IsEmpty() {
		return fmt.Errorf("%s: no rows to transform", what)
	}
	if _, c := X.Dims(); c != in {
		return fmt.Errorf("%s: got %d columns, fitted on %d", what, c, in)
	}
	return nil
}

// checkFit validates a training matrix and its column descriptions, filling
// in names x0, x1, ... when cols is nil.
func checkFit(what string, X *mat.Dense, cols []Column) ([]Column, error) {
	if X == nil || X.IsEmpty() {
		return nil, fmt.Errorf("%s: no training rows", what)
	}
	_, p := X.Dims()
	if cols == nil {
		cols = make([]Column, p)
		for j := range cols {
			cols[j] = Column{Name: "x" + strconv.Itoa(j)}
		}
		return cols, nil
	}
	if len(cols) != p {
		return nil, fmt.Errorf("%s: %d column descriptions for %d columns", what, len(cols), p)
	}
	return cols, nil
}

func namesOrDefault(what string, X *mat.Dense, names []string) ([]string, error) {
	if X == nil || X.IsEmpty() {
		return nil, fmt.Errorf("%s: no training rows", what)
	}
	_, p := X.Dims()
	if names == nil {
		names = make([]string, p)
		for j := range names {
			names[j] = "x" + strconv.Itoa(j)
		}
		return names, nil
	}
	if len(names) != p {
		return nil, fmt.Errorf("%s: %d names for %d columns", what, len(names), p)
	}
	return append([]string(nil), names...), nil
}

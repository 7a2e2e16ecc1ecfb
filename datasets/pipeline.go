package datasets

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/numfmt"
)

// The stages of the preprocessing a person chooses beside those a model's
// habits decide (impute, one-hot encode, drop constants): a missing-value
// indicator per column, discretisation of numeric columns and ordinal
// encoding. Each is fitted on the training rows alone, as every stage is.

// The discretisation methods.
const (
	BinWidth     = "equal_width"     // scikit-learn's KBinsDiscretizer(strategy="uniform")
	BinFrequency = "equal_frequency" // its strategy="quantile"
	BinMDL       = "mdl"             // Fayyad & Irani's MDL cuts, Weka's supervised Discretize
)

// BinMethods lists the discretisation methods.
var BinMethods = []string{BinWidth, BinFrequency, BinMDL}

// maxBins bounds the bins of an unsupervised discretisation.
const maxBins = 1000

// binTolerance is scikit-learn's: a value within 1e-8 + 1e-5·|v| below an
// edge falls in the bin above it.
func binTolerance(v float64) float64 { return 1e-8 + 1e-5*math.Abs(v) }

// Discretizer replaces each numeric column by the bin its value falls in,
// a nominal column whose levels are the bins. Equal width and equal
// frequency cut as scikit-learn 1.2's KBinsDiscretizer does (edges from
// the minimum to the maximum, or at the linear percentiles 0, 100/k, ...,
// 100, an edge closer than 1e-8 to the one before it removed; a value
// goes to the bin whose lower edge it reaches within 1e-8 + 1e-5·|v|);
// MDL as Weka's supervised Discretize (a value goes to the first bin
// whose cut it does not exceed). A missing value stays missing.
type Discretizer struct {
	Method  string
	Bins    int       // equal width or frequency: bins a column is cut into
	Y       []float64 // MDL: the class code of each training row
	Classes int       // MDL: number of classes

	in     int
	cuts   [][]float64 // per column: the inner edges; nil for a column left as it is
	fitted bool
}

// Fit learns each numeric column's edges from the rows of X.
func (b *Discretizer) Fit(X *mat.Dense, cols []Column) error {
	b.fitted = false
	if !slices.Contains(BinMethods, b.Method) {
		return fmt.Errorf("discretizer: method %q is not one of %s", b.Method, strings.Join(BinMethods, ", "))
	}
	cols, err := checkFit("discretizer", X, cols)
	if err != nil {
		return err
	}
	n, p := X.Dims()
	if b.Method == BinMDL {
		if len(b.Y) != n || b.Classes < 1 {
			return fmt.Errorf("discretizer: MDL needs the class of each of the %d training rows (a classification target)", n)
		}
	} else if b.Bins < 2 || b.Bins > maxBins {
		return fmt.Errorf("discretizer: %d bins is out of range [2, %d]", b.Bins, maxBins)
	}
	b.cuts = make([][]float64, p)
	x := make([]float64, n)
	for j, c := range cols {
		if c.Kind == Nominal {
			continue
		}
		for i := range n {
			x[i] = X.At(i, j)
		}
		b.cuts[j] = b.edges(x)
	}
	b.in, b.fitted = p, true
	return nil
}

// edges are the inner edges of the values x (NaN left out).
func (b *Discretizer) edges(x []float64) []float64 {
	if b.Method == BinMDL {
		cuts := MDLCuts(x, b.Y, b.Classes)
		if cuts == nil {
			cuts = []float64{}
		}
		return cuts
	}
	xs := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	out := []float64{}
	if len(xs) == 0 {
		return out
	}
	sort.Float64s(xs)
	lo, hi := xs[0], xs[len(xs)-1]
	if lo == hi {
		return out // one bin: the constant filter drops it
	}
	edges := make([]float64, b.Bins+1)
	for k := range edges {
		if b.Method == BinWidth {
			edges[k] = lo + float64(k)*(hi-lo)/float64(b.Bins)
		} else {
			edges[k] = Percentile(xs, 100*float64(k)/float64(b.Bins))
		}
	}
	edges[b.Bins] = hi
	kept := []float64{edges[0]}
	for _, e := range edges[1:] {
		if e-kept[len(kept)-1] > 1e-8 {
			kept = append(kept, e)
		}
	}
	if len(kept) > 2 {
		out = append(out, kept[1:len(kept)-1]...)
	}
	return out
}

// bin is the bin of v among a column's inner edges; NaN for a missing value.
func (b *Discretizer) bin(v float64, cuts []float64) float64 {
	if math.IsNaN(v) {
		return v
	}
	if b.Method == BinMDL {
		return float64(BinOf(v, cuts))
	}
	k := 0
	for k < len(cuts) && v+binTolerance(v) >= cuts[k] {
		k++
	}
	return float64(k)
}

// Cuts returns the inner edges of every column (nil: not discretised).
func (b *Discretizer) Cuts() [][]float64 {
	out := make([][]float64, len(b.cuts))
	for j, c := range b.cuts {
		out[j] = slices.Clone(c)
	}
	return out
}

// columns describes the columns the discretizer returns: each cut column
// nominal, its levels the bins.
func (b *Discretizer) columns(cols []Column) []Column {
	out := slices.Clone(cols)
	for j, cuts := range b.cuts {
		if cuts == nil {
			continue
		}
		out[j] = Column{Name: cols[j].Name, Kind: Nominal, Levels: b.levels(cuts)}
	}
	return out
}

// levels names the bins of cuts: "(-inf-2.5]" as Weka for MDL, "[2.5, 4)"
// for the others, whose lower edge belongs to the bin.
func (b *Discretizer) levels(cuts []float64) []string {
	if len(cuts) == 0 {
		return []string{"all"}
	}
	edge := func(k int) string { return numfmt.Sig(cuts[k], 6) }
	out := make([]string, len(cuts)+1)
	for k := range out {
		lo, hi := "-inf", "inf"
		if k > 0 {
			lo = edge(k - 1)
		}
		if k < len(cuts) {
			hi = edge(k)
		}
		if b.Method == BinMDL {
			closer := "]"
			if k == len(cuts) {
				closer = ")"
			}
			out[k] = "(" + lo + "-" + hi + closer
			continue
		}
		opener := "["
		if k == 0 {
			opener = "("
		}
		out[k] = opener + lo + ", " + hi + ")"
	}
	return out
}

// applyInPlace replaces each cut column's values by their bins.
func (b *Discretizer) applyInPlace(Z *mat.Dense) {
	n, _ := Z.Dims()
	for i := range n {
		row := Z.RawRowView(i)
		for j, cuts := range b.cuts {
			if cuts != nil {
				row[j] = b.bin(row[j], cuts)
			}
		}
	}
}

// any says whether the discretizer cuts any column.
func (b *Discretizer) any() bool {
	return slices.ContainsFunc(b.cuts, func(c []float64) bool { return c != nil })
}

// missingCols lists the columns of X with a missing value, as
// scikit-learn's MissingIndicator(features="missing-only") finds them.
func missingCols(X *mat.Dense) []int {
	n, p := X.Dims()
	has := make([]bool, p)
	for i := range n {
		for j, v := range X.RawRowView(i) {
			if v != v {
				has[j] = true
			}
		}
	}
	var out []int
	for j, h := range has {
		if h {
			out = append(out, j)
		}
	}
	return out
}

// indicate is the 0/1 matrix of which values of the columns cols of X are
// missing, read before they are imputed.
func indicate(X *mat.Dense, cols []int) *mat.Dense {
	n, _ := X.Dims()
	M := mat.NewDense(n, len(cols), nil)
	for i := range n {
		row := X.RawRowView(i)
		for k, j := range cols {
			if math.IsNaN(row[j]) {
				M.Set(i, k, 1)
			}
		}
	}
	return M
}

// beside is the columns of X followed by those of M.
func beside(X, M *mat.Dense) *mat.Dense {
	n, p := X.Dims()
	_, m := M.Dims()
	Z := mat.NewDense(n, p+m, nil)
	for i := range n {
		dst := Z.RawRowView(i)
		copy(dst, X.RawRowView(i))
		copy(dst[p:], M.RawRowView(i))
	}
	return Z
}

// IndicatorName names the missing-value indicator of a column.
func IndicatorName(col string) string { return "missing_" + col }

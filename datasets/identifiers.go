package datasets

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/tealab/tealab/advice"
)

// minIdentifierRows is the fewest rows from which a feature with a distinct
// value in every row is taken for an identifier: in fewer, distinct values
// are common by chance.
const minIdentifierRows = 10

// ColumnWarnings say which features a model should not be given: those that
// look like row identifiers (Identifier), and those the file's header left
// unnamed, which are often an index written with the data.
func (d *Dataset) ColumnWarnings() []advice.Warning {
	out, _ := d.CheckColumns()
	return out
}

// CheckColumns is ColumnWarnings with the features it took for row
// identifiers (their indices, in order), so that a caller warning about
// columns of its own need not test them a second time.
func (d *Dataset) CheckColumns() (warnings []advice.Warning, identifiers []int) {
	var out []advice.Warning
	for j, c := range d.Features {
		if why := d.Identifier(j); why != "" {
			identifiers = append(identifiers, j)
			risk := "a model can learn the row order from it"
			if c.Kind == Nominal {
				risk = "a model can tell the rows apart by it instead of learning from the other features"
			}
			out = append(out, advice.Say("column %q looks like a row identifier (%s); %s:", c.Name, why, risk).With(drop(c.Name)))
			continue
		}
		if c.Unnamed && c.Missing < d.Rows() {
			out = append(out, advice.Say("column %q has no name in the header and is read as a feature; if it numbers or labels the rows,", c.Name).With(drop(c.Name)))
		}
	}
	return out, identifiers
}

func drop(column string) advice.Remedy {
	return advice.Remedy{Kind: advice.Drop, Columns: []string{column}}
}

// Identifier says why feature j looks like a row identifier, "" when it
// does not: at least minIdentifierRows rows, none missing, and either a
// nominal column with a distinct level in every row, or distinct integers
// that step by a constant once sorted (1..n, 0..n-1, 1001, 1003, ...), in
// any order. A measurement with distinct non-integer values, or distinct
// counts with gaps, is not one.
func (d *Dataset) Identifier(j int) string {
	n := d.Rows()
	c := d.Features[j]
	if n < minIdentifierRows || c.Missing > 0 {
		return ""
	}
	vals := d.column(j)
	if c.Kind == Nominal {
		// n distinct codes need n levels: most nominal columns stop here.
		if len(c.Levels) >= n && distinctCodes(vals, len(c.Levels)) == n {
			return fmt.Sprintf("%d distinct values, one per row", n)
		}
		return ""
	}
	lo, step, ok := integerSequence(vals)
	if !ok {
		return ""
	}
	hi := lo + step*float64(n-1)
	why := fmt.Sprintf("%d distinct integers %s..%s", n, integerText(lo), integerText(hi))
	if step != 1 {
		why += " in steps of " + integerText(step)
	}
	return why
}

// column is feature j in place, without the copy of a column that every
// feature checked would otherwise cost.
func (d *Dataset) column(j int) blas64.Vector {
	raw := d.X.RawMatrix()
	return blas64.Vector{N: raw.Rows, Inc: raw.Stride, Data: raw.Data[j:]}
}

// distinctCodes counts the distinct level codes among vals (missing and
// out-of-range codes not counted).
func distinctCodes(vals blas64.Vector, levels int) int {
	seen := make([]bool, levels)
	k := 0
	for i := range vals.N {
		if v := vals.Data[i*vals.Inc]; v >= 0 && v < float64(levels) && !seen[int(v)] {
			seen[int(v)] = true
			k++
		}
	}
	return k
}

// integerSequence says whether vals (two or more) are distinct integers
// lo, lo+step, ..., lo+(n-1)·step in some order, step > 0.
func integerSequence(vals blas64.Vector) (lo, step float64, ok bool) {
	n := vals.N
	if n < 2 {
		return 0, 0, false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		v := vals.Data[i*vals.Inc]
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 { // NaN and ±Inf too
			return 0, 0, false
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	span := hi - lo
	if span == 0 || math.Mod(span, float64(n-1)) != 0 {
		return 0, 0, false
	}
	step = span / float64(n-1)
	seen := make([]bool, n)
	for i := range n {
		k := (vals.Data[i*vals.Inc] - lo) / step
		if k != math.Trunc(k) || seen[int(k)] {
			return 0, 0, false
		}
		seen[int(k)] = true
	}
	return lo, step, true
}

// integerText writes a whole number in full (1000000, not 1e+06).
func integerText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

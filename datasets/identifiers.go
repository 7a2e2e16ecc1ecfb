package datasets

import (
	"fmt"
	"math"
	"strconv"
)

// minIdentifierRows is the fewest rows from which a feature with a distinct
// value in every row is taken for an identifier: in fewer, distinct values
// are common by chance.
const minIdentifierRows = 10

// ColumnWarnings say which features a model should not be given: those that
// look like row identifiers (Identifier), and those the file's header left
// unnamed, which are often an index written with the data.
func (d *Dataset) ColumnWarnings() []string {
	var out []string
	for j, c := range d.Features {
		if why := d.Identifier(j); why != "" {
			risk := "a model can learn the row order from it"
			if c.Kind == Nominal {
				risk = "a model can tell the rows apart by it instead of learning from the other features"
			}
			out = append(out, fmt.Sprintf("column %q looks like a row identifier (%s); %s: drop it with --drop %s",
				c.Name, why, risk, c.Name))
			continue
		}
		if c.Unnamed && c.Missing < d.Rows() {
			out = append(out, fmt.Sprintf("column %q has no name in the header and is read as a feature; if it numbers or labels the rows, drop it with --drop %s",
				c.Name, c.Name))
		}
	}
	return out
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
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = d.X.At(i, j)
	}
	if c.Kind == Nominal {
		if distinctCodes(vals, len(c.Levels)) == n {
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

// distinctCodes counts the distinct level codes among vals (missing and
// out-of-range codes not counted).
func distinctCodes(vals []float64, levels int) int {
	seen := make([]bool, levels)
	k := 0
	for _, v := range vals {
		if v >= 0 && v < float64(levels) && !seen[int(v)] {
			seen[int(v)] = true
			k++
		}
	}
	return k
}

// integerSequence says whether vals (two or more) are distinct integers
// lo, lo+step, ..., lo+(n-1)·step in some order, step > 0.
func integerSequence(vals []float64) (lo, step float64, ok bool) {
	n := len(vals)
	if n < 2 {
		return 0, 0, false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
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
	for _, v := range vals {
		k := (v - lo) / step
		if k != math.Trunc(k) || seen[int(k)] {
			return 0, 0, false
		}
		seen[int(k)] = true
	}
	return lo, step, true
}

// integerText writes a whole number in full (1000000, not 1e+06).
func integerText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

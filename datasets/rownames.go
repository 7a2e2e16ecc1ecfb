package datasets

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// RowNamesColumn is the name the row names answer to when a person names
// them (--target, --drop): the name an unnamed first column gets when it is
// read as a column.
const RowNamesColumn = "col1"

// takeRowNames moves an unnamed first column whose values are all present
// and distinct out of the columns into RowNames. R's write.csv and pandas'
// to_csv write the row names so ("" or an empty header field, then 1..n,
// 0..n-1 or labels); read as a feature, they tell a model the rows' order,
// which in many files is the order of the classes.
func (t *Table) takeRowNames() {
	n, p := t.Data.Dims()
	if p < 2 || n == 0 || !t.Columns[0].Unnamed || t.Columns[0].Missing > 0 {
		return
	}
	names := columnText(t.Columns[0], t.Data, 0)
	if !allDistinct(names) {
		return
	}
	t.RowNames = names
	t.Columns = append([]Column(nil), t.Columns[1:]...)
	t.Data = t.Data.Slice(0, n, 1, p).(*mat.Dense) // a view: no copy of a large table
}

// columnText is column j of X as the file wrote it: level names, or numbers
// in their shortest form.
func columnText(c Column, X *mat.Dense, j int) []string {
	n, _ := X.Dims()
	out := make([]string, n)
	for i := range out {
		out[i] = className(c, X.At(i, j))
	}
	return out
}

func allDistinct(names []string) bool {
	seen := make(map[string]struct{}, len(names))
	for _, s := range names {
		if _, dup := seen[s]; dup {
			return false
		}
		seen[s] = struct{}{}
	}
	return true
}

// RowNamesAsColumn returns the table with its row names read back as its
// first column, RowNamesColumn, as they would be without the row-names rule
// (numeric when every name is a number, else nominal): for a person who
// asks for them as a feature or a target. A table without row names comes
// back as it is.
func (t *Table) RowNamesAsColumn() *Table {
	if t.RowNames == nil {
		return t
	}
	n, p := t.Data.Dims()
	c := Column{Name: RowNamesColumn, Kind: Numeric, Unnamed: true}
	vals := make([]float64, n)
	for i, s := range t.RowNames {
		x, ok := parseNumber([]byte(s))
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
			c.Kind = Nominal
			break
		}
		vals[i] = x
	}
	if c.Kind == Nominal {
		c.Levels = append([]string(nil), t.RowNames...)
		for i := range vals {
			vals[i] = float64(i) // distinct names: row i has level i
		}
	}
	out := &Table{Name: t.Name, Source: t.Source, SHA256: t.SHA256, Columns: append([]Column{c}, t.Columns...)}
	out.Data = mat.NewDense(n, p+1, nil)
	for i := range n {
		row := out.Data.RawRowView(i)
		row[0] = vals[i]
		copy(row[1:], t.Data.RawRowView(i))
	}
	return out
}

// namesRowNames says whether name, not a column of t, stands for its row
// names.
func (t *Table) namesRowNames(name string) bool {
	return t.RowNames != nil && name == RowNamesColumn && t.ColumnIndex(name) < 0
}

// gather is xs[idx[0]], xs[idx[1]]...; nil for nil xs (row names or
// numbers a dataset does not have).
func gather[T any](xs []T, idx []int) []T {
	if xs == nil {
		return nil
	}
	out := make([]T, len(idx))
	for r, i := range idx {
		out[r] = xs[i]
	}
	return out
}

// Permute reorders the rows of the dataset in place so that row r becomes
// what row order[r] was (see PermuteRows), its row names with them.
func (d *Dataset) Permute(order []int) {
	PermuteRows(d.X, d.Y, order)
	d.RowNames = gather(d.RowNames, order)
	d.RowNumbers = gather(d.RowNumbers, order)
}

// RowNumber is row i's 1-based number in the table it was read from.
func (d *Dataset) RowNumber(i int) int {
	if d.RowNumbers != nil {
		return d.RowNumbers[i] + 1
	}
	return i + 1
}

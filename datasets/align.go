package datasets

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Align reads the rows of t as rows of d: d's features and target, matched
// by name (t's columns may come in any order, and columns d does not use
// are ignored), nominal values recoded to d's levels and classes. This is
// how rows scored by a model trained on d (a supplied test set, new rows to
// predict) must look. A column of d that t lacks, a column of another kind,
// or a level or class d never saw is an error naming it: a model has learnt
// nothing of a level it never saw. Rows whose target is missing are dropped
// (counted in Dropped), as Table.Dataset drops them.
func (d *Dataset) Align(t *Table) (*Dataset, error) {
	n := t.Rows()
	if n == 0 {
		return nil, fmt.Errorf("%s: no data rows", t.where())
	}
	out := &Dataset{Name: t.Name, Source: t.Source, Features: d.Features, Target: d.Target, Classes: d.Classes, Task: d.Task}
	var y []float64
	keep := make([]int, 0, n)
	if d.Target != nil {
		var err error
		if y, err = d.alignTarget(t); err != nil {
			return nil, err
		}
	}
	for i := 0; i < n; i++ {
		if y == nil || !math.IsNaN(y[i]) {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%s: target column %q has no values", t.where(), d.Target.Name)
	}
	out.Dropped = n - len(keep)
	out.X = mat.NewDense(len(keep), len(d.Features), nil)
	for j, c := range d.Features {
		col, err := alignColumn(t, c, "column")
		if err != nil {
			return nil, err
		}
		for r, i := range keep {
			out.X.Set(r, j, col[i])
		}
	}
	if y != nil {
		out.Y = make([]float64, len(keep))
		for r, i := range keep {
			out.Y[r] = y[i]
		}
	}
	out.RowNames = gather(t.RowNames, keep)
	if out.Dropped > 0 {
		out.RowNumbers = keep
	}
	return out, nil
}

// alignTarget is t's column named as d's target, as d codes it: class codes
// of d's classes, or values; NaN where missing.
func (d *Dataset) alignTarget(t *Table) ([]float64, error) {
	if d.Classes == nil { // a regression target: numbers as they are
		return alignColumn(t, *d.Target, "target column")
	}
	j := t.ColumnIndex(d.Target.Name)
	if j < 0 {
		return nil, fmt.Errorf("%s: no target column %q, which the training data %s have (columns: %s)", t.where(), d.Target.Name, d.Name, columnList(t.Columns))
	}
	code := make(map[string]float64, len(d.Classes))
	for k, name := range d.Classes {
		code[name] = float64(k)
	}
	c := t.Columns[j]
	y := make([]float64, t.Rows())
	for i := range y {
		v := t.Data.At(i, j)
		if math.IsNaN(v) {
			y[i] = v
			continue
		}
		name := className(c, v)
		k, ok := code[name]
		if !ok {
			return nil, fmt.Errorf("%s: target column %q has class %q (row %d), which the training data %s do not have (classes: %s); a model cannot predict a class it never saw: remove those rows or train on data that have it",
				t.where(), c.Name, name, i+1, d.Name, listNames(d.Classes, 12))
		}
		y[i] = k
	}
	return y, nil
}

// alignColumn is t's column named as want, coded as want codes it (level
// indices of want's levels); what names it in errors ("column", "target
// column").
func alignColumn(t *Table, want Column, what string) ([]float64, error) {
	j := t.ColumnIndex(want.Name)
	if j < 0 {
		return nil, fmt.Errorf("%s: no %s %q, which the training data have (columns: %s)", t.where(), what, want.Name, columnList(t.Columns))
	}
	got := t.Columns[j]
	col := make([]float64, t.Rows())
	for i := range col {
		col[i] = t.Data.At(i, j)
	}
	if want.Kind == Numeric {
		if got.Kind != Numeric {
			return nil, fmt.Errorf("%s: %s %q is nominal here (%s) but numeric in the training data; check that it is the same column", t.where(), what, got.Name, listNames(got.Levels, 6))
		}
		return col, nil
	}
	// Nominal in training: the level names decide, whatever their order
	// or kind here (a level "3" may have been read as the number 3).
	code := make(map[string]float64, len(want.Levels))
	for k, l := range want.Levels {
		code[l] = float64(k)
	}
	for i, v := range col {
		if math.IsNaN(v) {
			continue
		}
		name := className(got, v)
		k, ok := code[name]
		if !ok {
			return nil, fmt.Errorf("%s: %s %q has level %q (row %d), which the training data do not have (levels: %s); remove those rows or train on data that have it",
				t.where(), what, got.Name, name, i+1, listNames(want.Levels, 12))
		}
		col[i] = k
	}
	return col, nil
}

// Append returns d's rows followed by more's (more aligned to d: Align) as
// a new dataset sharing no values with either. Row names are kept when
// both have them; each row keeps its number in its own table
// (RowNumbers).
func (d *Dataset) Append(more *Dataset) *Dataset {
	n, m := d.Rows(), more.Rows()
	out := *d
	_, p := d.X.Dims()
	out.X = mat.NewDense(n+m, p, nil)
	out.X.Slice(0, n, 0, p).(*mat.Dense).Copy(d.X)
	out.X.Slice(n, n+m, 0, p).(*mat.Dense).Copy(more.X)
	if d.Y != nil {
		out.Y = append(append(make([]float64, 0, n+m), d.Y...), more.Y...)
	}
	out.RowNames = nil
	if d.RowNames != nil && more.RowNames != nil {
		out.RowNames = append(append(make([]string, 0, n+m), d.RowNames...), more.RowNames...)
	}
	out.RowNumbers = make([]int, 0, n+m)
	for i := range n {
		out.RowNumbers = append(out.RowNumbers, d.RowNumber(i)-1)
	}
	for i := range m {
		out.RowNumbers = append(out.RowNumbers, more.RowNumber(i)-1)
	}
	return &out
}

// where names the table in an error: its file, else its name.
func (t *Table) where() string {
	if t.Source != "" {
		return t.Source
	}
	return t.Name
}

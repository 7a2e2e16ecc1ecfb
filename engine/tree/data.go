package tree

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// data is the training rows as the grower reads them, shared read-only by
// every tree of an ensemble: each column stored contiguously, each numeric
// column's rows presorted once (missing values last), the targets.
type data struct {
	n, p    int
	cols    [][]float64 // p columns of n values; NaN is missing
	levels  []int       // levels of each nominal column; 0 for a numeric one
	sorted  [][]int32   // numeric columns: rows by increasing value, NaN last; nil for nominal ones
	y       []int       // class code of each row (classification)
	yr      []float64   // target of each row (regression)
	k       int         // classes; 0 for regression
	names   []string    // feature names
	lnames  [][]string  // level names of nominal columns
	missing []bool      // the column has missing values
	classes []string
}

// newData validates the training rows and lays them out. Classification has
// k > 0 classes; regression k == 0.
func newData(t engine.Train, model string, k int) (*data, error) {
	if t.X == nil {
		return nil, fmt.Errorf("%s: no training rows", model)
	}
	n, p := t.X.Dims()
	if n == 0 || p == 0 {
		return nil, fmt.Errorf("%s: no training rows", model)
	}
	if len(t.Y) != n {
		return nil, fmt.Errorf("%s: %d targets for %d rows", model, len(t.Y), n)
	}
	if t.Weights != nil && len(t.Weights) != n {
		return nil, fmt.Errorf("%s: %d weights for %d rows", model, len(t.Weights), n)
	}
	if t.Columns != nil && len(t.Columns) != p {
		return nil, fmt.Errorf("%s: %d column descriptions for %d columns", model, len(t.Columns), p)
	}
	d := &data{n: n, p: p, k: k, classes: t.Classes,
		cols: make([][]float64, p), levels: make([]int, p), sorted: make([][]int32, p),
		names: make([]string, p), lnames: make([][]string, p), missing: make([]bool, p)}
	for j := range p {
		d.names[j] = fmt.Sprintf("x%d", j)
		if j < len(t.Features) && t.Features[j] != "" {
			d.names[j] = t.Features[j]
		}
		if t.Columns != nil && t.Columns[j].Kind == datasets.Nominal {
			d.levels[j] = max(len(t.Columns[j].Levels), 1)
			d.lnames[j] = t.Columns[j].Levels
		}
	}
	all := make([]float64, n*p)
	for j := range p {
		d.cols[j] = all[j*n : (j+1)*n : (j+1)*n]
	}
	for i := range n {
		for j, v := range t.X.RawRowView(i)[:p] {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: row %d, feature %q is %v (infinite: replace it, or mark it missing)", model, i+1, d.names[j], v)
			}
			if L := d.levels[j]; L > 0 && v == v && (v < 0 || v >= float64(L) || v != math.Trunc(v)) {
				return nil, fmt.Errorf("%s: row %d, feature %q: %v is not one of its %d level codes", model, i+1, d.names[j], v, L)
			}
			d.cols[j][i] = v
			if v != v {
				d.missing[j] = true
			}
		}
	}
	if k > 0 {
		d.y = make([]int, n)
		for i, v := range t.Y {
			c := int(v)
			if float64(c) != v || c < 0 || c >= k {
				return nil, fmt.Errorf("%s: row %d has target %v, not a class code 0..%d", model, i+1, v, k-1)
			}
			d.y[i] = c
		}
	} else {
		for i, v := range t.Y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: row %d has target %v", model, i+1, v)
			}
		}
		d.yr = t.Y
	}
	// Presort each numeric column: (value, row) pairs sorted once.
	type pair struct {
		v float64
		i int32
	}
	ps := make([]pair, n)
	for j := range p {
		if d.levels[j] > 0 {
			continue
		}
		col := d.cols[j]
		for i := range ps {
			ps[i] = pair{col[i], int32(i)}
		}
		slices.SortFunc(ps, func(a, b pair) int {
			if c := cmp.Compare(a.v, b.v); c != 0 { // NaN first under cmp.Compare
				if a.v != a.v {
					return 1
				}
				if b.v != b.v {
					return -1
				}
				return c
			}
			return cmp.Compare(a.i, b.i)
		})
		s := make([]int32, n)
		for i, q := range ps {
			s[i] = q.i
		}
		d.sorted[j] = s
	}
	return d, nil
}

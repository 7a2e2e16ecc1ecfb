package tree

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// data is the training rows as the grower reads them, shared read-only by
// every tree of an ensemble: the rows where the training matrix holds them
// (no copy), each numeric column's rows presorted once (missing values
// last) with a bit marking where the sorted values rise, and the targets.
// What only fitting reads is released once the fit ends, so that a fitted
// model does not keep its training rows.
type data struct {
	n, p    int
	x       []float64 // the rows, row-major, stride apart; NaN is missing
	stride  int
	levels  []int      // levels of each nominal column; 0 for a numeric one
	sorted  [][]int32  // numeric columns: rows by increasing value, NaN last; nil for nominal ones
	rises   [][]uint64 // numeric columns: bit k set when sorted row k's value exceeds row k-1's
	present []int      // numeric columns: rows with a value (the sorted rows before the missing ones)
	rank    [][]int32  // numeric columns: the value ranks of the sorted rows, made when asked (ranks)
	y       []int      // class code of each row (classification)
	yr      []float64  // target of each row (regression)
	k       int        // classes; 0 for regression
	names   []string   // feature names
	lnames  [][]string // level names of nominal columns
	missing []bool     // the column has missing values
	classes []string
}

// at is row i's value of feature j.
func (d *data) at(i int32, j int) float64 { return d.x[int(i)*d.stride+j] }

// row is training row i.
func (d *data) row(i int) []float64 { return d.x[i*d.stride : i*d.stride+d.p] }

// release drops the rows and their orders, which only fitting reads.
func (d *data) release() { d.x, d.sorted, d.rises, d.rank = nil, nil, nil, nil }

// ranks is the value rank of each of feature j's sorted rows, made once,
// for growers that read the presorted rows as they are.
func (d *data) ranks(j int) []int32 {
	if d.rank == nil {
		d.rank = make([][]int32, d.p)
	}
	if d.rank[j] == nil {
		r := make([]int32, d.n)
		prev := int32(0)
		for k := range r {
			prev = d.rankOf(j, k, prev)
			r[k] = prev
		}
		d.rank[j] = r
	}
	return d.rank[j]
}

// rankOf is the value rank a sweep compares for sorted position k of
// feature j, given the rank of position k-1: equal values have equal
// ranks, and missing values the largest.
func (d *data) rankOf(j, k int, prev int32) int32 {
	switch {
	case k >= d.present[j]:
		return missingRank
	case k > 0 && d.rises[j][k>>6]&(1<<(k&63)) != 0:
		return prev + 1
	}
	return prev
}

// missingRank is the rank of a missing value: after every value.
const missingRank = math.MaxInt32

// newData validates the training rows and lays them out, stopping when ctx
// is done. Classification has k > 0 classes; regression k == 0.
func newData(ctx context.Context, t engine.Train, model string, k int) (*data, error) {
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
	raw := t.X.RawMatrix()
	d := &data{n: n, p: p, k: k, classes: t.Classes, x: raw.Data, stride: raw.Stride,
		levels: make([]int, p), sorted: make([][]int32, p), rises: make([][]uint64, p), present: make([]int, p),
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
	for i := range n {
		for j, v := range d.row(i) {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: row %d, feature %q is %v (infinite: replace it, or mark it missing)", model, i+1, d.names[j], v)
			}
			if L := d.levels[j]; L > 0 && v == v && (v < 0 || v >= float64(L) || v != math.Trunc(v)) {
				return nil, fmt.Errorf("%s: row %d, feature %q: %v is not one of its %d level codes", model, i+1, d.names[j], v, L)
			}
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
		if err := ctx.Err(); err != nil {
			return nil, err // a column sorts in tens of milliseconds on a million rows
		}
		for i := range ps {
			ps[i] = pair{d.at(int32(i), j), int32(i)}
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
		rises := make([]uint64, (n+63)/64)
		present := n
		for k, q := range ps {
			s[k] = q.i
			switch {
			case q.v != q.v:
				present = min(present, k)
			case k > 0 && q.v > ps[k-1].v:
				rises[k>>6] |= 1 << (k & 63)
			}
		}
		d.sorted[j], d.rises[j], d.present[j] = s, rises, present
	}
	return d, nil
}

// presortMemory is what the trees' data hold beside the training rows:
// each numeric column's sorted rows (shared), and for each of the growers
// building trees at once, the rows and value ranks of every node.
func presortMemory(s engine.Shape, growers int) engine.Need {
	cells := float64(s.Rows) * float64(s.Cols)
	return engine.Need{Bytes: 4*cells + 8*cells*float64(growers),
		What: fmt.Sprintf("the sorted orders of %d x %d values", s.Rows, s.Cols)}
}

// forestMemory adds the trees: a deep tree has up to about a node per
// two training rows, 32 bytes each once packed.
func forestMemory(s engine.Shape, v engine.Values) engine.Need {
	trees := v.Int("trees")
	nodes := s.Rows/2 + 1
	need := presortMemory(s, max(v.Int("jobs"), 1))
	return need.Plus(engine.Need{Bytes: 32 * float64(trees) * float64(nodes),
		What: fmt.Sprintf("%d trees of up to %d nodes", trees, nodes), Advice: "grow fewer or shallower trees (trees, max_depth, min_samples_leaf), or sample the rows"})
}

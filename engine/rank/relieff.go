package rank

import (
	"context"
	"math"

	"github.com/tealab/tealab/datasets"
)

// ReliefK is the number of nearest hits and misses ReliefF weighs, Weka's
// default.
const ReliefK = 10

// relief holds what ReliefF's differences need: each column (the target
// last for a regression) with its range.
type relief struct {
	x        [][]float64 // columns
	nominal  []bool
	levels   []int
	min, max []float64
}

func newRelief(cols [][]float64, nominal []bool, levels []int) *relief {
	r := &relief{x: cols, nominal: nominal, levels: levels,
		min: make([]float64, len(cols)), max: make([]float64, len(cols))}
	for j, c := range cols {
		r.min[j], r.max[j] = math.NaN(), math.NaN()
		for _, v := range c {
			if math.IsNaN(v) {
				continue
			}
			if math.IsNaN(r.min[j]) || v < r.min[j] {
				r.min[j] = v
			}
			if math.IsNaN(r.max[j]) || v > r.max[j] {
				r.max[j] = v
			}
		}
	}
	return r
}

// norm scales v into [0, 1] by the column's range (0 for a constant one).
func (r *relief) norm(j int, v float64) float64 {
	if math.IsNaN(r.min[j]) || r.max[j] == r.min[j] {
		return 0
	}
	if span := r.max[j] - r.min[j]; !math.IsInf(span, 0) {
		return (v - r.min[j]) / span
	}
	// A range past the largest float64: halved first.
	return (v/2 - r.min[j]/2) / (r.max[j]/2 - r.min[j]/2)
}

// diff is how far rows a and b are apart in column j, in [0, 1]: 0 or 1
// for a nominal value; the range-normalised difference for a number. A
// missing value counts as Weka's ReliefF counts it: 1 − 1/levels for a
// nominal column; for a number, 1 when both are missing, else the larger
// of the known value's normalised distance to either end of the range.
func (r *relief) diff(j, a, b int) float64 {
	va, vb := r.x[j][a], r.x[j][b]
	ma, mb := math.IsNaN(va), math.IsNaN(vb)
	if r.nominal[j] {
		switch {
		case ma || mb:
			return 1 - 1/float64(max(r.levels[j], 1))
		case int(va) != int(vb):
			return 1
		}
		return 0
	}
	switch {
	case ma && mb:
		return 1
	case ma || mb:
		v := va
		if ma {
			v = vb
		}
		d := r.norm(j, v)
		if d < 0.5 {
			d = 1 - d
		}
		return d
	}
	return math.Abs(r.norm(j, va) - r.norm(j, vb))
}

// reliefF weighs the features as Weka's ReliefFAttributeEval does with
// its defaults: every row sampled in order, its 10 nearest hits and 10
// nearest misses of each other class (Manhattan distance of the diffs),
// misses weighted by their class's prior, weights not by distance. A
// regression target is RReliefF's: the probability of a different target
// given a different feature, from the 10 nearest rows.
func reliefF(ctx context.Context, d *datasets.Dataset, tick func(done, total int) error) ([]float64, error) {
	p := len(d.Features)
	n := d.Rows()
	cols := make([][]float64, p, p+1)
	nominal := make([]bool, p, p+1)
	levels := make([]int, p, p+1)
	for j, c := range d.Features {
		cols[j] = column(d, j)
		nominal[j] = c.Kind == datasets.Nominal
		levels[j] = len(c.Levels)
	}
	regression := d.Task != datasets.Classification
	if regression {
		cols = append(cols, d.Y)
		nominal = append(nominal, false)
		levels = append(levels, 0)
	}
	r := newRelief(cols, nominal, levels)
	classes := 1
	var prior []float64
	if !regression {
		classes = len(d.Classes)
		prior = make([]float64, classes)
		for _, y := range d.Y {
			prior[int(y)]++
		}
		for c := range prior {
			prior[c] /= float64(n)
		}
	}
	dist := func(a, b int) float64 {
		var s float64
		for j := range p {
			s += r.diff(j, a, b)
		}
		return s
	}
	w := make([]float64, p)
	ndcda := make([]float64, p)
	nda := make([]float64, p)
	var ndc float64
	near := make([][]neighbour, classes)
	for i := range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for c := range near {
			near[c] = near[c][:0]
		}
		for o := range n {
			if o == i {
				continue
			}
			c := 0
			if !regression {
				c = int(d.Y[o])
			}
			near[c] = keep(near[c], neighbour{dist(o, i), o})
		}
		if regression {
			m := float64(len(near[0]))
			for _, nb := range near[0] {
				dc := r.diff(p, i, nb.row) / m
				ndc += dc
				for j := range p {
					dj := r.diff(j, i, nb.row) / m
					ndcda[j] += dc * dj * m
					nda[j] += dj
				}
			}
		} else {
			ci := int(d.Y[i])
			rest := 1 - prior[ci]
			for c, nbs := range near {
				if len(nbs) == 0 {
					continue
				}
				m := float64(len(nbs))
				for _, nb := range nbs {
					for j := range p {
						dj := r.diff(j, i, nb.row) / m
						if c == ci {
							w[j] -= dj
						} else if rest > 0 {
							w[j] += dj * prior[c] / rest
						}
					}
				}
			}
		}
		if tick != nil {
			if err := tick(i+1, n); err != nil {
				return nil, err
			}
		}
	}
	if regression {
		for j := range p {
			if ndc == 0 || float64(n)-ndc == 0 {
				w[j] = 0
				continue
			}
			w[j] = ndcda[j]/ndc - (nda[j]-ndcda[j])/(float64(n)-ndc)
		}
		return w, nil
	}
	for j := range w {
		w[j] /= float64(n)
	}
	return w, nil
}

type neighbour struct {
	dist float64
	row  int
}

// keep adds nb to the ReliefK nearest, replacing the farthest (the first
// of equals) when nb is strictly nearer, as Weka keeps them.
func keep(nbs []neighbour, nb neighbour) []neighbour {
	if len(nbs) < ReliefK {
		return append(nbs, nb)
	}
	worst := 0
	for i := 1; i < len(nbs); i++ {
		if nbs[i].dist > nbs[worst].dist {
			worst = i
		}
	}
	if nb.dist < nbs[worst].dist {
		nbs[worst] = nb
	}
	return nbs
}

package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// The choices of the imbalance settings.
const (
	ResampleNone  = "none"
	ResampleOver  = "over"  // random over-sampling: rows of each class drawn again up to the largest class
	ResampleUnder = "under" // random under-sampling: each class cut to the smallest class's rows
	ResampleSMOTE = "smote" // SMOTE: synthetic rows between a row and one of its nearest neighbours of its class

	ClassWeightNone     = "none"
	ClassWeightBalanced = "balanced" // row weights n / (classes · n_class), as scikit-learn's class_weight="balanced"
)

// SMOTENeighbors is SMOTE's k, imbalanced-learn's default.
const SMOTENeighbors = 5

// Part is what a training part looked like after the steps that change
// its rows or its features, when a run asks for one (resampling, class
// weights, selection): the report's "training parts".
type Part struct {
	Fold int `json:"fold"` // 1-based; 0: the final fit on all rows
	// Before and Rows are the rows of each class (in the data's order of
	// classes) before resampling and as the model learned from them.
	Before []int `json:"class_rows_before,omitempty"`
	Rows   []int `json:"class_rows,omitempty"`
	// Weights are each class's row weight under balanced class weights.
	Weights []float64 `json:"class_weights,omitempty"`
	// Features are the input features a selection kept, in the data's order.
	Features []string `json:"features_kept,omitempty"`
}

// classRows counts the rows of each of k classes.
func classRows(y []float64, k int) []int {
	c := make([]int, k)
	for _, v := range y {
		c[int(v)]++
	}
	return c
}

// resample returns the training rows tr resampled by method, seeded by
// seed: the rows of each class (in order), then the rows drawn for them.
func resample(tr engine.Train, method string, seed uint64, k int) (engine.Train, error) {
	counts := classRows(tr.Y, k)
	byClass := make([][]int, k)
	for i, v := range tr.Y {
		byClass[int(v)] = append(byClass[int(v)], i)
	}
	most, least := 0, math.MaxInt
	for _, c := range counts {
		if c > 0 {
			most, least = max(most, c), min(least, c)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x5a3b1e))
	switch method {
	case ResampleUnder:
		var keep []int
		for _, rows := range byClass {
			if len(rows) <= least {
				keep = append(keep, rows...)
				continue
			}
			perm := rng.Perm(len(rows))[:least]
			for _, p := range perm {
				keep = append(keep, rows[p])
			}
		}
		sort.Ints(keep)
		return gatherTrain(tr, keep, nil), nil
	case ResampleOver:
		var extra []int
		for _, rows := range byClass {
			for range most - len(rows) {
				if len(rows) > 0 {
					extra = append(extra, rows[rng.IntN(len(rows))])
				}
			}
		}
		all := make([]int, len(tr.Y))
		for i := range all {
			all[i] = i
		}
		return gatherTrain(tr, append(all, extra...), nil), nil
	case ResampleSMOTE:
		return smote(tr, byClass, most, rng)
	}
	return tr, fmt.Errorf("resample: %q is not one of %s, %s, %s", method, ResampleOver, ResampleUnder, ResampleSMOTE)
}

// gatherTrain is tr with the rows idx (repeats allowed), then the rows of
// synth (nil: none) whose classes are synthY.
func gatherTrain(tr engine.Train, idx []int, synth *synthetic) engine.Train {
	_, p := tr.X.Dims()
	n := len(idx)
	if synth != nil {
		n += len(synth.y)
	}
	X := mat.NewDense(n, p, nil)
	y := make([]float64, 0, n)
	for r, i := range idx {
		copy(X.RawRowView(r), tr.X.RawRowView(i))
		y = append(y, tr.Y[i])
	}
	if synth != nil {
		for s, row := range synth.rows {
			copy(X.RawRowView(len(idx)+s), row)
		}
		y = append(y, synth.y...)
	}
	out := tr
	out.X, out.Y, out.Weights = X, y, nil
	return out
}

type synthetic struct {
	rows [][]float64
	y    []float64
}

// smote adds to each class short of most rows synthetic rows: a row of the
// class drawn at random, one of its k nearest neighbours in the class
// (Euclidean, k = SMOTENeighbors or the class's rows less one), and a point
// drawn uniformly on the segment between them.
func smote(tr engine.Train, byClass [][]int, most int, rng *rand.Rand) (engine.Train, error) {
	n, p := tr.X.Dims()
	for i := range n {
		if slices.ContainsFunc(tr.X.RawRowView(i), math.IsNaN) {
			return tr, engine.Limitf("resample smote: training row %d has a missing value, and SMOTE draws rows between complete ones: choose an imputation, which fills them first", i+1)
		}
	}
	synth := &synthetic{}
	for c, rows := range byClass {
		need := most - len(rows)
		if need <= 0 || len(rows) == 0 {
			continue
		}
		if len(rows) < 2 {
			name := fmt.Sprint(c)
			if c < len(tr.Classes) {
				name = fmt.Sprintf("%q", tr.Classes[c])
			}
			return tr, engine.Limitf("resample smote: class %s has 1 row in a training part, and SMOTE needs a neighbour of its class: choose over", name)
		}
		k := min(SMOTENeighbors, len(rows)-1)
		nn := neighboursWithin(tr.X, rows, k)
		for range need {
			a := rng.IntN(len(rows))
			b := nn[a][rng.IntN(k)]
			gap := rng.Float64()
			x, z := tr.X.RawRowView(rows[a]), tr.X.RawRowView(b)
			row := make([]float64, p)
			for j := range row {
				row[j] = x[j] + gap*(z[j]-x[j])
			}
			synth.rows = append(synth.rows, row)
			synth.y = append(synth.y, float64(c))
		}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return gatherTrain(tr, all, synth), nil
}

// neighboursWithin lists, for each of the rows, its k nearest other rows
// among them (squared Euclidean distance, the earlier row on a tie).
func neighboursWithin(X *mat.Dense, rows []int, k int) [][]int {
	out := make([][]int, len(rows))
	type cand struct {
		d   float64
		row int
	}
	cands := make([]cand, 0, len(rows))
	for a, i := range rows {
		x := X.RawRowView(i)
		cands = cands[:0]
		for b, j := range rows {
			if b == a {
				continue
			}
			z := X.RawRowView(j)
			d := 0.0
			for t := range x {
				d += (x[t] - z[t]) * (x[t] - z[t])
			}
			cands = append(cands, cand{d, j})
		}
		slices.SortStableFunc(cands, func(u, v cand) int {
			switch {
			case u.d < v.d:
				return -1
			case u.d > v.d:
				return 1
			}
			return 0
		})
		for _, c := range cands[:k] {
			out[a] = append(out[a], c.row)
		}
	}
	return out
}

// balancedWeights are scikit-learn's balanced class weights, n / (classes
// present · rows of the class), by class (0 for an absent class), and
// each row's.
func balancedWeights(y []float64, k int) (byClass, rows []float64) {
	counts := classRows(y, k)
	present := 0
	for _, c := range counts {
		if c > 0 {
			present++
		}
	}
	byClass = make([]float64, k)
	for c, n := range counts {
		if n > 0 {
			byClass[c] = float64(len(y)) / float64(present*n)
		}
	}
	rows = make([]float64, len(y))
	for i, v := range y {
		rows[i] = byClass[int(v)]
	}
	return byClass, rows
}

// rebalance applies the run's resampling and class weights to a training
// part (fold rn.inFit, 1-based; finalFit for the refit), recording what
// the part looked like after them in part.
func (rn *runner) rebalance(tr engine.Train, part *Part) (engine.Train, error) {
	pl := rn.opt.Pipeline
	if rn.task != datasets.Classification || (pl.Resample == "" && pl.ClassWeight == "") {
		return tr, nil
	}
	k := len(rn.d.Classes)
	part.Before = classRows(tr.Y, k)
	if pl.Resample != "" {
		var err error
		seed := rn.opt.Seed + uint64(max(rn.inFit, 0))*0x9e3779b97f4a7c15
		if tr, err = resample(tr, pl.Resample, seed, k); err != nil {
			return tr, err
		}
	}
	part.Rows = classRows(tr.Y, k)
	if pl.Resample == "" {
		part.Before = nil
	}
	if pl.ClassWeight == ClassWeightBalanced {
		part.Weights, tr.Weights = balancedWeights(tr.Y, k)
		if !rn.spec.Weighted {
			rn.warn(fmt.Sprintf("class weights: %s ignores row weights, so balanced class weights change nothing; resample the training parts instead", rn.spec.Name))
		}
	}
	return tr, nil
}

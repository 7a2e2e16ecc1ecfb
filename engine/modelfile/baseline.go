package modelfile

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
)

// Baseline is what a saved model is measured against when its predictions
// are scored (Score), learnt from the rows the model was fitted on, as
// eval's baseline is from a training part: the majority class (ties to the
// first) with each class's share as its probabilities, or the mean target.
type Baseline struct {
	Prior []float64 `json:"prior,omitempty"` // classification: each class's share of the rows, in class order
	Mean  *float64  `json:"mean,omitempty"`  // regression: the mean target
}

// predict is the baseline's predictions for n rows, and for a classifier
// its probabilities; nil when it has none for the task.
func (b *Baseline) predict(n int, classify bool) ([]float64, *mat.Dense) {
	pred := make([]float64, n)
	if !classify {
		if b.Mean == nil {
			return nil, nil
		}
		for i := range pred {
			pred[i] = *b.Mean
		}
		return pred, nil
	}
	if len(b.Prior) == 0 {
		return nil, nil
	}
	best := 0
	for c, v := range b.Prior {
		if v > b.Prior[best] {
			best = c
		}
	}
	P := mat.NewDense(n, len(b.Prior), nil)
	for i := range n {
		pred[i] = float64(best)
		copy(P.RawRowView(i), b.Prior)
	}
	return pred, P
}

// baselineOf is the baseline of res's shown model: from the targets of the
// rows of d it was fitted on. Under a hold-out that moved d's rows in
// place (eval.Options.Consume), those are d's targets less the held-out
// ones (res.Actual); nil when they cannot be told.
func baselineOf(res *eval.Result, d *datasets.Dataset) *Baseline {
	n := len(d.Y)
	if n == 0 || n != d.Rows() {
		return nil
	}
	var rows []int // nil: every row of d
	switch fitted := res.FittedRows; {
	case fitted == nil || len(fitted) == n: // every row (refit after CV, a supplied test set)
	case len(res.Folds) == 0: // a hold-out: every row but the held-out ones
		if len(res.Actual)+len(fitted) != n {
			return nil
		}
	default: // a fold's training part (rows never moved)
		rows = fitted
	}
	heldOut := len(res.Folds) == 0 && res.FittedRows != nil && len(res.FittedRows) != n
	switch res.Task {
	case datasets.Classification.String():
		k := len(d.Classes)
		count := make([]float64, k)
		add := func(y float64, by float64) bool {
			c := int(y)
			if float64(c) != y || c < 0 || c >= k {
				return false
			}
			count[c] += by
			return true
		}
		total := 0
		for _, y := range targets(d.Y, rows) {
			if !add(y, 1) {
				return nil
			}
			total++
		}
		if heldOut {
			for _, y := range res.Actual {
				if !add(y, -1) {
					return nil
				}
				total--
			}
		}
		if total <= 0 {
			return nil
		}
		for c := range count {
			count[c] /= float64(total)
		}
		return &Baseline{Prior: count}
	case datasets.Regression.String():
		var sum float64
		total := 0
		for _, y := range targets(d.Y, rows) {
			sum += y
			total++
		}
		if heldOut {
			for _, y := range res.Actual {
				sum -= y
				total--
			}
		}
		mean := sum / float64(total)
		if total <= 0 || math.IsNaN(mean) || math.IsInf(mean, 0) {
			return nil
		}
		return &Baseline{Mean: &mean}
	}
	return nil
}

// targets is y at rows, or all of y when rows is nil.
func targets(y []float64, rows []int) []float64 {
	if rows == nil {
		return y
	}
	return gather(y, rows)
}

// check refuses a baseline that does not fit the file's task and classes.
func (b *Baseline) check(task datasets.Task, classes int) error {
	switch task {
	case datasets.Classification:
		if len(b.Prior) != classes || b.Mean != nil {
			return fmt.Errorf("baseline: %d class shares for %d classes", len(b.Prior), classes)
		}
		sum := 0.0
		for _, v := range b.Prior {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("baseline: class share %v is not between 0 and 1", v)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			return fmt.Errorf("baseline: class shares sum to %v, not 1", sum)
		}
	case datasets.Regression:
		if b.Mean == nil || len(b.Prior) > 0 || math.IsNaN(*b.Mean) || math.IsInf(*b.Mean, 0) {
			return errors.New("baseline: a regression's baseline is one finite mean")
		}
	default:
		return fmt.Errorf("baseline: %s has none", task)
	}
	return nil
}

package engine

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// CheckFinite reports the first NaN or infinite value of X as "row i,
// feature f is NaN (...)" (i 1-based, f the feature's quoted name or its
// number): the check of every model that needs complete numeric rows.
func CheckFinite(X *mat.Dense, features []string) error {
	r, c := X.Dims()
	for i := 0; i < r; i++ {
		for j, v := range X.RawRowView(i)[:c] {
			if math.IsNaN(v) {
				return fmt.Errorf("row %d, feature %s is NaN (missing: impute or drop it first)", i+1, FeatureName(features, j))
			}
			if math.IsInf(v, 0) {
				return fmt.Errorf("row %d, feature %s is %v (infinite: replace it, or mark it missing)", i+1, FeatureName(features, j), v)
			}
		}
	}
	return nil
}

// CheckWeights validates optional sample weights (Train.Weights): nil, or
// n finite non-negative values with a positive sum.
func CheckWeights(w []float64, n int) error {
	if w == nil {
		return nil
	}
	if len(w) != n {
		return fmt.Errorf("%d sample weights for %d rows", len(w), n)
	}
	sum := 0.0
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("row %d: sample weight %v must be a finite number >= 0", i+1, v)
		}
		sum += v
	}
	if !(sum > 0) {
		return fmt.Errorf("sample weights are all zero")
	}
	return nil
}

// CheckTrain checks what every supervised model needs of its training
// rows: their shape (CheckRows), one finite target per row, valid sample
// weights (CheckWeights) and, with scanX, finite features (CheckFinite; a
// model that reads every value anyway may check them as it goes). Errors
// start with the model's name.
func CheckTrain(d Train, model string, scanX bool) error {
	if err := CheckRows(d); err != nil {
		return fmt.Errorf("%s: %w", model, err)
	}
	n := d.Rows()
	if len(d.Y) != n {
		return fmt.Errorf("%s: %d targets for %d rows", model, len(d.Y), n)
	}
	if scanX {
		if err := CheckFinite(d.X, d.Features); err != nil {
			return fmt.Errorf("%s: %w", model, err)
		}
	}
	for i, v := range d.Y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: row %d: target is %v", model, i+1, v)
		}
	}
	if err := CheckWeights(d.Weights, n); err != nil {
		return fmt.Errorf("%s: %w", model, err)
	}
	return nil
}

// PresentClasses checks a classifier's class codes (0..len(Classes)-1) and
// returns those present among rows of positive weight, in increasing order.
// At least two must occur: a classifier learns nothing from one class.
// Classes that do not occur (say, in a small CV fold) are never predicted.
func PresentClasses(d Train, model string) ([]int, error) {
	k := len(d.Classes)
	if k == 0 {
		return nil, fmt.Errorf("%s is a classifier: the training data has no classes", model)
	}
	seen := make([]bool, k)
	for i, v := range d.Y {
		c := int(v)
		if float64(c) != v || c < 0 || c >= k {
			return nil, fmt.Errorf("%s: row %d: class code %v is not one of 0..%d", model, i+1, v, k-1)
		}
		if d.Weights == nil || d.Weights[i] > 0 {
			seen[c] = true
		}
	}
	var present []int
	for c, ok := range seen {
		if ok {
			present = append(present, c)
		}
	}
	if len(present) < 2 {
		name := "none"
		if len(present) == 1 {
			name = fmt.Sprintf("%q", d.Classes[present[0]])
		}
		return nil, fmt.Errorf("%s needs at least two classes; the training rows have only one (%s)", model, name)
	}
	return present, nil
}

// FeatureName names column j for messages: its quoted name, or its
// number (1-based) when it has none.
func FeatureName(features []string, j int) string {
	if j < len(features) && features[j] != "" {
		return fmt.Sprintf("%q", features[j])
	}
	return fmt.Sprintf("%d", j+1)
}

// Stopped reports, without waiting, whether done (a context's Done
// channel; nil never closes) has closed: for a long loop to check between
// small units of work, where a context's Err costs a lock.
func Stopped(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// Workers runs work on n goroutines and waits for them all. A panic in one
// is raised again in the caller once every worker has stopped, where the
// caller's recover (evaluation's, the lab's) reaches it: in a goroutine of
// its own it would end the program, leaving a terminal raw.
func Workers(n int, work func()) {
	var wg sync.WaitGroup
	var once sync.Once
	var crash any
	for range n {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					once.Do(func() { crash = p })
				}
			}()
			work()
		})
	}
	wg.Wait()
	if crash != nil {
		panic(crash)
	}
}

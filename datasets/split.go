package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// splitPCGStream is the second PCG word of every split's random source: the
// same seed, n and y give the same rows in every part of the program.
const splitPCGStream = 0x7ea1ab_5b17

// Holdout splits rows 0..n-1 into a training and a test part, both sorted.
// The test part has round(testFrac·n) rows, at least one and at most n-1.
//
// With classes > 0 the split is stratified on y (class codes 0..classes-1):
// each class is split in proportion (largest remainders settle the rounding),
// every class with at least two rows gets at least one test row and keeps at
// least one training row, and a class with a single row stays in training.
// With classes == 0 the rows are shuffled and y is ignored (it may be nil).
func Holdout(n int, y []float64, classes int, testFrac float64, seed uint64) (train, test []int, err error) {
	if n < 2 {
		return nil, nil, fmt.Errorf("hold-out needs at least 2 rows, have %d", n)
	}
	if !(testFrac > 0 && testFrac < 1) {
		return nil, nil, fmt.Errorf("hold-out test fraction %g must be between 0 and 1 (exclusive), e.g. 0.2", testFrac)
	}
	nTest := int(math.Round(testFrac * float64(n)))
	nTest = min(max(nTest, 1), n-1)
	r := rand.New(rand.NewPCG(seed, splitPCGStream))
	inTest := make([]bool, n)
	if classes <= 0 {
		for _, i := range r.Perm(n)[:nTest] {
			inTest[i] = true
		}
	} else {
		members, err := classMembers(n, y, classes)
		if err != nil {
			return nil, nil, err
		}
		quota := stratifiedQuota(members, n, nTest)
		for c, idx := range members {
			perm := r.Perm(len(idx))
			for _, p := range perm[:quota[c]] {
				inTest[idx[p]] = true
			}
		}
	}
	test = make([]int, 0, nTest)
	train = make([]int, 0, n-nTest)
	for i, t := range inTest {
		if t {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	return train, test, nil
}

// stratifiedQuota gives each class its share of nTest test rows: floor of the
// exact share, then one more to the classes with the largest remainders (ties
// to the larger class, then the lower code), then at least one and at most
// size-1 for each class of two or more rows.
func stratifiedQuota(members [][]int, n, nTest int) []int {
	k := len(members)
	quota := make([]int, k)
	rem := make([]float64, k)
	given := 0
	for c, idx := range members {
		exact := float64(len(idx)) * float64(nTest) / float64(n)
		quota[c] = int(math.Floor(exact))
		rem[c] = exact - float64(quota[c])
		given += quota[c]
	}
	order := make([]int, k)
	for c := range order {
		order[c] = c
	}
	sort.SliceStable(order, func(a, b int) bool {
		ca, cb := order[a], order[b]
		if rem[ca] != rem[cb] {
			return rem[ca] > rem[cb]
		}
		return len(members[ca]) > len(members[cb])
	})
	for _, c := range order {
		if given >= nTest {
			break
		}
		if rem[c] > 0 {
			quota[c]++
			given++
		}
	}
	for c, idx := range members {
		m := len(idx)
		switch {
		case m < 2:
			quota[c] = 0
		case quota[c] < 1:
			quota[c] = 1
		case quota[c] > m-1:
			quota[c] = m - 1
		}
	}
	return quota
}

// classMembers lists the rows of each class, checking y.
func classMembers(n int, y []float64, classes int) ([][]int, error) {
	if len(y) != n {
		return nil, fmt.Errorf("stratified split: %d targets for %d rows", len(y), n)
	}
	members := make([][]int, classes)
	for i, v := range y {
		c := int(v)
		if float64(c) != v || c < 0 || c >= classes {
			return nil, fmt.Errorf("stratified split: row %d has target %g, not a class code 0..%d", i, v, classes-1)
		}
		members[c] = append(members[c], i)
	}
	return members, nil
}

// KFold returns the test rows of each of k folds (each sorted); together the
// folds hold every row exactly once and their sizes differ by at most one.
// The training rows of fold f are Complement(n, folds[f]).
//
// With classes > 0 the folds are stratified as scikit-learn's StratifiedKFold
// with shuffling does it: the rows, ordered by class, are dealt to the folds
// in turn, so every class is spread as evenly as it can be; which rows of a
// class go to which fold is drawn from the seed. A class with fewer than k
// rows is allowed: some test folds then have none of it (scikit-learn warns).
// With classes == 0 the rows are shuffled and cut into k runs; y may be nil.
func KFold(n int, y []float64, classes int, k int, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("k-fold cross-validation needs k >= 2 folds, got %d", k)
	}
	if k > n {
		return nil, fmt.Errorf("k-fold cross-validation: k=%d folds is more than the %d rows", k, n)
	}
	r := rand.New(rand.NewPCG(seed, splitPCGStream))
	fold := make([]int, n) // fold of each row
	if classes <= 0 {
		perm := r.Perm(n)
		pos := 0
		for f := 0; f < k; f++ {
			size := n / k
			if f < n%k {
				size++
			}
			for _, i := range perm[pos : pos+size] {
				fold[i] = f
			}
			pos += size
		}
	} else {
		members, err := classMembers(n, y, classes)
		if err != nil {
			return nil, err
		}
		// Position p of the class-sorted order goes to fold p mod k; a class
		// occupying positions [start, start+m) thus gives fold f the count
		// of p in that range with p mod k == f.
		start := 0
		for _, idx := range members {
			m := len(idx)
			assign := make([]int, 0, m)
			for p := start; p < start+m; p++ {
				assign = append(assign, p%k)
			}
			sort.Ints(assign)
			r.Shuffle(m, func(a, b int) { assign[a], assign[b] = assign[b], assign[a] })
			for q, i := range idx {
				fold[i] = assign[q]
			}
			start += m
		}
	}
	folds := make([][]int, k)
	for f := range folds {
		folds[f] = make([]int, 0, n/k+1)
	}
	for i, f := range fold {
		folds[f] = append(folds[f], i)
	}
	return folds, nil
}

// LeaveOneOut returns n folds whose test part is one row each.
func LeaveOneOut(n int) [][]int {
	if n <= 0 {
		return nil
	}
	flat := make([]int, n)
	folds := make([][]int, n)
	for i := range flat {
		flat[i] = i
		folds[i] = flat[i : i+1 : i+1]
	}
	return folds
}

// Complement returns the rows of 0..n-1 not in test, sorted: the training
// rows of a fold. Indices outside 0..n-1 in test are ignored.
func Complement(n int, test []int) []int {
	if n <= 0 {
		return nil
	}
	out := make([]bool, n)
	drop := 0
	for _, i := range test {
		if i >= 0 && i < n && !out[i] {
			out[i] = true
			drop++
		}
	}
	train := make([]int, 0, n-drop)
	for i, o := range out {
		if !o {
			train = append(train, i)
		}
	}
	return train
}

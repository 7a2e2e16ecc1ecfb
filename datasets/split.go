package datasets

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
)

// splitPCGStream is the second PCG word of every split's random source: the
// same seed, n and y give the same rows in every part of the program.
const splitPCGStream = 0x7ea1ab_5b17

// Holdout splits rows 0..n-1 into a training and a test part, both sorted.
// The test part has round(testFrac·n) rows, at least one and at most n-1.
//
// With classes > 0 the split is stratified on y (class codes 0..classes-1):
// each class is split in proportion (largest remainders settle the rounding)
// and keeps at least one training row, so a class with a single row stays in
// training. Where the total allows, every class with at least two rows gets
// at least one test row, traded from a class with test rows to spare. The
// test part still has round(testFrac·n) rows unless keeping a training row
// in every class leaves fewer (then it has as many as it can); if every class
// has a single row there is no such split and Holdout returns an error.
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
		quota, err := stratifiedQuota(members, n, nTest)
		if err != nil {
			return nil, nil, err
		}
		nTest = 0
		for c, idx := range members {
			perm := r.Perm(len(idx))
			for _, p := range perm[:quota[c]] {
				inTest[idx[p]] = true
			}
			nTest += quota[c]
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

// stratifiedQuota gives each class its share of nTest test rows, never more
// than its size less one (every class keeps a training row). A class whose
// exact share exceeds that is held at it and the other classes share the
// rest in proportion, until no share exceeds its bound; then each class gets
// the floor of its share, and one more row goes to each class of the largest
// remainders (ties to the larger class, then the lower code). Last, each
// class of two or more rows left without a test row takes one from the class
// most above its exact share that has two or more: a trade, so the total
// stays min(nTest, the rows the classes can spare).
func stratifiedQuota(members [][]int, n, nTest int) ([]int, error) {
	k := len(members)
	room := make([]int, k) // test rows class c can give and keep a training row
	spare := 0
	for c, idx := range members {
		room[c] = max(len(idx)-1, 0)
		spare += room[c]
	}
	if spare == 0 {
		return nil, &advice.Error{Problem: "stratified hold-out: every class has a single row, so no class can give a test row and keep a training row",
			Remedies: []advice.Remedy{{Kind: advice.CrossValidate}, {Kind: advice.LeaveOneOut}}}
	}
	nTest = min(nTest, spare)

	quota := make([]int, k)
	exact := make([]float64, k)
	held := make([]bool, k)
	for {
		left, rows := nTest, 0
		for c, idx := range members {
			if held[c] {
				left -= quota[c]
			} else {
				rows += len(idx)
			}
		}
		again := false
		for c, idx := range members {
			if held[c] {
				continue
			}
			if exact[c] = float64(len(idx)) * float64(left) / float64(rows); exact[c] > float64(room[c]) {
				held[c], quota[c], exact[c] = true, room[c], float64(room[c])
				again = true
			}
		}
		if !again {
			break
		}
	}
	given := 0
	var open []int
	for c := range members {
		if !held[c] {
			quota[c] = int(math.Floor(exact[c]))
			open = append(open, c)
		}
		given += quota[c]
	}
	// larger orders classes by a key, most first, then the larger class,
	// then the lower code.
	larger := func(key func(int) float64) func(a, b int) int {
		return func(a, b int) int {
			if ka, kb := key(a), key(b); ka != kb {
				return cmp.Compare(kb, ka)
			}
			if ma, mb := len(members[a]), len(members[b]); ma != mb {
				return cmp.Compare(mb, ma)
			}
			return cmp.Compare(a, b)
		}
	}
	slices.SortFunc(open, larger(func(c int) float64 { return exact[c] - float64(quota[c]) }))
	for _, c := range open {
		if given >= nTest {
			break
		}
		if quota[c] < room[c] {
			quota[c]++
			given++
		}
	}
	// A test row for every class that can spare one, from a class that
	// keeps one.
	var need, donors []int
	for c := range members {
		if quota[c] == 0 && room[c] > 0 {
			need = append(need, c)
		}
	}
	slices.SortFunc(need, larger(func(c int) float64 { return exact[c] }))
	surplus := larger(func(c int) float64 { return float64(quota[c]) - exact[c] })
	for _, c := range need {
		donors = donors[:0]
		for d := range members {
			if quota[d] >= 2 {
				donors = append(donors, d)
			}
		}
		if len(donors) == 0 {
			break
		}
		d := slices.MinFunc(donors, surplus)
		quota[d]--
		quota[c]++
	}
	return quota, nil
}

// classMembers lists the rows of each class, checking y.
func classMembers(n int, y []float64, classes int) ([][]int, error) {
	if len(y) != n {
		return nil, fmt.Errorf("stratified split: %d targets for %d rows", len(y), n)
	}
	// Counted first, so that every list is one exact allocation out of one
	// backing array (a million rows would otherwise grow lists by doubling).
	count := make([]int, classes)
	for i, v := range y {
		c := int(v)
		if float64(c) != v || c < 0 || c >= classes {
			return nil, fmt.Errorf("stratified split: row %d has target %g, not a class code 0..%d", i, v, classes-1)
		}
		count[c]++
	}
	all := make([]int, 0, n)
	members := make([][]int, classes)
	for c, k := range count {
		members[c] = all[len(all) : len(all) : len(all)+k]
		all = all[:len(all)+k]
	}
	for i, v := range y {
		c := int(v)
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

// PermuteRows reorders the rows of X and the entries of y (nil: none) in
// place so that row r becomes what row order[r] was (order is a
// permutation of the rows), following the permutation's cycles with one
// row of scratch: a split of data the caller gives up, without a copy.
func PermuteRows(X *mat.Dense, y []float64, order []int) {
	n, p := X.Dims()
	done := make([]bool, n)
	tmp := make([]float64, p)
	for start := range n {
		if done[start] || order[start] == start {
			done[start] = true
			continue
		}
		// Row start is overwritten first: keep it, then pull each row of
		// the cycle into the place that wants it.
		copy(tmp, X.RawRowView(start))
		var ty float64
		if y != nil {
			ty = y[start]
		}
		r := start
		for {
			done[r] = true
			from := order[r]
			if from == start {
				copy(X.RawRowView(r), tmp)
				if y != nil {
					y[r] = ty
				}
				break
			}
			copy(X.RawRowView(r), X.RawRowView(from))
			if y != nil {
				y[r] = y[from]
			}
			r = from
		}
	}
}

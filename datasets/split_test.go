package datasets

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// labels builds a class vector with counts[c] rows of class c, interleaved
// in a fixed pattern so that classes are not contiguous.
func stratLabels(counts ...int) []float64 {
	var y []float64
	left := append([]int(nil), counts...)
	for more := true; more; {
		more = false
		for c := range left {
			if left[c] > 0 {
				y = append(y, float64(c))
				left[c]--
				more = true
			}
		}
	}
	return y
}

// checkPartition fails unless the parts hold every row of 0..n-1 exactly once,
// each part sorted.
func checkPartition(t *testing.T, n int, parts ...[]int) {
	t.Helper()
	seen := make([]int, n)
	for _, p := range parts {
		if !slices.IsSorted(p) {
			t.Errorf("part not sorted: %v", p)
		}
		for _, i := range p {
			if i < 0 || i >= n {
				t.Fatalf("row %d out of range", i)
			}
			seen[i]++
		}
	}
	for i, s := range seen {
		if s != 1 {
			t.Fatalf("row %d appears %d times", i, s)
		}
	}
}

func classCount(y []float64, idx []int, classes int) []int {
	c := make([]int, classes)
	for _, i := range idx {
		c[int(y[i])]++
	}
	return c
}

func TestHoldoutPlain(t *testing.T) {
	for _, tc := range []struct {
		n     int
		frac  float64
		nTest int
	}{{10, 0.2, 2}, {150, 0.2, 30}, {7, 0.5, 4}, {2, 0.01, 1}, {2, 0.99, 1}, {1000, 0.333, 333}} {
		train, test, err := Holdout(tc.n, nil, 0, tc.frac, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(test) != tc.nTest {
			t.Errorf("n=%d frac=%g: %d test rows, want %d", tc.n, tc.frac, len(test), tc.nTest)
		}
		checkPartition(t, tc.n, train, test)
	}
	a1, b1, _ := Holdout(100, nil, 0, 0.3, 42)
	a2, b2, _ := Holdout(100, nil, 0, 0.3, 42)
	if !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(b1, b2) {
		t.Error("same seed, different split")
	}
	_, b3, _ := Holdout(100, nil, 0, 0.3, 43)
	if reflect.DeepEqual(b1, b3) {
		t.Error("different seeds, same split")
	}
}

func TestHoldoutStratified(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts []int
		frac   float64
		want   []int // test rows per class
	}{
		// iris: 30 of 150, 10 per class.
		{"iris", []int{50, 50, 50}, 0.2, []int{10, 10, 10}},
		// breast_cancer: 114 of 569; exact shares 42.4 and 71.4, the tied
		// remainder goes to the larger class.
		{"breast_cancer", []int{212, 357}, 0.2, []int{42, 72}},
		// a class of two still gets a test row; a class of one stays in training.
		{"tiny classes", []int{40, 2, 1}, 0.2, []int{8, 1, 0}},
		// a large test fraction keeps a training row in every class.
		{"keep one", []int{3, 3}, 0.9, []int{2, 2}},
		// spirals:n=40,k=20: round(0.2·40) = 8 test rows, not one per class;
		// the tied remainders go to the lower codes.
		{"many pairs", []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, 0.2,
			[]int{1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		// round(0.1·102) = 10: shares 9.8 and 0.196 give 10 and 0; the small
		// class's row is traded from the large one rather than added.
		{"trade for the small class", []int{100, 2}, 0.1, []int{9, 1}},
		// single-row classes stay in training and the others make up the
		// round(0.5·20) = 10 rows, as far as they can: 9 keeps a training row.
		{"single-row classes", []int{10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 0.5, []int{9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		{"one class can give", []int{1, 1, 1, 1, 2}, 0.2, []int{0, 0, 0, 0, 1}},
		// round(0.8·23) = 18: class 0's share 2.35 is held at 2 (it keeps a
		// training row) and the other two share 16 as 8 and 8.
		{"held class", []int{3, 10, 10}, 0.8, []int{2, 8, 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y := stratLabels(tc.counts...)
			train, test, err := Holdout(len(y), y, len(tc.counts), tc.frac, 7)
			if err != nil {
				t.Fatal(err)
			}
			checkPartition(t, len(y), train, test)
			if got := classCount(y, test, len(tc.counts)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("test rows per class %v, want %v", got, tc.want)
			}
			train2, test2, _ := Holdout(len(y), y, len(tc.counts), tc.frac, 7)
			if !reflect.DeepEqual(train, train2) || !reflect.DeepEqual(test, test2) {
				t.Error("same seed, different split")
			}
		})
	}
}

// The stratified test part has min(round(frac·n) clamped to [1, n-1], the
// rows the classes can spare) rows; every class keeps a training row; and
// when there are enough test rows every class of two or more rows has one.
func TestHoldoutStratifiedSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		counts := make([]int, 1+r.IntN(8))
		for c := range counts {
			counts[c] = r.IntN(12)
		}
		if r.IntN(4) == 0 {
			counts[0] += r.IntN(200)
		}
		y := stratLabels(counts...)
		n := len(y)
		if n < 2 {
			continue
		}
		frac := 0.01 + 0.98*r.Float64()
		spare, pairs := 0, 0
		for _, m := range counts {
			spare += max(m-1, 0)
			if m >= 2 {
				pairs++
			}
		}
		train, test, err := Holdout(n, y, len(counts), frac, uint64(trial))
		if spare == 0 {
			if err == nil {
				t.Errorf("counts %v: no class can spare a row, but no error", counts)
			}
			continue
		}
		if err != nil {
			t.Fatalf("counts %v frac %g: %v", counts, frac, err)
		}
		checkPartition(t, n, train, test)
		want := min(min(max(int(math.Round(frac*float64(n))), 1), n-1), spare)
		if len(test) != want {
			t.Errorf("counts %v frac %g: %d test rows, want %d", counts, frac, len(test), want)
		}
		got := classCount(y, test, len(counts))
		for c, m := range counts {
			if m > 0 && got[c] >= m {
				t.Errorf("counts %v frac %g: class %d has no training row (test %v)", counts, frac, c, got)
			}
			if m >= 2 && got[c] == 0 && want >= pairs {
				t.Errorf("counts %v frac %g: class %d has no test row although %d test rows cover %d classes (test %v)",
					counts, frac, c, want, pairs, got)
			}
		}
	}
}

func TestHoldoutErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		y       []float64
		classes int
		frac    float64
		want    string
	}{
		{"one row", 1, nil, 0, 0.2, "at least 2"},
		{"zero fraction", 10, nil, 0, 0, "between 0 and 1"},
		{"whole", 10, nil, 0, 1, "between 0 and 1"},
		{"NaN fraction", 10, nil, 0, math.NaN(), "between 0 and 1"},
		{"y length", 3, []float64{0, 1}, 2, 0.5, "2 targets for 3 rows"},
		{"bad class", 3, []float64{0, 1, 2}, 2, 0.5, "row 2"},
		{"fractional class", 2, []float64{0, 0.5}, 2, 0.5, "row 1"},
		// every class has a single row: no test row can leave its class a
		// training row.
		{"single rows", 5, []float64{0, 1, 2, 3, 4}, 5, 0.2, "(use cross-validation or use leave-one-out)"},
	} {
		_, _, err := Holdout(tc.n, tc.y, tc.classes, tc.frac, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestKFoldPlain(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{10, 2}, {10, 3}, {11, 5}, {5, 5}, {1000, 10}} {
		folds, err := KFold(tc.n, nil, 0, tc.k, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(folds) != tc.k {
			t.Fatalf("%d folds, want %d", len(folds), tc.k)
		}
		checkPartition(t, tc.n, folds...)
		for _, f := range folds {
			if s := len(f); s != tc.n/tc.k && s != tc.n/tc.k+1 {
				t.Errorf("n=%d k=%d: fold of %d rows", tc.n, tc.k, s)
			}
		}
		for f := range folds {
			checkPartition(t, tc.n, folds[f], Complement(tc.n, folds[f]))
		}
	}
	a, _ := KFold(50, nil, 0, 5, 9)
	b, _ := KFold(50, nil, 0, 5, 9)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different folds")
	}
	c, _ := KFold(50, nil, 0, 5, 10)
	if reflect.DeepEqual(a, c) {
		t.Error("different seeds, same folds")
	}
}

func TestKFoldStratified(t *testing.T) {
	for _, tc := range []struct {
		counts []int
		k      int
	}{
		{[]int{50, 50, 50}, 10},
		{[]int{212, 357}, 5},
		{[]int{59, 71, 48}, 10},
		{[]int{20, 3, 1}, 5}, // classes smaller than k are allowed
		{[]int{2, 2, 2}, 6},
	} {
		y := stratLabels(tc.counts...)
		n := len(y)
		folds, err := KFold(n, y, len(tc.counts), tc.k, 11)
		if err != nil {
			t.Fatal(err)
		}
		checkPartition(t, n, folds...)
		for _, f := range folds {
			if s := len(f); s != n/tc.k && s != n/tc.k+1 {
				t.Errorf("%v k=%d: fold of %d rows", tc.counts, tc.k, s)
			}
		}
		// Every class is spread as evenly as it can be: its count in each
		// fold is floor or ceil of count/k.
		for c, m := range tc.counts {
			for f, fold := range folds {
				got := classCount(y, fold, len(tc.counts))[c]
				if got != m/tc.k && got != (m+tc.k-1)/tc.k {
					t.Errorf("%v k=%d: class %d has %d rows in fold %d", tc.counts, tc.k, c, got, f)
				}
			}
		}
		again, _ := KFold(n, y, len(tc.counts), tc.k, 11)
		if !reflect.DeepEqual(folds, again) {
			t.Error("same seed, different folds")
		}
	}
}

func TestKFoldErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, k    int
		y       []float64
		classes int
		want    string
	}{
		{"k=1", 10, 1, nil, 0, "k >= 2"},
		{"k>n", 3, 4, nil, 0, "more than the 3 rows"},
		{"bad y", 3, 2, []float64{0, 1, -1}, 2, "row 2"},
		{"short y", 3, 2, []float64{0, 1}, 2, "2 targets for 3 rows"},
	} {
		_, err := KFold(tc.n, tc.y, tc.classes, tc.k, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestLeaveOneOutAndComplement(t *testing.T) {
	folds := LeaveOneOut(4)
	if !reflect.DeepEqual(folds, [][]int{{0}, {1}, {2}, {3}}) {
		t.Errorf("LeaveOneOut(4) = %v", folds)
	}
	folds[0] = append(folds[0], 99) // capacity-limited: must not clobber fold 1
	if folds[1][0] != 1 {
		t.Error("folds share memory")
	}
	if LeaveOneOut(0) != nil {
		t.Error("LeaveOneOut(0) not empty")
	}
	if got := Complement(6, []int{4, 1, 1, 9, -1}); !reflect.DeepEqual(got, []int{0, 2, 3, 5}) {
		t.Errorf("Complement = %v", got)
	}
	if got := Complement(3, nil); !reflect.DeepEqual(got, []int{0, 1, 2}) {
		t.Errorf("Complement(nil) = %v", got)
	}
}

func TestKFoldMatchesSklearn(t *testing.T) {
	// Class counts per test fold of StratifiedKFold(n_splits=k, shuffle=True),
	// printed by testdata/split_ref.py; they do not depend on the seed.
	for _, tc := range []struct {
		counts []int
		k      int
		want   [][]int
	}{
		{[]int{7, 5, 3}, 4, [][]int{{2, 1, 1}, {2, 1, 1}, {2, 1, 1}, {1, 2, 0}}},
		{[]int{10, 1, 4}, 3, [][]int{{4, 0, 1}, {3, 1, 1}, {3, 0, 2}}},
		{[]int{13, 9}, 5, [][]int{{3, 2}, {3, 2}, {3, 1}, {2, 2}, {2, 2}}},
	} {
		y := stratLabels(tc.counts...)
		for _, seed := range []uint64{0, 1, 99} {
			folds, err := KFold(len(y), y, len(tc.counts), tc.k, seed)
			if err != nil {
				t.Fatal(err)
			}
			got := make([][]int, len(folds))
			for f, fold := range folds {
				got[f] = classCount(y, fold, len(tc.counts))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%v k=%d seed %d: per-fold class counts %v, want %v", tc.counts, tc.k, seed, got, tc.want)
			}
		}
	}
}

// PermuteRows moves every row (and its target) to where the order puts it,
// in place, whatever the cycles of the permutation.
func TestPermuteRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 100} {
		X := mat.NewDense(n, 3, nil)
		y := make([]float64, n)
		for i := range n {
			X.SetRow(i, []float64{float64(i), float64(10 * i), -float64(i)})
			y[i] = float64(i)
		}
		order := r.Perm(n)
		PermuteRows(X, y, order)
		for i, from := range order {
			if X.At(i, 0) != float64(from) || X.At(i, 1) != float64(10*from) || y[i] != float64(from) {
				t.Fatalf("n=%d: row %d holds %v (target %v), want row %d", n, i, X.RawRowView(i), y[i], from)
			}
		}
	}
}

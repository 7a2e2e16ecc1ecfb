package tree

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tealab/tealab/engine"
)

// C4.5's pessimistic estimate at CF = 0.25 (z = 0.6745). With no error the
// bound is exact, 1 − 0.25^(1/n): Quinlan 1993 (C4.5: Programs for Machine
// Learning, ch. 4) works U(0, 6) = 0.206, U(0, 9) = 0.143 and U(0, 1) =
// 0.750. With errors, the normal approximation with continuity correction,
// n·(f + z²/2n + z√(f/n − f²/n + z²/4n²)) / (1 + z²/n), f = (e + ½)/n,
// computed with scipy 1.10 (norm.ppf(0.75)); it lies near the exact
// binomial bound (scipy's beta.ppf(0.75, e+1, n−e): 0.1596 for 1 of 16).
func TestPessimisticErrors(t *testing.T) {
	z := distuv.UnitNormal.Quantile(0.75)
	for _, c := range []struct {
		n, e, want float64
	}{
		{6, 0, 1.2377968440954012},   // 6 × 0.206
		{9, 0, 1.284804154322345},    // 9 × 0.143
		{1, 0, 0.75},                 // 1 × 0.750
		{16, 1, 2.475714631837264},   // 16 × 0.1547
		{14, 2, 3.603344278096702},   // hand: f = 2.5/14
		{100, 10, 12.74961145118987}, // exact binomial: 12.82
		{6, 0.5, 1.7706517010318286}, // halfway between 0 and 1 error of 6
		{4, 3.5, 4},                  // e + ½ reaches n: all rows
	} {
		if got := pessimisticErrors(c.n, c.e, 0.25, z); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%v errors of %v rows: %.10f predicted errors, want %.10f", c.e, c.n, got, c.want)
		}
	}
	// Quinlan's subtree of three leaves (6, 9 and 1 rows, no errors) is
	// estimated at 3.273 errors; its root as a leaf (16 rows, 1 error) at
	// 2.48 here (the book: 2.51), so the subtree goes.
	sub := pessimisticErrors(6, 0, 0.25, z) + pessimisticErrors(9, 0, 0.25, z) + pessimisticErrors(1, 0, 0.25, z)
	if math.Abs(sub-3.273) > 0.001 || pessimisticErrors(16, 1, 0.25, z) >= sub {
		t.Errorf("subtree estimate %.4f, its root as a leaf %.4f", sub, pessimisticErrors(16, 1, 0.25, z))
	}
}

// noisy is rows of two uniform features whose class is x0 + x1 > 1, a
// quarter of the labels flipped; clean holds the true classes.
func noisy(n int, seed uint64) (tr engine.Train, clean []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	X := mat.NewDense(n, 2, nil)
	y, clean := make([]float64, n), make([]float64, n)
	for i := range n {
		a, b := r.Float64(), r.Float64()
		X.Set(i, 0, a)
		X.Set(i, 1, b)
		if a+b > 1 {
			clean[i] = 1
		}
		y[i] = clean[i]
		if r.Float64() < 0.25 {
			y[i] = 1 - y[i]
		}
	}
	return engine.Train{X: X, Y: y, Classes: []string{"a", "b"}, Features: []string{"x0", "x1"}, Seed: 1}, clean
}

// fitTree fits the registered tree with settings on tr.
func fitTree(t *testing.T, settings map[string]string, tr engine.Train) *DecisionTree {
	t.Helper()
	_, _, m, err := engine.New("tree", settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
		t.Fatal(err)
	}
	return m.(*DecisionTree)
}

// On noisy labels the default tree (C4.5's pruning, J48's -M 2: no leaf of
// fewer than two rows) is much smaller than the tree grown until pure, and
// classifies new rows better.
func TestDefaultTreePrunesNoise(t *testing.T) {
	tr, _ := noisy(600, 1)
	test, truth := noisy(4000, 2)
	accuracy := func(m *DecisionTree) float64 {
		pred, err := m.Predict(test.X)
		if err != nil {
			t.Fatal(err)
		}
		right := 0
		for i, p := range pred {
			if p == truth[i] {
				right++
			}
		}
		return float64(right) / float64(len(pred))
	}
	pruned, grown := fitTree(t, nil, tr), fitTree(t, map[string]string{"prune": "none"}, tr)
	lp, lg := pruned.Tree().Leaves(), grown.Tree().Leaves()
	ap, ag := accuracy(pruned), accuracy(grown)
	if 2*lp > lg || ap < ag+0.03 {
		t.Errorf("default tree: %d leaves, accuracy %.4f; prune=none: %d leaves, accuracy %.4f", lp, ap, lg, ag)
	}
	for i, nd := range pruned.Tree().Nodes {
		if nd.Leaf() && nd.Samples < 2 {
			t.Errorf("default tree: leaf %d has %d rows", i, nd.Samples)
		}
	}
	t.Logf("default tree: %d leaves, accuracy %.4f; prune=none: %d leaves, accuracy %.4f", lp, ap, lg, ag)
}

// A smaller confidence factor prunes more: the leaves never grow as CF
// falls, and CF = 0.01 leaves fewer than CF = 0.5.
func TestErrorBasedPruningMonotoneInConfidence(t *testing.T) {
	tr, _ := noisy(600, 1)
	prev := math.MaxInt
	var first int
	for i, cf := range []string{"0.5", "0.4", "0.25", "0.1", "0.05", "0.01"} {
		leaves := fitTree(t, map[string]string{"confidence": cf}, tr).Tree().Leaves()
		if leaves > prev {
			t.Errorf("confidence %s: %d leaves, more than %d at the larger CF before", cf, leaves, prev)
		}
		if i == 0 {
			first = leaves
		}
		t.Logf("confidence %s: %d leaves", cf, leaves)
		prev = leaves
	}
	if prev >= first {
		t.Errorf("confidence 0.01 leaves %d leaves, 0.5 leaves %d", prev, first)
	}
}

// A tree cancelled while error-based pruning runs keeps the prunings done:
// a usable tree of the leaves the last step reported.
func TestErrorBasedPruningStopped(t *testing.T) {
	tr, _ := noisy(600, 1)
	all := &stepRec{}
	if err := engine.Fit(context.Background(), (&DecisionTree{Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Prune: PruneErrorBased, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}), tr, all); err != nil {
		t.Fatal(err)
	}
	first := -1
	for i, s := range all.steps {
		if p, ok := s.Detail.(Pruning); ok && p.Measure == "estimated_error" && first < 0 {
			first = i
		}
	}
	if first < 0 || len(all.steps) < first+4 {
		t.Fatalf("%d steps, pruning from %d", len(all.steps), first)
	}
	at := first + 3 // two splits removed
	rec := newCancelAt(at)
	m := &DecisionTree{Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Prune: PruneErrorBased, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}
	if err := engine.Fit(rec.ctx, m, tr, rec); !errors.Is(err, context.Canceled) {
		t.Fatalf("Fit returned %v, want context.Canceled", err)
	}
	if _, err := m.Predict(tr.X); err != nil {
		t.Fatal(err)
	}
	if got, want := m.Tree().Leaves(), all.steps[at-1].Detail.(Pruning).Leaves; got != want {
		t.Errorf("stopped tree has %d leaves, the step reported %d", got, want)
	}
}

package tree

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// cancelAt is a Recorder that cancels its context at step at.
type cancelAt struct {
	at     int
	steps  int
	ctx    context.Context
	cancel context.CancelFunc
}

func newCancelAt(at int) *cancelAt {
	ctx, cancel := context.WithCancel(context.Background())
	return &cancelAt{at: at, ctx: ctx, cancel: cancel}
}

func (r *cancelAt) Step(engine.Step) error {
	if r.steps++; r.steps == r.at {
		r.cancel()
	}
	return r.ctx.Err()
}

// A forest or AdaBoost cancelled after some trees keeps them: it predicts
// as the same model grown to that many trees would.
func TestEnsemblesStoppedEarlyKeepTheirTrees(t *testing.T) {
	tr := builtin(t, "wine")
	for _, c := range []struct {
		name          string
		stopped, full engine.Predictor
	}{
		{"forest", &Forest{Trees: 40, Criterion: Gini, MinLeaf: 1, MinSplit: 2, Purity: 1}, &Forest{Trees: 7, Criterion: Gini, MinLeaf: 1, MinSplit: 2, Purity: 1}},
		{"adaboost", &AdaBoost{Rounds: 40, MaxDepth: 2, Criterion: Gini, MinLeaf: 1}, &AdaBoost{Rounds: 7, MaxDepth: 2, Criterion: Gini, MinLeaf: 1}},
	} {
		rec := newCancelAt(7)
		if err := engine.Fit(rec.ctx, c.stopped, tr, rec); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: Fit returned %v, want context.Canceled", c.name, err)
		}
		if err := engine.Fit(context.Background(), c.full, tr, nil); err != nil {
			t.Fatal(err)
		}
		got, err := c.stopped.Predict(tr.X)
		if err != nil {
			t.Fatalf("%s stopped after 7 trees: %v", c.name, err)
		}
		want, _ := c.full.Predict(tr.X)
		if !slices.Equal(got, want) {
			t.Errorf("%s stopped after 7 trees predicts otherwise than a 7-tree model", c.name)
		}
	}
}

// A stage scorer gives, after every tree, what Predict and PredictProba
// give for the model as it stands, bit for bit.
func TestStagesMatchPredictions(t *testing.T) {
	for _, name := range []string{"wine", "diabetes", "breast_cancer"} {
		tr := builtin(t, name)
		for _, m := range []interface {
			engine.Predictor
			engine.Staged
		}{&Forest{Trees: 12, Criterion: Gini, MinLeaf: 1, MinSplit: 2, Purity: 1}, &AdaBoost{Rounds: 12, MaxDepth: 1, Criterion: Gini, MinLeaf: 1}, &DecisionTree{Prune: PruneNone, Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}, &DecisionTree{Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Prune: PruneErrorBased, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25},
			&DecisionTree{Prune: PruneCostComplexity, CCPAlpha: 0.01, Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}, &DecisionTree{Prune: PruneReducedError, Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}} {
			if _, boost := m.(*AdaBoost); boost && tr.Classes == nil {
				continue
			}
			X := tr.X.Slice(0, 40, 0, tr.Cols())
			var st engine.StageScorer
			checks := 0
			var pruned int // steps taken while pruning
			rec := recFunc(func(s engine.Step) error {
				if _, ok := s.Detail.(Pruning); ok {
					pruned++
				}
				if st == nil {
					var err error
					if st, err = m.Stages(X); err != nil {
						return err
					}
				}
				pred, proba, err := st.Scores()
				if err != nil {
					return err
				}
				want, _ := m.Predict(X)
				if !slices.Equal(pred, want) {
					t.Errorf("%T on %s, step %d: staged predictions differ", m, name, s.Step)
				}
				if p, ok := m.(engine.Prober); ok && tr.Classes != nil {
					P, _ := p.PredictProba(X)
					if !mat.Equal(P, proba) {
						t.Errorf("%T on %s, step %d: staged probabilities differ", m, name, s.Step)
					}
				}
				checks++
				return nil
			})
			if err := engine.Fit(context.Background(), m, tr, rec); err != nil {
				t.Fatal(err)
			}
			if checks < 4 {
				t.Errorf("%T on %s: %d steps checked", m, name, checks)
			}
			// Error-based pruning is for classification alone.
			if tr, ok := m.(*DecisionTree); ok && tr.Prune != PruneNone && (tr.Prune != PruneErrorBased || tr.d.k > 0) && pruned < 1 {
				t.Errorf("%s pruning on %s: %d pruning steps checked", tr.Prune, name, pruned)
			}
		}
	}
}

type recFunc func(engine.Step) error

func (f recFunc) Step(s engine.Step) error { return f(s) }

// A grower whose stop has closed grows nothing more: a cancelled forest
// does not wait for trees under way.
func TestGrowerStops(t *testing.T) {
	tr := builtin(t, "breast_cancer")
	d, err := newData(context.Background(), tr, "test", 2)
	if err != nil {
		t.Fatal(err)
	}
	cfg := growthConfig(Gini, 0, 2, 1, 1, 0, 2)
	g := newGrower(d, cfg, 1)
	stop := make(chan struct{})
	close(stop)
	g.stop = stop
	got, err := g.grow(nil, nil)
	if !errors.Is(err, errStopped) || len(got.nodes) != 1 || got.nodes[0].feature >= 0 {
		t.Errorf("stopped growth: %v, %d nodes", err, len(got.nodes))
	}
}

// A tree cancelled after a level keeps the levels grown, as it was at the
// last step reported; one stopped while a level grows drops that level's
// splits (truncate), keeping the same whole levels.
func TestTreeStoppedKeepsWholeLevels(t *testing.T) {
	tr := builtin(t, "breast_cancer")
	rec := newCancelAt(3)
	m := &DecisionTree{Prune: PruneNone, Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}
	if err := engine.Fit(rec.ctx, m, tr, rec); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	full := &DecisionTree{MaxDepth: 3, Prune: PruneNone, Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}
	if err := engine.Fit(context.Background(), full, tr, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := m.Predict(tr.X)
	want, _ := full.Predict(tr.X)
	if !slices.Equal(got, want) {
		t.Error("a tree stopped at level 3 predicts otherwise than a tree of depth 3")
	}
	// Truncating a half-split level restores the tree of whole levels.
	cfg := (&DecisionTree{Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, Purity: 1, Prune: PruneErrorBased, Confidence: 0.25, MinObjects: 2, PruneFraction: 0.25}).config(2)
	d, err := newData(context.Background(), tr, "test", 2)
	if err != nil {
		t.Fatal(err)
	}
	g := newGrower(d, cfg, tr.Seed)
	whole, _ := g.grow(nil, nil)
	n3 := len(full.t.nodes)
	cut := (&grown{nodes: slices.Clone(whole.nodes), dist: slices.Clone(whole.dist), k: whole.k}).truncate(n3)
	if len(cut.nodes) != n3 {
		t.Fatalf("truncated to %d nodes, want %d", len(cut.nodes), n3)
	}
	for i, nd := range cut.nodes {
		if f := full.t.nodes[i]; (nd.feature < 0) != (f.feature < 0) {
			t.Fatalf("node %d: leaf %v, want %v", i, nd.feature < 0, f.feature < 0)
		}
	}
}

// mixed is rows with a numeric feature that is sometimes missing and a
// nominal one of five levels; the class follows both.
func mixed(n int, seed uint64) engine.Train {
	r := rand.New(rand.NewPCG(seed, 9))
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		a, lv := r.NormFloat64(), float64(r.IntN(5))
		if a > 0 != (lv >= 2) != (r.Float64() < 0.1) {
			y[i] = 1
		}
		if r.Float64() < 0.15 {
			a = math.NaN()
		}
		X.Set(i, 0, a)
		X.Set(i, 1, lv)
	}
	return engine.Train{X: X, Y: y, Classes: []string{"no", "yes"}, Seed: seed, Features: []string{"a", "c"},
		Columns: []datasets.Column{{Name: "a", Missing: 1}, {Name: "c", Kind: datasets.Nominal, Levels: []string{"v", "w", "x", "y", "z"}}}}
}

// A packed tree (what a forest keeps) reaches the leaf the grown tree
// reaches and gives its class shares, or its value, bit for bit.
func TestPackedTreesPredictAsGrown(t *testing.T) {
	for _, tr := range []engine.Train{builtin(t, "wine"), builtin(t, "diabetes"), mixed(500, 1)} {
		k := classesOf(tr)
		d, err := newData(context.Background(), tr, "test", k)
		if err != nil {
			t.Fatal(err)
		}
		cfg := growthConfig(Gini, 0, 2, 1, 1, 0, k)
		if k == 0 {
			cfg.criterion = MSE
		}
		g := newGrower(d, cfg, 1)
		grownTree, _ := g.grow(nil, nil)
		p := pack(grownTree)
		for i := range tr.Rows() {
			x := tr.X.RawRowView(i)
			want := make([]float64, max(k, 1))
			if l := grownTree.leaf(x); k > 0 {
				addLeafShares(want, grownTree, l, 1)
			} else {
				want[0] = grownTree.nodes[l].value
			}
			got := make([]float64, max(k, 1))
			addValues(got, p.leaf(x))
			if !slices.Equal(got, want) {
				t.Fatalf("row %d: packed %v, grown %v", i, got, want)
			}
		}
		if per := float64(p.bytes()) / float64(len(p.nodes)); per > 40 {
			t.Errorf("packed tree: %.0f bytes a node", per)
		}
	}
}

// A stump grower on every row reads the data's sorted rows as they are;
// its next tree, on fewer rows, copies them and leaves the data's intact.
func TestStumpsReadSortedRowsWithoutWritingThem(t *testing.T) {
	tr := builtin(t, "wine")
	d, err := newData(context.Background(), tr, "test", 3)
	if err != nil {
		t.Fatal(err)
	}
	before := make([][]int32, d.p)
	for j, s := range d.sorted {
		before[j] = slices.Clone(s)
	}
	cfg := growthConfig(Gini, 1, 2, 1, 1, 0, 3)
	g := newGrower(d, cfg, 1)
	w := make([]float64, d.n)
	for i := range w {
		w[i] = 1
	}
	first, _ := g.grow(w, nil)
	w[0], w[5] = 0, 0
	second, _ := g.grow(w, nil)
	for j := range d.sorted {
		if !slices.Equal(d.sorted[j], before[j]) {
			t.Fatalf("feature %d: the data's sorted rows changed", j)
		}
	}
	if len(first.nodes) != 3 || len(second.nodes) != 3 {
		t.Errorf("stumps of %d and %d nodes", len(first.nodes), len(second.nodes))
	}
}

// A grown node is 64 bytes and a packed one 24: a deep tree on a million
// rows has hundreds of thousands of them, a forest millions.
func TestNodeSizes(t *testing.T) {
	if s := unsafe.Sizeof(node{}); s != 64 {
		t.Errorf("a grown node is %d bytes", s)
	}
	if s := unsafe.Sizeof(pnode{}); s != 24 {
		t.Errorf("a packed node is %d bytes", s)
	}
}

// bytes is the memory the packed tree holds.
func (p *packed) bytes() int {
	n := len(p.nodes)*int(unsafe.Sizeof(pnode{})) + len(p.values)*8
	for _, s := range p.sets {
		n += 24 + 8*len(s)
	}
	return n
}

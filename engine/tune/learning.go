package tune

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// DefaultSizes are the fractions of each training part a learning curve
// trains on when none are asked for: evenly spaced, so a chart's x axis
// is the fraction itself.
var DefaultSizes = []float64{0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1}

// sizeParam names a learning curve's axis: the fraction of each training
// part used.
var sizeParam = engine.Param{Name: "train_size", Kind: engine.Float, Min: 0, Max: 1,
	Help: "fraction of each training part the model learns from"}

// subsetStream keeps the learning curve's subsets apart from the folds'
// and the models' streams of the same seed.
const subsetStream = 0x6c63 // "lc"

// LearningCurve scores spec with values v (nil: the defaults) trained on
// growing subsets of each training part (sizes: fractions in (0, 1]; nil:
// DefaultSizes), scored on the fold's whole held-out part and on the subset
// it learned from. The folds are those of opt.Eval, the same for every
// size; each training part is shuffled once (seeded), in an order that
// keeps the classes in proportion in every prefix, and a size takes its
// first rows, so a larger subset holds every smaller one. The result has
// one axis, train_size; Point.Rows is the subset's size in the largest
// fold. Cancelling ctx keeps the sizes that finished.
func LearningCurve(ctx context.Context, d *datasets.Dataset, spec *engine.Spec, v engine.Values, sizes []float64, opt Options, progress func(int, Point)) (*Result, error) {
	if sizes == nil {
		sizes = DefaultSizes
	}
	for _, s := range sizes {
		if !(s > 0 && s <= 1) {
			return nil, fmt.Errorf("training size %g is out of range (a fraction of each training part, above 0 and at most 1)", s)
		}
	}
	sizes = slices.Clone(sizes)
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	res, folds, err := start(d, spec, v, opt)
	if err != nil {
		return nil, err
	}
	res.Axes = []Axis{{Param: sizeParam, Text: joinSizes(sizes), Values: anys(sizes), lo: sizes[0], hi: 1}}
	orders := make([][]int, len(folds))
	for f, fold := range folds {
		orders[f] = balancedOrder(d, fold.Train, opt.Eval.Seed+uint64(f))
	}
	jobs := make([]job, len(sizes))
	for i, s := range sizes {
		plan := make([]eval.Fold, len(folds))
		for f, fold := range folds {
			m := max(int(math.Round(s*float64(len(fold.Train)))), 2)
			plan[f] = eval.Fold{Train: orders[f][:min(m, len(fold.Train))], Test: fold.Test}
		}
		jobs[i] = job{values: []any{s}, params: res.Base, plan: plan}
	}
	return res, run(ctx, d, spec, res, jobs, opt, &engine.Accountant{}, engine.Need{}, progress)
}

// balancedOrder shuffles rows (seeded) and orders them so that every prefix
// holds each class in about its share: the r-th of a class of n rows sits
// at (r+½)/n.
func balancedOrder(d *datasets.Dataset, rows []int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, subsetStream))
	order := slices.Clone(rows)
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	if d.Task != datasets.Classification {
		return order
	}
	count := map[float64]int{}
	for _, i := range order {
		count[d.Y[i]]++
	}
	seen := map[float64]int{}
	key := make(map[int]float64, len(order))
	for _, i := range order {
		c := d.Y[i]
		key[i] = (float64(seen[c]) + 0.5) / float64(count[c])
		seen[c]++
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case key[a] < key[b]:
			return -1
		case key[a] > key[b]:
			return 1
		}
		return 0
	})
	return order
}

func anys(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// joinSizes writes sizes as --sizes takes them: "0.1,0.5,1".
func joinSizes(sizes []float64) string {
	parts := make([]string, len(sizes))
	for i, s := range sizes {
		parts[i] = engine.Format(s)
	}
	return strings.Join(parts, ",")
}

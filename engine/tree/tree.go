// Package tree holds tealab's tree learners: the decision tree (CART, for
// classification and regression), bagging and random forests, and AdaBoost
// with short trees (Shewchuk, Concise Machine Learning, lectures 14, 15, 24; Verma, COMS 4771 notes, "Nearest
// Neighbors and Decision Trees"; Alpaydin, Introduction to Machine Learning, ch. 9, rule extraction).
//
// Rules that hold across the package:
//   - Trees split numeric features at thresholds (x <= t goes left; t is
//     the midpoint between neighbouring values, as scikit-learn) and
//     nominal features by sets of levels: the levels in the set go left,
//     every other level (one unseen in training too) goes right.
//   - Missing values reach the trees as NaN. The split search ignores them
//     while it sweeps, then sends them with the side that holds more
//     training weight, and scores the split that way; a missing value at
//     prediction takes the same side. The condition says "or missing" on
//     that side when the feature had missing values in training, and
//     MissingDefault marks it when it had none.
//   - Weights (Train.Weights, bootstrap counts, boosting weights) weigh the
//     impurities; the size rules (min_samples_leaf, min_samples_split)
//     count rows.
//   - Growth is breadth-first and reports one Step per level of depth (the
//     tree as it stands is what Predict uses then); pruning reports one
//     Step per split removed; ensembles one Step per tree or round.
package tree

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

const family = "trees and ensembles"

// Pruning choices.
const (
	PruneNone           = "none"
	PruneErrorBased     = "error-based"
	PruneReducedError   = "reduced-error"
	PruneCostComplexity = "cost-complexity"
)

// pruneChoices are the pruning choices, the default first.
var pruneChoices = []string{PruneErrorBased, PruneNone, PruneReducedError, PruneCostComplexity}

// DecisionTree is a CART tree. Its spec's defaults are Weka's J48: Gini,
// grown until pure with at least two rows a leaf, then C4.5's error-based
// pruning at confidence 0.25.
type DecisionTree struct {
	Criterion       string  // gini, entropy, misclassification (classification; regression uses the variance)
	MaxDepth        int     // 0: no limit
	MinSamplesSplit int     // fewest rows a node splits
	MinSamplesLeaf  int     // fewest rows a leaf holds
	Purity          float64 // 1: only pure nodes stop
	MinDecrease     float64
	Prune           string
	Confidence      float64 // error-based: the confidence factor CF, in (0, 0.5]
	MinObjects      int     // error-based: fewest rows each child of a split holds
	PruneFraction   float64 // reduced-error: share of the training rows held out to prune on
	CCPAlpha        float64 // cost-complexity: the complexity cost per leaf

	d        *data
	t        *grown
	features []string
	engine.FitState
	// While pruning turns nodes back into leaves, splits records each
	// node's feature as grown and collapsed the nodes turned, in order:
	// what Stages follows.
	pruning   bool
	splits    []int32
	collapsed []int32
}

func init() {
	engine.Register(engine.Spec{
		Weighted:  true,
		Name:      "tree",
		Title:     "decision tree",
		Family:    family,
		Summary:   "CART: greedy axis-aligned splits by Gini, entropy or error (variance for regression), pruned as C4.5 by default (Quinlan 1993, C4.5: Programs for Machine Learning); rules you can read",
		Notes:     "Shewchuk, Concise Machine Learning, lectures 14-15 (decision trees, pruning); Verma, COMS 4771 notes, Nearest Neighbors and Decision Trees; Alpaydin, Introduction to Machine Learning, ch. 9 (rule extraction); Quinlan 1993 (C4.5 pruning)",
		Tasks:     []engine.Task{datasets.Classification, datasets.Regression},
		Unit:      "level",
		Loss:      "training error",
		ErrorLoss: true,
		Input:     engine.Input{Nominal: true, Missing: true},
		Params:    append(growthParams(), pruneParams()...),
		Bench:     []engine.BenchCase{{Name: "tree", Data: "clf_50k_20", Task: datasets.Classification, Params: map[string]string{"prune": PruneNone}}},
		Memory: func(s engine.Shape, _ engine.Values) engine.Need {
			return presortMemory(s, 1)
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &DecisionTree{Criterion: v.String("criterion"), MaxDepth: v.Int("max_depth"),
				MinSamplesSplit: v.Int("min_samples_split"), MinSamplesLeaf: v.Int("min_samples_leaf"),
				Purity: v.Float("purity"), MinDecrease: v.Float("min_impurity_decrease"),
				Prune: v.String("prune"), Confidence: v.Float("confidence"), MinObjects: v.Int("min_objects"),
				PruneFraction: v.Float("prune_fraction"), CCPAlpha: v.Float("ccp_alpha")}, nil
		},
	})
}

// growthParams are the stopping rules every tree learner shares.
func growthParams() []engine.Param {
	return []engine.Param{
		{Name: "criterion", Kind: engine.Choice, Default: Gini, Choices: []string{Gini, Entropy, Misclass},
			Help:   "impurity a split lowers: gini, entropy or misclassification (regression trees: the variance)",
			Detail: "Gini is 1-Σp², entropy -Σp log₂p (its decrease is the information gain), misclassification the error 1-max p; a regression tree lowers the variance whatever this says."},
		{Name: "max_depth", Kind: engine.Int, Default: 0, Min: 0, Max: 1000, Simpler: engine.SimplerLower, ZeroIsNoLimit: true,
			Help: "deepest level a node may be split at (0: no limit)"},
		{Name: "min_samples_split", Kind: engine.Int, Default: 2, Min: 2, Max: 1e9, Simpler: engine.SimplerHigher,
			Help: "fewest training rows a node needs to be split"},
		{Name: "min_samples_leaf", Kind: engine.Int, Default: 1, Min: 1, Max: 1e9, Simpler: engine.SimplerHigher,
			Help: "fewest training rows each child of a split must get (Verma's example: 5)"},
		{Name: "purity", Kind: engine.Float, Default: 1.0, Min: 0.5, Max: 1,
			Help: "a node whose majority class holds this share is a leaf (Shewchuk: 0.9); 1 splits until pure"},
		{Name: "min_impurity_decrease", Kind: engine.Float, Default: 0.0, Min: 0, Max: 1e6,
			Help: "least weighted impurity decrease (share of rows × decrease) a split must bring"},
	}
}

func pruneParams() []engine.Param {
	return []engine.Param{
		{Name: "prune", Kind: engine.Choice, Default: PruneErrorBased, Choices: pruneChoices,
			Help: "how to prune: error-based (C4.5's), none, reduced-error or cost-complexity",
			Detail: "error-based is C4.5's pruning (Quinlan 1993, C4.5: Programs for Machine Learning): each leaf's errors on new rows are estimated by the upper confidence limit of the binomial of its training errors, and a split goes, bottom up, when its node as a leaf is estimated to err no more than its leaves (classification; a regression tree is left as grown). " +
				"none grows until pure, as scikit-learn does. reduced-error grows on part of the rows, then removes every split the held-out part does not need. cost-complexity removes the weakest links while their cost per leaf is at most ccp_alpha."},
		{Name: "confidence", Kind: engine.Float, Default: 0.25, Min: 0.001, Max: 0.5,
			When:   &engine.Applies{Param: "prune", In: []string{PruneErrorBased}},
			Help:   "C4.5's confidence factor CF (J48 -C): smaller prunes more",
			Detail: "A leaf's errors on new rows are estimated by the upper CF confidence limit of the binomial of its training errors (Quinlan 1993)."},
		{Name: "min_objects", Kind: engine.Int, Default: 2, Min: 1, Max: 1e9,
			When:   &engine.Applies{Param: "prune", In: []string{PruneErrorBased}},
			Help:   "C4.5's fewest rows in at least two branches of a split (J48 -M)",
			Detail: "On this two-way tree it bounds each child: the larger of this and min_samples_leaf applies (classification)."},
		{Name: "prune_fraction", Kind: engine.Float, Default: 0.25, Min: 0.05, Max: 0.9,
			When: &engine.Applies{Param: "prune", In: []string{PruneReducedError}},
			Help: "share of the training rows held out to prune on"},
		{Name: "ccp_alpha", Kind: engine.Float, Default: 0.01, Min: 0, Max: 1e6, Simpler: engine.SimplerHigher,
			When: &engine.Applies{Param: "prune", In: []string{PruneCostComplexity}},
			Help: "complexity cost of a leaf (scikit-learn's ccp_alpha): larger prunes more"},
	}
}

// config is the growth rules of the settings.
func (m *DecisionTree) config(k int) config {
	return growthConfig(m.Criterion, m.MaxDepth, m.MinSamplesSplit, m.MinSamplesLeaf, m.Purity, m.MinDecrease, k)
}

// growthConfig gathers the growth rules; a regression tree (k == 0) splits
// on the variance whatever the criterion.
func growthConfig(criterion string, maxDepth, minSplit, minLeaf int, purity, minDecrease float64, k int) config {
	c := config{criterion: criterion, maxDepth: maxDepth, minSplit: minSplit, minLeaf: minLeaf,
		purity: purity, minDecrease: minDecrease}
	if k == 0 {
		c.criterion = MSE
	}
	return c
}

// pruneMethod returns the method to follow: C4.5's pruning is for
// classification, so a regression tree is left as grown.
func (m *DecisionTree) pruneMethod(k int) string {
	if k == 0 && m.Prune == PruneErrorBased {
		return PruneNone
	}
	return m.Prune
}

// splittable checks the size rules against the n rows a tree grows on: a
// rule that no split can meet would grow a tree of one leaf without a word.
func (c config) splittable(model string, n int) error {
	switch {
	case c.minLeaf > 1 && 2*c.minLeaf > n:
		return engine.Limitf("%s: min_samples_leaf=%d but the training part has %d rows, and a split needs %d; use min_samples_leaf at most %d",
			model, c.minLeaf, n, 2*c.minLeaf, max(n/2, 1))
	case c.minSplit > 2 && c.minSplit > n:
		return engine.Limitf("%s: min_samples_split=%d but the training part has %d rows, so no node can split; use min_samples_split at most %d",
			model, c.minSplit, n, max(n, 2))
	}
	return nil
}

// classesOf is the number of classes a fit learns (0 for regression).
func classesOf(t engine.Train) int {
	if t.Classes == nil {
		return 0
	}
	return len(t.Classes)
}

// Fit grows the tree level by level, then prunes it if asked.
func (m *DecisionTree) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	m.t, m.d = nil, nil
	k := classesOf(t)
	cfg := m.config(k)
	prune := m.pruneMethod(k)
	d, err := newData(ctx, t, "decision tree", k)
	if err != nil {
		return err
	}
	if err := cfg.splittable("decision tree", d.n); err != nil {
		return err
	}
	if prune == PruneErrorBased {
		// After the check: C4.5's rule leaves a tree of too few rows a leaf.
		cfg.minLeaf = max(cfg.minLeaf, m.MinObjects)
	}
	m.d, m.features = d, d.names
	w := make([]float64, d.n)
	for i := range w {
		w[i] = 1
		if t.Weights != nil {
			w[i] = t.Weights[i]
		}
	}
	var held []int // reduced-error pruning's rows
	if prune == PruneReducedError {
		frac := m.PruneFraction
		held = pruneRows(d, frac, t.Seed)
		if len(held) == 0 || len(held) >= d.n {
			return engine.Limitf("decision tree: %d training rows are too few to hold some out for pruning; use prune=cost-complexity", d.n)
		}
		for _, i := range held {
			w[i] = 0
		}
	}
	defer d.release()
	g := newGrower(d, cfg, t.Seed)
	g.stop, g.owns = ctx.Done(), true
	step := 0
	onLevel := func(depth int, gt *grown) error {
		m.t, m.Fitted = gt, true
		step++
		leaves := 0
		for _, nd := range gt.nodes {
			if nd.feature < 0 {
				leaves++
			}
		}
		if err := rec.Step(engine.Step{Step: step, TrainLoss: m.trainError(),
			Detail: Growth{Nodes: len(gt.nodes), Leaves: leaves, Depth: depth + 1}}); err != nil {
			return err
		}
		return ctx.Err()
	}
	gt, err := g.grow(w, onLevel)
	m.t, m.Fitted = gt, gt != nil
	if err == nil && prune != PruneNone {
		m.pruning, m.collapsed = true, nil
		m.splits = make([]int32, len(gt.nodes))
		for i, nd := range gt.nodes {
			m.splits[i] = nd.feature
		}
		defer func() { m.pruning, m.splits, m.collapsed = false, nil, nil }()
	}
	if err == nil {
		switch prune {
		case PruneReducedError:
			err = m.pruneReducedError(ctx, held, w, &step, rec)
		case PruneCostComplexity:
			err = m.pruneCostComplexity(ctx, m.CCPAlpha, w, &step, rec)
		case PruneErrorBased:
			err = m.pruneErrorBased(ctx, m.Confidence, w, &step, rec)
		}
	}
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil && m.Fitted:
		// Stopped early: the tree keeps the depths grown (and the
		// prunings done), a usable tree.
		m.t = compact(m.t)
		return m.StoppedEarly(ctx.Err())
	}
	return err
}

// pruneRows draws the rows reduced-error pruning holds out, a share of each
// class (classification) or of all rows.
func pruneRows(d *data, frac float64, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	var held []int
	if d.k == 0 {
		perm := r.Perm(d.n)
		held = perm[:int(math.Round(frac*float64(d.n)))]
	} else {
		byClass := make([][]int, d.k)
		for i, c := range d.y {
			byClass[c] = append(byClass[c], i)
		}
		for _, rows := range byClass {
			r.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
			held = append(held, rows[:int(math.Round(frac*float64(len(rows))))]...)
		}
	}
	slices.Sort(held)
	return held
}

// trainError is the error of the tree as it stands on its training rows:
// the weight its leaves misclassify, or their squared errors, over the
// total weight; read off the leaves' statistics, not the rows.
func (m *DecisionTree) trainError() float64 {
	cost, W := 0.0, 0.0
	for i, nd := range m.t.nodes {
		if nd.feature < 0 {
			cost += leafCost(m.t, i)
			W += nd.weight
		}
	}
	if W == 0 {
		return math.NaN()
	}
	return cost / W
}

// Predict implements engine.Predictor.
func (m *DecisionTree) Predict(X mat.Matrix) ([]float64, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	return predictTree(m.t, X, m.d.p)
}

func predictTree(t *grown, X mat.Matrix, p int) ([]float64, error) {
	n, c := X.Dims()
	if c != p {
		return nil, fmt.Errorf("decision tree: got %d features, fitted on %d", c, p)
	}
	out := make([]float64, n)
	x := make([]float64, p)
	for i := range n {
		mat.Row(x, i, X)
		out[i] = t.nodes[t.leaf(x)].value
	}
	return out, nil
}

// PredictProba implements engine.Prober: the class shares of the leaf.
func (m *DecisionTree) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	if m.d.k == 0 {
		return nil, errors.New("decision tree: a regression tree has no class probabilities")
	}
	n, c := X.Dims()
	if c != m.d.p {
		return nil, fmt.Errorf("decision tree: got %d features, fitted on %d", c, m.d.p)
	}
	P := mat.NewDense(n, m.d.k, nil)
	x := make([]float64, m.d.p)
	for i := range n {
		mat.Row(x, i, X)
		addLeafShares(P.RawRowView(i), m.t, m.t.leaf(x), 1)
	}
	return P, nil
}

// addLeafShares adds scale × the class shares of leaf l to row.
func addLeafShares(row []float64, t *grown, l int, scale float64) {
	dist := t.classDist(l)
	W := t.nodes[l].weight
	if W <= 0 {
		return
	}
	for c, v := range dist {
		row[c] += scale * v / W
	}
}

// Tree implements engine.Treer.
func (m *DecisionTree) Tree() *engine.Tree {
	if !m.Fitted {
		return nil
	}
	return m.d.export(m.t, m.criterionName())
}

func (m *DecisionTree) criterionName() string {
	if m.d.k == 0 {
		return MSE
	}
	return m.Criterion
}

// FeatureImportances implements engine.Importancer: each feature's share of
// the weighted impurity decrease of all splits.
func (m *DecisionTree) FeatureImportances() *engine.Importances {
	if !m.Fitted {
		return nil
	}
	v := importances(m.t, m.d.p)
	return &engine.Importances{Features: m.features, Values: v, Method: "mean decrease in impurity"}
}

func importances(t *grown, p int) []float64 {
	v := make([]float64, p)
	sum := 0.0
	for _, nd := range t.nodes {
		if nd.feature >= 0 {
			v[nd.feature] += nd.decrease
			sum += nd.decrease
		}
	}
	if sum > 0 {
		for j := range v {
			v[j] /= sum
		}
	}
	return v
}

// export converts a grown tree into the engine's Tree, the shape the views,
// the rules and --json read.
func (d *data) export(t *grown, criterion string) *engine.Tree {
	out := &engine.Tree{Classes: d.classes, Criterion: criterion, Nodes: make([]engine.TreeNode, len(t.nodes))}
	if d.k == 0 {
		out.Classes = nil
	}
	for i, nd := range t.nodes {
		tn := engine.TreeNode{Samples: int(nd.samples), Impurity: nd.impurity, Value: nd.value}
		if d.k > 0 {
			tn.Counts = slices.Clone(t.classDist(i))
		}
		if nd.feature >= 0 {
			tn.Children = []int{int(nd.left), int(nd.right)}
		}
		out.Nodes[i] = tn
	}
	for _, nd := range t.nodes {
		if nd.feature < 0 {
			continue
		}
		f := int(nd.feature)
		l := engine.Condition{Feature: f, Name: d.names[f], Missing: nd.missLeft && d.missing[f], MissingDefault: nd.missLeft && !d.missing[f]}
		r := engine.Condition{Feature: f, Name: d.names[f], Missing: !nd.missLeft && d.missing[f], MissingDefault: !nd.missLeft && !d.missing[f]}
		if set := t.levels(&nd); set != nil {
			var in []string
			for lv := range d.levels[f] {
				if set[lv>>6]&(1<<(lv&63)) != 0 {
					in = append(in, d.levelName(f, lv))
				}
			}
			l.Op, r.Op = "in", "not in"
			l.Levels, r.Levels = in, in
			if len(in) == 1 {
				l.Op, r.Op = "=", "!="
			}
		} else {
			l.Op, r.Op = "<=", ">"
			l.Threshold, r.Threshold = nd.threshold, nd.threshold
		}
		out.Nodes[nd.left].Cond = l
		out.Nodes[nd.right].Cond = r
	}
	return out
}

func (d *data) levelName(f, l int) string {
	if l < len(d.lnames[f]) {
		return d.lnames[f][l]
	}
	return fmt.Sprint(l)
}

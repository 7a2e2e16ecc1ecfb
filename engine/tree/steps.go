package tree

import "github.com/tealab/tealab/engine"

// What the tree family's fits say of each step besides its loss
// (engine.Step.Detail). The figure names are those run files keep.

// Growth is a decision tree grown by one more level.
type Growth struct {
	Nodes  int // nodes so far
	Leaves int // of which leaves
	Depth  int // levels so far, the root's counting as one
}

// Figures: nodes, leaves, depth.
func (g Growth) Figures() []engine.Figure {
	return []engine.Figure{{Name: "nodes", Value: float64(g.Nodes)}, {Name: "leaves", Value: float64(g.Leaves)}, {Name: "depth", Value: float64(g.Depth)}}
}

// Pruning is a tree after a pruning step: its leaves and the quantity the
// pruning rule weighs, named as the rule names it ("estimated_error",
// "prune_error", "alpha").
type Pruning struct {
	Leaves  int
	Measure string
	Value   float64
}

// Figures: leaves, then the measure.
func (p Pruning) Figures() []engine.Figure {
	return []engine.Figure{{Name: "leaves", Value: float64(p.Leaves)}, {Name: p.Measure, Value: p.Value}}
}

// BoostRound is one AdaBoost round.
type BoostRound struct {
	TrainError    float64 // the ensemble's training error after the round
	WeightedError float64 // the round's tree's weighted training error
	Vote          float64 // the round's tree's vote β
}

// Figures: train_error, err, beta.
func (b BoostRound) Figures() []engine.Figure {
	return []engine.Figure{{Name: "train_error", Value: b.TrainError}, {Name: "err", Value: b.WeightedError}, {Name: "beta", Value: b.Vote}}
}

// ForestStep is a random forest with one more tree.
type ForestStep struct {
	OOBRows int // rows with an out-of-bag vote so far
	Nodes   int // nodes of all the trees
}

// Figures: oob_rows, nodes.
func (f ForestStep) Figures() []engine.Figure {
	return []engine.Figure{{Name: "oob_rows", Value: float64(f.OOBRows)}, {Name: "nodes", Value: float64(f.Nodes)}}
}

package live

import (
	"math"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/tree"
	"github.com/tealab/tealab/tui/kit"
)

// The tree family's live views: a decision tree's size as it grows level
// by level and is then pruned, and each AdaBoost round's tree: how well it
// did on the weighted rows and the vote it was given for that.
func init() {
	Register(Spec{Order: 20, Applies: Carries[tree.Growth],
		Make: func(c *kit.Common, r *kit.RunRecord) View {
			return newCurvesView([]kit.Quantity{{Title: "tree size: leaves as it grows, then as it is pruned", Legend: "leaves", Get: treeLeaves}}, r, c)
		}})
	Register(Spec{Order: 20, Applies: Carries[tree.BoostRound],
		Make: func(c *kit.Common, r *kit.RunRecord) View {
			return newCurvesView([]kit.Quantity{
				{Title: "this round's tree: weighted training error", Legend: "weighted error",
					Get: detailOf(func(b tree.BoostRound) float64 { return b.WeightedError })},
				{Title: "this round's tree: its vote β", Legend: "vote β",
					Get: detailOf(func(b tree.BoostRound) float64 { return b.Vote })},
			}, r, c)
		}})
}

// treeLeaves is a tree's leaves after a step, growing or pruning.
func treeLeaves(p eval.Point) float64 {
	switch d := p.Detail.(type) {
	case tree.Growth:
		return float64(d.Leaves)
	case tree.Pruning:
		return float64(d.Leaves)
	}
	return math.NaN()
}

package live

import (
	"github.com/tealab/tealab/engine/ensemble"
	"github.com/tealab/tealab/tui/kit"
)

// The ensembles' live view: each member's own error as it joins (on the
// training rows for voting, out of fold for stacking), beside which the
// ensemble's curve shows what combining them gains.
func init() {
	Register(Spec{Order: 20, Applies: Carries[ensemble.Member],
		Make: func(c *kit.Common, r *kit.RunRecord) View {
			return newCurvesView([]kit.Quantity{{Title: "each member alone: its own error (training rows for voting, out of fold for stacking)",
				Legend: "member's error", Get: detailOf(func(m ensemble.Member) float64 { return m.Error })}}, r, c)
		}})
}

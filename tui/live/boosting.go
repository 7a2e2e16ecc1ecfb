package live

import (
	"github.com/tealab/tealab/engine/boosting"
	"github.com/tealab/tealab/tui/kit"
)

// The boosting family's live view: what each round's trees took off the
// loss (their summed split gain) and how many leaves they grew, which
// shows when boosting runs out of splits worth making.
func init() {
	Register(Spec{Order: 20, Applies: Carries[boosting.Round],
		Make: func(c *kit.Common, r *kit.RunRecord) View {
			return newCurvesView([]kit.Quantity{
				{Title: "this round's trees: their summed split gain", Legend: "gain",
					Get: detailOf(func(b boosting.Round) float64 { return b.Gain })},
				{Title: "this round's trees: their leaves", Legend: "leaves",
					Get: detailOf(func(b boosting.Round) float64 { return float64(b.Leaves) })},
			}, r, c)
		}})
}

package views

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Biplot", Order: engine.CapComponents.Order + 1, // after Components, which it draws from
		Needs: func(r *kit.RunRecord) bool {
			if !HasLearned(engine.CapComponents.Name)(r) || r.Result.Embedding == nil {
				return false
			}
			_, k := r.Result.Embedding.Dims()
			c, _ := r.Result.Learned[engine.CapComponents.Name].(*engine.Components)
			return k >= 2 && c != nil && c.Vectors != nil
		},
		Make: newBiplotView})
}

// biplotView draws a reduction's rows in its first two components, with
// each feature's loadings on them as an arrow from the origin, labelled:
// the rows' spread and what drives it in one picture. The arrows are
// scaled together so that the longest reaches most of the way to the
// farthest row; only their directions and relative lengths mean anything.
type biplotView struct {
	c    *kit.Common
	head string
	plot widgets.Biplot
	w    int
}

// maxArrows bounds the arrows drawn: the longest, so that labels stay
// readable.
const maxArrows = 10

func newBiplotView(env Env, r *kit.RunRecord) View {
	comps := r.Result.Learned[engine.CapComponents.Name].(*engine.Components)
	e := r.Result.Embedding
	var arrows []widgets.Arrow
	for _, j := range longestLoadings(comps) {
		arrows = append(arrows, widgets.Arrow{X: comps.Vectors.At(0, j), Y: comps.Vectors.At(1, j), Label: comps.Features[j]})
	}
	v := &biplotView{c: env.C, plot: widgets.NewBiplot(env.C.Styles)}
	v.plot.SetData(mat.Col(nil, 0, e), mat.Col(nil, 1, e), arrows)
	v.head = fmt.Sprintf("rows: %s (%s of the variance) across, %s (%s) up · arrows: feature loadings, scaled together",
		comps.Names[0], numfmt.Percent(comps.Ratio[0]), comps.Names[1], numfmt.Percent(comps.Ratio[1]))
	if len(arrows) < len(comps.Features) {
		v.head += fmt.Sprintf(" · %d longest of %d", len(arrows), len(comps.Features))
	}
	return v
}

func (v *biplotView) Update(tea.Msg) tea.Cmd { return nil }
func (v *biplotView) Keys() []key.Binding    { return nil }

func (v *biplotView) SetSize(w, h int) {
	v.w = w
	v.plot.SetSize(max(w-2, 20), max(h-3, 8))
}

func (v *biplotView) View() string {
	st := v.c.Styles
	body := " " + strings.ReplaceAll(v.plot.View(), "\n", "\n ")
	return st.Muted.Render(kit.Clip(" "+v.head, v.w)) + "\n" + body
}

// longestLoadings are the features with the longest arrows in the first
// two components, at most maxArrows of them.
func longestLoadings(c *engine.Components) []int {
	idx := make([]int, len(c.Features))
	for j := range idx {
		idx[j] = j
	}
	length := func(j int) float64 { return math.Hypot(c.Vectors.At(0, j), c.Vectors.At(1, j)) }
	sort.SliceStable(idx, func(a, b int) bool { return length(idx[a]) > length(idx[b]) })
	return idx[:min(len(idx), maxArrows)]
}

package live

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/nn"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

// The network family's live view: each layer's gradient norm over the
// epochs on a log axis (each epoch's mean over its mini-batches), so that
// vanishing gradients (sigmoid, deep nets) show as the lines of the first
// layers falling decades below the last, and the network as a column of
// its layers with their latest norms and the spread of the epoch's
// batches.
func init() {
	Register(Spec{Order: 20, Applies: Carries[nn.Epoch],
		Make: func(c *kit.Common, r *kit.RunRecord) View {
			chart := widgets.NewLineChart(nnChartTitle, kit.UnitOf(r.Spec), c.Styles)
			chart.SetLogY(true)
			return &nnLiveView{c: c, chart: chart}
		}})
}

// nnChartTitle says what a point is: the mean norm of the epoch's
// mini-batches (one batch's norm would swing by orders of magnitude from
// batch to batch when batches are small).
const nnChartTitle = "gradient norm ‖∂L/∂W‖ per layer, batch mean"

// nnLiveView draws the layer norms of the fold being fitted.
type nnLiveView struct {
	c      *kit.Common
	chart  widgets.LineChart
	layers []nn.LayerNorms // the latest epoch's
	w, h   int
}

func (v *nnLiveView) Show(folds [][]eval.Point, cur int, note string) {
	if cur < 0 || cur >= len(folds) {
		return
	}
	names, grads, dx := layerSeries(folds[cur])
	v.chart.SetSeries(names, grads)
	v.chart.SetTitle(nnChartTitle + note)
	if len(folds[cur]) > 0 {
		v.chart.SetXScale(float64(folds[cur][0].Step), dx)
	}
	v.layers = nil
	for i := len(folds[cur]) - 1; i >= 0; i-- {
		if e, ok := folds[cur][i].Detail.(nn.Epoch); ok {
			v.layers = e.Layers
			break
		}
	}
}

// layerSeries is each layer's gradient norm over a fold's epochs, named
// by the layers of the first epoch that has them (NaN where an epoch lacks
// one), and the steps between two points of the series.
func layerSeries(h []eval.Point) ([]string, [][]float64, float64) {
	var names []string
	for _, p := range h {
		if e, ok := p.Detail.(nn.Epoch); ok && len(e.Layers) > 0 {
			for _, l := range e.Layers {
				names = append(names, l.Name)
			}
			break
		}
	}
	ys, dx := make([][]float64, len(names)), 1.0
	for i, name := range names {
		get := detailOf(func(e nn.Epoch) float64 {
			for _, l := range e.Layers {
				if l.Name == name {
					return l.Grad
				}
			}
			return math.NaN()
		})
		ys[i], dx = kit.FoldSeries(h, get)
	}
	return names, ys, dx
}

func (v *nnLiveView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.chart.SetSize(w, max(h-v.columnRows(), 3))
}

// columnRows is the height of the network's column under the chart.
func (v *nnLiveView) columnRows() int { return min(len(v.layers)+1, v.h/2) }

func (v *nnLiveView) Panes() int { return 2 }

func (v *nnLiveView) View() string {
	v.chart.SetSize(v.w, max(v.h-v.columnRows(), 3))
	return kit.Fit(lipgloss.JoinVertical(lipgloss.Left, v.chart.View(), v.column()), v.w, v.h)
}

// column draws the layers from the inputs down to the output, each with
// its weight norm as a bar (scaled to the largest) and its gradient norm.
func (v *nnLiveView) column() string {
	st := v.c.Styles
	rows := v.columnRows()
	if rows < 1 {
		return ""
	}
	lines := []string{st.Header.Render(kit.Clip(" layers · last epoch's ‖W‖ · mean ‖∂L/∂W‖ (batch range)", v.w))}
	wmax, nameW := 0.0, 0
	for _, l := range v.layers {
		wmax = math.Max(wmax, l.Weight)
		nameW = max(nameW, lipgloss.Width(l.Name))
	}
	barW := max(min(v.w-nameW-54, 30), 4)
	for i, l := range v.layers[:min(len(v.layers), rows-1)] {
		bar := normBar(l.Weight, wmax, barW)
		pad := strings.Repeat(" ", barW-lipgloss.Width(bar))
		spread := ""
		if l.GradMax > l.GradMin { // one batch an epoch has none
			spread = st.Muted.Render(fmt.Sprintf(" (%s–%s)", numfmt.Sig(l.GradMin, 2), numfmt.Sig(l.GradMax, 2)))
		}
		lines = append(lines, kit.Clip(fmt.Sprintf(" %-*s %s%s ‖W‖ %s · ‖∂L/∂W‖ %s%s", nameW, l.Name,
			st.SeriesStyle(i).Render(bar), pad, numfmt.Sig(l.Weight, 3), numfmt.Sig(l.Grad, 3), spread), v.w))
	}
	return strings.Join(lines, "\n")
}

// normBar is a bar of w cells for value against the largest, at least one
// cell for any positive value.
func normBar(value, largest float64, w int) string {
	if !(value > 0) || !(largest > 0) {
		return ""
	}
	n := max(int(math.Round(value/largest*float64(w))), 1)
	return strings.Repeat("█", min(n, w))
}

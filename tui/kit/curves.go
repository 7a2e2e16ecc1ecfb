package kit

import (
	"fmt"
	"math"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/widgets"
)

// Quantity is one series of a fold's history. Each gets a chart of its
// own: quantities on different scales (a log-loss of 2.3 beside an error
// rate of 0.05) never share an axis, where one would flatten the other.
type Quantity struct {
	Title  string // the chart's title: the quantity and what it is measured on
	Legend string // the series' name in the legend
	Get    func(eval.Point) float64
	// never is why a run whose other validation figures arrive has none of
	// this one ("the model gives no probabilities"); "" when it always has.
	never string
}

// quantitiesOf lists the charts of a run's history: its training loss, then
// what validation measures (a classifier's log-loss and error rate, a
// regressor's RMSE; the MSE, its square, would say nothing more). A run
// without a target gets an empty validation chart that says why.
func quantitiesOf(r *RunRecord) []Quantity {
	return append([]Quantity{LossQuantity(r)}, ValidationQuantities(r)...)
}

// LossQuantity is the model's own training objective.
func LossQuantity(r *RunRecord) Quantity {
	loss := LossTitle(r)
	return Quantity{Title: loss, Legend: loss, Get: func(p eval.Point) float64 { return p.TrainLoss }}
}

// ValidationQuantities are what validation measures of the run.
func ValidationQuantities(r *RunRecord) []Quantity {
	valLoss := func(p eval.Point) float64 { return p.ValLoss }
	valErr := func(p eval.Point) float64 { return p.ValError }
	lossName, errName := ValNames(r.Task())
	switch task := r.Task(); {
	case !task.Supervised():
		return []Quantity{{Title: "validation (none: " + task.String() + " fits all rows)"}}
	case task == datasets.Regression:
		return []Quantity{{Title: "validation RMSE", Legend: errName, Get: valErr}}
	}
	return []Quantity{
		{Title: "validation log-loss", Legend: lossName, Get: valLoss, never: "none: the model gives no probabilities"},
		{Title: "validation error rate", Legend: errName, Get: valErr}}
}

// FoldCharts draws a run's fold histories, one chart per quantity: the
// training loss on the left, the validation quantities stacked beside it
// (or all of them stacked, in a column).
type FoldCharts struct {
	qs     []Quantity
	Charts []widgets.LineChart
}

// NewFoldCharts are the charts of r's training loss and validation curves.
func NewFoldCharts(r *RunRecord, st *themes.Styles) FoldCharts {
	return ChartsOf(quantitiesOf(r), r, st)
}

// ChartsOf gives each quantity of run r a chart.
func ChartsOf(qs []Quantity, r *RunRecord, st *themes.Styles) FoldCharts {
	fc := FoldCharts{qs: qs}
	for _, q := range qs {
		fc.Charts = append(fc.Charts, widgets.NewLineChart(q.Title, UnitOf(r.Spec), st))
	}
	return fc
}

// SetNote adds note (which fold is drawn) to every chart's title.
func (fc *FoldCharts) SetNote(note string) {
	for i, q := range fc.qs {
		fc.Charts[i].SetTitle(q.Title + note)
	}
}

// SetLogY sets every chart's y axis to log10 or linear.
func (fc *FoldCharts) SetLogY(on bool) {
	for i := range fc.Charts {
		fc.Charts[i].SetLogY(on)
	}
}

// LogY reports whether the training loss is drawn on a log axis.
func (fc FoldCharts) LogY() bool { return len(fc.Charts) > 0 && fc.Charts[0].LogY() }

// Update passes a message (the log key) to every chart.
func (fc *FoldCharts) Update(msg tea.Msg) {
	for i := range fc.Charts {
		fc.Charts[i], _ = fc.Charts[i].Update(msg)
	}
}

// SetSize lays the charts out in w x h: the training loss at full height
// on the left and the others stacked on the right, or, in a column, all of
// them stacked.
func (fc *FoldCharts) SetSize(w, h int, column bool) {
	if column {
		Stack(fc.Charts, w, h)
		return
	}
	fc.Charts[0].SetSize(w/2, h)
	Stack(fc.Charts[1:], w-w/2, h)
}

// Stack shares h rows among charts stacked in a column, the last ones
// taking the rows left over.
func Stack(charts []widgets.LineChart, w, h int) {
	n := len(charts)
	for i := range charts {
		rows := h / n
		if i >= n-h%n {
			rows++
		}
		charts[i].SetSize(w, rows)
	}
}

// View draws the charts as setSize laid them out.
func (fc FoldCharts) View(column bool) string {
	if column {
		return JoinColumn(fc.Charts)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, fc.Charts[0].View(), JoinColumn(fc.Charts[1:]))
}

// JoinColumn draws charts one under another.
func JoinColumn(charts []widgets.LineChart) string {
	views := make([]string, len(charts))
	for i := range charts {
		views[i] = charts[i].View()
	}
	return lipgloss.JoinVertical(lipgloss.Left, views...)
}

// Draw puts fold cur (0-based) of the histories on the charts, bright and
// named, and every other fold as a faint ghost under it, so that the spread
// between folds shows at a glance. A series the model never reported (a
// perceptron has no log-loss) is left out of the legend by the chart.
func (fc *FoldCharts) Draw(folds [][]eval.Point, cur int) {
	for i, q := range fc.qs {
		drawQuantity(&fc.Charts[i], q, folds, cur)
	}
}

func drawQuantity(c *widgets.LineChart, q Quantity, folds [][]eval.Point, cur int) {
	if len(folds) == 0 || q.Get == nil {
		c.SetSeries(nil, nil)
		c.SetGhosts(nil)
		return
	}
	cur = min(max(cur, 0), len(folds)-1)
	y, dx := FoldSeries(folds[cur], q.Get)
	c.SetSeries([]string{q.Legend}, [][]float64{y})
	c.SetEmpty("")
	if q.never != "" && !slices.ContainsFunc(folds[cur], func(p eval.Point) bool { return !math.IsNaN(q.Get(p)) }) &&
		slices.ContainsFunc(folds[cur], func(p eval.Point) bool { return !math.IsNaN(p.ValError) }) {
		c.SetEmpty(q.never)
	}
	// At most maxGhosts folds, the nearest to cur: leave-one-out has a
	// fold per row, and a thousand ghosts say nothing and draw slowly.
	var ghosts [][]float64
	lo := max(0, min(cur-MaxGhosts/2, len(folds)-MaxGhosts-1))
	for f := lo; f < min(len(folds), lo+MaxGhosts+1); f++ {
		if f != cur {
			g, _ := FoldSeries(folds[f], q.Get)
			ghosts = append(ghosts, g)
		}
	}
	c.SetGhosts(ghosts)
	if len(folds[cur]) > 0 {
		c.SetXScale(float64(folds[cur][0].Step), dx)
	}
}

// MaxGhosts bounds the other folds drawn under the current one.
const MaxGhosts = 20

// FoldSeries is one quantity of a fold's history, shortened for a chart.
func FoldSeries(h []eval.Point, get func(eval.Point) float64) ([]float64, float64) {
	y := make([]float64, len(h))
	for i, p := range h {
		y[i] = get(p)
	}
	return ReduceSeries(y, chartPoints)
}

// OneStep reports whether every fold was fitted in one step (a closed-form
// model): such a history has no curve to draw.
func OneStep(folds [][]eval.Point) bool {
	if len(folds) == 0 {
		return false
	}
	for _, h := range folds {
		if len(h) != 1 {
			return false
		}
	}
	return true
}

// OneStepCard says what a one-step fit (a closed form, or an iterative
// model that converged at once) gives instead of curves: that it
// took one step, how long, and each fold's training loss and validation
// figures.
func OneStepCard(c *Common, r *RunRecord, folds [][]eval.Point, secs float64, w int) string {
	st := c.Styles
	lossName, errName := ValNames(r.Task())
	what := r.Spec.Title + " fits in one step (closed form): there is no curve to draw"
	if UnitOf(r.Spec) != "fit" { // an iterative model that stopped at once
		what = r.Spec.Title + " stopped after one " + UnitOf(r.Spec) + " (nothing left to improve): there is no curve to draw"
	}
	var lines []string
	for _, l := range strings.Split(Wrap(what, w-4), "\n") {
		lines = append(lines, st.Title.Render(l))
	}
	lines = append(lines, "")
	if !math.IsNaN(secs) {
		lines = append(lines, st.Muted.Render("fitted in ")+st.Value.Render(numfmt.Seconds(secs)), "")
	}
	head := fmt.Sprintf("%-8s %12s", "fold", "train loss")
	if r.Task().Supervised() {
		head += fmt.Sprintf(" %14s %12s", lossName, errName)
	}
	lines = append(lines, st.Header.Render(head))
	for f, h := range folds {
		p := h[0]
		name := fmt.Sprint(f + 1)
		if len(folds) == 1 {
			name = "–"
		}
		row := fmt.Sprintf("%-8s %12s", name, numfmt.Score(p.TrainLoss))
		if r.Task().Supervised() {
			row += fmt.Sprintf(" %14s %12s", numfmt.Score(p.ValLoss), numfmt.Score(p.ValError))
		}
		lines = append(lines, st.Text.Render(row))
		if len(lines) > 40 {
			lines = append(lines, st.Muted.Render(fmt.Sprintf("… %d more folds", len(folds)-f-1)))
			break
		}
	}
	return Panel(st, "history", strings.Join(lines, "\n"), w, min(len(lines)+2, 46), false)
}

// chartPoints bounds what a chart is handed: far more than any terminal has
// columns, few enough that a long run does not make every message copy its
// whole history.
const chartPoints = 2048

// ReduceSeries shortens y to at most n points keeping each bucket's extremes
// (in the order they occur), so spikes survive; dx is the x step of a kept
// point. Buckets of NaN stay NaN (validation is sampled).
func ReduceSeries(y []float64, n int) (out []float64, dx float64) {
	if len(y) <= n || n < 2 {
		return y, 1
	}
	buckets := n / 2
	out = make([]float64, 0, 2*buckets)
	size := float64(len(y)) / float64(buckets)
	for b := range buckets {
		lo, hi := int(float64(b)*size), int(float64(b+1)*size)
		if b == buckets-1 {
			hi = len(y)
		}
		iMin, iMax := -1, -1
		for i := lo; i < hi; i++ {
			v := y[i]
			if math.IsNaN(v) {
				continue
			}
			if iMin < 0 || v < y[iMin] {
				iMin = i
			}
			if iMax < 0 || v > y[iMax] {
				iMax = i
			}
		}
		switch {
		case iMin < 0:
			out = append(out, math.NaN(), math.NaN())
		case iMin <= iMax:
			out = append(out, y[iMin], y[iMax])
		default:
			out = append(out, y[iMax], y[iMin])
		}
	}
	// The last point is the latest value: keep it exactly.
	out[len(out)-1] = y[len(y)-1]
	return out, float64(len(y)) / float64(len(out))
}

// ValNames names the validation series as eval computes them.
func ValNames(t datasets.Task) (loss, err string) {
	if t == datasets.Regression {
		return "val MSE", "val RMSE"
	}
	return "val log-loss", "val error"
}

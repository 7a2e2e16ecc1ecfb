package tui

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

// quantity is one series of a fold's history. Each gets a chart of its
// own: quantities on different scales (a log-loss of 2.3 beside an error
// rate of 0.05) never share an axis, where one would flatten the other.
type quantity struct {
	title  string // the chart's title: the quantity and what it is measured on
	legend string // the series' name in the legend
	get    func(eval.Point) float64
	// never is why a run whose other validation figures arrive has none of
	// this one ("the model gives no probabilities"); "" when it always has.
	never string
}

// quantitiesOf lists the charts of a run's history: its training loss, then
// what validation measures (a classifier's log-loss and error rate, a
// regressor's RMSE; the MSE, its square, would say nothing more). A run
// without a target gets an empty validation chart that says why.
func quantitiesOf(r *runRecord) []quantity {
	return append([]quantity{lossQuantity(r)}, validationQuantities(r)...)
}

// lossQuantity is the model's own training objective.
func lossQuantity(r *runRecord) quantity {
	loss := lossTitle(r)
	return quantity{title: loss, legend: loss, get: func(p eval.Point) float64 { return p.TrainLoss }}
}

// validationQuantities are what validation measures of the run.
func validationQuantities(r *runRecord) []quantity {
	valLoss := func(p eval.Point) float64 { return p.ValLoss }
	valErr := func(p eval.Point) float64 { return p.ValError }
	lossName, errName := valNames(r.Task())
	switch task := r.Task(); {
	case !task.Supervised():
		return []quantity{{title: "validation (none: " + task.String() + " fits all rows)"}}
	case task == datasets.Regression:
		return []quantity{{title: "validation RMSE", legend: errName, get: valErr}}
	}
	return []quantity{
		{title: "validation log-loss", legend: lossName, get: valLoss, never: "none: the model gives no probabilities"},
		{title: "validation error rate", legend: errName, get: valErr}}
}

// foldCharts draws a run's fold histories, one chart per quantity: the
// training loss on the left, the validation quantities stacked beside it
// (or all of them stacked, in a column).
type foldCharts struct {
	qs     []quantity
	charts []widgets.LineChart
}

func newFoldCharts(r *runRecord, st *themes.Styles) foldCharts {
	return chartsOf(quantitiesOf(r), r, st)
}

// chartsOf gives each quantity of run r a chart.
func chartsOf(qs []quantity, r *runRecord, st *themes.Styles) foldCharts {
	fc := foldCharts{qs: qs}
	for _, q := range qs {
		fc.charts = append(fc.charts, widgets.NewLineChart(q.title, unitOf(r.Spec), st))
	}
	return fc
}

// setNote adds note (which fold is drawn) to every chart's title.
func (fc *foldCharts) setNote(note string) {
	for i, q := range fc.qs {
		fc.charts[i].SetTitle(q.title + note)
	}
}

// setLogY sets every chart's y axis to log10 or linear.
func (fc *foldCharts) setLogY(on bool) {
	for i := range fc.charts {
		fc.charts[i].SetLogY(on)
	}
}

// logY reports whether the training loss is drawn on a log axis.
func (fc foldCharts) logY() bool { return len(fc.charts) > 0 && fc.charts[0].LogY() }

// update passes a message (the log key) to every chart.
func (fc *foldCharts) update(msg tea.Msg) {
	for i := range fc.charts {
		fc.charts[i], _ = fc.charts[i].Update(msg)
	}
}

// setSize lays the charts out in w x h: the training loss at full height
// on the left and the others stacked on the right, or, in a column, all of
// them stacked.
func (fc *foldCharts) setSize(w, h int, column bool) {
	if column {
		stack(fc.charts, w, h)
		return
	}
	fc.charts[0].SetSize(w/2, h)
	stack(fc.charts[1:], w-w/2, h)
}

// stack shares h rows among charts stacked in a column, the last ones
// taking the rows left over.
func stack(charts []widgets.LineChart, w, h int) {
	n := len(charts)
	for i := range charts {
		rows := h / n
		if i >= n-h%n {
			rows++
		}
		charts[i].SetSize(w, rows)
	}
}

// view draws the charts as setSize laid them out.
func (fc foldCharts) view(column bool) string {
	if column {
		return joinColumn(fc.charts)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, fc.charts[0].View(), joinColumn(fc.charts[1:]))
}

// joinColumn draws charts one under another.
func joinColumn(charts []widgets.LineChart) string {
	views := make([]string, len(charts))
	for i := range charts {
		views[i] = charts[i].View()
	}
	return lipgloss.JoinVertical(lipgloss.Left, views...)
}

// draw puts fold cur (0-based) of the histories on the charts, bright and
// named, and every other fold as a faint ghost under it, so that the spread
// between folds shows at a glance. A series the model never reported (a
// perceptron has no log-loss) is left out of the legend by the chart.
func (fc *foldCharts) draw(folds [][]eval.Point, cur int) {
	for i, q := range fc.qs {
		drawQuantity(&fc.charts[i], q, folds, cur)
	}
}

func drawQuantity(c *widgets.LineChart, q quantity, folds [][]eval.Point, cur int) {
	if len(folds) == 0 || q.get == nil {
		c.SetSeries(nil, nil)
		c.SetGhosts(nil)
		return
	}
	cur = min(max(cur, 0), len(folds)-1)
	y, dx := foldSeries(folds[cur], q.get)
	c.SetSeries([]string{q.legend}, [][]float64{y})
	c.SetEmpty("")
	if q.never != "" && !slices.ContainsFunc(folds[cur], func(p eval.Point) bool { return !math.IsNaN(q.get(p)) }) &&
		slices.ContainsFunc(folds[cur], func(p eval.Point) bool { return !math.IsNaN(p.ValError) }) {
		c.SetEmpty(q.never)
	}
	// At most maxGhosts folds, the nearest to cur: leave-one-out has a
	// fold per row, and a thousand ghosts say nothing and draw slowly.
	var ghosts [][]float64
	lo := max(0, min(cur-maxGhosts/2, len(folds)-maxGhosts-1))
	for f := lo; f < min(len(folds), lo+maxGhosts+1); f++ {
		if f != cur {
			g, _ := foldSeries(folds[f], q.get)
			ghosts = append(ghosts, g)
		}
	}
	c.SetGhosts(ghosts)
	if len(folds[cur]) > 0 {
		c.SetXScale(float64(folds[cur][0].Step), dx)
	}
}

// maxGhosts bounds the other folds drawn under the current one.
const maxGhosts = 20

// foldSeries is one quantity of a fold's history, shortened for a chart.
func foldSeries(h []eval.Point, get func(eval.Point) float64) ([]float64, float64) {
	y := make([]float64, len(h))
	for i, p := range h {
		y[i] = get(p)
	}
	return reduceSeries(y, chartPoints)
}

// oneStep reports whether every fold was fitted in one step (a closed-form
// model): such a history has no curve to draw.
func oneStep(folds [][]eval.Point) bool {
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

// oneStepCard says what a one-step fit (a closed form, or an iterative
// model that converged at once) gives instead of curves: that it
// took one step, how long, and each fold's training loss and validation
// figures.
func oneStepCard(c *common, r *runRecord, folds [][]eval.Point, secs float64, w int) string {
	st := c.styles
	lossName, errName := valNames(r.Task())
	what := r.Spec.Title + " fits in one step (closed form): there is no curve to draw"
	if unitOf(r.Spec) != "fit" { // an iterative model that stopped at once
		what = r.Spec.Title + " stopped after one " + unitOf(r.Spec) + " (nothing left to improve): there is no curve to draw"
	}
	var lines []string
	for _, l := range strings.Split(wrap(what, w-4), "\n") {
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
	return panel(st, "history", strings.Join(lines, "\n"), w, min(len(lines)+2, 46), false)
}

// chartPoints bounds what a chart is handed: far more than any terminal has
// columns, few enough that a long run does not make every message copy its
// whole history.
const chartPoints = 2048

// reduceSeries shortens y to at most n points keeping each bucket's extremes
// (in the order they occur), so spikes survive; dx is the x step of a kept
// point. Buckets of NaN stay NaN (validation is sampled).
func reduceSeries(y []float64, n int) (out []float64, dx float64) {
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

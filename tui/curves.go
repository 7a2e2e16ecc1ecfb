package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/widgets"
)

// drawFolds puts the loss histories of a run's folds on its two charts:
// fold cur (0-based) drawn bright and named, every other fold as a faint
// ghost under it, so that the spread between folds shows at a glance. The
// validation chart draws what shares one axis: log-loss and error for a
// classifier, the RMSE alone for a regressor (the MSE, its square, is on
// another scale). A series the model never reported (a perceptron has no
// log-loss) is left out of the legend by the chart.
func drawFolds(loss, val *widgets.LineChart, r *runRecord, folds [][]eval.Point, cur int) {
	task := r.Task()
	if len(folds) == 0 {
		loss.SetSeries(nil, nil)
		val.SetSeries(nil, nil)
		return
	}
	cur = min(max(cur, 0), len(folds)-1)
	train := func(p eval.Point) float64 { return p.TrainLoss }
	valLoss := func(p eval.Point) float64 { return p.ValLoss }
	valErr := func(p eval.Point) float64 { return p.ValError }
	lossName, errName := valNames(task)

	tl, dx := foldSeries(folds[cur], train)
	loss.SetSeries([]string{lossTitle(r)}, [][]float64{tl})
	if task == datasets.Regression {
		ve, _ := foldSeries(folds[cur], valErr)
		val.SetSeries([]string{errName}, [][]float64{ve})
	} else {
		vl, _ := foldSeries(folds[cur], valLoss)
		ve, _ := foldSeries(folds[cur], valErr)
		val.SetSeries([]string{lossName, errName}, [][]float64{vl, ve})
	}
	// At most maxGhosts folds, the nearest to cur: leave-one-out has a
	// fold per row, and a thousand ghosts say nothing and draw slowly.
	var gl, gv [][]float64
	lo := max(0, min(cur-maxGhosts/2, len(folds)-maxGhosts-1))
	for f := lo; f < min(len(folds), lo+maxGhosts+1); f++ {
		h := folds[f]
		if f == cur {
			continue
		}
		g, _ := foldSeries(h, train)
		gl = append(gl, g)
		g, _ = foldSeries(h, valErr)
		gv = append(gv, g)
	}
	loss.SetGhosts(gl)
	val.SetGhosts(gv)
	if len(folds[cur]) > 0 {
		loss.SetXScale(float64(folds[cur][0].Step), dx)
		val.SetXScale(float64(folds[cur][0].Step), dx)
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

package tune

import (
	"fmt"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// A search's report as text, shared by the CLI and the lab's files (package
// report): a head line, the table of points (the best marked), a heat table
// (two parameters), and the best setting with the command that trains it in
// full. The chart of the validation curve (one parameter), the Markdown and
// the CSV are package report's.

// Head names the search, the data, the evaluation and the metric, and how
// many points finished.
func Head(res *Result) string {
	what := "sweep"
	switch {
	case res.Axes[0].Param.Name == "train_size":
		what = "learning curve"
	case res.Random:
		what = "random search"
	}
	dir := "higher is better"
	if !res.Metric.Higher {
		dir = "lower is better"
	}
	head := fmt.Sprintf("%s of %s on %s · %s · %s (%s) · %d of %d points",
		what, res.Model, res.Dataset, res.Eval, res.Metric.Label, dir, res.Finished(), len(res.Points))
	if res.Cancelled {
		head += " (interrupted)"
	}
	return head
}

// PointTable is the header and one row per point: its values, training
// and validation mean ± std, and a mark on the best.
func PointTable(res *Result) [][]string {
	var head []string
	for _, a := range res.Axes {
		head = append(head, a.Param.Name)
	}
	lc := res.Axes[0].Param.Name == "train_size"
	if lc {
		head = append(head, "rows")
	}
	rows := [][]string{append(head, "training", "validation", "")}
	for i, p := range res.Points {
		var row []string
		for _, v := range p.Values {
			row = append(row, engine.Format(v))
		}
		if lc {
			row = append(row, fmt.Sprint(p.Rows))
		}
		switch {
		case !p.Done:
			row = append(row, "-", "-", "not reached")
		case p.Err != nil:
			row = append(row, "-", "-", "failed: "+p.Err.Error())
		default:
			mark := ""
			switch {
			case lc:
			case i == res.Best && res.Pick == PickOneSE && i != res.Top:
				mark = "← picked (1se)"
			case i == res.Best && res.Pick == PickOneSE:
				mark = "← best, picked (1se)"
			case i == res.Best:
				mark = "← best"
			case i == res.Top:
				mark = "← best score"
			}
			row = append(row, spread(res, p.TrainMean, p.TrainStd), spread(res, p.ValMean, p.ValStd), mark)
		}
		rows = append(rows, row)
	}
	return rows
}

func spread(res *Result, mean, std float64) string {
	return res.Metric.Format(mean) + " ± " + res.Metric.Format(std)
}

// HeatTable lays a two-parameter grid's validation means out as a table,
// each cell shaded from the worst to the best score; nil otherwise.
func HeatTable(res *Result) [][]string {
	if len(res.Axes) != 2 || res.Random {
		return nil
	}
	a, b := res.Axes[0], res.Axes[1]
	head := []string{""}
	for _, v := range b.Values {
		head = append(head, engine.Format(v))
	}
	rows := [][]string{head}
	for i, va := range a.Values {
		row := []string{engine.Format(va)}
		for j := range b.Values {
			p := res.Points[i*len(b.Values)+j]
			row = append(row, heatCell(res, p, i*len(b.Values)+j))
		}
		rows = append(rows, row)
	}
	return rows
}

func heatCell(res *Result, p Point, i int) string {
	if !p.OK() {
		return "-"
	}
	cell := numfmt.Shade(res.Standing(i)) + " " + res.Metric.Format(p.ValMean)
	if i == res.Best {
		cell += "*"
	}
	return cell
}

// BestLine is the best setting and again, the command that trains it (for
// a learning curve, the scores at the full training part).
func BestLine(res *Result, again string) string {
	best, ok := res.BestPoint()
	if !ok {
		return "no point was scored"
	}
	if res.Axes[0].Param.Name == "train_size" {
		last := res.Points[len(res.Points)-1]
		if !last.OK() {
			return "the full training part was not reached"
		}
		gap := last.TrainMean - last.ValMean
		return fmt.Sprintf("at the full training part: training %s, validation %s (gap %s); to train it: %s",
			res.Metric.Format(last.TrainMean), res.Metric.Format(last.ValMean), res.Metric.Format(gap), again)
	}
	if res.Pick == PickOneSE {
		return fmt.Sprintf("picked: %s (validation %s %s) by the %s; to train it: %s", res.Label(best), res.Metric.Label, spread(res, best.ValMean, best.ValStd), res.Why, again)
	}
	return fmt.Sprintf("best: %s (validation %s %s); to train it: %s", res.Label(best), res.Metric.Label, spread(res, best.ValMean, best.ValStd), again)
}

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
		what, res.Model, res.Dataset, res.Eval+res.Prep, res.Metric.Label, dir, res.Finished(), len(res.Points))
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

// NestedHead says what a nested cross-validation did; "" without one.
func NestedHead(res *Result) string {
	n := res.Nested
	if n == nil {
		return ""
	}
	inner := res.Eval
	for _, f := range n.Folds {
		if f.Search != nil {
			inner = f.Search.Eval
			break
		}
	}
	head := fmt.Sprintf("nested cross-validation: %s outside; inside each outer training part alone, the whole search (%s, %s)", n.Eval, inner, pickName(res))
	if n.Cancelled {
		head += " (interrupted)"
	}
	return head
}

func pickName(res *Result) string {
	if res.Pick == PickOneSE {
		return "picked by the one-standard-error rule"
	}
	return "the best picked"
}

// NestedTable is a row per outer fold: its rows, the setting its search
// picked with the search's score of it (inner, optimistic), and the
// pick's score on the outer held-out rows; nil without a nested
// cross-validation.
func NestedTable(res *Result) [][]string {
	n := res.Nested
	if n == nil {
		return nil
	}
	rows := [][]string{{"outer fold", "train", "test", "picked", "inner " + res.Metric.Label, "outer " + res.Metric.Label}}
	for f, fold := range n.Folds {
		row := []string{fmt.Sprint(f + 1), fmt.Sprint(fold.Train), fmt.Sprint(fold.Test)}
		pick, ok := fold.Pick()
		switch {
		case !fold.Done:
			row = append(row, "-", "-", "not reached")
		case fold.Err != nil:
			row = append(row, "-", "-", "failed: "+fold.Err.Error())
		case ok:
			row = append(row, fold.Search.Label(pick), spread(res, pick.ValMean, pick.ValStd), res.Metric.Format(fold.Score))
		}
		rows = append(rows, row)
	}
	return rows
}

// NestedLine is the nested score beside the search's own best, or "".
func NestedLine(res *Result) string {
	n := res.Nested
	if n == nil {
		return ""
	}
	if n.Scored() == 0 {
		return "nested score: no outer fold was scored"
	}
	line := fmt.Sprintf("nested score: %s %s over %d outer folds (the tuning procedure scored on rows it never saw)",
		res.Metric.Label, spread(res, n.Mean, n.Std), n.Scored())
	if best, ok := res.BestPoint(); ok {
		line += fmt.Sprintf("; the search's own score of its pick, %s at %s, is optimistic (picked on the folds that score it)", res.Label(best), spread(res, best.ValMean, best.ValStd))
	}
	return line
}

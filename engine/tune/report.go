package tune

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/guptarohit/asciigraph"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// A search's report, shared by the CLI (as text) and the lab (as files):
// a head line, the table of points (the best marked), a text chart of the
// validation curve (one parameter) or a heat table (two), and the best
// setting with the command that trains it in full.

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
			if i == res.Best && !lc {
				mark = "← best"
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

// Chart draws training and validation means against the one swept
// parameter, in the order of its values; "" for two parameters or fewer
// than two scored points.
func Chart(res *Result) string {
	if len(res.Axes) != 1 {
		return ""
	}
	pts := scored(res)
	if len(pts) < 2 {
		return ""
	}
	train, val := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		train[i], val[i] = p.TrainMean, p.ValMean
	}
	name := res.Axes[0].Param.Name
	scale := ""
	if res.Axes[0].Log() {
		scale = ", log-spaced"
	}
	caption := fmt.Sprintf("%s against %s, %s..%s%s: · training, ─ validation", res.Metric.Label, name,
		engine.Format(pts[0].Values[0]), engine.Format(pts[len(pts)-1].Values[0]), scale)
	return asciigraph.PlotMany([][]float64{train, val}, asciigraph.Height(10), asciigraph.Width(min(max(len(pts)*2, 30), 70)),
		asciigraph.Precision(3), asciigraph.Caption(caption),
		asciigraph.SeriesChars(asciigraph.CreateCharSet("·"), asciigraph.DefaultCharSet))
}

// scored are the points with scores, in their order along the axis.
func scored(res *Result) []Point {
	var out []Point
	for _, p := range res.Points {
		if p.OK() {
			out = append(out, p)
		}
	}
	return out
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
	return fmt.Sprintf("best: %s (validation %s %s); to train it: %s", res.Label(best), res.Metric.Label, spread(res, best.ValMean, best.ValStd), again)
}

// WriteMarkdown is the report as Markdown: tables as tables, the chart
// in a code block.
func WriteMarkdown(out io.Writer, res *Result, again string) error {
	fmt.Fprintf(out, "# %s\n\n", Head(res))
	writePipes(out, PointTable(res))
	if chart := Chart(res); chart != "" {
		fmt.Fprintf(out, "\n```\n%s\n```\n", chart)
	}
	if heat := HeatTable(res); heat != nil {
		fmt.Fprintf(out, "\nValidation %s, %s down, %s across (* best):\n\n", res.Metric.Label, res.Axes[0].Param.Name, res.Axes[1].Param.Name)
		writePipes(out, heat)
	}
	_, err := fmt.Fprintf(out, "\n%s\n", strings.Replace(BestLine(res, again), "to train it: "+again, "to train it: `"+again+"`", 1))
	return err
}

func writePipes(out io.Writer, rows [][]string) {
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = strings.ReplaceAll(c, "|", `\|`)
		}
		fmt.Fprintf(out, "| %s |\n", strings.Join(cells, " | "))
		if i == 0 {
			fmt.Fprintf(out, "|%s\n", strings.Repeat(" --- |", len(r)))
		}
	}
}

// WriteCSV writes one line per point and fold: the values, the fold,
// the training and the validation score.
func WriteCSV(out io.Writer, res *Result) error {
	w := csv.NewWriter(out)
	var head []string
	for _, a := range res.Axes {
		head = append(head, a.Param.Name)
	}
	_ = w.Write(append(head, "train_rows", "fold", "train_"+res.Metric.Name, "val_"+res.Metric.Name))
	for _, p := range res.Points {
		var vals []string
		for _, v := range p.Values {
			vals = append(vals, engine.Format(v))
		}
		for f := range p.Val {
			_ = w.Write(append(vals[:len(vals):len(vals)], fmt.Sprint(p.Rows), fmt.Sprint(f+1),
				numfmt.Param(p.Train[f]), numfmt.Param(p.Val[f])))
		}
	}
	w.Flush()
	return w.Error()
}

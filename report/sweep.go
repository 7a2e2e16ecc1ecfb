package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/guptarohit/asciigraph"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/numfmt"
)

// SweepChart draws training and validation means against the one swept
// parameter, in the order of its values; "" for two parameters or fewer
// than two scored points.
func SweepChart(res *tune.Result) string {
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
func scored(res *tune.Result) []tune.Point {
	var out []tune.Point
	for _, p := range res.Points {
		if p.OK() {
			out = append(out, p)
		}
	}
	return out
}

// SweepMarkdown is a search's report (package tune) as Markdown: tables as tables, the chart
// in a code block.
func SweepMarkdown(out io.Writer, res *tune.Result, again string) error {
	fmt.Fprintf(out, "# %s\n\n", tune.Head(res))
	writePipes(out, tune.PointTable(res))
	if chart := SweepChart(res); chart != "" {
		fmt.Fprintf(out, "\n```\n%s\n```\n", chart)
	}
	if heat := tune.HeatTable(res); heat != nil {
		fmt.Fprintf(out, "\nValidation %s, %s down, %s across (* best):\n\n", res.Metric.Label, res.Axes[0].Param.Name, res.Axes[1].Param.Name)
		writePipes(out, heat)
	}
	_, err := fmt.Fprintf(out, "\n%s\n", strings.Replace(tune.BestLine(res, again), "to train it: "+again, "to train it: `"+again+"`", 1))
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

// SweepCSV writes one line per point and fold: the values, the fold,
// the training and the validation score.
func SweepCSV(out io.Writer, res *tune.Result) error {
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

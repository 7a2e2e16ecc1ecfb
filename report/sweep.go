package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/guptarohit/asciigraph"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/numfmt"
)

// SweepChart draws what a search's points show: for one numeric parameter
// the training and validation means against its values, in their order;
// for one parameter of choices or names (kernel=linear,rbf;
// gamma=scale,auto,0.01..10:7) a bar per value, labelled by it, and the
// curve of its numbers, if it has two or more; for a random search or
// three parameters and more, a strip per parameter (Strips); "" for a grid
// of two (a heat table shows it) or fewer than two scored points.
func SweepChart(res *tune.Result) string {
	if len(res.Axes) != 1 {
		if res.Random || len(res.Axes) > 2 {
			return Strips(res)
		}
		return ""
	}
	pts := scored(res)
	if len(pts) < 2 {
		return ""
	}
	a := res.Axes[0]
	if a.Numeric() {
		return curve(res, pts, "")
	}
	chart := bars(res)
	var numbers []tune.Point
	for _, p := range pts {
		if _, ok := a.Number(p.Values[0]); ok {
			numbers = append(numbers, p)
		}
	}
	if len(numbers) >= 2 && !res.Random {
		chart += "\n\n" + curve(res, numbers, "'s numbers")
	}
	return chart
}

// curve plots the training and validation means of pts along the one axis.
func curve(res *tune.Result, pts []tune.Point, of string) string {
	train, val := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		train[i], val[i] = p.TrainMean, p.ValMean
	}
	name := res.Axes[0].Param.Name
	scale := ""
	if res.Axes[0].Log() {
		scale = ", log-spaced"
	}
	caption := fmt.Sprintf("%s against %s%s, %s..%s%s: · training, ─ validation", res.Metric.Label, name, of,
		engine.Format(pts[0].Values[0]), engine.Format(pts[len(pts)-1].Values[0]), scale)
	return asciigraph.PlotMany([][]float64{train, val}, asciigraph.Height(10), asciigraph.Width(min(max(len(pts)*2, 30), 70)),
		asciigraph.Precision(3), asciigraph.Caption(caption),
		asciigraph.SeriesChars(asciigraph.CreateCharSet("·"), asciigraph.DefaultCharSet))
}

// barWidth is the width of the longest bar of a categorical chart.
const barWidth = 30

// bars is a categorical axis's chart: a line per value, labelled by it, its
// bar as long as its standing (the worst scored value one cell, the best
// barWidth), its validation mean; the best marked.
func bars(res *tune.Result) string {
	a := res.Axes[0]
	lw := len(a.Param.Name)
	for _, p := range res.Points {
		lw = max(lw, len([]rune(engine.Format(p.Values[0]))))
	}
	lines := []string{fmt.Sprintf("validation %s by %s (bar: worst to best)", res.Metric.Label, a.Param.Name)}
	for i, p := range res.Points {
		label := engine.Format(p.Values[0])
		pad := strings.Repeat(" ", lw-len([]rune(label)))
		if !p.OK() {
			lines = append(lines, label+pad+"  -")
			continue
		}
		n := 1 + int(math.Round(res.Standing(i)*(barWidth-1)))
		line := fmt.Sprintf("%s%s  %s%s  %s", label, pad, strings.Repeat("█", n), strings.Repeat(" ", barWidth-n), res.Metric.Format(p.ValMean))
		if i == res.Best {
			line += "  ← best"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// stripWidth is the width of a strip of Strips.
const stripWidth = 40

// Strips draws each swept parameter as a strip along its values (its
// range on its scale, or its values in order), each point placed on it and
// shaded by its validation score (░ worst to █ best; where points share a
// cell, the best of them): where along each parameter the good settings
// lie, for a random search or three parameters and more, which a curve or
// a heat table cannot show. "" before two points are scored.
func Strips(res *tune.Result) string {
	if len(scored(res)) < 2 {
		return ""
	}
	nw := 0
	for _, a := range res.Axes {
		nw = max(nw, len(a.Param.Name))
	}
	lines := []string{fmt.Sprintf("validation %s of each point along each parameter (shade: worst ░ to best █)", res.Metric.Label)}
	fw := 0
	for k, a := range res.Axes {
		first, _ := axisEnds(a, res, k)
		fw = max(fw, len([]rune(first)))
	}
	for k, a := range res.Axes {
		lo, hi := math.Inf(1), math.Inf(-1)
		at := func(v any) float64 {
			x := a.Position(v)
			if a.Numeric() && a.Log() && x > 0 {
				return math.Log(x)
			}
			return x
		}
		for _, p := range res.Points {
			if x := at(p.Values[k]); !math.IsNaN(x) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
		cells := make([]float64, stripWidth)
		for i := range cells {
			cells[i] = math.NaN()
		}
		for i, p := range res.Points {
			x := at(p.Values[k])
			if !p.OK() || math.IsNaN(x) {
				continue
			}
			c := 0
			if hi > lo {
				c = int(math.Round((x - lo) / (hi - lo) * (stripWidth - 1)))
			}
			if st := res.Standing(i); math.IsNaN(cells[c]) || st > cells[c] {
				cells[c] = st
			}
		}
		var b strings.Builder
		for _, st := range cells {
			if math.IsNaN(st) {
				b.WriteString("·")
				continue
			}
			b.WriteString(numfmt.Shade(st))
		}
		first, last := axisEnds(a, res, k)
		pad := strings.Repeat(" ", fw-len([]rune(first)))
		lines = append(lines, fmt.Sprintf("%-*s  %s%s ▕%s▏ %s", nw, a.Param.Name, pad, first, b.String(), last))
	}
	return strings.Join(lines, "\n")
}

// axisEnds are the values at either end of axis k's strip.
func axisEnds(a tune.Axis, res *tune.Result, k int) (string, string) {
	var first, last any
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range res.Points {
		x := a.Position(p.Values[k])
		if math.IsNaN(x) {
			continue
		}
		if x < lo {
			lo, first = x, p.Values[k]
		}
		if x > hi {
			hi, last = x, p.Values[k]
		}
	}
	return engine.Format(first), engine.Format(last)
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
	if head := tune.NestedHead(res); head != "" {
		fmt.Fprintf(out, "\n## %s\n\n", head)
		writePipes(out, tune.NestedTable(res))
		_, err = fmt.Fprintf(out, "\n%s\n", tune.NestedLine(res))
	}
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

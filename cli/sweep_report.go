package cli

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guptarohit/asciigraph"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/widgets"
)

// A sweep's report: a head line, the table of points (the best marked),
// then a text chart of the validation curve (one parameter) or a heat
// table (two), the best setting and the command that trains it in full.
// --export writes the same as Markdown, or every fold's scores as CSV.

func writeTune(out io.Writer, res *tune.Result, again string) error {
	fmt.Fprintln(out, tuneHead(res))
	fmt.Fprintln(out)
	writeAligned(out, pointTable(res))
	if chart := tuneChart(res); chart != "" {
		fmt.Fprintln(out)
		fmt.Fprintln(out, chart)
	}
	if heat := heatTable(res); heat != nil {
		fmt.Fprintf(out, "\nvalidation %s, %s down, %s across (shade: worst ░ to best █)\n", res.Metric.Label, res.Axes[0].Param.Name, res.Axes[1].Param.Name)
		writeAligned(out, heat)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, bestLine(res, again))
	return nil
}

func tuneHead(res *tune.Result) string {
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

// pointTable is the header and one row per point: its values, training
// and validation mean ± std, and a mark on the best.
func pointTable(res *tune.Result) [][]string {
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

func spread(res *tune.Result, mean, std float64) string {
	return res.Metric.Format(mean) + " ± " + res.Metric.Format(std)
}

// writeAligned prints rows as columns, left-aligned, two spaces apart.
func writeAligned(out io.Writer, rows [][]string) {
	width := map[int]int{}
	for _, r := range rows {
		for j, c := range r {
			width[j] = max(width[j], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for j, c := range r {
			if j > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c + strings.Repeat(" ", width[j]-len([]rune(c))))
		}
		fmt.Fprintln(out, strings.TrimRight(b.String(), " "))
	}
}

// tuneChart draws training and validation means against the one swept
// parameter, in the order of its values; "" for two parameters or fewer
// than two scored points.
func tuneChart(res *tune.Result) string {
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

// scored are the points with scores, sorted by their place on the axis (a
// random search draws out of order).
func scored(res *tune.Result) []tune.Point {
	var out []tune.Point
	for _, p := range res.Points {
		if p.OK() {
			out = append(out, p)
		}
	}
	a := res.Axes[0]
	slices.SortStableFunc(out, func(p, q tune.Point) int { return cmp.Compare(a.Position(p.Values[0]), a.Position(q.Values[0])) })
	return out
}

// heatTable lays a two-parameter grid's validation means out as a table,
// each cell shaded from the worst to the best score; nil otherwise.
func heatTable(res *tune.Result) [][]string {
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

func heatCell(res *tune.Result, p tune.Point, i int) string {
	if !p.OK() {
		return "-"
	}
	cell := widgets.Shade(res.Standing(i)) + " " + res.Metric.Format(p.ValMean)
	if i == res.Best {
		cell += "*"
	}
	return cell
}

func bestLine(res *tune.Result, again string) string {
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

// sweepJSON is a search as --json writes it.
type sweepJSON struct {
	Model     string            `json:"model"`
	Dataset   string            `json:"dataset"`
	Eval      string            `json:"eval"`
	Metric    string            `json:"metric"`
	Higher    bool              `json:"higher_is_better"`
	Random    bool              `json:"random,omitempty"`
	Axes      []axisJSON        `json:"axes"`
	Points    []pointJSON       `json:"points"`
	Best      map[string]any    `json:"best,omitempty"`
	BestIndex *int              `json:"best_index,omitempty"`
	Command   string            `json:"command,omitempty"`
	Cancelled bool              `json:"cancelled,omitempty"`
	Fixed     map[string]string `json:"fixed"`
}

type axisJSON struct {
	Name   string `json:"name"`
	Range  string `json:"range"`
	Log    bool   `json:"log,omitempty"`
	Values []any  `json:"values"`
}

type pointJSON struct {
	Values    map[string]any `json:"values"`
	Rows      int            `json:"train_rows"`
	Done      bool           `json:"done"`
	Error     string         `json:"error,omitempty"`
	TrainMean numfmt.Float   `json:"train_mean"`
	TrainStd  numfmt.Float   `json:"train_std"`
	ValMean   numfmt.Float   `json:"val_mean"`
	ValStd    numfmt.Float   `json:"val_std"`
	Train     []numfmt.Float `json:"train_folds"`
	Val       []numfmt.Float `json:"val_folds"`
}

func tuneJSON(res *tune.Result, again string) sweepJSON {
	j := sweepJSON{Model: res.Model, Dataset: res.Dataset, Eval: res.Eval, Metric: res.Metric.Name, Higher: res.Metric.Higher,
		Random: res.Random, Cancelled: res.Cancelled, Command: again, Fixed: fixedSettings(res)}
	for _, a := range res.Axes {
		j.Axes = append(j.Axes, axisJSON{Name: a.Param.Name, Range: a.Text, Log: a.Log(), Values: a.Values})
	}
	for _, p := range res.Points {
		pj := pointJSON{Values: pointValues(res, p), Rows: p.Rows, Done: p.Done,
			TrainMean: nan(p.TrainMean, p.OK()), TrainStd: nan(p.TrainStd, p.OK()), ValMean: nan(p.ValMean, p.OK()), ValStd: nan(p.ValStd, p.OK()),
			Train: numfmt.Floats(p.Train), Val: numfmt.Floats(p.Val)}
		if p.Err != nil {
			pj.Error = p.Err.Error()
		}
		j.Points = append(j.Points, pj)
	}
	if best, ok := res.BestPoint(); ok {
		j.Best, j.BestIndex = pointValues(res, best), &res.Best
	}
	return j
}

// nan is x, or NaN (JSON null) for a point without scores.
func nan(x float64, ok bool) numfmt.Float {
	if !ok {
		return numfmt.Float(math.NaN())
	}
	return numfmt.Float(x)
}

func pointValues(res *tune.Result, p tune.Point) map[string]any {
	m := map[string]any{}
	for a, v := range p.Values {
		m[res.Axes[a].Param.Name] = v
	}
	return m
}

// fixedSettings are the parameters not swept, as --param takes them.
func fixedSettings(res *tune.Result) map[string]string {
	out := map[string]string{}
	for k, v := range res.Base {
		out[k] = engine.Format(v)
	}
	for _, a := range res.Axes {
		delete(out, a.Param.Name)
	}
	return out
}

// exportFormat is "md" or "csv" as the file's name says, or "".
func exportFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown":
		return "md"
	case ".csv":
		return "csv"
	}
	return ""
}

func exportTune(path string, res *tune.Result, again string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if exportFormat(path) == "csv" {
		err = writeTuneCSV(f, res)
	} else {
		err = writeTuneMarkdown(f, res, again)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeTuneMarkdown is the report as Markdown: tables as tables, the chart
// in a code block.
func writeTuneMarkdown(out io.Writer, res *tune.Result, again string) error {
	fmt.Fprintf(out, "# %s\n\n", tuneHead(res))
	writePipes(out, pointTable(res))
	if chart := tuneChart(res); chart != "" {
		fmt.Fprintf(out, "\n```\n%s\n```\n", chart)
	}
	if heat := heatTable(res); heat != nil {
		fmt.Fprintf(out, "\nValidation %s, %s down, %s across (* best):\n\n", res.Metric.Label, res.Axes[0].Param.Name, res.Axes[1].Param.Name)
		writePipes(out, heat)
	}
	_, err := fmt.Fprintf(out, "\n%s\n", strings.Replace(bestLine(res, again), "to train it: "+again, "to train it: `"+again+"`", 1))
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

// writeTuneCSV writes one line per point and fold: the values, the fold,
// the training and the validation score.
func writeTuneCSV(out io.Writer, res *tune.Result) error {
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

package cli

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/guptarohit/asciigraph"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
)

// num formats a metric in the report's tables: four decimals, "n/a" when
// it does not exist.
func num(x float64) string { return numfmt.Fixed(x, 4) }

// writeReport prints the readable report of a training run.
func writeReport(out io.Writer, d *datasets.Dataset, spec *engine.Spec, r *eval.Result) error {
	title := spec.Title
	if desc := spec.Describe(r.Params); desc != "" {
		title += " (" + desc + ")"
	}
	fmt.Fprintf(out, "%s · %s · %s · seed %d\n", d.Name, title, r.Eval, r.Seed)
	shape := fmt.Sprintf("%d rows · %d features · %s", r.Rows, r.Features, r.Task)
	if d.Task == datasets.Classification {
		shape += fmt.Sprintf(" (%d classes)", len(d.Classes))
	}
	fmt.Fprintln(out, shape)

	fmt.Fprintln(out)
	header := []string{"metric", "value"}
	if len(r.Std) > 0 {
		header = append(header, "± std")
	}
	rows := [][]string{append(header, "baseline")}
	for _, k := range metrics.Ordered(d.Task, r.Metrics) {
		row := []string{k, num(r.Metrics[k])}
		if len(r.Std) > 0 {
			row = append(row, num(r.Std[k]))
		}
		b, ok := r.Baseline[k]
		if !ok {
			b = math.NaN()
		}
		rows = append(rows, append(row, num(b)))
	}
	writeTable(out, rows)
	if len(r.Folds) > 0 && len(r.Folds) <= 20 {
		writeFolds(out, d.Task, r.Folds)
	}
	if r.Confusion != nil {
		writeConfusion(out, r.Confusion, r.Classes)
	}
	if r.Coefs != nil {
		writeCoefficients(out, r.Coefs)
	}
	writeHistory(out, spec.Unit, r.History)
	fmt.Fprintf(out, "\nfit time %.3f s\n", r.FitSecs)
	return nil
}

func writeFolds(out io.Writer, task datasets.Task, folds []map[string]float64) {
	keys := metrics.Ordered(task, folds[0])
	if len(keys) > 4 {
		keys = keys[:4]
	}
	fmt.Fprintln(out, "\nper fold:")
	rows := [][]string{append([]string{"fold"}, keys...)}
	for i, f := range folds {
		row := []string{fmt.Sprint(i + 1)}
		for _, k := range keys {
			row = append(row, num(f[k]))
		}
		rows = append(rows, row)
	}
	writeTable(out, rows)
}

func writeConfusion(out io.Writer, c *metrics.Confusion, per []metrics.ClassReport) {
	fmt.Fprintln(out, "\nconfusion matrix (rows: actual, columns: predicted):")
	rows := [][]string{{"actual \\ predicted"}}
	for _, l := range c.Labels {
		rows[0] = append(rows[0], trunc(l, 12))
	}
	for i, counts := range c.Matrix {
		row := []string{trunc(c.Labels[i], 16)}
		for _, n := range counts {
			row = append(row, fmt.Sprint(n))
		}
		rows = append(rows, row)
	}
	writeTable(out, rows)
	if len(per) == 0 {
		return
	}
	fmt.Fprintln(out, "\nper class:")
	rows = [][]string{{"class", "precision", "recall", "f1", "support"}}
	for _, p := range per {
		rows = append(rows, []string{trunc(p.Class, 16), fmt.Sprintf("%.3f", p.Precision),
			fmt.Sprintf("%.3f", p.Recall), fmt.Sprintf("%.3f", p.F1), fmt.Sprint(p.Support)})
	}
	writeTable(out, rows)
}

func writeCoefficients(out io.Writer, c *engine.Coefficients) {
	if c.Weights == nil {
		return
	}
	rows, cols := c.Weights.Dims()
	fmt.Fprintln(out, "\ncoefficients (first fold, on the prepared features):")
	table := [][]string{{"feature"}}
	for i := 0; i < rows; i++ {
		name := "y"
		if i < len(c.Outputs) {
			name = c.Outputs[i]
		}
		table[0] = append(table[0], trunc(name, 12))
	}
	if len(c.Intercept) == rows {
		row := []string{"(intercept)"}
		for _, b := range c.Intercept {
			row = append(row, fmt.Sprintf("%.4g", b))
		}
		table = append(table, row)
	}
	for j := 0; j < cols && j < 40; j++ {
		name := fmt.Sprintf("x%d", j)
		if j < len(c.Features) {
			name = c.Features[j]
		}
		row := []string{trunc(name, 24)}
		for i := 0; i < rows; i++ {
			row = append(row, fmt.Sprintf("%.4g", c.Weights.At(i, j)))
		}
		table = append(table, row)
	}
	writeTable(out, table)
	if cols > 40 {
		fmt.Fprintf(out, "  ... %d more features (--json has them all)\n", cols-40)
	}
}

// writeTable prints rows as aligned columns: the first left-aligned, the
// others (numbers) right-aligned, two spaces apart, indented by two.
func writeTable(out io.Writer, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for j, cell := range row {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for j, cell := range row {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(cell))
			if j == 0 {
				b.WriteString("  " + cell + pad)
			} else {
				b.WriteString("  " + pad + cell)
			}
		}
		fmt.Fprintln(out, b.String())
	}
}

// writeHistory draws the training loss (and validation loss where known) as
// a small chart. A single step is reported as numbers, not a chart.
func writeHistory(out io.Writer, unit string, h []eval.Point) {
	if len(h) == 0 {
		return
	}
	if unit == "" {
		unit = "step"
	}
	last := h[len(h)-1]
	fmt.Fprintf(out, "\nhistory: %d %s(s); final training loss %s, validation loss %s, validation error %s\n",
		len(h), unit, num(last.TrainLoss), num(last.ValLoss), num(last.ValError))
	if len(h) < 2 {
		return
	}
	train := finite(h, func(p eval.Point) float64 { return p.TrainLoss })
	val := finite(h, func(p eval.Point) float64 { return p.ValLoss })
	series := [][]float64{train}
	legend := []string{"training loss"}
	if len(val) >= 2 {
		series = append(series, val)
		legend = append(legend, "validation loss")
	}
	if len(train) < 2 {
		return
	}
	fmt.Fprintln(out, asciigraph.PlotMany(series, asciigraph.Height(8), asciigraph.Width(60),
		asciigraph.Precision(3), asciigraph.Caption(fmt.Sprintf("%s per %s (1..%d)", strings.Join(legend, " and "), unit, last.Step))))
}

// finite picks the finite values of one series, in step order.
func finite(h []eval.Point, get func(eval.Point) float64) []float64 {
	var out []float64
	for _, p := range h {
		if v := get(p); !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	return out
}

package cli

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/guptarohit/asciigraph"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// metricOrder lists the metrics a report shows first, by task.
var metricOrder = map[datasets.Task][]string{
	datasets.Classification: {"accuracy", "error", "macro_f1", "weighted_f1", "macro_precision", "macro_recall", "kappa", "mcc", "log_loss", "auc"},
	datasets.Regression:     {"r2", "rmse", "mae", "mse"},
	datasets.Clustering:     {"ari", "silhouette"},
}

// orderedKeys lists m's keys: the task's usual order first, then the rest sorted.
func orderedKeys(task datasets.Task, m map[string]float64) []string {
	var keys []string
	seen := map[string]bool{}
	for _, k := range metricOrder[task] {
		if _, ok := m[k]; ok {
			keys = append(keys, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(keys, rest...)
}

func num(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.4f", x)
}

// writeReport prints the readable report of a training run.
func writeReport(out io.Writer, d *datasets.Dataset, spec *engine.Spec, r *eval.Result) error {
	fmt.Fprintf(out, "%s · %s (%s) · %s · seed %d\n", d.Name, spec.Title, spec.Describe(r.Params), r.Eval, r.Seed)
	shape := fmt.Sprintf("%d rows · %d features · %s", r.Rows, r.Features, r.Task)
	if d.Task == datasets.Classification {
		shape += fmt.Sprintf(" (%d classes)", len(d.Classes))
	}
	fmt.Fprintln(out, shape)

	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 3, ' ', tabwriter.AlignRight)
	header := "metric\tvalue\t"
	if len(r.Std) > 0 {
		header += "± std\t"
	}
	fmt.Fprintln(tw, header+"baseline\t")
	for _, k := range orderedKeys(d.Task, r.Metrics) {
		line := k + "\t" + num(r.Metrics[k]) + "\t"
		if len(r.Std) > 0 {
			line += num(r.Std[k]) + "\t"
		}
		b, ok := r.Baseline[k]
		if !ok {
			b = math.NaN()
		}
		fmt.Fprintln(tw, line+num(b)+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
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
	keys := orderedKeys(task, folds[0])
	if len(keys) > 4 {
		keys = keys[:4]
	}
	fmt.Fprintln(out, "\nper fold:")
	tw := tabwriter.NewWriter(out, 0, 0, 3, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "fold\t"+strings.Join(keys, "\t")+"\t")
	for i, f := range folds {
		line := fmt.Sprint(i + 1)
		for _, k := range keys {
			line += "\t" + num(f[k])
		}
		fmt.Fprintln(tw, line+"\t")
	}
	tw.Flush()
}

func writeConfusion(out io.Writer, c *metrics.Confusion, per []metrics.ClassReport) {
	fmt.Fprintln(out, "\nconfusion matrix (rows: actual, columns: predicted):")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := "\t"
	for _, l := range c.Labels {
		line += trunc(l, 12) + "\t"
	}
	fmt.Fprintln(tw, line)
	for i, row := range c.Matrix {
		line := trunc(c.Labels[i], 16) + "\t"
		for _, n := range row {
			line += fmt.Sprint(n) + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	if len(per) == 0 {
		return
	}
	fmt.Fprintln(out, "\nper class:")
	tw = tabwriter.NewWriter(out, 0, 0, 3, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "class\tprecision\trecall\tf1\tsupport\t")
	for _, p := range per {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%d\t\n", trunc(p.Class, 16), p.Precision, p.Recall, p.F1, p.Support)
	}
	tw.Flush()
}

func writeCoefficients(out io.Writer, c *engine.Coefficients) {
	if c.Weights == nil {
		return
	}
	rows, cols := c.Weights.Dims()
	fmt.Fprintln(out, "\ncoefficients (first fold, on the prepared features):")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := "feature\t"
	for i := 0; i < rows; i++ {
		name := "y"
		if i < len(c.Outputs) {
			name = c.Outputs[i]
		}
		line += trunc(name, 12) + "\t"
	}
	fmt.Fprintln(tw, line)
	if len(c.Intercept) == rows {
		line = "(intercept)\t"
		for _, b := range c.Intercept {
			line += fmt.Sprintf("%.4g\t", b)
		}
		fmt.Fprintln(tw, line)
	}
	for j := 0; j < cols && j < 40; j++ {
		name := fmt.Sprintf("x%d", j)
		if j < len(c.Features) {
			name = c.Features[j]
		}
		line = trunc(name, 24) + "\t"
		for i := 0; i < rows; i++ {
			line += fmt.Sprintf("%.4g\t", c.Weights.At(i, j))
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	if cols > 40 {
		fmt.Fprintf(out, "  ... %d more features (--json has them all)\n", cols-40)
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

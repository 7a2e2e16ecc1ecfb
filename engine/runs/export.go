package runs

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/guptarohit/asciigraph"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
)

// LossChart draws the run's training loss per step, with the validation
// figure on the same scale where known (a classifier's error beside an
// error rate, else the validation loss), as a text chart with its caption;
// "" when there are fewer than two finite steps. The text report and the
// Markdown export draw the same chart.
func LossChart(r *Record, width, height int) string {
	h := r.Result.History
	if len(h) < 2 || r.Spec == nil {
		return ""
	}
	unit := r.Spec.Unit
	if unit == "" {
		unit = "step"
	}
	valName, valOf := "validation loss", func(p eval.Point) float64 { return p.ValLoss }
	if r.Spec.ErrorLoss && r.Task() == datasets.Classification {
		valName, valOf = "validation error", func(p eval.Point) float64 { return p.ValError }
	}
	train := finite(h, func(p eval.Point) float64 { return p.TrainLoss })
	if len(train) < 2 {
		return ""
	}
	series, legend := [][]float64{train}, []string{r.Spec.LossName(r.Task())}
	if val := finite(h, valOf); len(val) >= 2 {
		series, legend = append(series, val), append(legend, valName)
	}
	return asciigraph.PlotMany(series, asciigraph.Height(height), asciigraph.Width(width), asciigraph.Precision(3),
		asciigraph.Caption(fmt.Sprintf("%s per %s (1..%d)", strings.Join(legend, " and "), unit, h[len(h)-1].Step)))
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

// WriteMarkdown writes the run as a Markdown report: what was run, its
// metrics beside the baseline, the per-fold scores, the confusion matrix
// and the loss history as a text chart.
func WriteMarkdown(w io.Writer, e *Entry) error {
	r := e.Run
	mw := &mdWriter{w: w}
	mw.printf("# %s\n\n", mdEscape(e.Title()))
	mw.printf("| | |\n|---|---|\n")
	mw.printf("| data | %s |\n", mdEscape(r.Data.Source))
	if r.Data.Hash != "" {
		mw.printf("| data hash | `%s` |\n", r.Data.Hash)
	}
	mw.printf("| model | %s |\n", mdEscape(r.Model))
	mw.printf("| parameters | %s |\n", mdEscape(paramText(r)))
	if r.Result != nil {
		mw.printf("| evaluation | %s |\n", mdEscape(r.Result.Eval))
	}
	mw.printf("| seed | %d |\n| status | %s |\n| started | %s |\n| duration | %s |\n| tealab | %s |\n\n",
		r.Options.Seed, r.Status, e.Time.Format("2006-01-02 15:04:05 MST"), numfmt.Seconds(e.Seconds), e.Version)
	mw.printf("Repeat it with `%s`.\n", r.Command())
	if res := r.Result; res != nil {
		task := r.Task()
		mw.printf("\n## Metrics\n\n| metric | value | ± std | baseline |\n|---|--:|--:|--:|\n")
		for _, k := range metrics.Ordered(task, res.Metrics) {
			mw.printf("| %s | %s | %s | %s |\n", metrics.Lookup(k).Label, mdNum(res.Metrics, k), mdNum(res.Std, k), mdNum(res.Baseline, k))
		}
		if len(res.Folds) > 1 {
			keys := metrics.Ordered(task, res.Folds[0])
			mw.printf("\n## Per fold\n\n| fold | %s |\n|---|%s\n", strings.Join(keys, " | "), strings.Repeat("--:|", len(keys)))
			for i, f := range res.Folds {
				cells := make([]string, len(keys))
				for j, k := range keys {
					cells[j] = mdNum(f, k)
				}
				mw.printf("| %d | %s |\n", i+1, strings.Join(cells, " | "))
			}
		}
		if c := res.Confusion; c != nil {
			mw.printf("\n## Confusion matrix\n\nRows: actual; columns: predicted.\n\n| actual \\ predicted | %s |\n|---|%s\n",
				mdJoin(c.Labels), strings.Repeat("--:|", len(c.Labels)))
			for i, row := range c.Matrix {
				cells := make([]string, len(row))
				for j, n := range row {
					cells[j] = strconv.Itoa(n)
				}
				mw.printf("| %s | %s |\n", mdEscape(c.Labels[i]), strings.Join(cells, " | "))
			}
		}
		if chart := LossChart(r, 60, 10); chart != "" {
			mw.printf("\n## Training history\n\n```\n%s\n```\n", chart)
		}
		if len(res.Warnings) > 0 {
			mw.printf("\n## Warnings\n\n")
			for _, wn := range res.Warnings {
				mw.printf("- %s\n", mdEscape(wn.String()))
			}
		}
	}
	return mw.err
}

// WriteCSV writes the run's scores one per line, as fold,metric,value:
// each fold's under its number, and the run's own (the mean of the folds,
// or the one hold-out's) under "all".
func WriteCSV(w io.Writer, r *Record) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"fold", "metric", "value"})
	if res := r.Result; res != nil {
		task := r.Task()
		for i, f := range res.Folds {
			for _, k := range metrics.Ordered(task, f) {
				_ = cw.Write([]string{strconv.Itoa(i + 1), k, csvNum(f[k])})
			}
		}
		for _, k := range metrics.Ordered(task, res.Metrics) {
			_ = cw.Write([]string{"all", k, csvNum(res.Metrics[k])})
		}
	}
	cw.Flush()
	return cw.Error()
}

// paramText is the run's parameters as --param would set them.
func paramText(r *Record) string {
	var parts []string
	if r.Spec != nil {
		for _, p := range r.Spec.Params {
			if x, ok := r.Params[p.Name]; ok {
				parts = append(parts, p.Name+"="+engine.Format(x))
			}
		}
	}
	if len(parts) == 0 {
		return "defaults"
	}
	return strings.Join(parts, " ")
}

func csvNum(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func mdNum(m map[string]float64, k string) string {
	v, ok := m[k]
	if !ok || math.IsNaN(v) {
		return "–"
	}
	if metrics.Lookup(k).Count {
		return metrics.Lookup(k).Format(v)
	}
	return numfmt.Fixed(v, 4)
}

// mdEscape keeps text from a file (names, classes) from breaking a table.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(datasets.Printable(s))
}

func mdJoin(labels []string) string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = mdEscape(l)
	}
	return strings.Join(out, " | ")
}

// mdWriter keeps the first write error.
type mdWriter struct {
	w   io.Writer
	err error
}

func (m *mdWriter) printf(format string, a ...any) {
	if m.err == nil {
		_, m.err = fmt.Fprintf(m.w, format, a...)
	}
}

// Package report writes a run or a sweep for people: Markdown, CSV and text
// charts. The engine computes (engine/runs keeps a run as data, engine/tune a
// search's points); this package draws them, below the front ends that share
// it: the CLI prints its charts and writes its files (tealab runs, run,
// sweep), the lab writes the same files from its runs and sweep screens.
package report

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
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// LossChart draws the run's training loss per step, with the validation
// figure on the same scale where known (a classifier's error beside an
// error rate, else the validation loss), as a text chart with a legend
// under it: the training loss in dots and the validation figure as a line,
// as SweepChart draws training and validation scores; "" when there are
// fewer than two finite steps. Both lie on one step axis (validation is
// computed at fewer steps). The text report and the Markdown export draw
// the same chart.
func LossChart(r *runs.Record, width, height int) string {
	h := r.Result.History
	if len(h) < 2 || r.Spec == nil || width < 2 {
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
	train := alongSteps(h, func(p eval.Point) float64 { return p.TrainLoss }, width)
	if train == nil {
		return ""
	}
	// The dots are drawn last, over the line where the two meet.
	series, chars := [][]float64{train}, []asciigraph.CharSet{asciigraph.CreateCharSet("·")}
	legend := []string{"· " + r.Spec.LossName(r.Task())}
	if val := alongSteps(h, valOf, width); val != nil {
		series, chars = [][]float64{val, train}, []asciigraph.CharSet{asciigraph.DefaultCharSet, chars[0]}
		legend = append(legend, "─ "+valName)
	}
	return asciigraph.PlotMany(series, asciigraph.Height(height), asciigraph.Precision(3), asciigraph.SeriesChars(chars...),
		asciigraph.Caption(fmt.Sprintf("%s; per %s (%d..%d)", strings.Join(legend, ", "), unit, h[0].Step, h[len(h)-1].Step)))
}

// alongSteps is one quantity of a history at width evenly spaced steps
// from its first step to its last: straight between the steps that have a
// finite value, NaN (a gap) outside them; nil when fewer than two have one.
func alongSteps(h []eval.Point, get func(eval.Point) float64, width int) []float64 {
	var xs, ys []float64
	for _, p := range h {
		v := get(p)
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
		case len(xs) > 0 && float64(p.Step) <= xs[len(xs)-1]: // a step reported again: the later value
			ys[len(ys)-1] = v
		default:
			xs, ys = append(xs, float64(p.Step)), append(ys, v)
		}
	}
	if len(xs) < 2 {
		return nil
	}
	lo, hi := float64(h[0].Step), float64(h[len(h)-1].Step)
	out := make([]float64, width)
	j := 0
	for c := range out {
		x := lo + (hi-lo)*float64(c)/float64(width-1)
		if c == width-1 {
			x = hi
		}
		for j+2 < len(xs) && xs[j+1] < x {
			j++
		}
		if x < xs[0] || x > xs[len(xs)-1] {
			out[c] = math.NaN()
			continue
		}
		out[c] = ys[j] + (x-xs[j])/(xs[j+1]-xs[j])*(ys[j+1]-ys[j])
	}
	return out
}

// RunMarkdown writes the run as a Markdown report: what was run, its
// metrics beside the baseline, the per-fold scores, the confusion matrix
// and the loss history as a text chart.
func RunMarkdown(w io.Writer, e *runs.Entry) error {
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

// RunCSV writes the run's scores one per line, as fold,metric,value:
// each fold's under its number, and the run's own (the mean of the folds,
// or the one hold-out's) under "all".
func RunCSV(w io.Writer, r *runs.Record) error {
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
func paramText(r *runs.Record) string {
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

package cli

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/report"
)

// num formats a metric in the report's tables: four decimals, "n/a" when
// it does not exist.
func num(x float64) string { return numfmt.Fixed(x, 4) }

// The text report of `tealab train` is built from sections. Each section
// registers itself (in this file, or in a file of its own beside the
// capability it shows) with what it needs of a run; the report prints the
// sections whose needs are met, in order. A new family's section is a new
// file: nothing here changes.

// section is one part of the report.
type section struct {
	name  string
	order int                       // position in the report
	needs func(r *runs.Record) bool // nil: always
	write func(w io.Writer, r *runs.Record)
}

var sections []section

// addSection registers a section, keeping the list in order.
func addSection(s section) {
	sections = append(sections, s)
	sort.SliceStable(sections, func(i, j int) bool { return sections[i].order < sections[j].order })
}

// hasLearned is a section's needs: the run's model offers the capability.
func hasLearned(name string) func(*runs.Record) bool {
	return func(r *runs.Record) bool { return r.Result != nil && r.Result.Learned[name] != nil }
}

// writeReport prints the readable report of a run: every section whose
// needs the run meets.
func writeReport(out io.Writer, r *runs.Record) error {
	for _, s := range sections {
		if s.needs == nil || s.needs(r) {
			s.write(out, r)
		}
	}
	return nil
}

func init() {
	addSection(section{name: "header", order: 0, write: writeHeader})
	addSection(section{name: "partial", order: 20, write: func(out io.Writer, r *runs.Record) {
		fmt.Fprintf(out, "\npartial result: %s\n", r.Partial())
	}, needs: func(r *runs.Record) bool { return r.Status == runs.Cancelled }})
	addSection(section{name: "warnings", order: 50, write: writeWarnings,
		needs: func(r *runs.Record) bool { return len(r.Result.Warnings) > 0 }})
	addSection(section{name: "metrics", order: 100, write: writeMetrics,
		needs: func(r *runs.Record) bool { return len(r.Result.Metrics) > 0 || r.Status != runs.Cancelled }})
	addSection(section{name: "folds", order: 200, write: writeFolds,
		needs: func(r *runs.Record) bool { return len(r.Result.Folds) > 0 && len(r.Result.Folds) <= 20 }})
	addSection(section{name: "confusion", order: 300, write: writeConfusion,
		needs: func(r *runs.Record) bool { return r.Result.Confusion != nil }})
	addSection(section{name: "history", order: 900, write: writeHistory,
		needs: func(r *runs.Record) bool { return len(r.Result.History) > 0 }})
	addSection(section{name: "time", order: 1000, write: writeTime})
}

// writeTime says how long the evaluation took and on what.
func writeTime(out io.Writer, r *runs.Record) {
	total, parts := r.Result.Timing()
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(" · ")
		}
		b.WriteString(p.What + " " + numfmt.Seconds(p.Secs))
	}
	fmt.Fprintf(out, "\ntime %s: %s\n", numfmt.Seconds(total), b.String())
}

func writeHeader(out io.Writer, r *runs.Record) {
	res, spec := r.Result, r.Spec
	title := spec.Title
	if desc := spec.Describe(res.Params); desc != "" {
		title += " (" + desc + ")"
	}
	fmt.Fprintf(out, "%s · %s · %s · seed %d\n", res.Dataset, title, res.Eval, res.Seed)
	shape := numfmt.Count(res.Rows, "row") + " · " + numfmt.Count(res.Features, "feature") + " · " + res.Task
	if r.Task() == datasets.Classification && r.Dataset != nil {
		shape += " (" + numfmt.Count(len(r.Dataset.Classes), "class") + ")"
	}
	if res.FittedOn != "" {
		shape += " · model shown fitted on " + res.FittedOn
	}
	fmt.Fprintln(out, shape)
}

func writeWarnings(out io.Writer, r *runs.Record) {
	fmt.Fprintln(out)
	for _, w := range r.Result.Warnings {
		fmt.Fprintln(out, "warning: "+w.In(remedyText))
	}
}

func writeMetrics(out io.Writer, r *runs.Record) {
	res := r.Result
	task := r.Task()
	fmt.Fprintln(out)
	header := []string{"metric", "value"}
	if len(res.Std) > 0 {
		header = append(header, "± std")
	}
	rows := [][]string{append(header, "baseline")}
	for _, k := range metrics.Ordered(task, res.Metrics) {
		info := metrics.Lookup(k)
		value := num(res.Metrics[k])
		if info.Count {
			value = info.Format(res.Metrics[k])
		}
		row := []string{k, value}
		if len(res.Std) > 0 {
			sd, ok := res.Std[k]
			if !ok { // leave-one-out has a spread only for per-row metrics
				sd = math.NaN()
			}
			row = append(row, num(sd))
		}
		b, ok := res.Baseline[k]
		if !ok {
			b = math.NaN()
		}
		rows = append(rows, append(row, num(b)))
	}
	writeTable(out, rows)
}

func writeFolds(out io.Writer, r *runs.Record) {
	folds := r.Result.Folds
	task := r.Task()
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

// maxClassesShown is the most classes the text report draws as a matrix or
// lists class by class; past it, a screen of numbers would say nothing (a
// thousand classes made an 8 MB report). --json keeps everything.
const maxClassesShown = 24

func writeConfusion(out io.Writer, r *runs.Record) {
	c, per := r.Result.Confusion, r.Result.Classes
	if len(c.Labels) > maxClassesShown {
		writeLargestConfusions(out, r)
	} else {
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
	}
	if len(per) == 0 {
		return
	}
	shown := per
	if len(per) > maxClassesShown {
		// The classes with the most test rows: the ones the scores rest on.
		shown = slices.Clone(per)
		slices.SortStableFunc(shown, func(a, b metrics.ClassReport) int { return cmp.Compare(b.Support, a.Support) })
		shown = shown[:maxClassesShown]
		fmt.Fprintf(out, "\nper class (the %d of %d classes with the most test rows; --json lists all):\n", maxClassesShown, len(per))
	} else {
		fmt.Fprintln(out, "\nper class:")
	}
	rows := [][]string{{"class", "precision", "recall", "f1", "support"}}
	for _, p := range shown {
		rows = append(rows, []string{trunc(p.Class, 16), fmt.Sprintf("%.3f", p.Precision),
			fmt.Sprintf("%.3f", p.Recall), fmt.Sprintf("%.3f", p.F1), fmt.Sprint(p.Support)})
	}
	writeTable(out, rows)
}

// writeLargestConfusions lists the largest off-diagonal cells of a
// confusion matrix too big to draw.
func writeLargestConfusions(out io.Writer, r *runs.Record) {
	c := r.Result.Confusion
	type cell struct{ actual, predicted, n int }
	var cells []cell
	for i, counts := range c.Matrix {
		for j, n := range counts {
			if i != j && n > 0 {
				cells = append(cells, cell{i, j, n})
			}
		}
	}
	slices.SortStableFunc(cells, func(a, b cell) int { return cmp.Compare(b.n, a.n) })
	fmt.Fprintf(out, "\nconfusion matrix: %d classes, too many to draw (--json has the whole matrix); the largest confusions:\n", len(c.Labels))
	if len(cells) == 0 {
		fmt.Fprintln(out, "  none: every test row was predicted right")
		return
	}
	rows := [][]string{{"actual", "predicted", "rows"}}
	for _, x := range cells[:min(len(cells), maxClassesShown)] {
		rows = append(rows, []string{trunc(c.Labels[x.actual], 16), trunc(c.Labels[x.predicted], 16), fmt.Sprint(x.n)})
	}
	writeTable(out, rows)
	if len(cells) > maxClassesShown {
		fmt.Fprintf(out, "  ... %d more pairs of classes confused\n", len(cells)-maxClassesShown)
	}
}

func init() {
	addSection(section{name: "coefficients", order: engine.CapCoefficients.Order, write: writeCoefficients, needs: hasLearned(engine.CapCoefficients.Name)})
}

func writeCoefficients(out io.Writer, r *runs.Record) {
	c, ok := eval.LearnedAs[*engine.Coefficients](r.Result, "coefficients")
	if !ok || c.Weights == nil {
		return
	}
	rows, cols := c.Weights.Dims()
	fmt.Fprintf(out, "\ncoefficients (model fitted on %s, on the prepared features):\n", r.Result.FittedOn)
	if rows > maxClassesShown {
		fmt.Fprintf(out, "  the first %d of %d outputs (--json has them all)\n", maxClassesShown, rows)
		rows = maxClassesShown
	}
	table := [][]string{{"feature"}}
	for i := 0; i < rows; i++ {
		name := "y"
		if i < len(c.Outputs) {
			name = c.Outputs[i]
		}
		table[0] = append(table[0], trunc(name, 12))
	}
	if len(c.Intercept) >= rows {
		row := []string{"(intercept)"}
		for _, b := range c.Intercept[:rows] {
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
// others (numbers) right-aligned, two spaces apart, indented by two. Cells
// (class and feature names from a file) are Printable.
func writeTable(out io.Writer, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for j := range row {
			row[j] = datasets.Printable(row[j])
		}
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
func writeHistory(out io.Writer, r *runs.Record) {
	h, unit := r.Result.History, r.Spec.Unit
	if unit == "" {
		unit = "step"
	}
	which := ""
	if len(r.Result.FoldHistories) > 1 {
		which = " (fold 1)"
	}
	last := h[len(h)-1]
	lossName := r.Spec.LossName(r.Task())
	fmt.Fprintf(out, "\nhistory%s: %s; final %s %s, validation loss %s, validation error %s\n",
		which, numfmt.Count(len(h), unit), lossName, num(last.TrainLoss), num(last.ValLoss), num(last.ValError))
	if chart := report.LossChart(r, 60, 8); chart != "" {
		fmt.Fprintln(out, chart)
	}
}

package experiment

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
)

// Table is the results table as text: a row per model, a column per
// dataset and metric, each cell "mean ± std" and the mark, then the
// model's wins, ties and losses against the baseline over its row.
type Table struct {
	Header []string // "model", a heading per column, "(v/ /*)"
	Rows   [][]string
	Marks  [][]Mark // Marks[model][column]
}

// Title says what the experiment ran and how to read its marks.
func (o *Outcome) Title() string {
	p := o.Plan
	var names []string
	for _, d := range p.Datasets {
		names = append(names, d.Name)
	}
	s := fmt.Sprintf("%s on %s, %d × %d-fold CV (seed %d); v / * significantly better / worse than %s (corrected resampled t-test, α = %g)",
		numfmt.Count(len(p.Models), "model"), strings.Join(names, ", "), p.Repeats, p.Folds, p.Seed, p.Models[p.Baseline].Label, Alpha)
	if o.Cancelled {
		s += "; interrupted: " + o.finished() + " finished"
	}
	return s
}

// finished says how many cells finished: "7 of 12 model runs".
func (o *Outcome) finished() string {
	n := 0
	for _, c := range o.Cells {
		if c.Err == nil {
			n++
		}
	}
	return fmt.Sprintf("%d of %s", n, numfmt.Count(len(o.Cells), "model run"))
}

// Table lays out the columns.
func (o *Outcome) Table(cols []Column) Table {
	t := Table{Header: []string{"model"}}
	same := true
	for _, c := range cols {
		same = same && c.Metric == cols[0].Metric
	}
	for _, c := range cols {
		label := metrics.Lookup(c.Metric).Label
		switch {
		case len(o.Plan.Datasets) == 1:
			t.Header = append(t.Header, label)
		case same:
			t.Header = append(t.Header, o.Plan.Datasets[c.Dataset].Name)
		default:
			t.Header = append(t.Header, o.Plan.Datasets[c.Dataset].Name+" "+label)
		}
	}
	t.Header = append(t.Header, "(v/ /*)")
	for m, model := range o.Plan.Models {
		row := []string{model.Label}
		var marks []Mark
		for _, c := range cols {
			s := o.Stat(c.Dataset, m, c.Metric)
			row = append(row, cellText(c.Metric, s))
			marks = append(marks, s.Mark)
		}
		wtl := ""
		if m != o.Plan.Baseline {
			w, ti, l := o.WTL(m, cols)
			wtl = fmt.Sprintf("(%d/%d/%d)", w, ti, l)
		}
		t.Rows = append(t.Rows, append(row, wtl))
		t.Marks = append(t.Marks, marks)
	}
	return t
}

// cellText is "0.957 ± 0.021 v"; the mark's place is kept blank for a tie
// so that columns line up.
func cellText(metric string, s Stat) string {
	info := metrics.Lookup(metric)
	if math.IsNaN(s.Mean) {
		return numfmt.Missing
	}
	mark := s.Mark.Text()
	if mark == "" {
		mark = " "
	}
	return info.Format(s.Mean) + " ± " + info.Format(s.Std) + " " + mark
}

// WriteText writes the table with aligned columns.
func (t Table) WriteText(w io.Writer) error {
	width := make([]int, len(t.Header))
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	line := func(row []string) string {
		cells := make([]string, len(row))
		for i, c := range row {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i == 0 {
				cells[i] = c + pad
			} else {
				cells[i] = pad + c
			}
		}
		return strings.TrimRight(strings.Join(cells, "  "), " ")
	}
	var b strings.Builder
	b.WriteString(line(t.Header) + "\n")
	total := len(width)*2 - 2
	for _, x := range width {
		total += x
	}
	b.WriteString(strings.Repeat("─", total) + "\n")
	for _, r := range t.Rows {
		b.WriteString(line(r) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the table as a Markdown table.
func (t Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	row := func(cells []string) {
		trimmed := make([]string, len(cells))
		for i, c := range cells {
			trimmed[i] = strings.TrimSpace(c)
		}
		b.WriteString("| " + strings.Join(trimmed, " | ") + " |\n")
	}
	row(t.Header)
	seps := make([]string, len(t.Header))
	for i := range seps {
		seps[i] = "---:"
	}
	seps[0] = "---"
	row(seps)
	for _, r := range t.Rows {
		row(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Bars draws each model's mean score of column c as a text bar chart,
// scaled from zero (or the lowest mean, if negative) to the highest.
func (o *Outcome) Bars(c Column, width int) string {
	info := metrics.Lookup(c.Metric)
	name := 0
	means := make([]float64, len(o.Plan.Models))
	lo, hi := 0.0, math.Inf(-1)
	for m, model := range o.Plan.Models {
		name = max(name, len([]rune(model.Label)))
		means[m] = o.Stat(c.Dataset, m, c.Metric).Mean
		if !math.IsNaN(means[m]) {
			lo, hi = min(lo, means[m]), max(hi, means[m])
		}
	}
	var b strings.Builder
	for m, model := range o.Plan.Models {
		n := 0
		switch {
		case math.IsNaN(means[m]):
		case hi > lo:
			n = 1 + int(math.Round((means[m]-lo)/(hi-lo)*float64(width-1)))
		default:
			n = width
		}
		fmt.Fprintf(&b, "%-*s  %s%s  %s\n", name, model.Label, strings.Repeat("█", n), strings.Repeat(" ", width-n), info.Format(means[m]))
	}
	return b.String()
}

// RankMetric is the metric a ranking over datasets uses: the first
// column's.
func RankMetric(cols []Column) string {
	if len(cols) == 0 {
		return ""
	}
	return cols[0].Metric
}

// WriteRanking writes the ranking over datasets and its diagram; nothing
// with one dataset.
func (o *Outcome) WriteRanking(w io.Writer, metric string, width int) error {
	if len(o.Plan.Datasets) < 2 || metric == "" {
		return nil
	}
	rk := o.Rank(metric)
	var b strings.Builder
	fmt.Fprintf(&b, "Ranking by %s over %s (Demšar 2006): ", metrics.Lookup(metric).Label, numfmt.Count(len(rk.Datasets), "dataset"))
	switch {
	case len(rk.Datasets) < 2:
		b.WriteString("needs two datasets on which every model finished.\n")
		_, err := io.WriteString(w, b.String())
		return err
	case math.IsNaN(rk.P):
		b.WriteString("Friedman test undefined.\n")
	default:
		verdict := "the models differ"
		if rk.P >= Alpha {
			verdict = "no significant difference among the models"
		}
		f := "F = " + numfmt.Score(rk.FF)
		if math.IsNaN(rk.FF) {
			f = "every dataset ranks them alike"
		}
		fmt.Fprintf(&b, "Friedman χ² = %s, %s, p = %s: %s.\n", numfmt.Score(rk.ChiSq), f, numfmt.Score(rk.P), verdict)
		if caveat := rk.SmallSample(); caveat != "" {
			b.WriteString("Caveat: " + caveat + ".\n")
		}
	}
	if len(rk.Skipped) > 0 {
		fmt.Fprintf(&b, "Not ranked (a model did not finish): %s.\n", strings.Join(rk.Skipped, ", "))
	}
	if math.IsNaN(rk.CD) {
		fmt.Fprintf(&b, "No critical difference: the Nemenyi table goes up to %d models.\n", len(qAlpha05)+1)
	}
	b.WriteString("\n" + rk.Diagram(o.labels(), width))
	_, err := io.WriteString(w, b.String())
	return err
}

func (o *Outcome) labels() []string {
	out := make([]string, len(o.Plan.Models))
	for i, m := range o.Plan.Models {
		out[i] = m.Label
	}
	return out
}

// WriteCSV writes every fold's score: dataset, model, repeat, fold, metric,
// value (repeats and folds counted from 1).
func (o *Outcome) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"dataset", "model", "repeat", "fold", "metric", "value"})
	for _, c := range o.Cells {
		for f, scores := range c.Folds {
			names := make([]string, 0, len(scores))
			for k := range scores {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				_ = cw.Write([]string{o.Plan.Datasets[c.Dataset].Name, o.Plan.Models[c.Model].Label,
					strconv.Itoa(c.Repeat + 1), strconv.Itoa(f + 1), k, strconv.FormatFloat(scores[k], 'g', -1, 64)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the report: the title, the table, a bar chart per
// column, the ranking over datasets and the runs that failed.
func (o *Outcome) WriteMarkdown(w io.Writer, cols []Column) error {
	var b strings.Builder
	b.WriteString("# Experiment\n\n" + o.Title() + ".\n\n")
	if err := o.Table(cols).WriteMarkdown(&b); err != nil {
		return err
	}
	for _, c := range cols {
		fmt.Fprintf(&b, "\n%s, %s (mean over folds):\n\n```\n%s```\n", o.Plan.Datasets[c.Dataset].Name, metrics.Lookup(c.Metric).Label, o.Bars(c, 40))
	}
	if len(o.Plan.Datasets) > 1 {
		b.WriteString("\n## Ranking\n\n```\n")
		if err := o.WriteRanking(&b, RankMetric(cols), 72); err != nil {
			return err
		}
		b.WriteString("```\n")
	}
	if f := o.Failures(); len(f) > 0 {
		b.WriteString("\n## Failed\n\n")
		for _, s := range f {
			b.WriteString("- " + s + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Failures says, one line per model and dataset, which runs failed and why
// (the first error); interrupted runs are not failures.
func (o *Outcome) Failures() []string {
	var out []string
	for d, ds := range o.Plan.Datasets {
		for m, model := range o.Plan.Models {
			for r := range o.Plan.Repeats {
				c := o.Cell(d, m, r)
				if c.Err != nil && !errors.Is(c.Err, context.Canceled) {
					out = append(out, fmt.Sprintf("%s on %s: %v", model.Label, ds.Name, c.Err))
					break
				}
			}
		}
	}
	return out
}

package report

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models"
	"github.com/tealab/tealab/engine/runs"
)

// finished is a short run of model on data under 3-fold CV, with the
// data's fingerprint.
func finished(t testing.TB, source, model string) *runs.Record {
	t.Helper()
	data := runs.Data{Source: source}
	d, err := data.Open()
	if err != nil {
		t.Fatal(err)
	}
	if data.Hash, err = runs.HashData(data, d); err != nil {
		t.Fatal(err)
	}
	spec, err := engine.Lookup(model)
	if err != nil {
		t.Fatal(err)
	}
	v, err := spec.Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := runs.New(1, data, d, spec, v, eval.Options{Folds: 3, Seed: 2})
	if err := r.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return r
}

// The loss chart tells training from validation: dots for the training
// loss, a line for the validation figure, and a legend that says so (both
// were the same line, without a legend). The validation figure, known at
// fewer steps, is laid on the same step axis, so that its last value is at
// the right edge (it was squeezed into the chart's first columns).
func TestLossChartTellsTheSeriesApart(t *testing.T) {
	r := finished(t, "iris", "logistic")
	h := make([]eval.Point, 100)
	for i := range h {
		h[i] = eval.Point{Step: i + 1, TrainLoss: 1 / float64(i+1), ValLoss: math.NaN(), ValError: math.NaN()}
		if i%10 == 9 || i == 0 {
			h[i].ValLoss = 0.5 + float64(i)/200
		}
	}
	r.Result.History = h
	chart := LossChart(r, 60, 8)
	lines := strings.Split(chart, "\n")
	legend := lines[len(lines)-1]
	for _, want := range []string{"· " + r.Spec.LossName(r.Task()), "─ validation loss", "per iteration (1..100)"} {
		if !strings.Contains(legend, want) {
			t.Errorf("the legend %q lacks %q:\n%s", legend, want, chart)
		}
	}
	dots, lastLine, width := 0, -1, 0
	for _, l := range lines[:len(lines)-1] {
		_, plot, ok := strings.Cut(l, "┤")
		if !ok {
			_, plot, ok = strings.Cut(l, "┼")
		}
		if !ok {
			continue
		}
		cells := []rune(plot)
		width = max(width, len(cells))
		for c, r := range cells {
			switch {
			case r == '·':
				dots++
			case strings.ContainsRune("─╮╯╭╰│", r):
				lastLine = max(lastLine, c)
			}
		}
	}
	if dots < 10 {
		t.Errorf("the training loss is not drawn in dots (%d):\n%s", dots, chart)
	}
	if width == 0 || lastLine < width*9/10 {
		t.Errorf("the validation line ends in column %d of %d, want at the right edge:\n%s", lastLine+1, width, chart)
	}
}

// The Markdown report has the metrics beside the baseline, the folds, the
// confusion matrix and the loss chart; the CSV has one line per fold and
// metric.
func TestExport(t *testing.T) {
	r := finished(t, "iris", "logistic")
	e := runs.NewEntry(r)
	var md bytes.Buffer
	if err := RunMarkdown(&md, e); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# iris · logistic", "| metric | value | ± std | baseline |", "| accuracy | ",
		"## Per fold", "## Confusion matrix", "| setosa |", "## Training history", "┤", "tealab train --data iris --model logistic --cv 3 --seed 2"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	var c bytes.Buffer
	if err := RunCSV(&c, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(c.String()), "\n")
	perFold := len(r.Result.Folds[0])
	if lines[0] != "fold,metric,value" || len(lines) != 1+3*perFold+len(r.Result.Metrics) {
		t.Errorf("CSV has %d lines (want %d):\n%s", len(lines), 1+3*perFold+len(r.Result.Metrics), c.String())
	}
	if !strings.HasPrefix(lines[1], "1,accuracy,0.") {
		t.Errorf("first CSV row %q", lines[1])
	}
}

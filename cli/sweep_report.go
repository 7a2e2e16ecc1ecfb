package cli

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/report"
)

// A sweep's report: a head line, the table of points (the best marked),
// then a text chart of the validation curve (one parameter) or a heat
// table (two), the best setting and the command that trains it in full.
// --export writes the same as Markdown, or every fold's scores as CSV.

func writeTune(out io.Writer, res *tune.Result, again string) error {
	fmt.Fprintln(out, tune.Head(res))
	fmt.Fprintln(out)
	writeAligned(out, tune.PointTable(res))
	if chart := report.SweepChart(res); chart != "" {
		fmt.Fprintln(out)
		fmt.Fprintln(out, chart)
	}
	if heat := tune.HeatTable(res); heat != nil {
		fmt.Fprintf(out, "\nvalidation %s, %s down, %s across (shade: worst ░ to best █)\n", res.Metric.Label, res.Axes[0].Param.Name, res.Axes[1].Param.Name)
		writeAligned(out, heat)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, tune.BestLine(res, again))
	if head := tune.NestedHead(res); head != "" {
		fmt.Fprintln(out)
		fmt.Fprintln(out, head)
		writeAligned(out, tune.NestedTable(res))
		fmt.Fprintln(out, tune.NestedLine(res))
	}
	return nil
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
	Pick      string            `json:"pick,omitempty"`
	TopIndex  *int              `json:"top_index,omitempty"`
	PickWhy   string            `json:"pick_reason,omitempty"`
	Command   string            `json:"command,omitempty"`
	Cancelled bool              `json:"cancelled,omitempty"`
	Fixed     map[string]string `json:"fixed"`
	Nested    *nestedJSON       `json:"nested,omitempty"`
}

// nestedJSON is a nested cross-validation: the outer score and each outer
// fold's pick.
type nestedJSON struct {
	Eval      string           `json:"eval"`
	Mean      numfmt.Float     `json:"mean"`
	Std       numfmt.Float     `json:"std"`
	Scored    int              `json:"scored"`
	Folds     []nestedFoldJSON `json:"folds"`
	Cancelled bool             `json:"cancelled,omitempty"`
}

type nestedFoldJSON struct {
	Train     int            `json:"train_rows"`
	Test      int            `json:"test_rows"`
	Done      bool           `json:"done"`
	Error     string         `json:"error,omitempty"`
	Pick      map[string]any `json:"pick,omitempty"`
	InnerEval string         `json:"inner_eval,omitempty"`
	InnerMean numfmt.Float   `json:"inner_mean"`
	InnerStd  numfmt.Float   `json:"inner_std"`
	Outer     numfmt.Float   `json:"outer_score"`
}

func nestedOf(res *tune.Result) *nestedJSON {
	n := res.Nested
	if n == nil {
		return nil
	}
	j := &nestedJSON{Eval: n.Eval, Mean: nan(n.Mean, n.Scored() > 0), Std: nan(n.Std, n.Scored() > 0), Scored: n.Scored(), Cancelled: n.Cancelled,
		Folds: []nestedFoldJSON{}}
	for _, f := range n.Folds {
		fj := nestedFoldJSON{Train: f.Train, Test: f.Test, Done: f.Done, Outer: nan(f.Score, f.OK()), InnerMean: nan(0, false), InnerStd: nan(0, false)}
		if f.Err != nil {
			fj.Error = f.Err.Error()
		}
		if p, ok := f.Pick(); ok {
			fj.Pick, fj.InnerEval, fj.InnerMean, fj.InnerStd = pointValues(f.Search, p), f.Search.Eval, numfmt.Float(p.ValMean), numfmt.Float(p.ValStd)
		}
		j.Folds = append(j.Folds, fj)
	}
	return j
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
	j := sweepJSON{Model: res.Model, Dataset: res.Dataset, Eval: res.Eval + res.Prep, Metric: res.Metric.Name, Higher: res.Metric.Higher,
		Random: res.Random, Cancelled: res.Cancelled, Command: again, Fixed: fixedSettings(res), Nested: nestedOf(res)}
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
		j.Pick, j.TopIndex, j.PickWhy = res.Pick, &res.Top, res.Why
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

// exportTune writes the report to path whole or not at all (runs.WriteFile).
func exportTune(path string, res *tune.Result, again string) error {
	var b bytes.Buffer
	var err error
	if exportFormat(path) == "csv" {
		err = report.SweepCSV(&b, res)
	} else {
		err = report.SweepMarkdown(&b, res, again)
	}
	if err != nil {
		return err
	}
	return runs.WriteFile(path, b.Bytes())
}

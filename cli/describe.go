package cli

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
)

// description is what `tealab describe --json` prints.
type description struct {
	Name     string       `json:"name"`
	Source   string       `json:"source"`
	Rows     int          `json:"rows"`
	Task     string       `json:"task"`
	Dropped  int          `json:"dropped_rows,omitempty"`
	RowNames *rowNames    `json:"row_names,omitempty"`
	Features []columnDesc `json:"features"`
	Target   *columnDesc  `json:"target,omitempty"`
	Classes  []classDesc  `json:"classes,omitempty"`
	Summary  *summary     `json:"target_summary,omitempty"`
	Warnings []string     `json:"warnings,omitempty"`
}

// rowNames describes a file's row names, which are not a feature.
type rowNames struct {
	Column string   `json:"column"` // where they were read from
	Unique int      `json:"unique"`
	First  []string `json:"first"` // the first few, as examples
}

type columnDesc struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Missing int      `json:"missing"`
	Levels  []string `json:"levels,omitempty"`
	Summary *summary `json:"summary,omitempty"`
}

type classDesc struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// summary describes a numeric column. Its fields are JSONFloat because a
// mean or spread of huge values can overflow to ±Inf, which JSON cannot hold
// (written as null).
type summary struct {
	Min  metrics.JSONFloat `json:"min"`
	Max  metrics.JSONFloat `json:"max"`
	Mean metrics.JSONFloat `json:"mean"`
	Std  metrics.JSONFloat `json:"std"`
}

// summarise describes the non-missing values; nil when there are none.
func summarise(xs []float64) *summary {
	vals := make([]float64, 0, len(xs))
	for _, v := range xs {
		if !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return nil
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	mean, std := datasets.MeanStd(vals)
	return &summary{Min: metrics.JSONFloat(lo), Max: metrics.JSONFloat(hi), Mean: metrics.JSONFloat(mean), Std: metrics.JSONFloat(std)}
}

func describe(d *datasets.Dataset) description {
	desc := description{Name: d.Name, Source: d.Source, Rows: d.Rows(), Task: d.Task.String(), Dropped: d.Dropped,
		Warnings: advice.All(d.ColumnWarnings(), remedyText)}
	if d.RowNames != nil {
		desc.RowNames = &rowNames{Column: "first (unnamed)", Unique: len(d.RowNames), First: d.RowNames[:min(3, len(d.RowNames))]}
	}
	for j, c := range d.Features {
		cd := columnDesc{Name: c.Name, Kind: c.Kind.String(), Missing: c.Missing, Levels: c.Levels}
		if c.Kind == datasets.Numeric {
			cd.Summary = summarise(colValues(d, j))
		}
		desc.Features = append(desc.Features, cd)
	}
	if d.Target != nil {
		desc.Target = &columnDesc{Name: d.Target.Name, Kind: d.Target.Kind.String(), Levels: d.Target.Levels}
	}
	switch d.Task {
	case datasets.Classification:
		for i, n := range d.ClassCounts() {
			desc.Classes = append(desc.Classes, classDesc{d.Classes[i], n})
		}
	case datasets.Regression:
		desc.Summary = summarise(d.Y)
	}
	return desc
}

func colValues(d *datasets.Dataset, j int) []float64 {
	n := d.Rows()
	out := make([]float64, n)
	for i := 0; i < n; i++ {
		out[i] = d.X.At(i, j)
	}
	return out
}

func runDescribe(args []string, out io.Writer) error {
	fs := newFlags("describe")
	var df dataFlags
	df.register(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	d, err := df.load("describe")
	if err != nil {
		return err
	}
	desc := describe(d)
	if *asJSON {
		return writeJSON(out, desc)
	}
	fmt.Fprintf(out, "%s — %s, %s, %s\nsource: %s\n", datasets.Printable(desc.Name), numfmt.Count(desc.Rows, "row"), numfmt.Count(len(desc.Features), "feature"), desc.Task, desc.Source)
	if desc.Dropped > 0 {
		fmt.Fprintf(out, "dropped %s whose target is missing\n", numfmt.Count(desc.Dropped, "row"))
	}
	if r := desc.RowNames; r != nil {
		fmt.Fprintf(out, "row names: first column (unnamed, %d unique values: %s, ...) — not a feature (--row-names no reads it as %s)\n",
			r.Unique, datasets.Printable(strings.Join(r.First, ", ")), datasets.RowNamesColumn)
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "COLUMN\tKIND\tMISSING\tLEVELS / RANGE")
	for _, c := range desc.Features {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", datasets.Printable(c.Name), c.Kind, c.Missing, columnDetail(c))
	}
	if desc.Target != nil {
		fmt.Fprintf(tw, "%s (target)\t%s\t\t%s\n", datasets.Printable(desc.Target.Name), desc.Target.Kind, columnDetail(*desc.Target))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(desc.Classes) > 0 {
		fmt.Fprintln(out, "\nclass balance:")
		most := 0
		for _, c := range desc.Classes {
			most = max(most, c.Count)
		}
		for _, c := range desc.Classes {
			bar := strings.Repeat("█", (c.Count*30+most-1)/most)
			fmt.Fprintf(out, "  %-16s %5d %5.1f%%  %s\n", trunc(datasets.Printable(c.Name), 16), c.Count, 100*float64(c.Count)/float64(desc.Rows), bar)
		}
	}
	if s := desc.Summary; s != nil {
		fmt.Fprintf(out, "\ntarget: min %.4g  max %.4g  mean %.4g  std %.4g\n", s.Min, s.Max, s.Mean, s.Std)
	}
	for _, w := range desc.Warnings {
		fmt.Fprintf(out, "\nwarning: %s", datasets.Printable(w))
	}
	if len(desc.Warnings) > 0 {
		fmt.Fprintln(out)
	}
	return nil
}

func columnDetail(c columnDesc) string {
	if len(c.Levels) > 0 {
		s := datasets.Printable(strings.Join(c.Levels, ", "))
		return fmt.Sprintf("%d levels: %s", len(c.Levels), trunc(s, 60))
	}
	if c.Summary != nil {
		return fmt.Sprintf("%.4g .. %.4g (mean %.4g)", c.Summary.Min, c.Summary.Max, c.Summary.Mean)
	}
	return ""
}

func trunc(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

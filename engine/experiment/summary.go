package experiment

import (
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
)

// Alpha is the two-sided significance level of every mark and ranking.
const Alpha = 0.05

// Mark is how a model's score compares with the baseline's, as Weka marks
// it: v significantly better, * significantly worse, blank a tie.
type Mark int

const (
	Tie      Mark = iota
	Better        // v
	Worse         // *
	Baseline      // the baseline itself
	NoTest        // too few paired folds to test
)

// Text is the mark as Weka prints it.
func (m Mark) Text() string {
	switch m {
	case Better:
		return "v"
	case Worse:
		return "*"
	}
	return ""
}

// String names the mark for JSON: better, worse, tie, baseline or
// untested.
func (m Mark) String() string {
	return [...]string{"tie", "better", "worse", "baseline", "untested"}[m]
}

// Stat is one model's score on one dataset under one metric.
type Stat struct {
	Mean, Std float64 // over every fold of every repeat (sample standard deviation)
	N         int     // fold scores
	Test      runs.TTest
	Mark      Mark
}

// Column is a dataset and a metric: one column of the results table.
type Column struct {
	Dataset int
	Metric  string
}

// Metrics lists the metrics the folds of dataset d have, in report order.
func (o *Outcome) Metrics(d int) []string {
	for m := range o.Plan.Models {
		for r := range o.Plan.Repeats {
			if c := o.Cell(d, m, r); len(c.Folds) > 0 {
				return metrics.Ordered(o.Plan.Datasets[d].Task, c.Folds[0])
			}
		}
	}
	return nil
}

// scores are model m's fold scores of metric on dataset d, by repeat; a
// repeat that did not finish every fold is nil.
func (o *Outcome) scores(d, m int, metric string) [][]float64 {
	out := make([][]float64, o.Plan.Repeats)
	for r := range out {
		c := o.Cell(d, m, r)
		if c.Err != nil || len(c.Folds) != o.Plan.Folds {
			continue
		}
		xs := make([]float64, len(c.Folds))
		for i, f := range c.Folds {
			v, ok := f[metric]
			if !ok {
				xs = nil
				break
			}
			xs[i] = v
		}
		out[r] = xs
	}
	return out
}

// Stat summarises model m on dataset d under metric and tests it against
// the baseline on the folds both finished.
func (o *Outcome) Stat(d, m int, metric string) Stat {
	mine := o.scores(d, m, metric)
	var all []float64
	for _, xs := range mine {
		all = append(all, xs...)
	}
	s := Stat{Mean: math.NaN(), Std: math.NaN(), N: len(all)}
	if len(all) > 0 {
		s.Mean = stat.Mean(all, nil)
	}
	if len(all) > 1 {
		s.Std = stat.StdDev(all, nil)
	}
	if m == o.Plan.Baseline {
		s.Mark = Baseline
		return s
	}
	base := o.scores(d, o.Plan.Baseline, metric)
	var diff []float64
	for r := range mine {
		if mine[r] == nil || base[r] == nil {
			continue
		}
		for i := range mine[r] {
			diff = append(diff, mine[r][i]-base[r][i])
		}
	}
	if len(diff) < 2 {
		s.Mark = NoTest
		return s
	}
	// Every fold tests on 1/k of the rows and trains on the rest.
	s.Test = runs.CorrectedTTest(diff, 1/float64(o.Plan.Folds-1))
	switch s.Test.Verdict(metric) {
	case runs.Better:
		s.Mark = Better
	case runs.Worse:
		s.Mark = Worse
	default:
		s.Mark = Tie
	}
	return s
}

// WTL counts, over columns, the wins, ties and losses of model m against
// the baseline (columns without a test are not counted).
func (o *Outcome) WTL(m int, cols []Column) (win, tie, loss int) {
	for _, c := range cols {
		switch o.Stat(c.Dataset, m, c.Metric).Mark {
		case Better:
			win++
		case Tie:
			tie++
		case Worse:
			loss++
		}
	}
	return win, tie, loss
}

// Columns are the results table's columns: each dataset under each of
// metrics, or, when metrics is empty, under its primary metric (every
// headline metric when there is one dataset).
func (o *Outcome) Columns(wanted []string) []Column {
	var cols []Column
	for d := range o.Plan.Datasets {
		have := o.Metrics(d)
		names := wanted
		if len(names) == 0 {
			names = defaultMetrics(o, d, have)
		}
		for _, name := range names {
			for _, h := range have {
				if h == name {
					cols = append(cols, Column{d, name})
				}
			}
		}
	}
	return cols
}

func defaultMetrics(o *Outcome, d int, have []string) []string {
	task := o.Plan.Datasets[d].Task
	if len(o.Plan.Datasets) > 1 {
		set := map[string]float64{}
		for _, h := range have {
			set[h] = 0
		}
		return []string{metrics.Primary(task, set)}
	}
	var names []string
	for _, info := range metrics.Headline(task) {
		names = append(names, info.Name)
	}
	return names
}

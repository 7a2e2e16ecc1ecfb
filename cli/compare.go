package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/tealab/tealab/engine/experiment"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// repeatFlag collects repeated values whole: a model's or a generator's
// settings have commas of their own.
type repeatFlag []string

func (r *repeatFlag) String() string { return strings.Join(*r, " ") }

func (r *repeatFlag) Set(s string) error {
	*r = append(*r, strings.TrimSpace(s))
	return nil
}

// compareFlags are the flags of `tealab compare`.
type compareFlags struct {
	data, models     repeatFlag
	metrics          listFlag
	eval             evalFlags
	jobs             int
	baseline, export string
	asJSON, quiet    bool
}

func (c *compareFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.data, "data", "dataset (repeatable): built-in name, generator[:knobs] or file; its last column is the target")
	fs.Var(&c.models, "model", "model (repeatable), with parameters as name:param=value,param=value, e.g. knn:k=5")
	c.eval.register(fs, compareEval)
	fs.StringVar(&c.baseline, "baseline", "", "model the others are tested against (default: the first)")
	fs.Var(&c.metrics, "metric", "metrics shown, e.g. accuracy,macro_f1 (default: the headline metrics with one dataset, the primary one with several)")
	fs.IntVar(&c.jobs, "jobs", runtime.NumCPU(), "model runs at once; the results do not depend on it")
	fs.BoolVar(&c.asJSON, "json", false, "print the results as JSON")
	fs.StringVar(&c.export, "export", "", "also write the comparison to FILE.md (tables and text charts) or FILE.csv (every fold's scores)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress on stderr (it is drawn only when stderr is a terminal)")
}

// plan checks the flags and loads the data and models.
func (c *compareFlags) plan() (experiment.Plan, error) {
	switch {
	case len(c.data) == 0:
		return experiment.Plan{}, usagef("compare: --data is required (a built-in such as breast_cancer, a generator or a file; repeat it for several)")
	case len(c.models) < 2:
		return experiment.Plan{}, usagef("compare: give at least two --model (e.g. --model logistic --model knn:k=5)")
	case c.jobs < 1:
		return experiment.Plan{}, usagef("compare: --jobs %d is out of range (at least 1)", c.jobs)
	}
	if ext := strings.ToLower(filepath.Ext(c.export)); c.export != "" && ext != ".md" && ext != ".csv" {
		return experiment.Plan{}, usagef("compare: --export %s: name a .md (Markdown) or .csv (per-fold scores) file", c.export)
	}
	opt, v, err := c.eval.options()
	if err != nil {
		return experiment.Plan{}, err
	}
	p := experiment.Plan{Folds: opt.Folds, Repeats: v.Int(experiment.SettingRepeats), Seed: opt.Seed, Jobs: c.jobs}
	for _, s := range c.models {
		m, err := experiment.ParseModel(s)
		if err != nil {
			return p, usagef("compare: --model %s", err)
		}
		if slices.ContainsFunc(p.Models, func(o experiment.Model) bool { return o.Label == m.Label }) {
			return p, usagef("compare: --model %s is given twice", m.Label)
		}
		p.Models = append(p.Models, m)
	}
	base, err := baselineIndex(p.Models, c.baseline)
	if err != nil {
		return p, err
	}
	p.Baseline = base
	for _, src := range c.data {
		d := dataFlags{source: src, rowNames: "auto"}
		ds, err := d.load("compare")
		if err != nil {
			return p, err
		}
		if err := ds.Trainable(); err != nil {
			return p, err
		}
		p.Datasets = append(p.Datasets, ds)
	}
	if err := p.Check(); err != nil {
		return p, usageError{err.Error()}
	}
	return p, c.checkMetrics(p)
}

// baselineIndex finds --baseline among the models, by label or, when only
// one model has it, by model name.
func baselineIndex(models []experiment.Model, name string) (int, error) {
	if name == "" {
		return 0, nil
	}
	var byName []int
	for i, m := range models {
		if m.Label == name {
			return i, nil
		}
		if m.Spec.Name == name {
			byName = append(byName, i)
		}
	}
	if len(byName) == 1 {
		return byName[0], nil
	}
	var labels []string
	for _, m := range models {
		labels = append(labels, m.Label)
	}
	return 0, usagef("compare: --baseline %q is not one of the models (%s)", name, strings.Join(labels, ", "))
}

// checkMetrics checks --metric against what the data's tasks report.
func (c *compareFlags) checkMetrics(p experiment.Plan) error {
	for _, name := range c.metrics {
		ok := false
		for _, d := range p.Datasets {
			for _, info := range metrics.ForTask(d.Task) {
				ok = ok || info.Name == name
			}
		}
		if !ok {
			var valid []string
			for _, info := range metrics.ForTask(p.Datasets[0].Task) {
				valid = append(valid, info.Name)
			}
			return usagef("compare: --metric %q is not a metric of these data (valid: %s)", name, strings.Join(valid, ", "))
		}
	}
	return nil
}

func runCompare(args []string, out, stderr io.Writer) error {
	fs := newFlags("compare")
	var cf compareFlags
	cf.register(fs)
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	plan, err := cf.plan()
	if err != nil {
		return err
	}
	if cf.export != "" {
		if err := runs.CheckTarget(cf.export, cf.data...); err != nil {
			return usagef("compare: --export %v", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var progress func(experiment.Progress)
	pl := newProgressLine(stderr)
	if !cf.quiet && isTerminal(stderr) {
		progress = func(p experiment.Progress) { pl.say(describeCells(p)) }
	}
	o, err := experiment.Run(ctx, plan, progress)
	pl.done()
	if err != nil {
		return err
	}
	if o.Cancelled && finishedCells(o) == 0 {
		return interruptedf("compare: interrupted before any model run finished")
	}
	if err := writeComparison(out, o, &cf); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return interruptedf("compare: interrupted; the results above cover the %s that finished", numfmt.Count(finishedCells(o), "model run"))
	}
	if f := o.Failures(); len(f) > 0 {
		return fmt.Errorf("compare: %s failed (listed above)", numfmt.Count(len(f), "model run"))
	}
	return nil
}

// writeComparison prints the results (text or JSON) and writes --export.
func writeComparison(out io.Writer, o *experiment.Outcome, cf *compareFlags) error {
	cols := o.Columns(cf.metrics)
	var err error
	if cf.asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(o.Summarise(cols)); err != nil {
			return err
		}
	} else if err := writeCompareText(out, o, cols); err != nil {
		return err
	}
	if cf.export == "" {
		return nil
	}
	var b strings.Builder
	if strings.EqualFold(filepath.Ext(cf.export), ".csv") {
		err = o.WriteCSV(&b)
	} else {
		err = o.WriteMarkdown(&b, cols)
	}
	if err == nil {
		err = runs.WriteFile(cf.export, []byte(b.String()))
	}
	if err != nil {
		return fmt.Errorf("--export: %w (the results above are complete; nothing was exported)", err)
	}
	return nil
}

func writeCompareText(out io.Writer, o *experiment.Outcome, cols []experiment.Column) error {
	var b strings.Builder
	b.WriteString(o.Title() + "\n\n")
	if err := o.Table(cols).WriteText(&b); err != nil {
		return err
	}
	if f := o.Failures(); len(f) > 0 {
		b.WriteString("\nfailed:\n")
		for _, s := range f {
			b.WriteString("  " + s + "\n")
		}
	}
	if len(o.Plan.Datasets) > 1 {
		b.WriteString("\n")
		if err := o.WriteRanking(&b, experiment.RankMetric(cols), 72); err != nil {
			return err
		}
	}
	_, err := io.WriteString(out, b.String())
	return err
}

func finishedCells(o *experiment.Outcome) int {
	n := 0
	for _, c := range o.Cells {
		if c.Err == nil {
			n++
		}
	}
	return n
}

// describeCells is the progress line of an experiment.
func describeCells(p experiment.Progress) string {
	if p.Done == 0 {
		return fmt.Sprintf("%s to run; the first is under way", numfmt.Count(p.Total, "model run"))
	}
	s := fmt.Sprintf("%d of %s · %s on %s, repeat %d · %s elapsed", p.Done, numfmt.Count(p.Total, "model run"),
		p.Model, p.Dataset, p.Repeat, numfmt.Seconds(p.Elapsed.Seconds()))
	if p.Done < p.Total {
		left := p.Elapsed.Seconds() * float64(p.Total-p.Done) / float64(p.Done)
		s += " · about " + numfmt.Seconds(left) + " left"
	}
	return s
}

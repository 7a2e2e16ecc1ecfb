package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/tealab/tealab/datasets"
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
	sources          []string // the data's sources, their settings cut off (plan)
}

func (c *compareFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.data, "data", "dataset (repeatable): built-in name, generator[:knobs] or file, then optionally :target=COL,drop=COL,COL,task=T,format=F,row-names=no (after the last colon); the target is the last column unless target= names one")
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
	for _, spec := range c.data {
		d, err := parseDataSpec(spec)
		if err != nil {
			return p, err
		}
		c.sources = append(c.sources, d.source)
		ds, err := d.load("compare")
		if err != nil {
			var u usageError
			if errors.As(err, &u) {
				return p, err
			}
			return p, fmt.Errorf("compare: --data %s: %w", spec, err)
		}
		if err := ds.Trainable(); err != nil {
			return p, err
		}
		p.Datasets = append(p.Datasets, ds)
	}
	if err := p.Check(); err != nil {
		return p, usageError{err.Error() + c.targetHint(p)}
	}
	return p, c.checkMetrics(p)
}

// targetHint says, for a plan refused, which file's target was taken as
// its last column, and how to name another: "" when every file's was
// named.
func (c *compareFlags) targetHint(p experiment.Plan) string {
	for i, spec := range c.data {
		d, err := parseDataSpec(spec)
		if err != nil || d.target != "" || datasets.IsName(d.source) || i >= len(p.Datasets) || p.Datasets[i].Target == nil {
			continue
		}
		return fmt.Sprintf("; %s's target is its last column, %s (another: --data %s:target=COLUMN)", p.Datasets[i].Name, p.Datasets[i].Target.Name, spec)
	}
	return ""
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
		if err := runs.CheckTarget(cf.export, cf.sources...); err != nil {
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

// dataKeys are the settings a --data of compare may end with, named as
// the flags of tealab train that choose the same (--target, --drop,
// --task, --format, --row-names).
var dataKeys = []string{"target", "drop", "task", "format", "row-names"}

// parseDataSpec reads a --data of compare: a source as tealab train's
// --data takes it, then, after its last colon, settings that choose the
// file's target and columns as train's flags do:
//
//	wine.csv:target=class,drop=id,name
//	C:\data\x.csv:target=Class
//
// What follows the last colon is read as settings only when it is a
// key=value list (a piece without = continues drop's list); otherwise
// the whole text is the source, so a Windows drive letter (C:\x.csv), a
// path with a colon in it and a generator's knobs (moons:n=500) are read
// as before. A key=value list with a key that is not a setting is an error
// naming it, unless the whole text is a generator with knobs or an
// existing file; a file named both ways (x.csv:target=y exists, and so
// does x.csv) is refused as ambiguous.
func parseDataSpec(spec string) (dataFlags, error) {
	spec = strings.TrimSpace(spec)
	whole := dataFlags{source: spec, rowNames: "auto"}
	i := strings.LastIndexByte(spec, ':')
	if i <= 0 {
		return whole, nil
	}
	src, tail := strings.TrimSpace(spec[:i]), spec[i+1:]
	first, _, _ := strings.Cut(tail, ",")
	if k, _, ok := strings.Cut(first, "="); !ok || !isKey(strings.TrimSpace(k)) {
		return whole, nil // C:\x.csv, data:v2.csv
	}
	settings := map[string]string{}
	var wrong, last string // wrong: the first piece that is not a setting
	for _, f := range strings.Split(tail, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, v, ok := strings.Cut(f, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok && last == "drop" {
			settings["drop"] += "," + f
			continue
		}
		if _, dup := settings[k]; ok && dup {
			return dataFlags{}, usagef("compare: --data %s: %s is given twice", spec, k)
		}
		if wrong == "" && (!ok || !slices.Contains(dataKeys, k)) {
			wrong = f
		}
		settings[k], last = v, k
	}
	_, wholeErr := os.Stat(spec)
	_, srcErr := os.Stat(src)
	switch {
	case wrong != "" && (wholeErr == nil || datasets.IsName(spec)):
		return whole, nil // moons:n=500; a file named a:b=c
	case wrong != "":
		return dataFlags{}, usagef("compare: --data %s: %q is not a setting of the data (after the last colon: %s, as key=value)", spec, wrong, strings.Join(dataKeys, ", "))
	case wholeErr == nil && srcErr == nil:
		return dataFlags{}, usagef("compare: --data %s names a file, and so does %s with settings: rename one", spec, src)
	case wholeErr == nil:
		return whole, nil
	}
	d := dataFlags{source: src, target: settings["target"], task: settings["task"], format: settings["format"], rowNames: "auto"}
	if rn, ok := settings["row-names"]; ok {
		if _, err := runs.ParseRowNames(rn); err != nil {
			return dataFlags{}, usagef("compare: --data %s: row-names=%v", spec, err)
		}
		d.rowNames = rn
	}
	if _, ok := settings["task"]; ok {
		if _, err := datasets.ParseTask(d.task); err != nil {
			return dataFlags{}, usagef("compare: --data %s: task=%v", spec, err)
		}
	}
	if _, ok := settings["format"]; ok && !slices.Contains(datasets.Formats, d.format) {
		return dataFlags{}, usagef("compare: --data %s: format=%q: use one of %s", spec, d.format, strings.Join(datasets.Formats, ", "))
	}
	if t, ok := settings["target"]; ok && t == "" {
		return dataFlags{}, usagef("compare: --data %s: target= names no column", spec)
	}
	_ = d.drop.Set(settings["drop"])
	return d, nil
}

// isKey says whether s can be a setting's name: letters, digits, - and _.
func isKey(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) < 0
}

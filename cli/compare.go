package cli

import (
	"bytes"
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
	predictions      string // --predictions: every model run's held-out rows, as CSV
	asJSON, quiet    bool
	shard, partOut   string // --shard I/N, --out FILE
	merge            bool
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
	fs.StringVar(&c.predictions, "predictions", "", "also write every model run's held-out rows to FILE as CSV: dataset, model, repeat, row, fold, actual, predicted, p(class)..., correct (regression: error)")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress on stderr (it is drawn only when stderr is a terminal)")
	fs.StringVar(&c.shard, "shard", "", "run only the I-th of N slices of the (dataset, model, repeat, fold) grid, e.g. 2/8, and write its scores to --out")
	fs.StringVar(&c.partOut, "out", "", "with --shard: the part file to write (JSON), merged with the other parts by --merge")
	fs.BoolVar(&c.merge, "merge", false, "print the comparison of the part files given as arguments (every shard of one experiment, e.g. part-*.json), as one process would have")
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
	files, err := parseFlagsAndFiles(fs, args, out)
	if err != nil {
		return err
	}
	if cf.merge {
		return runMerge(fs, &cf, files, out)
	}
	if len(files) > 0 {
		return usagef("compare: unexpected argument %q (part files go with --merge; see 'tealab help compare')", files[0])
	}
	var shard experiment.Shard
	if cf.shard != "" || cf.partOut != "" {
		if shard, err = cf.checkShard(fs); err != nil {
			return err
		}
	}
	plan, err := cf.plan()
	if err != nil {
		return err
	}
	target, flag := cf.export, "--export"
	if cf.shard != "" {
		target, flag = cf.partOut, "--out"
	}
	if target != "" {
		if err := runs.CheckTarget(target, cf.sources...); err != nil {
			return usagef("compare: %s %v", flag, err)
		}
	}
	if cf.predictions != "" {
		reads := make([]runs.Read, 0, len(cf.sources)+1)
		for _, s := range cf.sources {
			reads = append(reads, runs.Read{Path: s})
		}
		if cf.export != "" {
			reads = append(reads, runs.Read{Path: cf.export, What: "also the --export file"})
		}
		if err := runs.CheckReads(cf.predictions, reads...); err != nil {
			return usagef("compare: --predictions %v", err)
		}
		plan.KeepRows = true
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	pl := newProgressLine(stderr)
	progress := func(noun string) func(experiment.Progress) {
		if cf.quiet || !isTerminal(stderr) {
			return nil
		}
		return func(p experiment.Progress) { pl.say(describeCells(p, noun)) }
	}
	if cf.shard != "" {
		part, err := experiment.RunShard(ctx, plan, shard, progress("fold"))
		pl.done()
		if ctx.Err() != nil {
			return interruptedf("compare: shard %s interrupted; nothing written to %s", shard, cf.partOut)
		}
		if err != nil {
			return err
		}
		return writePart(out, part, cf.partOut)
	}
	o, err := experiment.Run(ctx, plan, progress("model run"))
	pl.done()
	if err != nil {
		return err
	}
	if o.Cancelled && finishedCells(o) == 0 {
		return interruptedf("compare: interrupted before any model run finished")
	}
	err = reportComparison(ctx, out, o, &cf)
	if perr := writeComparePredictions(o, &cf); perr != nil && err == nil {
		err = perr
	}
	return err
}

// writeComparePredictions writes --predictions after the report, as
// train writes it.
func writeComparePredictions(o *experiment.Outcome, cf *compareFlags) error {
	if cf.predictions == "" {
		return nil
	}
	data, err := comparePredictionsCSV(o)
	if err == nil {
		if err = runs.CheckTarget(cf.predictions, cf.sources...); err == nil {
			err = runs.WriteFile(cf.predictions, data)
		}
	}
	if err != nil {
		return errors.New("compare: --predictions: " + err.Error() + " (the report above is the comparison's)")
	}
	return nil
}

// reportComparison writes the comparison and says how the experiment
// ended: interrupted, some runs failed, or nil.
func reportComparison(ctx context.Context, out io.Writer, o *experiment.Outcome, cf *compareFlags) error {
	if err := writeComparison(out, o, cf); err != nil {
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

// checkShard checks --shard and --out, which go together and leave the
// report to --merge.
func (c *compareFlags) checkShard(fs *flag.FlagSet) (experiment.Shard, error) {
	switch {
	case c.shard == "":
		return experiment.Shard{}, usagef("compare: --out writes a shard's part: give --shard I/N too")
	case c.partOut == "":
		return experiment.Shard{}, usagef("compare: --shard %s: give --out FILE, the part to write", c.shard)
	}
	s, err := experiment.ParseShard(c.shard)
	if err != nil {
		return s, usagef("compare: --shard %v", err)
	}
	for _, name := range []string{"json", "export", "metric", "predictions"} {
		if isSet(fs, name) {
			return s, usagef("compare: --shard writes its part to --out; give --%s to --merge, which prints the comparison", name)
		}
	}
	return s, nil
}

// isSet says whether the flag was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// writePart writes a shard's part to path (whole or not at all,
// runs.WriteFile) and says so on out.
func writePart(out io.Writer, part *experiment.Part, path string) error {
	var b bytes.Buffer
	if err := experiment.WritePart(&b, part); err != nil {
		return err
	}
	if err := runs.WriteFile(path, b.Bytes()); err != nil {
		return fmt.Errorf("compare: --out %w", err)
	}
	failed := 0
	for _, u := range part.Units {
		if u.Err != "" {
			failed++
		}
	}
	msg := fmt.Sprintf("shard %s: %s in %s, written to %s", part.Shard, numfmt.Count(len(part.Units), "fold"), numfmt.Seconds(part.Secs), path)
	if failed > 0 {
		msg += fmt.Sprintf("; %d failed (--merge lists them)", failed)
	}
	_, err := fmt.Fprintln(out, msg+"; merge every shard's part with tealab compare --merge")
	return err
}

// mergeFlags are the flags --merge takes: how to show the comparison. The
// experiment itself is the parts'.
var mergeFlags = []string{"merge", "metric", "json", "export", "quiet"}

// runMerge prints the comparison of the parts' shards, as one process
// running the whole experiment would have printed it.
func runMerge(fs *flag.FlagSet, cf *compareFlags, files []string, out io.Writer) error {
	var wrong string
	fs.Visit(func(f *flag.Flag) {
		if wrong == "" && !slices.Contains(mergeFlags, f.Name) {
			wrong = f.Name
		}
	})
	if wrong != "" {
		return usagef("compare: --merge takes the experiment from its parts; leave out --%s (it takes --metric, --json, --export)", wrong)
	}
	files, err := expandParts(files)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("compare: --merge needs the part files that --shard wrote, e.g. tealab compare --merge part-*.json")
	}
	if ext := strings.ToLower(filepath.Ext(cf.export)); cf.export != "" && ext != ".md" && ext != ".csv" {
		return usagef("compare: --export %s: name a .md (Markdown) or .csv (per-fold scores) file", cf.export)
	}
	if cf.export != "" {
		reads := make([]runs.Read, len(files))
		for i, f := range files {
			reads[i] = runs.Read{Path: f, What: "a part this merge reads"}
		}
		if err := runs.CheckReads(cf.export, reads...); err != nil {
			return usagef("compare: --export %v", err)
		}
	}
	parts := make([]*experiment.Part, len(files))
	for i, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("compare: --merge %w", err)
		}
		parts[i], err = experiment.ReadPart(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("compare: --merge %s: %w", name, err)
		}
	}
	o, err := experiment.Merge(parts, files)
	if err != nil {
		return fmt.Errorf("compare: --merge: %w", err)
	}
	if err := cf.checkMetrics(o.Plan); err != nil {
		return err
	}
	return reportComparison(context.Background(), out, o, cf)
}

// expandParts expands the names with glob characters that name no file
// (a shell that does not, as Windows' cmd) and refuses a pattern that
// matches none.
func expandParts(names []string) ([]string, error) {
	var out []string
	for _, name := range names {
		if _, err := os.Stat(name); err == nil || !strings.ContainsAny(name, "*?[") {
			out = append(out, name)
			continue
		}
		matches, err := filepath.Glob(name)
		if err != nil || len(matches) == 0 {
			return nil, usagef("compare: --merge %s: no such file, and no file matches it", name)
		}
		out = append(out, matches...)
	}
	return out, nil
}

// parseFlagsAndFiles parses the flags as parseFlags does, and keeps the
// arguments among them that are not flags (the part files of --merge, as
// a shell expands part-*.json), wherever they stand.
func parseFlagsAndFiles(fs *flag.FlagSet, args []string, out io.Writer) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, parseFlags(fs, args, out) // says it as every command does; -h prints the help
		}
		if fs.NArg() == 0 {
			return files, nil
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
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

// describeCells is the progress line of an experiment, counting its
// cells ("model run") or a shard's folds ("fold").
func describeCells(p experiment.Progress, noun string) string {
	if p.Done == 0 {
		return fmt.Sprintf("%s to run; the first is under way", numfmt.Count(p.Total, noun))
	}
	s := fmt.Sprintf("%d of %s · %s on %s, repeat %d · %s elapsed", p.Done, numfmt.Count(p.Total, noun),
		p.Model, p.Dataset, p.Repeat, numfmt.Seconds(p.Elapsed.Seconds()))
	if p.Done < p.Total {
		left := p.Elapsed.Seconds() * float64(p.Total-p.Done) / float64(p.Done)
		s += " · about " + numfmt.Seconds(left) + " left"
	}
	return s
}

// parseDataSpec reads a --data of compare (runs.ParseData) as
// tealab train's flags would hold it.
func parseDataSpec(spec string) (dataFlags, error) {
	d, err := runs.ParseData(spec, func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	})
	if err != nil {
		return dataFlags{}, usagef("compare: --data %s: %v", strings.TrimSpace(spec), err)
	}
	rowNames := d.RowNames
	if rowNames == "" {
		rowNames = "auto"
	}
	return dataFlags{source: d.Source, target: d.Target, task: d.Task, format: d.Format, drop: d.Drop, rowNames: rowNames}, nil
}

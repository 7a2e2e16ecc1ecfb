package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
)

// trainFlags are the flags of `tealab train` (and the lab's start-up flags).
type trainFlags struct {
	data   dataFlags
	model  string
	params paramFlag
	eval   evalFlags
	// test is the supplied test set the flags name (--test), once
	// options has read them; "" none.
	test string
	// costs is the cost matrix file the flags name (--costs), once options
	// has read them; "" none.
	costs string
}

func (t *trainFlags) register(fs *flag.FlagSet) {
	t.data.register(fs)
	t.params = paramFlag{}
	fs.StringVar(&t.model, "model", "", "model name ('tealab models' lists them)")
	fs.Var(t.params, "param", "hyperparameter name=value (repeatable)")
	t.eval.register(fs, trainEval)
}

// options checks the evaluation flags against the declared settings and
// turns them into eval.Options (the supplied test set, if any, in t.test,
// to be opened once the data are).
func (t *trainFlags) options() (eval.Options, error) {
	opt, v, err := t.eval.options()
	t.test, t.costs = eval.TestSource(v), eval.CostsSource(v)
	return opt, err
}

// resolve finds the model and parses its parameters; mistakes are usage errors
// that list what is valid.
func (t *trainFlags) resolve(cmd string, task datasets.Task) (*engine.Spec, engine.Values, error) {
	if t.model == "" {
		return nil, nil, usagef("%s: --model is required (valid: %s)", cmd, strings.Join(engine.Names(), ", "))
	}
	spec, err := engine.Lookup(t.model)
	if err != nil {
		return nil, nil, usageError{err.Error()}
	}
	v, err := spec.Parse(t.params)
	if err != nil {
		return nil, nil, usageError{err.Error()}
	}
	if _, ok := spec.RunsOn(task); !ok {
		return nil, nil, usagef("model %s does not do %s (it does %s); %s",
			spec.Name, task, strings.Join(taskNames(spec.Tasks), ", "), modelsFor(task))
	}
	return spec, v, nil
}

// openTest loads the supplied test set (--test), its columns matched to
// d's; nil when none is given. Only a model that learns the target is
// scored on one.
func (t *trainFlags) openTest(cmd string, data runs.Data, d *datasets.Dataset, spec *engine.Spec) (*datasets.Dataset, string, error) {
	if t.test == "" {
		return nil, "", nil
	}
	if task, _ := spec.RunsOn(d.Task); !task.Supervised() {
		return nil, "", usagef("%s: --test scores a classifier or a regressor on rows it did not learn; %s does %s, fitted and scored on every row: leave --test out", cmd, spec.Name, task)
	}
	data.Test = t.test
	test, err := data.OpenTest(d)
	return test, t.test, err
}

// openCosts reads the cost matrix (--costs) for d's classes, in their
// order; nil when none is given. Only a classifier is scored with one.
func (t *trainFlags) openCosts(cmd string, d *datasets.Dataset, spec *engine.Spec) (*metrics.Costs, error) {
	if t.costs == "" {
		return nil, nil
	}
	if task, _ := spec.RunsOn(d.Task); task != datasets.Classification {
		return nil, usagef("%s: --costs scores a classifier's decisions; %s does %s: leave --costs out", cmd, spec.Name, task)
	}
	f, err := os.Open(t.costs)
	if err != nil {
		return nil, fmt.Errorf("costs: %w", err)
	}
	defer f.Close()
	c, err := metrics.ReadCosts(f, d.Classes)
	if err != nil {
		return nil, fmt.Errorf("costs %s: %v", datasets.Printable(t.costs), err)
	}
	c.Source = t.costs
	return c, nil
}

// modelsFor says which models run on data of task: those that learn it,
// then apart those that cluster or reduce any data.
func modelsFor(task datasets.Task) string {
	var own, anyData []string
	for _, s := range engine.Specs() {
		switch _, ok := s.RunsOn(task); {
		case s.Supports(task):
			own = append(own, s.Name)
		case ok:
			anyData = append(anyData, s.Name)
		}
	}
	if len(own) == 0 {
		own = []string{"none yet"}
	}
	msg := fmt.Sprintf("models for %s: %s", task, strings.Join(own, ", "))
	if len(anyData) > 0 {
		msg += "; on any data, clustering or reduction: " + strings.Join(anyData, ", ")
	}
	return msg
}

func runTrain(args []string, out, stderr io.Writer) error {
	fs := newFlags("train")
	var tf trainFlags
	tf.register(fs)
	var of outputFlags
	of.register(fs)
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	opt, err := tf.options()
	if err != nil {
		return err
	}
	if tf.data.source == "" {
		return usagef("train: --data is required (a built-in such as iris, a generator such as moons, or a file)")
	}
	if tf.model == "" {
		return usagef("train: --model is required (valid: %s)", strings.Join(engine.Names(), ", "))
	}
	spec, err := engine.Lookup(tf.model)
	if err != nil {
		return usageError{err.Error()}
	}
	d, err := tf.data.load("train")
	if err != nil {
		return err
	}
	// A target with one value explains why no model fits, except to a
	// clustering or reduction, which learns no target.
	if task, ok := spec.RunsOn(d.Task); !ok || task.Supervised() {
		if err := d.Trainable(); err != nil {
			return err
		}
	}
	spec, v, err := tf.resolve("train", d.Task)
	if err != nil {
		return err
	}
	if task, _ := spec.RunsOn(d.Task); task.Supervised() {
		if _, err := eval.PositiveClass(d, opt.Positive); err != nil {
			return tf.eval.problem(err)
		}
	}
	data := tf.data.choice()
	if opt.Test, data.Test, err = tf.openTest("train", data, d, spec); err != nil {
		return err
	}
	if opt.Costs, err = tf.openCosts("train", d, spec); err != nil {
		return err
	}
	if data.Hash, err = runs.HashData(data, d); err != nil {
		return err
	}
	return of.run(runs.New(1, data, d, spec, v, opt), out, stderr)
}

// outputFlags are what `tealab train` and `tealab run` do with a run:
// print it, save it, record it in the history.
type outputFlags struct {
	cmd                      string // the command, for messages
	asJSON, quiet, noHistory bool
	save, saveModel          string
	predictions              string // --predictions: a CSV of every held-out row's prediction
}

func (o *outputFlags) register(fs *flag.FlagSet) {
	o.cmd = fs.Name()
	fs.BoolVar(&o.asJSON, "json", false, "print the result as JSON")
	fs.StringVar(&o.save, "save", "", "write the result and its recipe as JSON to FILE")
	fs.StringVar(&o.saveModel, "save-model", "", "write the shown model as a model file to FILE, for tealab predict")
	fs.StringVar(&o.predictions, "predictions", "", "write every held-out row's prediction to FILE as CSV: row, fold, actual, predicted, p(class)..., correct (regression: error)")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr (it is drawn only when stderr is a terminal)")
	fs.BoolVar(&o.noHistory, "no-history", false, "leave the run out of the run history (also TEALAB_HISTORY=off)")
}

// run evaluates the record, prints its report, then saves it and records
// it in the history, so that neither a failed save nor a failed history
// loses the report.
func (o *outputFlags) run(rec *runs.Record, out, stderr io.Writer) error {
	spec, d := rec.Spec, rec.Dataset
	collectHarder(d)
	rec.Options.Consume = true // the report needs the results, not the rows
	if o.save != "" {
		if err := runs.CheckTarget(o.save, rec.Inputs()...); err != nil {
			return usagef("%s: --save %v", o.cmd, err)
		}
	}
	if o.saveModel != "" {
		if err := checkSaveModel(o.cmd, o.saveModel, o.save, rec); err != nil {
			return err
		}
	}
	if err := o.checkPredictions(rec); err != nil {
		return err
	}
	var err error
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !o.quiet && isTerminal(stderr) {
		pl := newProgressLine(stderr)
		err = rec.Run(ctx, pl.update)
		pl.done()
	} else {
		err = rec.Run(ctx, nil)
	}
	sayWarnings(rec.Result)
	partial := rec.Status == runs.Cancelled && rec.Result != nil
	if err != nil && !partial {
		if errors.Is(err, context.Canceled) {
			return interruptedf("train: interrupted before anything finished")
		}
		if strings.HasPrefix(err.Error(), spec.Name+" on "+d.Name+":") {
			return err
		}
		if strings.Contains(err.Error(), spec.Name) {
			return fmt.Errorf("%s: %w", d.Name, err)
		}
		return fmt.Errorf("%s on %s: %w", spec.Name, d.Name, err)
	}
	// The report comes first: a save that fails must not lose the run. An
	// interrupted run reports what finished, labelled as partial.
	if o.asJSON {
		err = writeJSON(out, rec)
	} else {
		err = writeReport(out, rec)
	}
	if err != nil {
		return err
	}
	if !o.noHistory {
		recordRun(rec, stderr)
	}
	if o.save != "" {
		if err := runs.Save(o.save, rec); err != nil {
			return fmt.Errorf("--save: %w (the report above is the run's; nothing was saved)", err)
		}
	}
	if o.saveModel != "" {
		if err := saveModelFile(out, stderr, o.saveModel, o.asJSON, rec); err != nil {
			return err
		}
	}
	if err := o.writePredictions(rec); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return interruptedf("train: %s", interruptNote(rec))
	}
	return nil
}

// checkRecipe refuses, before the fit, a --save, --save-model or --predictions that names
// the recipe being replayed, under any spelling or link: the write would
// replace the recipe with the run.
func (o *outputFlags) checkRecipe(recipe string) error {
	for _, f := range []struct{ flag, path string }{{"--save", o.save}, {"--save-model", o.saveModel}, {"--predictions", o.predictions}} {
		if f.path == "" {
			continue
		}
		if err := runs.CheckReads(f.path, runs.Read{Path: recipe, What: "the recipe this run replays"}); err != nil {
			return usagef("%s: %s %v", o.cmd, f.flag, err)
		}
	}
	return nil
}

// recordRun appends the run to the history, unless TEALAB_HISTORY is
// off; a history that cannot be written is one warning on stderr, never
// an error: the run's report is already out.
func recordRun(rec *runs.Record, stderr io.Writer) {
	if !runs.HistoryOn() {
		return
	}
	h, err := runs.OpenHistory()
	if err == nil {
		err = h.Append(runs.NewEntry(rec))
	}
	switch {
	case errors.Is(err, runs.ErrHistoryFull):
		fmt.Fprintln(stderr, "tealab: warning: "+oneLine(err.Error())+" (tealab runs lists them, tealab runs --delete ID deletes one; --no-history skips recording)")
	case err != nil:
		fmt.Fprintln(stderr, "tealab: warning: "+oneLine(err.Error())+" (the run was not recorded; --no-history skips it)")
	}
}

// interruptNote says on stderr what an interrupted run's report covers.
func interruptNote(rec *runs.Record) string {
	if rec.Status != runs.Cancelled { // at most the final refit was cut short
		return "interrupted after every fold was scored; the report above is complete, its warnings say what was cut short"
	}
	switch done, of := rec.FoldsScored(); {
	case done == 0 && (rec.Result == nil || len(rec.Result.History) == 0):
		return rec.Partial() + "; the report above has only the run's settings"
	case done == 0:
		return rec.Partial() + "; the report above has the history so far"
	case of == 1:
		return rec.Partial() + "; the report above is partial"
	case done == 1:
		return rec.Partial() + "; the report above covers it"
	}
	return rec.Partial() + "; the report above covers them"
}

// collectHarder lowers the collector's growth allowance (GOGC) to 10% once
// large data are loaded, unless the user set GOGC. The heap is then mostly
// pointer-free float64 matrices, which the collector marks at no cost, while
// the default allowance (100%) lets a fit's per-step garbage (predictions,
// scores) grow the heap to twice the data before anything is collected:
// logistic regression on 1,000,000 x 20 peaked at 3.1x the raw data instead
// of 2.7x (BENCHMARKS.md). Loading, which makes many small objects, runs
// before this at the default.
func collectHarder(d *datasets.Dataset) {
	r, c := d.X.Dims()
	if os.Getenv("GOGC") != "" || r*c*8 < largeData {
		return
	}
	debug.SetGCPercent(10)
}

// largeData is the raw size of data (bytes) from which collectHarder acts.
const largeData = 16 << 20

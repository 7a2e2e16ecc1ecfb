package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/numfmt"
)

// settingsFlag collects repeated --param settings in the order given (the
// first swept parameter is the outer one of a grid).
type settingsFlag []string

func (s *settingsFlag) String() string { return strings.Join(*s, " ") }

func (s *settingsFlag) Set(v string) error {
	if k, _, ok := strings.Cut(v, "="); !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("--param wants name=value or name=range, got %q", v)
	}
	*s = append(*s, v)
	return nil
}

// tuneFlags are the flags sweep and learning-curve share.
type tuneFlags struct {
	data   dataFlags
	model  string
	params settingsFlag
	eval   evalFlags
	opt    eval.Options // the evaluation, once setup has read the flags
	metric string
	jobs   int
	asJSON bool
	export string
	quiet  bool
}

func (t *tuneFlags) register(fs *flag.FlagSet, paramHelp string) {
	t.data.register(fs)
	fs.StringVar(&t.model, "model", "", "model name ('tealab models' lists them)")
	fs.Var(&t.params, "param", paramHelp)
	t.eval.register(fs, tuneEval)
	fs.StringVar(&t.metric, "metric", "", "score to compare (default: accuracy, or R² for a regression)")
	fs.IntVar(&t.jobs, "jobs", 2, "points evaluated at once (the result does not depend on it)")
	fs.BoolVar(&t.asJSON, "json", false, "print the result as JSON")
	fs.StringVar(&t.export, "export", "", "also write the result to FILE: .md (tables and a text chart) or .csv (every fold's scores)")
	fs.BoolVar(&t.quiet, "quiet", false, "no progress on stderr (it is drawn only when stderr is a terminal)")
}

// setup checks the flags, loads the data and finds the model; fixed are the
// settings that are not ranges (a sweep's ranges come back apart).
func (t *tuneFlags) setup(cmd string) (*datasets.Dataset, *engine.Spec, tune.Options, error) {
	var opt tune.Options
	evalOpt, _, err := t.eval.options()
	if err != nil {
		return nil, nil, opt, err
	}
	if t.jobs < 1 {
		return nil, nil, opt, usagef("%s: --jobs %d is out of range (at least 1)", cmd, t.jobs)
	}
	if t.export != "" && exportFormat(t.export) == "" {
		return nil, nil, opt, usagef("%s: --export %q: name a .md or .csv file", cmd, t.export)
	}
	if t.export != "" {
		if err := runs.CheckTarget(t.export, t.data.source); err != nil {
			return nil, nil, opt, usagef("%s: --export %v", cmd, err)
		}
	}
	if t.model == "" {
		return nil, nil, opt, usagef("%s: --model is required (valid: %s)", cmd, strings.Join(engine.Names(), ", "))
	}
	spec, err := engine.Lookup(t.model)
	if err != nil {
		return nil, nil, opt, usageError{err.Error()}
	}
	d, err := t.data.load(cmd)
	if err != nil {
		return nil, nil, opt, err
	}
	if task, ok := spec.RunsOn(d.Task); !ok || !task.Supervised() {
		return nil, nil, opt, usagef("%s: model %s does not learn the %s target of %s; %s", cmd, spec.Name, d.Task, d.Name, modelsFor(d.Task))
	}
	if err := d.Trainable(); err != nil {
		return nil, nil, opt, err
	}
	if _, err := eval.PositiveClass(d, evalOpt.Positive); err != nil {
		return nil, nil, opt, t.eval.problem(err)
	}
	t.opt = evalOpt
	opt = tune.Options{Eval: evalOpt, Metric: t.metric, Jobs: t.jobs}
	return d, spec, opt, nil
}

// split reads the --param settings: ranges of more than one value are
// axes, the rest fixed values.
func (t *tuneFlags) split(cmd string, spec *engine.Spec) (engine.Values, []tune.Axis, error) {
	fixed := map[string]string{}
	var axes []tune.Axis
	for _, s := range t.params {
		a, err := tune.ParseAxis(spec, s)
		if err != nil {
			return nil, nil, usagef("%s: --param %v", cmd, err)
		}
		if len(a.Values) > 1 {
			axes = append(axes, a)
			continue
		}
		fixed[a.Param.Name] = engine.Format(a.Values[0])
	}
	base, err := spec.Parse(fixed)
	if err != nil {
		return nil, nil, usageError{err.Error()}
	}
	return base, axes, nil
}

func runSweep(args []string, out, stderr io.Writer) error {
	fs := newFlags("sweep")
	var tf tuneFlags
	tf.register(fs, "name=range to sweep (k=1..50, C=1e-3..1e3:7, k=log:1..100:10, metric=l1,l2) or name=value to fix (repeatable; a range of a text that takes a number mixes names and ranges: gamma=scale,auto,0.01..10:7; three ranges or more are best drawn with --random)")
	random := fs.Int("random", 0, "draw N settings from the ranges instead of the whole grid")
	nested := fs.Int("nested", 0, "also score the whole search by nested cross-validation: K outer folds, each running the search on its training part alone and scoring the pick on its held-out part (0: none)")
	pick := fs.String("pick", tune.PickBest, "the rule that picks the point: best (the best mean validation score, as GridSearchCV) or 1se (the simplest point within one standard error of the best, simpler as each parameter's spec says)")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	if *random < 0 {
		return usagef("sweep: --random %d is out of range (a number of draws, 0 for the grid)", *random)
	}
	if *nested == 1 || *nested < 0 {
		return usagef("sweep: --nested %d is out of range (outer folds, at least 2; 0 for none)", *nested)
	}
	d, spec, opt, err := tf.setup("sweep")
	if err != nil {
		return err
	}
	base, axes, err := tf.split("sweep", spec)
	if err != nil {
		return err
	}
	switch {
	case len(axes) == 0:
		return usagef("sweep: no --param gives a range to sweep (e.g. --param 'k=1..50'; valid: %s)", strings.Join(spec.ParamNames(), ", "))
	}
	if err := tune.CheckAxes(axes, *random); err != nil {
		return usagef("sweep: %v (--random N)", err)
	}
	if err := tune.CheckPick(axes, *pick); err != nil {
		return usagef("sweep: --pick %v", err)
	}
	opt.Random, opt.Pick = *random, *pick
	if *nested > 0 && tf.opt.Test != nil {
		return usagef("sweep: --nested scores the outer folds' held-out rows; it takes no --test set")
	}
	return tf.finish("sweep", out, stderr, d, func(ctx context.Context, progress func(int, tune.Point)) (*tune.Result, error) {
		res, err := tune.Search(ctx, d, spec, base, axes, opt, progress)
		if err != nil || *nested == 0 {
			return res, err
		}
		var hear func(int, int, tune.Point)
		if progress != nil {
			hear = func(_, i int, p tune.Point) { progress(i, p) }
		}
		n, err := tune.Nested(ctx, d, spec, base, axes, opt, *nested, hear)
		if n != nil {
			res.Nested = n
			res.Cancelled = res.Cancelled || n.Cancelled
		}
		if err != nil && n != nil && !n.Cancelled && n.Scored() > 0 {
			err = nil // the folds that failed say why in the table
		}
		return res, err
	})
}

func runLearningCurve(args []string, out, stderr io.Writer) error {
	fs := newFlags("learning-curve")
	var tf tuneFlags
	tf.register(fs, "hyperparameter name=value (repeatable)")
	sizes := fs.String("sizes", "", "fractions of each training part to train on, e.g. 0.1,0.3,1 (default 0.1,0.25,0.4,0.55,0.7,0.85,1)")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	fractions, err := parseSizes(*sizes)
	if err != nil {
		return err
	}
	d, spec, opt, err := tf.setup("learning-curve")
	if err != nil {
		return err
	}
	v, axes, err := tf.split("learning-curve", spec)
	if err != nil {
		return err
	}
	if len(axes) > 0 {
		return usagef("learning-curve: --param %s gives a range; give one value (tealab sweep sweeps it)", axes[0].Param.Name)
	}
	return tf.finish("learning-curve", out, stderr, d, func(ctx context.Context, progress func(int, tune.Point)) (*tune.Result, error) {
		return tune.LearningCurve(ctx, d, spec, v, fractions, opt, progress)
	})
}

func parseSizes(text string) ([]float64, error) {
	if text == "" {
		return nil, nil
	}
	var out []float64
	for _, part := range strings.Split(text, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || !(f > 0 && f <= 1) {
			return nil, usagef("learning-curve: --sizes %q: %q is not a fraction above 0 and at most 1", text, part)
		}
		out = append(out, f)
	}
	return out, nil
}

// finish runs the search with progress on a terminal and ctrl+c keeping
// what finished, then reports and exports it.
func (t *tuneFlags) finish(cmd string, out, stderr io.Writer, d *datasets.Dataset, search func(context.Context, func(int, tune.Point)) (*tune.Result, error)) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var progress func(int, tune.Point)
	var pl *progressLine
	if !t.quiet && isTerminal(stderr) {
		pl = newProgressLine(stderr)
		start, done := time.Now(), 0
		progress = func(_ int, p tune.Point) {
			done++
			pl.say(fmt.Sprintf("%s · %s done · %s elapsed", cmd, numfmt.Count(done, "point"), numfmt.Seconds(time.Since(start).Seconds())))
		}
	}
	res, err := search(ctx, progress)
	if pl != nil {
		pl.done()
	}
	if res == nil {
		if errors.Is(err, engine.ErrLimit) {
			return err
		}
		return usageError{fmt.Sprintf("%s: %v", cmd, err)}
	}
	if err != nil && !res.Cancelled {
		return fmt.Errorf("%s on %s: %w", res.Model, res.Dataset, err)
	}
	again := t.command(cmd, res)
	if t.asJSON {
		err = writeJSON(out, tuneJSON(res, again))
	} else {
		err = writeTune(out, res, again)
	}
	if err != nil {
		return err
	}
	if t.export != "" {
		if err := exportTune(t.export, res, again); err != nil {
			return fmt.Errorf("--export: %w (the report above is complete; nothing was written)", err)
		}
	}
	if res.Cancelled {
		return interruptedf("%s: interrupted after %d of %d points; the report above covers them", cmd, res.Finished(), len(res.Points))
	}
	return nil
}

// command is the `tealab train` line that runs the best point in full.
func (t *tuneFlags) command(cmd string, res *tune.Result) string {
	best, ok := res.BestPoint()
	if !ok {
		return ""
	}
	rec := runs.Record{Data: t.data.choice(), Model: res.Model, Params: best.Params, Options: t.opt}
	return rec.Command()
}

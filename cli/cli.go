// Package cli is tealab's command line: the sub-commands, their flags, and
// the readable and JSON reports. It is the wiring between datasets, engine
// and tui, kept out of package main so that every command, exit status and
// message can be tested in-process.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	_ "github.com/tealab/tealab/engine/models" // registers every model family
	"github.com/tealab/tealab/engine/runs"
)

// Exit statuses. An interrupted command exits as a shell reports a
// process killed by SIGINT (128 + 2).
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// usageError marks a mistake in how tealab was called; it exits 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// interruptedError ends a command stopped by ctrl+c; it exits 130.
type interruptedError struct{ msg string }

func (e interruptedError) Error() string { return e.msg }

func interruptedf(format string, a ...any) error {
	return interruptedError{fmt.Sprintf(format, a...)}
}

// command is one sub-command. It prints its results on out; stderr is for
// what is not a result (progress on a terminal).
type command struct {
	name, synopsis, help string
	run                  func(args []string, out, stderr io.Writer) error
}

// toOut adapts a command that only prints results.
func toOut(run func(args []string, out io.Writer) error) func(args []string, out, stderr io.Writer) error {
	return func(args []string, out, _ io.Writer) error { return run(args, out) }
}

func commands() []command {
	return []command{
		{"datasets", "tealab datasets [--json]", "list the built-in datasets and the synthetic generators", toOut(runDatasets)},
		{"models", "tealab models [NAME...] [--json]", "list every model (or the ones named, each parameter explained in full) with its hyperparameters, defaults and ranges", toOut(runModels)},
		{"describe", "tealab describe --data SOURCE [--format F] [--target COL] [--task T] [--drop COLS] [--row-names no] [--json]", "columns, kinds, missing counts, class balance or target summary", toOut(runDescribe)},
		{"bench", "tealab bench --data-dir DIR [--case a,b] [--json]", "time the performance cases of bench/cases.tsv, as bench/sklearn_ref.py does", toOut(runBench)},
		{"compare", "tealab compare --data SOURCE[:target=COL,drop=COLS,...] [--data ...]... --model NAME[:k=v,...] --model ... [--cv K] [--repeat R] [--seed N] [--baseline NAME] [--metric M,...] [--jobs N] [--json] [--export FILE.md|FILE.csv] [--predictions FILE.csv] [--quiet] [--shard I/N --out PART.json] | --merge PART.json... [--metric M,...] [--json] [--export FILE.md|FILE.csv]", "several models on identical folds of repeated k-fold CV: mean ± std, t-test marks against a baseline, ranks over datasets", runCompare},
		{"predict", "tealab predict --model-file FILE --data SOURCE [--format F] [--json | --csv] [--proba] [--keep COLS] [--score] [--out FILE]", "apply a saved model file to new rows: columns matched by name, others passed through; --score scores it against the target", runPredict},
		{"train", "tealab train --data SOURCE --model NAME [--param k=v]... [--target COL] [--task T] [--drop COLS] [--row-names no] [--split F | --cv K | --loo | --test SOURCE] [--seed N] [--impute S [--impute-value V]] [--missing-indicator yes] [--scale S] [--discretize S [--bins K]] [--encode S] [--lift K] [--reduce K] [--positive CLASS] [--costs FILE] [--json] [--save FILE] [--save-model FILE] [--predictions FILE.csv] [--quiet] [--no-history]", "fit and evaluate a model, print a report", runTrain},
		{"runs", "tealab runs [--filter TEXT] [--json] [--recipe ID | --export ID [--format md|csv] | --star ID | --unstar ID | --rename ID=NAME | --delete ID]", "list the run history, or print, export, star, rename or delete one run", toOut(runRuns)},
		{"run", "tealab run RECIPE [--json] [--save FILE] [--save-model FILE] [--predictions FILE.csv] [--quiet] [--no-history]", "replay a recipe or a saved run: same data, model, folds and seed, same metrics", runRun},
		{"sweep", "tealab sweep --data SOURCE --model NAME --param 'k=1..50' [--param 'metric=l1,l2']... [--cv K] [--random N] [--pick best|1se] [--nested K] [--metric M] [--jobs N] [--seed N] [--impute S] [--missing-indicator yes] [--scale S] [--discretize S] [--encode S] [--lift K] [--positive CLASS] [--json] [--export FILE.md|FILE.csv]", "cross-validate a grid (or random draws) of hyperparameters: the validation curve, the point picked (the best, or the simplest within one standard error), and with --nested the score of the whole tuning by nested CV", runSweep},
		{"serve", "tealab serve --authorized-keys FILE [--listen 127.0.0.1:2222] [--host-key FILE] [--data-dir DIR] [--state-dir DIR] [--max-sessions N] [--max-training N] [--idle-timeout D]", "serve the lab over SSH: a lab of its own for each listed public key", runServe},
		{"rank", "tealab rank --data SOURCE [--format F] [--target COL] [--task T] [--drop COLS] [--row-names no] [--method info_gain,gain_ratio,chi2,mutual_info,relieff,permutation] [--model NAME [--param k=v]... [--repeats N] [--split F | --cv K | --loo | --test SOURCE] [--seed N] [--scale S] [--impute S] [--discretize S] [--encode S] [--lift K] [--reduce K] [--positive CLASS]] [--top N] [--json] [--quiet]", "rank the features: information gain, gain ratio, chi-squared and ReliefF as Weka's, mutual information as scikit-learn's, a model's permutation importance on held-out rows", runRank},
		{"learning-curve", "tealab learning-curve --data SOURCE --model NAME [--param k=v]... [--cv K] [--sizes 0.1,0.3,1] [--metric M] [--jobs N] [--seed N] [--impute S] [--missing-indicator yes] [--scale S] [--discretize S] [--encode S] [--lift K] [--positive CLASS] [--json] [--export FILE.md|FILE.csv]", "training and validation score against the size of the training part", runLearningCurve},
		{"lab", "tealab lab [NAME [--KNOB VALUE]... [--json] [--export FILE.md] [--quiet] [--no-history]]", "the lectures' experiments: gradient descent on contours, bias and variance, regularisation paths, double descent, Hoeffding's bound, dichotomies, the kernel trick (no NAME: list them)", runLecture},
		{"version", "tealab version", "print tealab's version and the commit it was built from (also tealab --version)", toOut(runVersion)},
	}
}

// Main runs tealab with the given arguments and returns the exit status.
// Every error is printed as one line on stderr.
func Main(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintln(stderr, "tealab: internal error: "+oneLine(fmt.Sprint(r))+" (please report it)")
			status = exitError
		}
	}()
	err := dispatch(args, stdout, stderr)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintln(stderr, "tealab: "+oneLine(advice.Explain(err, remedyText)))
	var ue usageError
	var ie interruptedError
	switch {
	case errors.As(err, &ue) || errors.Is(err, engine.ErrLimit):
		return exitUsage
	case errors.As(err, &ie):
		return exitInterrupted
	}
	return exitError
}

func dispatch(args []string, out, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return runLab(args, out, stderr)
	}
	if args[0] == "help" {
		return runHelp(args[1:], out)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], out, stderr)
		}
	}
	return usagef("unknown command %q (valid: %s, help)", args[0], strings.Join(commandNames(), ", "))
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

func runHelp(args []string, out io.Writer) error {
	if len(args) > 0 {
		if args[0] == "tealab" {
			return runLab([]string{"-h"}, out, io.Discard)
		}
		for _, c := range commands() {
			if c.name == args[0] {
				help := []string{"-h"}
				if c.name == "lab" && len(args) > 1 { // `help lab gd`: an experiment's knobs
					help = []string{args[1], "-h"}
				}
				return c.run(help, out, io.Discard)
			}
		}
		return usagef("no help for %q (valid: tealab, %s)", args[0], strings.Join(commandNames(), ", "))
	}
	fmt.Fprint(out, `tealab — a machine-learning lab for the terminal

usage:
  tealab [--data SOURCE] [--model NAME] [--param k=v]... [--train]   open the lab
  tealab --recipe FILE                                               open the lab and train a recipe again
  tealab --version                                                   print the version and the commit it was built from
`)
	for _, c := range commands() {
		fmt.Fprintf(out, "  %-66s %s\n", strings.SplitN(c.synopsis, " [", 2)[0]+" ...", c.help)
	}
	fmt.Fprint(out, `
SOURCE is a built-in dataset (iris, wine, breast_cancer, digits, diabetes), a generator
with optional knobs (moons, moons:n=500,noise=0.3,seed=7), or a .csv/.tsv/.arff file,
optionally gzipped. 'tealab help COMMAND' shows a command's flags ('tealab help tealab' the lab's).
Exit status: 0 success, 2 usage error (or a choice these data do not allow), 130 interrupted
by ctrl+c (after the report of what finished), 1 any other error.
`)
	return nil
}

// runVersion prints the version line: the module version, and the commit
// the build was stamped with.
func runVersion(args []string, out io.Writer) error {
	if err := parseFlags(newFlags("version"), args, out); err != nil {
		return err
	}
	_, err := fmt.Fprintln(out, runs.ThisBuild)
	return err
}

// newFlags makes a flag set that reports errors instead of printing them.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses and turns flag errors into usage errors naming the
// command. -h prints the command's synopsis and flags to out.
func parseFlags(fs *flag.FlagSet, args []string, out io.Writer) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			if fs.Name() == "tealab" {
				_ = runHelp(nil, out)
				fmt.Fprintln(out, "\nlab flags:")
			}
			for _, c := range commands() {
				if c.name == fs.Name() {
					fmt.Fprintf(out, "usage: %s\n\n%s\n\nflags:\n", c.synopsis, c.help)
				}
			}
			fs.SetOutput(out)
			fs.PrintDefaults()
			return err
		}
		if fs.Name() == "tealab" { // the lab's own flags: Main already says "tealab: "
			return usagef("%v (see 'tealab help')", err)
		}
		return usagef("%s: %v (see 'tealab help %s')", fs.Name(), err, fs.Name())
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q (see 'tealab help %s')", fs.Name(), fs.Arg(0), fs.Name())
	}
	return nil
}

// paramFlag collects repeated --param k=v settings.
type paramFlag map[string]string

func (p paramFlag) String() string { return fmt.Sprint(map[string]string(p)) }

func (p paramFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return fmt.Errorf("--param wants name=value, got %q", s)
	}
	p[k] = v
	return nil
}

// dataFlags are the flags that choose a dataset.
type dataFlags struct {
	source, target, task, format string
	drop                         listFlag
	rowNames                     string
}

func (d *dataFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.source, "data", "", "dataset: built-in name, generator[:knobs], file path, or - for standard input")
	fs.StringVar(&d.format, "format", "", "file format when the name does not tell: csv, tsv or arff (standard input is read as delimited text unless it starts like ARFF)")
	fs.StringVar(&d.target, "target", "", "target column (default: the last column; '-' for none)")
	fs.StringVar(&d.task, "task", "", "classification, regression, clustering or reduction (default: inferred from the target)")
	fs.Var(&d.drop, "drop", "columns to leave out, e.g. id,name (repeatable)")
	fs.StringVar(&d.rowNames, "row-names", "auto", "a file's unnamed first column of distinct values (as R's write.csv and pandas' to_csv write): auto reads it as row names, no as a feature named "+datasets.RowNamesColumn)
}

// choice is the data as the flags chose it.
func (d *dataFlags) choice() runs.Data {
	rowNames, _ := runs.ParseRowNames(d.rowNames) // load checks it
	return runs.Data{Source: d.source, Target: d.target, Task: d.task, Drop: d.drop, Format: d.format, RowNames: rowNames}
}

// load opens the source, drops columns, and chooses the target and task.
func (d *dataFlags) load(cmd string) (*datasets.Dataset, error) {
	if d.source == "" {
		return nil, usagef("%s: --data is required (a built-in such as iris, a generator such as moons, or a file)", cmd)
	}
	if d.task != "" {
		if _, err := datasets.ParseTask(d.task); err != nil {
			return nil, usageError{err.Error()}
		}
	}
	if d.format != "" && !slices.Contains(datasets.Formats, d.format) {
		return nil, usagef("%s: --format %q: use one of %s", cmd, d.format, strings.Join(datasets.Formats, ", "))
	}
	if _, err := runs.ParseRowNames(d.rowNames); err != nil {
		return nil, usagef("%s: --row-names %v", cmd, err)
	}
	return d.choice().Open()
}

// listFlag collects comma-separated names from repeated flags.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			*l = append(*l, name)
		}
	}
	return nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

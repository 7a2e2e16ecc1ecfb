package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui"
)

// runLab opens the interactive lab, optionally on a dataset and model given
// by the same flags as `tealab train`.
func runLab(args []string, out, stderr io.Writer) error {
	fs := newFlags("tealab")
	var tf trainFlags
	tf.register(fs)
	train := fs.Bool("train", false, "start training at once (needs --data and --model)")
	theme := fs.String("theme", "", "colour theme: dark, light, high-contrast or mono")
	recipe := fs.String("recipe", "", "open the lab on a recipe (or a saved run) and train it again, as tealab run does")
	version := fs.Bool("version", false, "print the version and the commit tealab was built from, and exit")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	if *version {
		return runVersion(nil, out)
	}
	if *recipe != "" {
		return labRecipe(fs, *recipe, *theme, stderr)
	}
	opt, err := tf.options()
	if err != nil {
		return err
	}
	if _, ok := themes.ByName(*theme); *theme != "" && !ok {
		return usagef("unknown theme %q (valid: %s)", *theme, strings.Join(themes.Names(), ", "))
	}
	if strings.TrimSpace(tf.data.source) == datasets.Stdin {
		return usagef("the lab reads its keys from standard input, so it cannot read data there too: save the data to a file, or use tealab train or describe with --data -")
	}
	if rn, err := runs.ParseRowNames(tf.data.rowNames); err != nil || rn != "" {
		return usagef("--row-names is for tealab train and describe; in the lab, name the file's first column in its header to read it as a feature")
	}
	if tf.data.format != "" {
		return usagef("--format is for tealab train and describe; the lab tells a file's format by its name and bytes")
	}
	if *train && (tf.data.source == "" || tf.model == "") {
		return usagef("--train needs --data and --model")
	}
	if tf.test != "" && tf.data.source == "" {
		return usagef("--test needs --data: the test set's columns are matched to the data's")
	}
	if tf.costs != "" && (tf.data.source == "" || tf.model == "") {
		return usagef("--costs needs --data and --model: the cost matrix is read for the data's classes, for a classifier")
	}
	var params engine.Values // parsed here, once; the lab takes them typed
	if tf.model != "" {
		// Check the model and its parameters before the screen takes over.
		// Without --data the lab opens on the data screen and goes to the
		// model's parameters once the data are chosen.
		if tf.data.source == "" {
			spec, err := engine.Lookup(tf.model)
			if err != nil {
				return usageError{err.Error()}
			}
			if params, err = spec.Parse(tf.params); err != nil {
				return usageError{err.Error()}
			}
		} else {
			d, err := tf.data.load("tealab")
			if err != nil {
				return err
			}
			var spec *engine.Spec
			if spec, params, err = tf.resolve("tealab", d.Task); err != nil {
				return err
			}
			if _, _, err := tf.openTest("tealab", tf.data.choice(), d, spec); err != nil {
				return err
			}
			if opt.Costs, err = tf.openCosts("tealab", d, spec); err != nil {
				return err
			}
		}
	}
	return tui.Run(tui.Options{Data: tf.data.source, Target: tf.data.target, Model: tf.model, Params: params,
		Train: *train, Eval: &opt, Task: tf.data.task, Drop: tf.data.drop, Test: tf.test, Theme: *theme})
}

// labRecipe opens the lab on a recipe and trains it. Data that changed
// since the recipe was written are said on stderr, which shows again when
// the lab closes.
func labRecipe(fs *flag.FlagSet, file, theme string, stderr io.Writer) error {
	others := ""
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "recipe" && f.Name != "theme" {
			others = f.Name
		}
	})
	if others != "" {
		return usagef("--recipe sets the data, model and evaluation: leave out --%s (or use tealab train)", others)
	}
	rc, err := runs.Load(file)
	if err != nil {
		return err
	}
	if rc.Data.Format != "" || rc.Data.RowNames != "" || strings.TrimSpace(rc.Data.Source) == datasets.Stdin {
		return usagef("%s reads its data with --format, --row-names or from standard input, which the lab does not: replay it with tealab run %s", file, file)
	}
	again, changed, err := rc.Again(1)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if changed != "" {
		fmt.Fprintln(stderr, "tealab: warning: "+changed)
	}
	o := tui.ReplayOptions(again)
	o.Theme = theme
	return tui.Run(o)
}

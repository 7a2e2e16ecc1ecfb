package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/modelfile"
	"github.com/tealab/tealab/engine/runs"
)

// checkSaveModel refuses, before the fit, a --save-model that could not be
// written: a target that is an input or not writable, the --save file, or
// a model that cannot be saved.
func checkSaveModel(path, save string, spec *engine.Spec, v engine.Values, task datasets.Task, inputs []string) error {
	if err := runs.CheckTarget(path, inputs...); err != nil {
		return usagef("train: --save-model %v", err)
	}
	if save != "" && sameFile(path, save) {
		return usagef("train: --save-model and --save name the same file %s; give each its own", path)
	}
	m, err := spec.New(v)
	if err != nil {
		return err
	}
	runsAs, _ := spec.RunsOn(task)
	if err := modelfile.Savable(spec, m, runsAs.String()); err != nil {
		return usagef("train: --save-model: %v; leave out --save-model, or use --save to keep the run", err)
	}
	return nil
}

// sameFile says whether a and b name one file (or one new name).
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, _ := filepath.Abs(a)
	absB, _ := filepath.Abs(b)
	return absA == absB
}

// saveModelFile writes the run's shown model after the report, and says
// where and on which rows it was fitted (on stderr beside --json, whose
// standard output is one JSON object).
func saveModelFile(out, stderr io.Writer, path string, asJSON bool, rec *runs.Record) error {
	if rec.Status == runs.Cancelled {
		fmt.Fprintf(stderr, "--save-model: the run was interrupted; no model file was written\n")
		return nil
	}
	res := rec.Result
	if err := modelfile.WriteFile(path, res, rec.Dataset, rec.Spec, rec.Params, rec.Inputs()...); err != nil {
		return fmt.Errorf("--save-model: %w (the report above is the run's; no model file was written)", err)
	}
	note := out
	if asJSON {
		note = stderr
	}
	fmt.Fprintf(note, "model saved to %s: fitted on %s\n", path, res.FittedOn)
	return nil
}

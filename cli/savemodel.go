package cli

import (
	"fmt"
	"io"

	"github.com/tealab/tealab/engine/modelfile"
	"github.com/tealab/tealab/engine/runs"
)

// checkSaveModel refuses, before the fit, a --save-model that could not be
// written: a target that is an input or not writable, the --save file, or
// a model that cannot be saved.
func checkSaveModel(cmd, path, save string, rec *runs.Record) error {
	reads := make([]runs.Read, 0, 3)
	for _, in := range rec.Inputs() {
		reads = append(reads, runs.Read{Path: in})
	}
	if save != "" {
		reads = append(reads, runs.Read{Path: save, What: "also the --save file"})
	}
	if err := runs.CheckReads(path, reads...); err != nil {
		return usagef("%s: --save-model %v", cmd, err)
	}
	m, err := rec.Spec.New(rec.Params)
	if err != nil {
		return err
	}
	runsAs, _ := rec.Spec.RunsOn(rec.Dataset.Task)
	if err := modelfile.Savable(rec.Spec, m, runsAs.String()); err != nil {
		return usagef("%s: --save-model: %v; leave out --save-model, or use --save to keep the run", cmd, err)
	}
	return nil
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

package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/report"
)

// runRuns lists the run history, or acts on one run of it: prints its
// recipe or a report, stars, renames or deletes it.
func runRuns(args []string, out io.Writer) error {
	fs := newFlags("runs")
	asJSON := fs.Bool("json", false, "print the runs as a JSON list of the history's entries")
	filter := fs.String("filter", "", "only the runs whose id, name, star, data, model, parameters or status contain every word")
	recipe := fs.String("recipe", "", "print the recipe of run ID (for tealab run)")
	export := fs.String("export", "", "print run ID as a report (--format)")
	format := fs.String("format", "md", "the report of --export: md (Markdown: tables and a text chart) or csv (fold,metric,value)")
	star := fs.String("star", "", "star run ID")
	unstar := fs.String("unstar", "", "take the star off run ID")
	rename := fs.String("rename", "", "name a run: ID=NAME (ID= drops the name)")
	del := fs.String("delete", "", "delete run ID from the history")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	if *format != "md" && *format != "csv" {
		return usagef("runs: --format %q: use md or csv", *format)
	}
	h, err := runs.OpenHistory()
	if err != nil {
		return err
	}
	entries, skipped, err := h.Read()
	if err != nil {
		return err
	}
	find := func(id string) (*runs.Entry, error) {
		e, err := runs.Find(entries, id)
		if errors.Is(err, runs.ErrNoRun) {
			return nil, usageError{err.Error()}
		}
		return e, err
	}
	switch {
	case *recipe != "":
		e, err := find(*recipe)
		if err != nil {
			return err
		}
		if e.Lab != nil { // an experiment's recipe is the command that repeats it
			_, err := fmt.Fprintln(out, report.LectureCommand(e.Lab))
			return err
		}
		b, err := runs.RecipeJSON(e.Run)
		if err != nil {
			return err
		}
		_, err = out.Write(b)
		return err
	case *export != "":
		e, err := find(*export)
		if err != nil {
			return err
		}
		if e.Lab != nil {
			if *format == "csv" {
				return usagef("runs: --export %s is an experiment (tealab lab %s): it exports as md only", *export, e.Lab.Experiment)
			}
			return report.LectureMarkdown(out, e.Lab, e.Name)
		}
		if *format == "csv" {
			return report.RunCSV(out, e.Run)
		}
		return report.RunMarkdown(out, e)
	case *star != "" || *unstar != "" || *rename != "" || *del != "":
		return editRun(h, entries, find, *star, *unstar, *rename, *del, out)
	}
	short := runs.ShortIDs(entries) // unique among all the runs, not only those shown
	entries = runs.Filter(entries, *filter)
	if *asJSON {
		return writeJSON(out, append([]*runs.Entry{}, entries...))
	}
	writeRuns(out, entries, short, h.Path(), *filter)
	if skipped > 0 {
		fmt.Fprintf(out, "(skipped %s of %s that could not be read: a run cut short by a crash, or an edit by hand)\n",
			numfmt.Count(skipped, "line"), h.Path())
	}
	return nil
}

// editRun stars, unstars, renames or deletes one run.
func editRun(h *runs.History, entries []*runs.Entry, find func(string) (*runs.Entry, error), star, unstar, rename, del string, out io.Writer) error {
	id, name, isRename := strings.Cut(rename, "=")
	for _, x := range []string{star, unstar, del} {
		if x != "" {
			id = x
		}
	}
	if rename != "" && !isRename {
		return usagef("runs: --rename wants ID=NAME, got %q", rename)
	}
	e, err := find(id)
	if err != nil {
		return err
	}
	switch {
	case star != "":
		err = h.Star(e.ID, true)
	case unstar != "":
		err = h.Star(e.ID, false)
	case rename != "":
		err = h.Rename(e.ID, name)
	default:
		err = h.Delete(e.ID)
	}
	if err == nil {
		fmt.Fprintf(out, "run %s: done\n", runs.ShortIDs(entries)[e.ID])
	}
	return err
}

// writeRuns prints the runs as a table, newest last.
// Ids are shown by their short form (short, runs.ShortIDs).
func writeRuns(out io.Writer, entries []*runs.Entry, short map[string]string, path, filter string) {
	if len(entries) == 0 && filter != "" {
		fmt.Fprintf(out, "no run in %s matches %q\n", path, filter)
		return
	}
	if len(entries) == 0 {
		fmt.Fprintf(out, "no runs in %s yet: tealab train and the lab record each run there\n", path)
		return
	}
	rows := [][]string{{"id", "★", "date", "data", "model", "parameters", "evaluation", "score", "name"}}
	for _, e := range entries {
		mark := ""
		if e.Star {
			mark = "★"
		}
		if l := e.Lab; l != nil {
			rows = append(rows, []string{short[e.ID], mark, e.Time.Local().Format("2006-01-02 15:04"), "", "lab " + l.Experiment,
				trunc(l.ArgsText(), 30), "experiment", string(l.Status), e.Name})
			continue
		}
		r := e.Run
		ev := ""
		if r.Result != nil {
			ev = r.Result.Eval
		}
		rows = append(rows, []string{short[e.ID], mark, e.Time.Local().Format("2006-01-02 15:04"), trunc(r.Data.Source, 24), r.Model,
			trunc(changedParams(r), 30), ev, scoreText(r), e.Name})
	}
	writeTable(out, rows)
}

// changedParams lists the parameters set away from their defaults.
func changedParams(r *runs.Record) string {
	if p := r.ChangedParams(); len(p) > 0 {
		return strings.Join(p, " ")
	}
	return "defaults"
}

// scoreText is the run's primary metric, or its status when it has none.
func scoreText(r *runs.Record) string {
	if r.Result == nil {
		return string(r.Status)
	}
	name := metrics.Primary(r.Task(), r.Result.Metrics)
	v, ok := r.Result.Metrics[name]
	if !ok || math.IsNaN(v) {
		return string(r.Status)
	}
	return metrics.Lookup(name).Short + " " + numfmt.Score(v)
}

// runRun replays a recipe: a saved run (tealab train --save) or a recipe
// (tealab runs --recipe, the lab's w key), with the same data, model,
// parameters, folds and seed.
func runRun(args []string, out, stderr io.Writer) error {
	fs := newFlags("run")
	var of outputFlags
	of.register(fs)
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	if file == "" {
		return usagef("run: give the recipe file: tealab run RECIPE (a file tealab train --save or tealab runs --recipe wrote)")
	}
	if err := of.checkRecipe(file); err != nil {
		return err
	}
	rc, err := runs.Load(file)
	if err != nil {
		return err
	}
	rec, changed, err := rc.Again(1)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if changed != "" {
		fmt.Fprintln(stderr, "tealab: warning: "+changed)
	}
	return of.run(rec, out, stderr)
}

package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/report"
)

// runLecture runs one of the lectures' experiments headless: `tealab lab
// NAME --knob value...`, its knobs the experiment's (engine/lecture), its
// report the picture and key numbers the lab draws, or --json. With no
// name it lists the experiments.
func runLecture(args []string, out, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fs := newFlags("lab")
		asJSON := fs.Bool("json", false, "list the experiments and their knobs as JSON")
		if err := parseFlags(fs, args, out); err != nil {
			return err
		}
		return listLectures(out, *asJSON)
	}
	e, err := lecture.Lookup(args[0])
	if err != nil {
		return usageError{err.Error()}
	}
	fs := newFlags("lab")
	knobOf := map[string]string{} // flag → knob
	for _, p := range e.Knobs {
		fs.String(flagName(p.Name), "", knobUsage(p))
		knobOf[flagName(p.Name)] = p.Name
	}
	asJSON := fs.Bool("json", false, "print the result as JSON")
	export := fs.String("export", "", "also write the experiment as Markdown (its knobs, numbers and picture) to FILE.md")
	quiet := fs.Bool("quiet", false, "no progress line on stderr")
	noHistory := fs.Bool("no-history", false, "leave the experiment out of the run history (also TEALAB_HISTORY=off)")
	if err := parseFlags(fs, args[1:], out); err != nil {
		return err
	}
	settings := map[string]string{}
	fs.Visit(func(f *flag.Flag) { // the knobs given; the others keep their defaults
		if knob, ok := knobOf[f.Name]; ok {
			settings[knob] = f.Value.String()
		}
	})
	v, err := e.Parse(settings)
	if err != nil {
		return usagef("lab %s: %v", e.Name, err)
	}
	if *export != "" {
		var inputs []string
		if e.Data != "" {
			inputs = append(inputs, v.String(e.Data))
		}
		if err := runs.CheckTarget(*export, inputs...); err != nil {
			return usagef("lab %s: --export %v", e.Name, err)
		}
	}
	in := lecture.In{Values: v}
	if e.Data != "" {
		if in.Data, err = openLectureData(e, v.String(e.Data)); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var show func(lecture.Frame)
	if !*quiet && isTerminal(stderr) {
		pl := newProgressLine(stderr)
		defer pl.done()
		show = func(f lecture.Frame) {
			if f.Total > 0 {
				pl.say(fmt.Sprintf("%s: %d of %d", e.Name, f.Done, f.Total))
			}
		}
	}
	rec := lecture.Start(ctx, e, in, show)
	if rec.Status == lecture.Failed {
		return fmt.Errorf("lab %s: %w", e.Name, rec.Err)
	}
	if *asJSON {
		err = writeJSON(out, lectureJSON(e, rec))
	} else {
		err = writeLecture(out, e, rec)
	}
	if err != nil {
		return err
	}
	if !*noHistory {
		recordLecture(rec, stderr)
	}
	if *export != "" {
		var b bytes.Buffer
		if err := report.LectureMarkdown(&b, rec, ""); err != nil {
			return err
		}
		if err := runs.WriteFile(*export, b.Bytes()); err != nil {
			return fmt.Errorf("lab %s: --export: %w", e.Name, err)
		}
	}
	if rec.Status == lecture.Cancelled {
		return interruptedf("lab %s: interrupted; what was computed so far is above", e.Name)
	}
	return nil
}

// flagName is a knob's flag: its name with dashes for underscores.
func flagName(knob string) string { return strings.ReplaceAll(knob, "_", "-") }

func knobUsage(p engine.Param) string {
	s := p.Help + " (default " + engine.Format(p.Default) + "; "
	if p.Kind == engine.Text && p.Detail != "" {
		return s + p.Detail + ")"
	}
	return s + p.Range() + ")"
}

// openLectureData opens the data set an experiment's data knob names, as
// compare's --data reads one.
func openLectureData(e *lecture.Experiment, spec string) (*datasets.Dataset, error) {
	d, err := runs.ParseData(spec, func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	})
	if err != nil {
		return nil, usagef("lab %s: --%s %v", e.Name, flagName(e.Data), err)
	}
	ds, err := d.Open()
	if err != nil {
		return nil, fmt.Errorf("lab %s: --%s: %w", e.Name, flagName(e.Data), err)
	}
	return ds, nil
}

// lectureJSON is what --json prints: the experiment, its knobs, how it
// ended and its result.
func lectureJSON(e *lecture.Experiment, rec *lecture.Record) any {
	return struct {
		Experiment string            `json:"experiment"`
		Title      string            `json:"title"`
		Source     string            `json:"source"`
		Knobs      map[string]string `json:"knobs"`
		Status     lecture.Status    `json:"status"`
		Seconds    float64           `json:"seconds"`
		Result     any               `json:"result"`
	}{e.Name, e.Title, e.Source, rec.Settings(), rec.Status, rec.Wall.Seconds(), rec.Result}
}

// writeLecture is the text report: what the experiment is, its key
// numbers and its picture.
func writeLecture(out io.Writer, e *lecture.Experiment, rec *lecture.Record) error {
	fmt.Fprintf(out, "%s\n%s\nsource: %s\nknobs: %s\n", e.Title, e.Summary, e.Source, rec.ArgsText())
	if rec.Status != lecture.Done {
		fmt.Fprintf(out, "status: %s\n", rec.Status)
	}
	fmt.Fprintln(out)
	if err := report.WriteLectureTables(out, report.LectureTables(e.Name, rec.Result)); err != nil {
		return err
	}
	pic := report.DrawLecture(e.Name, rec.Result, report.FinalView(e.Name, rec.Result, report.ExportSize))
	for _, l := range pic.Lines {
		if _, err := fmt.Fprintln(out, strings.TrimRight(l, " ")); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(out, "\n%s in %s\n", e.Name, numfmt.Seconds(rec.Wall.Seconds()))
	return err
}

// recordLecture appends the experiment to the run history, as recordRun
// does a run: a history that cannot be written is a warning.
func recordLecture(rec *lecture.Record, stderr io.Writer) {
	if !runs.HistoryOn() {
		return
	}
	h, err := runs.OpenHistory()
	if err == nil {
		err = h.Append(runs.NewLabEntry(rec))
	}
	if err != nil {
		fmt.Fprintln(stderr, "tealab: warning: "+oneLine(err.Error())+" (the experiment was not recorded; --no-history skips it)")
	}
}

// listLectures lists the experiments, each with its source and knobs.
func listLectures(out io.Writer, asJSON bool) error {
	if asJSON {
		type knob struct {
			Name    string `json:"name"`
			Default string `json:"default"`
			Range   string `json:"range"`
			Help    string `json:"help"`
		}
		type item struct {
			Name    string `json:"name"`
			Title   string `json:"title"`
			Summary string `json:"summary"`
			Source  string `json:"source"`
			Knobs   []knob `json:"knobs"`
		}
		var items []item
		for _, e := range lecture.All() {
			it := item{Name: e.Name, Title: e.Title, Summary: e.Summary, Source: e.Source}
			for _, p := range e.Knobs {
				r := p.Range()
				if p.Kind == engine.Text && p.Detail != "" {
					r = p.Detail
				}
				it.Knobs = append(it.Knobs, knob{p.Name, engine.Format(p.Default), r, p.Help})
			}
			items = append(items, it)
		}
		return writeJSON(out, items)
	}
	for _, e := range lecture.All() {
		fmt.Fprintf(out, "%-15s %s — %s\n%15s source: %s\n", e.Name, e.Title, e.Summary, "", e.Source)
		for _, p := range e.Knobs {
			fmt.Fprintf(out, "%15s --%s=%s  %s\n", "", flagName(p.Name), engine.Format(p.Default), p.Help)
		}
		fmt.Fprintln(out)
	}
	_, err := fmt.Fprintln(out, "tealab lab NAME --help lists an experiment's knobs with their ranges; the lab's L key opens them on screen")
	return err
}

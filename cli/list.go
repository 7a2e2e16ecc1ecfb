package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runDatasets(args []string, out io.Writer) error {
	fs := newFlags("datasets")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	cat := datasets.Catalog()
	if *asJSON {
		type knob struct {
			Name    string  `json:"name"`
			Default float64 `json:"default"`
			Help    string  `json:"help"`
		}
		type entry struct {
			Name    string `json:"name"`
			Kind    string `json:"kind"`
			Rows    int    `json:"rows"`
			Cols    int    `json:"columns"`
			Task    string `json:"task"`
			Summary string `json:"summary"`
			Knobs   []knob `json:"knobs,omitempty"`
		}
		list := make([]entry, 0, len(cat))
		for _, e := range cat {
			je := entry{Name: e.Name, Kind: e.Kind, Rows: e.Rows, Cols: e.Cols, Task: e.Task.String(), Summary: e.Summary}
			for _, k := range e.Knobs {
				je.Knobs = append(je.Knobs, knob{k.Name, k.Default, k.Help})
			}
			list = append(list, je)
		}
		return writeJSON(out, list)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tROWS\tCOLS\tTASK\tDESCRIPTION")
	for _, e := range cat {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", e.Name, e.Kind, e.Rows, e.Cols, e.Task, e.Summary)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nGenerators take knobs: e.g. --data moons:n=500,noise=0.3,seed=7 ('tealab datasets --json' lists them).")
	return nil
}

// paramJSON is a hyperparameter as `tealab models --json` prints it.
type paramJSON struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Default any      `json:"default"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Log     bool     `json:"log,omitempty"`
	Choices []string `json:"choices,omitempty"`
	Help    string   `json:"help"`
	Detail  string   `json:"detail,omitempty"` // the rest of the help, when one line is not enough
	// Number: a text parameter that also takes a number (gamma), which a
	// sweep ranges over beside its names.
	Number bool `json:"number,omitempty"`
	// Simpler: in which direction the model is simpler ("lower" or
	// "higher"), which sweep --pick 1se reads; no_limit_at_zero: 0 means no limit.
	Simpler       string `json:"simpler,omitempty"`
	ZeroIsNoLimit bool   `json:"no_limit_at_zero,omitempty"`
	// When: the parameter has an effect only when another has one of
	// these values, e.g. {"solver": ["gd", "sgd"]}.
	When map[string][]string `json:"when,omitempty"`
	// WhenAbove: the parameter has an effect only when another is above
	// this number, e.g. {"patience": 0}.
	WhenAbove map[string]float64 `json:"when_above,omitempty"`
}

func bound(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

func taskNames(ts []engine.Task) []string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	return names
}

// runModels lists the models: every one, each parameter on one line; or
// the ones named, each parameter's detail after their table.
func runModels(args []string, out io.Writer) error {
	fs := newFlags("models")
	asJSON := fs.Bool("json", false, "print JSON")
	names, err := parseNames(fs, args, out)
	if err != nil {
		return err
	}
	specs := engine.Specs()
	if len(names) > 0 {
		specs = specs[:0]
		for _, name := range names {
			s, err := engine.Lookup(name)
			if err != nil {
				return usagef("models: %v", err)
			}
			specs = append(specs, s)
		}
	}
	if *asJSON {
		type modelJSON struct {
			Name    string   `json:"name"`
			Title   string   `json:"title"`
			Family  string   `json:"family"`
			Tasks   []string `json:"tasks"`
			Summary string   `json:"summary"`
			Notes   string   `json:"notes"`
			// RowWeights: the fit honours row weights (--class-weight balanced).
			RowWeights bool        `json:"row_weights"`
			Params     []paramJSON `json:"params"`
		}
		list := make([]modelJSON, 0, len(specs))
		for _, s := range specs {
			m := modelJSON{Name: s.Name, Title: s.Title, Family: s.Family, Tasks: taskNames(s.Tasks),
				Summary: s.Summary, Notes: s.Notes, RowWeights: s.Weighted, Params: []paramJSON{}}
			for _, p := range s.Params {
				pj := paramJSON{Name: p.Name, Kind: p.Kind.String(), Default: p.Default, Log: p.Log, Choices: p.Choices,
					Help: p.Help, Detail: p.Detail, Number: p.Number, Simpler: p.Simpler, ZeroIsNoLimit: p.ZeroIsNoLimit}
				if p.Kind == engine.Int || p.Kind == engine.Float || p.Kind == engine.Ints {
					pj.Min, pj.Max = bound(p.Min), bound(p.Max)
				}
				switch {
				case p.When == nil:
				case len(p.When.In) == 0:
					pj.WhenAbove = map[string]float64{p.When.Param: p.When.Above}
				default:
					pj.When = map[string][]string{p.When.Param: p.When.In}
				}
				m.Params = append(m.Params, pj)
			}
			list = append(list, m)
		}
		return writeJSON(out, list)
	}
	family := ""
	for _, s := range specs {
		if s.Family != family {
			family = s.Family
			fmt.Fprintf(out, "\n%s\n", strings.ToUpper(family))
		}
		fmt.Fprintf(out, "  %-12s %s — %s [%s]\n", s.Name, s.Title, s.Summary, strings.Join(taskNames(s.Tasks), ", "))
		fmt.Fprintf(out, "  %-12s sources: %s\n", "", s.Notes)
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		for _, p := range s.Params {
			help := p.Help
			if p.When != nil {
				_, why := p.AppliesTo(nil)
				help += " (" + why + ")"
			}
			fmt.Fprintf(tw, "      %s=%s\t%s\t%s\n", p.Name, engine.Format(p.Default), p.Range(), help)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(names) == 0 {
			continue
		}
		for _, p := range s.Params {
			if p.Detail == "" {
				continue
			}
			// name: the detail, wrapped to 80 columns under itself
			hang := len(p.Name) + 2
			fmt.Fprintln(out)
			for i, line := range wrapWords(p.Detail, max(40, 80-6-hang)) {
				lead := p.Name + ": "
				if i > 0 {
					lead = strings.Repeat(" ", hang)
				}
				fmt.Fprintf(out, "      %s%s\n", lead, line)
			}
		}
	}
	return nil
}

// parseNames parses fs's flags wherever they stand among args and returns
// the other arguments in order (`tealab models logistic --json`).
func parseNames(fs *flag.FlagSet, args []string, out io.Writer) ([]string, error) {
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, parseFlags(fs, args, out) // the error as every command says it
		}
		if fs.NArg() == 0 {
			return names, nil
		}
		names = append(names, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// wrapWords breaks text into lines of at most width characters where it
// can, at spaces; a word longer than width has a line of its own.
func wrapWords(text string, width int) []string {
	var lines []string
	line, n := "", 0
	for _, w := range strings.Fields(text) {
		wn := utf8.RuneCountInString(w)
		switch {
		case line == "":
			line, n = w, wn
		case n+1+wn <= width:
			line, n = line+" "+w, n+1+wn
		default:
			lines = append(lines, line)
			line, n = w, wn
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

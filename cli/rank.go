package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/experiment"
	"github.com/tealab/tealab/engine/rank"
	"github.com/tealab/tealab/numfmt"
)

// rankEval: tealab rank takes the evaluation of a run for permutation
// importance's held-out rows.
var rankEval = evalUse{omit: map[string]string{
	eval.SettingCosts:         "permutation importance is the drop of the primary metric under the model's own decisions; tealab train --costs scores one under a cost matrix",
	experiment.SettingRepeats: "permutation importance repeats its shuffles (--repeats), not a cross-validation",
}}

// rankJSON is what `tealab rank --json` prints.
type rankJSON struct {
	Data     string         `json:"data"`
	Rows     int            `json:"rows"`
	Target   string         `json:"target"`
	Task     string         `json:"task"`
	Model    string         `json:"model,omitempty"`
	Params   engine.Values  `json:"params,omitempty"`
	Repeats  int            `json:"repeats,omitempty"`
	Rankings []rank.Ranking `json:"rankings"`
}

func runRank(args []string, out, stderr io.Writer) error {
	fs := newFlags("rank")
	var data dataFlags
	data.register(fs)
	var methods listFlag
	fs.Var(&methods, "method", "ranking methods, comma-separated: "+strings.Join(rank.Names(), ", ")+" (default: every method that takes the target; permutation with --model)")
	var model string
	fs.StringVar(&model, "model", "", "the model permutation importance fits ('tealab models' lists them)")
	params := paramFlag{}
	fs.Var(params, "param", "the model's hyperparameter name=value (repeatable)")
	repeats := fs.Int("repeats", rank.DefaultRepeats, "permutation importance: shuffles of each feature")
	top := fs.Int("top", 0, "show the first N features (0: all)")
	asJSON := fs.Bool("json", false, "print every score as JSON")
	quiet := fs.Bool("quiet", false, "no progress line on stderr")
	var ef evalFlags
	ef.register(fs, rankEval)
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	opt, v, err := ef.options()
	if err != nil {
		return err
	}
	if *repeats < 1 || *repeats > 1000 {
		return usagef("rank: --repeats %d: use 1 to 1000", *repeats)
	}
	if *top < 0 {
		return usagef("rank: --top %d: use 0 (all) or more", *top)
	}
	d, err := data.load("rank")
	if err != nil {
		return err
	}
	ro := rank.Options{Eval: opt, Repeats: *repeats}
	if model != "" {
		spec, err := engine.Lookup(model)
		if err != nil {
			return usageError{err.Error()}
		}
		if ro.Values, err = spec.Parse(params); err != nil {
			return usageError{err.Error()}
		}
		ro.Model = spec
	} else if len(params) > 0 {
		return usagef("rank: --param sets a hyperparameter of --model, and there is none")
	}
	names := []string(methods)
	if len(names) == 0 {
		names = defaultMethods(d.Task, ro.Model != nil)
		if len(names) == 0 {
			return usagef("rank: no method ranks features against %s (%s); choose a target with --target", d.Task, d.Name)
		}
	}
	needs := rank.NeedModel(names)
	if needs != "" && ro.Model == nil {
		return usagef("rank: %s needs --model NAME, the model whose held-out score the shuffles lower ('tealab models' lists them)", needs)
	}
	if needs != "" {
		if test := eval.TestSource(v); test != "" {
			rd := data.choice()
			rd.Test = test
			if ro.Eval.Test, err = rd.OpenTest(d); err != nil {
				return err
			}
		}
	} else if ro.Model != nil {
		return usagef("rank: --model is for permutation importance; add permutation to --method")
	} else if flag := ef.given(); flag != "" {
		return usagef("rank: %s says how permutation importance holds rows out; add permutation to --method (with --model)", flag)
	}
	if err := rank.Check(d, names, ro); err != nil {
		return usagef("rank: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var pl *progressLine
	if !*quiet && isTerminal(stderr) {
		pl = newProgressLine(stderr)
		start := time.Now()
		ro.Progress = func(p rank.Progress) {
			pl.say(fmt.Sprintf("rank · %s %d of %d · %s elapsed", p.Method, p.Done, p.Total, numfmt.Seconds(time.Since(start).Seconds())))
		}
	}
	rs, err := rank.Rank(ctx, d, names, ro)
	if pl != nil {
		pl.done()
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return interruptedf("rank: interrupted; nothing ranked by %s", names[len(rs)])
		}
		if errors.Is(err, engine.ErrLimit) {
			return err
		}
		return fmt.Errorf("rank %s: %w", names[len(rs)], err)
	}
	if *asJSON {
		j := rankJSON{Data: d.Name, Rows: d.Rows(), Target: targetOf(d), Task: d.Task.String(), Rankings: rs}
		if ro.Model != nil {
			j.Model, j.Params, j.Repeats = ro.Model.Name, ro.Values, *repeats
		}
		return writeJSON(out, j)
	}
	return writeRanking(out, d, rs, *top, ro)
}

// defaultMethods are the methods that take task, permutation only with a
// model.
func defaultMethods(task datasets.Task, model bool) []string {
	var out []string
	for _, m := range rank.Methods() {
		if slices.Contains(m.Tasks, task) && (!m.Model || model) {
			out = append(out, m.Name)
		}
	}
	return out
}

func targetOf(d *datasets.Dataset) string {
	if d.Target != nil {
		return d.Target.Name
	}
	return ""
}

// writeRanking prints the features in the first method's order, a score
// and a rank per method, then how each method took the features.
func writeRanking(out io.Writer, d *datasets.Dataset, rs []rank.Ranking, top int, opt rank.Options) error {
	fmt.Fprintf(out, "%s: %s, %s against %s (%s)\n\n", d.Name, numfmt.Count(len(d.Features), "feature"), numfmt.Count(d.Rows(), "row"), targetOf(d), d.Task)
	tw := tabwriter.NewWriter(out, 2, 8, 2, ' ', tabwriter.AlignRight)
	head := []string{"#", "feature"}
	for _, r := range rs {
		head = append(head, r.Method, "rank")
	}
	order := rs[0].Order()
	if top > 0 && top < len(order) {
		order = order[:top]
	}
	// Names read left-aligned: padded to one width, the column's right
	// alignment leaves them so.
	wide := len("feature")
	for _, j := range order {
		wide = max(wide, len([]rune(datasets.Printable(rs[0].Features[j]))))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", wide-len([]rune(s))) }
	head[1] = pad("feature")
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for k, j := range order {
		row := []string{fmt.Sprint(k + 1), pad(datasets.Printable(rs[0].Features[j]))}
		for _, r := range rs {
			s := numfmt.Sig(r.Scores[j], 4)
			if r.Std != nil {
				s += " ± " + numfmt.Sig(r.Std[j], 2)
			}
			if r.Notes[j] != "" {
				s = "–"
			}
			row = append(row, s, fmt.Sprint(r.Ranks[j]))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if top > 0 && top < len(rs[0].Order()) {
		fmt.Fprintf(out, "(the first %d of %s; --top 0 shows all)\n", top, numfmt.Count(len(d.Features), "feature"))
	}
	fmt.Fprintln(out)
	for _, r := range rs {
		m, _ := rank.Lookup(r.Method)
		line := fmt.Sprintf("%s — %s, as %s: %s", r.Method, m.Title, m.Source, r.Numeric)
		if r.Eval != "" {
			line += fmt.Sprintf("; %s, %s, %s over %s", opt.Model.Name, r.Eval, "mean ± sd of the drop", numfmt.Count(opt.Repeats, "shuffle"))
		}
		fmt.Fprintln(out, line)
	}
	for j, note := range rs[0].Notes {
		if note != "" {
			fmt.Fprintf(out, "%s: %s\n", datasets.Printable(rs[0].Features[j]), note)
		}
	}
	return nil
}

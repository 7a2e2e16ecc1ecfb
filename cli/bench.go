package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"text/tabwriter"

	"github.com/tealab/tealab/engine/bench"
	"github.com/tealab/tealab/numfmt"
)

func runBench(args []string, out io.Writer) error {
	fs := newFlags("bench")
	dir := fs.String("data-dir", "", "directory of the data sets bench/make_data.py writes")
	var cases listFlag
	fs.Var(&cases, "case", "cases to run, e.g. logistic,ridge (default: all)")
	asJSON := fs.Bool("json", false, "one JSON object a line, as bench/sklearn_ref.py prints")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	if *dir == "" {
		return usagef("bench: --data-dir is required (make the data with bench/make_data.py DIR)")
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		return fmt.Errorf("bench: --data-dir %s is not a directory", *dir)
	}
	selected, err := bench.Select(cases)
	if err != nil {
		return usageError{"bench: " + err.Error()}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var tw *tabwriter.Writer
	if !*asJSON {
		tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "case\tmodel\tdata\tfit\tpredict\tmetric\tscore\t")
	}
	for _, c := range selected {
		r, err := bench.Run(ctx, *dir, c)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("bench: interrupted")
			}
			return fmt.Errorf("bench: %w", err)
		}
		r = r.Round()
		if *asJSON {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			fmt.Fprintln(out, string(b))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Case, c.Spec.Name, c.Data, numfmt.Seconds(r.FitSecs),
			numfmt.Seconds(r.PredSecs), r.Metric, numfmt.Fixed(r.Score, 4))
	}
	if tw != nil {
		return tw.Flush()
	}
	return nil
}

package cli

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// The section of a run scored under a cost matrix (--costs): the matrix,
// the decision of least cost (a threshold for two classes) and the mean
// cost per held-out row there and at the model's own decision. The
// confusion matrix and the other metrics are those of the model's own
// decision.

func init() {
	addSection(section{name: "costs", order: 340, write: writeCosts,
		needs: func(r *runs.Record) bool { return r.Result.Costs != nil }})
}

func writeCosts(out io.Writer, r *runs.Record) {
	res := r.Result
	c := res.Costs
	title := "costs"
	if c.Source != "" {
		title += " (" + c.Source + ")"
	}
	fmt.Fprintf(out, "\n%s: the cost of predicting each class (columns) for each actual class (rows)\n", title)
	head := []string{"actual \\ predicted"}
	for _, name := range c.Classes {
		head = append(head, trunc(name, 16))
	}
	rows := [][]string{head}
	for i, name := range c.Classes {
		row := []string{trunc(name, 16)}
		for _, x := range c.Cost[i] {
			row = append(row, strconv.FormatFloat(x, 'g', 6, 64))
		}
		rows = append(rows, row)
	}
	writeTable(out, rows)
	switch {
	case res.Threshold != nil:
		own := ""
		switch {
		case res.Scores != nil && res.Proba:
			own = " (the model's own: 0.5)"
		case res.Scores != nil:
			own = " (the model's own: 0)"
		}
		fmt.Fprintf(out, "  threshold %s on the score of %s: positive at or above it%s\n", numfmt.Sig(*res.Threshold, 4), res.Positive, own)
	case len(c.Classes) > 2:
		fmt.Fprintln(out, "  decision: the class of least expected cost under the model's probabilities (the model's own decision without them)")
	default:
		fmt.Fprintln(out, "  decision: the model's own (it gives no scores to threshold)")
	}
	cost, def := res.Metrics["cost"], res.Metrics["cost_default"]
	line := fmt.Sprintf("  cost per held-out row %s; at the model's own decision (cost at default) %s", num(cost), num(def))
	if b, ok := res.Baseline["cost"]; ok && !math.IsNaN(b) {
		line += fmt.Sprintf("; baseline %s", num(b))
	}
	fmt.Fprintln(out, line)
	fmt.Fprintln(out, "  (the confusion matrix and the other metrics are at the model's own decision)")
}

package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// The section for a kernel machine's support vectors: how many, by class
// and at the bound C, and the heaviest few by |α|.

func init() {
	addSection(section{name: "support vectors", order: engine.CapSupportVectors.Order, write: writeSupportVectors, needs: hasLearned(engine.CapSupportVectors.Name)})
}

// topVectors is how many support vectors the text report lists; --json has
// them all.
const topVectors = 5

func writeSupportVectors(out io.Writer, r *runs.Record) {
	sv, ok := eval.LearnedAs[*engine.SupportVectors](r.Result, engine.CapSupportVectors.Name)
	if !ok || sv == nil {
		return
	}
	perClass, atBound := inspect.SupportCounts(sv, classLabels(r))
	fmt.Fprintf(out, "\n%s (model fitted on %s), kernel k(a,b) = %s:\n", numfmt.Count(len(sv.Rows), "support vector"), r.Result.FittedOn, sv.Kernel)
	var counts []string
	for _, c := range perClass {
		counts = append(counts, fmt.Sprintf("%d of class %s", c.N, trunc(c.Class, 16)))
	}
	counts = append(counts, fmt.Sprintf("%d at the bound C (margin errors)", atBound))
	fmt.Fprintf(out, "  %s\n", strings.Join(counts, ", "))
	order := inspect.ByWeight(sv)
	if len(order) == 0 {
		return
	}
	coefHead := "y·α"
	if len(sv.Coef) > 0 && len(sv.Coef[0]) > 1 {
		coefHead = "y·α in its one-vs-one pairs"
	}
	rowHead := "row"
	if _, known := inspect.DataRow(r.Result, 0); !known {
		rowHead = "training row"
	}
	table := [][]string{{rowHead, "class", coefHead, "at C"}}
	for _, i := range order[:min(topVectors, len(order))] {
		n, _ := inspect.DataRow(r.Result, sv.Rows[i])
		row := []string{fmt.Sprint(n), "", "", ""}
		if i < len(sv.Class) {
			row[1] = trunc(sv.Class[i], 16)
		}
		if i < len(sv.Coef) {
			var cs []string
			for _, c := range sv.Coef[i] {
				cs = append(cs, fmt.Sprintf("%.4g", c))
			}
			row[2] = strings.Join(cs, ", ")
		}
		if i < len(sv.AtBound) && sv.AtBound[i] {
			row[3] = "yes"
		}
		table = append(table, row)
	}
	fmt.Fprintf(out, "  the heaviest by |α|:\n")
	writeTable(out, table)
	if len(order) > topVectors {
		fmt.Fprintf(out, "  ... %d more (--json has them all)\n", len(order)-topVectors)
	}
}

// classLabels are the classes of a run in their order, or nil.
func classLabels(r *runs.Record) []string {
	if c := r.Result.Confusion; c != nil {
		return c.Labels
	}
	return nil
}

package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/cluster"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/widgets"
)

// Sections for what clusterings and reductions learn: the dendrogram of a
// hierarchical clustering, the components of a reduction.

func init() {
	addSection(section{name: "dendrogram", order: engine.CapLinkage.Order, write: writeDendrogram, needs: hasLearned(engine.CapLinkage.Name)})
	addSection(section{name: "components", order: engine.CapComponents.Order, write: writeComponents, needs: hasLearned(engine.CapComponents.Name)})
}

// dendrogramLeaves is the most leaves the text dendrogram draws: beyond, the
// top of the tree is drawn, its leaves groups of rows.
const dendrogramLeaves = 40

func writeDendrogram(out io.Writer, r *runs.Record) {
	l, ok := eval.LearnedAs[*engine.Linkage](r.Result, engine.CapLinkage.Name)
	if !ok || l == nil || len(l.Merges) == 0 {
		return
	}
	top, groups := cluster.Top(l, dendrogramLeaves)
	d := widgets.DrawDendrogram(top, 60)
	what := fmt.Sprintf("%d rows", l.Leaves)
	if l.Leaves > dendrogramLeaves {
		what = fmt.Sprintf("the top %d merges; a leaf is a group of rows", len(groups)-1)
	}
	fmt.Fprintf(out, "\ndendrogram (%s linkage, %s; merge height →):\n", l.Method, what)
	labels := make([]string, len(groups))
	width := 0
	for i, rows := range groups {
		labels[i] = leafLabel(r, rows)
		width = max(width, len([]rune(labels[i])))
	}
	width = min(width, 22)
	for i, line := range d.Lines {
		fmt.Fprintf(out, "  %-*s %s\n", width, trunc(labels[i], width), line)
	}
	fmt.Fprintf(out, "  %-*s %s\n", width, "", d.Axis)
}

// leafLabel names a leaf of the run's dendrogram.
func leafLabel(r *runs.Record, rows []int) string {
	if d := r.Dataset; d != nil {
		return widgets.LeafLabel(rows, d.RowNames, d.Classes, d.Y)
	}
	return widgets.LeafLabel(rows, nil, nil, nil)
}

func writeComponents(out io.Writer, r *runs.Record) {
	c, ok := eval.LearnedAs[*engine.Components](r.Result, engine.CapComponents.Name)
	if !ok || c == nil || len(c.Ratio) == 0 {
		return
	}
	fmt.Fprintln(out, "\nexplained variance (scree, with the cumulative share):")
	cum := 0.0
	for i, ratio := range c.Ratio {
		if i == 20 {
			fmt.Fprintf(out, "  ... %s more\n", numfmt.Count(len(c.Ratio)-20, "component"))
			break
		}
		cum += ratio
		bar := strings.Repeat("█", int(ratio*40+0.5))
		fmt.Fprintf(out, "  %-5s %6s  %6s  %s\n", c.Names[i], numfmt.Fixed(ratio, 4), numfmt.Fixed(cum, 4), bar)
	}
	rows, cols := c.Vectors.Dims()
	fmt.Fprintln(out, "\nloadings (each component's weight on each feature):")
	table := [][]string{{"feature"}}
	for i := range min(rows, 6) {
		table[0] = append(table[0], c.Names[i])
	}
	for j := range min(cols, 30) {
		name := fmt.Sprintf("x%d", j)
		if j < len(c.Features) {
			name = c.Features[j]
		}
		row := []string{trunc(name, 24)}
		for i := range min(rows, 6) {
			row = append(row, numfmt.Fixed(c.Vectors.At(i, j), 3))
		}
		table = append(table, row)
	}
	writeTable(out, table)
}

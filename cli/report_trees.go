package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/neighbors"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

// Sections for what trees, ensembles and neighbours learn: rules (one per
// leaf), feature importances, and the k a k-NN fit used.

func init() {
	addSection(section{name: "rules", order: engine.CapRules.Order, write: writeRules, needs: hasLearned(engine.CapRules.Name)})
	addSection(section{name: "importances", order: engine.CapImportances.Order, write: writeImportances, needs: hasLearned(engine.CapImportances.Name)})
	addSection(section{name: "neighbours", order: neighbors.CapChoice.Order, write: writeNeighbours, needs: hasLearned(neighbors.CapChoice.Name)})
}

// maxRules is the most rules the text report prints; --json has them all.
const maxRules = 40

func writeRules(out io.Writer, r *runs.Record) {
	rules, ok := eval.LearnedAs[engine.Rules](r.Result, engine.CapRules.Name)
	if !ok || rules.Len() == 0 {
		return
	}
	what := ""
	if t, ok := eval.LearnedAs[*engine.Tree](r.Result, engine.CapTree.Name); ok && t != nil {
		what = fmt.Sprintf(" (a tree of depth %d with %s)", t.Depth(), numfmt.Count(t.Leaves(), "leaf"))
		if t.Label != "" { // the first of several: the lab pages through the others
			what = fmt.Sprintf(" (%s: a tree of depth %d with %s)", t.Label, t.Depth(), numfmt.Count(t.Leaves(), "leaf"))
		}
	}
	fmt.Fprintf(out, "\nrules, one per leaf%s, model fitted on %s:\n", what, r.Result.FittedOn)
	for i := range rules.Len() {
		if i == maxRules {
			fmt.Fprintf(out, "  ... %d more rules (--json has them all)\n", rules.Len()-maxRules)
			break
		}
		fmt.Fprintf(out, "  %s\n", rules.At(i).String())
	}
}

func writeImportances(out io.Writer, r *runs.Record) {
	imp, ok := eval.LearnedAs[*engine.Importances](r.Result, engine.CapImportances.Name)
	if !ok || imp == nil {
		return
	}
	fmt.Fprintf(out, "\nfeature importances (%s):\n", imp.Method)
	order := make([]int, len(imp.Values))
	for i := range order {
		order[i] = i
	}
	// Largest first; the rest once they no longer matter.
	sort.SliceStable(order, func(a, b int) bool { return imp.Values[order[a]] > imp.Values[order[b]] })
	top := imp.Values[order[0]]
	for n, j := range order {
		if n == 15 || imp.Values[j] <= 0 {
			if rest := len(order) - n; rest > 0 && imp.Values[j] > 0 {
				fmt.Fprintf(out, "  ... %s below %s\n", numfmt.Count(rest, "more feature"), numfmt.Fixed(imp.Values[j], 3))
			} else if rest > 0 {
				fmt.Fprintf(out, "  ... %s that no split used\n", numfmt.Count(rest, "more feature"))
			}
			break
		}
		bar := ""
		if top > 0 {
			bar = strings.Repeat("█", max(1, int(30*imp.Values[j]/top+0.5)))
		}
		fmt.Fprintf(out, "  %-24s %6s  %s\n", trunc(imp.Features[j], 24), numfmt.Fixed(imp.Values[j], 3), bar)
	}
}

func writeNeighbours(out io.Writer, r *runs.Record) {
	c, ok := eval.LearnedAs[*neighbors.Choice](r.Result, neighbors.CapChoice.Name)
	if !ok || c == nil {
		return
	}
	how := "as set"
	if c.Chosen {
		how = fmt.Sprintf("the least leave-one-out error on the training rows over k = 1..%d (%s)", len(c.LOO), numfmt.Fixed(c.LOO[c.K-1], 4))
	}
	fmt.Fprintf(out, "\nneighbours: k = %d, %s; %s distance, %s search\n", c.K, how, c.Metric, c.Search)
}

package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
)

func init() {
	addSection(section{name: "training parts", order: 250, write: writeParts,
		needs: func(r *runs.Record) bool { return len(r.Result.Parts) > 0 }})
}

// maxPartsShown is the most training parts the text report lists one by
// one (leave-one-out has a part per row); --json keeps them all.
const maxPartsShown = 20

// writeParts says what each training part looked like after resampling,
// class weights or a selection: the rows of each class (and before
// resampling), each class's weight, the features kept.
func writeParts(out io.Writer, r *runs.Record) {
	parts := r.Result.Parts
	var classes []string
	if c := r.Result.Confusion; c != nil {
		classes = c.Labels
	}
	fmt.Fprintln(out, "\ntraining parts (the held-out rows are as they were):")
	rows := [][]string{{"fold"}}
	counts := parts[0].Rows != nil && len(classes) == len(parts[0].Rows) && len(classes) <= maxClassesShown
	if counts {
		rows[0] = append(rows[0], classes...)
	}
	weights := parts[0].Weights != nil && counts
	if weights {
		rows[0] = append(rows[0], "class weights")
	}
	selected := parts[0].Features != nil
	if selected {
		rows[0] = append(rows[0], "features kept")
	}
	for i, p := range parts {
		if i == maxPartsShown && len(parts) > maxPartsShown+1 {
			rows = append(rows, []string{fmt.Sprintf("... %d more in --json", len(parts)-maxPartsShown-1)})
			p = parts[len(parts)-1]
		} else if i > maxPartsShown && i < len(parts)-1 {
			continue
		}
		fold := fmt.Sprint(p.Fold)
		if p.Fold == 0 {
			fold = "all rows"
		}
		row := []string{fold}
		if counts {
			for c, n := range p.Rows {
				cell := fmt.Sprint(n)
				if p.Before != nil && c < len(p.Before) && p.Before[c] != n {
					cell += fmt.Sprintf(" (was %d)", p.Before[c])
				}
				row = append(row, cell)
			}
		}
		if weights {
			ws := make([]string, len(p.Weights))
			for c, w := range p.Weights {
				ws[c] = numfmt.Sig(w, 3)
			}
			row = append(row, strings.Join(ws, " "))
		}
		if selected {
			row = append(row, strings.Join(p.Features, ", "))
		}
		rows = append(rows, row)
	}
	writeTable(out, rows)
}

package eval

import (
	"fmt"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// minRowsPerClass is the fewest rows a class should have on average before
// a warning says the classes approach the rows.
const minRowsPerClass = 5

// minTestRows is the smallest test part whose scores mean something: with
// fewer rows an accuracy moves in steps of a tenth or more.
const minTestRows = 10

// holdoutWarnings says when a hold-out cannot mean what its scores seem to:
// a test part too small, or a class that the training part lacks (the model
// cannot predict it).
func holdoutWarnings(d *datasets.Dataset, f Fold) []string {
	var out []string
	if n := len(f.Train); n < minTestRows {
		out = append(out, fmt.Sprintf("the training part has %s: a model learns little from so few; hold out less (--split)", numfmt.Count(n, "row")))
	}
	if n := len(f.Test); n < minTestRows {
		out = append(out, fmt.Sprintf("the test part has %s: its scores move in steps of %s and mean little; hold out more (--split) or use --cv",
			numfmt.Count(n, "row"), numfmt.Sig(1/float64(n), 2)))
	}
	if d.Task == datasets.Classification {
		seen := make([]bool, len(d.Classes))
		for _, i := range f.Train {
			seen[int(d.Y[i])] = true
		}
		var missing []string
		for c, ok := range seen {
			if !ok {
				missing = append(missing, d.Classes[c])
			}
		}
		if len(missing) > 0 {
			out = append(out, fmt.Sprintf("the training part has no row of class %s (%d training rows in all): the model cannot predict it; hold out less (--split)",
				strings.Join(missing, ", "), len(f.Train)))
		}
	}
	return out
}

// adviseWarnings are warnings about the data before anything is fitted: the
// model's own advice on these columns, columns that identify the rows or
// have no name (datasets.ColumnWarnings), and nominal columns with so many
// levels that they are ids or free text rather than categories.
func adviseWarnings(d *datasets.Dataset, spec *engine.Spec) []string {
	var out []string
	if spec.Advise != nil {
		out = append(out, spec.Advise(d.Features)...)
	}
	n := d.Rows()
	if k := len(d.Classes); d.Task == datasets.Classification && k > 2 && k*minRowsPerClass > n {
		out = append(out, fmt.Sprintf("%d classes for %d rows (%s a class on average): most classes are too small to learn or to score; is %q really a class label?",
			k, n, numfmt.Sig(float64(n)/float64(k), 2), d.Target.Name))
	}
	out = append(out, d.ColumnWarnings()...)
	for j, c := range d.Features {
		if c.Kind != datasets.Nominal {
			continue
		}
		if l := len(c.Levels); (l > 1000 || (l > 50 && 2*l >= n)) && d.Identifier(j) == "" {
			what := "one-hot encoding makes a column of each"
			if spec.Input.Nominal {
				what = "each level holds few rows"
			}
			out = append(out, fmt.Sprintf("column %q has %d distinct values in %d rows: an id or free text rather than a category (%s); drop it with --drop %s",
				c.Name, l, n, what, c.Name))
		}
	}
	return out
}

package eval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tealab/tealab/advice"
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
func holdoutWarnings(d *datasets.Dataset, f Fold) []advice.Warning {
	var out []advice.Warning
	less := advice.Remedy{Kind: advice.HoldOutLess}
	if n := len(f.Train); n < minTestRows {
		out = append(out, advice.Say("the training part has %s: a model learns little from so few", numfmt.Count(n, "row")).With(less))
	}
	if n := len(f.Test); n < minTestRows {
		out = append(out, advice.Say("the test part has %s: its scores move in steps of %s and mean little",
			numfmt.Count(n, "row"), numfmt.Sig(1/float64(n), 2)).With(advice.Remedy{Kind: advice.HoldOutMore}, advice.Remedy{Kind: advice.CrossValidate}))
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
			out = append(out, advice.Say("the training part has no row of class %s (%d training rows in all): the model cannot predict it",
				strings.Join(missing, ", "), len(f.Train)).With(less))
		}
	}
	return out
}

// testSetWarnings says when a supplied test set of n rows is too small for
// its scores to mean much; the training rows are all the data's, so no
// hold-out remedy applies.
func testSetWarnings(n int) []advice.Warning {
	if n >= minTestRows {
		return nil
	}
	return []advice.Warning{advice.Say("the supplied test set has %s: its scores move in steps of %s and mean little",
		numfmt.Count(n, "row"), numfmt.Sig(1/float64(n), 2)).With(advice.Remedy{Kind: advice.CrossValidate})}
}

// adviseWarnings are warnings about the data before anything is fitted: the
// model's own advice on these columns, columns that identify the rows or
// have no name (datasets.ColumnWarnings), and nominal columns with so many
// levels that they are ids or free text rather than categories.
func adviseWarnings(d *datasets.Dataset, spec *engine.Spec) []advice.Warning {
	var out []advice.Warning
	if spec.Advise != nil {
		out = append(out, spec.Advise(d.Features)...)
	}
	n := d.Rows()
	if k := len(d.Classes); d.Task == datasets.Classification && k > 2 && k*minRowsPerClass > n {
		out = append(out, advice.Say("%d classes for %d rows (%s a class on average): most classes are too small to learn or to score; is %q really a class label?",
			k, n, numfmt.Sig(float64(n)/float64(k), 2), d.Target.Name))
	}
	columns, identifiers := d.CheckColumns()
	out = append(out, columns...)
	for j, c := range d.Features {
		if c.Kind != datasets.Nominal {
			continue
		}
		if l := len(c.Levels); (l > 1000 || (l > 50 && 2*l >= n)) && !slices.Contains(identifiers, j) {
			what := "one-hot encoding makes a column of each"
			if spec.Input.Nominal {
				what = "each level holds few rows"
			}
			out = append(out, advice.Say("column %q has %d distinct values in %d rows: an id or free text rather than a category (%s)",
				c.Name, l, n, what).With(advice.Remedy{Kind: advice.Drop, Columns: []string{c.Name}}))
		}
	}
	return out
}

// foldWarnings gathers the warnings the fits of a cross-validation raise,
// so that one that every fold raises reads once, saying in how many folds,
// rather than once per fold. Warnings that differ only in their numbers (a
// gradient, a condition number) are one warning, their numbers given as
// the range the folds spanned.
type foldWarnings struct {
	folds   int                     // folds in the plan
	order   []string                // shapes, first raised first
	byShape map[string]*foldWarning // by shape (numbers masked)
}

type foldWarning struct {
	texts []string     // as each fit raised it
	in    map[int]bool // the folds (1-based) that raised it
	final bool         // the final fit on all rows raised it too
}

// add notes msg, raised by fold f (1-based; 0 for the final fit on all
// rows).
func (fw *foldWarnings) add(f int, msg string) {
	shape, _ := maskNumbers(msg)
	w, ok := fw.byShape[shape]
	if !ok {
		if fw.byShape == nil {
			fw.byShape = map[string]*foldWarning{}
		}
		w = &foldWarning{in: map[int]bool{}}
		fw.byShape[shape] = w
		fw.order = append(fw.order, shape)
	}
	w.texts = append(w.texts, msg)
	if f == 0 {
		w.final = true
	} else {
		w.in[f] = true
	}
}

// lines are the warnings gathered, each once, with the number of folds
// that raised it (0 for one only the final fit raised).
func (fw *foldWarnings) lines() (msgs []string, counts []int) {
	for _, shape := range fw.order {
		w := fw.byShape[shape]
		text, n := mergeNumbers(w.texts), len(w.in)
		switch {
		case n == 0:
		case n == 1 && !w.final:
			for f := range w.in {
				text = fmt.Sprintf("in fold %d of %d: %s", f, fw.folds, text)
			}
		case w.final:
			text = fmt.Sprintf("in %d of %d folds and the final fit on all rows: %s", n, fw.folds, text)
		default:
			text = fmt.Sprintf("in %d of %d folds: %s", n, fw.folds, text)
		}
		msgs, counts = append(msgs, text), append(counts, n)
	}
	return msgs, counts
}

// maskNumbers replaces each number of s that stands on its own (not part
// of a name such as x1) by a mask byte, and returns the numbers in order.
func maskNumbers(s string) (string, []string) {
	var b strings.Builder
	var nums []string
	for i := 0; i < len(s); {
		if n := numberAt(s, i); n > 0 {
			b.WriteByte(mask)
			nums = append(nums, s[i:i+n])
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String(), nums
}

// numberAt is the length of the number that starts at s[i] (digits, a
// fraction, an exponent), 0 when none does or the digits continue a word.
func numberAt(s string, i int) int {
	if !isDigit(s[i]) || (i > 0 && (isWordByte(s[i-1]) || s[i-1] == '.')) {
		return 0
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		for j++; j < len(s) && isDigit(s[j]); j++ {
		}
	}
	if j+1 < len(s) && s[j] == 'e' {
		k := j + 1
		if s[k] == '-' || s[k] == '+' {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for j = k; j < len(s) && isDigit(s[j]); j++ {
			}
		}
	}
	if j < len(s) && isWordByte(s[j]) && !isDigit(s[j]) {
		return 0 // 3rd, 2d: part of a word
	}
	return j - i
}

// mask stands for a number in a warning's shape (a byte no warning has).
const mask = '\x00'

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return isDigit(c) || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// mergeNumbers writes texts of one shape as one: each number that differs
// between them becomes the range "lo–hi" of its values.
func mergeNumbers(texts []string) string {
	shape, first := maskNumbers(texts[0])
	lo, hi := slices.Clone(first), slices.Clone(first)
	for _, t := range texts[1:] {
		_, nums := maskNumbers(t)
		for k, x := range nums {
			v, _ := strconv.ParseFloat(x, 64)
			if a, _ := strconv.ParseFloat(lo[k], 64); v < a {
				lo[k] = x
			}
			if a, _ := strconv.ParseFloat(hi[k], 64); v > a {
				hi[k] = x
			}
		}
	}
	var b strings.Builder
	k := 0
	for _, part := range strings.SplitAfter(shape, string(mask)) {
		if !strings.HasSuffix(part, string(mask)) {
			b.WriteString(part)
			continue
		}
		b.WriteString(strings.TrimSuffix(part, string(mask)))
		if lo[k] == hi[k] {
			b.WriteString(lo[k])
		} else {
			b.WriteString(lo[k] + "–" + hi[k])
		}
		k++
	}
	return b.String()
}

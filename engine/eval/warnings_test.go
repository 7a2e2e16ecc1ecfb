package eval

import (
	"github.com/tealab/tealab/advice"

	"reflect"
	"slices"
	"testing"
)

// A cross-validation's warnings read once each: in how many folds, their
// differing numbers as a range, names with digits (x1, 2nd) kept apart.
func TestFoldWarnings(t *testing.T) {
	fw := &foldWarnings{folds: 10}
	for f := 1; f <= 10; f++ {
		fw.add(f, "stopped before converging (gradient 0.0"+string(rune('0'+f%10))+"7, tol 0.0001)")
	}
	fw.add(3, `column "x1" is constant`)
	fw.add(4, `column "x2" is constant`)
	fw.add(0, "the final fit alone warned about 1e-12")
	fw.add(7, "fold 7's 2nd warning")
	msgs, counts := fw.lines()
	want := []string{
		"in 10 of 10 folds: stopped before converging (gradient 0.007–0.097, tol 0.0001)",
		`in fold 3 of 10: column "x1" is constant`,
		`in fold 4 of 10: column "x2" is constant`,
		"the final fit alone warned about 1e-12",
		"in fold 7 of 10: fold 7's 2nd warning",
	}
	if !reflect.DeepEqual(msgs, want) || !reflect.DeepEqual(counts, []int{10, 1, 1, 0, 1}) {
		t.Errorf("lines\n%q %v\nwant\n%q [10 1 1 0 1]", msgs, counts, want)
	}
}

// A cross-validation asked of a clustering is not silently ignored: a
// warning says it does not apply and how the clustering is scored instead.
func TestClusteringSaysCVDoesNotApply(t *testing.T) {
	res := run(t, blobs(60, 2, 1), "evallabeler", nil, Options{Folds: 10, Seed: 1})
	want := "10-fold cross-validation does not apply to clustering: the model is fitted on all rows, none held out, and scored by its silhouette, and by ARI and NMI against the known classes"
	if !slices.Contains(texts(res.Warnings), want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
	if res := run(t, blobs(60, 2, 1), "evallabeler", nil, Options{Seed: 1}); len(res.Warnings) != 0 {
		t.Errorf("without --cv: warnings %q, want none", res.Warnings)
	}
}

// texts are warnings in neutral words.
func texts(ws []advice.Warning) []string { return advice.All(ws, advice.Remedy.String) }

package inspect

import (
	"context"
	"slices"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// A support vector's training row names the data's row it was, so that
// the row's class is the vector's: on a hold-out (also when the hold-out
// reorders the rows in place, as tealab train does), on a fold of CV
// kept without a refit, and after a refit on all rows.
func TestSupportVectorsNameTheirDataRows(t *testing.T) {
	spec, err := engine.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []eval.Options{
		{Seed: 3},
		{Seed: 3, Consume: true},
		{Seed: 3, Folds: 3, NoRefit: true},
		{Seed: 3, Folds: 3},
	} {
		d := openDataset(t, "wine", "")
		labels, classes := slices.Clone(d.Y), slices.Clone(d.Classes)
		res, err := eval.Run(context.Background(), d, spec, spec.Defaults(), opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		sv, ok := eval.LearnedAs[*engine.SupportVectors](res, engine.CapSupportVectors.Name)
		if !ok || len(sv.Rows) == 0 {
			t.Fatalf("%+v: no support vectors", opt)
		}
		for i, r := range sv.Rows {
			row, known := DataRow(res, r)
			if !known {
				t.Fatalf("%+v: the data row of training row %d is unknown", opt, r)
			}
			if got := classes[int(labels[row-1])]; got != sv.Class[i] {
				t.Fatalf("%+v: vector %d (training row %d) is of class %s, but data row %d is %s", opt, i, r, sv.Class[i], row, got)
			}
		}
	}
}

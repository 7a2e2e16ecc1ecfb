package eval

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// Fold is one part of an evaluation: the rows a model trains on and the rows
// it is scored on (indices into the dataset).
type Fold struct {
	Train []int `json:"train"`
	Test  []int `json:"test"`
}

// Plan splits the rows of d as opt says (a stratified hold-out, stratified
// k-fold CV or leave-one-out, drawn from opt.Seed) and describes the
// evaluation. The same data, options and seed give the same folds, so runs
// of different models are compared on identical rows; a comparison or sweep
// can also pass the folds themselves in Options.Plan.
func Plan(d *datasets.Dataset, opt Options) ([]Fold, string, error) {
	if opt.Plan != nil {
		n := d.Rows()
		for f, p := range opt.Plan {
			if len(p.Train) == 0 || len(p.Test) == 0 {
				return nil, "", fmt.Errorf("evaluation: fold %d of the given plan has no training or no test rows", f+1)
			}
			for _, i := range append(append([]int(nil), p.Train...), p.Test...) {
				if i < 0 || i >= n {
					return nil, "", fmt.Errorf("evaluation: fold %d of the given plan names row %d of %d", f+1, i+1, n)
				}
			}
		}
		desc := opt.PlanDesc
		if desc == "" {
			desc = fmt.Sprintf("%d given folds", len(opt.Plan))
		}
		return opt.Plan, desc, nil
	}
	n := d.Rows()
	classes := 0
	strat := ""
	if d.Task == datasets.Classification {
		classes = len(d.Classes)
		strat = "stratified "
	}
	switch {
	case opt.LOO:
		if n < 2 {
			return nil, "", fmt.Errorf("leave-one-out needs at least 2 rows, have %d", n)
		}
		tests := datasets.LeaveOneOut(n)
		parts := make([]Fold, len(tests))
		for i, t := range tests {
			parts[i] = Fold{datasets.Complement(n, t), t}
		}
		return parts, "leave-one-out", nil
	case opt.Folds > n:
		return nil, "", engine.Limitf("k-fold cross-validation: %d folds but the data have %d rows; use at most %d folds", opt.Folds, n, n)
	case opt.Folds != 0:
		tests, err := datasets.KFold(n, d.Y, classes, opt.Folds, opt.Seed)
		if err != nil {
			return nil, "", err
		}
		parts := make([]Fold, len(tests))
		for i, t := range tests {
			parts[i] = Fold{datasets.Complement(n, t), t}
		}
		return parts, fmt.Sprintf("%s%d-fold CV", strat, opt.Folds), nil
	default:
		split := opt.Split
		if split == 0 {
			split = DefaultOptions().Split
		}
		train, test, err := datasets.Holdout(n, d.Y, classes, split, opt.Seed)
		if err != nil {
			return nil, "", err
		}
		// The label says what happened: the fraction asked for, unless the
		// rows (rounding, a row per class) made it another.
		desc := fmt.Sprintf("%s%s/%s hold-out", strat, pct(1-split), pct(split))
		if got := float64(len(test)) / float64(n); math.Abs(got-split) > 0.005 {
			desc = fmt.Sprintf("%s%s/%s hold-out", strat, pct(1-got), pct(got))
		}
		if len(train) < 20 || len(test) < 20 {
			desc += fmt.Sprintf(" (%d training, %d test rows)", len(train), len(test))
		}
		return []Fold{{train, test}}, desc, nil
	}
}

// withTestSet returns d with the supplied test set's rows (opt.Test) after
// its own, and opt with the one fold that trains on d's rows and tests on
// the test set's, described by where the test set came from.
func withTestSet(d *datasets.Dataset, opt Options) (*datasets.Dataset, Options, error) {
	t := opt.Test
	switch {
	case opt.LOO || opt.Folds != 0 || opt.Plan != nil:
		return nil, opt, errors.New("evaluation: a supplied test set replaces the hold-out, cross-validation and leave-one-out: choose one")
	case len(t.Features) != len(d.Features) || t.Rows() == 0 || (d.Y != nil && len(t.Y) != t.Rows()):
		return nil, opt, fmt.Errorf("evaluation: the test set %s is not aligned to %s (Dataset.Align makes it so)", t.Name, d.Name)
	}
	n, m := d.Rows(), t.Rows()
	f := Fold{Train: make([]int, n), Test: make([]int, m)}
	for i := range f.Train {
		f.Train[i] = i
	}
	for i := range f.Test {
		f.Test[i] = n + i
	}
	opt.Plan, opt.PlanDesc = []Fold{f}, TestSetDesc(t)
	return d.Append(t), opt, nil
}

// TestSetDesc describes an evaluation on the supplied test set t.
func TestSetDesc(t *datasets.Dataset) string {
	desc := fmt.Sprintf("supplied test set %s (%s", t.Source, numfmt.Count(t.Rows(), "row"))
	if t.Dropped > 0 {
		desc += fmt.Sprintf("; %d without a target left out", t.Dropped)
	}
	return desc + ")"
}

func pct(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/10, 'f', -1, 64)
}

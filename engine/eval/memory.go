package eval

import (
	"fmt"
	"slices"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Shape is the data a fit of spec on d under opt will see: every row (the
// final refit after cross-validation has them all), and the features as
// the model receives them, one-hot columns counted.
func Shape(d *datasets.Dataset, spec *engine.Spec, opt Options) engine.Shape {
	s := engine.Shape{Rows: d.Rows(), Cols: preparedWidth(d, spec, opt)}
	if opt.Pipeline.Resample == ResampleOver || opt.Pipeline.Resample == ResampleSMOTE {
		if counts := d.ClassCounts(); len(counts) > 0 && d.Task == datasets.Classification {
			s.Rows = len(counts) * slices.Max(counts) // every class as large as the largest
		}
	}
	if opt.Reduce > 0 {
		s.Cols = min(s.Cols, opt.Reduce)
	}
	if task, ok := spec.RunsOn(d.Task); ok && task == datasets.Classification {
		s.Classes = len(d.Classes)
	} else if d.Classes != nil {
		s.KnownClasses = len(d.Classes)
	}
	return s
}

// preparedWidth is the number of columns preparation makes of d's
// features for spec under opt: a column per level of a nominal feature it
// one-hot encodes, an indicator per feature with missing values, the
// products of a polynomial lift.
func preparedWidth(d *datasets.Dataset, spec *engine.Spec, opt Options) int {
	w := 0
	for _, c := range d.Features {
		if opt.Pipeline.Indicator && c.Missing > 0 {
			w++
		}
		if c.Kind == datasets.Nominal && !spec.Input.Nominal && opt.Pipeline.Encode != EncodeOrdinal {
			w += max(len(c.Levels), 1)
			continue
		}
		w++
	}
	return datasets.PolyColumns(w, opt.Pipeline.Lift)
}

// MemoryNeed estimates what fitting spec with v on d under opt allocates
// beyond the loaded data: the prepared rows (a copy; a one-hot column per
// level), reducing them first (a covariance of the prepared columns), and
// the model's own needs (Spec.Memory).
func MemoryNeed(d *datasets.Dataset, spec *engine.Spec, v engine.Values, opt Options) engine.Need {
	if v == nil {
		v = spec.Defaults()
	}
	s := Shape(d, spec, opt)
	width := preparedWidth(d, spec, opt)
	need := engine.Matrix(s.Rows, width, "matrix of prepared rows")
	if width > len(d.Features) {
		need.What = fmt.Sprintf("a %d x %d matrix of prepared rows (nominal columns one-hot encoded)", s.Rows, width)
		need.Advice = "drop the columns with many levels, or use a model that takes nominal columns as they are (tree, forest, cnb)"
	}
	if opt.Pipeline.Lift >= 2 && width > len(d.Features) {
		need.What = fmt.Sprintf("a %d x %d matrix of prepared rows (every product of up to %d features)", s.Rows, width, opt.Pipeline.Lift)
		need.Advice = "lower the lift, or select fewer features first"
	}
	if opt.Reduce > 0 {
		need = need.Plus(engine.Matrices(2, width, width, "covariance to reduce the features first"))
	}
	if spec.Memory != nil {
		need = need.Plus(spec.Memory(s, v))
	}
	return need
}

// CheckMemory refuses a fit whose MemoryNeed exceeds the memory the
// machine has (engine.CheckNeed): an engine.ErrLimit error that gives the
// estimate, the reason and what to do. Nil when the fit fits, or when the
// machine's memory is unknown.
func CheckMemory(d *datasets.Dataset, spec *engine.Spec, v engine.Values, opt Options) error {
	return engine.CheckNeed(spec.Name+" on "+d.Name, MemoryNeed(d, spec, v, opt))
}

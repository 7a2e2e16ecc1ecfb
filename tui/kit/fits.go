package kit

import (
	"fmt"
	"math"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
)

// ModelFits says why a model cannot be fitted on d with its defaults, nil
// when it can: a model of images (one that keeps constant columns in place,
// engine.Input.Constant) on data that are no image (ImageSide), or a fit
// the machine's memory cannot hold. The model list marks such a model;
// the Experimenter, which runs models with their defaults, leaves it out.
func ModelFits(d *datasets.Dataset, sp *engine.Spec) error {
	if sp.Input.Constant && ImageSide(d) == 0 {
		return fmt.Errorf("%s learns from images, and these %s are no square image of numeric pixels (at least 4x4); set its shape to use it", sp.Name, numfmt.Count(len(d.Features), "column"))
	}
	return eval.CheckMemory(d, sp, nil, eval.DefaultOptions())
}

// ImageSide is the side of the square images a dataset's rows are (8 for
// 64 numeric columns, as the 8x8 digits), or 0 when they are not images:
// a square number of columns, at least 16, every one numeric.
func ImageSide(d *datasets.Dataset) int {
	if d == nil || len(d.Features) < 16 || len(NumericFeatures(d)) != len(d.Features) {
		return 0
	}
	s := int(math.Round(math.Sqrt(float64(len(d.Features)))))
	if s*s != len(d.Features) {
		return 0
	}
	return s
}

package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
)

// withSentinels is d with two rows added whose values would move any
// fitted step that saw them: a missing x where training has none (a new
// indicator), ±1e6 (a mean, a scale, a bin edge, a component), 8 in a
// column constant at 7 (the constant filter), and the classes' first
// and last (an MDL cut, a resampled class, a neighbour).
func withSentinels(d *datasets.Dataset) *datasets.Dataset {
	n, p := d.X.Dims()
	X := mat.NewDense(n+2, p, nil)
	X.Copy(d.X)
	X.SetRow(n, []float64{math.NaN(), 1e6, 8})
	X.SetRow(n+1, []float64{1e6, -1e6, 8})
	e := *d
	e.X, e.Y = X, append(slices.Clone(d.Y), 0, float64(len(d.Classes)-1))
	return &e
}

// sentinelCases are the pipelines whose every step is checked.
var sentinelCases = []Pipeline{
	{}, {Impute: ImputeMean}, {Impute: ImputeMedian}, {Impute: ImputeMostFrequent}, {Impute: ImputeConstant, Fill: 2},
	{Indicator: true}, {Scale: ScaleMinMax}, {Scale: ScaleRobust}, {Encode: EncodeOrdinal},
	{Discretize: DiscretizeWidth, Bins: 5}, {Discretize: DiscretizeFrequency, Bins: 5}, {Discretize: DiscretizeMDL},
	{Lift: 2, Indicator: true},
	{Resample: ResampleSMOTE, Impute: ImputeMean}, {Resample: ResampleOver}, {Resample: ResampleUnder}, {ClassWeight: ClassWeightBalanced},
	{Select: "forward:1"}, {Select: "backward:1", Scale: ScaleRobust}, {Select: "forward", Resample: ResampleSMOTE, Impute: ImputeMedian},
}

// fittedSteps is what the run's shown fit learned: its preprocessing as a
// model file keeps it, and what it reports of its training part.
func fittedSteps(t *testing.T, res *Result) string {
	t.Helper()
	b, err := json.Marshal(struct {
		Prep    *datasets.Prep
		Parts   []Part
		Learned map[string]any
	}{res.Prep, res.Parts, res.Learned})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// No step of the pipeline ever sees a held-out row: the steps fitted on a
// training part are identical whether or not the held-out part holds
// sentinel rows that would change them if seen, and they do change when
// the sentinels are in the training part.
func TestNoStepSeesAHeldOutRow(t *testing.T) {
	d := blobs(150, 3, 1)
	e := withSentinels(d)
	var train, test []int
	for i := range 150 {
		if i%5 == 4 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	on := true
	for _, pl := range sentinelCases {
		for _, reduce := range []int{0, 1} {
			name := fmt.Sprintf("%+v reduce %d", pl, reduce)
			opt := Options{Seed: 3, Pipeline: pl, Reduce: reduce, Standardize: &on}
			if pl.Scale != "" {
				opt.Standardize = nil
			}
			opt.Plan = []Fold{{Train: train, Test: test}}
			without := run(t, d, "evalfake", nil, opt)
			opt.Plan = []Fold{{Train: train, Test: append(slices.Clone(test), 150, 151)}}
			with := run(t, e, "evalfake", nil, opt)
			if a, b := fittedSteps(t, without), fittedSteps(t, with); a != b {
				t.Errorf("%s: held-out sentinels changed the fitted steps:\n%s\n%s", name, a, b)
			}
			opt.Plan = []Fold{{Train: append(slices.Clone(train), 150, 151), Test: test}}
			seen := run(t, e, "evalfake", nil, opt)
			if a, b := fittedSteps(t, without), fittedSteps(t, seen); a == b {
				t.Errorf("%s: the sentinels change nothing even in the training part: the test proves nothing", name)
			}
		}
	}
}

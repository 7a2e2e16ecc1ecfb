package modelfile

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/eval"
)

// pipelineCSV is 90 rows of two numeric features with gaps, a nominal one
// and three classes, one as large as the other two together.
func pipelineCSV() string {
	r := rand.New(rand.NewPCG(3, 5))
	var b strings.Builder
	b.WriteString("a,b,colour,class\n")
	for i := range 90 {
		k := max(i%5-2, 0) // 54, 18 and 18 rows
		a := fmt.Sprintf("%.3f", float64(k)*2+r.NormFloat64())
		bb := fmt.Sprintf("%.3f", float64(k)*100+20*r.NormFloat64())
		if r.IntN(8) == 0 {
			a = "?"
		}
		if r.IntN(10) == 0 {
			bb = "?"
		}
		colour := []string{"red", "green", "blue"}[(k+r.IntN(2))%3]
		fmt.Fprintf(&b, "%s,%s,%s,c%d\n", a, bb, colour, k)
	}
	return b.String()
}

// A model file replays the whole pipeline a run chose: predict gives, on
// the run's held-out rows, the run's own predictions.
func TestPipelineReplays(t *testing.T) {
	for _, pl := range []eval.Pipeline{
		{Impute: eval.ImputeMedian, Indicator: true, Scale: eval.ScaleRobust},
		{Impute: eval.ImputeConstant, Fill: -7, Indicator: true, Scale: eval.ScaleMinMax, Encode: eval.EncodeOrdinal},
		{Discretize: eval.DiscretizeFrequency, Bins: 4, Impute: eval.ImputeMostFrequent},
		{Discretize: eval.DiscretizeMDL, Encode: eval.EncodeOrdinal, Lift: 2},
		{Discretize: eval.DiscretizeWidth, Bins: 3, Lift: 2, Indicator: true},
		{Resample: eval.ResampleSMOTE, Impute: eval.ImputeMean, Indicator: true, Lift: 2, Scale: eval.ScaleMinMax},
		{Resample: eval.ResampleUnder, ClassWeight: eval.ClassWeightBalanced, Discretize: eval.DiscretizeMDL},
		{Select: "forward:2", Indicator: true, Scale: eval.ScaleRobust},
		{Select: "backward:1", Resample: eval.ResampleSMOTE, Impute: eval.ImputeMedian, Scale: eval.ScaleMinMax},
	} {
		t.Run(fmt.Sprintf("%+v", pl), func(t *testing.T) {
			tab := readCSV(t, "gaps.csv", pipelineCSV())
			res, d, spec, v := fit(t, tab, "", "fake-centroid", nil, eval.Options{Split: 0.3, Seed: 2, Pipeline: pl})
			m, _ := saveLoad(t, res, d, spec, v)
			if pl.Select != "" && (len(res.Parts) != 1 || len(res.Parts[0].Features) != len(m.Prep.Selected()) || !slices.Contains(m.Prep.Used(), false)) {
				t.Fatalf("parts %+v, the file selects %v (used %v)", res.Parts, m.Prep.Selected(), m.Prep.Used())
			}
			if pl.Resample != "" && (len(res.Parts) != 1 || slices.Equal(res.Parts[0].Rows, res.Parts[0].Before)) {
				t.Fatalf("parts %+v: nothing resampled", res.Parts)
			}
			if feats := strings.Join(m.Prep.Features(), " "); pl.Indicator != strings.Contains(feats, "missing_a") ||
				pl.Discretize != "" && pl.Encode != eval.EncodeOrdinal && !strings.Contains(feats, "a=") {
				t.Fatalf("the file's features %s do not follow the pipeline", feats)
			}
			got, err := m.Predict(readCSV(t, "gaps.csv", pipelineCSV()), false)
			if err != nil {
				t.Fatal(err)
			}
			for k, r := range res.TestRows {
				if want := d.Classes[int(res.Predicted[k])]; got.Labels[r] != want {
					t.Fatalf("row %d: the file predicts %s, the run %s", r+1, got.Labels[r], want)
				}
			}
		})
	}
}

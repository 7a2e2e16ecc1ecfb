package rank

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// A filter selection inside eval's training parts keeps each part's top k
// by the ranking the Features screen shows; the fit on all rows keeps the
// top k of the whole data.
func TestFilterSelectionInEval(t *testing.T) {
	d := builtin(t, "breast_cancer")
	spec, _ := engine.Lookup("logistic")
	for _, method := range []string{"info_gain", "chi2", "relieff"} {
		res, err := eval.Run(context.Background(), d, spec, nil, eval.Options{Folds: 3, Seed: 1, Pipeline: eval.Pipeline{Select: method + ":4"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := Rank(context.Background(), d, []string{method}, Options{Eval: eval.Options{Seed: 1}})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		top := slices.Clone(rs[0].Order()[:4])
		slices.Sort(top)
		for _, j := range top {
			want = append(want, d.Features[j].Name)
		}
		if len(res.Parts) != 4 {
			t.Fatalf("%s: parts %+v", method, res.Parts)
		}
		for _, p := range res.Parts[:3] {
			if len(p.Features) != 4 {
				t.Errorf("%s fold %d kept %v", method, p.Fold, p.Features)
			}
		}
		if last := res.Parts[3]; last.Fold != 0 || !slices.Equal(last.Features, want) {
			t.Errorf("%s: the fit on all rows kept %v, the ranking's top 4 are %v", method, last.Features, want)
		}
	}
}

// No filter selection sees a held-out row: a sentinel row held out, whose
// values would move every ranking, leaves what each step kept as it was.
func TestFilterSelectionSeesNoHeldOutRow(t *testing.T) {
	d := builtin(t, "iris")
	n, p := d.X.Dims()
	X := mat.NewDense(n+1, p, nil)
	X.Copy(d.X)
	X.SetRow(n, []float64{1e6, -1e6, 1e6, -1e6})
	e := *d
	e.X, e.Y = X, append(slices.Clone(d.Y), 0)
	var train, test []int
	for i := range n {
		if i%4 == 0 {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	spec, _ := engine.Lookup("lda")
	for _, sel := range []string{"info_gain:2", "gain_ratio:2", "chi2:1", "mutual_info:2", "relieff:2"} {
		steps := func(data *datasets.Dataset, test []int) string {
			opt := eval.Options{Seed: 2, Plan: []eval.Fold{{Train: train, Test: test}}, Pipeline: eval.Pipeline{Select: sel}}
			res, err := eval.Run(context.Background(), data, spec, nil, opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(struct {
				P     *datasets.Prep
				Parts []eval.Part
			}{res.Prep, res.Parts})
			return string(b)
		}
		if a, b := steps(d, test), steps(&e, append(slices.Clone(test), n)); a != b {
			t.Errorf("%s: a held-out sentinel changed the selection:\n%s\n%s", sel, a, b)
		}
	}
}

package rank

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/engine/models"
)

// sklearnRef is testdata/sklearn.json, made by testdata/sklearn_ref.py.
type sklearnRef struct {
	Nominal struct {
		X      [][]float64
		Y      []float64
		Levels []int
		MI     []float64
	}
	IrisMI            map[string]float64 `json:"iris_mi"`
	WineMI            map[string]float64 `json:"wine_mi"`
	BreastCancerMI    map[string]float64 `json:"breast_cancer_mi"`
	IrisMIStd         map[string]float64 `json:"iris_mi_std"`
	WineMIStd         map[string]float64 `json:"wine_mi_std"`
	BreastCancerMIStd map[string]float64 `json:"breast_cancer_mi_std"`
	Permutation       struct {
		Split     eval.Fold
		Accuracy  float64
		Mean, Std map[string]float64
	}
}

func readSklearn(t *testing.T) sklearnRef {
	t.Helper()
	b, err := os.ReadFile("testdata/sklearn.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref sklearnRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// On nominal features, mutual information is scikit-learn's
// mutual_info_classif(discrete_features=True) to the last digits; the
// constant column scores 0 and ranks last with a note.
func TestMutualInfoNominalMatchesSklearn(t *testing.T) {
	ref := readSklearn(t).Nominal
	n, p := len(ref.X), len(ref.Levels)
	d := &datasets.Dataset{Name: "nominal", X: mat.NewDense(n, p, nil), Y: ref.Y,
		Classes: []string{"a", "b", "c"}, Task: datasets.Classification}
	for j, k := range ref.Levels {
		c := datasets.Column{Name: string(rune('p' + j)), Kind: datasets.Nominal}
		for l := range k {
			c.Levels = append(c.Levels, string(rune('0'+l)))
		}
		d.Features = append(d.Features, c)
	}
	for i, row := range ref.X {
		d.X.SetRow(i, row)
	}
	rs, err := Rank(context.Background(), d, []string{"mutual_info"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	for j, want := range ref.MI {
		if math.Abs(r.Scores[j]-want) > 1e-12 {
			t.Errorf("%s: %.15g, sklearn %.15g", r.Features[j], r.Scores[j], want)
		}
	}
	if r.Ranks[4] != 5 || r.Notes[4] == "" {
		t.Errorf("the constant column ranks %d, note %q", r.Ranks[4], r.Notes[4])
	}
}

// On numeric features, the k-nearest-neighbour estimate is
// scikit-learn's up to the noise each adds against ties (its numpy draw,
// ours PCG): within three of sklearn's own standard deviations over 20
// seeds (plus 0.002 nats), and the features in the same order where
// sklearn's scores stand further apart than that.
func TestMutualInfoContinuousNearSklearn(t *testing.T) {
	ref := readSklearn(t)
	for _, c := range []struct {
		data      string
		want, std map[string]float64
	}{{"iris", ref.IrisMI, ref.IrisMIStd}, {"wine", ref.WineMI, ref.WineMIStd}, {"breast_cancer", ref.BreastCancerMI, ref.BreastCancerMIStd}} {
		d := builtin(t, c.data)
		rs, err := Rank(context.Background(), d, []string{"mutual_info"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := rs[0]
		for j, f := range r.Features {
			tol := 3*c.std[f] + 0.002
			if math.Abs(r.Scores[j]-c.want[f]) > tol {
				t.Errorf("%s %s: %.4f, sklearn %.4f ± %.4f", c.data, f, r.Scores[j], c.want[f], c.std[f])
			}
			for k, g := range r.Features {
				if c.want[f]-c.want[g] > tol+3*c.std[g]+0.002 && r.Ranks[j] > r.Ranks[k] {
					t.Errorf("%s: %s ranks below %s, sklearn %.4f > %.4f", c.data, f, g, c.want[f], c.want[g])
				}
			}
		}
	}
}

// Permutation importance of the svm on breast_cancer's default hold-out
// (the rows sklearn_ref.py was given: the split file is eval.Plan's) is
// scikit-learn's permutation_importance of its SVC within noise: each
// mean within two standard errors of the difference (both 30 repeats),
// and the top features of each among the other's top.
func TestPermutationNearSklearn(t *testing.T) {
	ref := readSklearn(t).Permutation
	d := builtin(t, "breast_cancer")
	folds, _, err := eval.Plan(d, eval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(folds[0].Test, ref.Split.Test) || !slices.Equal(folds[0].Train, ref.Split.Train) {
		t.Fatal("eval.Plan's hold-out of breast_cancer is no longer the split of testdata/sklearn.json: run testdata/gen_sklearn.sh")
	}
	spec, err := engine.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	const repeats = 30
	rs, err := Rank(context.Background(), d, []string{"permutation"}, Options{Model: spec, Repeats: repeats})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	for j, f := range r.Features {
		se := math.Sqrt((r.Std[j]*r.Std[j] + ref.Std[f]*ref.Std[f]) / repeats)
		if diff := math.Abs(r.Scores[j] - ref.Mean[f]); diff > 2*se+0.002 {
			t.Errorf("%s: %.4f ± %.4f, sklearn %.4f ± %.4f", f, r.Scores[j], r.Std[j], ref.Mean[f], ref.Std[f])
		}
	}
	order := r.Order()
	var want []string
	for f := range ref.Mean {
		want = append(want, f)
	}
	slices.SortFunc(want, func(a, b string) int {
		if ref.Mean[a] > ref.Mean[b] {
			return -1
		}
		if ref.Mean[a] < ref.Mean[b] {
			return 1
		}
		return 0
	})
	for _, j := range order[:3] {
		if !slices.Contains(want[:8], r.Features[j]) {
			t.Errorf("tealab's top 3 has %s, not in sklearn's top 8 %v", r.Features[j], want[:8])
		}
	}
	for _, f := range want[:3] {
		if j := slices.Index(r.Features, f); r.Ranks[j] > 8 {
			t.Errorf("sklearn's top 3 has %s, tealab ranks it %d", f, r.Ranks[j])
		}
	}
	t.Logf("eval %s; top: %s %.4f±%.4f, %s %.4f±%.4f", r.Eval, r.Features[order[0]], r.Scores[order[0]], r.Std[order[0]], r.Features[order[1]], r.Scores[order[1]], r.Std[order[1]])
}

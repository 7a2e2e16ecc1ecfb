package datasets

//go:generate sh -c "cd .. && /usr/bin/python3 datasets/testdata/prep_sklearn.py"

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sklearnPrep is testdata/prep_sklearn.json, written by prep_sklearn.py
// with scikit-learn 1.2.
type sklearnPrep struct {
	X                 [][]*float64
	IndicatorFeatures []int `json:"indicator_features"`
	Indicator         [][]float64
	Filled            [][]float64
	Standard, Minmax  [][]float64
	Robust            [][]float64
	Impute            map[string][]float64
	Bins              map[string][][]float64
	Edges             map[string][][]float64
}

func readSklearnPrep(t *testing.T) (sklearnPrep, *mat.Dense) {
	t.Helper()
	b, err := os.ReadFile("testdata/prep_sklearn.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	var ref sklearnPrep
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	ref.Impute, ref.Bins, ref.Edges = map[string][]float64{}, map[string][][]float64{}, map[string][][]float64{}
	for _, s := range ImputeStrategies {
		var v []float64
		if err := json.Unmarshal(raw["impute_"+s], &v); err != nil {
			t.Fatal(s, err)
		}
		ref.Impute[s] = v
	}
	for _, s := range []string{"uniform", "quantile"} {
		var v, e [][]float64
		if err := json.Unmarshal(raw["bins_"+s], &v); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw["edges_"+s], &e); err != nil {
			t.Fatal(err)
		}
		ref.Bins[s], ref.Edges[s] = v, e
	}
	X := mat.NewDense(len(ref.X), len(ref.X[0]), nil)
	for i, row := range ref.X {
		for j, v := range row {
			if v == nil {
				X.Set(i, j, math.NaN())
			} else {
				X.Set(i, j, *v)
			}
		}
	}
	return ref, X
}

func matEqual(t *testing.T, what string, got *mat.Dense, want [][]float64, tol float64) {
	t.Helper()
	r, c := got.Dims()
	if r != len(want) || c != len(want[0]) {
		t.Fatalf("%s: %dx%d, want %dx%d", what, r, c, len(want), len(want[0]))
	}
	for i := range r {
		for j := range c {
			if g, w := got.At(i, j), want[i][j]; math.Abs(g-w) > tol*(1+math.Abs(w)) {
				t.Errorf("%s[%d][%d] = %v, want %v", what, i, j, g, w)
			}
		}
	}
}

// TestPipelineSklearn checks the stages a person chooses against
// scikit-learn 1.2's SimpleImputer, MissingIndicator, StandardScaler,
// MinMaxScaler, RobustScaler and KBinsDiscretizer (uniform and quantile,
// ordinal), on the data of testdata/prep_sklearn.py.
func TestPipelineSklearn(t *testing.T) {
	ref, X := readSklearnPrep(t)
	for _, s := range ImputeStrategies {
		im := &Imputer{Strategy: s, Value: -1}
		if err := im.Fit(X, nil); err != nil {
			t.Fatal(s, err)
		}
		for j, w := range ref.Impute[s] {
			if g := im.Fill()[j]; math.Abs(g-w) > 1e-12 {
				t.Errorf("impute %s: column %d fill %v, want %v", s, j, g, w)
			}
		}
	}
	p, Z, err := FitApplyPrepRows(X, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, nil, PrepOptions{Indicator: true, KeepConstant: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Features(); len(got) != 5 || got[3] != "missing_x0" || got[4] != "missing_x1" {
		t.Fatalf("features %v, want the inputs then missing_x0, missing_x1 (sklearn: %v)", got, ref.IndicatorFeatures)
	}
	matEqual(t, "indicator", Z.Slice(0, 12, 3, 5).(*mat.Dense), ref.Indicator, 0)
	matEqual(t, "mean-imputed", Z.Slice(0, 12, 0, 3).(*mat.Dense), ref.Filled, 1e-12)
	F := mat.DenseCopyOf(Z.Slice(0, 12, 0, 3))
	for method, want := range map[string][][]float64{ScaleStandard: ref.Standard, ScaleMinMax: ref.Minmax, ScaleRobust: ref.Robust} {
		s := &Standardizer{Method: method}
		if err := s.Fit(F); err != nil {
			t.Fatal(err)
		}
		got, _ := s.Apply(F)
		matEqual(t, method, got, want, 1e-12)
	}
	for method, name := range map[string]string{BinWidth: "uniform", BinFrequency: "quantile"} {
		b := &Discretizer{Method: method, Bins: 4}
		if err := b.Fit(F, nil); err != nil {
			t.Fatal(err)
		}
		for j, cuts := range b.Cuts() {
			edges := ref.Edges[name][j]
			inner := edges[1 : len(edges)-1]
			if len(cuts) != len(inner) {
				t.Fatalf("%s column %d: edges %v, sklearn's inner edges %v", method, j, cuts, inner)
			}
			for k := range cuts {
				if math.Abs(cuts[k]-inner[k]) > 1e-12*(1+math.Abs(inner[k])) {
					t.Errorf("%s column %d: edge %v, want %v", method, j, cuts[k], inner[k])
				}
			}
		}
		got := mat.DenseCopyOf(F)
		b.applyInPlace(got)
		matEqual(t, method+" bins", got, ref.Bins[name], 0)
	}
}

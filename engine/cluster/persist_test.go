package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// persisted fits a clustering on blobs, writes its state and loads it into
// a model built afresh with the same settings.
func persisted(t *testing.T, name string, settings map[string]string, X *mat.Dense) (fitted, loaded engine.Model, state []byte) {
	t.Helper()
	return persisttest.Persisted(t, persisttest.Case{Name: name, Settings: settings, Train: engine.Train{X: X, Seed: 1, KnownClasses: 3}})
}

// placed is where a clustering puts new rows: Predict, or Assign for one
// that only labels its own rows.
func placed(t *testing.T, m engine.Model, X mat.Matrix) []float64 {
	t.Helper()
	var out []float64
	var err error
	switch c := m.(type) {
	case engine.Predictor:
		out, err = c.Predict(X)
	case engine.Assigner:
		out, err = c.Assign(X)
	default:
		t.Fatalf("%T neither predicts nor assigns", m)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every clustering, fitted, saved and loaded, places new rows, gives
// probabilities and shows what it learned (labels, centres, merge tree)
// bit for bit as it did.
func TestClusteringsPersist(t *testing.T) {
	X := table(t, "blobs:n=120,centers=3,dims=3,seed=4", "").X
	Y := table(t, "blobs:n=60,centers=3,dims=3,seed=5", "").X
	cases := []struct {
		model    string
		settings map[string]string
	}{
		{"kmeans", map[string]string{"k": "3", "restarts": "2"}},
		{"kmedoids", map[string]string{"metric": "l1", "restarts": "2"}},
		{"gmm", nil},
		{"gmm", map[string]string{"covariance": CovDiagonal}},
		{"gmm", map[string]string{"covariance": CovSpherical}},
		{"hclust", map[string]string{"linkage": Single}},
		{"hclust", map[string]string{"linkage": Divisive, "k": "4"}},
		{"spectral", map[string]string{"graph": GraphGaussian}},
	}
	for _, c := range cases {
		fitted, loaded, _ := persisted(t, c.model, c.settings, X)
		for _, Z := range []*mat.Dense{X, Y} {
			if !slices.Equal(placed(t, fitted, Z), placed(t, loaded, Z)) {
				t.Errorf("%s %v: the loaded model places rows otherwise", c.model, c.settings)
			}
		}
		if pr, ok := fitted.(engine.Prober); ok {
			Pa, _ := pr.PredictProba(Y)
			Pb, _ := loaded.(engine.Prober).PredictProba(Y)
			if !slices.EqualFunc(Pa.RawMatrix().Data, Pb.RawMatrix().Data, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Errorf("%s %v: the loaded model's probabilities differ", c.model, c.settings)
			}
		}
		la, _ := engine.Learned(fitted)
		lb, _ := engine.Learned(loaded)
		if la["labels"] == nil || !reflect.DeepEqual(la, lb) {
			t.Errorf("%s %v: the loaded model learned otherwise", c.model, c.settings)
		}
	}
}

// Hierarchical and spectral clustering assign a row to the cluster of its
// nearest training row, so each training row to its own cluster; they stay
// Labelers that do not predict, so evaluation scores them as before.
func TestAssignNearestTrainingRow(t *testing.T) {
	X := table(t, "blobs:n=90,centers=3,dims=2,seed=6", "").X
	for _, name := range []string{"hclust", "spectral"} {
		m := engine.MustBuild(name, nil)
		if _, err := m.(engine.Assigner).Assign(X); !errors.Is(err, engine.ErrNotFitted) {
			t.Errorf("%s: Assign before Fit: %v", name, err)
		}
		if err := engine.Fit(context.Background(), m, engine.Train{X: X, Seed: 1, KnownClasses: 3}, nil); err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(engine.Predictor); ok {
			t.Errorf("%s predicts: evaluation would score its predictions, not its labels", name)
		}
		got := placed(t, m, X)
		want, _ := engine.ClusterLabels(m, X)
		if !slices.Equal(got, want) {
			t.Errorf("%s: training rows assigned %v, labelled %v", name, got, want)
		}
		near := mat.DenseCopyOf(X.Slice(0, 2, 0, 2))
		near.Set(0, 0, near.At(0, 0)+1e-9)
		near.Set(1, 1, near.At(1, 1)-1e-9)
		if got := placed(t, m, near); !slices.Equal(got, want[:2]) {
			t.Errorf("%s: rows beside training rows 0 and 1 assigned %v, want %v", name, got, want[:2])
		}
	}
}

type mutation struct {
	name   string
	change func(s map[string]any)
	want   string // in the error
}

// refuses checks that every mutated state is an error that says what is
// wrong, and leaves the model unfitted.
func refuses(t *testing.T, model string, settings map[string]string, state []byte, muts []mutation) {
	t.Helper()
	bad := map[string][]byte{"truncated": state[:len(state)/2]}
	want := map[string]string{"truncated": "truncated"}
	for _, m := range muts {
		var s map[string]any
		if err := json.Unmarshal(state, &s); err != nil {
			t.Fatal(err)
		}
		m.change(s)
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		bad[m.name], want[m.name] = b, m.want
	}
	for name, b := range bad {
		m := engine.MustBuild(model, settings)
		err := m.(engine.Persistent).UnmarshalState(b)
		if err == nil || !strings.Contains(err.Error(), want[name]) {
			t.Errorf("%s, %s: got %v, want an error saying %q", model, name, err, want[name])
			continue
		}
		var perr error
		switch c := m.(type) {
		case engine.Predictor:
			_, perr = c.Predict(mat.NewDense(1, 3, nil))
		case engine.Assigner:
			_, perr = c.Assign(mat.NewDense(1, 3, nil))
		}
		if !errors.Is(perr, engine.ErrNotFitted) {
			t.Errorf("%s, %s: a refused state leaves the model fitted (%v)", model, name, perr)
		}
	}
}

// list is the list under key in s.
func list(s map[string]any, key string) []any { return s[key].([]any) }

// A clustering state edited by hand is refused with what is wrong.
func TestClusteringStateRefused(t *testing.T) {
	X := table(t, "blobs:n=40,centers=3,dims=3,seed=4", "").X
	k3 := map[string]string{"k": "3"}
	_, _, state := persisted(t, "kmeans", k3, X)
	refuses(t, "kmeans", k3, state, []mutation{
		{"ragged centres", func(s map[string]any) { list(s, "centres")[1] = []any{1.0} }, "row 1 has 1 values"},
		{"fewer centres than k", func(s map[string]any) { s["centres"] = list(s, "centres")[1:] }, "k=3"},
		{"label out of range", func(s map[string]any) { list(s, "labels")[0] = 3.0 }, "cluster 3"},
		{"another model's state", func(s map[string]any) { s["rows"] = []any{} }, `unknown field "rows"`},
	})
	_, _, state = persisted(t, "kmedoids", k3, X)
	refuses(t, "kmedoids", k3, state, []mutation{
		{"no medoids", func(s map[string]any) { s["medoids"] = []any{} }, "no medoids"},
	})
	_, _, state = persisted(t, "gmm", nil, X)
	refuses(t, "gmm", nil, state, []mutation{
		{"weights missing", func(s map[string]any) { s["weights"] = list(s, "weights")[1:] }, "2 weights for 3 components"},
		{"zero weight", func(s map[string]any) { list(s, "weights")[0] = 0.0 }, "not positive"},
		{"asymmetric covariance", func(s map[string]any) {
			C := list(s, "covariances")[0].([]any)
			C[0].([]any)[1] = 5.0
		}, "not symmetric"},
		{"indefinite covariance", func(s map[string]any) {
			C := list(s, "covariances")[1].([]any)
			C[0].([]any)[0] = -1.0
		}, "not positive definite"},
		{"variances for a full covariance", func(s map[string]any) { s["variances"] = []any{[]any{1.0}} }, "covariance=full"},
	})
	_, _, state = persisted(t, "hclust", nil, X)
	refuses(t, "hclust", nil, state, []mutation{
		{"merge joins itself", func(s map[string]any) { list(s, "merge_a")[0] = float64(len(list(s, "rows"))) }, "merge 0 joins cluster 40"},
		{"merge reuses a cluster", func(s map[string]any) { list(s, "merge_a")[1] = list(s, "merge_a")[0] }, "merge 1 joins cluster"},
		{"wrong size", func(s map[string]any) { list(s, "merge_size")[0] = 3.0 }, "into 3 rows"},
		{"labels missing", func(s map[string]any) { s["labels"] = list(s, "labels")[1:] }, "39 labels for 40 rows"},
		{"ragged rows", func(s map[string]any) { list(s, "rows")[3] = []any{1.0, 2.0} }, "row 3 has 2 values"},
	})
	_, _, state = persisted(t, "spectral", map[string]string{"graph": GraphGaussian}, X)
	refuses(t, "spectral", map[string]string{"graph": GraphGaussian}, state, []mutation{
		{"label out of range", func(s map[string]any) { list(s, "labels")[0] = -1.0 }, "cluster -1"},
	})
}

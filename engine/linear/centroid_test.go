package linear

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// Worked example in the style of Shewchuk, Concise Machine Learning, lecture 2: class a = {(0,0), (2,0)},
// class b = {(0,2), (2,2)}, so μ_a = (1,0), μ_b = (1,2) and
// f(x) = (μ_b−μ_a)·x − (μ_b−μ_a)·(μ_b+μ_a)/2 = (0,2)·x − (0,2)·(1,1) = 2x₂ − 2.
// At (5,3), f = 4 (class b); at (−7, 0.5), f = −1 (class a).
func TestCentroidNotesExample(t *testing.T) {
	d := engine.Train{
		X:       mat.NewDense(4, 2, []float64{0, 0, 2, 0, 0, 2, 2, 2}),
		Y:       []float64{0, 0, 1, 1},
		Classes: []string{"a", "b"},
	}
	var m Centroid
	rec := &linRec{}
	if err := engine.Fit(context.Background(), &m, d, rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.steps) != 1 || rec.steps[0].TrainLoss != 0 {
		t.Errorf("steps %+v, want one step with training error 0", rec.steps)
	}
	c := m.Coefficients()
	linClose(t, "w", c.Weights.RawRowView(0), []float64{0, 2}, 1e-15)
	linClose(t, "alpha", c.Intercept, []float64{-2}, 1e-15)
	if len(c.Outputs) != 1 || c.Outputs[0] != "b" {
		t.Errorf("outputs %v, want [b]", c.Outputs)
	}
	probe := mat.NewDense(2, 2, []float64{5, 3, -7, 0.5})
	F, err := m.DecisionFunction(probe)
	if err != nil {
		t.Fatal(err)
	}
	linClose(t, "f", []float64{F.At(0, 1), F.At(1, 1)}, []float64{4, -1}, 1e-14)
	linClose(t, "-f", []float64{F.At(0, 0), F.At(1, 0)}, []float64{-4, 1}, 1e-14)
	pred, _ := m.Predict(probe)
	linClose(t, "pred", pred, []float64{1, 0}, 0)
}

// Predictions and means must equal scikit-learn's NearestCentroid exactly;
// testdata/centroid_ref.py made centroid_ref.json.
func TestCentroidSklearn(t *testing.T) {
	var ref map[string]struct {
		Centroids [][]float64
		Pred      []float64
		Probe     [][]float64
		ProbePred []float64 `json:"probe_pred"`
	}
	linJSON(t, "centroid_ref.json", &ref)
	for _, tc := range []struct{ name, file string }{
		{"iris", "logistic_iris.csv"},
		{"breast_cancer", "logistic_breast_cancer.csv"},
		{"wine", "centroid_wine.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ref[tc.name]
			d := linLoad(t, tc.file, false)
			var m Centroid
			if err := engine.Fit(context.Background(), &m, d, nil); err != nil {
				t.Fatal(err)
			}
			if len(r.Centroids) == 2 {
				// Binary coefficients are the notes' f: w = μ1 − μ0.
				w := make([]float64, len(r.Centroids[0]))
				for j := range w {
					w[j] = r.Centroids[1][j] - r.Centroids[0][j]
				}
				linClose(t, "w", m.Coefficients().Weights.RawRowView(0), w, 1e-12)
			} else {
				linClose(t, "centroids", m.Coefficients().Weights.RawMatrix().Data, linFlat(r.Centroids), 1e-12)
			}
			pred, err := m.Predict(d.X)
			if err != nil {
				t.Fatal(err)
			}
			linClose(t, "train predictions", pred, r.Pred, 0)
			P := mat.NewDense(len(r.Probe), len(r.Probe[0]), linFlat(r.Probe))
			pred, err = m.Predict(P)
			if err != nil {
				t.Fatal(err)
			}
			linClose(t, "probe predictions", pred, r.ProbePred, 0)
			// The decision function ranks classes as the distances do.
			F, err := m.DecisionFunction(P)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range pred {
				if got := floats.MaxIdx(F.RawRowView(i)); float64(got) != v {
					t.Fatalf("probe %d: decision argmax %d, prediction %v", i, got, v)
				}
			}
		})
	}
}

// Weights give weighted means: weight 2 on a row is that row twice.
func TestCentroidWeights(t *testing.T) {
	d := linLoad(t, "logistic_iris.csv", false)
	n, _ := d.X.Dims()
	var idx []int
	w := make([]float64, n)
	for i := range w {
		w[i] = float64(i % 3) // 0, 1, 2: drop, once, twice
		for k := 0; k < i%3; k++ {
			idx = append(idx, i)
		}
	}
	dw := d
	dw.Weights = w
	var a, b Centroid
	if err := engine.Fit(context.Background(), &a, dw, nil); err != nil {
		t.Fatal(err)
	}
	if err := engine.Fit(context.Background(), &b, linSubset(d, idx), nil); err != nil {
		t.Fatal(err)
	}
	linClose(t, "weighted means", a.Coefficients().Weights.RawMatrix().Data, b.Coefficients().Weights.RawMatrix().Data, 1e-13)
}

// A class that no training row has (a small CV fold) is never predicted and
// scores -MaxFloat64.
func TestCentroidAbsentClass(t *testing.T) {
	d := engine.Train{
		X:       mat.NewDense(4, 1, []float64{0, 1, 10, 11}),
		Y:       []float64{0, 0, 2, 2},
		Classes: []string{"a", "b", "c"},
	}
	var m Centroid
	if err := engine.Fit(context.Background(), &m, d, nil); err != nil {
		t.Fatal(err)
	}
	F, err := m.DecisionFunction(mat.NewDense(1, 1, []float64{5.4}))
	if err != nil {
		t.Fatal(err)
	}
	if F.At(0, 1) != -math.MaxFloat64 || !(F.At(0, 0) > F.At(0, 2)) {
		t.Errorf("scores %v", F.RawRowView(0))
	}
	c := m.Coefficients()
	if len(c.Outputs) != 1 || c.Outputs[0] != "c" {
		t.Errorf("outputs %v", c.Outputs)
	}
}

func TestCentroidBadInput(t *testing.T) {
	linBadInputs(t, func() engine.Predictor { return &Centroid{} })
}

func TestCentroidRegistered(t *testing.T) {
	_, _, m, err := engine.New("centroid", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*Centroid); !ok {
		t.Fatalf("engine.New gave %T", m)
	}
	var _ engine.Scorer = m.(*Centroid)
	var _ engine.Coefficienter = m.(*Centroid)
}

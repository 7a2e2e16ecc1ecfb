package svm

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// kmLossRecorder keeps every step's TrainLoss.
type kmLossRecorder struct{ losses []float64 }

func (r *kmLossRecorder) Step(s engine.Step) error {
	r.losses = append(r.losses, s.TrainLoss)
	return nil
}

// α counts mistakes, worked by hand on OR: rows 0 (0,0) class 0, then
// (1,1), (1,0), (0,1) class 1, visited in order, the linear kernel lifted:
// k(a,b) = a·b + 1. The scores f of the four rows start at 0 and a mistake
// on row i adds y_i k(x_i, ·):
//
//	epoch 1: row 0 (f=0) wrong, f = [-1 -1 -1 -1]; row 1 (f=-1) wrong, f = [0 2 1 1]
//	epoch 2: row 0 wrong, f = [-1 1 0 0]; row 2 (f=0) wrong, f = [0 3 2 1]
//	epoch 3: row 0 wrong, f = [-1 2 1 0]; row 3 (f=0) wrong, f = [0 4 2 2]
//	epoch 4: row 0 wrong, f = [-1 3 1 1]
//	epoch 5: no mistake.
//
// So α = (4, 1, 1, 1), the share wrong per epoch is ½ ½ ½ ¼ 0, and
// f(x) = Σ α_i y_i (x_i·x + 1) = 2x₁ + 2x₂ − 1.
func TestKPerceptronAlphaCountsMistakes(t *testing.T) {
	tr := engine.Train{X: mat.NewDense(4, 2, []float64{0, 0, 1, 1, 1, 0, 0, 1}), Y: []float64{0, 1, 1, 1}, Classes: []string{"no", "yes"}}
	_, _, m, err := engine.New("kperceptron", map[string]string{"kernel": "linear", "shuffle": "false"})
	if err != nil {
		t.Fatal(err)
	}
	var rec kmLossRecorder
	if err := engine.Fit(context.Background(), m, tr, &rec); err != nil {
		t.Fatal(err)
	}
	kp := m.(*KPerceptron)
	if got, want := kp.Alpha(), [][]float64{{4}, {1}, {1}, {1}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("α = %v, want %v", got, want)
	}
	if want := []float64{0.5, 0.5, 0.5, 0.25, 0}; !slices.Equal(rec.losses, want) {
		t.Errorf("share wrong per epoch %v, want %v", rec.losses, want)
	}
	at := mat.NewDense(3, 2, []float64{0, 0, 1, 1, 0.5, -1})
	S, err := kp.DecisionFunction(at)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{-1, 3, -2} {
		if got := S.At(i, 1); got != want || S.At(i, 0) != -want {
			t.Errorf("f(%v) = %g, want 2x₁ + 2x₂ − 1 = %g", at.RawRowView(i), got, want)
		}
	}
	if sv := kp.SupportVectors(); len(sv.Rows) != 4 || sv.Coef[0][0] != -4 || sv.Class[0] != "no" {
		t.Errorf("support vectors %+v: want the four rows, row 0 of class no with α y = -4", sv)
	}
}

// kmXOR is the xor built-in split in two: the first 160 rows to fit,
// the other 40 to score.
func kmXOR(t *testing.T) (fit engine.Train, X mat.Matrix, y []float64) {
	tab, err := datasets.Open("xor")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Classification)
	if err != nil {
		t.Fatal(err)
	}
	n, p := d.X.Dims()
	fit = engine.Train{X: mat.DenseCopyOf(d.X.Slice(0, 160, 0, p)), Y: d.Y[:160], Classes: d.Classes, Seed: 1}
	return fit, d.X.Slice(160, n, 0, p), d.Y[160:]
}

func kmAccuracy(pred, y []float64) float64 {
	right := 0
	for i := range y {
		if pred[i] == y[i] {
			right++
		}
	}
	return float64(right) / float64(len(y))
}

// The kernel perceptron separates xor, which no line can: it makes no
// mistake on its training rows and few on rows it has not seen; the
// linear kernel cannot do either.
func TestKPerceptronSeparatesXOR(t *testing.T) {
	tr, X, y := kmXOR(t)
	for _, c := range []struct {
		kernel    string
		separates bool
	}{{"rbf", true}, {"linear", false}} {
		m := kmFit(t, "kperceptron", map[string]string{"kernel": c.kernel}, tr)
		fitted, _ := m.(engine.Predictor).Predict(tr.X)
		held, _ := m.(engine.Predictor).Predict(X)
		train, test := kmAccuracy(fitted, tr.Y), kmAccuracy(held, y)
		if c.separates && (train != 1 || test < 0.9) || !c.separates && (train > 0.8 || test > 0.8) {
			t.Errorf("kernel %s: training accuracy %.3f, hold-out %.3f", c.kernel, train, test)
		}
	}
}

// Kernel rows computed again at each mistake give the fit that keeping
// them gives, on several classes (one-vs-rest) with sample weights.
func TestKPerceptronRowsOnDemand(t *testing.T) {
	tab, err := datasets.Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Classification)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, len(d.Y))
	for i := range w {
		w[i] = float64(i%3) / 2
	}
	tr := engine.Train{X: d.X, Y: d.Y, Classes: d.Classes, Weights: w, Seed: 3}
	settings := map[string]string{"kernel": "poly", "degree": "2", "epochs": "30"}
	kept := kmFit(t, "kperceptron", settings, tr).(*KPerceptron)
	again := engine.MustBuild("kperceptron", settings).(*KPerceptron)
	again.cacheMax = -1 // no row kept: every row computed when it is needed
	if err := engine.Fit(context.Background(), again, tr, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(kept.Alpha(), again.Alpha(), slices.Equal) || !slices.Equal(kept.index, again.index) {
		t.Errorf("α with kept rows and with rows on demand differ")
	}
	for _, i := range kept.index {
		if w[i] == 0 {
			t.Errorf("row %d of weight 0 has α > 0", i)
		}
	}
	if a := kept.Alpha(); math.Mod(a[0][0], 0.5) != 0 {
		t.Errorf("α %v: not a sum of weights", a[0])
	}
}

package svm

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// The first two updates of kernel logistic regression, by hand, on the
// rows x = 0, 1, 2 of classes 0, 0, 1 with the linear kernel lifted
// (k(a,b) = ab + 1), ε = 1 and λ = ½. From a = 0 every probability is ½:
//
//	a₁ = (ε/n)(y − ½) = (−1/6, −1/6, 1/6)
//	f₁(x) = Σ a_i (x_i x + 1) = x/6 − 1/6, so f₁ = (−1/6, 0, 1/6) on the rows
//	a₂ = (1 − ελ) a₁ + (ε/n)(y − s(f₁))
//
// and TrainLoss is the mean −log p(y_i) after each update.
func TestKLogisticFirstUpdates(t *testing.T) {
	x := []float64{0, 1, 2}
	y := []float64{0, 0, 1}
	tr := engine.Train{X: mat.NewDense(3, 1, x), Y: y, Classes: []string{"a", "b"}}
	s := func(f float64) float64 { return 1 / (1 + math.Exp(-f)) }
	f := func(a []float64, at float64) float64 {
		sum := 0.0
		for i, ai := range a {
			sum += ai * (x[i]*at + 1)
		}
		return sum
	}
	logLoss := func(a []float64) float64 {
		l := 0.0
		for i := range x {
			p := s(f(a, x[i]))
			if y[i] == 0 {
				p = 1 - p
			}
			l -= math.Log(p) / 3
		}
		return l
	}
	a1 := []float64{-1.0 / 6, -1.0 / 6, 1.0 / 6}
	a2 := make([]float64, 3)
	for i := range a2 {
		a2[i] = 0.5*a1[i] + (y[i]-s(f(a1, x[i])))/3
	}
	for epochs, want := range map[int][]float64{1: a1, 2: a2} {
		_, _, m, err := engine.New("klogistic", map[string]string{"kernel": "linear", "lr": "1", "lambda": "0.5", "epochs": engine.Format(float64(epochs))})
		if err != nil {
			t.Fatal(err)
		}
		var rec kmLossRecorder
		if err := engine.Fit(context.Background(), m, tr, &rec); err != nil {
			t.Fatal(err)
		}
		kl := m.(*KLogistic)
		a := kl.Coef()
		for i := range want {
			if math.Abs(a.At(i, 0)-want[i]) > 1e-15 {
				t.Errorf("after %d updates a = %v, want %v", epochs, mat.Col(nil, 0, a), want)
				break
			}
		}
		if got := rec.losses[epochs-1]; math.Abs(got-logLoss(want)) > 1e-15 {
			t.Errorf("after %d updates TrainLoss %g, want %g", epochs, got, logLoss(want))
		}
		P, err := kl.PredictProba(mat.NewDense(1, 1, []float64{4}))
		if err != nil {
			t.Fatal(err)
		}
		if p := s(f(want, 4)); math.Abs(P.At(0, 1)-p) > 1e-15 || math.Abs(P.At(0, 0)-(1-p)) > 1e-15 {
			t.Errorf("after %d updates P(x=4) = %v, want (%g, %g)", epochs, P.RawRowView(0), 1-p, p)
		}
	}
}

// On xor kernel logistic regression with the RBF kernel is right on rows it
// has not seen, its probabilities of several classes sum to 1, and a step
// too large for the penalty's shrinking (1 − ελ < −1) diverges with
// engine.ErrDiverged, naming the learning rate.
func TestKLogisticFitsXORAndGuardsDivergence(t *testing.T) {
	tr, X, y := kmXOR(t)
	m := kmFit(t, "klogistic", nil, tr)
	pred, _ := m.(engine.Predictor).Predict(X)
	if acc := kmAccuracy(pred, y); acc < 0.9 {
		t.Errorf("xor hold-out accuracy %.3f", acc)
	}
	three := tr
	three.Y = append([]float64(nil), tr.Y...)
	three.Classes = []string{"a", "b", "c"}
	for i := range three.Y {
		if i%5 == 0 {
			three.Y[i] = 2
		}
	}
	P, err := kmFit(t, "klogistic", map[string]string{"epochs": "20"}, three).(engine.Prober).PredictProba(X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		if sum := mat.Sum(P.RowView(i)); math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: probabilities %v sum to %g", i, P.RawRowView(i), sum)
		}
	}
	_, _, bad, _ := engine.New("klogistic", map[string]string{"lr": "1000", "lambda": "10"})
	err = engine.Fit(context.Background(), bad, tr, nil)
	if !errors.Is(err, engine.ErrDiverged) || !strings.Contains(err.Error(), "lr=1000") {
		t.Errorf("lr=1000 lambda=10: %v, want a divergence naming lr", err)
	}
}

// Steps too large for the kernel make the loss jump about; the fit says so
// (and a model file keeps the warning), while the default steps settle.
func TestKLogisticWarnsWhenTheLossDoesNotSettle(t *testing.T) {
	tr := svcReferenceSet(t, "iris")
	if w := kmFit(t, "klogistic", nil, tr).(engine.Warner).Warnings(); len(w) != 0 {
		t.Errorf("default lr: %v", w)
	}
	m := kmFit(t, "klogistic", map[string]string{"lr": "1000"}, tr)
	w := m.(engine.Warner).Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "lower lr (1000)") {
		t.Fatalf("lr=1000: warnings %q", w)
	}
	data, err := m.(engine.Persistent).MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	_, _, back, _ := engine.New("klogistic", map[string]string{"lr": "1000"})
	if err := back.(engine.Persistent).UnmarshalState(data); err != nil {
		t.Fatal(err)
	}
	if got := back.(engine.Warner).Warnings(); len(got) != 1 || got[0] != w[0] {
		t.Errorf("read back: %q, want %q", got, w)
	}
}

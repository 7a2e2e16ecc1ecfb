package gda

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// nominalTrain loads testdata/nominal.arff (written by nominal.py) as the
// model would get it: level codes, NaN for missing values, the columns'
// kinds. With complete set, only the rows without a missing value.
func nominalTrain(t *testing.T, complete bool) (engine.Train, *datasets.Dataset) {
	t.Helper()
	tab, err := datasets.LoadFile("testdata/nominal.arff")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	var rows []int
	for i := range d.Rows() {
		ok := true
		for _, v := range d.X.RawRowView(i) {
			ok = ok && !math.IsNaN(v)
		}
		if ok || !complete {
			rows = append(rows, i)
		}
	}
	sub := d.Subset(rows)
	return engine.Train{X: sub.X, Y: sub.Y, Classes: d.Classes, Features: d.FeatureNames(), Columns: d.Features}, d
}

// Posteriors and predictions equal scikit-learn's CategoricalNB on the
// complete rows (testdata/cnb_ref.py).
func TestCNBMatchesScikitLearn(t *testing.T) {
	b, err := os.ReadFile("testdata/cnb_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Rows  int
		Cases []struct {
			Alpha float64
			Index []int
			Proba [][]float64
			Pred  []float64
		}
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	tr, _ := nominalTrain(t, true)
	if tr.Rows() != ref.Rows {
		t.Fatalf("%d complete rows, the reference has %d", tr.Rows(), ref.Rows)
	}
	for _, c := range ref.Cases {
		m := &CategoricalNB{Alpha: c.Alpha, VarSmoothing: DefaultVarSmoothing}
		if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
			t.Fatal(err)
		}
		P, err := m.PredictProba(tr.X)
		if err != nil {
			t.Fatal(err)
		}
		for a, i := range c.Index {
			for k, want := range c.Proba[a] {
				if got := P.At(i, k); math.Abs(got-want) > 1e-12 {
					t.Errorf("alpha %g row %d class %d: %.15f, want %.15f", c.Alpha, i, k, got, want)
				}
			}
		}
		pred, _ := m.Predict(tr.X)
		for i, want := range c.Pred {
			if pred[i] != want {
				t.Errorf("alpha %g row %d: predicted %v, want %v", c.Alpha, i, pred[i], want)
				break
			}
		}
	}
}

// On numeric features alone it is Gaussian naive Bayes.
func TestCNBNumericIsGaussianNB(t *testing.T) {
	tr := loadCSV(t, "wine")
	a, b := &CategoricalNB{Alpha: 1, VarSmoothing: DefaultVarSmoothing}, &GaussianNB{VarSmoothing: DefaultVarSmoothing}
	if err := engine.Fit(context.Background(), a, tr, nil); err != nil {
		t.Fatal(err)
	}
	if err := engine.Fit(context.Background(), b, tr, nil); err != nil {
		t.Fatal(err)
	}
	pa, _ := a.PredictProba(tr.X)
	pb, _ := b.PredictProba(tr.X)
	if !mat.EqualApprox(pa, pb, 1e-9) {
		t.Error("numeric-only categorical NB differs from Gaussian NB")
	}
}

// A missing value is left out of the product: a row with every feature
// missing gets the prior, and one missing feature is the product of the
// others.
func TestCNBMissing(t *testing.T) {
	tr, _ := nominalTrain(t, false)
	m := &CategoricalNB{Alpha: 1, VarSmoothing: DefaultVarSmoothing}
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
		t.Fatal(err)
	}
	_, d := tr.X.Dims()
	x := mat.NewDense(2, d, nil)
	for j := range d {
		x.Set(0, j, math.NaN())
		x.Set(1, j, tr.X.At(0, j))
	}
	x.Set(1, 2, math.NaN())
	P, err := m.PredictProba(x)
	if err != nil {
		t.Fatal(err)
	}
	prior := 201.0 / 286
	if math.Abs(P.At(0, 0)-prior) > 1e-12 {
		t.Errorf("all missing: P(class 0) = %v, want the prior %v", P.At(0, 0), prior)
	}
	// The same by hand from the level probabilities.
	logp := []float64{math.Log(prior), math.Log(1 - prior)}
	for j := range d {
		if j == 2 || math.IsNaN(x.At(1, j)) {
			continue
		}
		L := m.LevelProbs(j)
		for c := range logp {
			logp[c] += math.Log(L.At(c, int(x.At(1, j))))
		}
	}
	want := 1 / (1 + math.Exp(logp[1]-logp[0]))
	if math.Abs(P.At(1, 0)-want) > 1e-12 {
		t.Errorf("one missing: P(class 0) = %v, want %v", P.At(1, 0), want)
	}
}

// On all-nominal data, counting levels beats Gaussians on one-hot columns,
// which score below the majority baseline (what the UCI breast-cancer data
// shows in Weka: NaiveBayes about 72%); Gaussian NB warns and points to cnb.
func TestCNBBeatsGaussianOnNominal(t *testing.T) {
	_, d := nominalTrain(t, false)
	score := func(model string) *eval.Result {
		spec, err := engine.Lookup(model)
		if err != nil {
			t.Fatal(err)
		}
		res, err := eval.Run(context.Background(), d, spec, nil, eval.Options{Folds: 10, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	cnb, gnb := score("cnb"), score("gnb")
	base := cnb.Baseline["accuracy"]
	if !(cnb.Metrics["accuracy"] > base) || !(cnb.Metrics["accuracy"] > gnb.Metrics["accuracy"]+0.2) {
		t.Errorf("cnb %.3f, gnb %.3f, baseline %.3f: want cnb above both", cnb.Metrics["accuracy"], gnb.Metrics["accuracy"], base)
	}
	if len(gnb.Warnings) == 0 || !reflect.DeepEqual(gnb.Warnings[0].Remedies, []advice.Remedy{{Kind: advice.Model, Model: "cnb"}}) || len(cnb.Warnings) != 0 {
		t.Errorf("warnings: gnb %q, cnb %q", gnb.Warnings, cnb.Warnings)
	}
	t.Logf("10-fold CV accuracy: cnb %.4f, gnb %.4f, baseline %.4f", cnb.Metrics["accuracy"], gnb.Metrics["accuracy"], base)
}

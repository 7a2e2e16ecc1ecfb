package models_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/modelfile"
)

// TestModelFiles: every registered model that implements engine.Persistent
// is fitted on a built-in of each of its tasks (and, for a classifier, on
// rows with nominal columns), saved as a model file, loaded back and
// applied to the same rows with their columns in another order: it must
// predict what the fitted model predicts (a hierarchical or spectral
// clustering: put each row in its own cluster). Every model has a file.
func TestModelFiles(t *testing.T) {
	t.Parallel()
	var notYet, notApplicable []string
	for _, s := range engine.Specs() {
		m, err := s.New(s.Defaults())
		if err != nil {
			t.Errorf("model %s: %v", s.Name, err)
			continue
		}
		if _, ok := m.(engine.Persistent); !ok {
			notYet = append(notYet, s.Name)
			continue
		}
		for _, task := range s.Tasks {
			sets := []*datasets.Table{builtinTable(t, taskSets[task][0].name)}
			if task == datasets.Classification {
				sets = append(sets, nominalTable(t))
			}
			for _, tab := range sets {
				t.Run(s.Name+"/"+tab.Name, func(t *testing.T) {
					if why := checkModelFile(t, s, task, tab); why != "" {
						notApplicable = append(notApplicable, s.Name+" ("+why+")")
					}
				})
			}
		}
	}
	if len(notYet) > 0 {
		t.Errorf("not persistent (no model file): %s", strings.Join(notYet, ", "))
	}
	if len(notApplicable) > 0 {
		t.Errorf("persistent, but a model file cannot be applied: %s", strings.Join(notApplicable, "; "))
	}
}

func builtinTable(t *testing.T, name string) *datasets.Table {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// nominalTable is 90 rows of three classes told apart by a nominal column
// (with a missing value) and a numeric one, seeded.
func nominalTable(t *testing.T) *datasets.Table {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 21))
	colours := []string{"red", "green", "blue", "grey"}
	var b strings.Builder
	b.WriteString("colour,size,weight,kind\n")
	for i := range 90 {
		k := i % 3
		colour := colours[(k+rng.IntN(2))%4]
		if i == 40 {
			colour = "?"
		}
		fmt.Fprintf(&b, "%s,%.3f,%.3f,k%d\n", colour, float64(k)+rng.NormFloat64()*0.4, 10+rng.NormFloat64(), k)
	}
	tab, err := datasets.ReadDelimited(strings.NewReader(b.String()), "nominal.csv", 0)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// modelFileSettings overrides a model's defaults where they cannot fit the
// data: one-hot indicators sum to 1, so every class covariance of the
// nominal rows is singular without shrinkage.
var modelFileSettings = map[string]map[string]string{"qda/nominal": {"reg": "0.1"}}

// checkModelFile saves, loads and compares one fit; it returns why the
// model cannot be saved when Savable says so.
func checkModelFile(t *testing.T, s *engine.Spec, task engine.Task, tab *datasets.Table) string {
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Parse(modelFileSettings[s.Name+"/"+tab.Name])
	if err != nil {
		t.Fatal(err)
	}
	var res *eval.Result
	guard(t, s.Name, "eval.Run", func() {
		res, err = eval.Run(context.Background(), d, s, v, eval.DefaultOptions(), nil)
	})
	if err != nil {
		t.Logf("model %s on %s: %v (not saved)", s.Name, tab.Name, err)
		return ""
	}
	if err := modelfile.Savable(s, res.Fitted, res.Task); err != nil {
		return err.Error()
	}
	var buf bytes.Buffer
	if err := modelfile.Save(&buf, res, d, s, v); err != nil {
		t.Fatalf("model %s: save: %v", s.Name, err)
	}
	var m *modelfile.Model
	guard(t, s.Name, "modelfile.Load", func() { m, err = modelfile.Load(&buf) })
	if err != nil {
		t.Fatalf("model %s: load: %v", s.Name, err)
	}
	_, proba := res.Fitted.(engine.Prober)
	proba = proba && res.Task == datasets.Classification.String()
	var got *modelfile.Prediction
	guard(t, s.Name, "Predict", func() { got, err = m.Predict(reversedColumns(tab), proba) })
	if err != nil {
		t.Fatalf("model %s: predict: %v", s.Name, err)
	}
	Z, err := res.Prep.Apply(d.X)
	if err != nil {
		t.Fatal(err)
	}
	compareWithFitted(t, s.Name, res, d, Z, got)
	return ""
}

// compareWithFitted checks a loaded model's prediction against the fitted
// model's on the prepared rows Z: labels and cluster indices exactly,
// numbers to 1e-9.
func compareWithFitted(t *testing.T, name string, res *eval.Result, d *datasets.Dataset, Z *mat.Dense, got *modelfile.Prediction) {
	t.Helper()
	if tr, ok := res.Fitted.(engine.Transformer); ok && got.Components != nil {
		want, err := tr.Transform(Z)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(got.Components, want, 1e-9) {
			t.Errorf("model %s: components differ after loading", name)
		}
		return
	}
	var want []float64
	var err error
	if p, ok := res.Fitted.(engine.Predictor); ok {
		want, err = p.Predict(Z)
	} else { // a clustering that assigns a training row to its own cluster
		want, err = engine.ClusterLabels(res.Fitted, Z)
	}
	if err != nil {
		t.Fatal(err)
	}
	switch res.Task {
	case datasets.Classification.String():
		for i, c := range want {
			if got.Labels[i] != d.Classes[int(c)] {
				t.Fatalf("model %s: row %d is %s after loading, %s before", name, i+1, got.Labels[i], d.Classes[int(c)])
			}
		}
		if got.Proba != nil {
			P, _ := res.Fitted.(engine.Prober).PredictProba(Z)
			if !mat.EqualApprox(got.Proba, P, 1e-9) {
				t.Errorf("model %s: probabilities differ after loading", name)
			}
		}
	case datasets.Clustering.String():
		if !slices.Equal(got.Values, want) {
			t.Errorf("model %s: cluster indices differ after loading", name)
		}
	default:
		for i := range want {
			if math.Abs(got.Values[i]-want[i]) > 1e-9*math.Max(1, math.Abs(want[i])) {
				t.Fatalf("model %s: row %d predicts %v after loading, %v before", name, i+1, got.Values[i], want[i])
			}
		}
	}
}

// reversedColumns is tab with its columns in reverse order behind one the
// models never saw.
func reversedColumns(tab *datasets.Table) *datasets.Table {
	n, p := tab.Data.Dims()
	out := &datasets.Table{Name: tab.Name, Data: mat.NewDense(n, p+1, nil)}
	out.Columns = append(out.Columns, datasets.Column{Name: "unseen"})
	for j := p - 1; j >= 0; j-- {
		out.Columns = append(out.Columns, tab.Columns[j])
	}
	for i := range n {
		for j := range p {
			out.Data.Set(i, p-j, tab.Data.At(i, j))
		}
	}
	return out
}

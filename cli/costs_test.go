package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// costsFile writes a cost matrix of breast_cancer's classes: a false
// positive (a benign row called malignant) costs 1, a false negative 10.
func costsFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "costs.csv")
	if err := os.WriteFile(path, []byte("actual,benign,malignant\nbenign,0,1\nmalignant,10,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Issue 33's done-when: logistic regression on breast_cancer with a false
// negative ten times as costly as a false positive (malignant positive,
// the default) decides below 0.5 and costs less than at its own decision,
// on the held-out rows of a hold-out and of 5-fold CV.
func TestTrainCosts(t *testing.T) {
	t.Parallel()
	costs := costsFile(t)
	for _, scheme := range [][]string{nil, {"--cv", "5"}} {
		args := append([]string{"train", "--data", "breast_cancer", "--model", "logistic", "--costs", costs, "--json", "--no-history"}, scheme...)
		out, errOut, status := run(t, args...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", scheme, status, errOut)
		}
		var r struct {
			Positive  string             `json:"positive"`
			Threshold *float64           `json:"threshold"`
			Metrics   map[string]float64 `json:"metrics"`
			Folds     []map[string]float64
			Baseline  map[string]float64
			Costs     struct{ Classes []string }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		cost, def := r.Metrics["cost"], r.Metrics["cost_default"]
		t.Logf("%v: threshold %v, cost %v, cost_default %v, baseline %v", scheme, *r.Threshold, cost, def, r.Baseline["cost"])
		if r.Positive != "malignant" || r.Threshold == nil || *r.Threshold >= 0.5 || !(cost < def) || len(r.Costs.Classes) != 2 {
			t.Errorf("%v: positive %q, threshold %v, cost %v, cost_default %v", scheme, r.Positive, r.Threshold, cost, def)
		}
		if _, ok := r.Baseline["cost"]; !ok {
			t.Errorf("%v: no baseline cost: %v", scheme, r.Baseline)
		}
		if scheme != nil && (len(r.Folds) != 5 || r.Folds[0]["cost"] == 0 && r.Folds[0]["cost_default"] == 0) {
			t.Errorf("folds %v", r.Folds)
		}
	}
	// A saved run keeps the matrix: replayed, it scores the same cost; and
	// --save never writes over the cost matrix's file.
	save := filepath.Join(t.TempDir(), "run.json")
	first, errOut, status := run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--costs", costs, "--json", "--no-history", "--save", save)
	again, errAgain, statusAgain := run(t, "run", save, "--json", "--no-history")
	if status != 0 || statusAgain != 0 || !strings.Contains(first, `"cost": 0.06140350877192982`) || !strings.Contains(again, `"cost": 0.06140350877192982`) ||
		!strings.Contains(again, "--costs "+costs) {
		t.Errorf("replay: status %d %s, %d %s\n%.300s", status, errOut, statusAgain, errAgain, again)
	}
	if _, errOut, status := run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--costs", costs, "--no-history", "--save", costs); status == 0 {
		t.Errorf("--save over the cost matrix: %s", errOut)
	}
	text, _, _ := run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--costs", costs, "--no-history")
	for _, want := range []string{"Costs", "threshold", "cost at default", "malignant"} {
		if !strings.Contains(text, want) {
			t.Errorf("report has no %q:\n%s", want, text)
		}
	}
}

func TestTrainCostsErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.csv", "actual,benign,malignant\nbenign,0,-1\nmalignant,10,0\n")
	ugly := write("ugly.csv", "actual,benign,ugly\nbenign,0,1\nmalignant,10,0\n")
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--data", "breast_cancer", "--model", "logistic", "--costs", bad}, 1, `costs ` + bad + `: row "benign", column "malignant": the cost -1 is negative`},
		{[]string{"--data", "breast_cancer", "--model", "logistic", "--costs", ugly}, 1, `column "ugly" is not a class of the data (valid: malignant, benign)`},
		{[]string{"--data", "breast_cancer", "--model", "logistic", "--costs", filepath.Join(dir, "none.csv")}, 1, "costs: open"},
		{[]string{"--data", "diabetes", "--model", "ridge", "--costs", bad}, 2, "--costs scores a classifier's decisions; ridge does regression: leave --costs out"},
		{[]string{"--data", "iris", "--model", "kmeans", "--costs", bad}, 2, "kmeans does clustering"},
	} {
		_, errOut, status := run(t, append([]string{"train", "--no-history"}, c.args...)...)
		if status != c.status || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, %q; want %d and %q", c.args, status, errOut, c.status, c.want)
		}
	}
}

// A model file keeps the threshold of least cost, and tealab predict
// decides by it: malignant iff its probability is at least the threshold,
// and --score scores those decisions.
func TestPredictKeepsTheThreshold(t *testing.T) {
	t.Parallel()
	for _, scheme := range [][]string{nil, {"--cv", "5"}} {
		file := trainSaved(t, append([]string{"--data", "breast_cancer", "--model", "logistic", "--costs", costsFile(t), "--no-history"}, scheme...)...)
		saved, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var mf struct {
			Version   int      `json:"version"`
			Threshold *float64 `json:"threshold"`
			Positive  string   `json:"positive"`
		}
		if err := json.Unmarshal(saved, &mf); err != nil {
			t.Fatal(err)
		}
		if mf.Version != 2 || mf.Threshold == nil || *mf.Threshold >= 0.5 || mf.Positive != "malignant" {
			t.Fatalf("%v: model file version %d, threshold %v, positive %q", scheme, mf.Version, mf.Threshold, mf.Positive)
		}
		out, errOut, status := run(t, "predict", "--model-file", file, "--data", "breast_cancer", "--json", "--proba")
		if status != 0 {
			t.Fatalf("predict: status %d: %s", status, errOut)
		}
		var p struct {
			Predictions   []string
			Classes       []string
			Probabilities [][]float64
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		m := slices.Index(p.Classes, "malignant")
		below := 0 // rows called malignant below 0.5: the threshold at work
		for i, pr := range p.Probabilities {
			want := "benign"
			if pr[m] >= *mf.Threshold {
				want = "malignant"
			}
			if p.Predictions[i] != want {
				t.Fatalf("%v: row %d: p(malignant) %v, threshold %v: predicted %s", scheme, i+1, pr[m], *mf.Threshold, p.Predictions[i])
			}
			if pr[m] < 0.5 && want == "malignant" {
				below++
			}
		}
		if below == 0 {
			t.Errorf("%v: no row between the threshold %v and 0.5: the test shows nothing", scheme, *mf.Threshold)
		}
		// --score scores the thresholded decisions.
		scored, errOut, status := run(t, "predict", "--model-file", file, "--data", "breast_cancer", "--json", "--score")
		var s struct {
			Metrics   map[string]float64
			Confusion struct{ Matrix [][]int }
		}
		if status != 0 || json.Unmarshal([]byte(scored), &s) != nil {
			t.Fatalf("predict --score: status %d %s %.300s", status, errOut, scored)
		}
		calls := 0
		for _, row := range s.Confusion.Matrix {
			calls += row[m]
		}
		if calls != count(p.Predictions, "malignant") {
			t.Errorf("%v: --score's confusion calls %d rows malignant, predict %d", scheme, calls, count(p.Predictions, "malignant"))
		}
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// Under a cost matrix, predict decides as the run did (the threshold of
// least cost, Bayes's decision of three classes, or an SVM's own
// threshold) and says so; --score's cost, cost_default and the scores'
// metrics equal train --test's. Its accuracy and confusion matrix are of
// the decisions it made, where train's are of the model's own.
func TestPredictScoreUnderCosts(t *testing.T) {
	t.Parallel()
	wineCosts := filepath.Join(t.TempDir(), "wine-costs.csv")
	if err := os.WriteFile(wineCosts, []byte("actual,class_0,class_1,class_2\nclass_0,0,1,1\nclass_1,8,0,1\nclass_2,1,8,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ data, model, costs, says string }{
		{"breast_cancer", "logistic", costsFile(t), "malignant when p(malignant) ≥ 0.09091, the threshold the run chose under the cost matrix of"},
		{"breast_cancer", "svm", costsFile(t), "malignant when its decision value ≥ 0, the threshold the run chose"},
		{"wine", "lda", wineCosts, "the class of least expected cost under the cost matrix of"},
	} {
		train, test := splitFiles(t, c.data)
		file := filepath.Join(t.TempDir(), c.model+".tealab.json")
		trainJSON, errOut, status := run(t, "train", "--data", train, "--test", test, "--model", c.model, "--costs", c.costs, "--no-history", "--quiet", "--save-model", file, "--json")
		if status != 0 {
			t.Fatalf("%s on %s: train: status %d: %s", c.model, c.data, status, errOut)
		}
		predJSON, errOut, status := run(t, "predict", "--model-file", file, "--data", test, "--score", "--json")
		if status != 0 || !strings.Contains(errOut, "deciding "+c.says) {
			t.Fatalf("%s on %s: predict: status %d: %q", c.model, c.data, status, errOut)
		}
		type scored struct {
			Metrics  map[string]float64 `json:"metrics"`
			Baseline map[string]float64 `json:"baseline"`
		}
		var tr, pr scored
		if json.Unmarshal([]byte(trainJSON), &tr) != nil || json.Unmarshal([]byte(predJSON), &pr) != nil {
			t.Fatalf("%s on %s: %.200s %.200s", c.model, c.data, trainJSON, predJSON)
		}
		for _, k := range []string{"cost", "cost_default", "auc", "average_precision", "brier", "log_loss"} {
			if pr.Metrics[k] != tr.Metrics[k] || pr.Baseline[k] != tr.Baseline[k] {
				t.Errorf("%s on %s: %s %v (baseline %v), train --test's %v (%v)", c.model, c.data, k, pr.Metrics[k], pr.Baseline[k], tr.Metrics[k], tr.Baseline[k])
			}
		}
		if _, ok := pr.Metrics["cost"]; !ok {
			t.Errorf("%s on %s: no cost scored: %v", c.model, c.data, pr.Metrics)
		}
	}
}

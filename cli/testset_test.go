package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
)

// irisFiles writes iris as a training file (four rows in five) and a test
// file (every fifth row) whose columns come in another order, after a
// column the training file lacks.
func irisFiles(t *testing.T) (train, test string) {
	t.Helper()
	tab, err := datasets.Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	var tr, te strings.Builder
	names := make([]string, len(tab.Columns))
	for j, c := range tab.Columns {
		names[j] = c.Name
	}
	order := []int{4, 2, 0, 3, 1}
	tr.WriteString(strings.Join(names, ",") + "\n")
	te.WriteString("note")
	for _, j := range order {
		te.WriteString("," + names[j])
	}
	te.WriteString("\n")
	for i := range tab.Rows() {
		cell := func(j int) string {
			if c := tab.Columns[j]; c.Kind == datasets.Nominal {
				return c.Levels[int(tab.Data.At(i, j))]
			}
			return strconv.FormatFloat(tab.Data.At(i, j), 'g', -1, 64)
		}
		if i%5 != 0 {
			for j := range names {
				if j > 0 {
					tr.WriteString(",")
				}
				tr.WriteString(cell(j))
			}
			tr.WriteString("\n")
			continue
		}
		te.WriteString("row" + strconv.Itoa(i))
		for _, j := range order {
			te.WriteString("," + cell(j))
		}
		te.WriteString("\n")
	}
	dir := t.TempDir()
	train, test = filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	if err := os.WriteFile(train, []byte(tr.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, []byte(te.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return train, test
}

// Reference: scikit-learn 1.2's LinearDiscriminantAnalysis fitted on the
// same 120 training rows predicts 29 of the 30 test rows right (accuracy
// 0.96667; the one miss is a versicolor taken for virginica).
func TestTrainSuppliedTestSet(t *testing.T) {
	train, test := irisFiles(t)
	save := filepath.Join(t.TempDir(), "run.json")
	out, errOut, status := run(t, "train", "--data", train, "--test", test, "--model", "lda", "--json", "--save", save)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var r struct {
		Evaluation string             `json:"evaluation"`
		Rows       int                `json:"rows"`
		Metrics    map[string]float64 `json:"metrics"`
		Recipe     struct{ Test, Command string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Evaluation != "supplied test set "+test+" (30 rows)" || r.Rows != 120 || r.Recipe.Test != test ||
		!strings.Contains(r.Recipe.Command, "--test "+test) || math.Abs(r.Metrics["accuracy"]-29.0/30) > 1e-12 {
		t.Errorf("evaluation %q, rows %d, recipe %+v, accuracy %v", r.Evaluation, r.Rows, r.Recipe, r.Metrics["accuracy"])
	}
	saved, err := os.ReadFile(save)
	if err != nil || !strings.Contains(string(saved), `"test":`) {
		t.Errorf("saved run: %v %.200s", err, saved)
	}
	// The recipe scores on the test set again: same rows, same accuracy.
	again, errOut, status := run(t, "run", save, "--json", "--no-history")
	if status != 0 || !strings.Contains(again, `"evaluation": "supplied test set `+test+` (30 rows)"`) ||
		!strings.Contains(again, `"accuracy": 0.9666666666666667`) {
		t.Errorf("tealab run of the saved recipe: status %d %s\n%.400s", status, errOut, again)
	}
	text, _, _ := run(t, "train", "--data", train, "--test", test, "--model", "lda")
	if !strings.Contains(text, "supplied test set "+test+" (30 rows)") || !strings.Contains(text, "fitted on all 120 rows") {
		t.Errorf("report:\n%s", text)
	}
}

func TestTrainSuppliedTestSetErrors(t *testing.T) {
	train, test := irisFiles(t)
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--cv", "5"}, 2, "--cv and --test each choose the evaluation (k-fold CV, test set): choose one of --split, --cv, --loo and --test"},
		{[]string{"--loo"}, 2, "choose one of --split, --cv, --loo and --test"},
		{[]string{"--split", "0.3"}, 2, "choose one of --split, --cv, --loo and --test"},
		{[]string{"--model", "kmeans"}, 2, "kmeans does clustering"},
		{[]string{"--test", "wine"}, 1, `builtin:wine: no target column "species", which the training data train have`},
		{[]string{"--test", filepath.Join(t.TempDir(), "none.csv")}, 1, "test set: data source"},
	} {
		args := append([]string{"train", "--data", train, "--test", test, "--model", "lda"}, c.args...)
		_, errOut, status := run(t, args...)
		if status != c.status || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, %q; want %d and %q", c.args, status, errOut, c.status, c.want)
		}
	}
}

// The lab checks --test before the screen takes over.
func TestLabTestSetErrors(t *testing.T) {
	train, test := irisFiles(t)
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--test", test}, exitUsage, "--test needs --data"},
		{[]string{"--data", train, "--test", test, "--cv", "3"}, exitUsage, "choose one of --split, --cv, --loo and --test"},
		{[]string{"--data", train, "--test", test, "--model", "pca"}, exitUsage, "pca does reduction"},
		{[]string{"--data", train, "--test", "wine", "--model", "lda"}, 1, `no target column "species"`},
	} {
		_, errOut, status := run(t, c.args...)
		if status != c.status || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, %q; want %d and %q", c.args, status, errOut, c.status, c.want)
		}
	}
}

package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	_ "github.com/tealab/tealab/internal/fakemodels" // fake-centroid, fake-cluster, fake-project: persistent
)

// irisReversed writes iris with its columns in reverse order and a column
// the model never saw, and returns its path.
func irisReversed(t *testing.T) string {
	t.Helper()
	tab, err := datasets.Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("note")
	for j := len(tab.Columns) - 1; j >= 0; j-- {
		b.WriteString("," + tab.Columns[j].Name)
	}
	b.WriteString("\n")
	for i := range tab.Rows() {
		b.WriteString("x")
		for j := len(tab.Columns) - 1; j >= 0; j-- {
			c, v := tab.Columns[j], tab.Data.At(i, j)
			if c.Kind == datasets.Nominal {
				b.WriteString("," + c.Levels[int(v)])
			} else {
				b.WriteString("," + strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "iris-reversed.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// irisShownLabels is what the shown model of `train --data iris --model
// fake-centroid --cv 3` predicts for every row, computed in-process.
func irisShownLabels(t *testing.T) []string {
	t.Helper()
	tab, _ := datasets.Open("iris")
	d, err := tab.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := engine.Lookup("fake-centroid")
	res, err := eval.Run(context.Background(), d, spec, spec.Defaults(), eval.Options{Folds: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	Z, _ := res.Prep.Apply(d.X)
	pred, err := res.Fitted.(engine.Predictor).Predict(Z)
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]string, len(pred))
	for i, c := range pred {
		labels[i] = d.Classes[int(c)]
	}
	return labels
}

// trainSaved runs train with --save-model and returns the model file.
func trainSaved(t *testing.T, args ...string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "model.tealab.json")
	out, errOut, status := run(t, append(append([]string{"train"}, args...), "--save-model", file)...)
	if status != 0 {
		t.Fatalf("train: status %d: %s", status, errOut)
	}
	if !strings.Contains(out, "model saved to "+file+": fitted on ") {
		t.Errorf("the report does not say where the model went:\n%s", out)
	}
	return file
}

func TestPredictReproducesTheRun(t *testing.T) {
	t.Parallel()
	file := trainSaved(t, "--data", "iris", "--model", "fake-centroid", "--cv", "3")
	data := irisReversed(t)
	out, errOut, status := run(t, "predict", "--model-file", file, "--data", data, "--csv", "--proba")
	if status != 0 {
		t.Fatalf("predict: status %d: %s", status, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "species,P(setosa),P(versicolor),P(virginica)" {
		t.Errorf("header %s", got)
	}
	want := irisShownLabels(t)
	if len(rows) != len(want)+1 {
		t.Fatalf("%d rows, want %d", len(rows)-1, len(want))
	}
	for i, w := range want {
		if rows[i+1][0] != w {
			t.Fatalf("row %d: %s, the run's model says %s", i+1, rows[i+1][0], w)
		}
		sum := 0.0
		for _, cell := range rows[i+1][1:] {
			p, _ := strconv.ParseFloat(cell, 64)
			sum += p
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: probabilities sum to %v", i+1, sum)
		}
	}

	out, _, status = run(t, "predict", "--model-file", file, "--data", data, "--json")
	var j predictionJSON
	if err := json.Unmarshal([]byte(out), &j); status != 0 || err != nil {
		t.Fatalf("--json: status %d, %v", status, err)
	}
	if j.Task != "classification" || j.Target != "species" || j.Rows != 150 || fmt.Sprint(j.Predictions) != fmt.Sprint(want) {
		t.Errorf("--json: %+v", j)
	}

	out, _, _ = run(t, "predict", "--model-file", file, "--data", data)
	if lines := strings.Split(out, "\n"); !strings.HasPrefix(lines[0], "  row  ") || !strings.Contains(lines[0], "species") || !strings.Contains(lines[1], want[0]) {
		t.Errorf("table:\n%s", strings.Join(lines[:3], "\n"))
	}

	dest := filepath.Join(t.TempDir(), "pred.csv")
	out, _, status = run(t, "predict", "--model-file", file, "--data", data, "--csv", "--out", dest)
	written, _ := os.ReadFile(dest)
	if status != 0 || out != "" || !strings.HasPrefix(string(written), "species\nsetosa\n") {
		t.Errorf("--out: status %d, stdout %q, file %.40q", status, out, written)
	}
}

func TestPredictClusteringAndReduction(t *testing.T) {
	file := trainSaved(t, "--data", "wine", "--model", "fake-cluster", "--param", "k=4")
	out, errOut, status := run(t, "predict", "--model-file", file, "--data", "wine", "--csv")
	if status != 0 || !strings.HasPrefix(out, "cluster\n0\n") {
		t.Errorf("clustering: status %d %s\n%.40s", status, errOut, out)
	}
	file = trainSaved(t, "--data", "iris", "--model", "fake-project", "--reduce", "3")
	out, errOut, status = run(t, "predict", "--model-file", file, "--data", "iris", "--csv")
	if status != 0 || !strings.HasPrefix(out, "dim1,dim2\n") {
		t.Errorf("reduction: status %d %s\n%.40s", status, errOut, out)
	}
}

func TestPredictErrors(t *testing.T) {
	t.Parallel()
	file := trainSaved(t, "--data", "iris", "--model", "fake-centroid", "--quiet")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	truncated := write("truncated.json", string(good[:len(good)/2]))
	future := write("future.json", strings.Replace(string(good), `"version": 2`, `"version": 3`, 1))
	notModel := write("run.json", `{"data": "iris", "model": "lda"}`)
	short := write("short.csv", "sepal_length_cm,sepal_width_cm,petal_length_cm\n1,2,3\n")
	reg := trainSaved(t, "--data", "diabetes", "--model", "fake-centroid")
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--model-file", truncated, "--data", "iris"}, 1, truncated + ": not a model file: truncated"},
		{[]string{"--model-file", future, "--data", "iris"}, 1, future + ": model file version 3 was written by a newer tealab"},
		{[]string{"--model-file", notModel, "--data", "iris"}, 1, notModel + `: not a model file (it has no "format"`},
		{[]string{"--model-file", filepath.Join(dir, "none.json"), "--data", "iris"}, 1, "no such file"},
		{[]string{"--model-file", file, "--data", short}, 1, `no column "petal_width_cm", which the training data have`},
		{[]string{"--model-file", reg, "--data", "diabetes", "--proba"}, 2, "gives no probabilities"},
		{[]string{"--data", "iris"}, 2, "--model-file is required"},
		{[]string{"--model-file", file}, 2, "--data is required"},
		{[]string{"--model-file", file, "--data", "iris", "--json", "--csv"}, 2, "choose one of --json and --csv"},
		{[]string{"--model-file", file, "--data", "iris", "--out", file}, 2, "--out"},
	} {
		_, errOut, status := run(t, append([]string{"predict"}, c.args...)...)
		if status != c.status || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("predict %v: status %d, stderr %q; want %d and %q", c.args, status, errOut, c.status, c.want)
		}
	}
}

func TestSaveModelRefusals(t *testing.T) {
	dir := t.TempDir()
	data := irisReversed(t)
	if err := os.Symlink(dir, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "clitest_fortune", "--data", "iris", "--save-model", filepath.Join(dir, "m.json")}, "model clitest_fortune cannot be saved to a model file yet"},
		{[]string{"--model", "fake-centroid", "--data", data, "--target", "species", "--save-model", data}, "--save-model"},
		{[]string{"--model", "fake-centroid", "--data", "iris", "--save-model", filepath.Join(dir, "x.json"), "--save", filepath.Join(dir, "x.json")}, "is also the --save file"},
		// A new name reached through a linked directory is that name too.
		{[]string{"--model", "fake-centroid", "--data", "iris", "--save-model", filepath.Join(dir, "y.json"), "--save", filepath.Join(dir, "link", "y.json")}, "is also the --save file"},
	} {
		out, errOut, status := run(t, append([]string{"train"}, c.args...)...)
		if status != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("train %v: status %d, stderr %q, want 2 and %q before any report", c.args, status, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("a refused --save-model wrote a file")
	}
}

// A model trained on an ARFF file's nominal attribute applies to a CSV
// whose levels come in another order (codes follow the names): the colour
// alone tells the classes apart.
func TestPredictARFFModelOnCSV(t *testing.T) {
	dir := t.TempDir()
	arff := filepath.Join(dir, "pets.arff")
	var b strings.Builder
	b.WriteString("@relation pets\n@attribute colour {red,green,blue}\n@attribute size numeric\n@attribute kind {cat,dog}\n@data\n")
	for i := range 12 {
		if i%2 == 0 {
			fmt.Fprintf(&b, "red,%d,cat\n", 1+i%3)
		} else {
			fmt.Fprintf(&b, "blue,%d,dog\n", 1+i%3)
		}
	}
	if err := os.WriteFile(arff, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	file := trainSaved(t, "--data", arff, "--model", "fake-codes", "--quiet")
	csvFile := filepath.Join(dir, "new.csv")
	if err := os.WriteFile(csvFile, []byte("size,colour\n2,blue\n2,red\n3,blue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := run(t, "predict", "--model-file", file, "--data", csvFile, "--csv")
	if status != 0 || out != "kind\ndog\ncat\ndog\n" {
		t.Errorf("status %d %s, predictions %q; want dog, cat, dog", status, errOut, out)
	}
}

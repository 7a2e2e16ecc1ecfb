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
	out, errOut, status := run(t, "predict", "--model-file", file, "--data", data, "--csv", "--proba", "--keep", "")
	if status != 0 || errOut != "" {
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

	// By default the columns that are not features pass through, but the
	// target, whose name the prediction takes.
	out, errOut, _ = run(t, "predict", "--model-file", file, "--data", data)
	if lines := strings.Split(out, "\n"); !strings.HasPrefix(lines[0], "  row  note  ") || !strings.Contains(lines[0], "species") || !strings.Contains(lines[1], want[0]) {
		t.Errorf("table:\n%s", strings.Join(lines[:3], "\n"))
	}
	if errOut != "tealab: keeping note (not features of the model; --keep chooses, --keep none keeps none)\n" {
		t.Errorf("stderr %q", errOut)
	}

	dest := filepath.Join(t.TempDir(), "pred.csv")
	out, _, status = run(t, "predict", "--model-file", file, "--data", data, "--csv", "--out", dest)
	written, _ := os.ReadFile(dest)
	if status != 0 || out != "" || !strings.HasPrefix(string(written), "note,species\nx,setosa\n") {
		t.Errorf("--out: status %d, stdout %q, file %.40q", status, out, written)
	}
}

func TestPredictClusteringAndReduction(t *testing.T) {
	file := trainSaved(t, "--data", "wine", "--model", "fake-cluster", "--param", "k=4")
	out, errOut, status := run(t, "predict", "--model-file", file, "--data", "wine", "--csv")
	if status != 0 || !strings.HasPrefix(out, "cultivar,cluster\nclass_0,0\n") {
		t.Errorf("clustering: status %d %s\n%.40s", status, errOut, out)
	}
	file = trainSaved(t, "--data", "iris", "--model", "fake-project", "--reduce", "3")
	out, errOut, status = run(t, "predict", "--model-file", file, "--data", "iris", "--csv", "--keep", "none")
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

// splitFiles writes the built-in set name as a training file (three rows
// in four) and a test file (every fourth row, after an id column) and
// returns their paths.
func splitFiles(t *testing.T, name string) (train, test string) {
	t.Helper()
	tab, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	var tr, te strings.Builder
	names := make([]string, len(tab.Columns))
	for j, c := range tab.Columns {
		names[j] = c.Name
	}
	tr.WriteString(strings.Join(names, ",") + "\n")
	te.WriteString("id," + strings.Join(names, ",") + "\n")
	for i := range tab.Rows() {
		cells := make([]string, len(names))
		for j, c := range tab.Columns {
			if v := tab.Data.At(i, j); c.Kind == datasets.Nominal {
				cells[j] = c.Levels[int(v)]
			} else {
				cells[j] = strconv.FormatFloat(v, 'g', -1, 64)
			}
		}
		if i%4 == 3 {
			te.WriteString(fmt.Sprintf("n%d,", i) + strings.Join(cells, ",") + "\n")
		} else {
			tr.WriteString(strings.Join(cells, ",") + "\n")
		}
	}
	dir := t.TempDir()
	train, test = filepath.Join(dir, name+"-train.csv"), filepath.Join(dir, name+"-test.csv")
	if err := os.WriteFile(train, []byte(tr.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, []byte(te.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return train, test
}

// The check of issue 33: `tealab predict --score` of the model `tealab
// train --test` saves (fitted on all the training rows, scored on the
// test file) gives the metrics, baseline and confusion matrix train
// reported, in --json to the last bit and in the text report line for
// line.
func TestPredictScoreIsTrainTest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ data, model string }{
		{"iris", "lda"},          // probabilities
		{"breast_cancer", "svm"}, // decision scores, two classes
		{"diabetes", "ridge"},    // a regressor
	} {
		train, test := splitFiles(t, c.data)
		file := filepath.Join(t.TempDir(), c.model+".tealab.json")
		args := []string{"train", "--data", train, "--test", test, "--model", c.model, "--no-history", "--quiet", "--save-model", file}
		trainJSON, errOut, status := run(t, append(args, "--json")...)
		if status != 0 {
			t.Fatalf("%s on %s: train: status %d: %s", c.model, c.data, status, errOut)
		}
		predJSON, errOut, status := run(t, "predict", "--model-file", file, "--data", test, "--score", "--json")
		if status != 0 {
			t.Fatalf("%s on %s: predict: status %d: %s", c.model, c.data, status, errOut)
		}
		type scored struct {
			Metrics    map[string]float64 `json:"metrics"`
			Baseline   map[string]float64 `json:"baseline"`
			Confusion  json.RawMessage    `json:"confusion"`
			PerClass   json.RawMessage    `json:"per_class"`
			ScoredRows int                `json:"scored_rows"`
		}
		var tr, pr scored
		if err := json.Unmarshal([]byte(trainJSON), &tr); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(predJSON), &pr); err != nil {
			t.Fatal(err)
		}
		if len(tr.Metrics) < 4 || fmt.Sprint(pr.Metrics) != fmt.Sprint(tr.Metrics) || fmt.Sprint(pr.Baseline) != fmt.Sprint(tr.Baseline) ||
			string(pr.Confusion) != string(tr.Confusion) || string(pr.PerClass) != string(tr.PerClass) || pr.ScoredRows != tr.ScoredRows {
			t.Errorf("%s on %s: predict --score gives\n%+v\ntrain --test gave\n%+v", c.model, c.data, pr, tr)
		}
		t.Logf("%s on %s: train --test %v; predict --score %v", c.model, c.data, tr.Metrics, pr.Metrics)

		report, _, _ := run(t, append(args[:len(args)-2], "--save-model", filepath.Join(t.TempDir(), "again.json"))...)
		text, _, _ := run(t, "predict", "--model-file", file, "--data", test, "--score", "--keep", "none")
		for _, from := range []string{"  metric ", "confusion matrix", "per class:"} {
			want, got := block(report, from), block(text, from)
			if got != want || (want == "" && from == "  metric ") {
				t.Errorf("%s on %s: the report's\n%s\npredict --score's\n%s", c.model, c.data, want, got)
			}
		}
	}
}

// block is the lines of text from the one that starts with from to the
// next blank line; "" when none does.
func block(text, from string) string {
	i := strings.Index(text, "\n"+from)
	if i < 0 {
		return ""
	}
	text = text[i+1:]
	if j := strings.Index(text, "\n\n"); j >= 0 {
		text = text[:j]
	}
	return strings.TrimRight(text, "\n")
}

// Columns that are not features pass through (--keep chooses them); a
// level the model never saw and a missing value are predicted as in
// training, each row saying so; text where the model learnt numbers is an
// error naming the row and the column.
func TestPredictKeepAndWarnings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,colour,size,kind\n")
	for i := range 12 {
		if i%2 == 0 {
			fmt.Fprintf(&b, "t%d,red,%d,cat\n", i, 1+i%3)
		} else {
			fmt.Fprintf(&b, "t%d,blue,%d,dog\n", i, 4+i%3)
		}
	}
	trainFile := filepath.Join(dir, "pets.csv")
	if err := os.WriteFile(trainFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	file := trainSaved(t, "--data", trainFile, "--drop", "id", "--model", "fake-centroid", "--quiet")
	newFile := filepath.Join(dir, "new.csv")
	if err := os.WriteFile(newFile, []byte("id,owner,colour,size,kind\n7,ann,purple,5,dog\n8,bob,red,,cat\n9,cy,blue,6,dog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := run(t, "predict", "--model-file", file, "--data", newFile, "--csv")
	want := "id,owner,kind,warning\n7,ann,dog,\"unseen level \"\"purple\"\" in colour\"\n8,bob,cat,missing size\n9,cy,dog,\n"
	if status != 0 || out != want {
		t.Errorf("status %d, CSV\n%s\nwant\n%s", status, out, want)
	}
	if errOut != "tealab: keeping id, owner (not features of the model; --keep chooses, --keep none keeps none)\n"+
		"tealab: warning: 2 of 3 rows hold 1 level the model never saw and 1 missing value, taken as in training; the warnings say which\n" {
		t.Errorf("stderr %q", errOut)
	}
	out, errOut, _ = run(t, "predict", "--model-file", file, "--data", newFile, "--csv", "--keep", "owner , id,owner")
	if !strings.HasPrefix(out, "owner,id,kind,warning\nann,7,dog,") || strings.Contains(errOut, "keeping") {
		t.Errorf("--keep owner,id: %q %q", out, errOut)
	}
	out, _, _ = run(t, "predict", "--model-file", file, "--data", newFile, "--json", "--keep", "id,owner")
	var j predictionJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(j.Kept) != "[{id [7 8 9]} {owner [ann bob cy]}]" || j.Warnings[1] != "missing size" || j.Warnings[2] != "" {
		t.Errorf("--json: kept %v, warnings %q", j.Kept, j.Warnings)
	}
	out, _, _ = run(t, "predict", "--model-file", file, "--data", newFile, "--score")
	if !strings.Contains(out, "scored against kind: 3 rows") || !strings.Contains(out, "  accuracy ") || !strings.Contains(out, "unseen level \"purple\" in colour") {
		t.Errorf("table with --score:\n%s", out)
	}

	text := filepath.Join(dir, "text.csv")
	if err := os.WriteFile(text, []byte("colour,size\nred,1\nblue,big\nred,?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cluster := trainSaved(t, "--data", "wine", "--model", "fake-cluster", "--quiet")
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--model-file", file, "--data", text}, 1, `row 2, column "size": "big" is not a number, and the model learnt numbers there`},
		{[]string{"--model-file", file, "--data", text, "--score"}, 2, `--score: text has no column "kind", the model's target (columns: colour, size)`},
		{[]string{"--model-file", cluster, "--data", "wine", "--score"}, 2, "--score scores a classifier or a regressor against its target; fake-cluster does clustering"},
		{[]string{"--model-file", file, "--data", newFile, "--keep", "nosuch"}, 2, `--keep "nosuch": new has no such column (columns: id, owner, colour, size, kind)`},
		{[]string{"--model-file", file, "--data", newFile, "--keep", "kind"}, 2, `--keep "kind": the output has a column of that name already`},
		{[]string{"--model-file", file, "--data", newFile, "--keep", "warning", "--json"}, 2, `--keep "warning": new has no such column`},
	} {
		_, errOut, status := run(t, append([]string{"predict"}, c.args...)...)
		if status != c.status || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") > 2 {
			t.Errorf("predict %v: status %d, stderr %q; want %d and %q", c.args, status, errOut, c.status, c.want)
		}
	}
}

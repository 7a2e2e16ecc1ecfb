package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readCSV reads a file --predictions wrote.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestPredictionsAreTheConfusionMatrix: under k-fold CV the file has a
// row per row of the data, each scored by one fold, and its mistakes are
// the confusion matrix's off-diagonal counts, cell by cell.
func TestPredictionsAreTheConfusionMatrix(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pred.csv")
	out, errOut, status := run(t, "train", "--data", "wine", "--model", "gnb", "--cv", "5", "--json", "--predictions", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var res struct {
		Confusion struct {
			Labels []string
			Matrix [][]int
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, path)
	labels := res.Confusion.Labels
	want := []string{"row", "fold", "actual", "predicted"}
	for _, l := range labels {
		want = append(want, "p("+l+")")
	}
	if want = append(want, "correct"); !slices.Equal(rows[0], want) {
		t.Fatalf("header %q, want %q", rows[0], want)
	}
	got := make([][]int, len(labels))
	for i := range got {
		got[i] = make([]int, len(labels))
	}
	seen := map[string]bool{}
	folds := map[string]int{}
	for _, r := range rows[1:] {
		a, p := slices.Index(labels, r[2]), slices.Index(labels, r[3])
		if a < 0 || p < 0 || (r[len(r)-1] == "true") != (a == p) {
			t.Fatalf("row %q", r)
		}
		if a != p {
			got[a][p]++
		}
		if seen[r[0]] {
			t.Errorf("row %s twice", r[0])
		}
		seen[r[0]] = true
		folds[r[1]]++
	}
	for i := range got {
		for j := range got {
			if i != j && got[i][j] != res.Confusion.Matrix[i][j] {
				t.Errorf("%s predicted %s: %d rows of the file, %d in the confusion matrix", labels[i], labels[j], got[i][j], res.Confusion.Matrix[i][j])
			}
		}
	}
	if len(seen) != 178 || len(folds) != 5 || !seen["1"] || !seen["178"] {
		t.Errorf("%d rows, %d folds; want every row of wine once, scored by 5 folds", len(seen), len(folds))
	}
}

// TestPredictionsNameRowsAndErrors: the rows' names when the data have
// them; a regressor's error; the file is never the data nor another
// output.
func TestPredictionsNameRowsAndErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pred.csv")
	const mtcars = "../datasets/testdata/mtcars_r.csv"
	if _, errOut, status := run(t, "train", "--data", mtcars, "--target", "mpg", "--model", "ridge", "--cv", "4", "--predictions", path); status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	rows := readCSV(t, path)
	if !slices.Equal(rows[0], []string{"row", "fold", "actual", "predicted", "error"}) || len(rows) != 13 { // the 12 cars of the file
		t.Fatalf("%d rows, header %q", len(rows), rows[0])
	}
	var names []string
	for _, r := range readCSV(t, mtcars)[1:] {
		names = append(names, r[0])
	}
	for _, r := range rows[1:] {
		a, _ := strconv.ParseFloat(r[2], 64)
		p, _ := strconv.ParseFloat(r[3], 64)
		e, _ := strconv.ParseFloat(r[4], 64)
		if !slices.Contains(names, r[0]) || e != p-a {
			t.Fatalf("row %q: not named by a car of %s, or error is not predicted − actual", r, mtcars)
		}
	}
	data := filepath.Join(dir, "iris.csv")
	b, _ := os.ReadFile(irisR)
	os.WriteFile(data, b, 0o644)
	_, errOut, status := run(t, "train", "--data", data, "--model", "tree", "--predictions", data)
	if status != 2 || !strings.Contains(errOut, "--predictions") || !strings.Contains(errOut, "the data this run reads") {
		t.Errorf("--predictions over the data: status %d, %s", status, errOut)
	}
	if after, _ := os.ReadFile(data); string(after) != string(b) {
		t.Error("the data were overwritten")
	}
	_, errOut, status = run(t, "train", "--data", "iris", "--model", "tree", "--save", path, "--predictions", path)
	if status != 2 || !strings.Contains(errOut, "also the --save file") {
		t.Errorf("--predictions over --save: status %d, %s", status, errOut)
	}
}

// compare --predictions writes every model run's held-out rows: each row
// of each data set once per model and repeat, after the data set, the
// model and the repeat; a data set of other classes leaves the others'
// score columns blank. --shard and --merge keep no rows and refuse it.
func TestComparePredictions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pred.csv")
	_, errOut, status := run(t, "compare", "--data", "iris", "--data", "breast_cancer", "--model", "gnb", "--model", "lda",
		"--cv", "3", "--repeat", "2", "--quiet", "--predictions", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	rows := readCSV(t, path)
	head := rows[0]
	for _, want := range []string{"dataset", "model", "repeat", "row", "fold", "actual", "predicted", "p(setosa)", "p(malignant)", "correct"} {
		if !slices.Contains(head, want) {
			t.Errorf("header %q lacks %q", head, want)
		}
	}
	count := map[string]int{}
	setosa := slices.Index(head, "p(setosa)")
	for _, r := range rows[1:] {
		count[r[0]+" "+r[1]+" "+r[2]]++
		if r[0] == "breast_cancer" && r[setosa] != "" {
			t.Fatalf("a breast_cancer row has p(setosa): %q", r)
		}
	}
	for _, d := range []struct {
		name string
		rows int
	}{{"iris", 150}, {"breast_cancer", 569}} {
		for _, m := range []string{"gnb", "lda"} {
			for _, rep := range []string{"1", "2"} {
				if got := count[d.name+" "+m+" "+rep]; got != d.rows {
					t.Errorf("%s %s repeat %s: %d rows, want %d", d.name, m, rep, got, d.rows)
				}
			}
		}
	}
	if _, errOut, status := run(t, "compare", "--data", "iris", "--model", "gnb", "--model", "lda", "--shard", "1/2",
		"--out", filepath.Join(dir, "part.json"), "--predictions", path); status != 2 || !strings.Contains(errOut, "--predictions") {
		t.Errorf("--shard with --predictions: status %d, %q", status, errOut)
	}
}

// A row's number is its place in the file it was read from: rows without
// a target left out do not move the others, and a supplied test set's
// rows are numbered in the test set.
func TestPredictionsNumberRowsInTheirFile(t *testing.T) {
	dir := t.TempDir()
	var train, test strings.Builder
	train.WriteString("x,y\n")
	test.WriteString("x,y\n")
	for i := range 40 {
		y := []string{"a", "b"}[i%2]
		if i%10 == 3 {
			y = "" // no target: left out
		}
		fmt.Fprintf(&train, "%d,%s\n", 100*(i%2)+i, y)
		if i < 10 {
			fmt.Fprintf(&test, "%d,%s\n", 100*(i%2)+i, y)
		}
	}
	trainFile, testFile := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	os.WriteFile(trainFile, []byte(train.String()), 0o644)
	os.WriteFile(testFile, []byte(test.String()), 0o644)
	actual := func(file string, row string) string { // the class on line row+1 of file
		n, _ := strconv.Atoi(row)
		return readCSV(t, file)[n][1]
	}
	for _, c := range []struct {
		args []string
		file string
		rows int
	}{
		{[]string{"--cv", "4"}, trainFile, 36},
		{[]string{"--test", testFile}, testFile, 9},
	} {
		path := filepath.Join(t.TempDir(), "pred.csv")
		if _, errOut, status := run(t, append([]string{"train", "--data", trainFile, "--model", "knn", "--no-history", "--predictions", path}, c.args...)...); status != 0 {
			t.Fatalf("%v: status %d: %s", c.args, status, errOut)
		}
		rows := readCSV(t, path)[1:]
		if len(rows) != c.rows {
			t.Fatalf("%v: %d rows, want %d", c.args, len(rows), c.rows)
		}
		for _, r := range rows {
			if got := actual(c.file, r[0]); got != r[2] {
				t.Fatalf("%v: row %s of %s is %q, the predictions say %q", c.args, r[0], filepath.Base(c.file), got, r[2])
			}
		}
	}
}

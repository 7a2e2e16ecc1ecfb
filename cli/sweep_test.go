package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSweepReportsTheCurveAndTheBest(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "sweep", "--data", "iris", "--model", "knn", "--param", "k=1..12", "--cv", "5")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{
		"sweep of knn on iris · stratified 5-fold CV · accuracy (higher is better) · 12 of 12 points",
		"k   training       validation",
		"1   1.000 ± 0      0.940 ± 0.037",
		"10  0.978 ± 0.005  0.960 ± 0.028  ← best",
		"accuracy against k, 1..12: · training, ─ validation",
		"best: k=10 (validation accuracy 0.960 ± 0.028); to train it: tealab train --data iris --model knn --param k=10 --cv 5",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if errOut != "" {
		t.Errorf("stderr off a terminal: %q", errOut)
	}
}

func TestSweepOfTwoParametersDrawsAHeatTable(t *testing.T) {
	t.Parallel()
	out, _, status := run(t, "sweep", "--data", "wine", "--model", "knn", "--param", "k=1..9:5", "--param", "metric=l1,l2,linf", "--param", "leaf_size=10")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	for _, want := range []string{
		"validation accuracy, k down, metric across (shade: worst ░ to best █)",
		"   l1        l2       linf",
		"9  █ 0.989*  █ 0.972  ░ 0.938",
		"best: k=9 metric=l1 ", "--param k=9 --param metric=l1 --param leaf_size=10 --cv 5",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestSweepJSON(t *testing.T) {
	t.Parallel()
	out, _, status := run(t, "sweep", "--data", "iris", "--model", "knn", "--param", "k=1..12", "--json", "--jobs", "1")
	if status != 0 {
		t.Fatal(status)
	}
	var j struct {
		Metric string
		Best   map[string]any
		Points []struct {
			Values  map[string]any
			ValMean float64   `json:"val_mean"`
			Val     []float64 `json:"val_folds"`
		}
		Command string
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Metric != "accuracy" || j.Best["k"] != 10.0 || len(j.Points) != 12 || len(j.Points[0].Val) != 5 ||
		!strings.HasSuffix(j.Command, "--param k=10 --cv 5") {
		t.Errorf("json: %+v", j)
	}
}

func TestSweepExports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	md, csv := filepath.Join(dir, "k.md"), filepath.Join(dir, "k.csv")
	for _, file := range []string{md, csv} {
		if _, errOut, status := run(t, "sweep", "--data", "iris", "--model", "knn", "--param", "k=1..3", "--cv", "3", "--export", file); status != 0 {
			t.Fatalf("status %d: %s", status, errOut)
		}
	}
	b, _ := os.ReadFile(md)
	for _, want := range []string{"# sweep of knn on iris", "| k | training | validation |  |\n| --- | --- | --- | --- |\n| 1 | 1.000 ± 0 |", "```\n", "to train it: `tealab train"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b)
		}
	}
	b, _ = os.ReadFile(csv)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "k,train_rows,fold,train_accuracy,val_accuracy" || len(lines) != 1+3*3 || !strings.HasPrefix(lines[1], "1,100,1,1,") {
		t.Errorf("csv:\n%s", b)
	}
}

// --export never writes the report over the data the sweep reads.
func TestSweepExportRefusesItsInput(t *testing.T) {
	data := filepath.Join(t.TempDir(), "xor.csv")
	text := "a,b,y\n0,0,n\n0,1,y\n1,0,y\n1,1,n\n0,0,n\n0,1,y\n1,0,y\n1,1,n\n"
	if err := os.WriteFile(data, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, status := run(t, "sweep", "--data", data, "--model", "knn", "--param", "k=1..2", "--cv", "2", "--export", data)
	if status != 2 || !strings.Contains(errOut, "sweep: --export "+data+" is the data") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("status %d, %q; want 2 and a refusal naming the data", status, errOut)
	}
	if b, _ := os.ReadFile(data); string(b) != text {
		t.Errorf("the data was overwritten:\n%s", b)
	}
}

func TestLearningCurveCommand(t *testing.T) {
	out, errOut, status := run(t, "learning-curve", "--data", "iris", "--model", "knn", "--param", "k=1", "--sizes", "0.5,1")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"learning curve of knn on iris", "train_size  rows  training   validation", "0.5         60    1.000 ± 0", "at the full training part: training 1.000"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestSweepMistakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "k=5"}, "sweep: no --param gives a range to sweep (e.g. --param 'k=1..50'; valid: choose_k, k,"},
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "k=0..5"}, "sweep: --param parameter k: \"0\" is out of range (int in [1, 1e6]) in range \"0..5\""},
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "k=1..100", "--param", "metric=l1,l2", "--param", "leaf_size=1..100"}, "sweep: the grid of k, metric, leaf_size has more than 10000 points; draw settings from it at random instead (--random N)"},
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "k=1..3", "--metric", "r2"}, "sweep: metric \"r2\" is not a classification metric (valid: accuracy,"},
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "k=1..3", "--export", "x.txt"}, "sweep: --export \"x.txt\": name a .md or .csv file"},
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "k=1..3", "--random", "-1"}, "sweep: --random -1 is out of range"},
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "k=1..3", "--nested", "1"}, "sweep: --nested 1 is out of range (outer folds, at least 2; 0 for none)"},
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "k=1..3", "--pick", "2se"}, `sweep: --pick "2se" is not a rule (valid: best, 1se)`},
		{[]string{"sweep", "--data", "iris", "--model", "knn", "--param", "metric=l1,l2", "--pick", "1se"}, "sweep: --pick 1se picks the simplest point, but the model's spec says of none of metric in which direction it is simpler; pick best"},
		{[]string{"sweep", "--data", "iris", "--model", "kmeans", "--param", "k=1..3"}, "sweep: model kmeans does not learn the classification target of iris"},
		{[]string{"learning-curve", "--data", "iris", "--model", "knn", "--param", "k=1..3"}, "learning-curve: --param k gives a range; give one value (tealab sweep sweeps it)"},
		{[]string{"learning-curve", "--data", "iris", "--model", "knn", "--sizes", "0,1"}, "learning-curve: --sizes \"0,1\": \"0\" is not a fraction"},
	} {
		_, errOut, status := run(t, c.args...)
		if status != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, %q; want 2 and %q", c.args, status, errOut, c.want)
		}
	}
}

// On a terminal the points are counted on stderr as they finish.
func TestSweepProgressOnATerminal(t *testing.T) {
	_, errOut, status := runOnTerminal(t, "sweep", "--data", "iris", "--model", "knn", "--param", "k=1..3", "--cv", "3", "--jobs", "1")
	if status != 0 || !strings.Contains(errOut, "sweep · 1 point done · ") {
		t.Errorf("status %d, stderr %q", status, errOut)
	}
}

// A text parameter's names and numbers sweep together, labelled by their
// values; a value the parameter refuses is named by its own check.
func TestSweepOfATextParameter(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "sweep", "--data", "iris", "--model", "svm", "--param", "gamma=scale,auto,0.01..10:4", "--cv", "3")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"gamma  training", "\nscale  ", "\nauto   ", "\n0.01   ", "validation accuracy by gamma (bar: worst to best)",
		"accuracy against gamma's numbers, 0.01..10, log-spaced"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	_, errOut, status = run(t, "sweep", "--data", "iris", "--model", "svm", "--param", "gamma=scale,0..1:3")
	if want := `sweep: --param parameter gamma: gamma "0": want scale, auto or a number above 0 in range "scale,0..1:3"`; status != 2 || !strings.Contains(errOut, want) {
		t.Errorf("status %d, %q; want 2 and %q", status, errOut, want)
	}
}

// A random search over four parameters lists every point, and draws a
// strip per parameter.
func TestRandomSearchOfFourParameters(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "sweep", "--data", "iris", "--model", "knn", "--param", "k=1..30", "--param", "metric=l1,l2,linf",
		"--param", "p=1..10", "--param", "algorithm=kdtree,brute", "--random", "7", "--cv", "3")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if !strings.Contains(out, "random search of knn on iris · stratified 3-fold CV · accuracy (higher is better) · 7 of 7 points") ||
		!strings.Contains(out, "k   metric  p") || strings.Count(out, " ± ") != 2*7+1 {
		t.Errorf("table of 7 points with three columns:\n%s", out)
	}
	for _, want := range []string{"validation accuracy of each point along each parameter (shade: worst ░ to best █)", "\nk                      2 ▕", "\nmetric                l1 ▕", "\nalgorithm  "} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// --pick 1se picks the simplest point within one standard error of the
// best, says why, and --json carries the rule.
func TestSweepOneStandardErrorRule(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "sweep", "--data", "iris", "--model", "knn", "--param", "k=1..40", "--pick", "1se")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"10  0.978 ± 0.005  0.960 ± 0.028  ← best score", "28  0.952 ± 0.004  0.953 ± 0.030  ← picked (1se)",
		"picked: k=28 (validation accuracy 0.953 ± 0.030) by the one-standard-error rule: the best mean is k=10's 0.960 ± 0.028 over 5 folds, standard error 0.012; of the points scoring at least 0.948, k=28 is the simplest (higher k is simpler); to train it: tealab train --data iris --model knn --param k=28 --cv 5"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = run(t, "sweep", "--data", "iris", "--model", "knn", "--param", "k=1..40", "--pick", "1se", "--json")
	var j struct {
		Best      map[string]any
		BestIndex int    `json:"best_index"`
		TopIndex  int    `json:"top_index"`
		Pick      string `json:"pick"`
		Why       string `json:"pick_reason"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Pick != "1se" || j.Best["k"] != 28.0 || j.BestIndex != 27 || j.TopIndex != 9 || !strings.HasPrefix(j.Why, "one-standard-error rule: ") {
		t.Errorf("json: %+v", j)
	}
}

// --nested K scores the whole search by nested cross-validation: the
// outer score beside the search's best, and each outer fold's pick, in the
// report and in --json: issue 35's command, on iris.
func TestSweepNested(t *testing.T) {
	t.Parallel()
	args := []string{"sweep", "--data", "iris", "--model", "svm", "--param", "C=0.1..100:4", "--param", "gamma=scale,0.01..1:3", "--nested", "5"}
	out, errOut, status := run(t, args...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{
		"nested cross-validation: stratified 5-fold CV outside; inside each outer training part alone, the whole search (stratified 5-fold CV, the best picked)",
		"outer fold  train  test  picked            inner accuracy  outer accuracy", "\n1           120    30    C=10 gamma=0.1    0.975 ± 0.037   0.933",
		"\nnested score: accuracy 0.973 ± 0.028 over 5 outer folds (the tuning procedure scored on rows it never saw); the search's own score of its pick, C=10 gamma=0.01 at 0.980 ± 0.030, is optimistic",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = run(t, append(args, "--json")...)
	var j struct {
		Nested struct {
			Eval      string
			Mean, Std float64
			Folds     []struct {
				Pick  map[string]any
				Outer float64 `json:"outer_score"`
				Inner float64 `json:"inner_mean"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if n := j.Nested; n.Eval != "stratified 5-fold CV" || len(n.Folds) != 5 || n.Mean <= 0.8 || n.Folds[0].Pick["gamma"] != "0.1" || n.Folds[3].Outer != 1 {
		t.Errorf("json nested: %+v", n)
	}
}

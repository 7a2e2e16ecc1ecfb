package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The "done when": logistic, a tree and k-NN on breast_cancer,
// each model's mean ± std per headline metric and the t-test's marks.
func TestCompareBreastCancer(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "compare", "--data", "breast_cancer", "--model", "logistic", "--model", "tree",
		"--model", "knn:k=5", "--cv", "10", "--repeat", "2")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{"3 models on breast_cancer, 2 × 10-fold CV (seed 1)", "than logistic",
		"accuracy", "macro F1", "AUC", "(v/ /*)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The tree is significantly worse than logistic regression on every
	// headline metric (its accuracy 0.93 against 0.98).
	if !regexp.MustCompile(`(?m)^tree +0\.9\d\d ± 0\.0\d\d \*  .* \(0/0/3\)$`).MatchString(out) {
		t.Errorf("tree's row is not marked worse:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^logistic +0\.9\d\d ± 0\.0\d\d  `).MatchString(out) {
		t.Errorf("logistic's row:\n%s", out)
	}
}

func TestCompareJSONAndExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	md, csv := filepath.Join(dir, "cmp.md"), filepath.Join(dir, "cmp.csv")
	args := []string{"compare", "--data", "iris", "--data", "wine", "--data", "moons", "--model", "lda", "--model", "tree",
		"--model", "knn", "--cv", "3", "--repeat", "2", "--baseline", "tree"}
	out, errOut, status := run(t, append(args, "--json", "--export", md)...)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	var s struct {
		Folds, Repeats int
		Baseline       string
		Results        []struct {
			Dataset, Model, Metric, Mark, Verdict string
			Mean, Std                             float64
			N                                     int
		}
		WTL     []struct{ Model string } `json:"wins_ties_losses"`
		Ranking *struct {
			Ranks []float64 `json:"average_ranks"`
			CD    float64   `json:"critical_difference"`
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if s.Folds != 3 || s.Repeats != 2 || s.Baseline != "tree" || len(s.Results) != 9 || len(s.WTL) != 2 || s.Ranking == nil {
		t.Fatalf("JSON %+v", s)
	}
	if r := s.Results[0]; r.Dataset != "iris" || r.Model != "lda" || r.Metric != "accuracy" || r.N != 6 || r.Mean < 0.9 || r.Verdict != "tie" && r.Verdict != "better" && r.Verdict != "worse" {
		t.Errorf("first result %+v", r)
	}
	if len(s.Ranking.Ranks) != 3 || s.Ranking.CD < 1.9 || s.Ranking.CD > 1.92 { // 2.343·√(3·4/(6·3))
		t.Errorf("ranking %+v", s.Ranking)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Experiment", "| model | iris | wine | moons | (v/ /*) |", "## Ranking", "CD 1.91", "█"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, b)
		}
	}
	if _, errOut, status = run(t, append(args, "--export", csv)...); status != 0 {
		t.Fatalf("csv: status %d, %s", status, errOut)
	}
	b, _ = os.ReadFile(csv)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	// 3 datasets x 3 models x 2 repeats x 3 folds x 12 classification
	// metrics of probabilities (iris, wine), 15 with the positive class's
	// precision, recall and F1 (moons, two classes)
	if lines[0] != "dataset,model,repeat,fold,metric,value" || len(lines) != 1+3*2*3*(12+12+15) {
		t.Errorf("CSV: %d lines, first %q", len(lines), lines[0])
	}
}

func TestCompareUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "lda", "--model", "knn"}, "--data is required"},
		{[]string{"--data", "iris", "--model", "lda"}, "at least two --model"},
		{[]string{"--data", "iris", "--model", "lda", "--model", "lda"}, "given twice"},
		{[]string{"--data", "iris", "--model", "lda", "--model", "knn:k=0"}, "parameter k"},
		{[]string{"--data", "iris", "--model", "lda", "--model", "linear"}, "linear does not do classification"},
		{[]string{"--data", "iris", "--model", "lda", "--model", "knn", "--cv", "1"}, `--cv "1" is out of range (int in [2, +inf])`},
		{[]string{"--data", "iris", "--model", "lda", "--model", "knn", "--baseline", "tree"}, `--baseline "tree"`},
		{[]string{"--data", "iris", "--model", "lda", "--model", "knn", "--metric", "rmse"}, `--metric "rmse"`},
		{[]string{"--data", "iris", "--model", "lda", "--model", "knn", "--export", "x.txt"}, ".md (Markdown) or .csv"},
	} {
		_, errOut, status := run(t, append([]string{"compare"}, c.args...)...)
		if status != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", c.args, status, errOut, c.want)
		}
	}
}

func TestCompareProgressOnTerminal(t *testing.T) {
	_, errOut, status := runOnTerminal(t, "compare", "--data", "iris", "--model", "lda", "--model", "knn", "--cv", "3", "--repeat", "2")
	if status != 0 || !strings.Contains(errOut, "4 model runs to run") || !strings.HasSuffix(errOut, "\r") {
		t.Errorf("status %d, stderr %q", status, errOut)
	}
}

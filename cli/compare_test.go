package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
	// 3 datasets x 3 models x 2 repeats x 3 folds x 10 classification metrics
	if lines[0] != "dataset,model,repeat,fold,metric,value" || len(lines) != 1+3*3*2*3*10 {
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

// irisClassFirst writes iris with its class as the first column and an id
// column after it, as iris.csv in a directory of its own.
func irisClassFirst(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(irisID) // id,...,species
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, ",")
		out.WriteString(strings.Join(append([]string{f[len(f)-1]}, f[:len(f)-1]...), ",") + "\n")
	}
	path := filepath.Join(t.TempDir(), "iris.csv")
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A file whose class is its first column, beside an id, is compared once
// its target is named and the id dropped: the same scores as the built-in.
func TestCompareDataSettings(t *testing.T) {
	t.Parallel()
	file := irisClassFirst(t)
	args := []string{"--model", "lda", "--model", "knn", "--cv", "3", "--repeat", "2"}
	want, errOut, status := run(t, append([]string{"compare", "--data", "iris"}, args...)...)
	if status != 0 {
		t.Fatalf("iris: status %d, %s", status, errOut)
	}
	for _, spec := range []string{file + ":target=species,drop=id", file + ": drop = id , target = species"} {
		got, errOut, status := run(t, append([]string{"compare", "--data", spec}, args...)...)
		if status != 0 || got != want {
			t.Errorf("%s: status %d, %s\n%s\nwant\n%s", spec, status, errOut, got, want)
		}
	}
	// Its last column, petal_width, is no class: the refusal says so.
	_, errOut, status = run(t, append([]string{"compare", "--data", file}, args...)...)
	if status != 2 || !strings.Contains(errOut, "lda does not do regression") || !strings.Contains(errOut, "its last column, petal_width (another: --data "+file+":target=COLUMN)") {
		t.Errorf("status %d, %s", status, errOut)
	}
}

func TestCompareDataSettingsRefused(t *testing.T) {
	t.Parallel()
	file := irisClassFirst(t)
	for _, c := range []struct {
		spec   string
		status int
		want   string
	}{
		{file + ":targt=species", 2, `--data ` + file + `:targt=species: "targt=species" is not a setting of the data (after the last colon: target, drop, task, format, row-names, as key=value)`},
		{file + ":target=Species,drop=id", 1, `--data ` + file + `:target=Species,drop=id: iris: no target column "Species" (columns: species, sepal_length, sepal_width, petal_length, petal_width)`},
		{file + ":target=species,drop=idx", 1, `cannot drop column "idx": there is none (columns: species, id, sepal_length`},
		{file + ":target=species,target=id", 2, "target is given twice"},
		{file + ":target=", 2, "target= names no column"},
		{file + ":target=species,row-names=maybe", 2, `row-names="maybe": use auto`},
		{file + ":target=species,format=xls", 2, `format="xls": use one of csv`},
		{file + ":target=species,task=guess", 2, `task=`},
		{"moons:n=5000000000", 1, "moons"},
	} {
		_, errOut, status := run(t, "compare", "--data", c.spec, "--model", "lda", "--model", "knn", "--cv", "3", "--repeat", "1")
		if status != c.status || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: status %d, stderr %q; want %d and %q", c.spec, status, errOut, c.status, c.want)
		}
	}
}

// What follows the last colon is settings only when it is a key=value
// list: drive letters, colons in paths and generators' knobs are sources.
func TestParseDataSpec(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "a:target=b.csv") // a file named like settings
	if err := os.WriteFile(odd, []byte("x,y\n1,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec, source, target string
		drop                 []string
		rowNames             string
	}{
		{"iris", "iris", "", nil, "auto"},
		{`C:\data\x.csv`, `C:\data\x.csv`, "", nil, "auto"},
		{`C:\data\x.csv:target=Class`, `C:\data\x.csv`, "Class", nil, "auto"},
		{"runs:2024/x.csv", "runs:2024/x.csv", "", nil, "auto"},
		{"moons:n=500,noise=0.3", "moons:n=500,noise=0.3", "", nil, "auto"},
		{"moons:n=500:drop=x1", "moons:n=500", "", []string{"x1"}, "auto"},
		{"x.csv:drop=id,name,target=c,row-names=no", "x.csv", "c", []string{"id", "name"}, "no"},
		{odd, odd, "", nil, "auto"},
	} {
		d, err := parseDataSpec(c.spec)
		if err != nil || d.source != c.source || d.target != c.target || !slices.Equal(d.drop, c.drop) || d.rowNames != c.rowNames {
			t.Errorf("%s: %+v, %v; want source %q, target %q, drop %q, row names %s", c.spec, d, err, c.source, c.target, c.drop, c.rowNames)
		}
	}
	// x.csv with settings, and a file named x.csv:target=y beside it.
	both := filepath.Join(dir, "a")
	if err := os.WriteFile(both, []byte("x,y\n1,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parseDataSpec(odd); err == nil || !strings.Contains(err.Error(), "names a file, and so does "+both+" with settings") {
		t.Errorf("ambiguous: %v", err)
	}
}

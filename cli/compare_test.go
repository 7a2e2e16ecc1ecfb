package cli

import (
	"encoding/json"
	"fmt"
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

// shardArgs compares two models on the class-first iris and a generator,
// 2 × 3-fold CV.
func shardArgs(file string) []string {
	return []string{"compare", "--data", file + ":target=species,drop=id", "--data", "moons:n=120", "--model", "lda",
		"--model", "knn:k=3", "--model", "tree", "--cv", "3", "--repeat", "2", "--seed", "5", "--baseline", "knn"}
}

// runShards runs shards 1/n to n/n of args into dir and returns the
// parts' paths.
func runShards(t *testing.T, dir string, n int, args []string) []string {
	t.Helper()
	var parts []string
	for i := 1; i <= n; i++ {
		part := filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		out, errOut, status := run(t, append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", part)...)
		if status != 0 || errOut != "" || !strings.HasPrefix(out, fmt.Sprintf("shard %d/%d: ", i, n)) || !strings.Contains(out, "written to "+part) {
			t.Fatalf("shard %d/%d: status %d, %q, %q", i, n, status, out, errOut)
		}
		parts = append(parts, part)
	}
	return parts
}

// Shards 1/3, 2/3 and 3/3 merged print what one process prints, byte for
// byte: the table, --json, and the Markdown and CSV exports.
func TestCompareShardsMerge(t *testing.T) {
	t.Parallel()
	file := irisClassFirst(t)
	dir := t.TempDir()
	args := shardArgs(file)
	parts := runShards(t, dir, 3, args)
	for _, format := range [][]string{nil, {"--json"}, {"--export", "cmp.md"}, {"--export", "cmp.csv"}} {
		var wantFile, gotFile string
		wholeArgs, mergeArgs := append(slices.Clone(args), format...), append([]string{"compare", "--merge"}, parts...)
		mergeArgs = append(mergeArgs, format...)
		if len(format) == 2 {
			wantFile, gotFile = filepath.Join(dir, "whole-"+format[1]), filepath.Join(dir, "merged-"+format[1])
			wholeArgs[len(wholeArgs)-1], mergeArgs[len(mergeArgs)-1] = wantFile, gotFile
		}
		want, errOut, status := run(t, wholeArgs...)
		if status != 0 {
			t.Fatalf("%v: status %d, %s", format, status, errOut)
		}
		got, errOut, status := run(t, mergeArgs...)
		if status != 0 || errOut != "" || got != want {
			t.Errorf("%v: status %d, %s; merged\n%s\nwant\n%s", format, status, errOut, got, want)
		}
		if wantFile != "" {
			w, _ := os.ReadFile(wantFile)
			g, err := os.ReadFile(gotFile)
			if err != nil || len(w) == 0 || string(g) != string(w) {
				t.Errorf("%s: %v; merged\n%s\nwant\n%s", format[1], err, g, w)
			}
		}
	}
	// The parts in another order, flags after them, a pattern the shell
	// left alone.
	want, _, _ := run(t, append(slices.Clone(args), "--metric", "macro_f1")...)
	got, errOut, status := run(t, "compare", "--merge", parts[2], parts[0], parts[1], "--metric", "macro_f1")
	if status != 0 || got != want {
		t.Errorf("reordered: status %d, %s\n%s\nwant\n%s", status, errOut, got, want)
	}
	if got, _, status = run(t, "compare", "--metric", "macro_f1", "--merge", filepath.Join(dir, "part-*.json")); status != 0 || got != want {
		t.Errorf("pattern: status %d\n%s", status, got)
	}
}

// Parts that are not of one experiment, or not every shard once, are
// refused in one line that names the files and what differs.
func TestCompareMergeRefused(t *testing.T) {
	t.Parallel()
	file := irisClassFirst(t)
	dir := t.TempDir()
	args := shardArgs(file)
	parts := runShards(t, dir, 3, args)
	other := func(name string, args []string, shard string) string {
		path := filepath.Join(dir, name)
		if _, errOut, status := run(t, append(args, "--shard", shard, "--out", path)...); status != 0 {
			t.Fatalf("%s: %s", name, errOut)
		}
		return path
	}
	seed := other("seed.json", append(slices.Clone(args), "--seed", "6"), "2/3")
	four := other("four.json", args, "2/4")
	models := other("models.json", append(slices.Clone(args), "--model", "gnb"), "2/3")
	// The same file with another row: another fingerprint.
	b, _ := os.ReadFile(file)
	changed := filepath.Join(t.TempDir(), "iris.csv")
	if err := os.WriteFile(changed, append(b, []byte("setosa,151,5.0,3.4,1.5,0.2\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	data := other("data.json", shardArgs(changed), "2/3")
	notPart := filepath.Join(dir, "not.json")
	_ = os.WriteFile(notPart, []byte(`{"format": "something else"}`), 0o644)
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{parts[0], seed, parts[2]}, parts[0] + " and " + seed + " are parts of different experiments: seeds 5 and 6"},
		{[]string{parts[0], models, parts[2]}, "are parts of different experiments: models lda, knn:k=3, tree and lda, knn:k=3, tree, gnb"},
		{[]string{parts[0], data, parts[2]}, parts[0] + " and " + data + " are parts of different experiments: dataset 1 (iris): fingerprints sha256:"},
		{[]string{parts[0], four, parts[2]}, parts[0] + " is shard 1/3 and " + four + " shard 2/4: parts of splits into 3 and 4 shards"},
		{[]string{parts[0], parts[2]}, "shard 2/3 is missing (merging " + parts[0] + ", " + parts[2] + ")"},
		{[]string{parts[0]}, "shards 2/3, 3/3 are missing"},
		{[]string{parts[0], parts[1], parts[1], parts[2]}, "shard 2/3 is given twice: " + parts[1] + " and " + parts[1]},
		{[]string{parts[0], notPart}, notPart + ": not a part of a sharded experiment"},
		{[]string{parts[0], filepath.Join(dir, "none.json")}, "none.json: no such file"},
	} {
		_, errOut, status := run(t, append([]string{"compare", "--merge"}, c.files...)...)
		if status != 1 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, stderr %q; want 1 and %q", c.files, status, errOut, c.want)
		}
	}
}

func TestCompareShardUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "data.csv")
	_ = os.WriteFile(data, []byte("a,b,c\n1,2,x\n2,1,y\n1,3,x\n3,1,y\n"), 0o644)
	part := filepath.Join(dir, "p.json")
	base := []string{"--data", "iris", "--model", "lda", "--model", "knn", "--cv", "3", "--repeat", "1"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "0/3", "--out", part}, `--shard "0/3" is out of range: I/N wants 1 ≤ I ≤ N`},
		{[]string{"--shard", "4/3", "--out", part}, `--shard "4/3" is out of range`},
		{[]string{"--shard", "x/3", "--out", part}, `--shard "x/3" is not I/N`},
		{[]string{"--shard", "1/3"}, "--shard 1/3: give --out FILE"},
		{[]string{"--out", part}, "--out writes a shard's part: give --shard I/N too"},
		{[]string{"--shard", "1/3", "--out", part, "--json"}, "give --json to --merge"},
		{[]string{"--shard", "1/3", "--out", part, "--export", "x.md"}, "give --export to --merge"},
		{[]string{"--data", data + ":target=c", "--shard", "1/3", "--out", data}, "--out " + data + " is"},
		{[]string{"stray.json"}, `unexpected argument "stray.json" (part files go with --merge`},
	} {
		args := append(append([]string{"compare"}, base...), c.args...)
		if c.args[0] == "--data" {
			args = append([]string{"compare", "--model", "lda", "--model", "knn", "--cv", "2", "--repeat", "1"}, c.args...)
		}
		_, errOut, status := run(t, args...)
		if status != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", c.args, status, errOut, c.want)
		}
	}
	if _, err := os.Stat(part); err == nil {
		t.Errorf("a refused shard wrote %s", part)
	}
	// --merge reads the experiment from its parts.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--merge"}, "--merge needs the part files"},
		{[]string{"--merge", "--data", "iris", part}, "--merge takes the experiment from its parts; leave out --data"},
		{[]string{"--merge", "--cv", "5", part}, "leave out --cv"},
		{[]string{"--merge", filepath.Join(dir, "q-*.json")}, "no file matches it"},
		{[]string{"--merge", data, "--export", "x.txt"}, ".md (Markdown) or .csv"},
		{[]string{"--merge", data, "--export", data}, "is a part this merge reads"},
	} {
		_, errOut, status := run(t, append([]string{"compare"}, c.args...)...)
		if status != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", c.args, status, errOut, c.want)
		}
	}
}

// --out is written whole, through a symbolic link, and never over a part
// that --merge reads with --export.
func TestCompareShardOutThroughLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "real.csv") // any name: --out is not an export
	link := filepath.Join(dir, "link.csv")
	_ = os.WriteFile(real, []byte("old"), 0o600)
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	args := []string{"compare", "--data", "iris", "--model", "lda", "--model", "knn", "--cv", "2", "--repeat", "1", "--shard", "1/1", "--out", link}
	if _, errOut, status := run(t, args...); status != 0 {
		t.Fatalf("status %d, %s", status, errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	b, _ := os.ReadFile(real)
	if !strings.Contains(string(b), `"tealab compare part"`) {
		t.Errorf("the link's target holds %q", b)
	}
	_, errOut, status := run(t, "compare", "--merge", link, "--export", real)
	if status != 2 || !strings.Contains(errOut, "a part this merge reads") {
		t.Errorf("--export over a part: status %d, %s", status, errOut)
	}
}

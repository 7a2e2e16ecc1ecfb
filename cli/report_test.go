package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// withStdin runs f with os.Stdin reading data through a pipe, which cannot
// seek.
func withStdin(t *testing.T, data []byte, f func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close() }()
	f()
}

// `cat iris.csv | tealab train --data - --model lda` trains on standard input.
func TestTrainFromStdin(t *testing.T) {
	iris, err := os.ReadFile("../datasets/builtin/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut string
	var status int
	withStdin(t, iris, func() { out, errOut, status = run(t, "train", "--data", "-", "--model", "lda") })
	if status != 0 || !strings.Contains(out, "150 rows") || !strings.Contains(out, "accuracy") {
		t.Fatalf("status %d\n%s%s", status, out, errOut)
	}
	withStdin(t, []byte("@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n3,x\n4,y\n"), func() {
		out, errOut, status = run(t, "describe", "--data", "-", "--format", "arff")
	})
	if status != 0 || !strings.Contains(out, "4 rows") {
		t.Errorf("arff on stdin: status %d\n%s%s", status, out, errOut)
	}
	_, errOut, status = run(t, "describe", "--data", "-", "--format", "xls")
	if status != 2 || !strings.Contains(errOut, "csv, tsv, arff") {
		t.Errorf("--format xls: status %d: %s", status, errOut)
	}
}

// A save that fails part-way (here the file-size limit stops the write
// after 2 KB) leaves the previous file byte for byte, and the run's report
// is printed anyway; the status is 1. The run happens in a child process
// (this test binary again) so that the limit binds nothing else.
func TestFailedSaveKeepsOldFileAndReport(t *testing.T) {
	if path := os.Getenv("TEALAB_SAVECHILD"); path != "" {
		lim := syscall.Rlimit{Cur: 2048, Max: 2048}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Skip(err)
		}
		os.Exit(Main([]string{"train", "--data", "iris", "--model", "lda", "--save", path}, os.Stdout, os.Stderr))
	}
	path := filepath.Join(t.TempDir(), "run.json")
	old := bytes.Repeat([]byte("the previous good run\n"), 10)
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFailedSaveKeepsOldFileAndReport$")
	cmd.Env = append(os.Environ(), "TEALAB_SAVECHILD="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := cmd.ProcessState.ExitCode()
	if status != 1 {
		t.Errorf("exit status %d (%v), want 1\nstderr: %s", status, err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "accuracy") || !strings.Contains(stdout.String(), "confusion matrix") {
		t.Errorf("the report was not printed:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "--save") {
		t.Errorf("stderr does not name --save: %s", stderr.String())
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, old) {
		t.Errorf("the previous file changed to %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

// writeCSV writes text to a file in a temporary directory.
func writeCSV(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Values near 1e308: describe shows their mean, logistic regression (which
// standardises) trains, and a model whose arithmetic overflows says which
// feature is too large instead of "diverged" or "is +Inf".
func TestHugeFiniteValues(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 60 {
		sign := 1 - 2*(i%2)
		fmt.Fprintf(&b, "%de306,%d,%d\n", sign*(i+1), i%7, (i/2)%2)
	}
	path := writeCSV(t, "huge.csv", b.String())
	out, errOut, status := run(t, "describe", "--data", path)
	if status != 0 || strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
		t.Errorf("describe: status %d\n%s%s", status, out, errOut)
	}
	if out, errOut, status = run(t, "train", "--data", path, "--model", "logistic"); status != 0 {
		t.Errorf("logistic: status %d: %s", status, errOut)
	}
	_, errOut, status = run(t, "train", "--data", path, "--model", "gnb")
	if status != 1 || !strings.Contains(errOut, `feature "a"`) || !strings.Contains(errOut, "too large") {
		t.Errorf("gnb: status %d: %s", status, errOut)
	}
}

// A constant target is named as such whatever the model (not "classification
// needs two classes" to a regression); forcing classification on a measured
// target is refused; describing one class is allowed (issue 10, defects 6
// and 10).
func TestTargetMessages(t *testing.T) {
	var constant, measured, oneClass strings.Builder
	constant.WriteString("a,y\n")
	measured.WriteString("a,y\n")
	oneClass.WriteString("a,y\n")
	for i := range 40 {
		fmt.Fprintf(&constant, "%d,3\n", i)
		fmt.Fprintf(&measured, "%d,%d.%d\n", i, i*7%13, i%10)
		fmt.Fprintf(&oneClass, "%d,yes\n", i)
	}
	_, errOut, status := run(t, "train", "--data", writeCSV(t, "c.csv", constant.String()), "--model", "ridge")
	if status != 1 || !strings.Contains(errOut, `target "y" is 3 in every row`) || strings.Contains(errOut, "does not do") {
		t.Errorf("constant target: status %d: %s", status, errOut)
	}
	_, errOut, status = run(t, "train", "--data", writeCSV(t, "m.csv", measured.String()), "--model", "lda", "--task", "classification")
	if status != 1 || !strings.Contains(errOut, "classification would make a class of each") {
		t.Errorf("forced classification: status %d: %s", status, errOut)
	}
	path := writeCSV(t, "one.csv", oneClass.String())
	out, errOut, status := run(t, "describe", "--data", path)
	if status != 0 || !strings.Contains(out, "yes") {
		t.Errorf("describe one class: status %d: %s%s", status, out, errOut)
	}
	_, errOut, status = run(t, "train", "--data", path, "--model", "lda")
	if status != 1 || !strings.Contains(errOut, `is "yes" in every row`) {
		t.Errorf("train one class: status %d: %s", status, errOut)
	}
}

// Messages quote what was typed and use the usage status for bad flags.
func TestParamMessagesQuoteWhatWasTyped(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--param", "max_iter=99999999999999999999"}, 2, `max_iter: "99999999999999999999" is out of range`},
		{[]string{"--param", "tol=1e-400"}, 2, `tol: "1e-400" is out of range`},
		{[]string{"--param", "tol=1e400"}, 2, `tol: "1e400" is out of range`},
		{[]string{"--split", "NaN"}, 2, "--split NaN is out of range"},
	} {
		args := append([]string{"train", "--data", "iris", "--model", "logistic"}, c.args...)
		_, errOut, status := run(t, args...)
		if status != c.status || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d: %s", c.args, status, errOut)
		}
	}
}

// A hold-out is labelled by what it did, and a split that cannot mean much
// says so (issue 10, defect 8).
func TestHoldoutSaysWhatItDid(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "logistic", "--split", "0.999")
	if status != 0 || !strings.Contains(out, "2/98 hold-out (3 training, 147 test rows)") || strings.Contains(out, "0.1/99.9") ||
		!strings.Contains(out, "the training part has 3 rows") {
		t.Errorf("--split 0.999: status %d\n%s%s", status, out, errOut)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "logistic", "--split", "0.001")
	if !strings.Contains(out, "(149 training, 1 test rows)") || !strings.Contains(out, "the test part has 1 row") {
		t.Errorf("--split 0.001:\n%s", out)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "logistic")
	if !strings.Contains(out, "stratified 80/20 hold-out ·") || strings.Contains(out, "warning") {
		t.Errorf("default split:\n%s", out)
	}
}

// A newline or a terminal escape in a level or a class name is escaped in
// every table (issue 10, defect 9).
func TestTablesEscapeControlCharacters(t *testing.T) {
	path := writeCSV(t, "esc.csv", "a,c,y\n1,\"x\ny\",\"p\x1b[31m\"\n2,z,q\n3,z,\"p\x1b[31m\"\n4,x,q\n5,x,\"p\x1b[31m\"\n6,z,q\n7,x,\"p\x1b[31m\"\n8,z,q\n")
	out, errOut, status := run(t, "describe", "--data", path)
	if status != 0 || !strings.Contains(out, `x\ny`) || strings.Contains(out, "\x1b") {
		t.Errorf("describe: status %d\n%q%s", status, out, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "y\"") || line == "y, z, x" {
			t.Errorf("a level broke the table: %q", out)
		}
	}
	out, errOut, status = run(t, "train", "--data", path, "--model", "gnb", "--cv", "2")
	if status != 0 || strings.Contains(out, "\x1b") || !strings.Contains(out, `p\x1b[31m`) {
		t.Errorf("train: status %d\n%q%s", status, out, errOut)
	}
}

// Many classes: the text report lists the largest confusions and a
// truncated per-class table, saying so, --json keeps everything, and a
// warning says the classes approach the rows (issue 10, defect 5).
func TestManyClassesReport(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 600 {
		fmt.Fprintf(&b, "%d.%d,%d,c%d\n", i%17, i%5, i%11, i%200)
	}
	path := writeCSV(t, "k200.csv", b.String())
	out, errOut, status := run(t, "train", "--data", path, "--model", "gnb")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"200 classes for 600 rows", "too many to draw", "the largest confusions", "the 24 of 200 classes"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if len(out) > 8000 {
		t.Errorf("the report is %d bytes", len(out))
	}
	out, _, _ = run(t, "train", "--data", path, "--model", "gnb", "--json")
	var r struct {
		Confusion struct{ Labels []string } `json:"confusion"`
		PerClass  []any                     `json:"per_class"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Confusion.Labels) != 200 || len(r.PerClass) != 200 {
		t.Errorf("--json: %v, %d labels, %d per class", err, len(r.Confusion.Labels), len(r.PerClass))
	}
}

// The lab cannot read its data from standard input (its keys come from
// there): it says so before the screen takes over.
func TestLabRefusesStdin(t *testing.T) {
	_, errOut, status := run(t, "--data", "-")
	if status != 2 || !strings.Contains(errOut, "cannot read data there") {
		t.Errorf("status %d: %s", status, errOut)
	}
}

// Issue 11's done-when: a depth-3 tree on iris prints readable rules, and
// --json has the rules as strings, the tree as nested nodes, and accuracy
// of at least 0.93.
func TestTreeRulesAndJSON(t *testing.T) {
	args := []string{"train", "--data", "iris", "--model", "tree", "--param", "max_depth=3"}
	out, errOut, status := run(t, args...)
	if status != 0 || !strings.Contains(out, "rules, one per leaf") || !strings.Contains(out, "IF petal_length_cm <= 2.45 THEN setosa (40 rows, 100%)") {
		t.Fatalf("status %d\n%s%s", status, out, errOut)
	}
	out, _, _ = run(t, append(args, "--json")...)
	var r struct {
		Metrics map[string]float64 `json:"metrics"`
		Rules   []string           `json:"rules"`
		Tree    struct {
			Depth int `json:"depth"`
			Root  struct {
				Samples  int               `json:"samples"`
				Children []json.RawMessage `json:"children"`
			} `json:"root"`
		} `json:"tree"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Metrics["accuracy"] < 0.93 || len(r.Rules) < 3 || !strings.HasPrefix(r.Rules[0], "IF ") ||
		r.Tree.Depth != 3 || r.Tree.Root.Samples != 120 || len(r.Tree.Root.Children) != 2 {
		t.Errorf("accuracy %v, rules %v, tree depth %d root %d rows %d children", r.Metrics["accuracy"], r.Rules, r.Tree.Depth, r.Tree.Root.Samples, len(r.Tree.Root.Children))
	}
}

// Issue 12's done-when, as far as it goes: average linkage on iris agrees
// with the species (ARI > 0.7), --json has the 149 merges as scipy writes
// them, the text draws a dendrogram; PCA reports every component's share
// of the variance as scikit-learn does; spectral clustering separates
// circles, k-means does not.
func TestClusteringDoneWhen(t *testing.T) {
	out, _, status := run(t, "train", "--data", "iris", "--model", "hclust", "--param", "linkage=average", "--param", "k=3", "--json")
	var r struct {
		Metrics    map[string]float64 `json:"metrics"`
		Linkage    [][4]float64       `json:"linkage"`
		Components struct {
			Ratio []float64 `json:"explained_variance_ratio"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || status != 0 {
		t.Fatalf("status %d: %v", status, err)
	}
	if r.Metrics["ari"] <= 0.7 || len(r.Linkage) != 149 || r.Linkage[148][3] != 150 {
		t.Errorf("ari %v, %d merges", r.Metrics["ari"], len(r.Linkage))
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "hclust", "--param", "k=3")
	if !strings.Contains(out, "dendrogram (average linkage") || !strings.Contains(out, "┘") {
		t.Errorf("no dendrogram:\n%s", out)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "pca", "--param", "variance=1", "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := []float64{0.9246187232017271, 0.05306648311706782, 0.017102609807929763, 0.005212183873275374} // scikit-learn 1.2.1
	if len(r.Components.Ratio) != 4 {
		t.Fatalf("ratios %v", r.Components.Ratio)
	}
	for i, w := range want {
		if math.Abs(r.Components.Ratio[i]-w) > 1e-6 {
			t.Errorf("ratio %d: %v, scikit-learn %v", i, r.Components.Ratio[i], w)
		}
	}
	ari := func(model string) float64 {
		out, _, _ := run(t, "train", "--data", "circles", "--model", model, "--param", "k=2", "--json")
		var r struct {
			Metrics map[string]float64 `json:"metrics"`
		}
		json.Unmarshal([]byte(out), &r)
		return r.Metrics["ari"]
	}
	if sp, km := ari("spectral"), ari("kmeans"); sp < 0.9 || km > 0.5 {
		t.Errorf("circles: spectral ARI %v, k-means %v", sp, km)
	}
}

// --reduce K fits the model on K principal components, says so, and the
// run's command and recipe keep it.
func TestReduceFlag(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "digits", "--model", "logistic", "--reduce", "20", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var r struct {
		Evaluation string             `json:"evaluation"`
		Metrics    map[string]float64 `json:"metrics"`
		Recipe     struct {
			Reduce  int    `json:"reduce"`
			Command string `json:"command"`
		} `json:"recipe"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Evaluation, "features reduced to 20 principal components first") || r.Recipe.Reduce != 20 ||
		!strings.Contains(r.Recipe.Command, "--reduce 20") || r.Metrics["accuracy"] < 0.85 {
		t.Errorf("evaluation %q, recipe %+v, accuracy %v", r.Evaluation, r.Recipe, r.Metrics["accuracy"])
	}
	_, errOut, status = run(t, "train", "--data", "iris", "--model", "lda", "--reduce", "-1")
	if status != 2 || !strings.Contains(errOut, "--reduce -1") {
		t.Errorf("--reduce -1: status %d: %s", status, errOut)
	}
}

// --standardize overrides the model's habit: k-means on wine's raw
// features is led by proline (in the hundreds); standardised, it finds the
// cultivars (scikit-learn with StandardScaler: ARI 0.897). The evaluation
// says so; the recipe and its command keep it, and a saved run reads it
// back.
func TestStandardizeFlag(t *testing.T) {
	type report struct {
		Evaluation string             `json:"evaluation"`
		Metrics    map[string]float64 `json:"metrics"`
		Recipe     struct {
			Standardize string `json:"standardize"`
			Command     string `json:"command"`
		} `json:"recipe"`
	}
	train := func(std string) report {
		t.Helper()
		out, errOut, status := run(t, "train", "--data", "wine", "--model", "kmeans", "--standardize", std, "--json")
		if status != 0 {
			t.Fatalf("--standardize %s: status %d: %s", std, status, errOut)
		}
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	yes, no, auto := train("yes"), train("no"), train("auto")
	if yes.Metrics["ari"] < 0.85 || !strings.Contains(yes.Evaluation, "numeric features standardised") ||
		yes.Recipe.Standardize != "yes" || !strings.Contains(yes.Recipe.Command, "--standardize yes") {
		t.Errorf("yes: ARI %v, evaluation %q, recipe %+v", yes.Metrics["ari"], yes.Evaluation, yes.Recipe)
	}
	if no.Metrics["ari"] > 0.5 || !strings.Contains(no.Evaluation, "not standardised") || no.Recipe.Standardize != "no" {
		t.Errorf("no: ARI %v, evaluation %q, recipe %+v", no.Metrics["ari"], no.Evaluation, no.Recipe)
	}
	if auto.Metrics["ari"] != no.Metrics["ari"] || strings.Contains(auto.Evaluation, "standardised") ||
		auto.Recipe.Standardize != "" || strings.Contains(auto.Recipe.Command, "--standardize") {
		t.Errorf("auto (k-means does not standardise): ARI %v, evaluation %q, recipe %+v", auto.Metrics["ari"], auto.Evaluation, auto.Recipe)
	}
	_, errOut, status := run(t, "train", "--data", "iris", "--model", "lda", "--standardize", "maybe")
	if status != 2 || !strings.Contains(errOut, `--standardize "maybe" is not one of auto, yes, no`) {
		t.Errorf("--standardize maybe: status %d: %s", status, errOut)
	}
}

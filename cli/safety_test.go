package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
)

// `--save` never replaces the data it trains on, under any name, and
// refuses what is not a regular file or a new name, before training: exit
// 2, one line, the data byte for byte as they were.
func TestSaveRefusesTheDataAndNonFiles(t *testing.T) {
	iris, err := os.ReadFile("../datasets/builtin/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	data := filepath.Join(dir, "iris.csv")
	if err := os.WriteFile(data, iris, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(data, "hard.csv"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("iris.csv", "soft.csv"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo("pipe", 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("out", 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ data, save, want string }{
		{"iris.csv", "iris.csv", "the data this run reads"},
		{data, "./iris.csv", "the data this run reads"},
		{"iris.csv", "hard.csv", "the data this run reads (iris.csv, by another name)"},
		{"iris.csv", "soft.csv", "the data this run reads"},
		{"soft.csv", data, "the data this run reads"},
		{"iris.csv", "pipe", "is a named pipe"},
		{"iris.csv", "out", "is a directory"},
		{"iris.csv", "nowhere/run.json", "directory nowhere does not exist"},
	}
	for _, c := range cases {
		out, errOut, status := run(t, "train", "--data", c.data, "--model", "lda", "--save", c.save)
		if status != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "--save "+c.save) ||
			!strings.Contains(errOut, c.want) {
			t.Errorf("--data %s --save %s: status %d, stderr %q; want 2 and one line with %q", c.data, c.save, status, errOut, c.want)
		}
		if out != "" {
			t.Errorf("--save %s: trained before refusing:\n%s", c.save, out)
		}
	}
	// The data file on standard input is recognised too.
	f, err := os.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stdin := os.Stdin
	os.Stdin = f
	_, errOut, status := run(t, "train", "--data", "-", "--model", "lda", "--save", "hard.csv")
	os.Stdin = stdin
	if status != 2 || !strings.Contains(errOut, "standard input") {
		t.Errorf("--data - < iris.csv --save hard.csv: status %d: %s", status, errOut)
	}
	if b, _ := os.ReadFile(data); !bytes.Equal(b, iris) {
		t.Errorf("the data changed: %.80q...", b)
	}
	if fi, err := os.Lstat("soft.csv"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("soft.csv is no longer a link (%v)", err)
	}
	if fi, err := os.Lstat("pipe"); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe is no longer a pipe (%v)", err)
	}
	if entries, err := os.ReadDir("out"); err != nil || len(entries) != 0 {
		t.Errorf("out: %v %v", entries, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 5 {
		t.Errorf("left behind: %v", entries)
	}
}

// `--save` onto a link writes the file it links to, and keeps the link.
func TestSaveWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "run.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink("run.json", link); err != nil {
		t.Fatal(err)
	}
	if _, errOut, status := run(t, "train", "--data", "iris", "--model", "lda", "--save", link); status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced (%v)", err)
	}
	var saved struct{ Status string }
	if b, err := os.ReadFile(target); err != nil || json.Unmarshal(b, &saved) != nil || saved.Status != "done" {
		t.Errorf("run.json holds %.80q (%v)", b, err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("run.json's mode became %v", fi.Mode().Perm())
	}
}

// interruptChild runs, in a child process (this test binary again), the
// command in TEALAB_INTCHILD (arguments one a line) with progress drawn on
// stderr as on a terminal, so that the parent sees how far it has got.
func interruptChild() {
	args := os.Getenv("TEALAB_INTCHILD")
	if args == "" {
		return
	}
	os.Exit(Main(strings.Split(args, "\n"), os.Stdout, onTerminal{os.Stderr}))
}

// interrupt runs `tealab args...` in a child process, sends it SIGINT once
// its progress on stderr matches ready, and returns its stdout, the last
// line of its stderr and its exit status.
func interrupt(t *testing.T, test string, ready *regexp.Regexp, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), "TEALAB_INTCHILD="+strings.Join(args, "\n"))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Progress lines are rewritten in place ("\r"), so read by the byte.
	var seen bytes.Buffer
	buf := make([]byte, 4096)
	sent := false
	for {
		n, err := stderr.Read(buf)
		seen.Write(buf[:n])
		if !sent && ready.Match(seen.Bytes()) {
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			sent = true
		}
		if err != nil {
			break
		}
	}
	cmd.Wait()
	if !sent {
		t.Fatalf("the child never showed %v; stderr:\n%s", ready, seen.String())
	}
	lines := strings.Split(strings.TrimSpace(seen.String()), "\n")
	last := lines[len(lines)-1]
	return stdout.String(), last[strings.LastIndexByte(last, '\r')+1:], cmd.ProcessState.ExitCode()
}

// ctrl+c during cross-validation prints the report of the folds that
// finished, labelled as partial, saves it when asked, and exits 130. The
// signal goes once a later fold is under way (fold 1 finished); progress is
// drawn every 200 ms, and the ten folds of 2,000 trees take seconds (the
// forest stops within a tree), so they cannot all finish before it arrives.
func TestInterruptReportsFinishedFolds(t *testing.T) {
	interruptChild()
	path := filepath.Join(t.TempDir(), "partial.json")
	out, errLine, status := interrupt(t, "TestInterruptReportsFinishedFolds", regexp.MustCompile(`fold [2-9] of 10`),
		"train", "--data", "moons:n=1000", "--model", "forest", "--param", "trees=2000", "--cv", "10", "--save", path)
	if status != exitInterrupted {
		t.Errorf("exit status %d, want %d", status, exitInterrupted)
	}
	m := regexp.MustCompile(`^tealab: train: interrupted after ([1-9]) of 10 folds; the report above covers (them|it)$`).FindStringSubmatch(errLine)
	if m == nil {
		t.Fatalf("last line of stderr %q\nstdout:\n%s", errLine, out)
	}
	done, _ := strconv.Atoi(m[1])
	_, perFold, _ := strings.Cut(out, "per fold:\n")
	perFold, _, _ = strings.Cut(perFold, "\n\n")
	if !strings.Contains(out, "partial result: interrupted after "+m[1]+" of 10 folds\n") ||
		!strings.Contains(out, "accuracy") || strings.Count(perFold, "\n") != done {
		t.Errorf("the report does not cover exactly %d folds, labelled:\n%s", done, out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		Status, Partial string
		Folds           []map[string]float64
		Metrics         map[string]float64
	}
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatal(err)
	}
	if saved.Status != "cancelled" || saved.Partial != "interrupted after "+m[1]+" of 10 folds" ||
		len(saved.Folds) != done || saved.Metrics["accuracy"] < 0.9 {
		t.Errorf("saved status %q, partial %q, %d folds, metrics %v", saved.Status, saved.Partial, len(saved.Folds), saved.Metrics)
	}
}

// ctrl+c before any fold finished still exits 130. A forest keeps the
// trees it grew: that model is scored on fold 1's held-out rows and
// labelled as stopped early, in the report, on stderr and in --json.
func TestInterruptBeforeAnyFold(t *testing.T) {
	interruptChild()
	out, errLine, status := interrupt(t, "TestInterruptBeforeAnyFold", regexp.MustCompile(`fold 1 of 10`),
		"train", "--data", "moons:n=1000", "--model", "forest", "--param", "trees=10000", "--cv", "10", "--json")
	if status != exitInterrupted {
		t.Errorf("exit status %d, want %d", status, exitInterrupted)
	}
	want := regexp.MustCompile(`^tealab: train: interrupted in fold 1 of 10: stopped early after [0-9]+ of 10000 trees, scored as the model it had; the report above covers it$`)
	if !want.MatchString(errLine) {
		t.Errorf("last line of stderr %q, want %s", errLine, want)
	}
	var res struct {
		Status, Partial string
		StoppedEarly    string `json:"stopped_early"`
		History         []json.RawMessage
		Metrics         map[string]float64
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if res.Status != "cancelled" || !strings.HasPrefix(res.Partial, "interrupted in fold 1 of 10: stopped early") ||
		!strings.HasSuffix(res.StoppedEarly, " of 10000 trees") || len(res.History) == 0 || !(res.Metrics["accuracy"] > 0.8) {
		t.Errorf("status %q, partial %q, stopped early %q, %d history points, metrics %v",
			res.Status, res.Partial, res.StoppedEarly, len(res.History), res.Metrics)
	}
}

// A parameter or option beyond what the data allow is a usage error: exit
// 2, one line stating the limit that applies to these data.
func TestDataLimitsAreUsageErrors(t *testing.T) {
	oneClass := writeCSV(t, "one.csv", "a,b,c\n1,2,x\n2,3,x\n3,1,x\n4,4,x\n5,2,x\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--data", "iris", "--model", "knn", "--param", "k=200"}, "k=200 but the training part has 120 rows; use k at most 120"},
		{[]string{"--data", "iris", "--model", "knn", "--param", "k=200", "--cv", "5"}, "fold 1 of 5: k nearest neighbours: k=200 but the training part has 120 rows"},
		{[]string{"--data", "iris", "--model", "tree", "--param", "min_samples_leaf=200"}, "min_samples_leaf=200 but the training part has 120 rows"},
		{[]string{"--data", oneClass, "--model", "kmeans"}, "k=0 asks for as many clusters as known classes, but the data have one class"},
		{[]string{"--data", "iris", "--model", "kmeans", "--param", "k=151"}, "k=151 clusters but the data have 150 rows"},
		{[]string{"--data", "iris", "--model", "pca", "--param", "k=5"}, "5 components but the data have 4 features"},
		{[]string{"--data", "iris", "--model", "lda", "--cv", "151"}, "151 folds but the data have 150 rows"},
		{[]string{"--data", "iris", "--model", "lda", "--reduce", "5"}, "5 principal components but there are 4 features to reduce"},
	}
	for _, c := range cases {
		_, errOut, status := run(t, append([]string{"train"}, c.args...)...)
		if status != exitUsage || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and one line with %q", c.args, status, errOut, exitUsage, c.want)
		}
	}
}

// The report of a run interrupted before anything was scored or recorded
// is its header and the label, without an empty table of metrics.
func TestReportOfARunWithNothingFinished(t *testing.T) {
	spec, err := engine.Lookup("spectral")
	if err != nil {
		t.Fatal(err)
	}
	rec := &runs.Record{Model: "spectral", Spec: spec, Status: runs.Cancelled,
		Result: &eval.Result{Task: "clustering", Dataset: "moons", Eval: "all 8000 rows, no split", Params: spec.Defaults(),
			Rows: 8000, Features: 2, Metrics: map[string]float64{}, Baseline: map[string]float64{}}}
	var out bytes.Buffer
	if err := writeReport(&out, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\npartial result: interrupted before the fit finished: no scores\n") ||
		strings.Contains(out.String(), "metric") {
		t.Errorf("report:\n%s", out.String())
	}
	if got := interruptNote(rec); got != "interrupted before the fit finished: no scores; the report above has only the run's settings" {
		t.Errorf("stderr note %q", got)
	}
}

// `tealab run R --save R` and `--save-model R` are refused before anything
// runs, under any spelling of R (another path, a hard or symbolic link):
// exit 2, one line, the recipe byte for byte as it was.
func TestRunRefusesToSaveOverItsRecipe(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, errOut, status := run(t, "train", "--data", "iris", "--model", "lda", "--no-history", "--save", "r.json"); status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	recipe, err := os.ReadFile("r.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Link("r.json", "hard.json"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("r.json", "soft.json"); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--save", "--save-model"} {
		for _, name := range []string{"r.json", "./r.json", filepath.Join(dir, "r.json"), "hard.json", "soft.json"} {
			out, errOut, status := run(t, "run", "r.json", "--no-history", flag, name)
			if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "is the recipe this run replays") {
				t.Errorf("run r.json %s %s: status %d, out %q, stderr %q; want 2 and the recipe named", flag, name, status, out, errOut)
			}
		}
	}
	if b, _ := os.ReadFile("r.json"); !bytes.Equal(b, recipe) {
		t.Errorf("the recipe changed: %.80q...", b)
	}
	if _, errOut, status := run(t, "run", "r.json", "--no-history", "--quiet", "--save-model", "m.json"); status != 0 {
		t.Errorf("another file name: status %d: %s", status, errOut)
	}
}

// `predict --model-file` looks before it reads: /dev/zero, a named pipe, a
// directory and a file over 1 GiB are refused without reading them (a
// pipe with no writer would block the open; /dev/zero never ends).
func TestPredictRefusesWhatIsNotAModelFile(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "model.fifo")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	for file, want := range map[string]string{
		"/dev/zero": "is a character device, not a regular file",
		pipe:        "is a named pipe (FIFO), not a regular file",
		dir:         "is a directory, not a regular file",
		big:         "holds 2.15 GB, more than the 1.07 GB",
	} {
		_, errOut, status := run(t, "predict", "--model-file", file, "--data", "iris")
		if status != 1 || !strings.Contains(errOut, want) || !strings.Contains(errOut, file) {
			t.Errorf("--model-file %s: status %d, %q; want 1 and %q", file, status, errOut, want)
		}
	}
}

// Class names from a file reach the terminal escaped in every output of
// predict (here --csv), never as raw escape bytes.
func TestPredictCSVEscapesNames(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "esc.csv")
	var b strings.Builder
	b.WriteString("x,kind\n")
	for i := range 20 {
		fmt.Fprintf(&b, "%d,%s\n", i, []string{"plain", "red\x1b[31m"}[i%2])
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.json")
	if _, errOut, status := run(t, "train", "--data", data, "--model", "knn", "--no-history", "--quiet", "--save-model", model); status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	out, errOut, status := run(t, "predict", "--model-file", model, "--data", data, "--csv", "--proba")
	if status != 0 || strings.ContainsRune(out, 0x1b) || !strings.Contains(out, `red\x1b[31m`) {
		t.Errorf("status %d, stderr %q; output %q: want the escape written as \\x1b", status, errOut, out)
	}
}

// A recipe naming a file that is not data (a password file) is refused
// without quoting the file: no line of it in the message.
func TestRecipeErrorsDoNotQuoteTheFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("secret.txt", []byte("root:$6$secretHASH:19000:0:99999:7:::\n\x1b[31mred\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, recipe := range []string{`{"recipe":{"data":"secret.txt","model":"lda"}}`, `{"recipe":{"data":"secret.txt","model":"lda","target":"x"}}`} {
		if err := os.WriteFile("r.json", []byte(recipe), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errOut, status := run(t, "run", "r.json")
		if status == 0 || strings.Contains(errOut, "secretHASH") || strings.ContainsRune(errOut, 0x1b) ||
			!strings.Contains(errOut, "data secret.txt cannot be read as the recipe says") {
			t.Errorf("%s: status %d, %q", recipe, status, errOut)
		}
	}
}

// A full history records no more runs: the run still reports and exits 0,
// with one warning saying how to make room.
func TestTrainWithAFullHistory(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := filepath.Join(data, "tealab")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, runs.HistoryFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(runs.MaxHistory); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "lda", "--quiet")
	if status != 0 || out == "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "the run history is full") ||
		!strings.Contains(errOut, "tealab runs --delete ID") {
		t.Errorf("status %d, stderr %q", status, errOut)
	}
}

// predict --out never replaces the model file it reads, under any name.
func TestPredictRefusesToWriteOverItsModelFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, errOut, status := run(t, "train", "--data", "iris", "--model", "lda", "--no-history", "--quiet", "--save-model", "m.json"); status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	before, _ := os.ReadFile("m.json")
	if err := os.Symlink("m.json", "link.json"); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"m.json", "./m.json", "link.json"} {
		_, errOut, status := run(t, "predict", "--model-file", "m.json", "--data", "iris", "--out", out)
		if status != 2 || !strings.Contains(errOut, "is the model file this prediction reads") {
			t.Errorf("--out %s: status %d, %q", out, status, errOut)
		}
	}
	if after, _ := os.ReadFile("m.json"); !bytes.Equal(after, before) {
		t.Error("the model file changed")
	}
}

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// history is the run history as `tealab runs --json` lists it.
func history(t *testing.T) []struct {
	ID   string
	Star bool
	Name string
	Run  struct{ Metrics map[string]float64 }
} {
	t.Helper()
	out, errOut, status := run(t, "runs", "--json")
	if status != 0 {
		t.Fatalf("runs --json: status %d: %s", status, errOut)
	}
	var es []struct {
		ID   string
		Star bool
		Name string
		Run  struct{ Metrics map[string]float64 }
	}
	if err := json.Unmarshal([]byte(out), &es); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	return es
}

// tealab train records each run in the history under XDG_DATA_HOME,
// unless told not to.
func TestTrainRecordsHistory(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	if _, errOut, status := run(t, "train", "--data", "iris", "--model", "lda", "--cv", "3"); status != 0 || errOut != "" {
		t.Fatalf("train: status %d, stderr %q", status, errOut)
	}
	run(t, "train", "--data", "iris", "--model", "lda", "--no-history")
	t.Setenv("TEALAB_HISTORY", "off")
	run(t, "train", "--data", "iris", "--model", "lda")
	es := history(t)
	if len(es) != 1 || es[0].Run.Metrics["accuracy"] != 0.98 {
		t.Fatalf("history after three runs, two not recorded: %+v", es)
	}
}

// A history that cannot be written costs one warning line, not the run:
// the report is printed and the status is 0.
func TestUnwritableHistoryIsAWarning(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", notDir)
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "lda")
	if status != 0 || !strings.Contains(out, "accuracy") {
		t.Fatalf("status %d, report %q", status, out)
	}
	if lines := strings.Split(strings.TrimSpace(errOut), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "tealab: warning: run history") {
		t.Errorf("stderr %q, want one warning line", errOut)
	}
}

// tealab run replays a saved run, or a recipe taken from the history, to
// identical metrics; data changed since are named in a warning, data gone
// are an error.
func TestRunReplaysRecipe(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 80 {
		fmt.Fprintf(&b, "%d,%d,%s\n", i%9, (i*7)%13, []string{"p", "q"}[(i%9+i%4)%2])
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "run.json")
	first, errOut, status := run(t, "train", "--data", data, "--model", "tree", "--param", "max_depth=3", "--cv", "4", "--seed", "9", "--json", "--save", saved)
	if status != 0 {
		t.Fatalf("train: %s", errOut)
	}
	metricsOf := func(out string) map[string]any {
		var r struct {
			Metrics map[string]any
			Folds   []map[string]any
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		r.Metrics["folds"] = r.Folds
		return r.Metrics
	}
	recipe := filepath.Join(dir, "recipe.json")
	out, _, _ := run(t, "runs", "--recipe", history(t)[0].ID)
	if err := os.WriteFile(recipe, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{saved, recipe} {
		again, errOut, status := run(t, "run", file, "--json")
		if status != 0 || errOut != "" {
			t.Fatalf("run %s: status %d: %s", file, status, errOut)
		}
		if !reflect.DeepEqual(metricsOf(again), metricsOf(first)) {
			t.Errorf("run %s: metrics %v, want %v", file, metricsOf(again), metricsOf(first))
		}
	}
	if n := len(history(t)); n != 3 {
		t.Errorf("history has %d runs after a train and two replays", n)
	}
	if err := os.WriteFile(data, []byte(b.String()+"1,1,p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, status = run(t, "run", recipe, "--quiet")
	if status != 0 || !strings.Contains(errOut, "data changed since the recipe was written: "+data) {
		t.Errorf("changed data: status %d, stderr %q", status, errOut)
	}
	os.Remove(data)
	if _, errOut, status := run(t, "run", recipe); status != 1 || !strings.Contains(errOut, recipe) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("data gone: status %d, stderr %q", status, errOut)
	}
	if _, errOut, status := run(t, "run"); status != 2 || !strings.Contains(errOut, "tealab run RECIPE") {
		t.Errorf("no recipe: status %d, stderr %q", status, errOut)
	}
}

// tealab runs stars, renames, filters, exports and deletes.
func TestRunsEdits(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	run(t, "train", "--data", "iris", "--model", "lda", "--cv", "3")
	run(t, "train", "--data", "wine", "--model", "gnb")
	es := history(t)
	a, b := es[0].ID, es[1].ID
	for _, args := range [][]string{{"--star", a}, {"--rename", b + "=naive wine"}} {
		if _, errOut, status := run(t, append([]string{"runs"}, args...)...); status != 0 {
			t.Fatalf("runs %v: %s", args, errOut)
		}
	}
	if out, _, _ := run(t, "runs", "--filter", "naive"); !strings.Contains(out, b[:8]) || strings.Contains(out, a[:8]) {
		t.Errorf("filter by name:\n%s", out)
	}
	if out, _, _ := run(t, "runs"); !strings.Contains(out, "★") || !strings.Contains(out, "naive wine") {
		t.Errorf("list:\n%s", out)
	}
	if out, _, _ := run(t, "runs", "--export", a, "--format", "csv"); !strings.HasPrefix(out, "fold,metric,value\n1,accuracy,") {
		t.Errorf("CSV export:\n%s", out)
	}
	if out, _, _ := run(t, "runs", "--export", a); !strings.Contains(out, "## Confusion matrix") {
		t.Errorf("Markdown export:\n%s", out)
	}
	run(t, "runs", "--delete", a)
	if es := history(t); len(es) != 1 || es[0].ID != b || es[0].Name != "naive wine" {
		t.Errorf("after deleting %s: %+v", a, es)
	}
	if _, errOut, status := run(t, "runs", "--export", "nope"); status != 2 || !strings.Contains(errOut, "nope") {
		t.Errorf("unknown id: status %d, %q", status, errOut)
	}
}

// tealab --recipe takes the data, model and evaluation from the recipe
// alone, and names a recipe it cannot read.
func TestLabRecipeFlag(t *testing.T) {
	if _, errOut, status := run(t, "--recipe", "r.json", "--model", "lda"); status != 2 || !strings.Contains(errOut, "leave out --model") {
		t.Errorf("--recipe with --model: status %d, %q", status, errOut)
	}
	missing := filepath.Join(t.TempDir(), "none.json")
	if _, errOut, status := run(t, "--recipe", missing); status != 1 || !strings.Contains(errOut, missing) {
		t.Errorf("missing recipe: status %d, %q", status, errOut)
	}
}

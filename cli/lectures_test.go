package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tealab lab lists the experiments, each with its source and knobs.
func TestLabListsTheExperiments(t *testing.T) {
	out, errOut, status := run(t, "lab")
	if status != 0 || errOut != "" {
		t.Fatalf("lab: status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{"gd ", "bias-variance", "path", "double-descent", "hoeffding", "dichotomies", "kernel", "source: Shewchuk", "--lr="} {
		if !strings.Contains(out, want) {
			t.Errorf("the list lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = run(t, "lab", "--json")
	var list []struct {
		Name  string
		Knobs []struct{ Name, Default string }
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) < 7 {
		t.Fatalf("lab --json: %v, %d experiments:\n%s", err, len(list), out)
	}
}

// A mistake is one line naming it, exit 2.
func TestLabMistakesAreOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"lab", "gradient"}, `unknown experiment "gradient" (valid: gd, bias-variance`},
		{[]string{"lab", "gd", "--lr", "0.1..x"}, "lab gd: parameter lr:"},
		{[]string{"lab", "gd", "--bogus", "1"}, "flag provided but not defined: -bogus"},
		{[]string{"lab", "gd", "extra"}, `unexpected argument "extra"`},
		{[]string{"lab", "path", "--data", "nosuchfile.csv"}, "nosuchfile.csv"},
		{[]string{"lab", "hoeffding", "--export", "out.txt/"}, "--export"},
	} {
		_, errOut, status := run(t, c.args...)
		if status != 2 && !(status == 1 && strings.Contains(c.want, ".csv")) {
			t.Errorf("%v: status %d (stderr %q)", c.args, status, errOut)
		}
		if !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: stderr %q, want one line with %q", c.args, errOut, c.want)
		}
	}
}

// An experiment is recorded in the run history like a run: listed,
// exported as Markdown, its recipe the command that repeats it.
func TestLabIsRecordedLikeARun(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	md := filepath.Join(dir, "h.md")
	out, errOut, status := run(t, "lab", "hoeffding", "--n", "20,500", "--export", md)
	if status != 0 || errOut != "" {
		t.Fatalf("lab hoeffding: status %d, stderr %q", status, errOut)
	}
	if !strings.Contains(out, "source: Shewchuk") {
		t.Errorf("the report does not name its source:\n%s", out)
	}
	b, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(b), "tealab lab hoeffding") || !strings.Contains(string(b), "```") {
		t.Errorf("the export: %v\n%s", err, b)
	}
	list, _, _ := run(t, "runs")
	if !strings.Contains(list, "lab hoeffding") || !strings.Contains(list, "n=20,500") {
		t.Fatalf("runs does not list the experiment:\n%s", list)
	}
	var es []struct {
		ID  string
		Lab struct {
			Experiment string
			Status     string
		}
	}
	js, _, _ := run(t, "runs", "--json")
	if err := json.Unmarshal([]byte(js), &es); err != nil || len(es) != 1 || es[0].Lab.Experiment != "hoeffding" || es[0].Lab.Status != "done" {
		t.Fatalf("runs --json: %v\n%s", err, js)
	}
	recipe, _, _ := run(t, "runs", "--recipe", es[0].ID)
	if !strings.HasPrefix(recipe, "tealab lab hoeffding ") || !strings.Contains(recipe, "--n 20,500") {
		t.Errorf("the recipe %q does not repeat it", recipe)
	}
	exp, _, status := run(t, "runs", "--export", es[0].ID)
	if status != 0 || !strings.Contains(exp, "Repeat it with `tealab lab hoeffding") {
		t.Errorf("runs --export: status %d\n%s", status, exp)
	}
	if _, errOut, status := run(t, "runs", "--export", es[0].ID, "--format", "csv"); status != 2 || !strings.Contains(errOut, "md only") {
		t.Errorf("csv export of an experiment: status %d, %q", status, errOut)
	}
	run(t, "lab", "hoeffding", "--no-history")
	if js, _, _ := run(t, "runs", "--json"); strings.Count(js, `"experiment"`) != 1 {
		t.Errorf("--no-history recorded it:\n%s", js)
	}
}

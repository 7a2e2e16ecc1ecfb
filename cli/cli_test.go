package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/runs"
)

// run calls Main in-process and returns stdout, stderr and the exit status.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	status := Main(args, &out, &errOut)
	return out.String(), errOut.String(), status
}

func TestDatasetsListsBuiltinsAndGenerators(t *testing.T) {
	out, _, status := run(t, "datasets", "--json")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	var list []struct{ Name, Kind string }
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, e := range list {
		kinds[e.Name] = e.Kind
	}
	for _, name := range []string{"iris", "wine", "breast_cancer", "digits", "diabetes"} {
		if kinds[name] != "builtin" {
			t.Errorf("%s: kind %q, want builtin", name, kinds[name])
		}
	}
	for _, name := range []string{"xor", "moons", "circles", "spirals", "blobs", "margin", "cubic", "sine"} {
		if kinds[name] != "generator" {
			t.Errorf("%s: kind %q, want generator", name, kinds[name])
		}
	}
	text, _, _ := run(t, "datasets")
	for _, name := range []string{"iris", "breast_cancer", "spirals", "sine"} {
		if !strings.Contains(text, name) {
			t.Errorf("text listing lacks %s", name)
		}
	}
}

func TestDescribeIrisJSON(t *testing.T) {
	out, errOut, status := run(t, "describe", "--data", "iris", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var d description
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Rows != 150 || len(d.Features) != 4 || d.Task != "classification" {
		t.Fatalf("rows %d, features %d, task %s; want 150, 4, classification", d.Rows, len(d.Features), d.Task)
	}
	for _, f := range d.Features {
		if f.Kind != "numeric" {
			t.Errorf("feature %s is %s", f.Name, f.Kind)
		}
	}
	if len(d.Classes) != 3 {
		t.Fatalf("classes %v", d.Classes)
	}
	for _, c := range d.Classes {
		if c.Count != 50 {
			t.Errorf("class %s has %d rows, want 50", c.Name, c.Count)
		}
	}
}

func TestDescribeText(t *testing.T) {
	out, _, status := run(t, "describe", "--data", "diabetes")
	if status != 0 || !strings.Contains(out, "regression") || !strings.Contains(out, "target:") {
		t.Fatalf("status %d, output:\n%s", status, out)
	}
}

func TestTrainLogisticCV(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "logistic", "--cv", "10", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var r struct {
		Metrics   map[string]float64
		Folds     []map[string]float64
		Confusion struct {
			Labels []string
			Matrix [][]int
		}
		History []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Metrics["accuracy"] < 0.95 {
		t.Errorf("accuracy %.3f < 0.95", r.Metrics["accuracy"])
	}
	if len(r.Folds) != 10 {
		t.Errorf("%d folds, want 10", len(r.Folds))
	}
	if len(r.Confusion.Matrix) != 3 || len(r.Confusion.Matrix[0]) != 3 || len(r.Confusion.Labels) != 3 {
		t.Errorf("confusion %v", r.Confusion)
	}
	if len(r.History) == 0 {
		t.Error("no history")
	}
	for _, key := range []string{"step", "train_loss", "val_loss", "val_error"} {
		if _, ok := r.History[0][key]; !ok {
			t.Errorf("history point lacks %q", key)
		}
	}
}

func TestTrainTextReport(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "breast_cancer", "--model", "logistic")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"accuracy", "baseline", "confusion matrix", "per class", "coefficients", "history"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestTrainSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	_, errOut, status := run(t, "train", "--data", "diabetes", "--model", "ridge", "--save", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Metrics map[string]float64
		Recipe  struct{ Model, Data string }
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Metrics["r2"]; !ok || r.Recipe.Model != "ridge" || r.Recipe.Data != "diabetes" {
		t.Errorf("saved %s", data)
	}
	// It loads back with identical parameters and metrics.
	back, err := runs.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	out, _, _ := run(t, "train", "--data", "diabetes", "--model", "ridge", "--json")
	var again runs.Record
	if err := json.Unmarshal([]byte(out), &again); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Params, again.Params) || !reflect.DeepEqual(back.Result.Params, again.Result.Params) ||
		!reflect.DeepEqual(back.Result.Metrics, again.Result.Metrics) || back.Result.Params.Float("alpha") != 1 {
		t.Errorf("loaded back %v %v %v, want %v %v %v", back.Params, back.Result.Params, back.Result.Metrics,
			again.Params, again.Result.Params, again.Result.Metrics)
	}
}

func TestDivergingRunIsAnErrorNotAPanic(t *testing.T) {
	_, errOut, status := run(t, "train", "--data", "iris", "--model", "logistic", "--param", "solver=gd", "--param", "lr=1e6")
	if status != 1 {
		t.Fatalf("status %d, want 1: %s", status, errOut)
	}
	if !strings.Contains(errOut, "diverged") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("want one line saying it diverged, got %q", errOut)
	}
}

func TestErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.csv")
	cases := []struct {
		name   string
		args   []string
		status int
		want   []string
	}{
		{"unknown command", []string{"frobnicate"}, 2, []string{"frobnicate", "train"}},
		{"unknown model", []string{"train", "--data", "iris", "--model", "nope"}, 2, []string{"nope", "logistic", "lda"}},
		{"unknown param", []string{"train", "--data", "iris", "--model", "logistic", "--param", "bogus=1"}, 2, []string{"bogus", "solver"}},
		{"out of range", []string{"train", "--data", "iris", "--model", "ridge", "--param", "alpha=-1"}, 2, []string{"alpha"}},
		{"wrong task", []string{"train", "--data", "iris", "--model", "ridge"}, 2, []string{"regression", "classification"}},
		{"regression on nominal", []string{"train", "--data", "iris", "--model", "ridge", "--task", "regression"}, 1, []string{"nominal"}},
		{"bad flag", []string{"train", "--bogus"}, 2, []string{"bogus"}},
		{"split and cv", []string{"train", "--data", "iris", "--model", "lda", "--split", "0.3", "--cv", "5"}, 2, []string{"--cv"}},
		{"no data", []string{"describe"}, 2, []string{"--data"}},
		{"missing file", []string{"describe", "--data", missing}, 1, []string{"nope.csv"}},
		{"no such target", []string{"describe", "--data", "iris", "--target", "colour"}, 1, []string{"colour", "species"}},
		{"unknown theme", []string{"--theme", "neon"}, 2, []string{"neon", "mono"}},
		{"train without data", []string{"--train", "--model", "lda"}, 2, []string{"--data"}},
		{"bad param syntax", []string{"train", "--data", "iris", "--model", "lda", "--param", "oops"}, 2, []string{"name=value"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, status := run(t, c.args...)
			if status != c.status {
				t.Errorf("status %d, want %d (%s)", status, c.status, errOut)
			}
			if strings.Count(errOut, "\n") != 1 {
				t.Errorf("want one line on stderr, got %q", errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("message %q lacks %q", errOut, w)
				}
			}
		})
	}
}

func TestModelsListsEveryModel(t *testing.T) {
	out, _, status := run(t, "models", "--json")
	if status != 0 {
		t.Fatal(status)
	}
	var list []struct {
		Name   string
		Params []paramJSON
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range list {
		names[m.Name] = true
	}
	for _, want := range []string{"perceptron", "centroid", "logistic", "linear", "ridge", "lasso", "stepwise", "lda", "qda", "gnb"} {
		if !names[want] {
			t.Errorf("models lacks %s", want)
		}
	}
}

func TestHelp(t *testing.T) {
	out, _, status := run(t, "help")
	if status != 0 || !strings.Contains(out, "describe") {
		t.Fatalf("%d %s", status, out)
	}
	if _, _, status := run(t, "help", "train"); status != 0 {
		t.Fatal(status)
	}
	if _, _, status := run(t, "train", "-h"); status != 0 {
		t.Fatal("-h should exit 0")
	}
}

// tealab --version and tealab version print one line naming the version
// (and the commit when the build was stamped with it), exit 0; help lists it.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}, {"--data", "iris", "--version"}} {
		out, errOut, status := run(t, args...)
		if status != 0 || errOut != "" || out != runs.ThisBuild.String()+"\n" || !strings.HasPrefix(out, "tealab ") {
			t.Errorf("%v: status %d, out %q, stderr %q", args, status, out, errOut)
		}
	}
	if out, _, _ := run(t, "help"); !strings.Contains(out, "--version") {
		t.Errorf("help does not mention --version:\n%s", out)
	}
}

func TestRecipeCommandIsShellQuoted(t *testing.T) {
	got := runs.ShellCommand("tealab train", []string{"--data", "my data.csv", "--param", "loss=0,1;5,0", "--param", "x=it's"})
	want := `tealab train --data 'my data.csv' --param 'loss=0,1;5,0' --param 'x=it'\''s'`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestTrainJSONHasCoefficients(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "logistic", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var r struct {
		Coefficients struct {
			Features, Outputs []string
			Weights           [][]float64
			Intercept         []float64
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	c := r.Coefficients
	if len(c.Outputs) != 3 || len(c.Weights) != 3 || len(c.Weights[0]) != 4 || len(c.Features) != 4 || len(c.Intercept) != 3 {
		t.Errorf("coefficients %+v", c)
	}
}

// Huge values whose plain sum overflows must not break describe --json:
// their mean and spread are real numbers.
func TestDescribeJSONSurvivesOverflow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(path, []byte("a,y\n1e308,x\n1.5e308,y\n1e308,x\n1.7e308,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := run(t, "describe", "--data", path, "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if !strings.Contains(out, `"mean": 1.3e+308`) || strings.Contains(out, "null") {
		t.Errorf("the mean of huge values should be 1.3e+308:\n%s", out)
	}
}

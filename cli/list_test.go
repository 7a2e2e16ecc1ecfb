package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// One number formatter: parameter ranges read alike (1e5 beside
// 1e6, never 1e+06 or 1e-08).
func TestModelsRangesReadAlike(t *testing.T) {
	out, _, status := run(t, "models")
	if status != exitOK {
		t.Fatal(status)
	}
	for _, bad := range []string{"e+", "e-0"} {
		if strings.Contains(out, bad) {
			i := strings.Index(out, bad)
			t.Errorf("models prints %q: …%s…", bad, out[max(i-40, 0):min(i+20, len(out))])
		}
	}
}

// `models --json` says when a parameter applies: a choice's values
// ("when") or a number's bound ("when_above": validation_fraction only when
// patience > 0), never a bound as an empty list of values.
func TestModelsJSONSaysWhenAParameterApplies(t *testing.T) {
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
	found := 0
	for _, m := range list {
		for _, p := range m.Params {
			switch {
			case m.Name == "mlp" && p.Name == "validation_fraction":
				found++
				if p.When != nil || len(p.WhenAbove) != 1 || p.WhenAbove["patience"] != 0 {
					t.Errorf("mlp's validation_fraction: when %v, when_above %v; want when_above patience 0", p.When, p.WhenAbove)
				}
			case m.Name == "logistic" && p.Name == "lr":
				found++
				if len(p.When["solver"]) != 2 || p.WhenAbove != nil {
					t.Errorf("logistic's lr: when %v, when_above %v; want when solver gd, sgd", p.When, p.WhenAbove)
				}
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d of the two parameters", found)
	}
}

// `tealab models` gives each parameter one line; `tealab models NAME` lists
// the models named, each parameter's detail after their table; --json
// carries the detail either way.
func TestModelsNamedExplainTheirParameters(t *testing.T) {
	const detail = "a regression tree lowers the variance"
	all, _, status := run(t, "models")
	if status != exitOK {
		t.Fatal(status)
	}
	if strings.Contains(all, detail) || strings.Contains(all, "criterion: ") {
		t.Errorf("`tealab models` prints the details:\n%s", all)
	}
	one, errOut, status := run(t, "models", "tree", "knn")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"  tree ", "  knn ", "criterion=gini", "      criterion: Gini is", "      algorithm: The k-d tree"} {
		if !strings.Contains(one, want) {
			t.Errorf("`tealab models tree knn` lacks %q:\n%s", want, one)
		}
	}
	if strings.Contains(one, "logistic") {
		t.Errorf("`tealab models tree knn` lists another model:\n%s", one)
	}
	if !strings.Contains(strings.ReplaceAll(one, "\n"+strings.Repeat(" ", 17), " "), detail) {
		t.Errorf("the detail of criterion is not under the table:\n%s", one)
	}
	for _, line := range strings.Split(one, "\n") {
		if strings.HasPrefix(line, "      ") && !strings.ContainsAny(line, "=") && !strings.Contains(line, "sources:") &&
			utf8.RuneCountInString(line) > 80 {
			t.Errorf("a detail line wider than 80 columns: %q", line)
		}
	}

	out, _, status := run(t, "models", "tree", "--json")
	if status != exitOK {
		t.Fatal(status)
	}
	var list []struct {
		Name   string
		Params []paramJSON
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Name != "tree" {
		t.Fatalf("models tree --json lists %+v", list)
	}
	for _, p := range list[0].Params {
		if p.Name == "criterion" && !strings.Contains(p.Detail, detail) {
			t.Errorf("criterion's detail in --json: %q", p.Detail)
		}
	}

	_, errOut, status = run(t, "models", "no-such-model")
	if status != exitUsage || !strings.Contains(errOut, `unknown model "no-such-model"`) || !strings.Contains(errOut, "logistic") {
		t.Errorf("an unknown name: status %d, %q; want a usage error listing the models", status, errOut)
	}
}

package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// tealab rank prints one row per feature in the first method's order,
// a score and a rank per method, and how each method took the features.
func TestRankTable(t *testing.T) {
	out, errOut, status := run(t, "rank", "--data", "breast_cancer", "--method", "info_gain,chi2,mutual_info,relieff", "--top", "10")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[2], "info_gain") || !strings.Contains(lines[2], "relieff") {
		t.Fatalf("header %q", lines[2])
	}
	// Weka's information gain ranks worst_perimeter, worst_area,
	// worst_radius first (testdata of engine/rank).
	for k, f := range []string{"worst_perimeter", "worst_area", "worst_radius"} {
		if fields := strings.Fields(lines[3+k]); fields[1] != f {
			t.Errorf("row %d: %q, want %s", k+1, lines[3+k], f)
		}
	}
	for _, want := range []string{"(the first 10 of 30 features", "MDL", "k-nearest-neighbour", "10 nearest hits"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// --json has every score of every method, permutation importance with
// its spread, the model and its repeats.
func TestRankJSON(t *testing.T) {
	out, errOut, status := run(t, "rank", "--data", "iris", "--method", "relieff,permutation", "--model", "lda", "--cv", "3", "--repeats", "2", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got rankJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Model != "lda" || got.Repeats != 2 || len(got.Rankings) != 2 {
		t.Fatalf("%+v", got)
	}
	p := got.Rankings[1]
	if len(p.Scores) != 4 || len(p.Std) != 4 || !strings.Contains(p.Eval, "3-fold") || p.Metric != "accuracy" {
		t.Errorf("permutation: %+v", p)
	}
}

// What cannot be ranked is refused in one line, exit 2.
func TestRankRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", "diabetes", "--method", "chi2"}, "rank: chi2 ranks features against classes; the target progression of diabetes is numeric (regression): use relieff or permutation"},
		{[]string{"--data", "iris", "--method", "permutation"}, "--model"},
		{[]string{"--data", "iris", "--method", "gini"}, `unknown ranking method "gini"`},
		{[]string{"--data", "iris", "--model", "lda", "--method", "chi2"}, "add permutation to --method"},
		{[]string{"--data", "iris", "--repeats", "0"}, "--repeats 0"},
		{[]string{"--data", "iris", "--method", "relieff", "--loo"}, "--loo says how permutation importance holds rows out"},
	} {
		_, errOut, status := run(t, append([]string{"rank"}, c.args...)...)
		if status != exitUsage || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, %q; want %q", c.args, status, errOut, c.want)
		}
	}
}

// Without --method, the methods that take the target: a regression gets
// ReliefF alone, and permutation with a model.
func TestRankDefaultMethods(t *testing.T) {
	out, errOut, status := run(t, "rank", "--data", "diabetes", "--model", "ridge", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got rankJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range got.Rankings {
		names = append(names, r.Method)
	}
	if strings.Join(names, ",") != "relieff,permutation" || got.Rankings[1].Metric != "r2" {
		t.Errorf("methods %v, metric %q", names, got.Rankings[1].Metric)
	}
}

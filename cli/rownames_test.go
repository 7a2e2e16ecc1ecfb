package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// Files as R's write.csv and pandas' to_csv write them (see the datasets
// package's rownames_test.go for how they were written).
const (
	irisR      = "../datasets/testdata/iris_r.csv"
	irisPandas = "../datasets/testdata/iris_pandas.csv"
	irisID     = "../datasets/testdata/iris_id.csv"
)

func TestDescribeSaysRowNamesAreNotAFeature(t *testing.T) {
	for _, file := range []string{irisR, irisPandas} {
		out, errOut, status := run(t, "describe", "--data", file, "--json")
		if status != 0 {
			t.Fatalf("%s: status %d: %s", file, status, errOut)
		}
		var d description
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Features) != 4 || d.RowNames == nil || d.RowNames.Unique != 150 || len(d.Warnings) > 0 {
			t.Errorf("%s: %d features, row names %+v, warnings %q; want 4 features, 150 row names, no warning", file, len(d.Features), d.RowNames, d.Warnings)
		}
	}
	out, _, _ := run(t, "describe", "--data", irisR)
	if !strings.Contains(out, "150 rows, 4 features") || !strings.Contains(out, "row names: first column (unnamed, 150 unique values") ||
		!strings.Contains(out, "not a feature") || strings.Contains(out, "col1 ") {
		t.Errorf("describe:\n%s", out)
	}
}

// A tree on R's export of iris learns from the flowers, never the row order.
func TestTreeIgnoresRowNames(t *testing.T) {
	for _, file := range []string{irisR, irisPandas} {
		out, errOut, status := run(t, "train", "--data", file, "--model", "tree")
		if status != 0 {
			t.Fatalf("%s: status %d: %s", file, status, errOut)
		}
		rules := out[strings.Index(out, "rules, one per leaf"):]
		rules = rules[:strings.Index(rules, "\n\n")]
		if strings.Contains(out, "col1") || !strings.Contains(rules, "IF ") || strings.Contains(out, "warning") {
			t.Errorf("%s: the rules use the row names, or a warning:\n%s", file, out)
		}
	}
}

func TestIdentifierWarning(t *testing.T) {
	want := `column "id" looks like a row identifier (150 distinct integers 1..150); a model can learn the row order from it: drop it with --drop id`
	out, errOut, status := run(t, "train", "--data", irisID, "--model", "tree", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var res struct{ Warnings []string }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || res.Warnings[0] != want {
		t.Errorf("JSON warnings %q, want %q", res.Warnings, want)
	}
	if out, _, _ := run(t, "train", "--data", irisID, "--model", "tree"); !strings.Contains(out, "warning: "+want) {
		t.Errorf("the text report lacks the warning:\n%s", out)
	}
	out, _, status = run(t, "train", "--data", irisID, "--model", "tree", "--drop", "id")
	if status != 0 || strings.Contains(out, "warning") || strings.Contains(out, "id <=") || !strings.Contains(out, "4 features") {
		t.Errorf("--drop id: status %d, output:\n%s", status, out)
	}
	// Asked for, the row names are a feature, and an identifier.
	out, _, status = run(t, "train", "--data", irisR, "--model", "tree", "--row-names", "no")
	if status != 0 || !strings.Contains(out, `column "col1" looks like a row identifier (150 distinct integers 1..150)`) || !strings.Contains(out, "5 features") {
		t.Errorf("--row-names no: status %d, output:\n%s", status, out)
	}
	if _, errOut, status := run(t, "train", "--data", irisR, "--model", "tree", "--row-names", "yes"); status != 2 || !strings.Contains(errOut, "--row-names") {
		t.Errorf("--row-names yes: status %d, %s", status, errOut)
	}
}

// The built-in sets have no feature that looks like an identifier.
func TestNoIdentifierWarningOnBuiltins(t *testing.T) {
	for _, name := range []string{"iris", "wine", "breast_cancer", "digits", "diabetes"} {
		out, errOut, status := run(t, "describe", "--data", name, "--json")
		if status != 0 {
			t.Fatalf("%s: status %d: %s", name, status, errOut)
		}
		var d description
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Warnings) > 0 || d.RowNames != nil {
			t.Errorf("%s: warnings %q, row names %+v; want none", name, d.Warnings, d.RowNames)
		}
	}
}

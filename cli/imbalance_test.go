package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// --resample and --class-weight say, in the report and in --json, what
// each training part looked like after them.
func TestResampleReport(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--cv", "3", "--resample", "under", "--class-weight", "balanced", "--no-history")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if !strings.Contains(out, "training parts (the held-out rows are as they were):") || !strings.Contains(out, "(was 238)") ||
		!strings.Contains(out, "training parts randomly under-sampled, balanced class weights") {
		t.Errorf("report:\n%s", out)
	}
	out, errOut, status = run(t, "train", "--data", "breast_cancer", "--model", "knn", "--cv", "3", "--resample", "smote", "--class-weight", "balanced", "--json", "--no-history")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var res struct {
		Parts []struct {
			Fold   int   `json:"fold"`
			Before []int `json:"class_rows_before"`
			Rows   []int `json:"class_rows"`
		} `json:"training_parts"`
		Warnings []string `json:"warnings"`
		Recipe   struct {
			Resample    string `json:"resample"`
			ClassWeight string `json:"class_weight"`
			Command     string `json:"command"`
		} `json:"recipe"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) != 4 || res.Parts[0].Rows[0] != res.Parts[0].Rows[1] || res.Parts[3].Fold != 0 || res.Parts[3].Before[0] != 212 {
		t.Errorf("parts %+v", res.Parts)
	}
	if res.Recipe.Resample != "smote" || res.Recipe.ClassWeight != "balanced" || !strings.Contains(res.Recipe.Command, "--resample smote --class-weight balanced") {
		t.Errorf("recipe %+v", res.Recipe)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "knn ignores row weights") {
		t.Errorf("warnings %q", res.Warnings)
	}
	_, errOut, status = run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--resample", "smote1")
	if status != 2 || errOut != "tealab: train: --resample \"smote1\" is not one of none, over, under, smote\n" {
		t.Errorf("status %d: %q", status, errOut)
	}
}

package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// --reduce K fits the model on K principal components, says so, and the
// run's command and recipe keep it.
func TestReduceFlag(t *testing.T) {
	t.Parallel()
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
	if status != 2 || !strings.Contains(errOut, `--reduce "-1" is out of range (int in [0, +inf])`) {
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
		yes.Recipe.Standardize != "yes" || !strings.Contains(yes.Recipe.Command, "--scale standardize") {
		t.Errorf("yes: ARI %v, evaluation %q, recipe %+v", yes.Metrics["ari"], yes.Evaluation, yes.Recipe)
	}
	if no.Metrics["ari"] > 0.5 || !strings.Contains(no.Evaluation, "not standardised") || no.Recipe.Standardize != "no" {
		t.Errorf("no: ARI %v, evaluation %q, recipe %+v", no.Metrics["ari"], no.Evaluation, no.Recipe)
	}
	if auto.Metrics["ari"] != no.Metrics["ari"] || strings.Contains(auto.Evaluation, "standardised") ||
		auto.Recipe.Standardize != "" || strings.Contains(auto.Recipe.Command, "--scale") {
		t.Errorf("auto (k-means does not standardise): ARI %v, evaluation %q, recipe %+v", auto.Metrics["ari"], auto.Evaluation, auto.Recipe)
	}
	_, errOut, status := run(t, "train", "--data", "iris", "--model", "lda", "--standardize", "maybe")
	if status != 2 || !strings.Contains(errOut, `--standardize "maybe" is not one of auto, standardize, min-max, robust, none`) {
		t.Errorf("--standardize maybe: status %d: %s", status, errOut)
	}
}

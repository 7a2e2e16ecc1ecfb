package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPositiveClassAndCurves: the rarer class is positive unless
// --positive names another; the report's curve sections and --json
// follow it; a class the target lacks is a usage error naming the valid
// ones.
func TestPositiveClassAndCurves(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--cv", "3", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var res struct {
		Positive    string
		Metrics     map[string]float64
		PR          []struct{ Class string } `json:"pr_curve"`
		Calibration []struct {
			Class string
			Bins  []struct{ Count int }
		}
		Lift       []struct{ Class string }
		FoldCurves []struct {
			PR []struct{ Class string } `json:"pr_curve"`
		} `json:"fold_curves"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Positive != "malignant" || len(res.PR) != 1 || res.PR[0].Class != "malignant" || len(res.Lift) != 1 || len(res.FoldCurves) != 3 ||
		len(res.Calibration) != 1 || len(res.Calibration[0].Bins) != 10 {
		t.Errorf("positive %q, %d PR, %d lift, %d folds' curves, calibration %+v", res.Positive, len(res.PR), len(res.Lift), len(res.FoldCurves), res.Calibration)
	}
	for _, k := range []string{"precision", "recall", "f1", "brier", "average_precision", "auc"} {
		if _, ok := res.Metrics[k]; !ok {
			t.Errorf("no metric %s", k)
		}
	}
	out, errOut, status = run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--positive", "benign")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"precision-recall (positive class benign)", "calibration (positive class benign; bins: quantiles", "cumulative gains and lift (positive class benign", "  100%      1.0000  1.0000"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	_, errOut, status = run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--positive", "Benign")
	if want := `train: --positive "Benign" is not a class of the target diagnosis (valid: malignant, benign)`; status != 2 || strings.TrimSpace(errOut) != "tealab: "+want {
		t.Errorf("status %d, %q; want 2, %q", status, errOut, want)
	}
	_, errOut, status = run(t, "train", "--data", "iris", "--model", "logistic", "--positive", "setosa")
	if status != 2 || !strings.Contains(errOut, "3 classes") {
		t.Errorf("a positive class of three: status %d, %s", status, errOut)
	}
}

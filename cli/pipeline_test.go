package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A run's whole pipeline (imputation, scaling, SMOTE, a filter selection)
// is replayed by its model file: predict gives the run's own predictions
// on its held-out rows; the report says which features each part kept.
func TestPredictReplaysThePipeline(t *testing.T) {
	dir := t.TempDir()
	preds := filepath.Join(dir, "held.csv")
	file := trainSaved(t, "--data", "breast_cancer", "--model", "logistic", "--split", "0.3", "--impute", "median", "--scale", "robust",
		"--resample", "smote", "--select", "chi2:3", "--predictions", preds, "--no-history")
	b, err := os.ReadFile(preds)
	if err != nil {
		t.Fatal(err)
	}
	held, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, status := run(t, "predict", "--model-file", file, "--data", "breast_cancer", "--csv", "--keep", "")
	if status != 0 {
		t.Fatalf("predict: %d %s", status, errOut)
	}
	all, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for j, h := range held[0] {
		col[h] = j
	}
	if len(held) < 100 {
		t.Fatalf("%d held-out rows", len(held)-1)
	}
	for _, row := range held[1:] {
		r, err := strconv.Atoi(row[col["row"]])
		if err != nil {
			t.Fatalf("row %q: %v (header %v)", row[col["row"]], err, held[0])
		}
		if got, want := all[r][0], row[col["predicted"]]; got != want {
			t.Fatalf("row %d: predict says %s, the run %s", r, got, want)
		}
	}
	out, _, _ = run(t, "train", "--data", "breast_cancer", "--model", "logistic", "--cv", "3", "--select", "chi2:3", "--no-history")
	if !strings.Contains(out, "features kept") || !strings.Contains(out, "the top 3 features by chi2 in each training part") {
		t.Errorf("report:\n%s", out)
	}
}

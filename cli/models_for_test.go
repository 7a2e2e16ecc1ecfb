package cli

import (
	"strings"
	"testing"
)

// A model that does not do the data's task is answered with the models
// that do, and apart from them those that cluster or reduce any data
// (k-means was listed among the "models for classification").
func TestModelsForKeepsClusteringApart(t *testing.T) {
	_, errOut, status := run(t, "train", "--data", "iris", "--model", "linear")
	own, anyData, ok := strings.Cut(errOut, "; on any data, clustering or reduction: ")
	if status != 2 || !ok || !strings.Contains(own, "models for classification: ") {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if strings.Contains(own, "kmeans") || strings.Contains(own, "pca") || !strings.Contains(own, "lda") {
		t.Errorf("models for classification: %s", own)
	}
	if !strings.Contains(anyData, "kmeans") || !strings.Contains(anyData, "pca") {
		t.Errorf("on any data: %s", anyData)
	}
}

// --cv asked of a clustering says, in the report and in --json, that it
// does not apply and how the clustering is scored instead.
func TestCVOnClusteringIsNotSilent(t *testing.T) {
	note := "10-fold cross-validation does not apply to clustering: the model is fitted on all rows"
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "kmeans", "--cv", "10")
	if status != 0 || !strings.Contains(out, "warning: "+note) {
		t.Errorf("status %d: %s%s", status, out, errOut)
	}
	out, _, _ = run(t, "train", "--data", "iris", "--model", "kmeans", "--cv", "10", "--json")
	if !strings.Contains(out, `"warnings": [`+"\n"+`    "`+note) {
		t.Errorf("--json: %s", out)
	}
}

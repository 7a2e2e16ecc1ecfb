package cli

import (
	"regexp"
	"strings"
	"testing"
)

// Ensembles in compare: members with their own parameters inside
// compare's comma-separated parameters (the "done when", on iris
// with 3 × 2-fold CV to stay quick).
func TestCompareEnsembles(t *testing.T) {
	t.Parallel()
	out, errOut, status := run(t, "compare", "--data", "iris", "--model", "forest:trees=10",
		"--model", "voting:models=logistic+knn+tree",
		"--model", "voting:models=gnb+knn[k=5;metric=l1]+tree[max_depth=3],voting=soft,weights=2,1,1",
		"--model", "stacking:models=logistic+knn[k=7]+tree,cv=3,passthrough=true",
		"--cv", "3", "--repeat", "2")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{"4 models on iris, 2 × 3-fold CV", "voting:models=logistic+knn+tree ",
		"voting:models=gnb+knn[k=5;metric=l1]+tree[max_depth=3],voting=soft,weights=2,1,1 ",
		"stacking:models=logistic+knn[k=7]+tree,cv=3,passthrough=true "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`(?m)^stacking:\S+ +0\.9\d\d ± 0\.0\d\d `).MatchString(out) {
		t.Errorf("stacking's row:\n%s", out)
	}
}

// A member's mistake is one line naming the member and its parameter, in
// train as in compare, with the exit status of a usage error.
func TestEnsembleMemberMistakes(t *testing.T) {
	for _, args := range [][]string{
		{"train", "--data", "iris", "--model", "voting", "--param", "models=logistic+knn[k=0]"},
		{"compare", "--data", "iris", "--model", "lda", "--model", "stacking:models=logistic+knn[k=0]"},
	} {
		_, errOut, status := run(t, args...)
		want := `member knn[k=0]: parameter k: "0" is out of range (int in [1, 1e6])`
		if status != 2 || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", args, status, errOut, want)
		}
	}
}

// The report lists an ensemble's members with their own errors.
func TestEnsembleReportListsMembers(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "iris", "--model", "stacking", "--param", "models=gnb+knn[k=3]+perceptron")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	if !regexp.MustCompile(`(?m)^members \(stacking into logistic, model fitted on .*\):\n  member +feeds +out-of-fold error\n  gnb +probabilities +0\.\d{4}\n  knn\[k=3\] +probabilities +0\.\d{4}\n  perceptron +scores +0\.\d{4}\n`).MatchString(out) {
		t.Errorf("no members section:\n%s", out)
	}
}

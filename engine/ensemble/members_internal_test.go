package ensemble

import (
	"maps"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// trainOf is rows of one feature with targets y (k classes; 0: a
// regression).
func trainOf(y []float64, k int) engine.Train {
	t := engine.Train{X: mat.NewDense(len(y), 1, nil), Y: y, Seed: 5}
	for c := range k {
		t.Classes = append(t.Classes, string(rune('a'+c)))
	}
	return t
}

// The list's syntax: + between members outside brackets, ; between a
// member's parameters, a piece without = continuing the value before it
// (a loss matrix), + inside brackets part of a value.
func TestParseList(t *testing.T) {
	for text, want := range map[string][]member{
		"logistic": {{Text: "logistic", Name: "logistic", Settings: map[string]string{}}},
		" logistic + knn[ k = 5 ; metric=l1 ] + tree[] ": {
			{Text: "logistic", Name: "logistic", Settings: map[string]string{}},
			{Text: "knn[ k = 5 ; metric=l1 ]", Name: "knn", Settings: map[string]string{"k": "5", "metric": "l1"}},
			{Text: "tree[]", Name: "tree", Settings: map[string]string{}}},
		"gnb[decision=risk;loss=0,1;5,0]+svm[C=1e+5]": {
			{Text: "gnb[decision=risk;loss=0,1;5,0]", Name: "gnb", Settings: map[string]string{"decision": "risk", "loss": "0,1;5,0"}},
			{Text: "svm[C=1e+5]", Name: "svm", Settings: map[string]string{"C": "1e+5"}}},
		"mlp[hidden=64,32;lr=0.01]": {{Text: "mlp[hidden=64,32;lr=0.01]", Name: "mlp", Settings: map[string]string{"hidden": "64,32", "lr": "0.01"}}},
	} {
		got, err := parseList(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%q: %d members, want %d", text, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i].Text != want[i].Text || got[i].Name != want[i].Name || !maps.Equal(got[i].Settings, want[i].Settings) {
				t.Errorf("%q member %d: %+v, want %+v", text, i+1, got[i], want[i])
			}
		}
	}
	for text, want := range map[string]string{
		"":              "no members: name at least one model, e.g. logistic+knn+tree",
		"knn+":          "member 2: empty (two + in a row, or one at an end?)",
		"knn[k=1;k=2]":  "member 1: knn: parameter k given twice",
		"[k=1]":         `member 1: "[k=1]": no model name before [`,
		"knn[k=[1]]":    `member 1: "knn[k=[1]]": brackets inside a member's brackets`,
		"knn]":          `member 1: "knn]": a member's parameters go in brackets, e.g. knn[k=5;metric=l1]`,
		"knn[=1]":       `member 1: knn: "=1" is not param=value (e.g. knn[k=5;metric=l1])`,
		"knn[k=1]\x00":  `"knn[k=1]\x00" holds a control character (U+0000)`,
		"knn]+tree":     `member 1: "knn]": a member's parameters go in brackets, e.g. knn[k=5;metric=l1]`,
		"knn,tree":      `member 1: "knn,tree": members are joined by +, not by commas (e.g. logistic+knn+tree)`,
		"knn,tree[k=1]": `member 1: "knn,tree[k=1]": members are joined by +, not by commas (e.g. logistic+knn+tree)`,
		"kn\rn":         `"kn\rn" holds a control character (U+000D)`,
	} {
		if _, err := parseList(text); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

// The inner folds without shuffling are scikit-learn's StratifiedKFold:
// classes numbered by first appearance, the sorted rows dealt round the
// folds, each class's rows filling its folds in row order.
func TestInnerFoldsAsScikitLearn(t *testing.T) {
	// y = [1 1 0 0 0 2 1 0 2 1], 3 folds: StratifiedKFold(3).split gives the
	// test folds [0 0 0 1 1 0 1 2 2 2] (scikit-learn 1.2.1).
	y := []float64{1, 1, 0, 0, 0, 2, 1, 0, 2, 1}
	got := innerFolds(trainOf(y, 3), 3, false)
	if want := []int{0, 0, 0, 1, 1, 0, 1, 2, 2, 2}; !slices.Equal(got, want) {
		t.Fatalf("folds %v, want %v", got, want)
	}
	// KFold(3) on 10 rows: 4, 3, 3.
	got = innerFolds(trainOf(make([]float64, 10), 0), 3, false)
	if want := []int{0, 0, 0, 0, 1, 1, 1, 2, 2, 2}; !slices.Equal(got, want) {
		t.Fatalf("KFold: %v, want %v", got, want)
	}
	// Shuffled, each fold keeps the class counts StratifiedKFold gives it.
	got = innerFolds(trainOf(y, 3), 3, true)
	for f := range 3 {
		var counts [3]int
		for i, g := range got {
			if g == f {
				counts[int(y[i])]++
			}
		}
		want := [][3]int{{1, 2, 1}, {2, 1, 0}, {1, 1, 1}}[f]
		if counts != want {
			t.Errorf("shuffled fold %d holds classes %v, want %v", f, counts, want)
		}
	}
}

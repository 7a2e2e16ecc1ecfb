package metrics

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestReadCosts(t *testing.T) {
	classes := []string{"benign", "malignant"}
	c, err := ReadCosts(strings.NewReader("actual,malignant,benign\nmalignant,0,10\nbenign, 1 ,0\n"), classes)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{0, 1}, {10, 0}} // [actual][predicted] in the data's order
	for i := range want {
		for j := range want[i] {
			if c.Cost[i][j] != want[i][j] {
				t.Fatalf("Cost = %v, want %v", c.Cost, want)
			}
		}
	}
	if err := c.Check(classes); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{"", "empty"},
		{"class,benign,malignant\n", `starts with "class"`},
		{"actual,benign,ugly\n", `column "ugly" is not a class of the data (valid: benign, malignant)`},
		{"actual,benign\nbenign,0\nmalignant,1\n", `class "malignant" has no column`},
		{"actual,benign,benign\n", `column "benign" is named twice`},
		{"actual,benign,malignant\nbenign,0,1\n", `class "malignant" has no row`},
		{"actual,benign,malignant\nbenign,0,1\nugly,0,1\n", `row "ugly" (line 3) is not a class`},
		{"actual,benign,malignant\nbenign,0,1\nbenign,0,1\n", `row "benign" (line 3) is given twice`},
		{"actual,benign,malignant\nbenign,0,-1\nmalignant,1,0\n", `row "benign", column "malignant": the cost -1 is negative`},
		{"actual,benign,malignant\nbenign,0\nmalignant,1,0\n", `row "benign", column "malignant": the cost is missing`},
		{"actual,benign,malignant\nbenign,0,\nmalignant,1,0\n", `row "benign", column "malignant": the cost is missing`},
		{"actual,benign,malignant\nbenign,x,1\nmalignant,1,0\n", `row "benign", column "benign": "x" is not a finite number`},
		{"actual,benign,malignant\nbenign,0,Inf\nmalignant,1,0\n", `"Inf" is not a finite number`},
		{"actual,benign,malignant\nbenign,0,1,2\nmalignant,1,0\n", `row "benign" has 3 costs for 2 classes`},
	} {
		_, err := ReadCosts(strings.NewReader(tc.file), classes)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ReadCosts(%q) = %v, want one line with %q", tc.file, err, tc.want)
		}
	}
}

func TestCostsDecisions(t *testing.T) {
	// Class 1 positive; a false negative costs 10, a false positive 1.
	c := &Costs{Classes: []string{"n", "p"}, Cost: [][]float64{{0, 1}, {10, 0}}}
	if th, ok := c.BayesThreshold(1); !ok || math.Abs(th-1.0/11) > 1e-15 {
		t.Errorf("BayesThreshold = %v, %v; want 1/11", th, ok)
	}
	if th, ok := c.BayesThreshold(0); !ok || math.Abs(th-10.0/11) > 1e-15 {
		t.Errorf("BayesThreshold(positive 0) = %v, %v; want 10/11", th, ok)
	}
	if _, ok := (&Costs{Cost: [][]float64{{0, 0}, {0, 0}}}).BayesThreshold(1); ok {
		t.Error("a matrix of zeros has a Bayes threshold")
	}
	actual := []float64{0, 0, 1, 1}
	if got := c.Mean(actual, []float64{0, 1, 0, 1}); got != 11.0/4 {
		t.Errorf("Mean = %v, want 11/4", got)
	}
	if got := c.AtOperating(Operating{TP: 1, FP: 1, FN: 1, TN: 1}, 1); got != 11.0/4 {
		t.Errorf("AtOperating = %v, want 11/4", got)
	}
	// Scores 0.9 (p), 0.4 (p), 0.3 (n), 0.2 (n), 0.1 (p): calling the 0.1
	// positive costs 2 false positives (2) instead of a false negative (10).
	s := []float64{0.9, 0.4, 0.3, 0.2, 0.1}
	y := []float64{1, 1, 0, 0, 1}
	if got := c.MinCostThreshold(y, s, 1, 0.5); got != 0.1 {
		t.Errorf("MinCostThreshold = %v, want 0.1", got)
	}
	// Equal costs: any threshold in (0.3, 0.4] is best; 0.5 is not in it,
	// so the middle of the gap, 0.35.
	eq := &Costs{Classes: c.Classes, Cost: [][]float64{{0, 1}, {1, 0}}}
	if got := eq.MinCostThreshold(y, s, 1, 0.5); math.Abs(got-0.35) > 1e-15 {
		t.Errorf("MinCostThreshold with equal costs = %v, want 0.35", got)
	}
	if got := eq.MinCostThreshold(y, s, 1, 0.38); got != 0.38 {
		t.Errorf("MinCostThreshold with own 0.38 = %v, want 0.38 (it splits alike)", got)
	}
	// Two gaps of equal cost: the one nearer own.
	tie := &Costs{Classes: c.Classes, Cost: [][]float64{{0, 1}, {1, 0}}}
	// (0.7, 0.9] and (0.1, 0.5] both cost one mistake; own 0.6 is nearer
	// the first's middle.
	if got := tie.MinCostThreshold([]float64{1, 0, 1, 0}, []float64{0.9, 0.7, 0.5, 0.1}, 1, 0.6); math.Abs(got-0.8) > 1e-15 {
		t.Errorf("MinCostThreshold between equal gaps = %v, want 0.8, the nearer 0.6", got)
	}
	if got := eq.MinCostThreshold([]float64{0, 0}, []float64{0.7, 0.8}, 1, 0.5); !(got > 0.8 && got < 0.81) {
		t.Errorf("nothing positive: %v, want just above 0.8", got)
	}
	if got := Threshold(s, 0.25, 1); got[2] != 1 || got[3] != 0 {
		t.Errorf("Threshold = %v", got)
	}
	// Three classes: predicting 2 when 0 costs 100.
	c3 := &Costs{Classes: []string{"a", "b", "c"}, Cost: [][]float64{{0, 1, 100}, {1, 0, 1}, {1, 1, 0}}}
	P := mat.NewDense(2, 3, []float64{0.1, 0.3, 0.6, 0.0, 0.2, 0.8})
	if got := c3.BayesDecision(P); got[0] != 1 || got[1] != 2 {
		t.Errorf("BayesDecision = %v, want [1 2]", got)
	}
}

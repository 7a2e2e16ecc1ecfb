package eval

//go:generate sh -c "cd ../.. && /usr/bin/python3 engine/eval/testdata/imbalance_sklearn.py"

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestImbalanceSklearn checks the balanced class weights against
// scikit-learn 1.2's compute_class_weight, and the neighbours SMOTE draws
// between against its NearestNeighbors (testdata/imbalance_sklearn.py).
func TestImbalanceSklearn(t *testing.T) {
	b, err := os.ReadFile("testdata/imbalance_sklearn.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		X          [][]float64
		Y          []float64
		Balanced   []float64
		Neighbours map[string][][]int
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	byClass, rows := balancedWeights(ref.Y, 3)
	for c, w := range ref.Balanced {
		if math.Abs(byClass[c]-w) > 1e-12 {
			t.Errorf("class %d: weight %v, scikit-learn %v", c, byClass[c], w)
		}
	}
	for i, v := range ref.Y {
		if rows[i] != byClass[int(v)] {
			t.Fatalf("row %d weighs %v, its class %v", i, rows[i], byClass[int(v)])
		}
	}
	X := mat.NewDense(len(ref.X), 2, nil)
	for i, r := range ref.X {
		X.SetRow(i, r)
	}
	for _, c := range []struct {
		key   string
		class float64
	}{{"0", 0}, {"2", 2}} {
		var members []int
		for i, v := range ref.Y {
			if v == c.class {
				members = append(members, i)
			}
		}
		got := neighboursWithin(X, members, SMOTENeighbors)
		for a, want := range ref.Neighbours[c.key] {
			if !slices.Equal(got[a], want) {
				t.Errorf("class %s row %d: neighbours %v, scikit-learn's %v", c.key, members[a], got[a], want)
			}
		}
	}
}

package neighbors

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// gaussianRows is n rows of d standard normal features (standardised data
// with no structure: the hardest case for a k-d tree) and a class from a
// noisy linear rule.
func gaussianRows(n, d int, seed uint64) (*mat.Dense, []float64) {
	r := rand.New(rand.NewPCG(seed, 11))
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		s := r.NormFloat64()
		for j := range d {
			v := r.NormFloat64()
			X.Set(i, j, v)
			s += v
		}
		if s > 0 {
			y[i] = 1
		}
	}
	return X, y
}

// BenchmarkPredict times 5-NN predictions of 2,000 new rows on n training
// rows of d Gaussian features, by each search: where exhaustive search
// overtakes the k-d tree (the auto rule's crossover).
func BenchmarkPredict(b *testing.B) {
	const queries = 2000
	for _, n := range []int{10_000, 100_000} {
		for _, d := range []int{2, 4, 8, 12, 20} {
			X, y := gaussianRows(n, d, 1)
			Q, _ := gaussianRows(queries, d, 2)
			for _, algo := range []string{KDTree, Brute} {
				b.Run(fmt.Sprintf("n=%d/d=%d/%s", n, d, algo), func(b *testing.B) {
					m := &KNN{K: 5, Algorithm: algo, Metric: "l2", P: 3, LeafSize: 30}
					if err := engine.Fit(context.Background(), m, engine.Train{X: X, Y: y, Classes: []string{"0", "1"}}, nil); err != nil {
						b.Fatal(err)
					}
					for b.Loop() {
						if _, err := m.Predict(Q); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

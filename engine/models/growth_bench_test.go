package models_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// BenchmarkForestTrees times a whole evaluation of a random forest (a
// stratified 80/20 hold-out of 20,000 x 20 rows, the live curve scored
// after every tree, as `tealab train` runs it) at 25, 50, 100 and 200
// trees: the time must grow in proportion to the trees (it grew with
// their square while every tree rescored the whole forest).
//
//	go test ./engine/models -run '^$' -bench ForestTrees -benchtime 3x
func BenchmarkForestTrees(b *testing.B) {
	d := gaussianRows(20_000, 20, 1)
	spec, err := engine.Lookup("forest")
	if err != nil {
		b.Fatal(err)
	}
	for _, trees := range []int{25, 50, 100, 200} {
		for _, jobs := range []int{1, 2} {
			b.Run(fmt.Sprintf("trees=%d/jobs=%d", trees, jobs), func(b *testing.B) {
				v, err := spec.Parse(map[string]string{"trees": fmt.Sprint(trees), "jobs": fmt.Sprint(jobs)})
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if _, err := eval.Run(context.Background(), d, spec, v, eval.DefaultOptions(), nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// gaussianRows is n rows of p Gaussian features and a class given by a
// fixed linear rule, 5% of them flipped.
func gaussianRows(n, p int, seed uint64) *datasets.Dataset {
	r := rand.New(rand.NewPCG(seed, 7))
	X := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := range n {
		z := 0.0
		for j := range p {
			v := r.NormFloat64()
			X.Set(i, j, v)
			z += v * float64(j%5-2)
		}
		if (z > 0) != (r.Float64() < 0.05) {
			y[i] = 1
		}
	}
	cols := make([]datasets.Column, p)
	for j := range cols {
		cols[j] = datasets.Column{Name: fmt.Sprintf("x%d", j)}
	}
	return &datasets.Dataset{Name: "gaussian", X: X, Y: y, Classes: []string{"0", "1"}, Task: datasets.Classification, Features: cols}
}

package models_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

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

// BenchmarkCancelLatency measures how long a cancelled evaluation takes to
// return, from the cancel to Run's return with its partial result (the
// model stopped early scored on the held-out rows): the time a person
// waits after pressing c. Each model trains on 20,000 or 500,000 x 20 rows
// and is cancelled 300 ms in; the figure is the mean latency (ms/op).
//
//	go test ./engine/models -run '^$' -bench CancelLatency -benchtime 5x
func BenchmarkCancelLatency(b *testing.B) {
	small, large := gaussianRows(20_000, 20, 1), gaussianRows(500_000, 20, 1)
	cases := []struct {
		model  string
		params map[string]string
		d      *datasets.Dataset
	}{
		{"forest", map[string]string{"trees": "300"}, small},
		{"forest", map[string]string{"trees": "300", "jobs": "2"}, small},
		{"adaboost", map[string]string{"rounds": "2000", "max_depth": "3"}, small},
		{"tree", nil, large},
		{"logistic", map[string]string{"solver": "gd", "max_iter": "100000"}, small},
		{"perceptron", map[string]string{"epochs": "100000"}, small},
		{"knn", map[string]string{"choose_k": "loo", "k_max": "200"}, small},
		{"kmeans", map[string]string{"restarts": "1000"}, large},
		{"gmm", map[string]string{"max_iter": "100000", "tol": "1e-12"}, large},
	}
	for _, c := range cases {
		d := c.d
		b.Run(fmt.Sprintf("%s%v/%d", c.model, c.params, d.Rows()), func(b *testing.B) {
			spec, err := engine.Lookup(c.model)
			if err != nil {
				b.Fatal(err)
			}
			v, err := spec.Parse(c.params)
			if err != nil {
				b.Fatal(err)
			}
			data := d
			if !spec.Supports(datasets.Classification) {
				data = &datasets.Dataset{Name: d.Name, X: d.X, Y: d.Y, Task: datasets.Regression, Features: d.Features}
			}
			var total time.Duration
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() {
					eval.Run(ctx, data, spec, v, eval.DefaultOptions(), nil)
					close(done)
				}()
				select {
				case <-time.After(300 * time.Millisecond):
				case <-done:
					b.Fatal("finished before the cancel")
				}
				t0 := time.Now()
				cancel()
				<-done
				total += time.Since(t0)
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-latency")
		})
	}
}

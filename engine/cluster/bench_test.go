package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// BenchmarkKMeans is the shape of the kmeans bench case (100,000 × 10,
// k = 8, one greedy k-means++ start) on generated blobs, so a change to
// the hot loops can be timed without the bench data:
// go test ./engine/cluster -run '^$' -bench KMeans.
func BenchmarkKMeans(b *testing.B) {
	t := benchBlobs(b, 100000, 8)
	b.ResetTimer()
	for range b.N {
		m := &KMeans{K: 8, Restarts: 1, MaxIter: 100, Init: InitPlusPlus}
		if err := engine.Fit(context.Background(), m, t, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKMeansTwoOnGaussian is k-means with its defaults (10 restarts,
// k = 2) on 200,000 x 20 Gaussian rows without clusters, the growth case
// of `tealab train --model kmeans`: many iterations of two centres.
func BenchmarkKMeansTwoOnGaussian(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	X := mat.NewDense(200_000, 20, nil)
	for i := range 200_000 {
		for j := range 20 {
			X.Set(i, j, r.NormFloat64())
		}
	}
	t := engine.Train{X: X, Seed: 1}
	for b.Loop() {
		m := &KMeans{K: 2, Restarts: 10, MaxIter: 300, Tol: 1e-4, Init: InitPlusPlus}
		if err := engine.Fit(context.Background(), m, t, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpectral is the shape of the spectral bench case (2,000 × 10,
// four blobs, Gaussian graph with gamma 1, normalised Laplacian), whose
// eigenvalue 1 is repeated once per blob:
// go test ./engine/cluster -run '^$' -bench Spectral.
func BenchmarkSpectral(b *testing.B) {
	t := benchBlobs(b, 2000, 4)
	for b.Loop() {
		m := &Spectral{K: 4, Graph: GraphGaussian, Gamma: 1, Neighbors: 10}
		if err := engine.Fit(context.Background(), m, t, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// benchBlobs is n rows of generated blobs in 10 dimensions around centers
// centres, as the bench cases' data.
func benchBlobs(b *testing.B, n, centers int) engine.Train {
	b.Helper()
	tab, err := datasets.Generate("blobs", map[string]float64{"n": float64(n), "centers": float64(centers), "dims": 10})
	if err != nil {
		b.Fatal(err)
	}
	d, err := tab.Dataset(datasets.NoTarget, datasets.Clustering)
	if err != nil {
		b.Fatal(err)
	}
	return engine.Train{X: d.X, Seed: 1}
}

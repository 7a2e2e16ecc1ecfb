package cluster

import (
	"context"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// BenchmarkKMeans is the shape of the kmeans bench case (100,000 × 10,
// k = 8, one greedy k-means++ start) on generated blobs, so a change to
// the hot loops can be timed without the bench data:
// go test ./engine/cluster -run '^$' -bench KMeans.
func BenchmarkKMeans(b *testing.B) {
	tab, err := datasets.Generate("blobs", map[string]float64{"n": 100000, "centers": 8, "dims": 10})
	if err != nil {
		b.Fatal(err)
	}
	d, err := tab.Dataset(datasets.NoTarget, datasets.Clustering)
	if err != nil {
		b.Fatal(err)
	}
	t := engine.Train{X: d.X, Seed: 1}
	b.ResetTimer()
	for range b.N {
		m := &KMeans{K: 8, Restarts: 1, MaxIter: 100}
		if err := m.Fit(context.Background(), t, nil); err != nil {
			b.Fatal(err)
		}
	}
}

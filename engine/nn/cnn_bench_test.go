package nn

import (
	"context"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// One epoch of the default network over every digit (1,797 images of
// 8 × 8): the unit a fit's time is made of.
func BenchmarkCNNDigitsEpoch(b *testing.B) {
	d := persisttest.Builtin(b, "digits", datasets.Classification)
	m := engine.MustBuild("cnn", map[string]string{"patience": "0"}).(*CNN)
	net := newConvNet(8, 8, m.filters, m.kernel, m.pool, m.hidden, len(d.Classes))
	mean, scale := pixelScale(d.X)
	X := append([]float64(nil), d.X.RawMatrix().Data...)
	for i := range X {
		X[i] = (X[i] - mean) / scale
	}
	tr, _ := newTrainer(m, net, d, X, 64)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.epoch(ctx, m.lr); err != nil {
			b.Fatal(err)
		}
	}
}

package nn

import (
	"context"
	"math"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/persisttest"
)

// An epoch's gradient norm of a layer is the mean over its mini-batches,
// with their least and greatest: the MLP's, replayed batch by batch on a
// twin of the fit, and the accumulator's on gradients given by hand.
func TestEpochGradNormIsTheBatchesMean(t *testing.T) {
	f, twin := digitsFit(t, 0), digitsFit(t, 0)
	f.m.Batch, twin.m.Batch = 200, 200
	const lr = 0.001
	if _, err := f.epoch(context.Background(), lr); err != nil {
		t.Fatal(err)
	}
	got := f.norms(lr)
	// The twin runs the same epoch by hand, noting each batch's norms.
	twin.rng.Shuffle(len(twin.train), func(i, j int) { twin.train[i], twin.train[j] = twin.train[j], twin.train[i] })
	L := twin.net.layers()
	sum, lo, hi := make([]float64, L), make([]float64, L), make([]float64, L)
	batches := 0
	for start := 0; start < len(twin.train); start += twin.batch {
		rows := min(twin.batch, len(twin.train)-start)
		twin.gather(twin.train[start : start+rows])
		twin.net.forward(twin.b, rows, nil, 0)
		twin.net.loss(twin.b, rows, twin.yb, twin.wb) // sets the output deltas
		twin.net.backward(twin.b, rows, twin.g, twin.m.L2)
		for l := range L {
			v := norm(twin.g[twin.net.woff[l+1]:twin.net.boff[l+1]])
			sum[l] += v
			if batches == 0 || v < lo[l] {
				lo[l] = v
			}
			hi[l] = math.Max(hi[l], v)
		}
		batches++
		twin.opt.Step(twin.net.w, twin.g, lr)
	}
	if batches < 5 {
		t.Fatalf("%d batches", batches)
	}
	for l, ln := range got.Layers {
		mean := sum[l] / float64(batches)
		if math.Abs(ln.Grad-mean) > 1e-12*mean || ln.GradMin != lo[l] || ln.GradMax != hi[l] || !(lo[l] < hi[l]) {
			t.Errorf("%s: reported |grad| %g (%g..%g), the %d batches' mean %g (%g..%g)", ln.Name, ln.Grad, ln.GradMin, ln.GradMax, batches, mean, lo[l], hi[l])
		}
	}

	g := newGradNorms([][2]int{{0, 2}, {2, 3}})
	if l := g.layer(0, "a", make([]float64, 3)); !math.IsNaN(l.Grad) {
		t.Errorf("before any batch: |grad| %g, want NaN", l.Grad)
	}
	for _, grad := range [][]float64{{3, 4, 1}, {0, 0, 2}, {6, 8, 0}} {
		g.add(grad)
	}
	for i, want := range [][3]float64{{5, 0, 10}, {1, 0, 2}} {
		if l := g.layer(i, "a", make([]float64, 3)); l.Grad != want[0] || l.GradMin != want[1] || l.GradMax != want[2] {
			t.Errorf("layer %d: %g (%g..%g), want %v", i, l.Grad, l.GradMin, l.GradMax, want)
		}
	}
}

// With mini-batches of 4 the reported norm moves smoothly from epoch to
// epoch (one batch's norm alone swings by hundreds of times).
func TestMLPGradNormSmallBatches(t *testing.T) {
	moons := persisttest.Builtin(t, "moons", datasets.Classification)
	rec := &stepRecorder{}
	m := engine.MustBuild(mlpName, map[string]string{"batch": "4", "epochs": "60", "patience": "0"})
	if err := engine.Fit(context.Background(), m, moons, rec); err != nil {
		t.Fatal(err)
	}
	prev := map[string]float64{}
	for _, s := range rec.steps {
		for _, l := range s.Detail.(Epoch).Layers {
			if p, ok := prev[l.Name]; ok && (l.Grad > 5*p || p > 5*l.Grad) {
				t.Errorf("epoch %d: %s |grad| %g after %g", s.Step, l.Name, l.Grad, p)
			}
			prev[l.Name] = l.Grad
			if !(l.GradMin <= l.Grad && l.Grad <= l.GradMax) {
				t.Errorf("epoch %d: %s |grad| %g outside %g..%g", s.Step, l.Name, l.Grad, l.GradMin, l.GradMax)
			}
		}
	}
}

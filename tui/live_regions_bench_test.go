package tui

import (
	"context"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/tui/kit"
)

// What the live decision regions cost a fit: logistic regression by
// gradient descent on 2,000 moons, 20,000 iterations, without and with the
// 40 x 20 map drawn between steps every eval.SnapshotEvery; and one map.
//
//	go test ./tui -run '^$' -bench LiveRegions -benchtime 5x
func BenchmarkLiveRegions(b *testing.B) {
	d, spec, v := moonsRun(b)
	for _, live := range []bool{false, true} {
		name := "without"
		if live {
			name = "with"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				opt := eval.DefaultOptions()
				if live {
					l := liveGrid(b, d)
					opt.Snapshot = l.Snapshot
				}
				if _, err := eval.Run(context.Background(), d, spec, v, opt, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("one map", func(b *testing.B) {
		l := liveGrid(b, d)
		m, err := spec.New(v)
		if err != nil {
			b.Fatal(err)
		}
		tr := engine.Train{X: d.X, Y: d.Y, Classes: d.Classes, Features: []string{"x0", "x1"}}
		if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			l.Snapshot(m, nil)
		}
	})
}

// moonsRun is 2,000 moons and logistic regression by 20,000 steps of
// gradient descent.
func moonsRun(b *testing.B) (*datasets.Dataset, *engine.Spec, engine.Values) {
	t, err := datasets.Open("moons:n=2000")
	if err != nil {
		b.Fatal(err)
	}
	d, err := t.Dataset("", datasets.Classification)
	if err != nil {
		b.Fatal(err)
	}
	spec, err := engine.Lookup("logistic")
	if err != nil {
		b.Fatal(err)
	}
	v, err := spec.Parse(map[string]string{"solver": "gd", "max_iter": "20000", "tol": "1e-14"})
	if err != nil {
		b.Fatal(err)
	}
	return d, spec, v
}

// liveGrid is the live regions of d in a 40 x 20 grid.
func liveGrid(b *testing.B, d *datasets.Dataset) *kit.LiveRegions {
	l := kit.NewLiveRegions(datasets.Classification, d, eval.DefaultOptions())
	f, err := inspect.Frame(d, func(*inspect.RegionMap) (int, int) { return 40, 20 })
	if err != nil || l == nil {
		b.Fatal("no frame:", err)
	}
	l.Frame.Store(f)
	return l
}

package inspect

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// A live map is the Map view's picture of the same model: on moons, a
// logistic regression fitted on the raw plane gives, in a frame of the same
// square aspect, the regions Regions computes for the same fit.
func TestLiveRegionsMatchRegions(t *testing.T) {
	d := openDataset(t, "moons", "")
	spec, err := engine.Lookup("logistic")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Regions(context.Background(), d, spec, spec.Defaults(), 1, false, Plane{}, fixedGrid(30, 10))
	if err != nil {
		t.Fatal(err)
	}
	frame, err := frameOf(d, fixedGrid(30, 10), true)
	if err != nil {
		t.Fatal(err)
	}
	if frame.XMin != want.XMin || frame.XMax != want.XMax || frame.YMin != want.YMin || frame.YMax != want.YMax || frame.Grid != nil {
		t.Fatalf("frame [%v %v]x[%v %v] (grid %v), map [%v %v]x[%v %v]", frame.XMin, frame.XMax, frame.YMin, frame.YMax,
			frame.Grid != nil, want.XMin, want.XMax, want.YMin, want.YMax)
	}
	m, err := spec.New(spec.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	tr := engine.Train{X: mat.DenseCopyOf(d.X), Y: d.Y, Classes: d.Classes, Features: []string{"x0", "x1"}, Seed: 1}
	if err := engine.Fit(context.Background(), m, tr, nil); err != nil {
		t.Fatal(err)
	}
	got, err := LiveRegions(frame, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	for r := range want.Grid {
		if !slices.Equal(got.Grid[r], want.Grid[r]) {
			t.Errorf("row %d: live %v, map %v", r, got.Grid[r], want.Grid[r])
		}
	}
	if got.Conf == nil || frame.Grid != nil {
		t.Errorf("live map without confidence, or the frame was changed")
	}
	if _, err := Frame(openDataset(t, "iris", ""), fixedGrid(30, 10)); err == nil {
		t.Error("a frame of iris's four features")
	}
}

// The live frame's bounds are the data's, padded by 5%, whatever the grid's
// shape: a pane four times as wide as tall (in cells twice as tall as wide)
// is filled by the moons, where one scale for both axes left them in its
// middle third.
func TestFrameFillsThePane(t *testing.T) {
	d := openDataset(t, "moons", "")
	xs, ys := mat.Col(nil, 0, d.X), mat.Col(nil, 1, d.X)
	for _, g := range [][2]int{{80, 10}, {10, 40}} {
		f, err := Frame(d, fixedGrid(g[0], g[1]))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			axis   string
			vals   []float64
			lo, hi float64
		}{{"x", xs, f.XMin, f.XMax}, {"y", ys, f.YMin, f.YMax}} {
			vlo, vhi := slices.Min(c.vals), slices.Max(c.vals)
			if span := vhi - vlo; (vhi-vlo)/(c.hi-c.lo) < 0.9 || c.lo > vlo || c.hi < vhi {
				t.Errorf("%dx%d grid: %s bounds [%v, %v] for data [%v, %v] (span %v): the data fill %.0f%% of the axis, want 90%%",
					g[0], g[1], c.axis, c.lo, c.hi, vlo, vhi, span, 100*span/(c.hi-c.lo))
			}
		}
	}
}

package kit

import (
	"sync/atomic"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/tui/widgets"
	"gonum.org/v1/gonum/mat"
)

// LiveRegions is what the fitting goroutine and the training screen share:
// the frame the screen wants (points, bounds and a grid sized to its view)
// and the last map the fit drew in a frame.
type LiveRegions struct {
	Frame  atomic.Pointer[inspect.RegionMap]
	Latest atomic.Pointer[RegionsShot]
}

// RegionsShot is a map and the frame it was drawn in.
type RegionsShot struct{ Frame, M *inspect.RegionMap }

// NewLiveRegions is the live regions of a run of task on d with opt, or
// nil when there are none: only a classification of data with exactly two
// numeric features, seen by the model as they are (no reduction first).
func NewLiveRegions(task engine.Task, d *datasets.Dataset, opt eval.Options) *LiveRegions {
	if task != datasets.Classification || d.Task != datasets.Classification || opt.Reduce > 0 ||
		len(d.Features) != 2 || len(NumericFeatures(d)) != 2 {
		return nil
	}
	return &LiveRegions{}
}

// Snapshot is the run's eval.Options.Snapshot: it draws the model as it
// stands in the frame the view last asked for.
func (l *LiveRegions) Snapshot(m engine.Model, prep *datasets.Prep) {
	f := l.Frame.Load()
	if f == nil {
		return
	}
	if rm, err := inspect.LiveRegions(f, m, prep); err == nil {
		l.Latest.Store(&RegionsShot{Frame: f, M: rm})
	}
}

// PlotArea chooses a map's grid: the plot area it will have in a w x h
// Scatter, which a private Scatter with the same points and bounds
// measures. Its styles are a copy, since cycling the theme rewrites the
// shared ones (the grid may be chosen on another goroutine).
func PlotArea(c *Common, w, h int) inspect.GridSize {
	st := *c.Styles
	return func(rm *inspect.RegionMap) (int, int) {
		sc := widgets.NewScatter(&st)
		sc.SetSize(w, h)
		ShowRegions(&sc, rm)
		b := sc.Bounds()
		return max(b.Cols, 8), max(b.Rows, 4)
	}
}

// ShowRegions puts map rm on sc: points by true class (misclassified ones
// marked) or, for clustering, by cluster; the bounds, axes and regions.
func ShowRegions(sc *widgets.Scatter, rm *inspect.RegionMap) {
	xs, ys := mat.Col(nil, 0, rm.Plane.XY), mat.Col(nil, 1, rm.Plane.XY)
	if rm.Truth == nil {
		sc.SetPoints(xs, ys, rm.Pred)
	} else {
		sc.SetPoints(xs, ys, rm.Truth)
		var wrong []int
		for i, p := range rm.Pred {
			if p != rm.Truth[i] {
				wrong = append(wrong, i)
			}
		}
		sc.SetMarked(wrong)
	}
	sc.SetBounds(rm.XMin, rm.XMax, rm.YMin, rm.YMax)
	sc.SetRegions(rm.Grid)
	sc.SetConfidence(rm.Conf)
	sc.SetMargin(rm.Margin)
	sc.SetSupport(rm.Support)
	// Only the Map's model has them (a live map has none), and they are
	// not the shown model's (the Support vectors tab's): the title says it
	// was refit on the plane and every row.
	sc.SetSupportOf("of this refit")
	sc.SetAxes(rm.Plane.XLabel, rm.Plane.YLabel)
	sc.SetClassNames(rm.Classes)
}

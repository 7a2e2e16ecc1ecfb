package inspect

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Frame is the map of a classification whose data have exactly two
// numeric features, before any model: the points by class, the bounds and
// a grid of the size that size chooses, but no regions. LiveRegions fills
// it in with the model being fitted, as it stands. Unlike Regions' map,
// its axes have scales of their own: the bounds are the data's, so that a
// pane much wider than tall is filled by the data rather than by empty
// margins widened to one scale.
func Frame(d *datasets.Dataset, size GridSize) (*RegionMap, error) {
	return frameOf(d, size, false)
}

// frameOf is Frame, its axes at one scale when square (as Regions' are).
func frameOf(d *datasets.Dataset, size GridSize, square bool) (*RegionMap, error) {
	if d.Task != datasets.Classification || len(d.Features) != 2 {
		return nil, errors.New("live regions need a classification with two features")
	}
	pl, err := PlaneOf(d, 0, 1)
	if err != nil {
		return nil, err
	}
	xs, ys := mat.Col(nil, 0, pl.XY), mat.Col(nil, 1, pl.XY)
	rm := &RegionMap{Plane: pl, Classes: d.Classes, Truth: make([]int, len(xs))}
	rm.XMin, rm.XMax = pad(floats.Min(xs), floats.Max(xs))
	rm.YMin, rm.YMax = pad(floats.Min(ys), floats.Max(ys))
	for i, y := range d.Y {
		rm.Truth[i] = classCode(y, len(d.Classes))
	}
	rm.Pred = rm.Truth // nothing is marked wrong while the model trains
	rm.Title = fmt.Sprintf("%s vs %s · regions of the model as it trains", pl.YLabel, pl.XLabel)
	cols, rows := size(rm)
	if err := rm.layGrid(cols, rows, square); err != nil {
		return nil, err
	}
	return rm, nil
}

// LiveRegions is frame with the regions of model, fitted (or being fitted)
// on the data through prep, predicted at the frame's grid. Call it only
// where the model may be asked for predictions: between its steps, on the
// goroutine that fits it (eval.Options.Snapshot). frame is not changed.
func LiveRegions(frame *RegionMap, model engine.Model, prep *datasets.Prep) (*RegionMap, error) {
	G := frame.gridPoints()
	if prep != nil {
		var err error
		if G, err = prep.Apply(G); err != nil {
			return nil, err
		}
	}
	rm := *frame
	rm.Grid, rm.Conf, rm.Margin = nil, nil, nil
	if err := rm.predictGrid(model, G, len(rm.Classes), true); err != nil {
		return nil, err
	}
	return &rm, nil
}

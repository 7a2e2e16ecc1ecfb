package kit

import (
	"sync/atomic"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/inspect"
)

// liveRegions is what the fitting goroutine and the training screen share:
// the frame the screen wants (points, bounds and a grid sized to its view)
// and the last map the fit drew in a frame.
type LiveRegions struct {
	Frame  atomic.Pointer[inspect.RegionMap]
	Latest atomic.Pointer[RegionsShot]
}

// regionsShot is a map and the frame it was drawn in.
type RegionsShot struct{ Frame, M *inspect.RegionMap }

// newLiveRegions is the live regions of a run of task on d with opt, or
// nil when there are none: only a classification of data with exactly two
// numeric features, seen by the model as they are (no reduction first).
func NewLiveRegions(task engine.Task, d *datasets.Dataset, opt eval.Options) *LiveRegions {
	if task != datasets.Classification || d.Task != datasets.Classification || opt.Reduce > 0 ||
		len(d.Features) != 2 || len(NumericFeatures(d)) != 2 {
		return nil
	}
	return &LiveRegions{}
}

// snapshot is the run's eval.Options.Snapshot: it draws the model as it
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

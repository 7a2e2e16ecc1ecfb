package tui

import (
	"sync/atomic"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/tui/widgets"
)

// A classifier's decision regions on two-feature data, redrawn while it
// trains (TensorFlow Playground's picture). A model being fitted may only
// be asked for predictions on the goroutine that fits it, between its
// steps: eval calls Options.Snapshot there at most every
// eval.SnapshotEvery, which predicts the small grid the view asked for and
// hands the map, plain data, to the training screen through an atomic
// pointer. The screen never touches the model.

func init() {
	registerLiveView(liveViewSpec{order: 15,
		applies: func(r *runRecord, _ eval.Point) bool { return r.regions != nil },
		make: func(c *common, r *runRecord) liveView {
			return &regionsLiveView{c: c, live: r.regions, d: r.Dataset, sc: widgets.NewScatter(c.styles)}
		}})
}

// liveRegions is what the fitting goroutine and the training screen share:
// the frame the screen wants (points, bounds and a grid sized to its view)
// and the last map the fit drew in a frame.
type liveRegions struct {
	frame  atomic.Pointer[inspect.RegionMap]
	latest atomic.Pointer[regionsShot]
}

// regionsShot is a map and the frame it was drawn in.
type regionsShot struct{ frame, m *inspect.RegionMap }

// newLiveRegions is the live regions of a run of task on d with opt, or
// nil when there are none: only a classification of data with exactly two
// numeric features, seen by the model as they are (no reduction first).
func newLiveRegions(task engine.Task, d *datasets.Dataset, opt eval.Options) *liveRegions {
	if task != datasets.Classification || d.Task != datasets.Classification || opt.Reduce > 0 ||
		len(d.Features) != 2 || len(numericFeatures(d)) != 2 {
		return nil
	}
	return &liveRegions{}
}

// snapshot is the run's eval.Options.Snapshot: it draws the model as it
// stands in the frame the view last asked for.
func (l *liveRegions) snapshot(m engine.Model, prep *datasets.Prep) {
	f := l.frame.Load()
	if f == nil {
		return
	}
	if rm, err := inspect.LiveRegions(f, m, prep); err == nil {
		l.latest.Store(&regionsShot{frame: f, m: rm})
	}
}

// regionsLiveView draws the last map the fit drew for its frame.
type regionsLiveView struct {
	c     *common
	live  *liveRegions
	d     *datasets.Dataset
	sc    widgets.Scatter
	frame *inspect.RegionMap // the frame asked for at this size
	shown *regionsShot
	note  string
	w, h  int
}

func (v *regionsLiveView) Panes() int { return 2 }

// SetSize asks the fit for maps of the new size (the frame is quick to
// make: the points' bounds).
func (v *regionsLiveView) SetSize(w, h int) {
	if w == v.w && h == v.h {
		return
	}
	v.w, v.h = w, h
	v.sc.SetSize(w, h-1) // under the title
	f, err := inspect.Frame(v.d, plotArea(v.c, w, h-1))
	if err != nil {
		f = nil
	}
	v.frame = f
	v.live.frame.Store(f)
	if f != nil {
		showRegions(&v.sc, f)
	}
}

func (v *regionsLiveView) Show(_ [][]eval.Point, _ int, note string) {
	v.note = note
	if s := v.live.latest.Load(); s != nil && s != v.shown && s.frame == v.frame {
		showRegions(&v.sc, s.m)
		v.shown = s
	}
}

func (v *regionsLiveView) View() string {
	st := v.c.styles
	if v.frame == nil {
		return fit(st.Muted.Render(" no map at this size"), v.w, v.h)
	}
	title := " decision regions as the model trains" + v.note
	switch {
	case v.shown == nil || v.shown.frame != v.frame:
		title += " · drawing…"
	case v.sc.Confidence():
		title += " · shade = probability"
	}
	return fit(st.Title.Render(clip(title, v.w))+"\n"+v.sc.View(), v.w, v.h)
}

package live

import (
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/tui/kit"
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
	Register(Spec{Order: 15,
		Applies: func(r *kit.RunRecord, _ eval.Point) bool { return r.Regions != nil },
		Make: func(c *kit.Common, r *kit.RunRecord) View {
			return &regionsLiveView{c: c, live: r.Regions, d: r.Dataset, sc: widgets.NewScatter(c.Styles)}
		}})
}

// regionsLiveView draws the last map the fit drew for its frame.
type regionsLiveView struct {
	c     *kit.Common
	live  *kit.LiveRegions
	d     *datasets.Dataset
	sc    widgets.Scatter
	frame *inspect.RegionMap // the frame asked for at this size
	shown *kit.RegionsShot
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
	f, err := inspect.Frame(v.d, kit.PlotArea(v.c, w, h-1))
	if err != nil {
		f = nil
	}
	v.frame = f
	v.live.Frame.Store(f)
	if f != nil {
		kit.ShowRegions(&v.sc, f)
	}
}

func (v *regionsLiveView) Show(_ [][]eval.Point, _ int, note string) {
	v.note = note
	if s := v.live.Latest.Load(); s != nil && s != v.shown && s.Frame == v.frame {
		kit.ShowRegions(&v.sc, s.M)
		v.shown = s
	}
}

func (v *regionsLiveView) View() string {
	st := v.c.Styles
	if v.frame == nil {
		return kit.Fit(st.Muted.Render(" no map at this size"), v.w, v.h)
	}
	title := " decision regions as the model trains" + v.note
	switch {
	case v.shown == nil || v.shown.Frame != v.frame:
		title += " · drawing…"
	case v.sc.Confidence():
		title += " · shade = probability"
	}
	return kit.Fit(st.Title.Render(kit.Clip(title, v.w))+"\n"+v.sc.View(), v.w, v.h)
}

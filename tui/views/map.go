package views

import (
	"context"
	"fmt"
	"maps"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Map", Order: 600,
		Needs: func(r *kit.RunRecord) bool {
			t := r.Task()
			if r.Result == nil || t == datasets.Regression || t == datasets.Reduction || r.Cancelled() || r.Err != nil ||
				len(kit.NumericFeatures(r.Dataset)) < 2 {
				return false
			}
			// Regions are predictions over the plane: a clustering that only
			// labels its own rows (hierarchical, spectral) has none; its
			// Scatter shows the rows.
			_, predicts := r.Result.Fitted.(engine.Predictor)
			return t != datasets.Clustering || predicts
		},
		Make: func(env Env, r *kit.RunRecord) View {
			return &MapView{c: env.C, ctx: env.Ctx, r: r, Regions: widgets.NewScatter(env.C.Styles), State: "computing",
				axes: kit.NewAxisPicker(r.Dataset)}
		}})
}

// mapResizeDelay lets a burst of resizes settle before the map is refit.
const mapResizeDelay = 150 * time.Millisecond

// RegionsMsg: the decision-region map of run finished (or failed).
type RegionsMsg struct {
	Run int
	Key string // the run and widget size it was computed for
	M   *inspect.RegionMap
	Err error
}

// RegionsResizeMsg: the terminal was resized a moment ago; if the size is
// still key, the map view refits its map for it.
type RegionsResizeMsg struct {
	run int
	Key string
}

// MapView draws a model's decision regions over the data in a plane (its
// two features, or its first two principal directions), the model refit on
// that plane off the UI goroutine (engine/inspect computes it).
type MapView struct {
	c       *kit.Common
	ctx     context.Context
	r       *kit.RunRecord
	Regions widgets.Scatter
	axes    kit.AxisPicker

	cancel context.CancelFunc
	State  string // "computing", "ready", or the reason there is no map
	title  string
	Key    string // run and widget size of the map shown
	Want   string // run and widget size of the map being computed; "" when none
	w, h   int    // size of the regions widget
}

func (v *MapView) Init() tea.Cmd { return v.compute() }

func (v *MapView) Close() {
	if v.cancel != nil {
		v.cancel()
		v.cancel = nil
	}
}

func (v *MapView) SetSize(w, h int) {
	v.w, v.h = w, h-1 // under the map's title
	v.Regions.SetSize(v.w, v.h)
}

func (v *MapView) Keys() []key.Binding {
	return append(v.axes.Keys(), v.Regions.KeyMap.ShortHelp()...)
}

// SizeKey names the map the view needs now: its run, its axes and its
// size.
func (v *MapView) SizeKey() string { return fmt.Sprintf("%d:%s:%dx%d", v.r.ID, v.axes.Key(), v.w, v.h) }

func (v *MapView) hasMap() bool { return v.State == "computing" || v.State == "ready" }

// stale says the map shown (or being computed) was made for another size.
func (v *MapView) stale() bool {
	if !v.hasMap() {
		return false
	}
	k := v.SizeKey()
	return k != v.Want && (v.Want != "" || k != v.Key)
}

// Resized asks for a new map once the size has settled.
func (v *MapView) Resized() tea.Cmd {
	if !v.stale() {
		return nil
	}
	run, k := v.r.ID, v.SizeKey()
	return tea.Tick(mapResizeDelay, func(time.Time) tea.Msg { return RegionsResizeMsg{run: run, Key: k} })
}

// compute computes the map for the current size off the UI goroutine,
// cancelling any computation in flight (whose result would be dropped).
func (v *MapView) compute() tea.Cmd {
	if !v.hasMap() {
		return nil
	}
	v.Close()
	ctx, cancel := context.WithCancel(v.ctx)
	v.cancel = cancel
	v.Want = v.SizeKey()
	// Everything the command needs is copied here: it runs on another
	// goroutine while Update may change the view.
	id, d, spec, values, seed := v.r.ID, v.r.Dataset, v.r.Spec, maps.Clone(v.r.Params), v.r.Options.Seed
	std := spec.Standardize
	if o := v.r.Options.Standardize; o != nil {
		std = *o
	}
	ax, ay := v.axes.X, v.axes.Y
	k, w, h := v.Want, v.w, v.h
	size := kit.PlotArea(v.c, w, h)
	return func() tea.Msg {
		defer cancel()
		pl, err := inspect.PlaneOf(d, ax, ay)
		if err != nil {
			return RegionsMsg{Run: id, Key: k, Err: err}
		}
		rm, err := inspect.Regions(ctx, d, spec, values, seed, std, pl, size)
		return RegionsMsg{Run: id, Key: k, M: rm, Err: err}
	}
}

func (v *MapView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case RegionsMsg:
		// Only the map last asked for: an older run's, or one computed for
		// a size the terminal no longer has, is dropped.
		if msg.Run != v.r.ID || msg.Key != v.Want {
			return nil
		}
		v.Want = ""
		if msg.Err != nil {
			if v.State != "ready" {
				v.State = msg.Err.Error()
			}
			return nil
		}
		kit.ShowRegions(&v.Regions, msg.M)
		v.title, v.State, v.Key = msg.M.Title, "ready", msg.Key
	case RegionsResizeMsg:
		// Refit only if the size is still the one that asked.
		if msg.run == v.r.ID && msg.Key == v.SizeKey() && v.stale() {
			return v.compute()
		}
	case tea.KeyPressMsg:
		if v.axes.Update(msg) {
			return v.compute()
		}
		var cmd tea.Cmd
		v.Regions, cmd = v.Regions.Update(msg)
		return cmd
	}
	return nil
}

func (v *MapView) View() string {
	st := v.c.Styles
	switch v.State {
	case "computing":
		return st.Muted.Render(" drawing the decision regions…")
	case "ready":
		title := " " + v.title
		if v.Key != v.SizeKey() { // being refit for a new size
			title = " redrawing for the new size… · " + v.title
		}
		if v.Regions.Confidence() {
			title += " · shade = probability"
		}
		return st.Title.Render(kit.Clip(title, v.w)) + "\n" + v.Regions.View()
	}
	return st.Muted.Render(" no map: " + v.State)
}

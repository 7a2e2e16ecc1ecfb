// Package live holds the live views: the pictures of the training screen.
//
// The training screen draws a run through live views: the training loss,
// the validation curves, and the picture a family registers for the detail
// its steps carry (engine.Step.Detail: a tree's size, a boosting round's
// vote). As with result views, each registers itself in its own file; the
// screen shows those that apply to the run in a stable order, a family's
// from the first step that brings its detail. No model name is switched on.
package live

import (
	"math"
	"sort"

	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
)

// View is one picture of the training screen, a pointer changed only
// through its methods.
type View interface {
	// Show draws the fold histories received so far: folds[cur] is the
	// fold being fitted, the others finished (or, after cross-validation,
	// the folds before the final fit); note says which fold is drawn.
	Show(folds [][]eval.Point, cur int, note string)
	SetSize(w, h int)
	View() string
	// Panes is how many panes the view stacks: the screen shares its rows
	// among the views by their panes.
	Panes() int
}

// logYer is a live view whose y axis the log key switches.
type logYer interface {
	SetLogY(on bool)
	LogY() bool
}

// Spec registers a live view: its place among the views, whether
// it applies to a run given one of its steps (nil: to every run), and how
// it is made.
type Spec struct {
	Order   int
	Applies func(r *kit.RunRecord, p eval.Point) bool
	Make    func(c *kit.Common, r *kit.RunRecord) View
}

var specs []Spec

// Register adds a view to the training screen; call it from init.
func Register(v Spec) {
	specs = append(specs, v)
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].Order < specs[j].Order })
}

// Carries is a live view's applies for the steps whose detail is a D.
func Carries[d engine.Detail](_ *kit.RunRecord, p eval.Point) bool {
	_, ok := p.Detail.(d)
	return ok
}

// detailOf gets a quantity of a step whose detail is a D; NaN on the steps
// with another detail (a tree's pruning steps after its growth), which the
// charts leave as gaps.
func detailOf[d engine.Detail](get func(d) float64) func(eval.Point) float64 {
	return func(p eval.Point) float64 {
		if d, ok := p.Detail.(d); ok {
			return get(d)
		}
		return math.NaN()
	}
}

func init() {
	Register(Spec{Order: 0, Make: func(c *kit.Common, r *kit.RunRecord) View {
		return newCurvesView([]kit.Quantity{kit.LossQuantity(r)}, r, c)
	}})
	Register(Spec{Order: 10, Make: func(c *kit.Common, r *kit.RunRecord) View {
		return newCurvesView(kit.ValidationQuantities(r), r, c)
	}})
}

// Set are the views a training screen shows of its run, in the
// registry's order. When the screen is too short for all of them at a
// readable height, the views after the first are shown a page at a time,
// and the page key cycles them (the training loss stays in a column of its
// own beside them, except in the stacked column of a wide screen, where it
// is paged with the rest).
type Set struct {
	c     *kit.Common
	run   *kit.RunRecord
	made  []View // by index in liveViewSpecs; nil until the view applies
	Views []View // the views made, in order
	LogY  bool
	lead  bool    // views[0] has its own column, beside the pages
	pages [][]int // the paged views, by index in views, page by page
	page  int     // the page shown
}

// NewSet makes the views that apply to run r before any step.
func NewSet(c *kit.Common, r *kit.RunRecord) Set {
	lv := Set{c: c, run: r, made: make([]View, len(specs))}
	lv.Observe(eval.Point{TrainLoss: math.NaN(), ValLoss: math.NaN(), ValError: math.NaN()})
	return lv
}

// Observe makes the views step p makes apply; it reports whether it made
// one (the layout then changes).
func (lv *Set) Observe(p eval.Point) bool {
	added := false
	for i, spec := range specs {
		if lv.made[i] != nil || spec.Applies != nil && !spec.Applies(lv.run, p) {
			continue
		}
		v := spec.Make(lv.c, lv.run)
		if l, ok := v.(logYer); ok {
			l.SetLogY(lv.LogY)
		}
		lv.made[i], added = v, true
	}
	if added {
		lv.Views = lv.Views[:0]
		for _, v := range lv.made {
			if v != nil {
				lv.Views = append(lv.Views, v)
			}
		}
	}
	return added
}

// Show draws the histories on every view.
func (lv *Set) Show(folds [][]eval.Point, cur int, note string) {
	for _, v := range lv.Views {
		v.Show(folds, cur, note)
	}
}

// SetLogY switches every view that has a y axis to log10 or linear.
func (lv *Set) SetLogY(on bool) {
	lv.LogY = on
	for _, v := range lv.Views {
		if l, ok := v.(logYer); ok {
			l.SetLogY(on)
		}
	}
}

// minPaneRows is the fewest rows a pane is stacked in: a chart's frame,
// legend and x axis take five of them, which leaves three for the plot.
// Views that would get less go on further pages.
const minPaneRows = 8

// SetSize lays the views out in w x h: the first (the training loss) at
// full height on the left and the others stacked on the right, or, in a
// column, all of them stacked. Stacked views share the rows by their panes,
// as many panes a page as fit minPaneRows each (a view with more panes than
// that has a page of its own); every view is sized, shown or not.
func (lv *Set) SetSize(w, h int, column bool) {
	views, first := lv.Views, 0
	lv.lead = !column && len(views) > 1
	if lv.lead {
		views[0].SetSize(w/2, h)
		first, w = 1, w-w/2
	}
	lv.pages = pagesOf(views[first:], first, max(h/minPaneRows, 1))
	lv.page = min(lv.page, max(len(lv.pages)-1, 0))
	for _, page := range lv.pages {
		panes := 0
		for _, i := range page {
			panes += views[i].Panes()
		}
		at := 0
		for _, i := range page {
			rows := 0
			for range views[i].Panes() {
				rows += paneRows(at, panes, h)
				at++
			}
			views[i].SetSize(w, rows)
		}
	}
}

// pagesOf groups views, in order, into pages of at most most panes; their
// indices start at first.
func pagesOf(views []View, first, most int) [][]int {
	var pages [][]int
	panes := 0
	for i, v := range views {
		if len(pages) == 0 || panes+v.Panes() > most {
			pages, panes = append(pages, nil), 0
		}
		pages[len(pages)-1] = append(pages[len(pages)-1], first+i)
		panes += v.Panes()
	}
	return pages
}

// NextPage shows the next page of views, after the last the first.
func (lv *Set) NextPage() {
	if len(lv.pages) > 1 {
		lv.page = (lv.page + 1) % len(lv.pages)
	}
}

// PageOf is the page shown and the number of pages, counted from 1.
func (lv *Set) PageOf() (page, pages int) { return lv.page + 1, len(lv.pages) }

// paneRows is the height of pane i of n stacked in h rows: an equal share,
// the last panes taking the rows left over (as stack does).
func paneRows(i, n, h int) int {
	if i >= n-h%n {
		return h/n + 1
	}
	return h / n
}

// View draws the views as setSize laid them out: the first beside the page
// shown, or the page alone.
func (lv *Set) View() string {
	var stacked []string
	if lv.page < len(lv.pages) {
		for _, i := range lv.pages[lv.page] {
			stacked = append(stacked, lv.Views[i].View())
		}
	}
	page := lipgloss.JoinVertical(lipgloss.Left, stacked...)
	if !lv.lead {
		return page
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, lv.Views[0].View(), page)
}

// curvesView is a live view of quantities of the steps, one line chart
// each, stacked: the current fold bright, the others faint.
type curvesView struct{ fc kit.FoldCharts }

func newCurvesView(qs []kit.Quantity, r *kit.RunRecord, c *kit.Common) *curvesView {
	return &curvesView{kit.ChartsOf(qs, r, c.Styles)}
}

func (v *curvesView) Show(folds [][]eval.Point, cur int, note string) {
	v.fc.SetNote(note)
	v.fc.Draw(folds, cur)
}

func (v *curvesView) SetSize(w, h int) { v.fc.SetSize(w, h, true) }
func (v *curvesView) View() string     { return v.fc.View(true) }
func (v *curvesView) Panes() int       { return len(v.fc.Charts) }
func (v *curvesView) SetLogY(on bool)  { v.fc.SetLogY(on) }
func (v *curvesView) LogY() bool       { return v.fc.LogY() }

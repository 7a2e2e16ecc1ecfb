// The Matrix tab: every pair of the chosen numeric features at once.

package data

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

// matrixRows bounds the rows the matrix draws: a cell has a few dozen
// characters, and an even sample of this many shows every class in its
// proportion while a move of the cursor stays instant on any data.
const matrixRows = 2000

// dataMatrix is the scatter-plot matrix of the numeric features (all of
// them, or those chosen with c): each pair a small scatter by class (by
// the target's range for regression, one colour for clustering), each
// feature's histogram on the diagonal. Nominal features are left out, and
// it says so. The rows drawn are an even sample of large data, said on
// screen. The widget keeps its cells; the data are given to it again only
// when the dataset or the choice of features changes.
type dataMatrix struct {
	c       *kit.Common
	d       *datasets.Dataset
	numeric []int // d's numeric features
	chosen  []int // the features shown, in d's order
	stale   bool  // the widget must be given the data again
	m       widgets.ScatterMatrix
	// The chooser of features: a check per numeric feature.
	choosing bool
	checks   []bool
	pick     int
	keys     matrixKeys
	w, h     int
}

type matrixKeys struct {
	open, choose                 key.Binding
	up, down, toggle, all, apply key.Binding
}

func newDataMatrix(c *kit.Common) *dataMatrix {
	return &dataMatrix{c: c, m: widgets.NewScatterMatrix(c.Styles), keys: matrixKeys{
		open:   kit.Bind("enter", "full scatter", "enter"),
		choose: kit.Bind("c", "choose features", "c"),
		up:     kit.Bind("↑/k", "up", "up", "k"),
		down:   kit.Bind("↓/j", "down", "down", "j"),
		toggle: kit.Bind("space", "show/hide feature", "space"),
		all:    kit.Bind("a", "all/none", "a"),
		apply:  kit.Bind("enter", "show the features checked", "enter"),
	}}
}

// set shows dataset d (nil: nothing), keeping the features chosen that it
// still has as numeric ones.
func (x *dataMatrix) set(d *datasets.Dataset) {
	var keep []string
	if x.d != nil && len(x.chosen) < len(x.numeric) {
		for _, j := range x.chosen {
			keep = append(keep, x.d.Features[j].Name)
		}
	}
	x.d, x.numeric, x.chosen, x.choosing, x.stale = d, kit.NumericFeatures(d), nil, false, true
	for _, j := range x.numeric {
		if slices.Contains(keep, d.Features[j].Name) {
			x.chosen = append(x.chosen, j)
		}
	}
	if len(x.chosen) < 2 {
		x.chosen = x.numeric
	}
	x.m.SetCursor(0, 0)
}

func (x *dataMatrix) SetSize(w, h int) { x.w, x.h = w, h }

// Keys are the tab's keys but the cursor's (navKeys).
func (x *dataMatrix) Keys() []key.Binding {
	if x.choosing {
		return []key.Binding{x.keys.apply, x.keys.toggle, x.keys.all}
	}
	if len(x.numeric) < 2 {
		return nil
	}
	return []key.Binding{x.keys.open, x.keys.choose}
}

// navKeys move the cursor: only the help lists them.
func (x *dataMatrix) navKeys() []key.Binding {
	if x.choosing {
		return []key.Binding{x.keys.up, x.keys.down}
	}
	if len(x.numeric) < 2 {
		return nil
	}
	return x.m.KeyMap.ShortHelp()
}

// MatrixChoosing says the Matrix tab's chooser of features is open.
func (s *Screen) MatrixChoosing() bool { return s.matrix.choosing }

// Back closes the chooser without changing the features.
func (x *dataMatrix) Back() bool {
	if x.choosing {
		x.choosing = false
		return true
	}
	return false
}

// Pair is what enter on the cursor's cell opens: the features across and
// up (the same feature twice on the diagonal); ok is false when there is
// no matrix.
func (x *dataMatrix) Pair() (across, up int, ok bool) {
	if len(x.chosen) < 2 {
		return 0, 0, false
	}
	r, c := x.m.Cursor()
	return x.chosen[c], x.chosen[r], true
}

// Update handles a key of the tab; handled is false for keys it leaves to
// the screen (enter on a cell, tab).
func (x *dataMatrix) Update(msg tea.KeyPressMsg) (handled bool) {
	if x.choosing {
		switch {
		case key.Matches(msg, x.keys.up):
			x.pick = max(x.pick-1, 0)
		case key.Matches(msg, x.keys.down):
			x.pick = min(x.pick+1, len(x.checks)-1)
		case key.Matches(msg, x.keys.toggle):
			x.checks[x.pick] = !x.checks[x.pick]
		case key.Matches(msg, x.keys.all):
			all := !slices.Contains(x.checks, false)
			for i := range x.checks {
				x.checks[i] = !all
			}
		case key.Matches(msg, x.keys.apply):
			var chosen []int
			for i, on := range x.checks {
				if on {
					chosen = append(chosen, x.numeric[i])
				}
			}
			if len(chosen) >= 2 {
				x.chosen, x.choosing, x.stale = chosen, false, true
				x.m.SetCursor(0, 0)
			}
		default:
			return false
		}
		return true
	}
	if len(x.numeric) < 2 {
		return false
	}
	if x.stale { // the cursor moves over the cells of the features chosen
		x.refresh()
	}
	switch {
	case key.Matches(msg, x.keys.choose):
		x.choosing, x.pick = true, 0
		x.checks = make([]bool, len(x.numeric))
		for i, j := range x.numeric {
			x.checks[i] = slices.Contains(x.chosen, j)
		}
		return true
	case key.Matches(msg, x.m.KeyMap.Up, x.m.KeyMap.Down, x.m.KeyMap.Left, x.m.KeyMap.Right):
		x.m, _ = x.m.Update(msg)
		return true
	}
	return false
}

// refresh gives the widget the chosen features of an even sample of the
// rows, coloured as the plot colours them.
func (x *dataMatrix) refresh() {
	x.stale = false
	d := x.d
	sub := d
	idx := sampleRows(d.Rows(), matrixRows)
	if idx != nil {
		sub = d.Subset(idx)
	}
	names := make([]string, len(x.chosen))
	cols := make([][]float64, len(x.chosen))
	for k, j := range x.chosen {
		names[k], cols[k] = d.Features[j].Name, mat.Col(nil, j, sub.X)
	}
	classes, classNames := colourBy(sub)
	x.m.SetData(names, cols, classes, classNames)
	var notes []string
	if idx != nil {
		notes = append(notes, fmt.Sprintf("%d of %d rows drawn", len(idx), d.Rows()))
	}
	if nominal := len(d.Features) - len(x.numeric); nominal > 0 {
		notes = append(notes, numfmt.Count(nominal, "nominal feature")+" left out")
	}
	x.m.SetNotes(notes...)
}

// title names the cursor's cell and what the window shows of the matrix.
func (x *dataMatrix) title() string {
	d := x.d
	r, c := x.m.Cursor()
	across, up := d.Features[x.chosen[c]].Name, d.Features[x.chosen[r]].Name
	t := up + " against " + across
	if r == c {
		t = across + " · histogram"
	}
	switch {
	case d.Task == datasets.Classification:
		t += " by class"
	case d.Task == datasets.Regression:
		t += " by " + d.Target.Name
	}
	r0, rows, c0, cols, n := x.m.Window()
	if rows > 0 && (rows < n || cols < n) {
		t += fmt.Sprintf(" · rows %d-%d, columns %d-%d of %d", r0+1, r0+rows, c0+1, c0+cols, n)
	}
	return t
}

func (x *dataMatrix) View() string {
	st := x.c.Styles
	d := x.d
	switch {
	case d == nil:
		return st.Muted.Render("no dataset")
	case len(x.numeric) < 2:
		why := "no numeric feature"
		if len(x.numeric) == 1 {
			why = "one numeric feature (" + d.Features[x.numeric[0]].Name + ")"
		}
		return st.Muted.Render(kit.Wrap("A scatter-plot matrix needs two numeric features: these data have "+why+
			". See the Plot and Histograms tabs.", max(x.w, 20)))
	case x.choosing:
		return x.chooserView()
	}
	if x.stale {
		x.refresh()
	}
	x.m.SetSize(x.w, max(x.h-1, 1))
	body := x.m.View() // first: it lays the window out for the title
	return st.Muted.Render(kit.Clip(x.title(), x.w)) + "\n" + body
}

// chooserView lists the numeric features with their checks.
func (x *dataMatrix) chooserView() string {
	st := x.c.Styles
	n := 0
	for _, on := range x.checks {
		if on {
			n++
		}
	}
	head := fmt.Sprintf("Features in the matrix: %d of %d checked", n, len(x.checks))
	if n < 2 {
		head += " (check at least two)"
	}
	lines := []string{st.Header.Render(kit.Clip(head, x.w))}
	from, to := visibleRange(len(x.checks), x.pick, max(x.h-3, 1))
	for i := from; i < to; i++ {
		box := "[ ] "
		if x.checks[i] {
			box = "[x] "
		}
		text := kit.Clip(box+x.d.Features[x.numeric[i]].Name, max(x.w-2, 1))
		if i == x.pick {
			lines = append(lines, st.SelectedRow.Render("▸ "+text))
		} else {
			lines = append(lines, "  "+st.Text.Render(text))
		}
	}
	if nominal := len(x.d.Features) - len(x.numeric); nominal > 0 {
		lines = append(lines, st.Muted.Render(kit.Clip(numfmt.Count(nominal, "nominal feature")+" cannot be drawn here", x.w)))
	}
	lines = append(lines, st.Muted.Render(kit.Clip("space checks · a all/none · enter shows them · esc keeps the matrix", x.w)))
	return strings.Join(lines, "\n")
}

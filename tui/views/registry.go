// Package views holds the result views: the tabs of the results screen.
//
// The results screen shows a run through views: one tab each (summary,
// confusion matrix, ROC, history, coefficients, tree, dendrogram...). Every
// view registers itself, in its own file, with what it needs of a run; the
// screen shows the views whose needs the run meets, in a stable order. No
// tab list or switch on a model's name exists anywhere: a new family adds
// its view files and nothing else changes.
package views

import (
	"context"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
)

// View is one tab of the results screen. Like the screens, a view is
// a pointer mutated only in Update.
type View interface {
	// Update gets the keys while the view's tab is active, and every other
	// message (background work it started, such as the map's regions)
	// whichever tab is active.
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(w, h int)
	// Keys are the view's own keys, for the footer and the help.
	Keys() []key.Binding
}

// Optional parts of a view.
type (
	// Initer starts background work when the view is made.
	Initer interface{ Init() tea.Cmd }
	// Resizer reacts to a new terminal size after SetSize (the map
	// recomputes its grid once the size settles).
	Resizer interface{ Resized() tea.Cmd }
	// Closer stops background work when the view is replaced.
	Closer interface{ Close() }
	// Typer is a view whose fields take the keys while it is active
	// (letters, digits, ←/→); tab and shift+tab still change the tab, esc
	// still goes back.
	Typer interface{ Typing() bool }
)

// Env is what a view may use besides its run.
type Env struct {
	C   *kit.Common
	Ctx context.Context // done when the lab quits
}

// Spec registers a view: its tab name, its place among the tabs (a
// capability's view takes engine.Capability.Order, which the report's
// section of it takes too), what it needs of a run, and how it is made.
type Spec struct {
	Name  string
	Order int
	Needs func(r *kit.RunRecord) bool
	Make  func(env Env, r *kit.RunRecord) View
}

var specs []Spec

// Register adds a view to the results screen; call it from init.
func Register(v Spec) {
	specs = append(specs, v)
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].Order < specs[j].Order })
}

// For lists the views run r has, in order.
func For(r *kit.RunRecord) []Spec {
	var out []Spec
	for _, v := range specs {
		if v.Needs == nil || v.Needs(r) {
			out = append(out, v)
		}
	}
	return out
}

// HasLearned is a view's needs: the run's model offers the capability.
func HasLearned(name string) func(*kit.RunRecord) bool {
	return func(r *kit.RunRecord) bool { return r.Result != nil && r.Result.Learned[name] != nil }
}

// withNote puts a muted line above a view; none when note is empty.
func withNote(st *themes.Styles, note, body string) string {
	if note == "" {
		return body
	}
	return st.Muted.Render(" "+note) + "\n" + body
}

// noteLines is the height withNote adds.
func noteLines(note string) int {
	if note == "" {
		return 0
	}
	return 1
}

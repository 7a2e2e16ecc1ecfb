package tui

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/tealab/tealab/tui/kit"
)

// The footer and the full help come from one source (they
// disagreed): at every place of the lab, every key the footer shows is in
// the help with the same words, and every key the help lists does
// something there.
func TestFooterAndHelpAgree(t *testing.T) {
	t.Chdir(browsableDir(t)) // the subtests run before it is undone
	for _, p := range allPlaces(t) {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			hs := p.open(t)
			footerKeys, helpKeys := shownKeys(hs.a)
			closeHarness(hs)
			for _, k := range footerKeys {
				if !slices.ContainsFunc(helpKeys, func(h key.Binding) bool { return h.Help() == k.Help() }) {
					t.Errorf("the footer shows %q %q, the help does not", k.Help().Key, k.Help().Desc)
				}
			}
			useless := map[string]bool{} // keys that leave p: no use pressing them first
			for _, b := range helpKeys {
				for _, k := range b.Keys() {
					if !reacts(t, p, helpKeys, k, useless) {
						t.Errorf("the help lists %q (%s), which does nothing", k, b.Help().Desc)
					}
				}
			}
		})
	}
}

// shownKeys are the bindings the footer and the full help show at the
// app's place: the screen's, then the global ones as they work there.
func shownKeys(a *app) (footer, help []key.Binding) {
	s := a.screens[a.cur]
	enabled := func(ks []key.Binding) []key.Binding {
		return slices.DeleteFunc(slices.Clone(ks), func(k key.Binding) bool { return !k.Enabled() })
	}
	footer = enabled(append(s.ShortHelp(), a.globals().Now(s.ShortHelp(), s.Typing()).ShortHelp()...))
	full := kit.HelpKeys{Screen: s, Global: a.globals().Now(slices.Concat(s.FullHelp()...), s.Typing())}
	help = enabled(slices.Concat(full.FullHelp()...))
	return footer, help
}

// reacts says whether key k changes what place p shows (or quits), pressed
// as it opens or, when that shows nothing new (up on the first row), after
// another of the help's keys. Keys found to leave p (or quit, or open a
// field) go into useless, not to be pressed first again.
func reacts(t *testing.T, p place, help []key.Binding, k string, useless map[string]bool) bool {
	changes := func(first string) bool {
		hs := p.open(t)
		defer closeHarness(hs)
		if first != "" {
			typing := hs.a.screens[hs.a.cur].Typing()
			pressKey(hs, first)
			// Not a key that leaves, quits or opens a field (where k
			// would be typed).
			if !p.here(hs.a) || hs.a.ctx.Err() != nil || !typing && hs.a.screens[hs.a.cur].Typing() {
				useless[first] = true
				return false
			}
		}
		before, state, cur := hs.a.View(), screenState(hs.a), hs.a.cur
		pressKey(hs, k)
		return hs.a.ctx.Err() != nil || hs.a.cur != cur || hs.a.View() != before || screenState(hs.a) != state
	}
	if changes("") {
		return true
	}
	for _, b := range help {
		for _, first := range b.Keys() {
			if first != k && !useless[first] && changes(first) {
				return true
			}
		}
	}
	return false
}

// screenState prints the screen's fields (not what its pointers point
// to): a moved cursor counts as a change though the test's screens,
// without colour, do not show the highlight.
func screenState(a *app) string {
	state := fmt.Sprintf("%+v", reflect.Indirect(reflect.ValueOf(a.screens[a.cur])))
	if v := a.results.Active(); a.cur == screenResults && v != nil {
		state += fmt.Sprintf("%+v", reflect.Indirect(reflect.ValueOf(v)))
	}
	return state
}

// pressKey sends k; on a run in flight, without waiting for the run.
func pressKey(hs *harness, k string) {
	if hs.a.cur == screenTrain && hs.a.job != nil {
		hs.a.Update(namedKey(k))
		return
	}
	hs.send(namedKey(k))
}

package widgets

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/tealab/tealab/themes"
)

// TabsKeyMap are the keys of a tab bar.
type TabsKeyMap struct {
	Next, Prev key.Binding
}

// DefaultTabsKeyMap returns the default tab keys: tab/right and
// shift+tab/left, wrapping around.
func DefaultTabsKeyMap() TabsKeyMap {
	return TabsKeyMap{
		Next: key.NewBinding(key.WithKeys("tab", "right"), key.WithHelp("tab/→", "next tab")),
		Prev: key.NewBinding(key.WithKeys("shift+tab", "left"), key.WithHelp("shift+tab/←", "previous tab")),
	}
}

// ShortHelp implements help.KeyMap.
func (k TabsKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Prev} }

// FullHelp implements help.KeyMap.
func (k TabsKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Tabs is a one-line tab bar. The active tab uses the TabActive style (and
// brackets when colour is off); when the names do not fit, the bar shows a
// window around the active tab with ‹ › at the cut ends.
type Tabs struct {
	KeyMap TabsKeyMap

	st     *themes.Styles
	names  []string
	active int
	w, h   int
}

// NewTabs returns a tab bar with the first tab active.
func NewTabs(names []string, st *themes.Styles) Tabs {
	t := Tabs{KeyMap: DefaultTabsKeyMap(), st: defaultStyles(st)}
	t.SetNames(names)
	return t
}

// SetNames replaces the tabs, keeping the active index when it still
// exists.
func (t *Tabs) SetNames(names []string) {
	t.names = oneLines(names)
	t.SetActive(t.active)
}

// Names returns the tab names.
func (t Tabs) Names() []string { return append([]string(nil), t.names...) }

// Active is the index of the active tab (0 when there are none).
func (t Tabs) Active() int { return t.active }

// ActiveName is the active tab's name ("" when there are none).
func (t Tabs) ActiveName() string {
	if t.active < len(t.names) {
		return t.names[t.active]
	}
	return ""
}

// SetActive activates tab i, clamped to the tabs that exist.
func (t *Tabs) SetActive(i int) { t.active = max(min(i, len(t.names)-1), 0) }

// SetSize sets the width (and the height, normally 1) of the bar.
func (t *Tabs) SetSize(w, h int) { t.w, t.h = w, h }

// Update handles the tab keys.
func (t Tabs) Update(msg tea.Msg) (Tabs, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || len(t.names) == 0 {
		return t, nil
	}
	switch {
	case key.Matches(k, t.KeyMap.Next):
		t.active = (t.active + 1) % len(t.names)
	case key.Matches(k, t.KeyMap.Prev):
		t.active = (t.active + len(t.names) - 1) % len(t.names)
	}
	return t, nil
}

// View renders the bar in exactly the size set.
func (t Tabs) View() string {
	if t.w <= 0 || t.h <= 0 {
		return ""
	}
	t.st = defaultStyles(t.st) // a zero-value widget still renders
	if len(t.names) == 0 {
		return fitBlock(nil, t.w, t.h)
	}
	st := t.st
	label := func(i int) string {
		if i == t.active && st.Colorless {
			return "[" + t.names[i] + "]"
		}
		return " " + t.names[i] + " "
	}
	width := func(i int) int { return lipgloss.Width(label(i)) }
	// Grow a window around the active tab while it fits (separators are
	// one cell, indicators one cell each side).
	a, b := t.active, t.active
	used := width(t.active)
	for {
		grown := false
		if b+1 < len(t.names) && used+1+width(b+1)+2 <= t.w {
			b++
			used += 1 + width(b)
			grown = true
		}
		if a > 0 && used+1+width(a-1)+2 <= t.w {
			a--
			used += 1 + width(a)
			grown = true
		}
		if !grown {
			break
		}
	}
	var out strings.Builder
	if a > 0 {
		out.WriteString(st.Muted.Render("‹"))
	}
	sep := st.Border.Render("│")
	for i := a; i <= b; i++ {
		if i > a {
			out.WriteString(sep)
		}
		if i == t.active {
			out.WriteString(st.TabActive.Render(label(i)))
		} else {
			out.WriteString(st.TabInactive.Render(label(i)))
		}
	}
	if b < len(t.names)-1 {
		out.WriteString(st.Muted.Render("›"))
	}
	return fitBlock([]string{out.String()}, t.w, t.h)
}

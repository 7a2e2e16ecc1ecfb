package kit

import (
	"slices"

	"charm.land/bubbles/v2/key"
)

// GlobalKeys are the keys the root handles on every screen. Letter keys give
// way to a focused text field (the screen says so with Typing).
type GlobalKeys struct {
	Quit  key.Binding
	Help  key.Binding
	Theme key.Binding
	Runs  key.Binding
	Back  key.Binding
}

// DefaultGlobalKeys are the keys every screen shares.
func DefaultGlobalKeys() GlobalKeys {
	return GlobalKeys{
		Quit:  key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:  key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Theme: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "theme")),
		Runs:  key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "runs")),
		Back:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// ShortHelp implements help.KeyMap.
func (k GlobalKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Back, k.Runs, k.Theme, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k GlobalKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Back, k.Runs}, {k.Theme, k.Help, k.Quit}}
}

// HelpKeys joins a screen's keys with the global ones for the status bar and
// the full help (the soft-serve way: the active screen's bindings first).
type HelpKeys struct {
	Screen interface {
		ShortHelp() []key.Binding
		FullHelp() [][]key.Binding
	}
	Global GlobalKeys
}

func (h HelpKeys) ShortHelp() []key.Binding {
	return append(h.Screen.ShortHelp(), h.Global.ShortHelp()...)
}

func (h HelpKeys) FullHelp() [][]key.Binding {
	return append(h.Screen.FullHelp(), h.Global.FullHelp()...)
}

// Bind is a key binding of keys, shown in the help as help (the keys as
// written) and desc.
func Bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// HelpOf is a screen's full help made from its footer's keys and those
// only the help lists (moving about): one source, so that every key the
// footer shows is in the help. Keys are listed once.
func HelpOf(short []key.Binding, more ...[]key.Binding) [][]key.Binding {
	groups := [][]key.Binding{nil}
	seen := map[string]bool{}
	add := func(g int, k key.Binding) {
		if h := k.Help().Key; !seen[h] && k.Enabled() {
			seen[h] = true
			groups[g] = append(groups[g], k)
		}
	}
	for _, m := range more {
		groups = append(groups, nil)
		for _, k := range m {
			add(len(groups)-1, k)
		}
	}
	for _, k := range short {
		add(0, k)
	}
	return slices.DeleteFunc(groups, func(g []key.Binding) bool { return len(g) == 0 })
}

// Package termtest is what tests need to stand in for a terminal: the key
// messages of the keys a person presses, by the names bubbletea gives them
// ("enter", "ctrl+c", "alt+d", "space", "q"), and a frame as a terminal
// of a given colour profile is sent it.
package termtest

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// named are the keys with names, by the name bubbletea gives them.
var named = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
	"delete": tea.KeyDelete, "insert": tea.KeyInsert, "space": tea.KeySpace,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f6": tea.KeyF6,
	"f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10, "f11": tea.KeyF11, "f12": tea.KeyF12,
}

var modifiers = []struct {
	prefix string
	mod    tea.KeyMod
}{{"ctrl+", tea.ModCtrl}, {"alt+", tea.ModAlt}, {"shift+", tea.ModShift}}

// Press is the key press named name: its modifiers, then a named key or
// one character. It panics on a name that is neither (a test's mistake).
// Its String() is name itself.
func Press(name string) tea.KeyPressMsg {
	var mod tea.KeyMod
	rest := name
	for again := true; again; {
		again = false
		for _, m := range modifiers {
			if r, ok := strings.CutPrefix(rest, m.prefix); ok && r != "" {
				mod, rest, again = mod|m.mod, r, true
			}
		}
	}
	if code, ok := named[rest]; ok {
		k := tea.KeyPressMsg{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return k
	}
	r, size := utf8.DecodeRuneInString(rest)
	if size == 0 || size != len(rest) {
		panic(fmt.Sprintf("termtest: %q is not a key", name))
	}
	k := tea.KeyPressMsg{Code: r, Mod: mod}
	if mod&^tea.ModShift == 0 {
		k.Text = rest
	}
	return k
}

// Type is the key presses of text typed one character at a time.
func Type(text string) []tea.KeyPressMsg {
	var keys []tea.KeyPressMsg
	for _, r := range text {
		if r == ' ' {
			keys = append(keys, Press("space"))
			continue
		}
		keys = append(keys, Press(string(r)))
	}
	return keys
}

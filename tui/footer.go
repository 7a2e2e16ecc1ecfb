package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// footer is the status line: the keys that work now, and only those. The
// screen's own keys come first (most important first); esc, runs and theme
// follow; "? help · q quit" always ends the line. When the line is too
// long, keys are dropped from the least important up (theme, runs, then
// the screen's from its last, then esc), never help and quit. While a text
// field has the keyboard, letters go to the field, so the footer offers
// only the screen's keys, esc and ctrl+c.
func footer(hs help.Styles, screen []key.Binding, g globalKeys, typing bool, w int) string {
	var opt []key.Binding // optional, in display order
	var tail []key.Binding
	for _, k := range screen {
		if k.Enabled() {
			opt = append(opt, k)
		}
	}
	nScreen := len(opt)
	if typing {
		tail = []key.Binding{g.Back, bind("ctrl+c", "quit", "ctrl+c")}
	} else {
		opt = append(opt, g.Back, g.Runs, g.Theme)
		tail = []key.Binding{g.Help, g.Quit}
	}
	// Drop order: theme, runs (not typing), the screen's keys from the
	// last, then esc.
	var drop []int
	if !typing {
		drop = append(drop, nScreen+2, nScreen+1)
	}
	for i := nScreen - 1; i >= 0; i-- {
		drop = append(drop, i)
	}
	if !typing {
		drop = append(drop, nScreen)
	}
	keep := make([]bool, len(opt))
	for i := range keep {
		keep[i] = true
	}
	render := func() string {
		var ks []key.Binding
		for i, k := range opt {
			if keep[i] {
				ks = append(ks, k)
			}
		}
		return " " + footerLine(hs, append(ks, tail...))
	}
	line := render()
	for _, i := range drop {
		if ansi.StringWidth(line) <= w {
			break
		}
		keep[i] = false
		line = render()
	}
	return line
}

// footerLine renders bindings as "key desc · key desc".
func footerLine(hs help.Styles, ks []key.Binding) string {
	parts := make([]string, 0, len(ks))
	for _, k := range ks {
		h := k.Help()
		parts = append(parts, hs.ShortKey.Render(h.Key)+" "+hs.ShortDesc.Render(h.Desc))
	}
	return strings.Join(parts, hs.ShortSeparator.Render(" · "))
}

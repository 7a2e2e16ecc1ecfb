package kit

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// Footer is the status line: the keys that work now, and only those. The
// screen's own keys come first (most important first); esc, runs and theme
// follow; "? help · q quit" always ends the line. When the line is too
// long, keys are dropped from the least important up (theme, runs, then
// the screen's from its last, then esc), never help and quit. While a text
// field has the keyboard, letters go to the field, so the footer offers
// only the screen's keys, esc and ctrl+c.
func Footer(hs help.Styles, screen []key.Binding, g GlobalKeys, typing bool, w int) string {
	var opt []key.Binding // optional, in display order
	var tail []key.Binding
	for _, k := range screen {
		if k.Enabled() {
			opt = append(opt, k)
		}
	}
	nScreen := len(opt)
	g = g.Now(screen, typing)
	if typing {
		tail = []key.Binding{g.Back, g.Quit}
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
			if keep[i] && k.Enabled() {
				ks = append(ks, k)
			}
		}
		for _, k := range tail {
			if k.Enabled() {
				ks = append(ks, k)
			}
		}
		return " " + footerLine(hs, ks)
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

// Now are the global keys as they work with the screen's keys: esc is not
// "back" when the screen gives it a meaning of its own (keep training,
// clear a filter); while a text field has the keyboard, letters go to it,
// and only esc and ctrl+c are global.
func (g GlobalKeys) Now(screen []key.Binding, typing bool) GlobalKeys {
	for _, k := range screen {
		if k.Enabled() && slices.Contains(k.Keys(), "esc") {
			g.Back.SetEnabled(false)
		}
	}
	if typing {
		g.Quit = Bind("ctrl+c", "quit", "ctrl+c")
		for _, k := range []*key.Binding{&g.Help, &g.Theme, &g.Runs} {
			k.SetEnabled(false)
		}
	}
	return g
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

// FullHelpBlock lays out groups of bindings as columns ("key  desc" lines),
// as many side by side as fit in w cells and the rest in further rows of
// columns, so that no key is cut at any width.
func FullHelpBlock(hs help.Styles, groups [][]key.Binding, w int) string {
	var cols [][]string
	for _, g := range groups {
		keyW := 0
		for _, k := range g {
			if k.Enabled() {
				keyW = max(keyW, ansi.StringWidth(k.Help().Key))
			}
		}
		var lines []string
		for _, k := range g {
			if !k.Enabled() {
				continue
			}
			h := k.Help()
			lines = append(lines, hs.FullKey.Render(h.Key+strings.Repeat(" ", keyW-ansi.StringWidth(h.Key)))+" "+hs.FullDesc.Render(h.Desc))
		}
		if len(lines) > 0 {
			cols = append(cols, lines)
		}
	}
	const gap = 4
	var rows []string
	for len(cols) > 0 {
		n, used := 0, 0
		for n < len(cols) {
			cw := 0
			for _, l := range cols[n] {
				cw = max(cw, ansi.StringWidth(l))
			}
			if n > 0 && used+gap+cw > w {
				break
			}
			used += cw
			if n > 0 {
				used += gap
			}
			n++
		}
		height := 0
		for _, c := range cols[:n] {
			height = max(height, len(c))
		}
		for i := range height {
			var b strings.Builder
			for j, c := range cols[:n] {
				cw := 0
				for _, l := range c {
					cw = max(cw, ansi.StringWidth(l))
				}
				cell := ""
				if i < len(c) {
					cell = c[i]
				}
				if j < n-1 {
					cell += strings.Repeat(" ", cw-ansi.StringWidth(cell)+gap)
				}
				b.WriteString(cell)
			}
			rows = append(rows, b.String())
		}
		cols = cols[n:]
		if len(cols) > 0 {
			rows = append(rows, "")
		}
	}
	return strings.Join(rows, "\n")
}

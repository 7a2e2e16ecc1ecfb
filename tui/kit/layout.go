package kit

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tealab/tealab/themes"
)

// OverlayBottom replaces the last lines of body with block (centred).
func OverlayBottom(body, block string, w int) string {
	lines := strings.Split(body, "\n")
	bl := strings.Split(block, "\n")
	if len(bl) > len(lines) {
		bl = bl[len(bl)-len(lines):]
	}
	start := len(lines) - len(bl)
	for i, l := range bl {
		lines[start+i] = FitWidth(lipgloss.PlaceHorizontal(w, lipgloss.Center, l), w)
	}
	return strings.Join(lines, "\n")
}

// AskPanel is a question with its two answers, framed as a panel at most
// w wide.
func AskPanel(st *themes.Styles, w int, title, q, yes, no string) string {
	w = min(w, ansi.StringWidth(q)+6)
	lines := strings.Split(Wrap(q, w-4), "\n")
	body := st.Warn.Render(strings.Join(lines, "\n")) + "\n" + st.Key.Render(yes) + st.Muted.Render("   ·   ") + st.Key.Render(no)
	return Panel(st, title, body, w, len(lines)+3, true)
}

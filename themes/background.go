package themes

import (
	"github.com/charmbracelet/lipgloss"

	"background.tealab"
)

// SettleBackground tells r whether it draws on a dark background, as
// start-up settled it for this terminal (package background asked it,
// briefly, before bubbletea could), so that no adaptive colour asks the
// terminal later with termenv's five-second wait.
func SettleBackground(r *lipgloss.Renderer) { r.SetHasDarkBackground(background.Dark()) }

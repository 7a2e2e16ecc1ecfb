module background.tealab

go 1.26.8

require (
	github.com/charmbracelet/lipgloss v1.1.0
	github.com/charmbracelet/x/term v0.2.2
	github.com/muesli/termenv v0.16.0
	golang.org/x/sys v0.38.0
)

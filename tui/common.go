package tui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/themes"
)

// common is what every screen shares (soft-serve's Common): the size a screen
// may draw in, the styles of the current theme, and the renderer. Screens hold
// a pointer to the one common; only the root's Update writes it.
type common struct {
	width, height int // the screen body: the terminal minus header and status bar
	styles        *themes.Styles
	theme         int // index into themes.All()
	renderer      *lipgloss.Renderer
	logf          func(string, ...any)
	files         *Files    // confinement (session.go); nil: none
	slot          TrainSlot // nil: train at once
	memory        *engine.Accountant
	writes        sync.WaitGroup // files being written (writing)
}

func newCommon(theme string, r *lipgloss.Renderer) (*common, error) {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	c := &common{renderer: r}
	all := themes.All()
	var t themes.Theme
	if theme == "" {
		t = themes.ForRenderer(r)
	} else {
		var ok bool
		if t, ok = themes.ByName(theme); !ok {
			return nil, fmt.Errorf("unknown theme %q (valid: %s)", theme, strings.Join(themes.Names(), ", "))
		}
	}
	for i, a := range all {
		if a.Name == t.Name {
			c.theme = i
		}
	}
	c.styles = themes.NewStyles(t, r)
	return c, nil
}

// writing counts cmd among the files being written, which the end of the
// lab waits for (waitWrites), so that closing a session loses no save.
func (c *common) writing(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	c.writes.Add(1)
	var once sync.Once
	return func() tea.Msg {
		defer once.Do(c.writes.Done)
		return cmd()
	}
}

// waitWrites waits up to d for the files being written: a command the
// program never ran (it was killed first) is not waited for longer.
func (c *common) waitWrites(d time.Duration) {
	done := make(chan struct{})
	go func() {
		c.writes.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// cycleTheme switches to the next built-in theme. The styles are replaced in
// place, so that every widget holding the pointer draws with the new theme.
func (c *common) cycleTheme() {
	all := themes.All()
	c.theme = (c.theme + 1) % len(all)
	*c.styles = *themes.NewStyles(all[c.theme], c.renderer)
}

func (c *common) themeName() string { return c.styles.Theme.Name }

// newInput is a text field with a steady cursor: a blinking one would wake
// the program twice a second for nothing.
func newInput() textField {
	in := textinput.New()
	in.Prompt = ""
	in.Cursor.SetMode(cursor.CursorStatic)
	return textField{in}
}

// fit makes every line of s exactly w cells wide and s exactly h lines tall.
func fit(s string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	blank := strings.Repeat(" ", w)
	var b strings.Builder
	for i := range h {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i >= len(lines) {
			b.WriteString(blank)
			continue
		}
		b.WriteString(fitWidth(lines[i], w))
	}
	return b.String()
}

// fitWidth truncates or pads one line (ANSI allowed) to exactly w cells.
func fitWidth(line string, w int) string {
	n := ansi.StringWidth(line)
	if n > w {
		line = ansi.Truncate(line, w, "…")
		n = ansi.StringWidth(line)
	}
	if n < w {
		line += strings.Repeat(" ", w-n)
	}
	return line
}

// clip shortens plain text to w cells with an ellipsis.
func clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// spread puts left and right on one line w cells wide, right-aligned right;
// the left part is clipped when both do not fit.
func spread(left, right string, w int) string {
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if lw+rw+1 > w {
		if rw+2 > w {
			return fitWidth(left, w)
		}
		left = ansi.Truncate(left, w-rw-1, "…")
		lw = ansi.StringWidth(left)
	}
	return left + strings.Repeat(" ", max(w-lw-rw, 1)) + right
}

// panel draws a rounded box of exactly w x h with title set into its top
// border; focus draws it in the accent colour.
func panel(st *themes.Styles, title, content string, w, h int, focus bool) string {
	if w < 4 || h < 3 {
		return fit(content, w, h)
	}
	border := st.Border
	if focus {
		border = st.Accent
	}
	iw := w - 2
	var b strings.Builder
	t := clip(title, iw-4)
	if t != "" {
		b.WriteString(border.Render("╭─ "))
		b.WriteString(st.PanelTitle.Render(t))
		b.WriteString(border.Render(" " + strings.Repeat("─", max(iw-3-ansi.StringWidth(t), 0)) + "╮"))
	} else {
		b.WriteString(border.Render("╭" + strings.Repeat("─", iw) + "╮"))
	}
	lines := strings.Split(content, "\n")
	bar := border.Render("│")
	for i := range h - 2 {
		b.WriteByte('\n')
		b.WriteString(bar)
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		b.WriteString(fitWidth(" "+l, iw))
		b.WriteString(bar)
	}
	b.WriteByte('\n')
	b.WriteString(border.Render("╰" + strings.Repeat("─", iw) + "╯"))
	return b.String()
}

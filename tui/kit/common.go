package kit

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/themes"
)

// Common is what every screen shares (soft-serve's Common): the size a screen
// may draw in, the styles of the current theme, and the terminal's colour
// profile. Screens hold a pointer to the one common; only the root's Update
// writes it.
type Common struct {
	Width, Height int // the screen body: the terminal minus header and status bar
	Styles        *themes.Styles
	theme         int  // index into themes.All()
	auto          bool // the theme follows the terminal (none was named, none picked since)
	noColor       bool // the terminal's NO_COLOR
	Profile       colorprofile.Profile
	Logf          func(string, ...any)
	Files         *Files    // confinement (session.go); nil: none
	Slot          TrainSlot // nil: train at once
	Memory        *engine.Accountant
	// Remedy says a remedy the engine advises in the lab's words (the
	// root's: only it knows the screens a remedy points to); nil: the
	// remedy's neutral words.
	Remedy func(advice.Remedy) string
	// ExportDir is where exports are written when the lab has no home of
	// its own (Files): the working directory, or a test's.
	ExportDir string
	writes    sync.WaitGroup // files being written (writing)
}

// NewCommon is the common state of a lab drawing theme (by name; "" follows
// the terminal: mono without colour, else dark until it says its
// background) on a terminal of the given profile and NO_COLOR.
func NewCommon(theme string, profile colorprofile.Profile, noColor bool) (*Common, error) {
	c := &Common{ExportDir: ".", Profile: profile, noColor: noColor, auto: theme == ""}
	t := themes.For(profile, noColor, true)
	if theme != "" {
		var ok bool
		if t, ok = themes.ByName(theme); !ok {
			return nil, fmt.Errorf("unknown theme %q (valid: %s)", theme, strings.Join(themes.Names(), ", "))
		}
	}
	c.setTheme(t)
	return c, nil
}

// ErrText is err's message with its remedies in the lab's words.
func (c *Common) ErrText(err error) string { return advice.Explain(err, c.remedy) }

// WarningTexts are warnings with their remedies in the lab's words.
func (c *Common) WarningTexts(ws []advice.Warning) []string { return advice.All(ws, c.remedy) }

func (c *Common) remedy(r advice.Remedy) string {
	if c.Remedy == nil {
		return r.String()
	}
	return c.Remedy(r)
}

// setTheme draws with t from now on. The styles are replaced in place, so
// that every widget holding the pointer draws with the new theme.
func (c *Common) setTheme(t themes.Theme) {
	for i, a := range themes.All() {
		if a.Name == t.Name {
			c.theme = i
		}
	}
	st := themes.NewStyles(t, c.Profile)
	if c.Styles == nil {
		c.Styles = st
		return
	}
	*c.Styles = *st
}

// FollowsBackground reports whether the theme would change with the
// terminal's background: it was not chosen, and there is colour to choose.
func (c *Common) FollowsBackground() bool {
	return c.auto && !c.noColor && c.Profile > colorprofile.ASCII
}

// SetBackground takes the terminal's answer about its background: a light
// one gets the light theme, unless a theme was named or picked meanwhile.
func (c *Common) SetBackground(dark bool) {
	if c.FollowsBackground() {
		c.setTheme(themes.For(c.Profile, c.noColor, dark))
	}
}

// SetProfile takes the colour profile bubbletea settled for the terminal.
func (c *Common) SetProfile(p colorprofile.Profile) {
	if p == c.Profile {
		return
	}
	c.Profile = p
	t := c.Styles.Theme
	if c.auto {
		t = themes.For(p, c.noColor, t.Name != "light")
	}
	c.setTheme(t)
}

// Writing counts cmd among the files being written, which the end of the
// lab waits for (waitWrites), so that closing a session loses no save.
func (c *Common) Writing(cmd tea.Cmd) tea.Cmd {
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

// WaitWrites waits up to d for the files being written: a command the
// program never ran (it was killed first) is not waited for longer.
func (c *Common) WaitWrites(d time.Duration) {
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

// CycleTheme switches to the next built-in theme, which the terminal's
// background no longer changes.
func (c *Common) CycleTheme() {
	all := themes.All()
	c.auto = false
	c.setTheme(all[(c.theme+1)%len(all)])
}

// ThemeName is the name of the theme drawn now.
func (c *Common) ThemeName() string { return c.Styles.Theme.Name }

// NewInput is a text field with a steady cursor: a blinking one would wake
// the program twice a second for nothing.
func NewInput() TextField {
	in := textinput.New()
	in.Prompt = ""
	in.SetStyles(textinput.Styles{}) // Cursor.Blink false
	// ctrl+v would read the clipboard of the machine the lab runs on (a
	// server's, under tealab serve): pastes come from the terminal.
	in.KeyMap.Paste.SetEnabled(false)
	return TextField{in}
}

// Fit makes every line of s exactly w cells wide and s exactly h lines tall.
func Fit(s string, w, h int) string {
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
		b.WriteString(FitWidth(lines[i], w))
	}
	return b.String()
}

// FitWidth truncates or pads one line (ANSI allowed) to exactly w cells.
func FitWidth(line string, w int) string {
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

// Clip shortens plain text to w cells with an ellipsis.
func Clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Spread puts left and right on one line w cells wide, right-aligned right;
// the left part is clipped when both do not fit.
func Spread(left, right string, w int) string {
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if lw+rw+1 > w {
		if rw+2 > w {
			return FitWidth(left, w)
		}
		left = ansi.Truncate(left, w-rw-1, "…")
		lw = ansi.StringWidth(left)
	}
	return left + strings.Repeat(" ", max(w-lw-rw, 1)) + right
}

// Panel draws a rounded box of exactly w x h with title set into its top
// border; focus draws it in the accent colour.
func Panel(st *themes.Styles, title, content string, w, h int, focus bool) string {
	if w < 4 || h < 3 {
		return Fit(content, w, h)
	}
	border := st.Border
	if focus {
		border = st.Accent
	}
	iw := w - 2
	var b strings.Builder
	t := Clip(title, iw-4)
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
		b.WriteString(FitWidth(" "+l, iw))
		b.WriteString(bar)
	}
	b.WriteByte('\n')
	b.WriteString(border.Render("╰" + strings.Repeat("─", iw) + "╯"))
	return b.String()
}

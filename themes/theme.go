package themes

import (
	"image/color"
	"os"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// Color is a terminal colour token. Concrete tokens are lipgloss.Color hex
// colours, or lipgloss.NoColor in the mono theme.
type Color = color.Color

// Theme is a named set of semantic colour tokens. Every token is set in
// every built-in theme (NoColor counts as set for "mono").
type Theme struct {
	Name string
	// Dark is true when the theme is meant for a dark terminal background.
	Dark bool
	// Mono is true for the colourless theme: styles then rely on bold,
	// underline and reverse, and widgets on marker glyphs.
	Mono bool

	// Background fills the whole screen, so that the theme reads the same
	// whatever the terminal's own background (a light theme on a dark
	// terminal would otherwise draw dark text on black).
	Background    Color
	Text          Color // body text
	Muted         Color // secondary text: labels, hints, units
	Subtle        Color // tertiary: grid lines, reference lines, zero cells
	Accent        Color // focus, titles, the current item
	Good          Color // better than baseline, correct predictions
	Bad           Color // worse than baseline, errors
	Warn          Color // warnings, cancelled runs
	Border        Color // box and separator lines
	Selection     Color // background of the selected row or active tab
	SelectionText Color // foreground on Selection

	// Series colours chart lines in order (at least 6).
	Series []Color
	// Classes colours class markers and bars in order (at least 8).
	Classes []Color
	// Regions are background tints matching Classes (same length), light
	// enough (or dark enough) that a Classes-coloured marker stays visible
	// on top of any of them.
	Regions []Color
	// Heat is a sequential background scale, low to high (at least 5),
	// used to shade heatmap cells under Text/Good/Bad foregrounds.
	Heat []Color
}

func hexes(hs ...string) []Color {
	cs := make([]Color, len(hs))
	for i, h := range hs {
		cs[i] = lipgloss.Color(h)
	}
	return cs
}

// Okabe-Ito colours.
const (
	oiOrange     = "#E69F00"
	oiSkyBlue    = "#56B4E9"
	oiGreen      = "#009E73"
	oiYellow     = "#F0E442"
	oiBlue       = "#0072B2"
	oiVermillion = "#D55E00"
	oiPurple     = "#CC79A7"
)

func dark() Theme {
	return Theme{
		Name:          "dark",
		Dark:          true,
		Background:    lipgloss.Color("#1E222A"),
		Text:          lipgloss.Color("#D8DEE9"),
		Muted:         lipgloss.Color("#8B95A7"),
		Subtle:        lipgloss.Color("#4C566A"),
		Accent:        lipgloss.Color(oiSkyBlue),
		Good:          lipgloss.Color("#35C9A0"), // Okabe-Ito bluish green, lifted for a dark background
		Bad:           lipgloss.Color("#FF7A3D"), // Okabe-Ito vermillion, lifted
		Warn:          lipgloss.Color(oiYellow),
		Border:        lipgloss.Color("#5E6B82"),
		Selection:     lipgloss.Color("#2E4A6B"),
		SelectionText: lipgloss.Color("#FFFFFF"),
		Series:        hexes(oiSkyBlue, oiOrange, oiGreen, oiPurple, oiYellow, oiVermillion, "#5B9BD5"),
		Classes:       hexes(oiOrange, oiSkyBlue, oiGreen, oiYellow, oiPurple, oiVermillion, "#5B9BD5", "#C0C0C0"),
		Regions:       hexes("#4A3A14", "#1E3B4F", "#11392F", "#46441C", "#4A2E40", "#4A2713", "#1E2F4F", "#3A3A3A"),
		Heat:          hexes("#1F2430", "#22324A", "#264466", "#2B5683", "#3269A0", "#3A7CBD"),
	}
}

func light() Theme {
	return Theme{
		Name:          "light",
		Dark:          false,
		Background:    lipgloss.Color("#FAFAF7"),
		Text:          lipgloss.Color("#1F2328"),
		Muted:         lipgloss.Color("#57606A"),
		Subtle:        lipgloss.Color("#AFB8C1"),
		Accent:        lipgloss.Color(oiBlue),
		Good:          lipgloss.Color("#007A5A"), // Okabe-Ito bluish green, darkened for a light background
		Bad:           lipgloss.Color("#B84A00"), // Okabe-Ito vermillion, darkened
		Warn:          lipgloss.Color("#8A6D00"),
		Border:        lipgloss.Color("#8C959F"),
		Selection:     lipgloss.Color("#CFE3F7"),
		SelectionText: lipgloss.Color("#000000"),
		Series:        hexes(oiBlue, oiVermillion, oiGreen, oiPurple, oiOrange, oiSkyBlue, "#7A6A00"),
		Classes:       hexes(oiVermillion, oiBlue, oiGreen, "#9A8500", oiPurple, oiOrange, oiSkyBlue, "#555555"),
		Regions:       hexes("#F7DCCB", "#CFE2F2", "#CDEBDF", "#F2EDC2", "#F2DDE8", "#FBE8C6", "#DDEFFA", "#E6E6E6"),
		Heat:          hexes("#FFFFFF", "#EAF2FB", "#D3E4F5", "#BBD5EF", "#A2C5E8", "#8AB5E1"),
	}
}

func highContrast() Theme {
	return Theme{
		Name:          "high-contrast",
		Dark:          true,
		Background:    lipgloss.Color("#000000"),
		Text:          lipgloss.Color("#FFFFFF"),
		Muted:         lipgloss.Color("#D0D0D0"),
		Subtle:        lipgloss.Color("#A8A8A8"),
		Accent:        lipgloss.Color("#FFFF00"),
		Good:          lipgloss.Color("#00D7FF"), // blue/orange: distinguishable with any colour vision
		Bad:           lipgloss.Color("#FF8700"),
		Warn:          lipgloss.Color("#FFFF00"),
		Border:        lipgloss.Color("#FFFFFF"),
		Selection:     lipgloss.Color("#FFFF00"),
		SelectionText: lipgloss.Color("#000000"),
		Series:        hexes("#00D7FF", "#FF8700", "#00FF87", "#FF87FF", "#FFFF00", "#FFFFFF", "#87AFFF"),
		Classes:       hexes("#FF8700", "#00D7FF", "#00FF87", "#FFFF00", "#FF87FF", "#FF5F00", "#87AFFF", "#FFFFFF"),
		Regions:       hexes("#3A2000", "#00303A", "#003A1E", "#3A3A00", "#3A1E3A", "#3A1500", "#1E263A", "#303030"),
		Heat:          hexes("#000000", "#1C1C1C", "#303030", "#444444", "#585858", "#6C6C6C"),
	}
}

func mono() Theme {
	n := lipgloss.NoColor{}
	fill := func(k int) []Color {
		cs := make([]Color, k)
		for i := range cs {
			cs[i] = n
		}
		return cs
	}
	return Theme{
		Name: "mono", Dark: true, Mono: true,
		Background: n, Text: n, Muted: n, Subtle: n, Accent: n, Good: n, Bad: n, Warn: n,
		Border: n, Selection: n, SelectionText: n,
		Series: fill(7), Classes: fill(8), Regions: fill(8), Heat: fill(6),
	}
}

// All returns the built-in themes, the default first. Each call returns
// fresh values, so callers may modify them.
func All() []Theme {
	return []Theme{dark(), light(), highContrast(), mono()}
}

// Names returns the names of the built-in themes in the order of All.
func Names() []string {
	all := All()
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.Name
	}
	return names
}

// ByName finds a built-in theme by name, ignoring case and surrounding
// space.
func ByName(name string) (Theme, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, t := range All() {
		if t.Name == name {
			return t, true
		}
	}
	return Theme{}, false
}

// Default returns "mono" when NO_COLOR is set and "dark" otherwise.
func Default() Theme {
	if NoColor(os.Getenv) {
		return mono()
	}
	return dark()
}

// For picks a theme for a terminal (the local one or an SSH session's):
// "mono" under NO_COLOR or when its profile has no colour, otherwise "dark"
// or "light" from its background.
func For(profile colorprofile.Profile, noColor, darkBackground bool) Theme {
	if noColor || profile <= colorprofile.ASCII {
		return mono()
	}
	if darkBackground {
		return dark()
	}
	return light()
}

// NoColor reports whether an environment (this process's, or an SSH
// client's) asks for no colour: NO_COLOR is present and not empty.
func NoColor(getenv func(string) string) bool { return getenv("NO_COLOR") != "" }

package themes

import (
	"strings"

	colorful "github.com/lucasb-eyer/go-colorful"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Styles are the lipgloss styles of one theme for a terminal of one colour
// profile. Build them with NewStyles; widgets and screens take a *Styles
// and never create colours themselves. They render the theme's colours as
// they are: bubbletea brings them down to what the terminal shows (16
// colours, none, or no escape at all: termtest.Show does the same for
// tests).
type Styles struct {
	Theme Theme
	// Profile is the colour profile the styles were built for.
	Profile colorprofile.Profile
	// Colorless is true when colour cannot carry meaning: the theme is
	// "mono" or the profile has no colour (ASCII, NoTTY). Widgets then
	// add glyphs (markers, brackets, shades) for what colour would show.
	Colorless bool

	bg string // SGR that sets the theme's background; "" when there is none

	// Plain text roles.
	Text, Muted, Subtle, Accent, Good, Bad, Warn lipgloss.Style

	Title       lipgloss.Style // screen title, breadcrumb
	Header      lipgloss.Style // table and section headers
	StatusBar   lipgloss.Style // the status line under a screen
	Key         lipgloss.Style // a key in help text ("q")
	KeyDesc     lipgloss.Style // its description ("quit")
	KeySep      lipgloss.Style // separator between help items (" · ")
	Help        lipgloss.Style // the help block as a whole
	Border      lipgloss.Style // foreground for hand-drawn box and rule characters
	Panel       lipgloss.Style // a rounded box around a panel
	PanelFocus  lipgloss.Style // the same box when the panel has focus
	PanelTitle  lipgloss.Style // a title set into a panel's top border
	SelectedRow lipgloss.Style // the row under the cursor
	TabActive   lipgloss.Style
	TabInactive lipgloss.Style
	Error       lipgloss.Style // an error message
	Value       lipgloss.Style // a number that matters (metric values)

	// Palettes, indexed like the Theme's; use the accessors, which wrap
	// around instead of going out of range.
	Series  []lipgloss.Style // foreground
	Classes []lipgloss.Style // foreground
	Regions []lipgloss.Style // background
	// RegionShades[i][k] is class i's region at confidence level k (of
	// RegionLevels, low to high): from nearly the background up to the
	// region tint and a little beyond, so that a map shades by probability.
	RegionShades [][]lipgloss.Style
	Heat         []lipgloss.Style // background, low to high
}

// NewStyles builds the styles of theme t for a terminal of colour profile
// p: use one per output, per terminal or per SSH session.
func NewStyles(t Theme, p colorprofile.Profile) *Styles {
	s := &Styles{Theme: t, Profile: p, Colorless: t.Mono || p <= colorprofile.ASCII}
	if !s.Colorless {
		s.bg = strings.TrimSuffix(strings.TrimPrefix(ansi.NewStyle().BackgroundColor(t.Background).String(), "\x1b["), "m")
	}
	fg := func(c Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(colour(c)) }
	bg := func(c Color) lipgloss.Style { return lipgloss.NewStyle().Background(colour(c)) }

	if t.Mono {
		plain := lipgloss.NewStyle()
		s.Text = plain
		s.Muted = lipgloss.NewStyle().Faint(true)
		s.Subtle = lipgloss.NewStyle().Faint(true)
		s.Accent = lipgloss.NewStyle().Bold(true)
		s.Good = lipgloss.NewStyle().Bold(true)
		s.Bad = lipgloss.NewStyle().Underline(true)
		s.Warn = lipgloss.NewStyle().Bold(true).Underline(true)
		s.Title = lipgloss.NewStyle().Bold(true)
		s.Header = lipgloss.NewStyle().Bold(true).Underline(true)
		s.StatusBar = plain
		s.Key = lipgloss.NewStyle().Bold(true)
		s.KeyDesc = plain
		s.KeySep = lipgloss.NewStyle().Faint(true)
		s.Border = plain
		s.PanelTitle = lipgloss.NewStyle().Bold(true)
		s.SelectedRow = lipgloss.NewStyle().Reverse(true)
		s.TabActive = lipgloss.NewStyle().Reverse(true).Bold(true)
		s.TabInactive = plain
		s.Error = lipgloss.NewStyle().Bold(true).Reverse(true)
		s.Value = lipgloss.NewStyle().Bold(true)
	} else {
		s.Text = fg(t.Text)
		s.Muted = fg(t.Muted)
		s.Subtle = fg(t.Subtle)
		s.Accent = fg(t.Accent)
		s.Good = fg(t.Good)
		s.Bad = fg(t.Bad)
		s.Warn = fg(t.Warn)
		s.Title = fg(t.Accent).Bold(true)
		s.Header = fg(t.Text).Bold(true)
		s.StatusBar = fg(t.Muted)
		s.Key = fg(t.Accent).Bold(true)
		s.KeyDesc = fg(t.Muted)
		s.KeySep = fg(t.Subtle)
		s.Border = fg(t.Border)
		s.PanelTitle = fg(t.Accent).Bold(true)
		s.SelectedRow = fg(t.SelectionText).Background(t.Selection)
		s.TabActive = fg(t.SelectionText).Background(t.Selection).Bold(true)
		s.TabInactive = fg(t.Muted)
		s.Error = fg(t.Bad).Bold(true)
		s.Value = fg(t.Text).Bold(true)
	}
	s.Help = lipgloss.NewStyle().PaddingLeft(1)
	s.Panel = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(colour(t.Border))
	s.PanelFocus = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(colour(t.Accent))
	if t.Mono {
		s.PanelFocus = lipgloss.NewStyle().Border(lipgloss.ThickBorder())
	}

	s.Series = make([]lipgloss.Style, len(t.Series))
	for i, c := range t.Series {
		s.Series[i] = fg(c)
	}
	s.Classes = make([]lipgloss.Style, len(t.Classes))
	for i, c := range t.Classes {
		s.Classes[i] = fg(c)
	}
	s.Regions = make([]lipgloss.Style, len(t.Regions))
	for i, c := range t.Regions {
		s.Regions[i] = bg(c)
	}
	s.RegionShades = make([][]lipgloss.Style, len(t.Regions))
	for i, c := range t.Regions {
		s.RegionShades[i] = make([]lipgloss.Style, RegionLevels)
		for k := range RegionLevels {
			s.RegionShades[i][k] = bg(regionShade(t, i, c, k))
		}
	}
	s.Heat = make([]lipgloss.Style, len(t.Heat))
	for i, c := range t.Heat {
		s.Heat[i] = bg(c)
	}
	return s
}

// colour is c for a style: nil (none) for the mono theme's NoColor.
func colour(c Color) Color {
	if _, none := c.(lipgloss.NoColor); none {
		return nil
	}
	return c
}

func pick(ss []lipgloss.Style, i int, fallback lipgloss.Style) lipgloss.Style {
	if len(ss) == 0 {
		return fallback
	}
	if i < 0 {
		i = -i
	}
	return ss[i%len(ss)]
}

// SeriesStyle is the foreground of chart series i (wrapping around).
func (s *Styles) SeriesStyle(i int) lipgloss.Style { return pick(s.Series, i, s.Text) }

// ClassStyle is the foreground of class i (wrapping around).
func (s *Styles) ClassStyle(i int) lipgloss.Style { return pick(s.Classes, i, s.Text) }

// RegionStyle is the background tint of class i's region (wrapping around).
func (s *Styles) RegionStyle(i int) lipgloss.Style { return pick(s.Regions, i, lipgloss.NewStyle()) }

// RegionLevels is the number of confidence levels a region is shaded in.
const RegionLevels = 4

// regionLevelMix is how far each level goes from the background to the
// region tint (and past it, towards the class colour, at the top).
var regionLevelMix = [RegionLevels]float64{0.25, 0.55, 0.85, 1.25}

// regionShade blends the theme's background with region tint c for level
// k; without a background or a hex colour it is c itself.
func regionShade(t Theme, i int, c Color, k int) Color {
	b, ok1 := rgb(t.Background)
	r, ok2 := rgb(c)
	if !ok1 || !ok2 {
		return c
	}
	mix := regionLevelMix[k]
	var out colorful.Color
	if mix <= 1 {
		out = b.BlendRgb(r, mix)
	} else {
		cl, ok := rgb(t.Classes[i%len(t.Classes)])
		if !ok {
			return c
		}
		out = r.BlendRgb(cl, mix-1)
	}
	return lipgloss.Color(out.Clamped().Hex())
}

// rgb is c as a colourful colour; false for none (NoColor).
func rgb(c Color) (colorful.Color, bool) {
	if _, none := c.(lipgloss.NoColor); none || c == nil {
		return colorful.Color{}, false
	}
	cc, ok := colorful.MakeColor(c)
	return cc, ok
}

// RegionShadeStyle is the background of class i's region where the model
// gives it probability p (0.5 or less is the faintest level, 1 the
// strongest).
func (s *Styles) RegionShadeStyle(i int, p float64) lipgloss.Style {
	if len(s.RegionShades) == 0 {
		return s.RegionStyle(i)
	}
	if i < 0 {
		i = -i
	}
	return s.RegionShades[i%len(s.RegionShades)][RegionLevel(p)]
}

// RegionLevel is the shading level (0 to RegionLevels-1) of a region where
// the model gives its class probability p: below 0.6, below 0.75, below
// 0.9, and the rest.
func RegionLevel(p float64) int {
	switch {
	case !(p >= 0.6):
		return 0
	case p < 0.75:
		return 1
	case p < 0.9:
		return 2
	}
	return RegionLevels - 1
}

// HeatStyle is the background for a value in [0, 1] on the Heat scale;
// values outside are clamped and NaN gives the lowest step.
func (s *Styles) HeatStyle(v float64) lipgloss.Style {
	if len(s.Heat) == 0 {
		return lipgloss.NewStyle()
	}
	return s.Heat[HeatIndex(v, len(s.Heat))]
}

// HeatIndex maps v in [0, 1] to a step of an n-step scale: 0 only for
// v <= 0 (or NaN), n-1 only for v >= 1, the steps between evenly spread, so
// that any non-zero value is visibly shaded.
func HeatIndex(v float64, n int) int {
	if n <= 1 || !(v > 0) {
		return 0
	}
	if v >= 1 || n == 2 {
		return n - 1
	}
	return min(1+int(v*float64(n-2)), n-2)
}

// PaintBackground fills a rendered frame with the theme's background: every
// line starts with it and every reset returns to it, so cells no style
// coloured (padding, spaces between widgets) get it too, and styles with
// their own background (selection, heat, regions) keep theirs. Without a
// background (mono, no colour) the frame is returned as it is.
func (s *Styles) PaintBackground(frame string) string {
	if s.bg == "" {
		return frame
	}
	set := "\x1b[" + s.bg + "m"
	reset := "\x1b[0;" + s.bg + "m"
	frame = strings.ReplaceAll(frame, "\x1b[0m", reset)
	frame = strings.ReplaceAll(frame, "\x1b[m", reset)
	lines := strings.Split(frame, "\n")
	for i, l := range lines {
		lines[i] = set + l + "\x1b[0m"
	}
	return strings.Join(lines, "\n")
}

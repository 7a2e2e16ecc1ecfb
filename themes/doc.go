// Package themes holds tealab's semantic colour tokens and the lipgloss
// styles derived from them.
//
// Rules of the package:
//   - A Theme is data: named colours (Text, Muted, Accent, Good, Bad, ...)
//     and palettes (Series for chart lines, Classes and Regions for class
//     colours, Heat for sequential shading). Nothing else in the repository
//     may hold a colour literal; widgets ask for tokens or styles.
//   - Styles are built by NewStyles from a Theme and the terminal's colour
//     profile, never from package-level lipgloss.NewStyle values, so that
//     each SSH session renders with its own terminal's profile.
//   - The "mono" theme carries no colour at all. Everything must stay usable
//     with it (and with the NoTTY profile, where even bold disappears):
//     widgets use bold/underline/reverse and distinct marker glyphs, and
//     Styles.Colorless tells them when colour cannot carry meaning.
//   - NO_COLOR (https://no-color.org) selects "mono" in Default and For,
//     and keeps bold, faint, underline and reverse: NO_COLOR forbids colour,
//     not emphasis (its colour profile is ASCII, which keeps them).
//
// The palettes are colour-blind safe: chart series and class colours are
// the Okabe-Ito set (Okabe & Ito, "Color Universal Design", 2008), and
// Good/Bad are the blue-green/vermillion pair of that set rather than
// red/green.
package themes

package widgets

import "math"

// shades are the glyphs of a text heat scale, low to high.
var shades = []string{"░", "▒", "▓", "█"}

// Shade is the glyph for t in [0, 1] on a text heat scale (░ low to █
// high), so that a heat table reads without colour; " " for NaN.
func Shade(t float64) string {
	if math.IsNaN(t) {
		return " "
	}
	return shades[min(max(int(t*float64(len(shades))), 0), len(shades)-1)]
}

package widgets

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// marginScatter is a plane split down the middle by a margin model: f
// runs from −3 on the left to 3 on the right, the band |f| ≤ 1 in the
// middle third; one point of each class, the second a support vector.
func marginScatter(theme string) Scatter {
	s := NewScatter(stylesFor(theme, colorprofile.TrueColor))
	s.SetSize(50, 10)
	s.SetBounds(0, 1, 0, 1)
	s.SetPoints([]float64{0.1, 0.9}, []float64{0.5, 0.5}, []int{0, 1})
	s.SetSupport([]int{1})
	s.SetRegions([][]int{{0, 0, 0, 1, 1, 1}})
	s.SetMargin([][]float64{{-3, -2, -0.5, 0.5, 2, 3}})
	return s
}

// Without colour, the margin band is blank between the two classes'
// shades, the boundary f = 0 a column of dots, and a support vector has its
// own marker; the legend says what each means.
func TestMarginBandWithoutColour(t *testing.T) {
	s := marginScatter("mono")
	v := ansi.Strip(s.View())
	if !regexp.MustCompile(`░{3,} {3,}· {3,}▒{3,}`).MatchString(v) {
		t.Errorf("no blank band with a dotted boundary between the regions:\n%s", v)
	}
	if !strings.Contains(v, "◎") || strings.Count(v, "○") != 1 { // the legend's ○
		t.Errorf("the support vector is not drawn with its own marker:\n%s", v)
	}
	for _, want := range []string{"· boundary f=0", "blank: margin |f|≤1", "◉◎ 1 support vector"} {
		if !strings.Contains(v, want) {
			t.Errorf("legend lacks %q:\n%s", want, v)
		}
	}
	s, _ = s.Update(keyMsg("r"))
	if v := ansi.Strip(s.View()); strings.Contains(v, "░") || strings.Contains(v, "boundary") {
		t.Errorf("r hid the regions but not the margin:\n%s", v)
	}
}

// In colour, the band is its class's faintest tint: four backgrounds, one
// per class inside and outside the band, and no probability shading.
func TestMarginBandInColour(t *testing.T) {
	s := marginScatter("dark")
	s.SetConfidence([][]float64{{0.9, 0.9, 0.6, 0.6, 0.9, 0.9}})
	if s.Confidence() {
		t.Error("a margin map is shaded by probability")
	}
	plot, _, _ := strings.Cut(s.View(), "└") // the plot, not the legend's samples
	bg := map[string]bool{}
	for _, m := range regexp.MustCompile(`48;2;\d+;\d+;\d+`).FindAllString(plot, -1) {
		bg[m] = true
	}
	if len(bg) != 4 {
		t.Errorf("%d region backgrounds, want 4 (two classes, in and out of the band): %v", len(bg), bg)
	}
	if v := ansi.Strip(s.View()); !strings.Contains(v, "margin |f|≤1") || strings.Contains(v, "blank:") {
		t.Errorf("colour legend:\n%s", v)
	}
}

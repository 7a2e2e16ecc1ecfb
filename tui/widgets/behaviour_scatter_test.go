package widgets

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

func TestScatter(t *testing.T) {
	s := NewScatter(asciiStyles())
	s.SetPoints([]float64{0, 10, math.NaN()}, []float64{0, 20, 5}, []int{0, 1, 0})
	s.SetSize(40, 12)
	b := s.Bounds()
	if !near(b.XMin, -0.5) || !near(b.XMax, 10.5) || !near(b.YMin, -1) || !near(b.YMax, 21) {
		t.Errorf("bounds %+v, want the extent padded by 5%%", b)
	}
	if b.Cols <= 0 || b.Rows <= 0 || b.Cols >= 40 || b.Rows >= 12 {
		t.Errorf("grid %dx%d", b.Cols, b.Rows)
	}
	x, y := b.Center(0, 0)
	if !near(x, b.XMin+(b.XMax-b.XMin)/float64(2*b.Cols)) || !near(y, b.YMax-(b.YMax-b.YMin)/float64(2*b.Rows)) {
		t.Errorf("centre of the top-left cell (%v, %v)", x, y)
	}
	v := s.View()
	if !strings.Contains(v, "●") || !strings.Contains(v, "○") {
		t.Errorf("class markers missing:\n%s", v)
	}
	s.SetMarked([]int{1})
	if v := s.View(); !strings.Contains(v, "×") || strings.Count(v, "○") != 1 {
		t.Errorf("marked point not drawn as × (legend keeps ○):\n%s", v)
	}
	// A 1x2 region grid is stretched over the plot: left half class 0,
	// right half class 1, drawn in two shades without colour.
	s.SetRegions([][]int{{0, 1}})
	v = s.View()
	if !strings.Contains(v, "░") || !strings.Contains(v, "▒") {
		t.Errorf("regions not shaded:\n%s", v)
	}
	s, _ = s.Update(keyMsg("r"))
	if strings.Contains(s.View(), "░") {
		t.Error("r did not hide the regions")
	}
	s.SetBounds(100, 200, 100, 200)
	if strings.Count(s.View(), "●") != 1 { // the legend's
		t.Errorf("points outside fixed bounds drawn:\n%s", s.View())
	}
	if b := s.Bounds(); b.XMin != 100 || b.YMax != 200 {
		t.Errorf("fixed bounds %+v", b)
	}
	s.SetBounds(1, 1, 0, 1) // degenerate: back to automatic
	if b := s.Bounds(); b.XMin == 1 {
		t.Errorf("degenerate fixed bounds accepted: %+v", b)
	}
	// Guides for regression plots.
	g := NewScatter(asciiStyles())
	g.SetPoints([]float64{0, 1}, []float64{0, 1}, nil)
	g.SetGuides(true, false)
	g.SetSize(30, 10)
	if !strings.Contains(g.View(), "·") || !strings.Contains(g.View(), "•") {
		t.Errorf("identity guide or continuous markers missing:\n%s", g.View())
	}
}

// Decision regions like TensorFlow Playground's: where the model is sure
// the region is shaded strongly, where it hesitates faintly; without colour
// the shade names the class and says nothing of probability.
func TestRegionsShadedByConfidence(t *testing.T) {
	s := NewScatter(stylesFor("dark", colorprofile.TrueColor))
	s.SetSize(40, 10)
	s.SetBounds(0, 1, 0, 1)
	s.SetRegions([][]int{{0, 0, 1, 1}})
	s.SetConfidence([][]float64{{0.99, 0.55, 0.55, 0.99}})
	if !s.Confidence() {
		t.Fatal("regions with probabilities should be shaded by them")
	}
	bg := map[string]bool{}
	for _, m := range regexp.MustCompile(`48;2;\d+;\d+;\d+`).FindAllString(s.View(), -1) {
		bg[m] = true
	}
	if len(bg) < 4 { // two classes, each sure and unsure
		t.Errorf("%d region backgrounds, want one per class and confidence level (4): %v", len(bg), bg)
	}
	mono := NewScatter(stylesFor("mono", colorprofile.TrueColor))
	mono.SetRegions([][]int{{0, 1}})
	mono.SetConfidence([][]float64{{0.9, 0.6}})
	if mono.Confidence() {
		t.Error("without colour the shade is the class: no probability shading")
	}
}

package widgets

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/tealab/tealab/themes"
)

// A mark stands in the column of its x, as the axis ticks do, crossing the
// x axis, with its label beside it; coloured or not, every line keeps the
// chart's width. Without room its label goes to the title; NaN removes it.
func TestLineChartMark(t *testing.T) {
	y := make([]float64, 15)
	for i := range y {
		y[i] = 1 / float64(i+1)
	}
	for _, st := range []*themes.Styles{asciiStyles(), stylesFor("dark", colorprofile.TrueColor)} {
		c := NewLineChart("error against k", "k", st)
		c.SetSeries([]string{"validation"}, [][]float64{y})
		c.SetMark(5, "k=5")
		c.SetSize(60, 16)
		view := c.View()
		for i, l := range strings.Split(view, "\n") {
			if w := ansi.StringWidth(l); w != 60 {
				t.Fatalf("line %d is %d wide:\n%s", i, w, view)
			}
		}
		lines := strings.Split(ansi.Strip(view), "\n")
		var axis []rune
		for _, l := range lines {
			if strings.Contains(l, "└") {
				axis = []rune(l)
			}
		}
		left := slices.Index(axis, '└') + 1
		pw := len(axis) - 1 - left // the plot's columns, the box's edge aside
		want := left + int(math.Round(4.0/14*float64(pw-1)))
		if axis[want] != '┼' {
			t.Errorf("axis has no ┼ at column %d:\n%s", want, view)
		}
		labelled := false
		for _, l := range lines {
			r := []rune(l)
			if strings.Contains(l, "k=5") {
				labelled = r[want] == '┊' && strings.Index(string(r[want+1:]), "k=5") == 0
			}
		}
		if !labelled {
			t.Errorf("no ┊k=5 at column %d:\n%s", want, ansi.Strip(view))
		}
	}
	c := NewLineChart("error", "k", asciiStyles())
	c.SetSeries([]string{"v"}, [][]float64{y})
	c.SetMark(15, "a label far too long for the plot to hold")
	c.SetSize(40, 12)
	if !strings.Contains(strings.Split(c.View(), "\n")[0], "a label") {
		t.Errorf("a label without room is not in the title:\n%s", c.View())
	}
	c.SetMark(math.NaN(), "")
	if strings.Contains(c.View(), "┊") {
		t.Errorf("a NaN mark is drawn:\n%s", c.View())
	}
}

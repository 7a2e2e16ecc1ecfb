package widgets

import (
	"strings"
	"testing"
)

func TestBars(t *testing.T) {
	if got := posBar(0.5, 4); got != "██" {
		t.Errorf("posBar(0.5,4) = %q", got)
	}
	if got := posBar(1.0/32, 4); got != "▏" {
		t.Errorf("posBar tiny = %q", got)
	}
	if got := posBar(0.001, 4); got != "▏" {
		t.Errorf("non-zero value without a bar: %q", got)
	}
	if got := negBar(0.75, 2); got != "▐█" {
		t.Errorf("negBar(0.75,2) = %q", got)
	}
	b := NewBars([]string{"a", "b", "c"}, []float64{1, -3, 2}, asciiStyles())
	b.SetSize(30, 3)
	lines := strings.Split(plain(b.View()), "\n")
	if !strings.HasPrefix(lines[1], "b ") || !strings.Contains(lines[1], "█│") || !strings.Contains(lines[0], "│█") {
		t.Errorf("negative bars do not grow left of the zero line:\n%s", plain(b.View()))
	}
	b, _ = b.Update(keyMsg("s"))
	if !b.Sorted() || !strings.HasPrefix(plain(b.View()), "b ") {
		t.Errorf("s did not sort by magnitude:\n%s", plain(b.View()))
	}
	b.SetSize(30, 2)
	if !b.KeyMap.Down.Enabled() || !strings.Contains(plain(b.View()), "… 2 more") {
		t.Errorf("overflow:\n%s", plain(b.View()))
	}
	b, _ = b.Update(keyMsg("down"))
	b, _ = b.Update(keyMsg("down"))
	if b.off != 1 {
		t.Errorf("scroll offset %d, want 1", b.off)
	}
}

// Values near the largest float64 (coefficients of a fit on huge data):
// (bw-1)*maxNeg and maxNeg+maxPos overflow: Inf/Inf made a NaN bar width
// and strings.Repeat panicked.
func TestBarsHugeValuesKeepBothSides(t *testing.T) {
	b := NewBars([]string{"neg", "pos"}, []float64{-1.7e308, 1.7e308}, asciiStyles())
	b.SetSize(40, 2)
	lines := strings.Split(plain(b.View()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "█│") || !strings.Contains(lines[1], "│█") {
		t.Errorf("huge values do not get a bar on each side of the zero line:\n%s", plain(b.View()))
	}
}

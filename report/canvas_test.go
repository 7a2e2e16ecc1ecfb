package report

import (
	"strings"
	"testing"
)

func TestCanvasDrawsInItsCorners(t *testing.T) {
	c := NewCanvas(10, 5, 0, 1, 0, 1)
	c.Line(0, 0, 1, 1, '*')
	c.Point(0, 1, 'o')
	lines := c.Lines("x")
	want := []string{
		"1 ┤o       **",
		"  ┤      **  ",
		"  ┤    **    ",
		"  ┤  **      ",
		"0 ┤**        ",
		"  └──────────",
		"   0        1",
		"       x",
	}
	if got := strings.Join(lines, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if col, row, ok := c.Cell(0.5, 0.5); !ok || col != 5 || row != 2 {
		t.Errorf("Cell(0.5, 0.5) = %d, %d, %v; want 5, 2, true", col, row, ok)
	}
	if _, _, ok := c.Cell(2, 0); ok {
		t.Error("a point right of the canvas is on it")
	}
}

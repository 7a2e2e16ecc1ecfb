package widgets

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// matrixData is n columns of rows points in two classes: column 0 a
// straight line up, the others noise, with a missing value.
func matrixData(n, rows int) ([]string, [][]float64, []int) {
	names := make([]string, n)
	cols := make([][]float64, n)
	class := make([]int, rows)
	for j := range cols {
		names[j] = "feature_" + string(rune('a'+j%26))
		cols[j] = make([]float64, rows)
		for i := range rows {
			cols[j][i] = float64((i*(j+3)*7919)%rows) + float64(j)
			if j == 0 {
				cols[j][i] = float64(i)
			}
		}
	}
	cols[n-1][0] = math.NaN()
	for i := range class {
		class[i] = i * 2 / rows
	}
	return names, cols, class
}

// The matrix fills its size exactly at every size (a tiny one says it is
// too small), moves its cursor within the columns and scrolls to keep it
// in view; the cursor's cell is framed in heavy lines and its names are
// shown.
func TestScatterMatrix(t *testing.T) {
	names, cols, class := matrixData(9, 300)
	m := NewScatterMatrix(asciiStyles())
	m.SetData(names, cols, class, []string{"low", "high"})
	for _, size := range [][2]int{{0, 0}, {1, 1}, {3, 2}, {10, 3}, {20, 6}, {45, 16}, {79, 33}, {200, 60}} {
		m.SetSize(size[0], size[1])
		v := m.View()
		if size[0] == 0 {
			if v != "" {
				t.Errorf("0x0: %q", v)
			}
			continue
		}
		lines := strings.Split(v, "\n")
		if len(lines) != size[1] {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w != size[0] {
				t.Errorf("%v: a line %d wide: %q", size, w, l)
			}
		}
	}
	m.SetSize(79, 33)
	v := ansi.Strip(m.View())
	// Without colour, the legend names each class's marker and shade.
	for _, want := range []string{"┃", "━", "●█ low", "○▓ high", "feature_a", "›", "▼"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	for range 20 {
		m, _ = m.Update(keyMsg("right"))
		m, _ = m.Update(keyMsg("j"))
	}
	if r, c := m.Cursor(); r != 8 || c != 8 {
		t.Errorf("cursor at %d,%d after 20 moves right and down, want 8,8", r, c)
	}
	r0, rows, c0, cols9, n := m.Window()
	if n != 9 || r0+rows != 9 || c0+cols9 != 9 || rows == 9 {
		t.Errorf("window rows %d+%d, columns %d+%d of %d: the cursor's cell is not in view", r0, rows, c0, cols9, n)
	}
	if v := m.View(); !strings.Contains(v, "‹") || !strings.Contains(v, "▲") {
		t.Errorf("scrolled: no ‹ or ▲ saying there is more\n%s", v)
	}
	// Without classes: one marker, a single colour.
	m.SetData(names[:2], cols[:2], nil, nil)
	if v := m.View(); !strings.Contains(v, "•") || strings.Contains(v, "●") {
		t.Errorf("no class: want • markers\n%s", v)
	}
	// No data at all.
	m.SetData(nil, nil, nil, nil)
	if v := m.View(); !strings.Contains(v, "no columns") {
		t.Errorf("empty: %q", v)
	}
}

// The diagonal is a histogram: a column going straight up fills its
// bins evenly, so its cell's bottom line is solid.
func TestScatterMatrixDiagonal(t *testing.T) {
	names, cols, class := matrixData(2, 400)
	m := NewScatterMatrix(asciiStyles())
	m.SetData(names, cols, nil, nil)
	_ = class
	m.SetSize(40, 12)
	cell := m.cell(0, 0, 10, 4)
	bottom := string(cell.glyphs[30:40])
	if bottom != strings.Repeat("█", 10) {
		t.Errorf("the uniform column's histogram bottom line %q, want solid", bottom)
	}
}

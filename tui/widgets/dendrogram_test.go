package widgets

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
)

// The dendrogram of four rows, drawn: (0,1) at 1, (2,3) at 2, both at 4.
func TestDrawDendrogram(t *testing.T) {
	l := &engine.Linkage{Leaves: 4, Method: "average", Merges: []engine.Merge{
		{A: 0, B: 1, Height: 1, Size: 2}, {A: 2, B: 3, Height: 2, Size: 2}, {A: 4, B: 5, Height: 4, Size: 4}}}
	d := DrawDendrogram(l, 13)
	// Columns 3, 6 and 12 of 0..12: heights 1, 2 and 4 of 4.
	want := []string{
		"───┬────────┬",
		"───┘        │",
		"──────┬─────┘",
		"──────┘",
	}
	for i, line := range d.Lines {
		if strings.TrimRight(line, " ") != strings.TrimRight(want[i], " ") {
			t.Errorf("line %d = %q, want %q\n%s", i, line, want[i], strings.Join(d.Lines, "\n"))
		}
	}
	if d.Column(2) != 6 || d.Axis != "0"+strings.Repeat(" ", 11)+"4" {
		t.Errorf("column of 2: %d, axis %q", d.Column(2), d.Axis)
	}
	// Two merges at one height share a column: the cell where they meet
	// keeps both lines (it drew ┘, cutting the tree in two).
	tie := DrawDendrogram(&engine.Linkage{Leaves: 3, Method: "average", Merges: []engine.Merge{
		{A: 1, B: 2, Height: 1, Size: 2}, {A: 0, B: 3, Height: 1, Size: 3}}}, 10)
	for i, w := range []string{"─────────┬", "─────────┤", "─────────┘"} {
		if tie.Lines[i] != w {
			t.Errorf("tie line %d = %q, want %q\n%s", i, tie.Lines[i], w, strings.Join(tie.Lines, "\n"))
		}
	}
	// An inversion (centroid linkage): the later merge is lower, its line
	// runs back left from the node at column 10 to column 5, crossing row
	// 1's line.
	inv := DrawDendrogram(&engine.Linkage{Leaves: 3, Method: "centroid", Merges: []engine.Merge{
		{A: 0, B: 1, Height: 2, Size: 2}, {A: 3, B: 2, Height: 1, Size: 3}}}, 11)
	for i, w := range []string{"─────┬────┬", "─────┼────┘", "─────┘     "} {
		if inv.Lines[i] != w {
			t.Errorf("inversion line %d = %q, want %q\n%s", i, inv.Lines[i], w, strings.Join(inv.Lines, "\n"))
		}
	}
}

// A leaf is named by its row's name when the data have names; a number
// written as a row name is marked as one.
func TestLeafLabelRowNames(t *testing.T) {
	names, classes, y := []string{"Mazda RX4", "7"}, []string{"a", "b"}, []float64{1, 0}
	for _, tc := range []struct {
		rows  []int
		names []string
		want  string
	}{
		{[]int{0}, names, "Mazda RX4 b"},
		{[]int{1}, names, "#7 a"},
		{[]int{1}, nil, "row 2 a"},
		{[]int{0, 1}, names, "(2 rows)"},
	} {
		if got := LeafLabel(tc.rows, tc.names, classes, y); got != tc.want {
			t.Errorf("LeafLabel(%v, %q) = %q, want %q", tc.rows, tc.names, got, tc.want)
		}
	}
}

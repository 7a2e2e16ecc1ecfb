package tui

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/tui/screens/data"
)

// mtcarsR is written as R's write.csv writes it: the cars are row names.
const mtcarsR = "../datasets/testdata/mtcars_r.csv"

// The rows table shows the row names first, ruled off from the columns,
// which do not count them.
func TestRowsViewShowsRowNames(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: mtcarsR}, 120, 40)
	if hs.a.data.Table == nil || len(hs.a.data.Table.RowNames) != 12 {
		t.Fatalf("the file's 12 row names did not load: %+v", hs.a.data.Table)
	}
	mustContain(t, hs.View(), "12 rows × 11 columns + row names")
	hs.previewTab(data.PreviewRows)
	v := hs.View()
	checkFrame(t, v, 120, 40)
	mustContain(t, v, "row name          │  mpg", "Mazda RX4 Wag     │  21", "row names, then columns 1-")
	// Beside their own row: the Valiant's mpg is 18.1.
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "Valiant") && !strings.Contains(line, "18.1") {
			t.Errorf("Valiant's row reads %q", line)
		}
	}
}

// A dendrogram's leaves are the rows' names.
func TestDendrogramLeavesNamedByRowNames(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: mtcarsR, Target: "-", Model: "hclust", Train: true}, 120, 40)
	hs.resultTab("Dendrogram")
	v := hs.View()
	checkFrame(t, v, 120, 40)
	mustContain(t, v, "Hornet Sportabout", "Merc 450SE")
	if strings.Contains(v, "row 1 ") {
		t.Errorf("leaves labelled by number:\n%s", v)
	}
}

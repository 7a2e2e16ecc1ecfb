package report

import (
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/lecture"
)

// Every experiment has its drawing, and one this build does not know is
// said so in one line.
func TestEveryExperimentIsDrawn(t *testing.T) {
	for _, e := range lecture.All() {
		if _, ok := drawings[e.Name]; !ok {
			t.Errorf("experiment %s has no drawing (report.RegisterLecture)", e.Name)
		}
	}
	if pic := DrawLecture("from-the-future", struct{}{}, ExportSize); len(pic.Lines) != 1 || !strings.Contains(pic.Lines[0], "does not know") {
		t.Errorf("an unknown experiment draws %q", pic.Lines)
	}
}

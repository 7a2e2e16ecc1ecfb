package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/internal/fakemodels/fakesvm"
)

func init() { engine.Register(fakesvm.LinearSVM) }

// A kernel machine's report says how many support vectors it kept, by
// class and at the bound, and lists the heaviest by |α|.
func TestSupportVectorsSection(t *testing.T) {
	out, errOut, status := run(t, "train", "--data", "circles", "--model", "fake-linsvm")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	t.Log(out)
	m := regexp.MustCompile(`\n(\d+) support vectors \(model fitted on [^)]*\), kernel k\(a,b\) = a·b:\n  (\d+) of class 0, (\d+) of class 1, (\d+) at the bound C \(margin errors\)\n  the heaviest by \|α\|:\n  row +class +y·α +at C\n`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no support-vector section:\n%s", out)
	}
	if i, j := strings.Index(out, "confusion matrix"), strings.Index(out, "support vectors ("); i < 0 || j < i {
		t.Errorf("the section is not after the confusion matrix:\n%s", out)
	}
	if !strings.Contains(out, "more (--json has them all)") {
		t.Errorf("the section lists every vector:\n%s", out)
	}
	out, _, _ = run(t, "train", "--data", "circles", "--model", "lda")
	if strings.Contains(out, "support vector") {
		t.Errorf("a model without support vectors got the section:\n%s", out)
	}
}

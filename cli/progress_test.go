package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tealab/tealab/engine/eval"
)

// onTerminal is a writer that says it is a terminal (isTerminal): a
// stderr for tests that want the progress drawn.
type onTerminal struct{ io.Writer }

func (onTerminal) Terminal() bool { return true }

// runOnTerminal is run with stderr on a terminal.
func runOnTerminal(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	status := Main(args, &out, onTerminal{&errOut})
	return out.String(), errOut.String(), status
}

// On a terminal, train draws its progress on stderr and blanks it before
// the report; --quiet, or a stderr that is not a terminal, gets nothing.
func TestTrainProgressOnTerminal(t *testing.T) {
	args := []string{"train", "--data", "iris", "--model", "logistic", "--cv", "5"}
	_, errOut, status := run(t, args...)
	if status != 0 || errOut != "" {
		t.Errorf("not a terminal: status %d, stderr %q", status, errOut)
	}
	out, errOut, status := runOnTerminal(t, args...)
	if status != 0 || !strings.Contains(errOut, "fold 1 of 5") || !strings.Contains(errOut, "elapsed") ||
		!strings.HasSuffix(errOut, "\r") || strings.Contains(out, "fold 1 of 5") {
		t.Errorf("terminal: status %d, stderr %q", status, errOut)
	}
	_, errOut, _ = runOnTerminal(t, append(args, "--quiet")...)
	if errOut != "" {
		t.Errorf("--quiet: stderr %q", errOut)
	}
}

// Work estimated above a minute is announced once, with its size.
func TestProgressWarnsOfLongWork(t *testing.T) {
	var b bytes.Buffer
	pl := newProgressLine(&b)
	pl.update(eval.Progress{Fold: 2, Folds: 1797, Point: eval.Point{Step: 3}, Total: 100, Elapsed: time.Second})
	if strings.Contains(b.String(), "will take") {
		t.Errorf("warned after one second: %q", b.String())
	}
	pl.update(eval.Progress{Fold: 4, Folds: 1797, Point: eval.Point{Step: 3}, Total: 100, Elapsed: 3 * time.Second})
	pl.update(eval.Progress{Fold: 5, Folds: 1797, Point: eval.Point{Step: 3}, Total: 100, Elapsed: 4 * time.Second})
	if got := strings.Count(b.String(), "this run will take about 29m57s"); got != 1 {
		t.Errorf("want one warning of about half an hour: %q", b.String())
	}
	if !strings.Contains(b.String(), "1797 fits") || !strings.Contains(b.String(), "ctrl+c") {
		t.Errorf("warning %q", b.String())
	}
	if left, ok := remaining(eval.Progress{Fold: 1, Folds: 1, Point: eval.Point{Step: 25}, Total: 100, Elapsed: time.Second}); !ok || left != 3*time.Second {
		t.Errorf("hold-out a quarter done after 1 s: %v left, %v", left, ok)
	}
}

package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
)

// isTerminal says whether w is a terminal: a file on one, or a writer
// that says so itself (a Terminal method: a test pretending, in no global).
// Progress is drawn only on a terminal: a log file or a pipe gets nothing
// it would have to filter out.
func isTerminal(w io.Writer) bool {
	if t, ok := w.(interface{ Terminal() bool }); ok {
		return t.Terminal()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// longWork is the estimate above which the CLI says how long a run will
// take (on a terminal), so that a person can stop it and choose cheaper
// settings.
const longWork = time.Minute

// progressLine draws a run's progress on one line of stderr, rewritten in
// place at most five times a second: fold i of k, elapsed, ETA. It warns
// once, on a line of its own, when the estimate passes longWork.
type progressLine struct {
	w      io.Writer
	now    func() time.Time
	mu     sync.Mutex
	last   time.Time
	width  int  // of the line drawn, to blank it
	warned bool // the long-work warning was given
}

func newProgressLine(w io.Writer) *progressLine {
	return &progressLine{w: w, now: time.Now}
}

// update takes one progress report (from the training goroutine).
func (pl *progressLine) update(p eval.Progress) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	left, known := remaining(p)
	// A couple of seconds of work measure the pace well enough to warn.
	if known && !pl.warned && p.Elapsed >= 2*time.Second && p.Elapsed+left > longWork {
		pl.warned = true
		pl.clear()
		fmt.Fprintf(pl.w, "tealab: this run will take about %s (%s); ctrl+c stops it\n",
			numfmt.Seconds((p.Elapsed + left).Seconds()), work(p))
	}
	pl.draw(func() string { return describeProgress(p, left, known) })
}

// say draws a line of progress of another kind of work (a sweep's points).
func (pl *progressLine) say(line string) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.draw(func() string { return line })
}

// draw rewrites the line, at most five times a second; line is made only
// then, not on every step of a fast fit.
func (pl *progressLine) draw(line func() string) {
	if t := pl.now(); t.Sub(pl.last) >= 200*time.Millisecond {
		pl.last = t
		text := line()
		pl.clear()
		fmt.Fprint(pl.w, text)
		pl.width = len([]rune(text))
	}
}

// done blanks the line, before the report is printed.
func (pl *progressLine) done() {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.clear()
}

func (pl *progressLine) clear() {
	if pl.width > 0 {
		fmt.Fprint(pl.w, "\r"+strings.Repeat(" ", pl.width)+"\r")
		pl.width = 0
	}
}

// work names the run's work: "1,797 fits" for leave-one-out, "fold 3 of 10".
func work(p eval.Progress) string {
	if p.Folds > 1 {
		return numfmt.Count(p.Folds, "fit") + " and a final refit"
	}
	if p.Total > 0 {
		return numfmt.Count(p.Total, "step")
	}
	return "one fit"
}

func describeProgress(p eval.Progress, left time.Duration, known bool) string {
	var b strings.Builder
	switch {
	case p.Final:
		b.WriteString("final refit on all rows")
	case p.Folds > 1:
		fmt.Fprintf(&b, "fold %d of %d", p.Fold, p.Folds)
	default:
		b.WriteString("fitting")
	}
	if p.Total > 0 {
		fmt.Fprintf(&b, " · step %d of %d", p.Point.Step, p.Total)
	}
	fmt.Fprintf(&b, " · %s elapsed", numfmt.Seconds(p.Elapsed.Seconds()))
	if known {
		fmt.Fprintf(&b, " · about %s left", numfmt.Seconds(left.Seconds()))
	}
	return b.String()
}

// remaining estimates the time left from the share of the work done. With
// several folds that is the folds finished (a fit's step count is only its
// limit: an iterative fit often stops early); with one, the share of its
// steps. known is false until a share is measured.
func remaining(p eval.Progress) (left time.Duration, known bool) {
	if p.Final || p.Folds < 1 || p.Elapsed <= 0 {
		return 0, false
	}
	var frac float64
	switch {
	case p.Folds > 1:
		frac = float64(p.Fold-1) / float64(p.Folds)
	case p.Total > 0:
		frac = min(float64(p.Point.Step)/float64(p.Total), 1)
	}
	if frac <= 0 {
		return 0, false
	}
	return time.Duration(float64(p.Elapsed) * (1 - frac) / frac), true
}

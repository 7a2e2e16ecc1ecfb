//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package runs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// appenderEnv makes the test binary a child that appends runs to the
// history in $TEALAB_TEST_HISTORY: $TEALAB_TEST_APPENDS of them, or
// without end when it is 0.
const appenderEnv = "TEALAB_TEST_HISTORY"

func TestMain(m *testing.M) {
	if dir := os.Getenv(appenderEnv); dir != "" {
		os.Exit(appendLoop(dir))
	}
	os.Exit(m.Run())
}

// appendLoop is the child: one finished run (with a long history, so that
// each line takes a while to write) appended again and again.
func appendLoop(dir string) int {
	n, _ := strconv.Atoi(os.Getenv("TEALAB_TEST_APPENDS"))
	r, err := runOf("iris", "logistic")
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	h := &History{Dir: dir}
	for start := os.Getenv("TEALAB_TEST_START"); start != ""; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(start); err == nil {
			break // all the appenders start together
		}
	}
	for i := 0; n == 0 || i < n; i++ {
		if err := h.Append(NewEntry(r)); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 1
		}
	}
	return 0
}

// appender starts a child appending n runs (0: until killed) once the
// file start exists ("": at once).
func appender(t *testing.T, dir string, n int, start string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), appenderEnv+"="+dir, "TEALAB_TEST_APPENDS="+strconv.Itoa(n), "TEALAB_TEST_START="+start)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// A process killed with SIGKILL while it appends loses at most the line it
// was writing: every earlier line reads back, and the next append is
// whole.
func TestHistorySurvivesSIGKILL(t *testing.T) {
	h := tempHistory(t)
	for round := range 3 {
		cmd := appender(t, h.Dir, 0, "")
		deadline := time.Now().Add(20 * time.Second)
		for lines(h) < 5*(round+1) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
	}
	n := lines(h)
	es, skipped := readAll(t, h)
	if skipped > 3 || len(es) < n-3 || len(es) < 15 {
		t.Errorf("after 3 kills: %d runs read, %d skipped, of %d lines", len(es), skipped, n)
	}
	if err := h.Append(NewEntry(es[0].Run)); err != nil {
		t.Fatal(err)
	}
	if after, skippedAfter := readAll(t, h); len(after) != len(es)+1 || skippedAfter != skipped {
		t.Errorf("the append after the kills: %d runs, %d skipped; want %d, %d", len(after), skippedAfter, len(es)+1, skipped)
	}
}

// Two processes appending at once lose nothing and tear nothing.
func TestHistoryConcurrentAppends(t *testing.T) {
	h := tempHistory(t)
	const each = 100
	start := filepath.Join(t.TempDir(), "start")
	a, b := appender(t, h.Dir, each, start), appender(t, h.Dir, each, start)
	time.Sleep(200 * time.Millisecond) // both have fitted their run
	if err := os.WriteFile(start, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*exec.Cmd{a, b} {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	es, skipped := readAll(t, h)
	if len(es) != 2*each || skipped != 0 {
		t.Errorf("two processes appending %d each: %d runs read, %d skipped", each, len(es), skipped)
	}
}

// lines counts the history's newline-ended lines.
func lines(h *History) int {
	b, _ := os.ReadFile(h.Path())
	return bytes.Count(b, []byte{'\n'})
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

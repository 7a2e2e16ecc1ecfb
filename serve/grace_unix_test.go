//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package serve

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The grace a closed lab has before its connection is cut never runs
// while the lab ends itself: a person who quits while their run is being
// recorded (its history locked a while by another process here) gets
// their exit status, however short the grace.
func TestQuitIsNeverCutWhileTheLabSaves(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.closeGrace = 50 * time.Millisecond }) // well short of the 200 ms the history stays locked
	c := ts.open(t, ts.alice, xterm)
	c.waitFor("Built-in sets")
	lock, err := os.OpenFile(filepath.Join(userDir(ts, ts.alice), "history.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	trainIris(c)
	c.waitFor("accuracy")
	c.keys("q")
	time.Sleep(200 * time.Millisecond) // the lab waits for its history to be written
	_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if st := c.wait(); st != 0 || strings.Contains(ts.logs.String(), `msg="connection cut"`) {
		t.Fatalf("q: exit %d; log:\n%s", st, ts.logs.String())
	}
}

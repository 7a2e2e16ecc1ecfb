package serve

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Many short sessions, a few at a time: every one gets its lab and quits
// cleanly, the log has each start and end, and once the server is stopped
// no goroutine of theirs is left.
func TestManyShortSessionsLoseNothingAndLeakNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	ts := startServer(t, func(c *Config) { c.MaxSessions = 4 })
	const sessions, atOnce = 24, 4
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	sem := make(chan struct{}, atOnce)
	deadline := time.Now().Add(20 * time.Second)
	for i := range sessions {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if time.Now().After(deadline) {
				errs <- fmt.Errorf("session %d: out of time", i)
				return
			}
			signer := ts.alice
			if i%2 == 1 {
				signer = ts.bob
			}
			errs <- shortSession(ts, signer)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	logs := ts.logs.String()
	if n, m := strings.Count(logs, `msg="session start"`), strings.Count(logs, `msg="session end"`); n != sessions || m != sessions {
		t.Fatalf("%d session starts and %d ends logged, want %d of each", n, m, sessions)
	}
	ts.stop(t)
	settle := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(settle) {
		time.Sleep(20 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before+2 {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before, %d after the sessions ended:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

// shortSession opens a lab, waits for its first screen and quits.
func shortSession(ts *testServer, signer gossh.Signer) error {
	c, err := ts.connect(signer, xterm)
	if err != nil {
		return err
	}
	defer c.conn.Close()
	if err := c.await("Built-in sets"); err != nil {
		return err
	}
	if _, err := io.WriteString(c.stdin, "q"); err != nil {
		return err
	}
	st, err := c.status()
	if err == nil && st != 0 {
		err = fmt.Errorf("exit status %d, want 0; told %q", st, c.errOut.String())
	}
	return err
}

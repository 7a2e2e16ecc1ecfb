package serve

import (
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// A terminal that never answers the lab's questions (its background) gets
// its lab all the same, at once, and the idle clock, started at
// connection, closes it.
func TestIdleClockRunsForATerminalThatNeverAnswers(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.IdleTimeout = time.Second })
	c := ts.open(t, ts.alice, terminal{width: 100, height: 30, mute: true})
	c.waitFor("Built-in sets")
	if st := c.wait(); st != 0 || !strings.Contains(c.errOut.String(), "this lab closed after 1s without a key press") {
		t.Fatalf("exit %d, told %q", st, c.errOut.String())
	}
	eventually(t, "the lab's place given back", func() bool { return ts.Sessions() == 0 })
}

// A key typed before the lab has drawn anything reaches the lab.
func TestKeysTypedBeforeTheLabDrawsAreKept(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.open(t, ts.alice, terminal{width: 100, height: 30, mute: true})
	c.keys("q")
	if st := c.wait(); st != 0 {
		t.Fatalf("q before the lab drew: exit %d; the lab showed:\n%s", st, tail(c.screen(), 2000))
	}
}

// A connection that never logs in is closed once its time is up, and no
// more than a few may wait from one address; a listed key still gets in.
// The cap is checked with a timeout no connection reaches, so that a slow
// machine cannot time the first ones out before the last arrives.
func TestHandshakesTimeOutAndAreCapped(t *testing.T) {
	dial := func(t *testing.T, ts *testServer) net.Conn {
		conn, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	waiting := func(ts *testServer, conn net.Conn) int { _, n := ts.gate.counts(remoteIP(conn.LocalAddr())); return n }
	loggedIn := func(t *testing.T, ts *testServer, want string) {
		c, err := ts.dial(sshKey(ts))
		if err != nil {
			t.Fatalf("a listed key: %v", err)
		}
		c.Close()
		if !strings.Contains(ts.logs.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, ts.logs.String())
		}
	}
	t.Run("cap", func(t *testing.T) {
		ts := startServer(t, func(c *Config) {
			c.handshakeTimeout = time.Minute
			c.maxPendingPerAddr = 3
		})
		var idle []net.Conn
		for range 3 {
			idle = append(idle, dial(t, ts))
		}
		eventually(t, "three waiting", func() bool { return waiting(ts, idle[0]) == 3 })
		extra := dial(t, ts)
		extra.SetReadDeadline(time.Now().Add(5 * time.Second))
		if n, err := extra.Read(make([]byte, 64)); err != io.EOF || n != 0 {
			t.Fatalf("a fourth connection from one address: read %d bytes, %v; want it closed at once", n, err)
		}
		for _, conn := range idle {
			conn.Close()
		}
		eventually(t, "none waiting once they left", func() bool { return waiting(ts, idle[0]) == 0 })
		loggedIn(t, ts, `msg="connection refused"`)
	})
	t.Run("timeout", func(t *testing.T) {
		ts := startServer(t, func(c *Config) { c.handshakeTimeout = 300 * time.Millisecond })
		conn := dial(t, ts)
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.Copy(io.Discard, conn); err != nil {
			t.Fatalf("a connection that never logs in was not closed after the handshake timeout: %v", err)
		}
		if n := waiting(ts, conn); n != 0 {
			t.Fatalf("%d connections still counted as waiting", n)
		}
		loggedIn(t, ts, `msg="handshake timed out"`)
	})
}

// A terminal of any size gets a lab no larger than maxWidth x maxHeight,
// at the start and after a resize, and is told so.
func TestHugeTerminalsAreClamped(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.open(t, ts.alice, terminal{width: 65535, height: 65535})
	eventually(t, "the lab drawn 1000 wide", func() bool { return hasLineOfWidth(c.display(), "╭─ Data", maxWidth) })
	if err := c.windowChange(120, 100); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lab drawn 120 wide", func() bool { return hasLineOfWidth(c.display(), "╭─ Data", 120) })
	if err := c.windowChange(30000, 30000); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lab drawn 1000 wide again", func() bool { return hasLineOfWidth(c.display(), "╭─ Data", maxWidth) })
	c.keys("q")
	c.wait()
	if !strings.Contains(c.errOut.String(), "drawn at most 1000x500") || !strings.Contains(ts.logs.String(), `msg="terminal size clamped"`) {
		t.Fatalf("told %q; log:\n%s", c.errOut.String(), ts.logs.String())
	}
}

// A burst of resizes neither deadlocks the session nor holds its writer:
// the lab is redrawn at the last size, quits, and its place is freed.
func TestResizeStormIsCoalesced(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.open(t, ts.alice, terminal{width: 100, height: 30})
	c.waitFor("Built-in sets")
	for i := range 1000 {
		if err := c.windowChange(999+i%2, 499+i%2); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.windowChange(130, 40); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lab redrawn 130 wide", func() bool { return hasLineOfWidth(c.display(), "╭─ Data", 130) })
	c.keys("q")
	if st := c.wait(); st != 0 {
		t.Fatalf("exit %d", st)
	}
	eventually(t, "the lab's place given back", func() bool { return ts.Sessions() == 0 })
}

// A client that reads nothing the lab draws cannot hold it: once the lab
// is closed (idle here), its connection is cut after the grace. The
// client stops reading once its lab is open, and resizes it: each resize
// redraws it all, more than the connection holds.
func TestClientThatReadsNothingIsCut(t *testing.T) {
	ts := startServerWith(t, func(ts *testServer, c *Config) {
		c.IdleTimeout = time.Second
		c.closeGrace = 200 * time.Millisecond
		ts.sendBuffer = 4 << 10
	})
	c := ts.open(t, ts.alice, terminal{width: 300, height: 100, deaf: true})
	eventually(t, "the lab open", func() bool { return strings.Contains(ts.logs.String(), `msg="session start"`) })
	for i := 0; ts.Sessions() > 0 && i < 500; i++ {
		// no answer asked for: the client would never read it
		window := gossh.Marshal(struct{ Width, Height, WidthPx, HeightPx uint32 }{uint32(299 + i%2), uint32(99 + i%2), 0, 0})
		if _, err := c.sess.SendRequest("window-change", false, window); err != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	eventually(t, "the lab's place given back", func() bool { return ts.Sessions() == 0 })
	ts.stop(t)
	if !strings.Contains(ts.logs.String(), `msg="connection cut"`) {
		t.Fatalf("the lab ended without being cut:\n%s", ts.logs.String())
	}
}

func sshKey(ts *testServer) gossh.AuthMethod { return gossh.PublicKeys(ts.alice) }

// counts is the number of connections waiting to log in from addr and
// in all.
func (g *gate) counts(addr netip.Addr) (fromAddr, total int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.pending[addr], g.total
}

// A listed key cannot hold connections without using them: one logged in
// that opens no session in time is closed, and a key, and the server in
// all, may hold only so many logged in; each refusal is logged.
func TestLoggedInConnectionsAreCappedAndMustOpenASession(t *testing.T) {
	t.Run("cap", func(t *testing.T) {
		ts := startServer(t, func(c *Config) {
			c.handshakeTimeout = time.Minute
			c.maxLoggedInPerKey, c.maxLoggedInAll = 2, 3
		})
		login := func(s gossh.Signer) error {
			c, err := ts.dial(gossh.PublicKeys(s))
			if err == nil {
				t.Cleanup(func() { c.Close() })
			}
			return err
		}
		for i, s := range []gossh.Signer{ts.alice, ts.alice, ts.bob} {
			if err := login(s); err != nil {
				t.Fatalf("connection %d: %v", i+1, err)
			}
		}
		if err := login(ts.alice); err == nil {
			t.Fatal("a third connection of one key logged in; the cap is 2")
		}
		if err := login(ts.bob); err == nil {
			t.Fatal("a fourth connection logged in; the cap is 3")
		}
		for _, want := range []string{"this key has 2 connections logged in already", "3 connections are logged in already"} {
			if !strings.Contains(ts.logs.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, ts.logs.String())
			}
		}
	})
	t.Run("no session", func(t *testing.T) {
		ts := startServer(t, func(c *Config) { c.handshakeTimeout = 300 * time.Millisecond })
		idle, err := ts.dial(sshKey(ts))
		if err != nil {
			t.Fatal(err)
		}
		defer idle.Close()
		files := ts.sftpClient(t, ts.alice) // a session opened at once
		waited := make(chan error, 1)
		go func() { waited <- idle.Wait() }()
		select {
		case <-waited:
		case <-time.After(5 * time.Second):
			t.Fatal("a connection that opened no session was not closed")
		}
		if _, err := files.Getwd(); err != nil {
			t.Fatalf("a connection with a session was closed too: %v", err)
		}
		if !strings.Contains(ts.logs.String(), "no session opened after login") {
			t.Errorf("log:\n%s", ts.logs.String())
		}
	})
}

// A client whose pty is 0x0 (ssh -tt from a script: no terminal of its
// own) and that never answers the lab's questions gets an 80x24 lab at
// once, a resize to 0x0 too, and q ends it.
func TestZeroSizedTerminalGetsAnEightyByTwentyFourLab(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.open(t, ts.alice, terminal{mute: true})
	c.waitFor("Built-in sets")
	drawn := func(w, h int) func() bool {
		return func() bool {
			screen := c.display()
			lines := strings.Split(screen, "\n")
			return hasLineOfWidth(screen, "╭─ Data", w) && len(lines) == h &&
				strings.Contains(lines[0], "tealab") && strings.Contains(lines[h-1], "quit")
		}
	}
	eventually(t, "the lab drawn 80x24", drawn(80, 24))
	if err := c.windowChange(120, 30); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lab drawn 120x30", drawn(120, 30))
	if err := c.windowChange(0, 0); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lab drawn 80x24 again", drawn(80, 24))
	c.keys("q")
	if st := c.wait(); st != 0 {
		t.Fatalf("q: exit %d, told %q", st, c.errOut.String())
	}
	if !strings.Contains(ts.logs.String(), "width=0 height=0") {
		t.Errorf("the start's log does not say the client's size:\n%s", ts.logs.String())
	}
}

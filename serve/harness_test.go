package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// A test server on a loopback port, with alice and bob listed in its
// authorized-keys file and eve not; its data directory holds flowers.csv,
// and escape.csv, a link to a file outside it.
type testServer struct {
	*Server
	addr              string
	alice, bob, eve   gossh.Signer
	dataDir, stateDir string
	logs              *syncBuffer
	served            chan error
	sendBuffer        int // the socket send buffer of the connections it accepts; 0 the system's
}

// syncBuffer is a bytes.Buffer safe to write from the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func newSigner(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// startServer starts a server; tune changes its configuration first.
func startServer(t *testing.T, tune func(*Config)) *testServer {
	t.Helper()
	return startServerWith(t, func(_ *testServer, c *Config) {
		if tune != nil {
			tune(c)
		}
	})
}

// startServerWith is startServer with the server's keys at hand to tune.
func startServerWith(t *testing.T, tune func(*testServer, *Config)) *testServer {
	t.Helper()
	t.Setenv("TEALAB_MEMORY", "") // the machine's memory, not a test's setting
	base := t.TempDir()
	ts := &testServer{alice: newSigner(t), bob: newSigner(t), eve: newSigner(t), logs: &syncBuffer{},
		dataDir: filepath.Join(base, "data"), stateDir: filepath.Join(base, "state"), served: make(chan error, 1)}
	if err := os.Mkdir(ts.dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ts.dataDir, "flowers.csv"), "a,b,y\n1,2,x\n2,1,z\n1,1,x\n2,2,z\n")
	writeFile(t, filepath.Join(base, "secret.csv"), "s,t\n1,2\n")
	if err := os.Symlink(filepath.Join(base, "secret.csv"), filepath.Join(ts.dataDir, "escape.csv")); err != nil {
		t.Fatal(err)
	}
	keys := string(gossh.MarshalAuthorizedKey(ts.alice.PublicKey())) + "# a comment line\n" +
		strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ts.bob.PublicKey()))) + " bob@example\n"
	writeFile(t, filepath.Join(base, "authorized_keys"), keys)
	cfg := Config{Listen: "127.0.0.1:0", HostKey: filepath.Join(ts.stateDir, "host_key"), AuthorizedKeys: filepath.Join(base, "authorized_keys"),
		DataDir: ts.dataDir, StateDir: ts.stateDir, MaxSessions: 8, MaxTraining: 2,
		Log: slog.New(slog.NewTextHandler(ts.logs, nil))}
	tune(ts, &cfg)
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if ts.sendBuffer > 0 {
		ln = smallSends{ln, ts.sendBuffer}
	}
	ts.Server, ts.addr = srv, ln.Addr().String()
	go func() { ts.served <- srv.Serve(ln) }()
	t.Cleanup(func() { ts.stop(t) })
	return ts
}

// smallSends gives the connections it accepts a small send buffer, so
// that writes to a client that reads nothing block soon.
type smallSends struct {
	net.Listener
	size int
}

func (l smallSends) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(l.size)
	}
	return c, err
}

// stop shuts the server down (once) and checks that Serve returned.
func (ts *testServer) stop(t *testing.T) {
	if ts.served == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if err := <-ts.served; err != nil {
		t.Errorf("serve: %v", err)
	}
	ts.served = nil
}

// dial connects with auth as user "tester".
func (ts *testServer) dial(auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{User: "tester", Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
}

// dialStalling connects with signer, as dial does, on a connection that
// stops reading when stall is called; its receive buffer is kept small,
// so that the server's writes block soon after.
func (ts *testServer) dialStalling(signer gossh.Signer) (conn *gossh.Client, stall func(), err error) {
	raw, err := net.DialTimeout("tcp", ts.addr, 5*time.Second)
	if err != nil {
		return nil, nil, err
	}
	_ = raw.(*net.TCPConn).SetReadBuffer(4 << 10)
	sc := &stallingConn{Conn: raw, stop: make(chan struct{}), closed: make(chan struct{})}
	cc, chans, reqs, err := gossh.NewClientConn(sc, ts.addr, &gossh.ClientConfig{User: "tester", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		sc.Close()
		return nil, nil, err
	}
	return gossh.NewClient(cc, chans, reqs), func() { sc.once.Do(func() { close(sc.stop) }) }, nil
}

// stallingConn stops reading once stop is closed, until it is closed.
type stallingConn struct {
	net.Conn
	stop, closed chan struct{}
	once, close  sync.Once
}

func (c *stallingConn) Read(p []byte) (int, error) {
	select {
	case <-c.stop:
		<-c.closed
		return 0, net.ErrClosed
	default:
		return c.Conn.Read(p)
	}
}

func (c *stallingConn) Close() error {
	c.close.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// client is one person's terminal on a lab: it answers the lab's question
// about its background colour as a terminal would, keeps everything the
// lab drew, and shows it on a terminal emulator of its size.
type client struct {
	t      *testing.T
	conn   *gossh.Client
	sess   *gossh.Session
	stdin  io.WriteCloser
	out    syncBuffer
	errOut syncBuffer
	done   chan error // the session's end (its exit status)

	mu     sync.Mutex
	vt     *vt.Emulator // what the terminal shows; nil until it reads
	resize [2]int       // the size vt is to take before it shows more
	shown  string       // vt's screen, as display last read it
	stale  bool         // vt changed since
}

// terminal describes the client's terminal.
type terminal struct {
	width, height int
	env           map[string]string
	light         bool // the background it reports
	mute          bool // it never answers the terminal queries
	// deaf stops reading its connection once the lab is open (a client
	// stopped, a network stalled): what the lab draws fills the socket.
	deaf bool
}

var xterm = terminal{width: 100, height: 30}

// open connects as signer and opens a lab on a terminal like term.
func (ts *testServer) open(t *testing.T, signer gossh.Signer, term terminal) *client {
	t.Helper()
	c, err := ts.connect(signer, term)
	if err != nil {
		t.Fatal(err)
	}
	c.t = t
	t.Cleanup(func() { c.conn.Close() })
	return c
}

// connect is open without a test to fail: for clients on goroutines.
func (ts *testServer) connect(signer gossh.Signer, term terminal) (*client, error) {
	var (
		conn  *gossh.Client
		stall func()
		err   error
	)
	if term.deaf {
		conn, stall, err = ts.dialStalling(signer)
	} else {
		conn, err = ts.dial(gossh.PublicKeys(signer))
	}
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	c := &client{conn: conn, done: make(chan error, 1)}
	fail := func(err error) (*client, error) {
		conn.Close()
		return nil, err
	}
	if c.sess, err = conn.NewSession(); err != nil {
		return fail(err)
	}
	for k, v := range term.env {
		if err := c.sess.Setenv(k, v); err != nil {
			return fail(err)
		}
	}
	if c.stdin, err = c.sess.StdinPipe(); err != nil {
		return fail(err)
	}
	stdout, err := c.sess.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	c.sess.Stderr = &c.errOut
	if err := c.sess.RequestPty("xterm-256color", term.height, term.width, gossh.TerminalModes{}); err != nil {
		return fail(err)
	}
	if err := c.sess.Shell(); err != nil {
		return fail(err)
	}
	if term.deaf {
		stall()
	} else {
		w, h := emulated(term.width, term.height)
		c.vt = vt.NewEmulator(w, h)
		c.resize, c.stale = [2]int{w, h}, true
		go func() { _, _ = io.Copy(io.Discard, c.vt) }() // its own answers: read's are the client's
		go c.read(stdout, term)
	}
	go func() { c.done <- c.sess.Wait() }()
	return c, nil
}

// read keeps the output, shows it and answers the background query
// (OSC 11 and the primary device attributes that follow it).
func (c *client) read(r io.Reader, term terminal) {
	defer c.vt.InputPipe().(*io.PipeWriter).Close() // ends the copy of its answers
	colour := "0000/0000/0000"
	if term.light {
		colour = "ffff/ffff/ffff"
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if bytes.Contains(chunk, []byte("\x1b]11;?")) && !term.mute {
				_, _ = io.WriteString(c.stdin, "\x1b]11;rgb:"+colour+"\x07\x1b[?62;22c")
			}
			_, _ = c.out.Write(chunk)
			c.mu.Lock()
			c.resized()
			_, _ = c.vt.Write(chunk)
			c.stale = true
			c.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// screen is what the lab drew so far, escape sequences removed.
func (c *client) screen() string { return ansi.Strip(c.out.String()) }

// display is what the terminal shows now, line by line.
func (c *client) display() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.resized()
	if c.stale {
		c.shown, c.stale = c.vt.String(), false
	}
	return c.shown
}

// windowChange resizes the terminal: the client's emulator, then the
// session's window.
func (c *client) windowChange(width, height int) error {
	c.mu.Lock()
	c.resize[0], c.resize[1] = emulated(width, height)
	c.mu.Unlock()
	return c.sess.WindowChange(height, width)
}

// resized gives vt the size it is to have (c.mu held); a burst of
// resizes costs one.
func (c *client) resized() {
	if w, h := c.resize[0], c.resize[1]; w != c.vt.Width() || h != c.vt.Height() {
		c.vt.Resize(w, h)
		c.stale = true
	}
}

// emulated is the size of the emulator for a terminal of width x height:
// 80x24 for a size of 0, and at most a cell more than a lab is drawn
// (past it, a lab drawn too large shows as one cell too wide or tall).
func emulated(width, height int) (int, int) {
	if width <= 0 {
		width = 80
	}
	if height <= 0 {
		height = 24
	}
	return min(width, maxWidth+1), min(height, maxHeight+1)
}

// waitFor waits until the lab has drawn text.
func (c *client) waitFor(text string) {
	c.t.Helper()
	if err := c.await(text); err != nil {
		c.t.Fatalf("%v\nstderr: %s", err, c.errOut.String())
	}
}

// await is waitFor without a test to fail.
func (c *client) await(text string) error {
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(c.screen(), text) {
		if time.Now().After(deadline) {
			return fmt.Errorf("the lab never showed %q; it showed:\n%s", text, tail(c.screen(), 3000))
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// mark forgets what was drawn so far, so that waitFor looks at what comes.
func (c *client) mark() {
	c.out.mu.Lock()
	c.out.b.Reset()
	c.out.mu.Unlock()
}

// keys types keys: "\r" enter, "\x1b[B" down, "\x7f" backspace.
func (c *client) keys(keys ...string) {
	c.t.Helper()
	for _, k := range keys {
		if _, err := io.WriteString(c.stdin, k); err != nil {
			c.t.Fatalf("typing %q: %v", k, err)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// wait waits for the session to end and returns its exit status.
func (c *client) wait() int {
	c.t.Helper()
	st, err := c.status()
	if err != nil {
		c.t.Fatalf("%v; the lab showed:\n%s", err, tail(c.screen(), 2000))
	}
	return st
}

// status is wait without a test to fail.
func (c *client) status() (int, error) {
	select {
	case err := <-c.done:
		var ee *gossh.ExitError
		switch {
		case err == nil:
			return 0, nil
		case errors.As(err, &ee):
			return ee.ExitStatus(), nil
		}
		return -1, fmt.Errorf("session ended without a status: %w", err)
	case <-time.After(10 * time.Second):
		return -1, errors.New("the session did not end")
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// eventually waits up to 10 s for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func userDir(ts *testServer, s gossh.Signer) string {
	return filepath.Join(ts.stateDir, "users", newUser(s.PublicKey(), "").id)
}

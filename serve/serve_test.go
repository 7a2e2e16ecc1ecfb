package serve

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

const (
	enter = "\r"
	down  = "\x1b[B"
	bs    = "\x7f"
	ctrlU = "\x15" // clears a text field
)

func TestAuthorisedKeyGetsTheLab(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.open(t, ts.alice, xterm)
	c.waitFor("Built-in sets")
	c.waitFor("iris")
	c.keys("q")
	if st := c.wait(); st != 0 {
		t.Fatalf("quitting the lab: exit status %d, want 0", st)
	}
	logs := ts.logs.String()
	for _, want := range []string{`msg="session start"`, "user=SHA256:", `msg="session end"`, "reason=quit"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}

func TestOnlyListedKeysGetIn(t *testing.T) {
	ts := startServer(t, nil)
	if c, err := ts.dial(gossh.PublicKeys(ts.eve)); err == nil {
		c.Close()
		t.Fatal("an unknown key got in")
	}
	if c, err := ts.dial(gossh.Password("hunter2")); err == nil {
		c.Close()
		t.Fatal("a password got in")
	}
	answered := false
	if c, err := ts.dial(gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		answered = true
		return []string{"hunter2"}, nil
	})); err == nil || answered {
		if c != nil {
			c.Close()
		}
		t.Fatalf("keyboard-interactive was offered (answered %v, err %v)", answered, err)
	}
	// A key that gets in still needs a terminal for its lab.
	conn, err := ts.dial(gossh.PublicKeys(ts.alice))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	sess.Stderr = &stderr
	if err := sess.Run("ls /"); err == nil || !strings.Contains(stderr.String(), "the lab needs a terminal: connect with ssh -t") {
		t.Fatalf("a command without a terminal: %v, told %q", err, stderr.String())
	}
	eventually(t, "the refusals logged", func() bool {
		logs := ts.logs.String()
		return strings.Contains(logs, `msg="authentication refused"`) && strings.Count(logs, `msg="connection failed"`) >= 3
	})
	if !strings.Contains(ts.logs.String(), gossh.FingerprintSHA256(ts.eve.PublicKey())) {
		t.Errorf("the refused key's fingerprint is not logged:\n%s", ts.logs.String())
	}
}

// A path typed or picked in the lab that leaves the data directory is
// refused, whichever way it leaves.
func TestFilesOutsideTheDataDirectoryAreRefused(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.open(t, ts.alice, terminal{width: 160, height: 30})
	c.waitFor("Built-in sets")
	for _, path := range []string{"../secret.csv", "escape.csv", "/etc/passwd", "sub/../../secret.csv"} {
		c.mark()
		c.keys("p", ctrlU, path, enter)
		c.waitFor(path + " is outside the data directory")
	}
	c.keys("p", ctrlU, "flowers.csv", enter)
	c.waitFor("4 rows")
}

// Keys typed in one write, faster than the lab draws, and a paste reach
// the lab whole and in order; a paste outside a text field is not taken
// for keys (a pasted q does not quit).
func TestFastTypingAndPastes(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.open(t, ts.alice, terminal{width: 160, height: 30})
	c.waitFor("Built-in sets")
	paste := func(s string) string { return "\x1b[200~" + s + "\x1b[201~" }
	c.keys(paste("q"))
	c.keys("p", ctrlU, paste("../secret.csv"), enter)
	c.waitFor("../secret.csv is outside the data directory")
	c.keys("p" + ctrlU + "flowers.csv" + enter)
	c.waitFor("4 rows")
	c.keys("q")
	if st := c.wait(); st != 0 {
		t.Fatalf("q: exit %d", st)
	}
}

// trainIris trains categorical naive Bayes (the first classifier listed)
// on iris, with the keys a person would press.
func trainIris(c *client) {
	c.waitFor("Built-in sets")
	c.keys(enter) // iris: load and preview
	c.waitFor("use this data")
	c.keys(enter) // on to the models
	c.waitFor("Models for classification")
	c.keys(enter) // cnb
	c.waitFor("enter trains with these settings")
	c.keys(enter)
}

func TestTwoLabsDoNotSeeEachOther(t *testing.T) {
	ts := startServer(t, nil)
	a := ts.open(t, ts.alice, xterm)
	b := ts.open(t, ts.bob, xterm)
	trainIris(a)
	a.waitFor("accuracy")
	defer func() {
		if t.Failed() {
			filepath.Walk(ts.stateDir, func(p string, _ os.FileInfo, _ error) error { t.Log(p); return nil })
			t.Log(a.screen()[max(0, len(a.screen())-3000):])
		}
	}()
	eventually(t, "alice's run in her history", func() bool {
		h, err := os.ReadFile(filepath.Join(userDir(ts, ts.alice), "history.jsonl"))
		return err == nil && strings.Count(string(h), "\n") == 1
	})
	b.waitFor("Built-in sets")
	b.mark()
	b.keys("R")
	b.waitFor("No runs yet")
	if strings.Contains(b.screen(), "iris ·") {
		t.Fatalf("bob's runs screen shows alice's run:\n%s", b.screen())
	}
	if _, err := os.Stat(filepath.Join(userDir(ts, ts.bob), "history.jsonl")); err == nil {
		t.Fatal("bob has a history without having trained")
	}
	// Alice's next session has her run back; her screen was hers alone.
	a.keys("q")
	a.wait()
	a2 := ts.open(t, ts.alice, xterm)
	a2.waitFor("Built-in sets")
	a2.keys("R")
	a2.waitFor("Runs (1, 1 from earlier sessions)")
	if strings.Contains(b.screen(), "accuracy") {
		t.Fatal("bob's screen shows alice's results")
	}
}

// With one training slot, a second run waits in line and starts as soon as
// the first one's session disconnects.
func TestDisconnectFreesTheTrainingSlot(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxTraining = 1 })
	a := ts.open(t, ts.alice, xterm)
	a.waitFor("Built-in sets")
	a.keys(enter)
	a.waitFor("use this data")
	a.keys(enter)
	a.waitFor("Models for classification")
	a.keys("/", "mlp", enter)
	a.keys(enter)
	a.waitFor("enter trains with these settings")
	a.keys(down, down, down, down, down, down, bs, bs, bs, "100000", enter) // a long run
	a.waitFor("epochs=100000")
	eventually(t, "alice's run holding the slot", func() bool { n, _ := ts.Training(); return n == 1 })

	b := ts.open(t, ts.bob, xterm)
	trainIris(b)
	b.waitFor("waiting for a training slot (1st in line)")
	if n, q := ts.Training(); n != 1 || q != 1 {
		t.Fatalf("training %d, queued %d; want 1 and 1", n, q)
	}
	a.conn.Close() // alice's connection drops mid-training
	b.waitFor("accuracy")
	eventually(t, "every slot free", func() bool { n, q := ts.Training(); return n == 0 && q == 0 })
	eventually(t, "alice's session ended", func() bool { return ts.Sessions() == 1 })
}

func TestSessionsBeyondTheCapAreRefused(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxSessions = 2 })
	a := ts.open(t, ts.alice, xterm)
	b := ts.open(t, ts.bob, xterm)
	a.waitFor("Built-in sets")
	b.waitFor("Built-in sets")
	c := ts.open(t, ts.alice, xterm)
	if st := c.wait(); st != 1 {
		t.Fatalf("the third session: exit status %d, want 1", st)
	}
	if got := c.errOut.String(); !strings.Contains(got, "all 2 labs of this server are in use; try again later") || strings.Count(got, "\n") != 1 {
		t.Fatalf("the third session was told %q, want one line saying the labs are in use", got)
	}
	b.keys("q")
	b.wait()
	d := ts.open(t, ts.bob, xterm) // a place freed is a place taken
	d.waitFor("Built-in sets")
}

func TestIdleLabIsClosedWithAMessage(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.IdleTimeout = 300 * time.Millisecond })
	c := ts.open(t, ts.alice, xterm)
	c.waitFor("Built-in sets")
	if st := c.wait(); st != 0 {
		t.Fatalf("exit status %d, want 0", st)
	}
	if got := c.errOut.String(); !strings.Contains(got, "this lab closed after 300ms without a key press") {
		t.Fatalf("the person was told %q", got)
	}
}

func TestShutdownTellsEveryone(t *testing.T) {
	ts := startServer(t, nil)
	a := ts.open(t, ts.alice, xterm)
	b := ts.open(t, ts.bob, xterm)
	a.waitFor("Built-in sets")
	b.waitFor("Built-in sets")
	ts.stop(t)
	for _, c := range []*client{a, b} {
		c.wait()
		if got := c.errOut.String(); !strings.Contains(got, "the server is shutting down") {
			t.Errorf("a person was told %q at shutdown", got)
		}
	}
	if _, err := ts.dial(gossh.PublicKeys(ts.alice)); err == nil {
		t.Error("the server still accepts connections after shutdown")
	}
}

// Each lab is drawn for its own terminal: its size and resizes, its
// colours (256 here, none under NO_COLOR) and its background (dark at
// first, light once a light terminal has said so); the footer names the
// theme when the terminal is wide enough.
func TestEachLabIsDrawnForItsTerminal(t *testing.T) {
	ts := startServer(t, nil)
	dark := ts.open(t, ts.alice, terminal{width: 140, height: 30})
	plain := ts.open(t, ts.bob, terminal{width: 130, height: 28, env: map[string]string{"NO_COLOR": "1"}})
	light := ts.open(t, ts.alice, terminal{width: 150, height: 30, light: true})
	for _, c := range []*client{dark, plain, light} {
		c.waitFor("Built-in sets")
	}
	eventually(t, "each lab as wide as its terminal", func() bool {
		return hasLineOfWidth(dark.display(), "╭─ Data", 140) && hasLineOfWidth(plain.display(), "╭─ Data", 130) && hasLineOfWidth(light.display(), "╭─ Data", 150)
	})
	for _, tc := range []struct {
		c     *client
		theme string
	}{{dark, "dark"}, {plain, "mono"}, {light, "light"}} {
		eventually(t, "theme: "+tc.theme+" in the footer", func() bool { return strings.Contains(tc.c.display(), "theme: "+tc.theme) })
	}
	if !strings.Contains(dark.out.String(), "38;5;") {
		t.Error("the 256-colour terminal got no 256-colour text")
	}
	if raw := plain.out.String(); strings.Contains(raw, "38;5;") || strings.Contains(raw, "48;5;") {
		t.Error("the NO_COLOR terminal got colours")
	} else if !reverse.MatchString(raw) {
		t.Error("the NO_COLOR terminal got no reverse video (its selection)")
	}
	if colours(dark.out.String()) == colours(light.out.String()) {
		t.Error("the dark and the light terminal got the same colours")
	}
	if err := dark.windowChange(160, 40); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the lab redrawn 160 wide", func() bool { return hasLineOfWidth(dark.display(), "╭─ Data", 160) })
	if strings.Contains(dark.display(), "theme: light") {
		t.Error("the dark terminal got the light theme")
	}
}

// hasLineOfWidth reports whether a line holding text is w cells wide and
// ends a panel there (╮, not a line cut at the edge).
func hasLineOfWidth(screen, text string, w int) bool {
	for _, line := range strings.FieldsFunc(screen, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line = strings.TrimRight(line, " ")
		if strings.Contains(line, text) && strings.HasSuffix(line, "╮") && ansi.StringWidth(line) == w {
			return true
		}
	}
	return false
}

// reverse is an SGR sequence that turns reverse video on.
var reverse = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m`)

// colours is the set of 256-colour codes in raw output, in order of first use.
func colours(raw string) string {
	var seen []string
	for _, part := range strings.Split(raw, "38;5;")[1:] {
		code, _, _ := strings.Cut(part, "m")
		if !strings.Contains(strings.Join(seen, ","), code) {
			seen = append(seen, code)
		}
	}
	return strings.Join(seen, ",")
}

var _ = context.Background

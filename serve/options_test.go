package serve

import (
	"log/slog"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// startWithKeys starts a server whose authorized keys list alice on one
// line per options given ("" none).
func startWithKeys(t *testing.T, options ...string) *testServer {
	return startServerWith(t, func(ts *testServer, c *Config) {
		key := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ts.alice.PublicKey())))
		var text string
		for _, o := range options {
			text += strings.TrimSpace(o+" "+key) + " alice\n"
		}
		writeFile(t, c.AuthorizedKeys, text)
	})
}

// authorized_keys options are honoured as sshd honours them: from= limits
// where the key may come from, expiry-time when, no-pty and restrict take
// the terminal (so the lab) away.
func TestAuthorizedKeysOptionsAreHonoured(t *testing.T) {
	for _, tc := range []struct {
		options string
		in      bool
	}{
		{`from="10.9.9.9"`, false},
		{`from="127.0.0.1"`, true},
		{`from="127.0.0.*,10.9.9.9"`, true},
		{`from="127.0.0.0/8"`, true},
		{`from="10.0.0.0/8"`, false},
		{`from="*,!127.0.0.1"`, false},
		{`expiry-time="20200101"`, false},
		{`expiry-time="29990101Z"`, true},
		{`no-agent-forwarding,no-port-forwarding`, true},
	} {
		ts := startWithKeys(t, tc.options)
		c, err := ts.dial(gossh.PublicKeys(ts.alice))
		if c != nil {
			c.Close()
		}
		if (err == nil) != tc.in {
			t.Errorf("%s from 127.0.0.1: connected %v, want %v", tc.options, err == nil, tc.in)
		}
		if !tc.in && !strings.Contains(ts.logs.String(), `msg="authentication refused"`) {
			t.Errorf("%s: the refusal is not logged:\n%s", tc.options, ts.logs.String())
		}
	}
}

func TestNoPtyKeysGetNoLab(t *testing.T) {
	for _, options := range []string{"no-pty", "restrict"} {
		ts := startWithKeys(t, options)
		conn, err := ts.dial(gossh.PublicKeys(ts.alice))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		sess, err := conn.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestPty("xterm", 30, 100, gossh.TerminalModes{}); err == nil {
			t.Fatalf("%s: a terminal was granted", options)
		}
		var stderr syncBuffer
		sess.Stderr = &stderr
		if err := sess.Run(""); err == nil || !strings.Contains(stderr.String(), "this key may not open a terminal") {
			t.Fatalf("%s: %v, told %q", options, err, stderr.String())
		}
		ts.sftpClient(t, ts.alice) // their files are still theirs
	}
	ts := startWithKeys(t, "restrict,pty")
	c := ts.open(t, ts.alice, xterm)
	c.waitFor("Built-in sets")
}

// A line whose options the server cannot honour is left out, with a log
// line naming it; the others still count.
func TestKeysWithOptionsThatCannotBeHonouredAreRefused(t *testing.T) {
	dir := t.TempDir()
	key := func() string { return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(newSigner(t).PublicKey()))) }
	path := filepath.Join(dir, "keys")
	lines := []string{
		key() + " plain",
		`command="ls" ` + key() + " cmd",
		`permitopen="localhost:80" ` + key() + " open",
		`environment="A=1" ` + key() + " env",
		`tunnel="1" ` + key() + " tun",
		`frobnicate ` + key() + " unknown",
		`from="10.0.0.0/99" ` + key() + " badcidr",
		`expiry-time="2020" ` + key() + " badtime",
	}
	writeFile(t, path, strings.Join(lines, "\n")+"\n")
	var logs syncBuffer
	users, err := readAuthorizedKeys(path, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil || len(users) != 1 {
		t.Fatalf("%v, %d users; want only the plain key", err, len(users))
	}
	for line := 2; line <= len(lines); line++ {
		if !strings.Contains(logs.String(), "line="+string(rune('0'+line))) {
			t.Errorf("line %d (%s) not named in the log:\n%s", line, lines[line-1][:12], logs.String())
		}
	}
	writeFile(t, path, lines[1]+"\n")
	if _, err := readAuthorizedKeys(path, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "cannot honour") {
		t.Fatalf("only refused keys: %v", err)
	}
}

func TestFromPatterns(t *testing.T) {
	ip := netip.MustParseAddr
	for _, tc := range []struct {
		list string
		ip   string
		want bool
	}{
		{"10.9.9.9", "127.0.0.1", false},
		{"127.0.0.1", "127.0.0.1", true},
		{"127.0.0.?", "127.0.0.1", true},
		{"127.0.0.?", "127.0.0.10", false},
		{"*", "::1", true},
		{"::1", "::1", true},
		{"192.168.0.0/16,!192.168.1.0/24", "192.168.2.3", true},
		{"192.168.0.0/16,!192.168.1.0/24", "192.168.1.3", false},
		{"!10.0.0.1", "10.0.0.2", false}, // a negation alone admits nobody
		{"*.example.com", "127.0.0.1", false},
	} {
		if got := matchFrom(strings.Split(tc.list, ","), ip(tc.ip)); got != tc.want {
			t.Errorf("from=%q, %s: %v, want %v", tc.list, tc.ip, got, tc.want)
		}
	}
	if g, err := parseOptions([]string{`expiry-time="20300102"`}); err != nil || g.admits(ip("::1"), time.Date(2030, 1, 2, 0, 0, 0, 0, time.Local)) == "" {
		t.Fatalf("expiry at its time: %v %+v", err, g)
	}
}

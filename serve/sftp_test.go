package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pkg/sftp"
	gossh "golang.org/x/crypto/ssh"
)

// sftpClient opens an SFTP session as signer.
func (ts *testServer) sftpClient(t *testing.T, signer gossh.Signer) *sftp.Client {
	t.Helper()
	conn, err := ts.dial(gossh.PublicKeys(signer))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c, err := sftp.NewClient(conn)
	if err != nil {
		t.Fatalf("sftp: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func names(t *testing.T, c *sftp.Client, dir string) []string {
	t.Helper()
	infos, err := c.ReadDir(dir)
	if err != nil {
		t.Fatalf("ls %s: %v", dir, err)
	}
	var ns []string
	for _, fi := range infos {
		ns = append(ns, fi.Name())
	}
	slices.Sort(ns)
	return ns
}

// Over SFTP a person sees their own directory as "/": they list and fetch
// their files, upload data, and reach nothing outside it, by .., by an
// absolute path or by a link; the lab's own history can be fetched, not
// replaced; bob sees none of alice's files.
func TestSFTPServesTheUsersOwnDirectoryOnly(t *testing.T) {
	ts := startServer(t, nil)
	home := userDir(ts, ts.alice)
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "model.json"), "{}\n")
	writeFile(t, filepath.Join(home, "history.jsonl"), "{\"id\":\"1\"}\n")
	secret := filepath.Join(filepath.Dir(ts.dataDir), "secret.csv")
	if err := os.Symlink(secret, filepath.Join(home, "link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(ts.dataDir), filepath.Join(home, "up")); err != nil {
		t.Fatal(err)
	}
	c := ts.sftpClient(t, ts.alice)

	if got := names(t, c, "/"); !slices.Equal(got, []string{"history.jsonl", "link.csv", "model.json", "up"}) {
		t.Fatalf("ls /: %v", got)
	}
	if wd, err := c.Getwd(); err != nil || wd != "/" {
		t.Fatalf("the working directory is %q (%v), want /", wd, err)
	}
	read := func(name string) (string, error) {
		f, err := c.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		return string(b), err
	}
	if got, err := read("model.json"); err != nil || got != "{}\n" {
		t.Fatalf("get model.json: %q, %v", got, err)
	}
	for _, name := range []string{"../secret.csv", "/../../secret.csv", "../../data/flowers.csv", "link.csv", "up/secret.csv", secret, "/etc/passwd"} {
		if got, err := read(name); err == nil {
			t.Errorf("get %s from outside: read %q", name, got)
		}
		if _, err := c.ReadDir(filepath.Dir(name)); err == nil && strings.Contains(name, "up/") {
			t.Errorf("ls %s: listed a directory outside", filepath.Dir(name))
		}
	}
	if ns := names(t, c, "/.."); slices.Contains(ns, "secret.csv") || slices.Contains(ns, "data") {
		t.Fatalf("ls /..: %v", ns)
	}

	// Uploads land in the directory; the lab's own files stay its own.
	f, err := c.Create("upload.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("a,y\n1,x\n")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if b, err := os.ReadFile(filepath.Join(home, "upload.csv")); err != nil || string(b) != "a,y\n1,x\n" {
		t.Fatalf("the upload: %q, %v", b, err)
	}
	if err := c.Mkdir("sets"); err != nil {
		t.Fatal(err)
	}
	if err := c.Rename("upload.csv", "sets/upload.csv"); err != nil {
		t.Fatal(err)
	}
	for what, err := range map[string]error{
		"put history.jsonl":    func() error { _, err := c.Create("history.jsonl"); return err }(),
		"rm history.jsonl":     c.Remove("history.jsonl"),
		"rename onto history":  c.PosixRename("sets/upload.csv", "history.jsonl"),
		"put through a link":   func() error { _, err := c.Create("up/x.csv"); return err }(),
		"write through a link": func() error { _, err := c.OpenFile("link.csv", os.O_WRONLY); return err }(),
		"symlink":              c.Symlink("/etc/passwd", "p"),
	} {
		if err == nil {
			t.Errorf("%s: allowed", what)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, "history.jsonl")); string(b) != "{\"id\":\"1\"}\n" {
		t.Fatalf("the history was changed: %q", b)
	}
	if f, err := c.Create("../../x.csv"); err != nil { // "/.." is "/"
		t.Fatal(err)
	} else {
		f.Close()
	}
	if _, err := os.Stat(filepath.Join(home, "x.csv")); err != nil {
		t.Fatalf("../../x.csv is not in the directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(ts.dataDir), "x.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a file was written outside: %v", err)
	}
	if b, _ := os.ReadFile(secret); string(b) != "s,t\n1,2\n" {
		t.Fatalf("the file outside was changed: %q", b)
	}
	if _, err := c.ReadLink("link.csv"); err == nil {
		t.Error("a link's target (a server path) was told")
	}

	// Bob's directory is his own.
	if got := names(t, ts.sftpClient(t, ts.bob), "/"); len(got) != 0 {
		t.Fatalf("bob sees %v", got)
	}
	eventually(t, "the sessions logged", func() bool {
		return strings.Contains(ts.logs.String(), `msg="sftp start"`) && strings.Contains(ts.logs.String(), `msg="sftp refused"`)
	})
}

// The system's sftp and scp (when installed) list and fetch the person's
// files, exit 0, and get nothing from outside.
func TestSystemSFTPAndSCP(t *testing.T) {
	sftpBin, err1 := exec.LookPath("sftp")
	scpBin, err2 := exec.LookPath("scp")
	if err1 != nil || err2 != nil {
		t.Skip("no sftp or scp here")
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "id")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	ts := startServerWith(t, func(_ *testServer, c *Config) {
		writeFile(t, c.AuthorizedKeys, string(gossh.MarshalAuthorizedKey(signer.PublicKey())))
	})
	home := userDir(ts, signer)
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "model.json"), "{}\n")
	_, port, _ := net.SplitHostPort(ts.addr)
	opts := []string{"-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes", "-i", keyFile, "-P", port}
	run := func(bin string, stdin string, args ...string) (string, error) {
		cmd := exec.Command(bin, append(slices.Clone(opts), args...)...)
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run(sftpBin, "ls\nget model.json got.json\n-get ../../secret.csv s.csv\n-get /etc/passwd p\n", "-b", "-", "tester@127.0.0.1")
	if err != nil || !strings.Contains(out, "model.json") {
		t.Fatalf("sftp: %v\n%s", err, out)
	}
	if out, err := run(scpBin, "", "tester@127.0.0.1:model.json", "scp.json"); err != nil {
		t.Fatalf("scp: %v\n%s", err, out)
	}
	for _, name := range []string{"got.json", "scp.json"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != "{}\n" {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
	for _, name := range []string{"s.csv", "p"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was fetched from outside", name)
		}
	}
}

// SFTP sessions count against the cap (as labs, apart from them), and
// shutdown ends them.
func TestSFTPSessionsAreCappedAndEndAtShutdown(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxSessions = 1 })
	c := ts.sftpClient(t, ts.alice)
	if _, err := c.Getwd(); err != nil {
		t.Fatal(err)
	}
	conn, err := ts.dial(gossh.PublicKeys(ts.bob))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if extra, err := sftp.NewClient(conn); err == nil {
		_, err = extra.ReadDir("/")
		if err == nil {
			t.Fatal("a second SFTP session beyond the cap of 1 was served")
		}
	}
	ts.stop(t)
	if _, err := c.ReadDir("/"); err == nil {
		t.Fatal("the SFTP session outlived the server's shutdown")
	}
}

// An SFTP session that asks for nothing for --idle-timeout is closed, and
// its place freed.
func TestIdleSFTPSessionIsClosed(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.IdleTimeout = 200 * time.Millisecond
		c.MaxSessions = 1
	})
	c := ts.sftpClient(t, ts.alice)
	if _, err := c.Getwd(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the idle session closed and ended", func() bool {
		return strings.Contains(ts.logs.String(), `msg="sftp closed"`) && strings.Contains(ts.logs.String(), `msg="sftp end"`)
	})
	if _, err := c.ReadDir("/"); err == nil {
		t.Fatal("the idle session still answers")
	}
	ts.sftpClient(t, ts.bob) // its place is free
}

// An idle SFTP session is closed alone: a lab on the same connection (as
// OpenSSH's ControlMaster multiplexes them) goes on.
func TestIdleSFTPSessionLeavesItsConnection(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.IdleTimeout = 300 * time.Millisecond })
	lab := ts.open(t, ts.alice, xterm)
	lab.waitFor("Built-in sets")
	files, err := sftp.NewClient(lab.conn)
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	if _, err := files.Getwd(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(ts.logs.String(), `msg="sftp end"`); { // the lab kept busy meanwhile
		if time.Now().After(deadline) {
			t.Fatal("the idle SFTP session never ended")
		}
		lab.keys(down)
	}
	if _, err := files.ReadDir("/"); err == nil {
		t.Fatal("the idle SFTP session still answers")
	}
	lab.keys("q")
	if st := lab.wait(); st != 0 {
		t.Fatalf("the lab on the same connection: exit %d", st)
	}
}

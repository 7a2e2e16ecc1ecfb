package tui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tealab/tealab/confine"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/data"
)

// confined is a common whose files are kept in a data directory (holding
// a.csv and sub/) and a home directory, both in a temporary directory.
func confined(t *testing.T) (*kit.Common, string) {
	t.Helper()
	base := t.TempDir()
	for _, d := range []string{"data/sub", "home"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "data", "a.csv"), []byte("x\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := confine.New(filepath.Join(base, "data"), "the data directory")
	if err != nil {
		t.Fatal(err)
	}
	home, err := confine.New(filepath.Join(base, "home"), "your own directory")
	if err != nil {
		t.Fatal(err)
	}
	c := plainCommon(t)
	c.Files = &kit.Files{Data: data, Home: home}
	return c, base
}

// A confined lab reads data in its data directory and writes in its home
// only; built-in and generator names are not files.
func TestConfinedPaths(t *testing.T) {
	t.Parallel()
	c, base := confined(t)
	for _, name := range []string{"iris", "moons:n=50", "blobs(n=30)"} {
		if got, err := c.DataSource(name); err != nil || got != name {
			t.Errorf("dataSource(%q) = %q, %v: want it unchanged", name, got, err)
		}
	}
	if got, err := c.DataSource("a.csv"); err != nil || got != filepath.Join(base, "data", "a.csv") {
		t.Errorf("dataSource(a.csv) = %q, %v", got, err)
	}
	if _, err := c.DataSource("../home/x.csv"); err == nil || !strings.Contains(err.Error(), "outside the data directory") {
		t.Errorf("a data file outside: %v", err)
	}
	if got, err := c.WritePath("m.json"); err != nil || got != filepath.Join(base, "home", "m.json") {
		t.Errorf("writePath(m.json) = %q, %v", got, err)
	}
	for _, name := range []string{"../data/m.json", "sub/../../x", filepath.Join(base, "m.json")} {
		if _, err := c.WritePath(name); err == nil || !strings.Contains(err.Error(), "outside your own directory") {
			t.Errorf("writePath(%q): %v, want a refusal", name, err)
		}
	}
	if c.ReportDir() != filepath.Join(base, "home") || c.Store().Dir != filepath.Join(base, "home") {
		t.Error("exports or the run history are not in the home directory")
	}
}

// A confined file browser starts in the data directory and never goes
// above it.
func TestConfinedFileBrowserStaysInside(t *testing.T) {
	t.Parallel()
	c, base := confined(t)
	b := data.NewFileBrowser(c.Files)
	if b.Dir != filepath.Join(base, "data") {
		t.Fatalf("starts in %s", b.Dir)
	}
	b.Update(b.Read(b.Dir)())
	if cmd := b.Update(keyMsg("backspace")); cmd != nil {
		t.Fatalf("the parent of the data directory was read: %#v", cmd())
	}
	if msg := b.Read(base)().(data.DirReadMsg); msg.Err == nil {
		t.Fatal("a directory above the data directory was listed")
	}
	if !strings.Contains(b.View(c, 60, 5), "data directory: .") {
		t.Fatalf("the browser shows the server's path:\n%s", b.View(c, 60, 5))
	}
}

// S never replaces the lab's own files: the run history and its lock.
func TestWritePathRefusesTheLabsOwnFiles(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	t.Setenv("TEALAB_HISTORY", "")
	c := &kit.Common{}
	for _, name := range []string{"history.jsonl", "history.lock"} {
		if _, err := c.WritePath(filepath.Join(dir, "tealab", name)); err == nil || !strings.Contains(err.Error(), "the lab's own file") {
			t.Errorf("saving as %s: %v, want a refusal", name, err)
		}
	}
	if p, err := c.WritePath(filepath.Join(dir, "tealab", "model.json")); err != nil || filepath.Base(p) != "model.json" {
		t.Errorf("model.json: %q, %v", p, err)
	}
}

// A confined lab names files relative to its directories and takes their
// places on the server out of messages; ~ is not the server's home there,
// and its own history cannot be saved over.
func TestConfinedLabShowsNoServerPath(t *testing.T) {
	t.Parallel()
	c, base := confined(t)
	home, data := c.Files.Home.Dir(), c.Files.Data.Dir()
	if got := c.Shown(filepath.Join(data, "sub", "a.csv")); got != filepath.Join("sub", "a.csv") {
		t.Errorf("a data file shown as %q", got)
	}
	if got := c.Shown(filepath.Join(home, "m.json")); got != "m.json" {
		t.Errorf("a file of the person's shown as %q", got)
	}
	if got := c.Shown("builtin:iris"); got != "builtin:iris" {
		t.Errorf("a built-in shown as %q", got)
	}
	for _, msg := range []string{"open " + filepath.Join(home, "m.json") + ": permission denied", "wrote a.md in " + home, "lstat " + data + ": denied"} {
		if got := c.Hide(msg); strings.Contains(got, base) {
			t.Errorf("%q hidden as %q", msg, got)
		}
	}
	if got := c.TypedPath("~/x.csv"); got != "~/x.csv" {
		t.Errorf("~/x.csv typed in a confined lab became %q", got)
	}
	if _, err := c.WritePath("history.jsonl"); err == nil || strings.Contains(err.Error(), base) {
		t.Errorf("saving over the history: %v", err)
	}
}

// Why the run history could not be read or written is told without the
// server's path of it (a served lab's history refused by its size cap).
func TestHistoryErrorsShowNoServerPath(t *testing.T) {
	t.Parallel()
	c, base := confined(t)
	a := newTestApp(t, Options{Files: c.Files}, 100, 30)
	err := errors.New(filepath.Join(c.Files.Home.Dir(), "history.jsonl") + " is larger than 64 MB")
	a.historyLoaded(historyLoadedMsg{err: err})
	if strings.Contains(a.runs.Note, base) || !strings.Contains(a.runs.Note, "history.jsonl is larger") {
		t.Errorf("loading told %q", a.runs.Note)
	}
	a.historySaved(historySavedMsg{err: err})
	if strings.Contains(a.runs.Note, base) || !strings.Contains(a.runs.Note, "not recorded: history.jsonl is larger") {
		t.Errorf("saving told %q", a.runs.Note)
	}
}

// A confined lab opens the person's own files (their uploads) too, named
// ~/, from the file browser's ~ or typed, and still nothing outside.
func TestConfinedLabOpensTheUsersOwnFiles(t *testing.T) {
	t.Parallel()
	c, base := confined(t)
	if err := os.WriteFile(filepath.Join(base, "home", "up.csv"), []byte("x\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := c.DataSource("~/up.csv"); err != nil || got != filepath.Join(base, "home", "up.csv") {
		t.Errorf("dataSource(~/up.csv) = %q, %v", got, err)
	}
	if _, err := c.DataSource("~/../data/a.csv"); err == nil || !strings.Contains(err.Error(), "outside your own directory") {
		t.Errorf("~/.. reached outside: %v", err)
	}
	b := data.NewFileBrowser(c.Files)
	b.Update(b.Read(b.Dir)())
	b.Update(b.Update(keyMsg("~"))())
	if v := b.View(c, 60, 5); !strings.Contains(v, "your files: ~") || !strings.Contains(v, "up.csv") || strings.Contains(v, base) {
		t.Fatalf("~ shows:\n%s", v)
	}
	if cmd := b.Update(keyMsg("backspace")); cmd != nil {
		t.Fatalf("the parent of the person's directory was read: %#v", cmd())
	}
	if msg, _ := b.Update(keyMsg("enter"))().(data.FileChosenMsg); msg.Path != filepath.Join("~", "up.csv") {
		t.Fatalf("opening up.csv chose %q", msg.Path)
	}
	b.Update(b.Update(keyMsg("~"))())
	if v := b.View(c, 60, 5); !strings.Contains(v, "data directory: .") || !strings.Contains(v, "a.csv") {
		t.Fatalf("~ again shows:\n%s", v)
	}
}

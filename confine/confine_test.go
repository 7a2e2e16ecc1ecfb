package confine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is a data directory holding a.csv and sub/b.csv, a link inside it
// (in.csv -> a.csv) and links that leave it (out.csv -> a file outside,
// outdir -> the directory outside).
func root(t *testing.T) (*Root, string) {
	t.Helper()
	base := t.TempDir()
	dir, outside := filepath.Join(base, "data"), filepath.Join(base, "secret")
	for _, d := range []string{filepath.Join(dir, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "sub", "b.csv"), filepath.Join(outside, "key.csv")} {
		if err := os.WriteFile(f, []byte("x\n1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{"in.csv": "a.csv", "out.csv": filepath.Join(outside, "key.csv"), "outdir": outside, "dangling": filepath.Join(outside, "none")}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := New(dir, "the data directory")
	if err != nil {
		t.Fatal(err)
	}
	return r, outside
}

func TestPathAdmitsNamesInside(t *testing.T) {
	r, _ := root(t)
	for name, want := range map[string]string{
		"a.csv":                                "a.csv",
		"sub/b.csv":                            "sub/b.csv",
		"sub/../a.csv":                         "a.csv",
		"in.csv":                               "a.csv", // a link that stays inside
		filepath.Join(r.Dir(), "sub", "b.csv"): "sub/b.csv",
		"new/model.json":                       "new/model.json", // not there yet: a file about to be written
		" a.csv ":                              "a.csv",
	} {
		got, err := r.Path(name)
		if err != nil {
			t.Errorf("Path(%q): %v", name, err)
			continue
		}
		if got != filepath.Join(r.Dir(), want) {
			t.Errorf("Path(%q) = %s, want %s", name, got, filepath.Join(r.Dir(), want))
		}
	}
}

func TestPathRefusesEscapes(t *testing.T) {
	r, outside := root(t)
	for _, name := range []string{"../secret/key.csv", "sub/../../secret/key.csv", "/etc/passwd", filepath.Join(outside, "key.csv"),
		"out.csv", "outdir/key.csv", "outdir/new.json", "dangling", ""} {
		got, err := r.Path(name)
		if err == nil {
			t.Errorf("Path(%q) = %s, want a refusal", name, got)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || (name != "" && name != "dangling" && !strings.Contains(msg, "outside the data directory")) {
			t.Errorf("Path(%q): %q should be one line saying it is outside the data directory", name, msg)
		}
	}
}

func TestNewNeedsADirectory(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{f, filepath.Join(t.TempDir(), "none")} {
		if _, err := New(dir, "the data directory"); err == nil || !strings.Contains(err.Error(), "the data directory") {
			t.Errorf("New(%s): %v, want an error naming the data directory", dir, err)
		}
	}
}

// A refusal can be told apart (ErrOutside), and no error names the
// root's own place on the machine.
func TestErrorsNeverNameTheRoot(t *testing.T) {
	r, _ := root(t)
	if _, err := r.Path("../secret/key.csv"); !errors.Is(err, ErrOutside) {
		t.Fatalf("a name outside: %v, want ErrOutside", err)
	}
	for _, name := range []string{"a.csv/x.csv", filepath.Join(r.Dir(), "a.csv", "x.csv"), "dangling"} {
		_, err := r.Path(name)
		if err == nil || strings.Contains(err.Error(), r.Dir()) || errors.Is(err, ErrOutside) {
			t.Errorf("%s: %v; want an error not naming %s", name, err, r.Dir())
		}
	}
}

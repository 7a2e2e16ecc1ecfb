package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tealab serve's mistakes are one line each: usage errors exit 2, a file
// that cannot be used exits 1 and names its flag.
func TestServeMistakes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys")
	if err := os.WriteFile(keys, []byte("# nobody yet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{nil, 2, "--authorized-keys FILE is required"},
		{[]string{"--authorized-keys", keys, "--max-sessions", "0"}, 2, "--max-sessions must be at least 1"},
		{[]string{"--authorized-keys", keys, "--max-training", "0"}, 2, "--max-training must be at least 1"},
		{[]string{"--authorized-keys", keys, "--idle-timeout", "-1s"}, 2, "--idle-timeout must not be negative"},
		{[]string{"--authorized-keys", keys, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--authorized-keys", filepath.Join(dir, "none")}, 1, "--authorized-keys " + filepath.Join(dir, "none")},
		{[]string{"--authorized-keys", keys}, 1, "lists no key, so nobody could connect"},
	} {
		_, stderr, status := run(t, append([]string{"serve"}, c.args...)...)
		if status != c.status || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("tealab serve %v: status %d, stderr %q; want %d and one line saying %q", c.args, status, stderr, c.status, c.want)
		}
	}
}

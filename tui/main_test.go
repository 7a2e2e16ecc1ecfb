package tui

import (
	"os"
	"testing"
)

// TestMain keeps the tests out of the person's files: the run history is
// off (a test that wants it turns it on in a temporary XDG_DATA_HOME),
// XDG_DATA_HOME is a temporary directory anyway (each test app exports to
// its own temporary directory: newTestApp).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tealab-tui-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	os.Setenv("TEALAB_HISTORY", "off")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

package cli

import (
	"os"
	"testing"
)

// TestMain keeps every test's run history out of the real data directory:
// tealab train records each run under $XDG_DATA_HOME.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tealab-cli-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

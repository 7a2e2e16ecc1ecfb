package tui

import (
	"flag"
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
	waitMoreThanCompute()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// waitMoreThanCompute lets eight tests run at once unless -parallel says
// otherwise: a test of the lab waits on its worker (a fit, a throttle, a
// timer) more than it draws, and two at a time (the default on two cores)
// left the cores idle.
func waitMoreThanCompute() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
}

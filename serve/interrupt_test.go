package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startLongRun has alice's lab train a long MLP on iris.
func startLongRun(t *testing.T, ts *testServer) *client {
	a := ts.open(t, ts.alice, xterm)
	a.waitFor("Built-in sets")
	a.keys(enter)
	a.waitFor("use this data")
	a.keys(enter)
	a.waitFor("Models for classification")
	a.keys("/", "mlp", enter)
	a.keys(enter)
	a.waitFor("enter trains with these settings")
	a.keys(down, down, down, down, down, down, bs, bs, bs, "100000", enter)
	a.waitFor("epochs=100000")
	eventually(t, "the run training", func() bool { n, _ := ts.Training(); return n == 1 })
	return a
}

// historyOf is the lines of a person's history.
func historyOf(ts *testServer, c *client) []string {
	b, _ := os.ReadFile(filepath.Join(userDir(ts, ts.alice), "history.jsonl"))
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// A run in flight when the connection drops, or when the server stops, is
// in the person's history as a cancelled run, as cancelling it records it.
func TestInterruptedRunsAreRecorded(t *testing.T) {
	ts := startServer(t, nil)
	a := startLongRun(t, ts)
	a.conn.Close()
	eventually(t, "the dropped session's run recorded", func() bool {
		h := historyOf(ts, a)
		return len(h) == 1 && strings.Contains(h[0], `"status":"cancelled"`)
	})
	b := startLongRun(t, ts)
	ts.stop(t)
	if h := historyOf(ts, b); len(h) != 2 || !strings.Contains(h[1], `"status":"cancelled"`) {
		t.Fatalf("after shutdown the history holds:\n%s", strings.Join(h, "\n"))
	}
}

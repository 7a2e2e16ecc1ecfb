package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A served lab names files relative to the person's directory or the data
// directory, never by the server's own paths; a saved model may not take
// the name of the lab's own history.
func TestLabNeverShowsTheServersPaths(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.open(t, ts.alice, terminal{width: 160, height: 40})
	c.waitFor("Built-in sets")
	c.keys("p", ctrlU, "~/x.csv", enter)
	c.waitFor(`"x.csv": no such file`) // ~ is their own directory, not the server's home
	c.keys("p", ctrlU, "flowers.csv", enter)
	c.waitFor("4 rows")
	c.waitFor("flowers · flowers.csv")
	c.keys(enter) // use this data
	c.waitFor("Models for classification")
	c.keys(enter)
	c.waitFor("enter trains with these settings")
	c.keys(enter)
	c.waitFor("accuracy")
	eventually(t, "the run recorded", func() bool {
		_, err := os.Stat(filepath.Join(userDir(ts, ts.alice), "history.jsonl"))
		return err == nil
	})
	history, _ := os.ReadFile(filepath.Join(userDir(ts, ts.alice), "history.jsonl"))
	c.keys("S", ctrlU, "history.jsonl", enter)
	c.waitFor("history.jsonl is the lab's own file")
	c.keys(ctrlU, "m.json", enter)
	c.waitFor("model saved to m.json")
	if after, _ := os.ReadFile(filepath.Join(userDir(ts, ts.alice), "history.jsonl")); string(after) != string(history) {
		t.Fatal("the history was changed by the save")
	}
	home, _ := os.UserHomeDir()
	for _, dir := range []string{ts.dataDir, ts.stateDir, home} {
		if strings.Contains(c.screen(), dir) || strings.Contains(string(history), dir) {
			t.Fatalf("%s shown or recorded:\n%s\n%s", dir, tail(c.screen(), 3000), history)
		}
	}
}

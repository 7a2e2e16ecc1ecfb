package runs

import (
	"os"
	"path/filepath"
	"testing"
)

// OwnFile knows every file a history keeps in its directory, by the names
// the history itself uses, and nothing else.
func TestOwnFileIsWhatTheHistoryWrites(t *testing.T) {
	h := &History{Dir: t.TempDir()}
	tmp, err := os.CreateTemp(h.Dir, tempPattern(HistoryFile))
	if err != nil {
		t.Fatal(err)
	}
	tmp.Close()
	for _, p := range []string{h.Path(), h.lockPath(), tmp.Name()} {
		if !OwnFile(filepath.Base(p)) {
			t.Errorf("OwnFile(%q) = false, want true", filepath.Base(p))
		}
	}
	for _, name := range []string{"model.json", "sub/history.jsonl", ".model.json.1.tmp", "history.jsonl.bak", "."} {
		if OwnFile(name) {
			t.Errorf("OwnFile(%q) = true, want false", name)
		}
	}
}

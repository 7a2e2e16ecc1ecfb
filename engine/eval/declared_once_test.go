package eval

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
)

// The hold-out's default fraction is written once, in the declaration:
// no other file of the engine's evaluation, the run records, the command
// line or the lab spells it (tui/widgets, which draws and knows no
// evaluation, is left out).
func TestHoldOutDefaultDeclaredOnce(t *testing.T) {
	literal := regexp.MustCompile(`(^|[^0-9.])0\.2([^0-9]|$)`)
	var found []string
	dirs := []string{".", "../runs", "../tune", "../experiment", "../../cli", "../../tui", "../../tui/kit", "../../tui/views", "../../tui/live"}
	screens, _ := filepath.Glob("../../tui/screens/*")
	for _, dir := range append(dirs, screens...) {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				if literal.MatchString(line) {
					found = append(found, filepath.ToSlash(f)+":"+strings.TrimSpace(line)+" (line "+itoa(i+1)+")")
				}
			}
		}
	}
	if len(found) != 1 || !strings.HasPrefix(found[0], "settings.go:") {
		t.Errorf("the default fraction is written %d times, want once in settings.go:\n%s", len(found), strings.Join(found, "\n"))
	}
}

func itoa(i int) string { return engine.Format(i) }

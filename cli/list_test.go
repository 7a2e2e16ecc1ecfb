package cli

import (
	"strings"
	"testing"
)

// One number formatter: parameter ranges read alike (1e5 beside
// 1e6, never 1e+06 or 1e-08).
func TestModelsRangesReadAlike(t *testing.T) {
	out, _, status := run(t, "models")
	if status != exitOK {
		t.Fatal(status)
	}
	for _, bad := range []string{"e+", "e-0"} {
		if strings.Contains(out, bad) {
			i := strings.Index(out, bad)
			t.Errorf("models prints %q: …%s…", bad, out[max(i-40, 0):min(i+20, len(out))])
		}
	}
}

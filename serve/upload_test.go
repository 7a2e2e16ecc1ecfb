package serve

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A write at an offset near the largest int64 is refused by the upload
// cap, not let through by an overflowing sum.
func TestUploadCapHoldsAtHugeOffsets(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "up"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &capped{File: f, name: "/up"}
	for _, off := range []int64{math.MaxInt64 - 3, maxUpload - 3, -1} {
		if n, err := c.WriteAt([]byte("0123456789"), off); n != 0 || err == nil || !strings.Contains(err.Error(), "at most") {
			t.Errorf("write at %d: %d bytes, %v; want refused by the cap", off, n, err)
		}
	}
}

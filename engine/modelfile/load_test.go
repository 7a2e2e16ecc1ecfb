package modelfile

import (
	"strings"
	"testing"
)

// A file cut anywhere is said to be truncated, even in the middle of a
// number, which encoding/json reports as a bad character at the end.
func TestCutFilesAreTruncated(t *testing.T) {
	for _, cut := range []string{`{"format": "` + Format + `", "ver`, `{"format": "` + Format + `", "version": 2.`, `{"format": "` + Format + `", "version": 2, "params": {`} {
		_, err := decode([]byte(cut))
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("%q: %v, want truncated", cut, err)
		}
	}
}

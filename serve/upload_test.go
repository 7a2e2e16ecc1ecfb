package serve

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pkg/sftp"
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

// What a person's directory may hold in all caps their uploads, shared by
// their sessions; a write past it, or a size set past it, is refused with
// a message saying why, and removing files makes room again.
func TestUploadsAreCappedPerPerson(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.maxOwn = 1000 })
	a, b := ts.sftpClient(t, ts.alice), ts.sftpClient(t, ts.alice)
	put := func(c *sftp.Client, name string, n int) error {
		f, err := c.Create(name)
		if err != nil {
			return err
		}
		_, err = f.Write(bytes.Repeat([]byte("x"), n))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if err := put(a, "one.csv", 600); err != nil {
		t.Fatal(err)
	}
	if err := put(b, "two.csv", 600); err == nil || !strings.Contains(err.Error(), "your directory may hold at most 1 kB in all") {
		t.Fatalf("a second 600 bytes under a cap of 1000: %v", err)
	}
	if err := b.Truncate("one.csv", 5000); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("a size set past the cap: %v", err)
	}
	if err := a.Remove("one.csv"); err != nil {
		t.Fatal(err)
	}
	if err := put(b, "two.csv", 600); err != nil {
		t.Fatalf("after removing a file: %v", err)
	}
	if !strings.Contains(ts.logs.String(), "the user's directory is full") {
		t.Errorf("no log of the refusal:\n%s", ts.logs.String())
	}
}

//go:build unix

package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// `--data` on a named pipe trains and exits: the data are read once, and
// fingerprinted while they are read (a second open of the pipe would wait
// for a writer for ever). The recipe's hash is that of the bytes sent.
func TestTrainReadsDataFromANamedPipe(t *testing.T) {
	iris, err := os.ReadFile("../datasets/builtin/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pipe := filepath.Join(dir, "iris.csv")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.Write(iris)
	}()
	type result struct {
		out, errOut string
		status      int
	}
	done := make(chan result, 1)
	save := filepath.Join(dir, "run.json")
	go func() {
		var out, errOut bytes.Buffer
		status := Main([]string{"train", "--data", pipe, "--model", "lda", "--no-history", "--quiet", "--save", save}, &out, &errOut)
		done <- result{out.String(), errOut.String(), status}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second): // a guard against a hang, not a measure of speed
		t.Fatal("train --data on a named pipe did not finish: the pipe is opened a second time")
	}
	if r.status != 0 {
		t.Fatalf("status %d: %s", r.status, r.errOut)
	}
	var saved struct {
		Recipe struct{ Hash string }
	}
	b, err := os.ReadFile(save)
	if err != nil || json.Unmarshal(b, &saved) != nil {
		t.Fatalf("the saved run: %v %.80q", err, b)
	}
	sum := sha256.Sum256(iris)
	if want := "sha256:" + hex.EncodeToString(sum[:]); saved.Recipe.Hash != want {
		t.Errorf("recipe hash %q, want %q (the bytes sent)", saved.Recipe.Hash, want)
	}
}

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A save that fails part-way (here the file-size limit stops the write
// after 2 KB) leaves the previous file byte for byte, and the run's report
// is printed anyway; the status is 1. The run happens in a child process
// (this test binary again) so that the limit binds nothing else.
func TestFailedSaveKeepsOldFileAndReport(t *testing.T) {
	if path := os.Getenv("TEALAB_SAVECHILD"); path != "" {
		lim := syscall.Rlimit{Cur: 2048, Max: 2048}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Skip(err)
		}
		os.Exit(Main([]string{"train", "--data", "iris", "--model", "lda", "--save", path}, os.Stdout, os.Stderr))
	}
	path := filepath.Join(t.TempDir(), "run.json")
	old := bytes.Repeat([]byte("the previous good run\n"), 10)
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFailedSaveKeepsOldFileAndReport$")
	cmd.Env = append(os.Environ(), "TEALAB_SAVECHILD="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := cmd.ProcessState.ExitCode()
	if status != 1 {
		t.Errorf("exit status %d (%v), want 1\nstderr: %s", status, err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "accuracy") || !strings.Contains(stdout.String(), "confusion matrix") {
		t.Errorf("the report was not printed:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "--save") {
		t.Errorf("stderr does not name --save: %s", stderr.String())
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, old) {
		t.Errorf("the previous file changed to %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

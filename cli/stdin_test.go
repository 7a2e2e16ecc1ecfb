package cli

import (
	"os"
	"strings"
	"testing"
)

// withStdin runs f with os.Stdin reading data through a pipe, which cannot
// seek.
func withStdin(t *testing.T, data []byte, f func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close() }()
	f()
}

// `cat iris.csv | tealab train --data - --model lda` trains on standard input.
func TestTrainFromStdin(t *testing.T) {
	iris, err := os.ReadFile("../datasets/builtin/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut string
	var status int
	withStdin(t, iris, func() { out, errOut, status = run(t, "train", "--data", "-", "--model", "lda") })
	if status != 0 || !strings.Contains(out, "150 rows") || !strings.Contains(out, "accuracy") {
		t.Fatalf("status %d\n%s%s", status, out, errOut)
	}
	withStdin(t, []byte("@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n3,x\n4,y\n"), func() {
		out, errOut, status = run(t, "describe", "--data", "-", "--format", "arff")
	})
	if status != 0 || !strings.Contains(out, "4 rows") {
		t.Errorf("arff on stdin: status %d\n%s%s", status, out, errOut)
	}
	_, errOut, status = run(t, "describe", "--data", "-", "--format", "xls")
	if status != 2 || !strings.Contains(errOut, "csv, tsv, arff") {
		t.Errorf("--format xls: status %d: %s", status, errOut)
	}
}

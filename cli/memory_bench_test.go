//go:build linux

package cli

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkTrainMemory measures what `tealab train` costs in memory as well
// as time: each iteration runs the command in a child process (this test
// binary, re-executed) and reports the child's peak resident set size, in
// MB and as a multiple of the raw float64 size of the features (rows x
// columns x 8 bytes). The data are a 1,000,000 x 20 CSV made once and kept
// in the temporary directory (TEALAB_MEMBENCH_ROWS changes the rows).
//
//	go test ./cli -run '^$' -bench TrainMemory -benchtime 1x
func BenchmarkTrainMemory(b *testing.B) {
	rows := 1_000_000
	if s := os.Getenv("TEALAB_MEMBENCH_ROWS"); s != "" {
		var err error
		if rows, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	const cols = 20
	path, err := memBenchData(rows, cols)
	if err != nil {
		b.Fatal(err)
	}
	raw := float64(rows * cols * 8)
	for _, model := range []string{"logistic", "lda", "gnb", "perceptron"} {
		b.Run(model, func(b *testing.B) {
			var peak float64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$")
				cmd.Env = append(os.Environ(), "TEALAB_MEMCHILD=train --data "+path+" --model "+model)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
				ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				peak = max(peak, float64(ru.Maxrss)*1024) // KiB on Linux
			}
			b.ReportMetric(peak/1e6, "peak-MB")
			b.ReportMetric(peak/raw, "x-raw")
		})
	}
}

// TestMemoryChild is the child of BenchmarkTrainMemory: it runs the command
// in TEALAB_MEMCHILD and skips when that is not set.
func TestMemoryChild(t *testing.T) {
	args := os.Getenv("TEALAB_MEMCHILD")
	if args == "" {
		t.Skip("the child process of BenchmarkTrainMemory")
	}
	if status := Main(strings.Fields(args), io.Discard, os.Stderr); status != 0 {
		t.Fatalf("exit status %d", status)
	}
}

// memBenchData writes (once) rows x cols Gaussian features and a label
// given by a fixed linear rule with 5% noise, as CSV.
func memBenchData(rows, cols int) (string, error) {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("tealab-membench-%dx%d.csv", rows, cols))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	f, err := os.CreateTemp(os.TempDir(), "tealab-membench-*.csv")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	for j := range cols {
		fmt.Fprintf(w, "x%d,", j)
	}
	w.WriteString("y\n")
	r := rand.New(rand.NewPCG(1, 2))
	var line []byte
	x := make([]float64, cols)
	for range rows {
		line = line[:0]
		z := 0.0
		for j := range x {
			x[j] = r.NormFloat64()
			z += x[j] * float64(j%5-2)
			line = strconv.AppendFloat(line, x[j], 'f', 6, 64)
			line = append(line, ',')
		}
		y := byte('0')
		if (z > 0) != (r.Float64() < 0.05) {
			y = '1'
		}
		line = append(line, y, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(f.Name(), path)
}

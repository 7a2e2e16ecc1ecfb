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
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// memCase is one model of BenchmarkTrainMemory: its name (the sub-benchmark
// and what TEALAB_MEMBENCH_MODELS selects), the train arguments after the
// data, and whether it learns the numeric target t instead of the label y.
type memCase struct {
	name, args string
	numeric    bool
}

// memCases holds a model of every family, with parameters that keep 1,000,000
// rows within minutes. Not here: k-medoids (each medoid update compares every
// pair of a cluster's rows: O(n²) time), hierarchical and spectral clustering
// (they refuse n x n distances beyond 11,585 and 8,192 rows).
var memCases = []memCase{
	{"logistic", "--model logistic", false},
	{"perceptron", "--model perceptron", false},
	{"linear", "--model linear", true},
	{"ridge", "--model ridge", true},
	{"lda", "--model lda", false},
	{"qda", "--model qda", false},
	{"gnb", "--model gnb", false},
	{"kmeans", "--model kmeans", false},
	{"gmm", "--model gmm --param max_iter=20", false},
	{"pca", "--model pca", false},
	{"svd", "--model svd", false},
	{"randproj", "--model randproj --param k=5", false},
	{"tree", "--model tree", false},
	{"forest", "--model forest --param trees=10", false},
	{"adaboost", "--model adaboost", false},
	// In 20 dimensions the k-d tree prunes little: 200,000 predictions
	// took more than an hour.
	{"knn", "--model knn", false},
}

// BenchmarkTrainMemory measures what `tealab train` costs in memory as well
// as time: each iteration runs the command in a child process (this test
// binary, re-executed) and reports the child's peak resident set size, in
// MB and as a multiple of the raw float64 size of the features (rows x
// columns x 8 bytes). The data are 1,000,000 x 20 Gaussian features with a
// label (and, for regression, a numeric target instead), CSV made once and
// kept in the temporary directory (TEALAB_MEMBENCH_ROWS changes the rows).
// TEALAB_MEMBENCH_MODELS picks cases by name (e.g. "kmeans,gmm"); the
// default runs all of memCases, which takes longer than go test's default
// timeout (BENCHMARKS.md has the times):
//
//	go test ./cli -run '^$' -bench TrainMemory -benchtime 1x -timeout 0
func BenchmarkTrainMemory(b *testing.B) {
	rows := 1_000_000
	if s := os.Getenv("TEALAB_MEMBENCH_ROWS"); s != "" {
		var err error
		if rows, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	var only []string
	if s := os.Getenv("TEALAB_MEMBENCH_MODELS"); s != "" {
		only = strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
		for _, name := range only {
			if !slices.ContainsFunc(memCases, func(c memCase) bool { return c.name == name }) {
				b.Fatalf("TEALAB_MEMBENCH_MODELS: no case %q; the cases are those of memCases", name)
			}
		}
	}
	const cols = 20
	raw := float64(rows * cols * 8)
	for _, c := range memCases {
		if only != nil && !slices.Contains(only, c.name) {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			path, err := memBenchData(rows, cols, c.numeric)
			if err != nil {
				b.Fatal(err)
			}
			var peak float64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$")
				cmd.Env = append(os.Environ(), "TEALAB_MEMCHILD=train --data "+path+" "+c.args)
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

// memBenchData writes (once) rows x cols Gaussian features and a target
// given by a fixed linear rule: a label with 5% of its values flipped, or
// with numeric the rule itself plus Gaussian noise, as CSV.
func memBenchData(rows, cols int, numeric bool) (string, error) {
	kind, target := "label", "y"
	if numeric {
		kind, target = "numeric", "t"
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("tealab-membench-%dx%d-%s.csv", rows, cols, kind))
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
	w.WriteString(target + "\n")
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
		switch {
		case numeric:
			line = strconv.AppendFloat(line, z+r.NormFloat64(), 'f', 6, 64)
		case (z > 0) != (r.Float64() < 0.05):
			line = append(line, '1')
		default:
			line = append(line, '0')
		}
		line = append(line, '\n')
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

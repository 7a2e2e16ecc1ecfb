package svm_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tealab/tealab/engine/bench"
)

// BenchmarkSVMRBFCase times the svm_rbf case of bench/cases.tsv (the data
// from bench/make_data.py in $TEALAB_BENCH_DATA, else the folder
// compare.py uses); skipped when the data are not there.
func BenchmarkSVMRBFCase(b *testing.B) {
	dir := os.Getenv("TEALAB_BENCH_DATA")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "tealab-bench-data")
	}
	if _, err := os.Stat(filepath.Join(dir, "clf_5k_20.csv")); err != nil {
		b.Skip("no clf_5k_20.csv: run bench/make_data.py " + dir)
	}
	cases, err := bench.Select([]string{"svm_rbf"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := bench.Run(context.Background(), dir, cases[0])
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.FitSecs, "fit-s")
		b.ReportMetric(res.Score, "accuracy")
	}
}

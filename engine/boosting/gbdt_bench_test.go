package boosting

import (
	"runtime"
	"testing"
)

// BenchmarkFit40k fits the bench case's shape (40,000 rows of 20 features,
// 100 rounds of depth 6) on one thread: the loop to profile
// (go test -run - -bench Fit40k -cpuprofile cpu.out ./engine/boosting/).
func BenchmarkFit40k(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	tr := synth(40000, 20, 2, 0, 1)
	b.ResetTimer()
	for b.Loop() {
		fit(b, build(b, nil), tr)
	}
}

// BenchmarkFit800k is the gbdt_1m case's training part (800,000 rows of 28
// features), 20 rounds, on one thread: where the time goes at scale.
func BenchmarkFit800k(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	tr := synth(800000, 28, 2, 0, 1)
	b.ResetTimer()
	for b.Loop() {
		fit(b, build(b, map[string]string{"rounds": "20"}), tr)
	}
}

// BenchmarkFit40kJobs2 is BenchmarkFit40k with jobs=2 on two threads.
func BenchmarkFit40kJobs2(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	tr := synth(40000, 20, 2, 0, 1)
	b.ResetTimer()
	for b.Loop() {
		fit(b, build(b, map[string]string{"jobs": "2"}), tr)
	}
}

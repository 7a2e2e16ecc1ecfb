package cli

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBenchCSV writes a small stand-in for one of make_data.py's files:
// header x0..x{p-1},y; classes 0..k-1 (k 0: a regression target).
func writeBenchCSV(t *testing.T, dir, name string, n, p, k int) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(n), uint64(p)))
	var b strings.Builder
	for j := 0; j < p; j++ {
		fmt.Fprintf(&b, "x%d,", j)
	}
	b.WriteString("y\n")
	for i := 0; i < n; i++ {
		c := i % max(k, 1)
		s := 0.0
		for j := 0; j < p; j++ {
			v := r.NormFloat64() + float64(c*(j%2))
			s += v * float64(j+1)
			fmt.Fprintf(&b, "%.6g,", v)
		}
		if k > 0 {
			fmt.Fprintf(&b, "%d\n", c)
		} else {
			fmt.Fprintf(&b, "%.6g\n", s+r.NormFloat64())
		}
	}
	if err := os.WriteFile(filepath.Join(dir, name+".csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBench(t *testing.T) {
	dir := t.TempDir()
	writeBenchCSV(t, dir, "clf5_50k_20", 500, 6, 5)
	writeBenchCSV(t, dir, "reg_100k_50", 400, 5, 0)
	out, errOut, status := run(t, "bench", "--data-dir", dir, "--case", "gnb,ridge", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one a case:\n%s", len(lines), out)
	}
	for i, want := range []struct{ name, metric string }{{"gnb", "accuracy"}, {"ridge", "R2"}} {
		var r map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil {
			t.Fatal(err)
		}
		if r["case"] != want.name || r["metric"] != want.metric || !(r["fit_s"].(float64) > 0) || r["score"].(float64) < 0.5 {
			t.Errorf("line %d: %v", i, r)
		}
		for _, key := range []string{"case", "fit_s", "predict_s", "metric", "score"} {
			if _, ok := r[key]; !ok {
				t.Errorf("line %d lacks %q, which sklearn_ref.py prints", i, key)
			}
		}
	}
	text, _, status := run(t, "bench", "--data-dir", dir, "--case", "gnb")
	if status != 0 || !strings.Contains(text, "gnb") || !strings.Contains(text, "accuracy") {
		t.Errorf("text output (%d):\n%s", status, text)
	}
	_, errOut, status = run(t, "bench", "--data-dir", dir, "--case", "nope")
	if status != 2 || !strings.Contains(errOut, "nope") || !strings.Contains(errOut, "logistic") {
		t.Errorf("unknown case: %d %s", status, errOut)
	}
	_, errOut, status = run(t, "bench", "--data-dir", dir, "--case", "lasso")
	if status != 1 || !strings.Contains(errOut, "reg_20k_50.csv") || !strings.Contains(errOut, "make_data.py") {
		t.Errorf("missing data: %d %s", status, errOut)
	}
	if _, _, status = run(t, "bench"); status != 2 {
		t.Errorf("no --data-dir: status %d, want 2", status)
	}
}

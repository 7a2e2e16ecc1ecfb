package widgets

import (
	"math"
	"strings"
	"testing"
)

func TestMetricRows(t *testing.T) {
	rows := MetricRows(
		map[string]float64{"rmse": 2, "r2": 0.8, "log_loss": 0.1, "accuracy": 0.9, "zeta": 1, "custom_loss": 3},
		map[string]float64{"accuracy": 0.01},
		map[string]float64{"rmse": 1, "r2": 0, "log_loss": 1, "accuracy": 0.5, "custom_loss": 4},
	)
	want := []KVRow{
		{"accuracy", "0.900 ± 0.010", "0.500", 1},
		{"log-loss", "0.100", "1.000", 1},
		{"R²", "0.800", "0.000", 1},
		{"RMSE", "2.000", "1.000", -1},
		{"custom loss", "3.000", "4.000", 1},
		{"zeta", "1.000", "", 0},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v", rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
	if fmtMetric(12345.678) != "12350" || fmtMetric(0.0001234) != "0.0001234" || fmtMetric(math.NaN()) != "n/a" {
		t.Errorf("fmtMetric: %q %q %q", fmtMetric(12345.678), fmtMetric(0.0001234), fmtMetric(math.NaN()))
	}
	kv := NewKV(rows, asciiStyles())
	kv.SetSize(40, 4)
	if !kv.KeyMap.Down.Enabled() {
		t.Error("KV does not scroll")
	}
	v := kv.View()
	if !strings.Contains(v, "metric") || !strings.Contains(v, "0.900 ± 0.010 ▲") || !strings.Contains(v, "2.000 ▼") && strings.Contains(v, "RMSE") {
		t.Errorf("KV view:\n%s", v)
	}
}

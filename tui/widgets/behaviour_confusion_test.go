package widgets

import (
	"math"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/metrics"
)

// TestConfusionMetrics checks the per-class figures computed when no report
// is given. Reference: scikit-learn 1.2.1,
//
//	from sklearn.metrics import precision_recall_fscore_support
//	def expand(C):
//	    y, p = [], []
//	    for i in range(len(C)):
//	        for j in range(len(C)):
//	            y += [i] * C[i][j]; p += [j] * C[i][j]
//	    return y, p
//	for C in ([[10,0,0],[0,9,1],[0,0,10]], [[5,2,0],[3,0,0],[0,1,4]]):
//	    print(precision_recall_fscore_support(*expand(C), labels=[0,1,2], zero_division=0))
func TestConfusionMetrics(t *testing.T) {
	cases := []struct {
		m             [][]int
		prec, rec, f1 []float64
	}{
		{[][]int{{10, 0, 0}, {0, 9, 1}, {0, 0, 10}},
			[]float64{1, 1, 0.909091}, []float64{1, 0.9, 1}, []float64{1, 0.947368, 0.952381}},
		{[][]int{{5, 2, 0}, {3, 0, 0}, {0, 1, 4}},
			[]float64{0.625, 0, 1}, []float64{0.714286, 0, 0.8}, []float64{0.666667, 0, 0.888889}},
	}
	for _, c := range cases {
		v := NewConfusion(metrics.Confusion{Labels: []string{"a", "b", "c"}, Matrix: c.m}, nil, nil, asciiStyles())
		for i := range 3 {
			if math.Abs(v.prec[i]-c.prec[i]) > 1e-6 || math.Abs(v.rec[i]-c.rec[i]) > 1e-6 || math.Abs(v.f1[i]-c.f1[i]) > 1e-6 {
				t.Errorf("%v class %d: got P %v R %v F1 %v, want %v %v %v", c.m, i, v.prec[i], v.rec[i], v.f1[i], c.prec[i], c.rec[i], c.f1[i])
			}
		}
	}
	// A report wins over computation; a never-predicted class has no
	// precision ("–").
	rep := []metrics.ClassReport{{Class: "b", Precision: 0.5, Recall: 0.25, F1: 0.333}}
	v := NewConfusion(metrics.Confusion{Labels: []string{"a", "b"}, Matrix: [][]int{{3, 0}, {1, 0}}}, rep, nil, asciiStyles())
	if v.prec[1] != 0.5 || v.rec[1] != 0.25 {
		t.Errorf("report ignored: %v %v", v.prec, v.rec)
	}
	if !math.IsNaN(v.prec[1]) && v.prec[0] != 0.75 {
		t.Errorf("precision of a: %v", v.prec[0])
	}
	if fmtRate(math.NaN()) != "–" {
		t.Error("undefined rate not shown as –")
	}
}

func TestConfusionKeys(t *testing.T) {
	conf, sum := irisConfusion()
	c := NewConfusion(conf, nil, sum, asciiStyles())
	c.SetSize(100, 10)
	if !strings.Contains(c.View(), "accuracy 0.967 (baseline 0.333) · macro F1 0.967 · kappa 0.950 · MCC 0.952 · log-loss 0.092") {
		t.Errorf("summary line:\n%s", c.View())
	}
	if c.KeyMap.Down.Enabled() || c.KeyMap.Right.Enabled() {
		t.Error("scroll keys enabled although everything fits")
	}
	c, _ = c.Update(keyMsg("n"))
	if !c.Normalized() || !strings.Contains(c.View(), "90%") || !strings.Contains(c.View(), "×10%") {
		t.Errorf("n did not switch to row percentages:\n%s", c.View())
	}

	d := NewConfusion(digitsConfusion(), nil, sum, asciiStyles())
	d.SetSize(80, 20)
	if d.KeyMap.Right.Enabled() {
		t.Errorf("digits do not fit 80 columns:\n%s", d.View())
	}
	d.SetSize(36, 8)
	if !d.KeyMap.Down.Enabled() || !d.KeyMap.Right.Enabled() {
		t.Fatal("small view does not scroll")
	}
	for range 20 {
		d, _ = d.Update(keyMsg("down"))
		d, _ = d.Update(keyMsg("l"))
	}
	L := d.layout()
	if d.rowOff != 10-L.rows || d.colOff != 10-L.cols {
		t.Errorf("scroll not clamped: row %d col %d (rows %d cols %d)", d.rowOff, d.colOff, L.rows, L.cols)
	}
	if !strings.Contains(d.View(), "179") {
		t.Errorf("scrolled to the end but the last diagonal cell is not shown:\n%s", d.View())
	}
	for range 20 {
		d, _ = d.Update(keyMsg("up"))
		d, _ = d.Update(keyMsg("h"))
	}
	if d.rowOff != 0 || d.colOff != 0 {
		t.Errorf("scroll back: %d %d", d.rowOff, d.colOff)
	}
}

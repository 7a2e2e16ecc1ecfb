package tui

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/tui/screens/data"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A regression target spanning more than the largest float64, or with
// ±Inf, made (hi-lo)/k infinite and int(NaN) an index: a panic on load.
func TestHistogramNonFinite(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	for _, tc := range []struct {
		name       string
		y          []float64
		bins       int     // labels expected (the bins chosen, at most 4, and the ±Inf bar)
		total, top float64 // counts summed; the ±Inf bar's count
		hasInf     bool
	}{
		{"range overflows", []float64{-1.7e308, 1.7e308, 0.5, 0.25}, 4, 4, 0, false},
		{"+Inf and -Inf", []float64{1, 2, 3, inf, -inf}, 4, 5, 2, true}, // a bar per whole number
		{"only Inf", []float64{inf, inf}, 1, 2, 2, true},
		{"one value and NaN", []float64{7, 7, math.NaN()}, 1, 2, 0, false},
		{"largest magnitudes only", []float64{-math.MaxFloat64, math.MaxFloat64}, 2, 2, 0, false}, // Sturges: log2(2)+1 bins
	} {
		t.Run(tc.name, func(t *testing.T) {
			labels, counts := data.Histogram(tc.y, 4)
			if len(labels) != len(counts) {
				t.Fatalf("%d labels, %d counts", len(labels), len(counts))
			}
			sum := 0.0
			for i, c := range counts {
				sum += c
				if strings.Contains(labels[i], "NaN") {
					t.Errorf("label %q", labels[i])
				}
			}
			if sum != tc.total {
				t.Errorf("counts %v sum to %v, want %v", counts, sum, tc.total)
			}
			if tc.hasInf {
				if labels[len(labels)-1] != "±Inf" || counts[len(counts)-1] != tc.top {
					t.Errorf("labels %q counts %v: want a ±Inf bar of %v", labels, counts, tc.top)
				}
			}
			if len(labels) != tc.bins {
				t.Errorf("labels %q, want %d", labels, tc.bins)
			}
		})
	}
	// The overflowing range still spreads: the extremes land in the end bins.
	_, counts := data.Histogram([]float64{-1.7e308, 1.7e308, 0.5, 0.25}, 4)
	if counts[0] != 1 || counts[3] != 1 || counts[1]+counts[2] != 2 {
		t.Errorf("counts %v, want the extremes in the end bins", counts)
	}
}

func TestDataFileWithHugeTarget(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "h.csv", "a,y\n1,-1.7e308\n2,1.7e308\n3,0.5\n4,0.25\n")
	hs := newHarness(t, Options{Data: p}, 100, 30)
	if hs.a.data.Ds == nil || hs.a.data.Ds.Task != datasets.Regression {
		t.Fatalf("dataset %+v, err %v", hs.a.data.Ds, hs.a.data.DsErr)
	}
	// Data alone: the start-up load stays on the preview.
	if hs.a.cur != screenData || hs.a.data.Focus != data.FocusPreview {
		t.Fatalf("screen %v, focus %v", hs.a.cur, hs.a.data.Focus)
	}
	hs.previewTab(data.PreviewBalance)
	mustContain(t, hs.View(), "distribution of y", "-1.7e308")
}

// A load finishing while another screen shows (R during a start-up load)
// was handed to that screen and lost: "loading…" forever, --train never
// started.
func TestLoadResultReachesDataScreenFromAnyScreen(t *testing.T) {
	t.Parallel()
	a := newTestApp(t, Options{Data: "iris", Model: "logistic", Train: true}, 120, 40)
	hs := &harness{t: t, a: a}
	load := a.Init()
	hs.press("R")
	if a.cur != screenRuns {
		t.Fatalf("R: screen %v", a.cur)
	}
	hs.send(load())
	if a.data.Loading != "" || a.data.Table == nil {
		t.Fatalf("the load result was lost: loading %q", a.data.Loading)
	}
	if len(a.history) != 1 || !a.history[0].Done() || a.history[0].Err != nil {
		t.Fatalf("--train did not run after the load: %d runs", len(a.history))
	}

	// The file browser's listing, likewise.
	hs2 := newHarness(t, Options{}, 120, 40)
	_, read := hs2.a.Update(keyMsg("o"))
	hs2.press("R")
	hs2.send(read())
	if hs2.a.data.Picker.Loading || len(hs2.a.data.Picker.Entries) == 0 && hs2.a.data.Picker.Err == nil {
		t.Fatalf("the directory listing was lost: loading %v", hs2.a.data.Picker.Loading)
	}
}

// `tealab --data moons` shows the data as a scatter by class before
// any model is chosen; wider data get histograms per column by class, and
// a scatter in the principal plane or of any two chosen columns.
func TestDataShownBeforeTraining(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "moons"}, 120, 40)
	if hs.a.cur != screenData || hs.a.data.Tabs.ActiveName() != data.PreviewPlot {
		t.Fatalf("--data moons: screen %v, tab %q; want the data's plot", hs.a.cur, hs.a.data.Tabs.ActiveName())
	}
	mustContain(t, hs.View(), "x1 against x0 · by class", "●", "○", "● 0", "○ 1")

	hs = newHarness(t, Options{Data: "iris"}, 120, 40)
	hs.previewTab(data.PreviewPlot)
	mustContain(t, hs.View(), "first two principal directions", "● setosa")
	hs.press("x")
	mustContain(t, hs.View(), "sepal_width_cm against petal_length_cm")
	hs.press("p")
	mustContain(t, hs.View(), "first two principal directions")
	hs.previewTab(data.PreviewHist)
	mustContain(t, hs.View(), "petal_width_cm", "sepal_length_cm by class", "versicolor")

	hs = newHarness(t, Options{Data: "cubic"}, 120, 40)
	mustContain(t, hs.View(), "y against x0 · by y")
}

// Rows of large data page past the first thousand.
func TestRowsPage(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "digits"}, 120, 40)
	hs.previewTab(data.PreviewRows)
	mustContain(t, hs.View(), "rows 1-1000 of 1797")
	hs.press("]")
	mustContain(t, hs.View(), "rows 1001-1797 of 1797")
	hs.press("[")
	mustContain(t, hs.View(), "rows 1-1000 of 1797")
}

// A newline or an escape sequence in a column's level or name is shown
// escaped (it was dropped: "x\ny" read "xy"), and every line stays inside
// the window.
func TestPreviewEscapesControlCharacters(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "esc.csv")
	text := "a,\"c\x1b[2J\",label\n1,\"x\ny\",p\n2,z,q\n3,z,p\n4,x,q\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, Options{Data: path}, 120, 40)
	// Plot, Matrix (whose arrows move its cursor: tab leaves it),
	// Histograms, Rows.
	for _, key := range []string{"", "right", "tab", "right"} {
		if key != "" {
			hs.press(key)
		}
		v := hs.View()
		checkFrame(t, v, 120, 40)
		if strings.Contains(v, "\x1b[2J") {
			t.Fatalf("the raw escape reached the screen")
		}
	}
	mustContain(t, hs.View(), "[Rows]", `x\ny`, `c\x1b[2J`)
}

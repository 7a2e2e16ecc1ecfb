package tui

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/colorprofile"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/data"
)

// trainingApp is the app on the training screen at w x h with n steps drawn
// (validation on every step to 100, then every 10th, as eval samples it).
func trainingApp(b testing.TB, w, h, n int) *app {
	a := trainingScreenFor(b, "logistic", w, h)
	steps := make([]eval.Progress, n)
	for i := range steps {
		s := i + 1
		p := eval.Point{Step: s, TrainLoss: 1/float64(s) + 0.05, ValLoss: math.NaN(), ValError: math.NaN()}
		if s <= 100 || s%10 == 0 {
			p.ValLoss, p.ValError = 1.2/float64(s)+0.1, 0.6/math.Sqrt(float64(s))+0.02
		}
		steps[i] = eval.Progress{Fold: 1, Folds: 1, Total: 2 * n, Point: p, Elapsed: time.Duration(s) * time.Millisecond}
	}
	a.train.Progress(kit.ProgressMsg{Run: 1, Steps: steps})
	return a
}

// trainingScreenFor is the app at w x h on the training screen of run 1, of
// model on iris, before its first step.
func trainingScreenFor(b testing.TB, model string, w, h int) *app {
	a, err := newApp(Options{Theme: "dark", Profile: colorprofile.NoTTY})
	if err != nil {
		b.Fatal(err)
	}
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	tb, err := datasets.Open("iris")
	if err != nil {
		b.Fatal(err)
	}
	d, err := tb.Dataset("", datasets.Auto)
	if err != nil {
		b.Fatal(err)
	}
	spec, err := engine.Lookup(model)
	if err != nil {
		b.Fatal(err)
	}
	r := newRun(b, 1, "iris", "", d, spec, eval.DefaultOptions(), nil)
	a.history = append(a.history, r)
	a.ds, a.spec = d, spec
	a.train.Start(r)
	a.cur = screenTrain
	return a
}

// BenchmarkTrainingView renders the training screen at 200x60 with 1,000
// history points (target: under 2 ms a frame).
func BenchmarkTrainingView(b *testing.B) {
	a := trainingApp(b, 200, 60, 1000)
	b.ReportAllocs()
	for b.Loop() {
		_ = a.View()
	}
}

// BenchmarkTrainingUpdate is the cost of one progress message of 40 steps
// (a 100k-steps/s model at 25 messages a second) on a 10,000-step history.
func BenchmarkTrainingUpdate(b *testing.B) {
	a := trainingApp(b, 200, 60, 10000)
	batch := make([]eval.Progress, 40)
	for i := range batch {
		batch[i] = eval.Progress{Fold: 1, Folds: 1, Point: eval.Point{Step: 10001 + i, TrainLoss: 0.1, ValLoss: math.NaN(), ValError: math.NaN()}}
	}
	b.ReportAllocs()
	for b.Loop() {
		a.train.Progress(kit.ProgressMsg{Run: 1, Steps: batch})
	}
}

func TestTrainingViewFrame(t *testing.T) {
	t.Parallel()
	a := trainingApp(t, 200, 60, 1000)
	v := view(a)
	checkFrame(t, v, 200, 60)
	mustContain(t, v, "training loss", "validation log-loss", "validation error rate", "val log-loss", "val error", "1000/2000 iterations", "ETA")
}

func TestReduceSeries(t *testing.T) {
	t.Parallel()
	short := []float64{3, 1, 2}
	if got, dx := kit.ReduceSeries(short, 8); len(got) != 3 || dx != 1 {
		t.Fatalf("a short series changed: %v, dx %v", got, dx)
	}
	y := make([]float64, 10000)
	for i := range y {
		y[i] = 1
		if i%2 == 0 && i < 5000 {
			y[i] = math.NaN() // sampled validation
		}
	}
	y[1234] = 99 // a spike
	y[8000] = -5 // a dip
	y[9999] = 0.5
	got, dx := kit.ReduceSeries(y, 100)
	if len(got) != 100 || dx != 100 {
		t.Fatalf("len %d, dx %v; want 100 points of 100 steps", len(got), dx)
	}
	var hasSpike, hasDip bool
	for _, v := range got {
		hasSpike = hasSpike || v == 99
		hasDip = hasDip || v == -5
	}
	if !hasSpike || !hasDip {
		t.Errorf("extremes lost: spike %v, dip %v", hasSpike, hasDip)
	}
	if got[len(got)-1] != 0.5 {
		t.Errorf("last point %v, want the latest value 0.5", got[len(got)-1])
	}
	allNaN := make([]float64, 1000)
	for i := range allNaN {
		allNaN[i] = math.NaN()
	}
	for _, v := range must(kit.ReduceSeries(allNaN, 10)) {
		if !math.IsNaN(v) {
			t.Fatal("an all-NaN series gained values")
		}
	}
}

func must(y []float64, _ float64) []float64 { return y }

// BenchmarkDendrogramCut times one move of the cut on the dendrogram of
// 3,000 rows, redrawn: what a key costs.
func BenchmarkDendrogramCut(b *testing.B) {
	hs := newHarness(b, Options{Data: "blobs:n=3000,seed=4", Task: "clustering", Model: "hclust", Params: paramsOf("hclust", map[string]string{"k": "3"}), Train: true}, 120, 40)
	hs.resultTab("Dendrogram")
	keys := []string{"down", "up"}
	i := 0
	for b.Loop() {
		hs.press(keys[i%2])
		_ = hs.View()
		i++
	}
}

// BenchmarkHistogramsView is the cost of one frame of the data's
// histograms: a sparkline per visible column and the chosen one's bars,
// on 20,000 rows.
func BenchmarkHistogramsView(b *testing.B) {
	hs := newHarness(b, Options{Data: "blobs:n=20000,seed=1"}, 200, 60)
	hs.previewTab(data.PreviewHist)
	b.ReportAllocs()
	for b.Loop() {
		_ = hs.a.data.Hists.View()
	}
}

// bigFolder is a folder of 10,000 data files and 20 sub-folders.
func bigFolder(b *testing.B) string {
	dir := b.TempDir()
	for i := range 10000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.csv", i)), []byte("a,b\n1,2\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 20 {
		if err := os.Mkdir(filepath.Join(dir, fmt.Sprintf("d%02d", i)), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkFileBrowserRead times listing a folder of 10,000 files, off the
// screen's goroutine (a stat for each file's size).
func BenchmarkFileBrowserRead(b *testing.B) {
	dir := bigFolder(b)
	for b.Loop() {
		fb := data.NewFileBrowser(nil)
		fb.Update(fb.Read(dir)())
	}
}

// BenchmarkFileBrowserKey times a cursor move in a folder of 10,000 files,
// redrawn: what a key costs.
func BenchmarkFileBrowserKey(b *testing.B) {
	c := newTestApp(b, Options{}, 120, 40).c
	fb := data.NewFileBrowser(nil)
	fb.Update(fb.Read(bigFolder(b))())
	keys := []string{"down", "down", "up"}
	i := 0
	for b.Loop() {
		fb.Update(keyMsg(keys[i%len(keys)]))
		i++
		_ = fb.View(c, 100, 36)
	}
}

// BenchmarkMatrix is the scatter-plot matrix of 100,000 rows × 30
// features: a choice of the features (the sample taken again, every cell
// in view drawn anew) and a move of the cursor (the cells kept), each
// with its frame. Both are what a key costs on the UI goroutine.
func BenchmarkMatrix(b *testing.B) {
	var sb strings.Builder
	for j := range 30 {
		fmt.Fprintf(&sb, "f%d,", j)
	}
	sb.WriteString("y\n")
	for i := range 100000 {
		for j := range 30 {
			fmt.Fprintf(&sb, "%d,", (i*(j+7)*7919)%1000)
		}
		fmt.Fprintf(&sb, "c%d\n", i%3)
	}
	p := filepath.Join(b.TempDir(), "big.csv")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	hs := newHarness(b, Options{Data: p}, 120, 40)
	hs.previewTab(data.PreviewMatrix)
	if v := hs.View(); !strings.Contains(v, "2000 of 100000 rows drawn") {
		b.Fatalf("not the matrix of the sample:\n%s", v)
	}
	b.Run("choice", func(b *testing.B) {
		for b.Loop() {
			hs.press("c", "enter")
			_ = hs.View()
		}
	})
	b.Run("move", func(b *testing.B) {
		keys := []string{"l", "j", "h", "k"}
		i := 0
		for b.Loop() {
			hs.press(keys[i%4])
			_ = hs.View()
			i++
		}
	})
}

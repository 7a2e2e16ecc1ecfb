package report

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// pathRun runs the path experiment with the given knobs, keeping every
// frame it shows.
func pathRun(t *testing.T, data string, set map[string]string) (*lecture.PathResult, []*lecture.PathResult) {
	t.Helper()
	e, err := lecture.Lookup("path")
	if err != nil {
		t.Fatal(err)
	}
	set["data"] = data
	v, err := e.Parse(set)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := datasets.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tb.Dataset("", datasets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	var frames []*lecture.PathResult
	res, err := e.Run(context.Background(), lecture.In{Values: v, Data: d}, func(f lecture.Frame) {
		frames = append(frames, f.Result.(*lecture.PathResult))
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.(*lecture.PathResult), frames
}

func pathCheckSize(t *testing.T, pic Picture, w, h int) string {
	t.Helper()
	if len(pic.Lines) > h {
		t.Errorf("%dx%d: %d lines", w, h, len(pic.Lines))
	}
	for _, l := range pic.Lines {
		if n := utf8.RuneCountInString(l); n > w {
			t.Errorf("%dx%d: a line of %d cells: %q", w, h, n, l)
		}
	}
	return strings.Join(pic.Lines, "\n")
}

func TestPathDrawing(t *testing.T) {
	r, frames := pathRun(t, "diabetes", map[string]string{"lambdas": "40", "folds": "3"})
	for _, sz := range [][2]int{{118, 32}, {100, 30}, {78, 16}, {60, 30}, {20, 6}, {8, 3}, {250, 80}} {
		pic := pathDraw(r, LectureView{Width: sz[0], Height: sz[1]})
		all := pathCheckSize(t, pic, sz[0], sz[1])
		if sz[0] < 20 {
			continue
		}
		// The first curves' glyphs are drawn and inked.
		if !strings.ContainsRune(all, 'a') || pic.Inks['a'] != 0 || pic.Inks['b'] != 1 {
			t.Errorf("%v: curve a missing or not inked: %v\n%s", sz, pic.Inks, all)
		}
		if sz[0] >= 60 && sz[1] >= 16 {
			for _, want := range []string{"a bmi", "b s5", "lasso weights", "λ, log scale, decreasing", "CV mse", "●", "| best λ", ": 1-SE λ", "45.2"} {
				if !strings.Contains(all, want) {
					t.Errorf("%v: no %q in\n%s", sz, want, all)
				}
			}
		}
	}
	// The best λ's mark lies on both panels, at the same column.
	pic := pathDraw(r, LectureView{Width: 100, Height: 30})
	if n := strings.Count(pic.Lines[1], "|"); n != 2 {
		t.Errorf("top row has %d best-λ marks, want one per panel: %q", n, pic.Lines[1])
	}
	// A feature keeps its letter as the path grows, once it has entered.
	final, _ := pathSeries(r)
	for i, f := range frames {
		idx, _ := pathSeries(f)
		for k := range f.EntryOrder {
			if idx[k] != final[k] {
				t.Fatalf("frame %d draws %s as %c; the whole path draws %s so", i, f.Features[idx[k]], pathGlyph(k), r.Features[final[k]])
			}
		}
	}
	// Every frame draws: the path growing, then the folds.
	for i, f := range frames {
		pic := pathDraw(f, LectureView{Width: 100, Height: 30})
		all := pathCheckSize(t, pic, 100, 30)
		switch {
		case i == 0 && !strings.Contains(all, "λ 1 of 40") || i == 0 && !strings.Contains(all, "the folds follow"):
			t.Errorf("first frame:\n%s", all)
		case i == 40 && !strings.Contains(all, "1 of 3 folds"):
			t.Errorf("first fold's frame:\n%s", all)
		}
	}
}

// With more than 26 features the 10 first to enter are drawn, and the
// legend says so; a logistic path names the class its weights favour.
func TestPathDrawingManyFeatures(t *testing.T) {
	r, _ := pathRun(t, "breast_cancer", map[string]string{"model": "logistic-l1", "lambdas": "12", "folds": "3"})
	pic := pathDraw(r, LectureView{Width: 118, Height: 32})
	all := pathCheckSize(t, pic, 118, 32)
	for _, want := range []string{"a " + r.EntryOrder[0], "j " + r.EntryOrder[9], "(10 first to enter of 30 features)", "log-odds of benign", "CV log-loss"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in\n%s", want, all)
		}
	}
	if _, ok := pic.Inks['k']; ok {
		t.Error("an eleventh curve is inked")
	}
}

func TestPathTables(t *testing.T) {
	r, _ := pathRun(t, "diabetes", map[string]string{"lambdas": "40", "folds": "3"})
	tables := pathTables(r)
	if len(tables) != 3 {
		t.Fatalf("%d tables", len(tables))
	}
	chosen := tables[0]
	if len(chosen.Rows) != 2 || chosen.Rows[0][0] != "minimum CV error" || chosen.Rows[1][0] != "one standard error" {
		t.Fatalf("chosen λ table %v", chosen)
	}
	b := *r.BestIndex
	o := *r.Index1SE
	if chosen.Rows[0][1] != numfmt.Sig(r.Lambdas[b], 4) || chosen.Rows[1][1] != numfmt.Sig(r.Lambdas[o], 4) ||
		chosen.Rows[0][2] != numfmt.Sig(r.CVError[b], 5) {
		t.Errorf("chosen λ rows %v; best λ %g (cv %g), 1-SE λ %g", chosen.Rows, r.Lambdas[b], r.CVError[b], r.Lambdas[o])
	}
	if !strings.HasSuffix(chosen.Rows[0][4], "of 10") {
		t.Errorf("nonzero cell %q", chosen.Rows[0][4])
	}
	entry := tables[1]
	if entry.Rows[0][1] != "bmi" || len(entry.Rows) != 10 {
		t.Errorf("entry table %v", entry.Rows)
	}
	// Logistic adds the error rate; ridge has no entry order.
	lr, _ := pathRun(t, "breast_cancer", map[string]string{"model": "logistic-l2", "lambdas": "8", "folds": "2"})
	lt := pathTables(lr)
	if len(lt) != 2 || lt[0].Columns[len(lt[0].Columns)-1] != "CV error rate" || !strings.HasSuffix(lt[0].Rows[0][5], "%") {
		t.Errorf("logistic tables %v", lt)
	}
	if pathTables("not a result") != nil {
		t.Error("tables of a foreign value")
	}
}

// A result with nothing computed yet, or a flat one, draws without
// panicking at any size.
func TestPathDrawingEdges(t *testing.T) {
	best := 0
	flat := &lecture.PathResult{Model: "ridge", Features: []string{"x"}, Lambdas: []float64{1, 0.1}, Folds: 2, FoldsDone: 2,
		Coefs: [][]float64{{0}, {0}}, Nonzero: []int{0, 0}, FoldErrors: [][]float64{{1, 1}, {1, 1}},
		CVError: []float64{1, 1}, CVSE: []float64{0, 0}, BestIndex: &best, Index1SE: &best, Metric: "mse"}
	for _, r := range []any{&lecture.PathResult{Lambdas: []float64{1, 0.1}, Features: []string{"x"}, Folds: 5}, flat, "junk", nil} {
		for _, sz := range [][2]int{{20, 6}, {78, 16}, {118, 32}, {1, 1}} {
			pathCheckSize(t, pathDraw(r, LectureView{Width: sz[0], Height: sz[1]}), sz[0], sz[1])
		}
	}
	if len(pathTables(flat)) != 2 {
		t.Error("a flat ridge result has its chosen-λ and weights tables")
	}
}

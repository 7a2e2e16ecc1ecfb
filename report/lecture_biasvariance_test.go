package report

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tealab/tealab/engine/lecture"
)

func bvResultFor(t *testing.T, settings map[string]string) any {
	t.Helper()
	e, err := lecture.Lookup("bias-variance")
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Parse(settings)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), lecture.In{Values: v}, func(lecture.Frame) {})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// bvFits checks a picture's size: at most h lines of at most w cells.
func bvFits(t *testing.T, pic Picture, w, h int) string {
	t.Helper()
	if len(pic.Lines) > h {
		t.Errorf("%d×%d: %d lines", w, h, len(pic.Lines))
	}
	for _, l := range pic.Lines {
		if n := utf8.RuneCountInString(l); n > w {
			t.Errorf("%d×%d: a line of %d cells: %q", w, h, n, l)
		}
	}
	return strings.Join(pic.Lines, "\n")
}

func TestBVDrawing(t *testing.T) {
	res := bvResultFor(t, nil)
	for _, size := range [][2]int{{78, 16}, {100, 30}, {118, 32}} {
		pic := DrawLecture("bias-variance", res, LectureView{Width: size[0], Height: size[1]})
		all := bvFits(t, pic, size[0], size[1])
		for _, want := range []string{"█ bias²", "▒ variance", "░ noise", "◆ MC test error", "sin(πx)", "○ mean h̄", "· fits", "degree 3: 50 fits", "▲"} {
			if !strings.Contains(all, want) {
				t.Errorf("%d×%d: no %q in\n%s", size[0], size[1], want, all)
			}
		}
		// every degree's column has its bar and its diamond
		if n := strings.Count(all, "◆"); n != 1+10 {
			t.Errorf("%d×%d: %d diamonds, want the legend's and 10", size[0], size[1], n)
		}
		for _, g := range "●○·█▒░◆" {
			if _, ok := pic.Inks[g]; !ok {
				t.Errorf("no ink for %c", g)
			}
		}
		if size[0] == 100 {
			t.Logf("\n%s", all)
		}
	}
	// the ticks name the degrees
	pic := DrawLecture("bias-variance", res, LectureView{Width: 100, Height: 30})
	ticks := strings.Fields(pic.Lines[len(pic.Lines)-3])
	if want := "-1 0 1 0 1 2 3 4 5 6 7 8 9"; strings.Join(ticks, " ") != want {
		t.Errorf("ticks %q, want x's and then the degrees %q", ticks, want)
	}
	// small sizes: the bars alone, within the size
	for _, size := range [][2]int{{20, 6}, {40, 9}, {59, 12}} {
		pic := DrawLecture("bias-variance", res, LectureView{Width: size[0], Height: size[1]})
		all := bvFits(t, pic, size[0], size[1])
		if !strings.Contains(all, "█") || strings.Contains(all, "●") {
			t.Errorf("%d×%d: want the bars alone:\n%s", size[0], size[1], all)
		}
	}
}

// Every model, many complexities, a clipped axis and a partial result draw
// within their sizes.
func TestBVDrawingOtherShapes(t *testing.T) {
	cases := []map[string]string{
		{"model": "knn", "k": "1..20"},
		{"model": "ridge", "lambda": "1e-9..1e3:200", "hypotheses": "5"},
		{"model": "tree", "depth": "1..30", "show": "last"},
		{"model": "poly", "design": "uniform", "show": "last"},
	}
	for _, c := range cases {
		res := bvResultFor(t, c)
		for _, size := range [][2]int{{20, 6}, {78, 16}, {118, 32}, {250, 80}} {
			bvFits(t, DrawLecture("bias-variance", res, LectureView{Width: size[0], Height: size[1]}), size[0], size[1])
		}
	}
	clipped := DrawLecture("bias-variance", bvResultFor(t, cases[3]), LectureView{Width: 100, Height: 30})
	if all := strings.Join(clipped.Lines, "\n"); !strings.Contains(all, "^ off the top") || !strings.Contains(all, "^^^") {
		t.Errorf("uniform design, degree 9: no clipped column marked:\n%s", all)
	}
	// a partial result (two degrees) and one decoded from JSON
	var partial any
	e, _ := lecture.Lookup("bias-variance")
	n := 0
	if _, err := e.Run(context.Background(), lecture.In{Values: e.Defaults()}, func(f lecture.Frame) {
		if n++; n == 2 {
			partial = f.Result
		}
	}); err != nil {
		t.Fatal(err)
	}
	bvFits(t, DrawLecture("bias-variance", partial, LectureView{Width: 100, Height: 30}), 100, 30)
	if tabs := LectureTables("bias-variance", partial); len(tabs) != 1 || len(tabs[0].Rows) != 2 {
		t.Errorf("partial: tables %v", tabs)
	}
}

func TestBVTables(t *testing.T) {
	res := bvResultFor(t, nil)
	tabs := LectureTables("bias-variance", res)
	if len(tabs) != 1 || len(tabs[0].Rows) != 10 {
		t.Fatalf("tables %v", tabs)
	}
	r := res.(lecture.BVResult)
	row := tabs[0].Rows[3]
	if row[0] != "3" || row[7] != "least test error" || !strings.HasPrefix(row[5], "0.1175 ± ") || row[1] != "0.00522" {
		t.Errorf("degree 3's row %q; result %+v", row, r.Rows[3])
	}
	many := LectureTables("bias-variance", bvResultFor(t, map[string]string{"model": "ridge", "lambda": "1e-9..1e3:200", "hypotheses": "5"}))
	if n := len(many[0].Rows); n > 27 || n < 20 {
		t.Errorf("200 λ: %d rows, want about 25", n)
	}
}

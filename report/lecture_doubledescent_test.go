package report

import (
	"context"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

func ddResultFor(t *testing.T, settings map[string]string) any {
	t.Helper()
	e, err := lecture.Lookup("double-descent")
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

func TestDDDrawing(t *testing.T) {
	res := ddResultFor(t, map[string]string{"features": "1..50,60,80,120,160", "trials": "10"})
	for _, size := range [][2]int{{78, 16}, {100, 30}, {118, 32}} {
		pic := DrawLecture("double-descent", res, LectureView{Width: size[0], Height: size[1]})
		all := bvFits(t, pic, size[0], size[1])
		for _, want := range []string{"● test MSE", "○ training MSE (bottom row: 0)", "│ p = n", "┈ noise σ²", "interpolation threshold p = n = 40", "p, random features", "least-norm fit"} {
			if !strings.Contains(all, want) {
				t.Errorf("%d×%d: no %q in\n%s", size[0], size[1], want, all)
			}
		}
		// the threshold's column is a line from top to bottom, and the
		// training error lies on the bottom row right of it
		lines := pic.Lines
		bottom := []rune(lines[len(lines)-5])
		if !strings.ContainsRune(string(bottom), '○') || strings.Count(string(bottom), "○") < 10 {
			t.Errorf("%d×%d: the training error (0 from p = n) is not along the bottom row %q", size[0], size[1], string(bottom))
		}
		for _, g := range "●○│┈" {
			if _, ok := pic.Inks[g]; !ok {
				t.Errorf("no ink for %c", g)
			}
		}
		if size[0] == 100 {
			t.Logf("\n%s", all)
		}
	}
	for _, size := range [][2]int{{20, 6}, {40, 9}, {250, 80}} {
		pic := DrawLecture("double-descent", res, LectureView{Width: size[0], Height: size[1]})
		if all := bvFits(t, pic, size[0], size[1]); !strings.Contains(all, "●") {
			t.Errorf("%d×%d: no test error:\n%s", size[0], size[1], all)
		}
	}
	// ridge (no zeros, no peak), log p, no noise, a partial result
	for _, s := range []map[string]string{
		{"ridge": "0.1", "features": "1..10,20..400:20", "trials": "2"},
		{"noise": "0", "features": "1,2,40,41", "trials": "2"},
		{"features": "1,2", "trials": "2", "points": "2"},
	} {
		res := ddResultFor(t, s)
		for _, size := range [][2]int{{20, 6}, {78, 16}, {118, 32}} {
			bvFits(t, DrawLecture("double-descent", res, LectureView{Width: size[0], Height: size[1]}), size[0], size[1])
		}
	}
	e, _ := lecture.Lookup("double-descent")
	var partial any
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	e.Run(ctx, lecture.In{Values: e.Defaults()}, func(f lecture.Frame) {
		if n++; n == 3 {
			partial = f.Result
			cancel()
		}
	})
	bvFits(t, DrawLecture("double-descent", partial, LectureView{Width: 100, Height: 30}), 100, 30)
}

func TestDDTables(t *testing.T) {
	res := ddResultFor(t, map[string]string{"features": "1..50,60,80,120,160", "trials": "10"})
	tabs := LectureTables("double-descent", res)
	if len(tabs) != 1 {
		t.Fatalf("tables %v", tabs)
	}
	r := res.(lecture.DDResult)
	var threshold []string
	for _, row := range tabs[0].Rows {
		if row[0] == "40" {
			threshold = row
		}
	}
	var want lecture.DDRow
	for _, row := range r.Rows {
		if row.Features == 40 {
			want = row
		}
	}
	if threshold == nil || threshold[1] != "0" || !strings.Contains(threshold[5], "interpolation threshold") || !strings.Contains(threshold[5], "largest test error") ||
		!strings.HasPrefix(threshold[2], numfmt.Sig(want.TestError, 4)+" ± ") {
		t.Errorf("the threshold's row %q (result %+v)", threshold, want)
	}
	for _, p := range []string{"1", "20", "80", "160"} {
		found := false
		for _, row := range tabs[0].Rows {
			found = found || row[0] == p
		}
		if !found {
			t.Errorf("no row for p = %s in %v", p, tabs[0].Rows)
		}
	}
}

package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/lecture"
)

func knRun(t *testing.T, settings map[string]string) *lecture.KernelResult {
	return lectureResult[lecture.KernelResult](t, "kernel", settings)
}

func TestKernelDrawing(t *testing.T) {
	for _, view := range []string{"rotate", "projections"} {
		r := knRun(t, map[string]string{"view": view})
		frames := LectureFrames("kernel", r)
		if want := map[string]int{"rotate": lecture.KernelFrames, "projections": 0}[view]; frames != want {
			t.Errorf("%s: %d frames, want %d", view, frames, want)
		}
		for _, size := range [][2]int{{78, 16}, {118, 32}, {100, 30}, {60, 30}, {20, 6}, {10, 2}, {250, 80}} {
			w, h := size[0], size[1]
			for _, f := range []int{0, 17, max(frames-1, 0)} {
				text := gdCheckSize(t, view, DrawLecture("kernel", r, LectureView{Width: w, Height: h, Frame: f}), w, h)
				if w < 20 {
					continue
				}
				for _, g := range []string{"●", "○", "·"} {
					if !strings.Contains(text, g) {
						t.Errorf("%s at %dx%d: no %q in\n%s", view, w, h, g, text)
					}
				}
				if w >= 78 && h >= 16 {
					for _, want := range []string{"100%", "70%", "50%"} {
						if !strings.Contains(text, want) {
							t.Errorf("%s at %dx%d: no %q in\n%s", view, w, h, want, text)
						}
					}
				}
				if w >= 100 && h >= 30 {
					for _, want := range []string{"▪", "circle r = 1.52", "x1 across, x2 up"} {
						if !strings.Contains(text, want) {
							t.Errorf("%s at %dx%d: no %q in\n%s", view, w, h, want, text)
						}
					}
				}
			}
		}
	}
	// the turn: the last frame is the start's view, other frames differ
	r := knRun(t, map[string]string{})
	at := func(f int) string {
		return strings.Join(DrawLecture("kernel", r, LectureView{Width: 100, Height: 30, Frame: f}).Lines, "\n")
	}
	if !strings.Contains(at(lecture.KernelFrames-1), "turned 30°") || !strings.Contains(at(2), "turned 60°") || at(2) == at(lecture.KernelFrames-1) {
		t.Errorf("frames do not turn:\n%s", at(2))
	}
	// the projections: the parabolic plane edge-on in z1–z3 is a row of
	// dots (z3 nearly constant on it)
	p := knRun(t, map[string]string{"view": "projections"})
	text := strings.Join(DrawLecture("kernel", p, LectureView{Width: 118, Height: 32}).Lines, "\n")
	if !strings.Contains(text, strings.Repeat("·", 30)) || !strings.Contains(text, "z1 across, z3 up") {
		t.Errorf("projections:\n%s", text)
	}
	// partial results (no plane, no line yet), extremes and results read
	// back from JSON draw within their size
	partial := *r
	partial.Fitted, partial.Searched = false, false
	for _, res := range []*lecture.KernelResult{&partial,
		knRun(t, map[string]string{"points": "3", "noise": "0", "inner": "2", "outer": "2"}),
		knRun(t, map[string]string{"map": "quadratic", "noise": "5", "points": "50", "view": "projections"})} {
		b, _ := json.Marshal(res)
		back, err := lecture.DecodeAs[lecture.KernelResult](b)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{78, 16}, {118, 32}, {20, 6}} {
			gdCheckSize(t, "kernel", DrawLecture("kernel", back, LectureView{Width: size[0], Height: size[1], Frame: 5}), size[0], size[1])
		}
	}
	lines := DrawLecture("kernel", &partial, LectureView{Width: 100, Height: 30}).Lines
	if body := strings.Join(lines[2:], "\n"); !strings.Contains(lines[1], "fitting") || strings.ContainsAny(body, "▪·") {
		t.Errorf("partial: a plane or a line drawn before they are found:\n%s", strings.Join(lines, "\n"))
	}
}

func TestKernelTables(t *testing.T) {
	tables := LectureTables("kernel", knRun(t, map[string]string{}))
	if len(tables) != 3 {
		t.Fatalf("tables %v", tables)
	}
	acc := tables[0].Rows
	if len(acc) != 3 || acc[0][2] != "70%" || acc[1][2] != "100%" || acc[2][2] != "50%" {
		t.Errorf("accuracies %v", acc)
	}
	if eq := tables[1].Rows[0][1]; !strings.Contains(eq, "·z3") || !strings.HasSuffix(eq, " = 0") {
		t.Errorf("plane %q", eq)
	}
	if row := tables[2].Rows[0]; row[0] != "circle" || row[2] != "1.522" {
		t.Errorf("induced %v", row)
	}
	if got := knEquation(lecture.KernelPlane{W: [3]float64{-1, 0.5, 2}, B: -3}); got != "−1·z1 + 0.5·z2 + 2·z3 − 3 = 0" {
		t.Errorf("equation %q", got)
	}
}

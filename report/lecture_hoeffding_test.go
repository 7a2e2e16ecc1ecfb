package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/lecture"
)

func hfRun(t *testing.T, settings map[string]string) *lecture.HoeffdingResult {
	return lectureResult[lecture.HoeffdingResult](t, "hoeffding", settings)
}

func TestHoeffdingDrawing(t *testing.T) {
	r := hfRun(t, map[string]string{})
	for _, size := range [][2]int{{78, 16}, {118, 32}, {100, 30}, {60, 30}, {20, 6}, {10, 3}, {250, 80}} {
		w, h := size[0], size[1]
		text := gdCheckSize(t, "hoeffding", DrawLecture("hoeffding", r, LectureView{Width: w, Height: h}), w, h)
		if w < 20 {
			continue
		}
		for _, g := range []string{"█", "▓", "│", "┆"} {
			if !strings.Contains(text, g) {
				t.Errorf("at %dx%d: no %q in\n%s", w, h, g, text)
			}
		}
		if w >= 78 && h >= 16 {
			for _, want := range []string{"●", "◇", "┊", "scaled to its peak", "log scale", "n=20", "n=500", "= 185", "δ = 0.05"} {
				if !strings.Contains(text, want) {
					t.Errorf("at %dx%d: no %q in\n%s", w, h, want, text)
				}
			}
		}
	}
	// extremes, Π > 1 and a result read back from JSON draw too
	for _, s := range []map[string]string{
		{"n": "1,7,300,100000", "risk": "0.999", "epsilon": "0.001", "dichotomies": "1e300", "delta": "1e-12"},
		{"n": "20", "dichotomies": "14"},
	} {
		r := hfRun(t, s)
		b, _ := json.Marshal(r)
		back, err := lecture.DecodeAs[lecture.HoeffdingResult](b)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{78, 16}, {118, 32}, {20, 6}} {
			gdCheckSize(t, s["n"], DrawLecture("hoeffding", back, LectureView{Width: size[0], Height: size[1]}), size[0], size[1])
		}
	}
	text := strings.Join(DrawLecture("hoeffding", hfRun(t, map[string]string{"n": "20", "dichotomies": "14"}), LectureView{Width: 118, Height: 32}).Lines, "\n")
	if !strings.Contains(text, "▪") || !strings.Contains(text, "Π = 14") {
		t.Errorf("Π > 1 draws no uniform bound:\n%s", text)
	}
}

func TestHoeffdingTables(t *testing.T) {
	tables := LectureTables("hoeffding", hfRun(t, map[string]string{}))
	if len(tables) != 2 || len(tables[0].Rows) != 2 {
		t.Fatalf("tables %v", tables)
	}
	row := strings.Join(tables[0].Rows[0], " ")
	for _, want := range []string{"20", "0.25", "0.09682", "0.1931", "1.341"} {
		if !strings.Contains(row, want) {
			t.Errorf("n=20 row %q lacks %q", row, want)
		}
	}
	if got := tables[1].Rows[0]; got[4] != "185" || got[6] != "738" {
		t.Errorf("sample sizes %q, want 185 and 738", got)
	}
}

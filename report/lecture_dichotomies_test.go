package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/lecture"
)

func dcRun(t *testing.T, settings map[string]string) *lecture.DichotomiesResult {
	return lectureResult[lecture.DichotomiesResult](t, "dichotomies", settings)
}

func TestDichotomiesDrawing(t *testing.T) {
	r := dcRun(t, map[string]string{})
	for _, size := range [][2]int{{78, 16}, {118, 32}, {100, 30}, {20, 6}, {10, 3}, {250, 80}} {
		w, h := size[0], size[1]
		text := gdCheckSize(t, "dichotomies", DrawLecture("dichotomies", r, LectureView{Width: w, Height: h}), w, h)
		if w < 20 {
			continue
		}
		for _, g := range []string{"●", "○", "Π(3)"} {
			if !strings.Contains(text, g) {
				t.Errorf("at %dx%d: no %q in\n%s", w, h, g, text)
			}
		}
		if w >= 78 && h >= 16 {
			for _, want := range []string{"·", "×", "┆", "Π(4) = 14 of 2⁴ = 16"} {
				if !strings.Contains(text, want) {
					t.Errorf("at %dx%d: no %q in\n%s", w, h, want, text)
				}
			}
		}
		if w >= 100 && h >= 30 { // every panel: 8 + 16 boxes, 2 of them dashed
			if n := strings.Count(text, "┌"); n != 24 {
				t.Errorf("at %dx%d: %d panels, want 24:\n%s", w, h, n, text)
			}
			if n := strings.Count(text, "×"); n != 2+1 { // the legend's and two boxes
				t.Errorf("at %dx%d: %d ×, want 3:\n%s", w, h, n, text)
			}
		}
	}
	// Too many panels to show: the header says how many are left out, and
	// labellings no halfplane makes stay in view.
	many := dcRun(t, map[string]string{"points": "8", "seed": "5"})
	text := gdCheckSize(t, "n=8", DrawLecture("dichotomies", many, LectureView{Width: 78, Height: 16}), 78, 16)
	if !strings.Contains(text, "more)") || !strings.Contains(text, "┆") || !strings.Contains(text, "Π(8) = 58") {
		t.Errorf("n=8 at 78x16:\n%s", text)
	}
	// every layout and size, read back from JSON, draws within its size
	for _, layout := range []string{"general", "convex", "collinear"} {
		r := dcRun(t, map[string]string{"points": "1..8", "layout": layout})
		b, _ := json.Marshal(r)
		back, err := lecture.DecodeAs[lecture.DichotomiesResult](b)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{78, 16}, {118, 32}, {20, 6}, {250, 80}} {
			gdCheckSize(t, layout, DrawLecture("dichotomies", back, LectureView{Width: size[0], Height: size[1]}), size[0], size[1])
		}
	}
}

// A panel draws its set as ● and the rest as ○, the line between them.
func TestDichotomiesPanel(t *testing.T) {
	s := lecture.DichotomySet{N: 2, Points: [][2]float64{{0, 0}, {100, 0}}, Masks: []int{1}}
	l := &lecture.DichoLine{Normal: [2]float64{-1, 0}, Offset: -50, Margin: 50}
	got := strings.Join(dcBoxLines(s, dcPanel{mask: 1, line: l}, 7, 3), "\n")
	want := "┌───────┐\n│   ·   │\n│●  ·  ○│\n│   ·   │\n└───────┘" // a flat box is widened about its line
	if got != want {
		t.Errorf("panel:\n%s\nwant\n%s", got, want)
	}
}

func TestDichotomiesTables(t *testing.T) {
	tables := LectureTables("dichotomies", dcRun(t, map[string]string{"layout": "convex"}))
	if len(tables) != 2 || len(tables[0].Rows) != 2 || len(tables[1].Rows) != 7 {
		t.Fatalf("tables %v", tables)
	}
	three, four := strings.Join(tables[0].Rows[0], "|"), strings.Join(tables[0].Rows[1], "|")
	if three != "3|on a circle|8|8|8|0|yes|—" {
		t.Errorf("n=3 row %q", three)
	}
	if !strings.HasPrefix(four, "4|on a circle|14|14|16|2|no|S = {0, 2}") && !strings.HasPrefix(four, "4|on a circle|14|14|16|2|no|S = {1, 3}") {
		t.Errorf("n=4 row %q", four)
	}
}

package report

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine/lecture"
)

func dcRun(t *testing.T, settings map[string]string) *lecture.DichotomiesResult {
	t.Helper()
	e, err := lecture.Lookup("dichotomies")
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Parse(settings)
	if err != nil {
		t.Fatal(err)
	}
	rec := lecture.Start(context.Background(), e, lecture.In{Values: v}, nil)
	if rec.Status != lecture.Done {
		t.Fatalf("%s: %s", rec.Status, rec.Error)
	}
	return rec.Result.(*lecture.DichotomiesResult)
}

func TestDichotomiesDrawing(t *testing.T) {
	r := dcRun(t, map[string]string{})
	for _, size := range [][2]int{{78, 16}, {118, 32}, {100, 30}, {20, 6}, {10, 2}, {250, 80}} {
		w, h := size[0], size[1]
		text := gdCheckSize(t, "dichotomies", DrawLecture("dichotomies", r, LectureView{Width: w, Height: h}), w, h)
		if w >= 78 {
			for _, want := range []string{"Π(4) = 14 of 2⁴ = 16 (Cover: 14)", "Π(3) = 8 of 2³ = 8", "●", "○", "×"} {
				if !strings.Contains(text, want) {
					t.Errorf("at %dx%d: no %q in\n%s", w, h, want, text)
				}
			}
		}
	}
	// many panels: the rows that do not fit say how many more
	big := dcRun(t, map[string]string{"points": "8", "layout": "convex"})
	text := gdCheckSize(t, "n=8", DrawLecture("dichotomies", big, LectureView{Width: 78, Height: 16}), 78, 16)
	if !strings.Contains(text, "more") || !strings.Contains(text, "Π(8) = 58 of 2⁸ = 256 (Cover: 58)") {
		t.Errorf("n=8 at 78x16:\n%s", text)
	}
	for _, s := range []map[string]string{{"points": "1..8", "layout": "collinear"}, {"points": "1,2"}} {
		r := dcRun(t, s)
		b, _ := json.Marshal(r)
		back, err := lecture.DecodeAs[lecture.DichotomiesResult](b)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{78, 16}, {118, 32}, {20, 6}} {
			gdCheckSize(t, s["points"], DrawLecture("dichotomies", back, LectureView{Width: size[0], Height: size[1]}), size[0], size[1])
		}
	}
}

func TestDichotomiesTables(t *testing.T) {
	tables := LectureTables("dichotomies", dcRun(t, map[string]string{}))
	if len(tables) != 1 || len(tables[0].Rows) != 2 {
		t.Fatalf("tables %v", tables)
	}
	row := tables[0].Rows[1]
	if row[0] != "4" || row[2] != "14" || row[3] != "14" || row[4] != "16" || row[6] != "1" {
		t.Errorf("n=4 row %v", row)
	}
}

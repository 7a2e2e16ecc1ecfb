package report

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tealab/tealab/engine/lecture"
)

func gdRun(t *testing.T, settings map[string]string) *lecture.GDResult {
	return lectureResult[lecture.GDResult](t, "gd", settings)
}

func gdCheckSize(t *testing.T, name string, pic Picture, w, h int) string {
	t.Helper()
	if len(pic.Lines) > h || len(pic.Lines) == 0 {
		t.Errorf("%s at %dx%d: %d lines", name, w, h, len(pic.Lines))
	}
	for i, l := range pic.Lines {
		if n := utf8.RuneCountInString(l); n > w {
			t.Errorf("%s at %dx%d: line %d has %d cells: %q", name, w, h, i, n, l)
		}
	}
	return strings.Join(pic.Lines, "\n")
}

func TestGDDrawing(t *testing.T) {
	ill := gdRun(t, map[string]string{"surface": "ill", "methods": "gd,momentum,newton", "lr": "0.105,0.055"})
	for _, size := range [][2]int{{78, 16}, {118, 32}, {100, 30}, {60, 30}, {20, 6}, {8, 3}, {250, 80}} {
		w, h := size[0], size[1]
		pic := DrawLecture("gd", ill, LectureView{Width: w, Height: h, Frame: ill.Steps})
		text := gdCheckSize(t, "ill", pic, w, h)
		if w < 20 {
			continue
		}
		for _, g := range []string{"◆", "●", "·", "*", "o", "+", "#"} {
			if !strings.Contains(text, g) {
				t.Errorf("ill at %dx%d: no %q in\n%s", w, h, g, text)
			}
		}
		if w >= 78 && h >= 16 {
			for _, want := range []string{"f(w) = 10·w1² + w2²", "w1 ×-1.1, w2 ×0.79", "w1 ×-0.1, w2 ×0.89", "off the frame at step 2", "newton (full step)", "step t", "log scale"} {
				if !strings.Contains(text, want) {
					t.Errorf("ill at %dx%d: no %q in\n%s", w, h, want, text)
				}
			}
		}
	}
	pic := DrawLecture("gd", ill, LectureView{Width: 100, Height: 30, Frame: ill.Steps})
	for i, g := range []rune{'*', 'o', '+', 'x', '#', '@'} {
		if got, ok := pic.Inks[g]; ok != (i < 5) || ok && got != i {
			t.Errorf("ink of %q: %d, %v", g, got, ok)
		}
	}

	// The data surfaces, a diverging path stopped at its bound, and a
	// result read back from JSON draw too.
	for _, s := range []map[string]string{
		{"surface": "logistic", "methods": "gd,adam,rmsprop", "lr": "1"},
		{"surface": "leastsquares", "lr": "0.1,0.5,0.55", "steps": "40"},
		{"surface": "ill", "lr": "0.3", "steps": "10000", "methods": "gd,adam"},
		{"surface": "bowl", "a1": "1000", "a2": "0.001", "start": "0,0"},
	} {
		r := gdRun(t, s)
		b, _ := json.Marshal(r)
		back, err := lecture.DecodeAs[lecture.GDResult](b)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{78, 16}, {118, 32}, {20, 6}} {
			gdCheckSize(t, s["surface"], DrawLecture("gd", back, LectureView{Width: size[0], Height: size[1], Frame: r.Steps}), size[0], size[1])
		}
	}
	r := gdRun(t, map[string]string{"surface": "ill", "lr": "0.3", "steps": "10000"})
	text := strings.Join(DrawLecture("gd", r, LectureView{Width: 100, Height: 30, Frame: r.Steps}).Lines, "\n")
	if !strings.Contains(text, "diverged at step") {
		t.Errorf("a path past its bound does not say it diverged:\n%s", text)
	}
}

// Frame f draws each path up to its f-th step: frame 0 shows the start
// alone, the last the whole path.
func TestGDFrames(t *testing.T) {
	r := gdRun(t, map[string]string{"methods": "gd", "lr": "0.105"})
	if n := LectureFrames("gd", r); n != 21 {
		t.Fatalf("frames %d, want 21", n)
	}
	count := func(f int) int {
		pic := DrawLecture("gd", r, LectureView{Width: 100, Height: 30, Frame: f})
		n := 0
		for _, l := range pic.Lines {
			n += strings.Count(l, "*")
		}
		return n
	}
	first, mid, last := count(0), count(3), count(20)
	if !(first < mid && mid < last) {
		t.Errorf("glyphs drawn at frames 0, 3, 20: %d, %d, %d; want growing", first, mid, last)
	}
}

func TestGDTables(t *testing.T) {
	r := gdRun(t, map[string]string{"surface": "ill", "methods": "gd,newton"})
	tables := LectureTables("gd", r)
	if len(tables) != 2 || len(tables[1].Rows) != 3 {
		t.Fatalf("tables %+v", tables)
	}
	var b strings.Builder
	if err := WriteLectureTables(&b, tables); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	// GD at ε = 0.105 on 10w1² + w2² from (−4, 3): w1 = −4·(−1.1)^20 =
	// −26.91, w2 = 3·0.79^20 = 0.02689, cost 10·26.91² + 0.02689² = 7241.
	for _, want := range []string{"f(w) = 10·w1² + w2²", "(-4, 3)", "169", "7241", "-26.91", "0.02689", "never (cost rising)", "0.2917", "not in 20", "1 (full step)"} {
		if !strings.Contains(text, want) {
			t.Errorf("tables lack %q:\n%s", want, text)
		}
	}
}

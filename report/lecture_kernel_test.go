package report

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tealab/tealab/engine/lecture"
)

func kernelRun(t *testing.T, settings map[string]string) any {
	t.Helper()
	e, _ := lecture.Lookup("kernel")
	v, err := e.Parse(settings)
	if err != nil {
		t.Fatal(err)
	}
	return lecture.Start(context.Background(), e, lecture.In{Values: v}, nil).Result
}

func TestKernelDrawingFitsEverySize(t *testing.T) {
	for _, s := range []map[string]string{nil, {"view": "projections"}, {"view": "projections", "map": "quadratic"}} {
		res := kernelRun(t, s)
		for _, size := range [][2]int{{118, 32}, {100, 30}, {78, 16}, {20, 6}, {5, 2}} {
			for _, frame := range []int{0, 17, 35} {
				pic := DrawLecture("kernel", res, LectureView{Width: size[0], Height: size[1], Frame: frame})
				if len(pic.Lines) > size[1] {
					t.Errorf("%v at %v: %d lines", s, size, len(pic.Lines))
				}
				for _, l := range pic.Lines {
					if utf8.RuneCountInString(l) > size[0] {
						t.Errorf("%v at %v: line of %d cells: %q", s, size, utf8.RuneCountInString(l), l)
					}
				}
				text := strings.Join(pic.Lines, "\n")
				if size[0] >= 78 && (!strings.ContainsRune(text, kernelInner) || !strings.ContainsRune(text, kernelOuter) || !strings.ContainsRune(text, kernelPlane)) {
					t.Errorf("%v at %v: the classes or the plane are missing:\n%s", s, size, text)
				}
			}
		}
	}
}

func TestKernelTablesAndFrames(t *testing.T) {
	res := kernelRun(t, nil)
	if n := LectureFrames("kernel", res); n != kernelTurns {
		t.Errorf("the turning view has %d frames, want %d", n, kernelTurns)
	}
	if n := LectureFrames("kernel", kernelRun(t, map[string]string{"view": "projections"})); n != 0 {
		t.Errorf("the projections have %d frames, want none", n)
	}
	var b strings.Builder
	if err := WriteLectureTables(&b, LectureTables("kernel", res)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"100%", "lifted space", "circle: radius"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the tables lack %q:\n%s", want, b.String())
		}
	}
	a := DrawLecture("kernel", res, LectureView{Width: 100, Height: 30, Frame: 0})
	c := DrawLecture("kernel", res, LectureView{Width: 100, Height: 30, Frame: 9})
	if strings.Join(a.Lines, "\n") == strings.Join(c.Lines, "\n") {
		t.Error("turning a quarter changed nothing")
	}
}

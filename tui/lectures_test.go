package tui

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/tui/screens/lectures"
)

func init() { lectures.PlayEvery = 0 } // a picture plays through at once

// openLecture opens the experiments from the data screen and sets name's
// knobs: the form.
func openLecture(t testing.TB, hs *harness, name string) {
	t.Helper()
	hs.press("L")
	if hs.a.cur != screenLectures {
		t.Fatalf("L on the data screen opened %s", screenNames[hs.a.cur])
	}
	i := slices.Index(lecture.Names(), name)
	if i < 0 {
		t.Fatalf("no experiment %s", name)
	}
	for range i {
		hs.press("down")
	}
	hs.press("enter")
}

// runLecture runs name with its default knobs and waits for its end.
func runLecture(t testing.TB, hs *harness, name string) *lecture.Record {
	t.Helper()
	openLecture(t, hs, name)
	hs.press("enter")
	rec := hs.a.lect.Shown()
	if rec == nil || rec.Status != lecture.Done {
		t.Fatalf("%s did not run to its end: %+v\n%s", name, rec, hs.View())
	}
	rec.Wall = time.Second // the golden's time
	return rec
}

// TestLectureGoldens draws each experiment's screen, run with its default
// knobs, at the smallest size and at 120x40, without colour.
func TestLectureGoldens(t *testing.T) {
	withNoColor(t)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		for _, name := range append([]string{"menu"}, lecture.Names()...) {
			t.Run(fmt.Sprintf("%s-%dx%d", name, w, h), func(t *testing.T) {
				hs := newHarness(t, Options{}, w, h)
				if name == "menu" {
					hs.press("L")
				} else {
					runLecture(t, hs, name)
				}
				v := hs.a.View()
				if bad := colourSGR(v); len(bad) > 0 {
					t.Errorf("colour drawn (SGR %s)", strings.Join(bad, ","))
				}
				checkFrame(t, ansi.Strip(v), w, h)
				golden.RequireEqual(t, v)
			})
		}
	}
}

// TestLectureFormChecksKnobsAsTyped: a bad list is refused under the
// field, in one line naming the knob, and nothing runs; fixed, it runs.
func TestLectureFormChecksKnobsAsTyped(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 100, 30)
	openLecture(t, hs, "gd")
	for range 20 {
		if hs.a.lect.Knob() == "lr" {
			break
		}
		hs.press("down")
	}
	if hs.a.lect.Knob() != "lr" {
		t.Fatalf("no lr knob in gd's form:\n%s", hs.View())
	}
	hs.press("ctrl+u")
	hs.typeText("0.1..x")
	hs.press("enter")
	if hs.a.lect.Running() || hs.a.lect.Shown() != nil {
		t.Fatalf("a form with an error ran")
	}
	v := hs.View()
	if !strings.Contains(v, "0.1..x") || !strings.Contains(v, "parameter lr") {
		t.Errorf("the error does not show under lr:\n%s", v)
	}
	hs.press("ctrl+u")
	hs.typeText("0.05")
	hs.press("enter")
	if rec := hs.a.lect.Shown(); rec == nil || rec.Status != lecture.Done || rec.Settings()["lr"] != "0.05" {
		t.Fatalf("the mended form did not run with lr=0.05: %+v", rec)
	}
}

// TestLectureRecordedAndExported: a run of an experiment joins the run
// history, shows again in a new session's menu, and exports as Markdown.
func TestLectureRecordedAndExported(t *testing.T) {
	t.Setenv("TEALAB_HISTORY", "on")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	name := lecture.Names()[0]
	hs := newHarness(t, Options{}, 120, 40)
	rec := runLecture(t, hs, name)
	hs.press("x")
	files, _ := filepath.Glob(filepath.Join(hs.a.c.ExportDir, "lab-"+name+"*.md"))
	if len(files) != 1 {
		t.Fatalf("export wrote %v:\n%s", files, hs.View())
	}
	b, _ := os.ReadFile(files[0])
	e, _ := lecture.Lookup(name)
	for _, want := range []string{"# " + e.Title, e.Source, "tealab lab " + name, "```"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the export lacks %q:\n%s", want, b)
		}
	}
	hs.a.c.WaitWrites(time.Second)

	again := newHarness(t, Options{}, 120, 40)
	again.press("L")
	v := again.View()
	if !strings.Contains(v, "recorded") || !strings.Contains(v, name+" ") {
		t.Fatalf("the new session's menu lacks the recorded run:\n%s", v)
	}
	for range len(lecture.Names()) {
		again.press("down")
	}
	again.press("enter")
	shown := again.a.lect.Shown()
	if shown == nil || shown.Experiment != name || shown.Status != lecture.Done || shown.Result == nil {
		t.Fatalf("the recorded run did not open: %+v", shown)
	}
	if got, want := shown.Settings(), rec.Settings(); !maps.Equal(got, want) {
		t.Errorf("recorded knobs %v, ran with %v", got, want)
	}
}

// TestLectureCancelKeepsWhatWasComputed: c stops an experiment in flight;
// its partial picture stays, said to be cancelled.
func TestLectureCancelKeepsWhatWasComputed(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 120, 40)
	openLecture(t, hs, "double-descent")
	for range 20 {
		if hs.a.lect.Knob() == "trials" {
			break
		}
		hs.press("down")
	}
	hs.a.lect.Field().SetValue("300")
	hs.queue = append(hs.queue, keyMsg("enter"))
	hs.runUntil(func() bool { return hs.a.lect.Running() })
	hs.press("c")
	rec := hs.a.lect.Shown()
	if hs.a.lect.Running() || rec == nil || rec.Status != lecture.Cancelled {
		t.Fatalf("c did not cancel: %+v", rec)
	}
	if v := hs.View(); !strings.Contains(v, "cancelled: what was computed so far") {
		t.Errorf("the status does not say it was cancelled:\n%s", v)
	}
}

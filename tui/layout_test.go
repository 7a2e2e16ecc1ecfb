package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Below the smallest usable size, one centred line says the
// size needed, never cut.
func TestTooSmallIsOneWholeLine(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{30, 8}, {60, 15}, {12, 3}, {79, 24}} {
		a := newTestApp(t, Options{}, sz[0], sz[1])
		v := view(a)
		checkFrame(t, v, sz[0], sz[1])
		text := strings.TrimSpace(v)
		if strings.Contains(text, "\n") || strings.Contains(text, "…") {
			t.Errorf("%dx%d: %q is not one whole line", sz[0], sz[1], text)
		}
		if sz[0] >= 10 && !strings.Contains(text, "80x24") {
			t.Errorf("%dx%d: %q does not say the size needed", sz[0], sz[1], text)
		}
	}
}

// The model list's columns were misaligned (padding counted
// bytes, and a title cut with … is three bytes for one cell).
func TestModelColumnsAligned(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 120, 200} {
		hs := newHarness(t, Options{Data: "iris"}, w, 40)
		hs.press("enter")
		// The summary column starts at the same cell on every model line.
		col := -1
		for _, sp := range hs.a.model.Specs {
			for _, line := range strings.Split(hs.View(), "\n") {
				if !strings.Contains(line, " "+sp.Name+" ") || strings.Contains(line, "╭") {
					continue
				}
				i := strings.Index(line, string([]rune(sp.Summary)[:16]))
				if i < 0 {
					continue
				}
				c := ansi.StringWidth(line[:i])
				if col < 0 {
					col = c
				} else if c != col {
					t.Errorf("%d columns: %s's summary starts at cell %d, others at %d:\n%s", w, sp.Name, c, col, line)
				}
				break
			}
		}
		if col < 0 {
			t.Errorf("%d columns: no summary column found", w)
		}
	}
}

// At 200x60 the screens use the room (the curves beside the
// figures, the live figures beside the charts); at 80x24 the summary
// scrolls instead of losing its last lines.
func TestSpaceAtEverySize(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "breast_cancer", Model: "logistic", Params: paramsOf("logistic", map[string]string{"solver": "gd", "max_iter": "50"}), Eval: cv(5), Train: true}, 200, 60)
	v := hs.View()
	mustContain(t, v, "accuracy per fold", "validation log-loss · fold 1, others faint", "validation error rate · fold 1, others faint")
	checkFrame(t, v, 200, 60)

	hs = newHarness(t, Options{Data: "iris", Model: "tuitest_slow", Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})}, 200, 60)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) > 3 }) {
		t.Fatal("no progress")
	}
	job := hs.a.job
	t.Cleanup(func() { job.Stop(5 * time.Second) })
	mustContain(t, view(hs.a), "live figures", "baseline error", "settings")

	hs = newHarness(t, Options{Data: "iris", Model: "logistic", Eval: cv(5), Train: true}, 80, 24)
	v = hs.View()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "accuracy", "↑/↓ scroll")
	for range 30 {
		hs.press("down")
	}
	mustContain(t, hs.View(), "seed", "fitting", "shown model")
}

// At 200x60 the ROC plot keeps a square aspect and lists the areas beside
// it.
func TestROCUsesTheRoom(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, 200, 60)
	hs.resultTab("ROC")
	v := hs.View()
	checkFrame(t, v, 200, 60)
	mustContain(t, v, "area under each curve", "macro mean", "versicolor")
}

// The live charts were 2-3 rows tall at 80x24 and 120x40 (the validation
// curves, the decision map and a family's view all stacked beside the
// training loss): every pane now has at least eight rows, the views that
// do not fit are on further pages, tab shows them in turn, and the footer
// says which page is shown.
func TestLiveChartsHaveRoom(t *testing.T) {
	t.Parallel()
	slow := paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})
	for _, c := range []struct {
		w, h, pages int
	}{{80, 24, 2}, {120, 40, 1}, {200, 60, 1}} {
		hs := newHarness(t, Options{Data: "moons", Model: "tuitest_slow", Params: slow}, c.w, c.h)
		hs.queue = append(hs.queue, keyMsg("enter"))
		if !hs.runUntil(func() bool { return trainSteps(hs) > 3 }) {
			t.Fatal("no progress")
		}
		job := hs.a.job
		t.Cleanup(func() { job.Stop(5 * time.Second) })
		lv := &hs.a.train.Live
		if len(lv.Views) != 3 {
			t.Fatalf("%dx%d: %d live views, want the loss, the validation curves and the map", c.w, c.h, len(lv.Views))
		}
		seen := map[int]bool{}
		for page := range c.pages {
			v := hs.View()
			checkFrame(t, v, c.w, c.h)
			if c.pages > 1 {
				mustContain(t, v, fmt.Sprintf("tab charts %d/%d", page+1, c.pages))
			} else {
				mustNotShow(t, v, "tab charts")
			}
			for i, lvw := range lv.Views {
				if !strings.Contains(v, firstLine(lvw.View())) {
					continue
				}
				seen[i] = true
				if rows := lipgloss.Height(lvw.View()); rows < 8*lvw.Panes() {
					t.Errorf("%dx%d: view %d (%T) has %d rows for %d panes, want at least 8 a pane", c.w, c.h, i, lvw, rows, lvw.Panes())
				}
			}
			hs.a.Update(keyMsg("tab")) // not hs.press: the run would have to end first
		}
		if len(seen) != len(lv.Views) {
			t.Errorf("%dx%d: views %v shown over %d pages, want all %d", c.w, c.h, seen, c.pages, len(lv.Views))
		}
		if c.pages > 1 {
			mustContain(t, hs.View(), "tab charts 1/") // after the last, the first
		}
	}
}

// firstLine is a view's first line without its styles, trimmed: enough to
// find it on the screen.
func firstLine(v string) string {
	l, _, _ := strings.Cut(ansi.Strip(v), "\n")
	return strings.TrimSpace(l)
}

// showLive turns the training screen's pages of charts (tab) until one
// shows text; it reports whether one did. It sends the key without
// settling, as the run is still going.
func showLive(hs *harness, text string) bool {
	_, pages := hs.a.train.Live.PageOf()
	for range max(pages, 1) {
		if strings.Contains(hs.View(), text) {
			return true
		}
		hs.a.Update(keyMsg("tab"))
	}
	return false
}

package tui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	longtest "github.com/tealab/tealab/internal/sweep"
)

// Random keys at random window sizes, on every screen a person can reach:
// the root model never panics, and no rendered line is wider than the
// window nor the frame taller (the property the bad-input probe
// checked by hand with 200 resizes and 480 keys a second).
func TestRandomKeysAndSizesLong(t *testing.T) {
	t.Parallel()
	keys := []string{"up", "down", "left", "right", "enter", "enter", "enter", "esc", "tab", "shift+tab",
		"space", "backspace", "ctrl+r", "?", "t", "R", "[", "]", "+", "-", "x", "y", "p", "m", "c", "d",
		"r", "1", "0", "n", "q", "/", "e", "s"}
	runs, perRun := 4, 250 // one run for each data; a long sweep (package sweep) makes 12
	if longtest.Long(t) {
		runs = 12
	}
	for seed := range uint64(runs) {
		r := rand.New(rand.NewPCG(seed, 99))
		w, h := 20+r.IntN(200), 6+r.IntN(60)
		hs := newHarness(t, Options{Data: []string{"", "iris", "moons", "diabetes"}[seed%4]}, w, h)
		var trail []string
		for step := range perRun {
			if r.IntN(12) == 0 {
				w, h = 20+r.IntN(200), 6+r.IntN(60)
				trail = append(trail, fmt.Sprintf("%dx%d", w, h))
				hs.send(tea.WindowSizeMsg{Width: w, Height: h})
			} else {
				k := keys[r.IntN(len(keys))]
				trail = append(trail, k)
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("seed %d, step %d: panic %v after %s", seed, step, p, strings.Join(trail, " "))
						}
					}()
					hs.press(k)
				}()
			}
			v := view(hs.a)
			lines := strings.Split(v, "\n")
			if len(lines) > h {
				t.Fatalf("seed %d, step %d (%dx%d): %d lines after %s", seed, step, w, h, len(lines), strings.Join(trail, " "))
			}
			for i, l := range lines {
				if n := ansi.StringWidth(l); n > w {
					t.Fatalf("seed %d, step %d (%dx%d): line %d is %d cells after %s:\n%s", seed, step, w, h, i, n, strings.Join(trail, " "), v)
				}
			}
		}
	}
}

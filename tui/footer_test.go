package tui

import (
	"strings"
	"testing"
)

// lastLine is the footer of a view.
func lastLine(v string) string {
	lines := strings.Split(v, "\n")
	return strings.TrimRight(lines[len(lines)-1], " ")
}

// The footer is cut at 80 and 120 columns; it must keep
// "? help · q quit" at its end on every screen.
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 120} {
		hs := newHarness(t, Options{}, w, 30)
		check := func(where string) {
			t.Helper()
			if f := lastLine(hs.View()); !strings.HasSuffix(f, "? help · q quit") {
				t.Errorf("%d columns, %s: footer %q does not end with '? help · q quit'", w, where, f)
			}
		}
		check("data list")
		hs.pickData("iris")
		check("data preview")
		hs.press("enter")
		check("model list")
		hs.pickModel("logistic")
		hs.focusParam("solver")
		check("parameters (a choice)")
		hs.press("enter")
		if !hs.runUntil(func() bool { return hs.a.cur == screenResults }) {
			t.Fatalf("training did not reach the results: screen %v", hs.a.cur)
		}
		check("results")
		hs.press("R")
		check("runs")
	}
}

// While a text field has focus, letters are typed into it, so
// the footer must not offer q, R, t or ?.
func TestFooterWhileTyping(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic"}, 120, 30)
	hs.focusParam("C")
	if !hs.a.params.Typing() {
		t.Fatal("the C field should have the keyboard")
	}
	f := lastLine(hs.View())
	for _, bad := range []string{"q quit", "R runs", "t theme", "? help"} {
		if strings.Contains(f, bad) {
			t.Errorf("footer %q offers %q while a field has focus", f, bad)
		}
	}
	if !strings.Contains(f, "ctrl+c quit") || !strings.Contains(f, "esc") {
		t.Errorf("footer %q should offer esc and ctrl+c while typing", f)
	}
}

// The footer names the theme in use, and t changes it.
func TestFooterNamesTheme(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 160, 30)
	if f := lastLine(hs.View()); !strings.Contains(f, "theme: dark") {
		t.Errorf("footer %q does not name the theme", f)
	}
	hs.press("t")
	if f := lastLine(hs.View()); !strings.Contains(f, "theme: light") {
		t.Errorf("after t, footer %q does not name the light theme", f)
	}
}

// The full help (?) lost its last column at 80 columns: every key shows,
// the columns wrap to further rows.
func TestFullHelpFitsAt80(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "logistic"}, 80, 24)
	hs.press("?")
	v := hs.View()
	checkFrame(t, v, 80, 24)
	mustContain(t, v, "q quit", "t theme: dark", "R   runs", "↑/shift+tab previous", "ctrl+r defaults")
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "…") && strings.Contains(line, "│") {
			t.Errorf("help cut: %q", line)
		}
	}
}

// On the first screen, the data list, esc has nowhere to go back to: the
// footer and the help do not offer it there (they said "esc back", which
// did nothing); the preview, the list's filter and the next screens do.
func TestNoEscBackOnTheFirstScreen(t *testing.T) {
	hs := newHarness(t, Options{}, 120, 30)
	offers := func(where, want string, on bool) {
		t.Helper()
		f := lastLine(hs.View())
		if strings.Contains(f, want) != on {
			t.Errorf("%s: footer %q, want %q shown %v", where, f, want, on)
		}
		hs.press("?")
		if help := hs.View(); strings.Contains(help, "esc") != on {
			t.Errorf("%s: the help lists esc %v, want %v:\n%s", where, !on, on, help)
		}
		hs.press("?")
	}
	offers("data list", "esc back", false)
	hs.press("esc")
	if hs.a.cur != screenData || hs.a.ctx.Err() != nil {
		t.Fatal("esc on the data list left it")
	}
	hs.pickData("iris")
	offers("data preview", "esc back", true)
	hs.press("esc")
	offers("data list again", "esc back", false)
	hs.press("/")
	hs.typeText("ir")
	hs.press("enter")
	offers("a kept filter", "esc clear filter", true)
	hs.press("esc", "enter")
	if hs.a.cur != screenModel {
		t.Fatalf("screen %v, want the models", hs.a.cur)
	}
	offers("model list", "esc back", true)
}

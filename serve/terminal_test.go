package serve

import (
	"testing"

	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"
)

// A lab's colours are the client's terminal's: its TERM and COLORTERM, as
// the client sent them; none without a TERM or on a dumb one; and no
// colour, but bold and reverse, under NO_COLOR of any value.
func TestProfileIsTheClientsTerminals(t *testing.T) {
	for _, tc := range []struct {
		term    string
		env     []string
		noColor bool
		want    colorprofile.Profile
	}{
		{"xterm-256color", nil, false, colorprofile.ANSI256},
		{"xterm", nil, false, colorprofile.ANSI},
		{"xterm-256color", []string{"COLORTERM=truecolor"}, false, colorprofile.TrueColor},
		{"xterm-256color", []string{"NO_COLOR=1"}, true, colorprofile.ASCII},
		{"xterm-256color", []string{"NO_COLOR=yes", "COLORTERM=truecolor"}, true, colorprofile.ASCII},
		{"xterm-256color", []string{"TERM=dumb"}, false, colorprofile.ANSI256}, // the pty's TERM wins
		{"dumb", []string{"CLICOLOR_FORCE=1"}, false, colorprofile.NoTTY},
		{"", []string{"COLORTERM=truecolor"}, false, colorprofile.NoTTY},
	} {
		env := append(tc.env, "TERM="+tc.term)
		if got := profile(env, tc.term, tc.noColor); got != tc.want {
			t.Errorf("TERM=%q %v NO_COLOR %v: %v, want %v", tc.term, tc.env, tc.noColor, got, tc.want)
		}
	}
}

// A size of 0 is drawn 80x24, any size at most maxWidth x maxHeight.
func TestSizeOfAWindow(t *testing.T) {
	for _, tc := range []struct {
		w, h, width, height int
		clamped             bool
	}{
		{0, 0, 80, 24, false},
		{120, 0, 120, 24, false},
		{0, 40, 80, 40, false},
		{100, 30, 100, 30, false},
		{65535, 30, maxWidth, 30, true},
		{100, 65535, 100, maxHeight, true},
	} {
		width, height, clamped := size(ssh.Window{Width: tc.w, Height: tc.h})
		if width != tc.width || height != tc.height || clamped != tc.clamped {
			t.Errorf("%dx%d: %dx%d clamped %v, want %dx%d clamped %v", tc.w, tc.h, width, height, clamped, tc.width, tc.height, tc.clamped)
		}
	}
}

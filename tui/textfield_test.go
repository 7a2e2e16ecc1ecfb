package tui

import (
	"testing"

	"charm.land/bubbles/v2/textinput"
	"github.com/tealab/tealab/tui/kit"
)

// alt+d deletes forward to the end of the word, as readline's kill-word
// (M-d) does: from inside a word to its end, from before a word (spaces
// first) to the end of that word; bubbles v1.0.0 panicked with the cursor
// on the last character.
func TestDeleteWordForward(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		pos  int
		want string
	}{
		{"foo bar", 0, " bar"},
		{"foo bar", 1, "f bar"},
		{"foo bar", 3, "foo"},
		{"foo  bar baz", 3, "foo baz"},
		{"foo bar", 6, "foo ba"}, // on the last character
		{"foo bar", 7, "foo bar"},
		{"a", 0, ""},
		{"", 0, ""},
		{"x  ", 1, "x"},
		{"é ü", 1, "é"},
	} {
		f := kit.NewInput()
		f.Focus()
		f.SetValue(tc.text)
		f.SetCursor(tc.pos)
		f, _ = f.Update(namedKey("alt+d"))
		if f.Value() != tc.want || f.Position() != min(tc.pos, len([]rune(tc.want))) {
			t.Errorf("%q at %d: alt+d gave %q at %d, want %q", tc.text, tc.pos, f.Value(), f.Position(), tc.want)
		}
	}
	masked := kit.NewInput()
	masked.EchoMode = textinput.EchoPassword
	masked.Focus()
	masked.SetValue("ab cd")
	masked.SetCursor(1)
	if masked, _ = masked.Update(namedKey("alt+delete")); masked.Value() != "a" {
		t.Errorf("masked field: alt+delete left %q, want everything after the cursor gone", masked.Value())
	}
	blurred := kit.NewInput()
	blurred.SetValue("ab")
	blurred.SetCursor(0)
	if blurred, _ = blurred.Update(namedKey("alt+d")); blurred.Value() != "ab" {
		t.Errorf("a field without the keyboard deleted a word: %q", blurred.Value())
	}
}

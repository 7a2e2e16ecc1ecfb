package kit

import (
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/themes"
)

// TextField is every text field of the lab: a bubbles text input drawn in
// the lab's theme, whose delete-word-forward (alt+d, alt+delete) is done
// here, because bubbles (v1.0.0 to v2.2.1) indexes past the end of the text
// when the cursor stands on its last character, and the panic would close
// the lab.
type TextField struct{ textinput.Model }

// View draws the field width cells wide (0: as it is) in the theme of st:
// its placeholder muted (bubbles' own is a grey, drawn even by the mono
// theme), its text and its steady cursor (reverse) in no colour of their
// own.
func (f TextField) View(st *themes.Styles, width int) string {
	muted := textinput.StyleState{Placeholder: st.Muted, Suggestion: st.Muted}
	f.SetStyles(textinput.Styles{Focused: muted, Blurred: muted})
	if width > 0 {
		f.SetWidth(width)
	}
	return f.Model.View()
}

// Update is the input's Update, the delete-word-forward keys excepted.
func (f TextField) Update(msg tea.Msg) (TextField, tea.Cmd) {
	if km, ok := msg.(tea.KeyPressMsg); ok && f.Focused() && key.Matches(km, f.KeyMap.DeleteWordForward) {
		f.deleteWordForward()
		return f, nil
	}
	var cmd tea.Cmd
	f.Model, cmd = f.Model.Update(msg)
	return f, cmd
}

// deleteWordForward deletes from the cursor to the end of the next word
// (the spaces before it included), as readline's alt+d does; a masked field
// loses all its text after the cursor, so as not to reveal word breaks.
func (f *TextField) deleteWordForward() {
	text := []rune(f.Value())
	pos := min(f.Position(), len(text))
	end := pos
	if f.EchoMode != textinput.EchoNormal {
		end = len(text)
	}
	for end < len(text) && unicode.IsSpace(text[end]) {
		end++
	}
	for end < len(text) && !unicode.IsSpace(text[end]) {
		end++
	}
	f.SetValue(string(text[:pos]) + string(text[end:]))
	f.SetCursor(pos)
}

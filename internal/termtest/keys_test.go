package termtest

import "testing"

// A pressed key reads back as the name it was pressed by, which is what
// key bindings match.
func TestPressRoundTrips(t *testing.T) {
	for _, name := range []string{"enter", "esc", "tab", "shift+tab", "space", "ctrl+c", "ctrl+w", "alt+d",
		"alt+right", "pgdown", "q", "Q", "?", "/", "é", "backspace", "home"} {
		if got := Press(name).String(); got != name {
			t.Errorf("Press(%q).String() = %q", name, got)
		}
	}
	if k := Press("space"); k.Text != " " {
		t.Errorf("space types %q, want a space", k.Text)
	}
	if k := Press("ctrl+c"); k.Text != "" {
		t.Errorf("ctrl+c types %q, want nothing", k.Text)
	}
	if got := len(Type("a b")); got != 3 {
		t.Errorf("Type(\"a b\") is %d keys, want 3", got)
	}
}

func TestPressRefusesWhatIsNoKey(t *testing.T) {
	for _, name := range []string{"", "ab", "ctrl+"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Press(%q) did not panic", name)
				}
			}()
			Press(name)
		}()
	}
}

package widgets

import (
	"strings"
	"testing"
)

func TestTabs(t *testing.T) {
	tb := NewTabs([]string{"Summary", "Confusion", "ROC"}, asciiStyles())
	tb.SetSize(40, 1)
	if tb.Active() != 0 || !strings.Contains(tb.View(), "[Summary]") {
		t.Errorf("initial: %d %q", tb.Active(), tb.View())
	}
	for _, c := range []struct {
		key  string
		want int
	}{{"tab", 1}, {"right", 2}, {"tab", 0}, {"shift+tab", 2}, {"left", 1}} {
		tb, _ = tb.Update(keyMsg(c.key))
		if tb.Active() != c.want {
			t.Fatalf("after %s: active %d, want %d", c.key, tb.Active(), c.want)
		}
	}
	if tb.ActiveName() != "Confusion" {
		t.Errorf("ActiveName %q", tb.ActiveName())
	}
	tb.SetNames([]string{"only"})
	if tb.Active() != 0 {
		t.Errorf("active not clamped: %d", tb.Active())
	}
	long := NewTabs([]string{"Summary", "Confusion", "ROC", "History", "Coefficients", "Rules"}, asciiStyles())
	long.SetActive(5)
	long.SetSize(24, 1)
	if v := plain(long.View()); !strings.Contains(v, "[Rules]") || !strings.HasPrefix(v, "‹") {
		t.Errorf("narrow bar hides the active tab: %q", v)
	}
}

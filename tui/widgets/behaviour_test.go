// Helpers shared by the behaviour tests (behaviour_*_test.go, one file per
// widget) and the tests that run across every widget.

package widgets

import (
	"math"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tealab/tealab/internal/termtest"
)

func keyMsg(s string) tea.KeyPressMsg { return termtest.Press(s) }

const tol = 1e-9

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

func sliceNear(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestKeyMaps checks every key map feeds bubbles' help view.
func TestKeyMaps(t *testing.T) {
	maps := map[string]help.KeyMap{
		"line": DefaultLineChartKeyMap(), "confusion": DefaultConfusionKeyMap(), "roc": DefaultROCKeyMap(),
		"bars": DefaultBarsKeyMap(), "scatter": DefaultScatterKeyMap(), "tabs": DefaultTabsKeyMap(),
	}
	h := help.New()
	h.Styles = HelpStyles(asciiStyles())
	h.SetWidth(200)
	for name, km := range maps {
		if len(km.ShortHelp()) == 0 || len(km.FullHelp()) == 0 {
			t.Errorf("%s: empty help", name)
		}
		for _, b := range km.ShortHelp() {
			if b.Help().Key == "" || b.Help().Desc == "" || len(b.Keys()) == 0 {
				t.Errorf("%s: binding without keys or help: %+v", name, b.Help())
			}
		}
		if h.View(km) == "" {
			t.Errorf("%s: help view empty", name)
		}
	}
	var _ []key.Binding = DefaultTabsKeyMap().ShortHelp()
}

func TestWidthHelpers(t *testing.T) {
	for _, s := range []string{"", "abc", "─┤╭╮", "⠁⣿", "\x1b[38;5;12mab\x1b[0m", "日本", "a×b", "▏▎█", "…"} {
		if got, want := width(s), ansi.StringWidth(s); got != want {
			t.Errorf("width(%q) = %d, want %d", s, got, want)
		}
	}
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{{"abcdef", 4, "abc…"}, {"abc", 4, "abc"}, {"abc", 1, "a"}, {"abc", 0, ""}, {"日本語", 4, "日…"}} {
		if got := truncate(c.in, c.w); got != c.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
	if got := fitLine("\x1b[1mabcdef\x1b[0m", 3); ansi.Strip(got) != "abc" {
		t.Errorf("fitLine keeps %q", ansi.Strip(got))
	}
	if fmtFixed(-0.0001, 2) != "0.00" || fmtG(math.Copysign(0, -1), 3) != "0" || fmtValue(3) != "3" || fmtValue(0.12345) != "0.123" {
		t.Error("number formatting")
	}
	if ClassMarker(-1) != "•" || ClassMarker(0) != "●" || ClassMarker(len(classMarkers)) != "●" {
		t.Error("class markers")
	}
}

// TestZeroValues: widgets declared without their constructor render
// (default styles) instead of panicking.
func TestZeroValues(t *testing.T) {
	var (
		lc LineChart
		cf Confusion
		rc ROC
		br Bars
		sc Scatter
		tb Tabs
	)
	lc.SetSeries([]string{"a"}, [][]float64{{1, 2, 3}})
	all := map[string]sized{
		"line": {lc.SetSize, func() string { return lc.View() }},
		"conf": {cf.SetSize, func() string { return cf.View() }},
		"roc":  {rc.SetSize, func() string { return rc.View() }},
		"bars": {br.SetSize, func() string { return br.View() }},
		"sc":   {sc.SetSize, func() string { return sc.View() }},
		"tabs": {tb.SetSize, func() string { return tb.View() }},
	}
	for name, w := range all {
		w.set(30, 8)
		checkBlock(t, name, w.view(), 30, 8)
	}
	if _, cmd := tb.Update(keyMsg("tab")); cmd != nil {
		t.Error("zero tabs returned a command")
	}
}

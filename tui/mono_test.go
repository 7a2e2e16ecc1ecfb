package tui

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"gonum.org/v1/gonum/stat"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/runlist"
	"github.com/tealab/tealab/tui/views"
)

// Readable without colour. Under NO_COLOR the lab draws the mono
// theme on the ASCII profile, which keeps emphasis: bold, faint, underline
// and reverse carry the cursor and the verdicts, and no colour is drawn
// anywhere.

// sgrRe matches one Select Graphic Rendition sequence; group 1 holds its
// parameters.
var sgrRe = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// sgrParams are the parameters of every SGR sequence in s, in order ("" for
// a bare reset).
func sgrParams(s string) []string {
	var ps []string
	for _, m := range sgrRe.FindAllStringSubmatch(s, -1) {
		ps = append(ps, strings.Split(m[1], ";")...)
	}
	return ps
}

// colourSGR lists the SGR parameters of s that set a colour: 30-38 and
// 40-48 (foreground and background, 38/48 the extended forms), 90-97 and
// 100-107 (bright ones).
func colourSGR(s string) []string {
	var bad []string
	for _, p := range sgrParams(s) {
		n, err := strconv.Atoi(strings.SplitN(p, ":", 2)[0])
		if err != nil {
			continue
		}
		if (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107) {
			bad = append(bad, p)
		}
	}
	return bad
}

// emphasisSGR lists which of bold (1), faint (2), underline (4) and
// reverse (7) s sets.
func emphasisSGR(s string) []string {
	var got []string
	for _, p := range sgrParams(s) {
		if slices.Contains([]string{"1", "2", "4", "7"}, p) && !slices.Contains(got, p) {
			got = append(got, p)
		}
	}
	slices.Sort(got)
	return got
}

// withNoColor makes newTestApp build apps as the binary does under
// NO_COLOR on a colour terminal: the theme it picks (mono), on the profile
// bubbletea detects (ASCII).
func withNoColor(t testing.TB) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("TERM", "xterm-256color")
	withLook(t, "", colorprofile.Env(os.Environ()))
}

// Every place of the lab (every screen, mode, form, results tab, the
// training screen while it runs, the runs table and a comparison) drawn
// in the mono theme on a profile that can show colour: no colour at all,
// and the emphasis that replaces it is there.
func TestMonoDrawsNoColour(t *testing.T) {
	if testing.Short() {
		t.Skip("opens every place of the lab")
	}
	t.Chdir(browsableDir(t))
	withNoColor(t)
	emphasis := map[string]bool{}
	for _, p := range allPlaces(t) {
		hs := p.open(t)
		v := hs.a.View()
		if bad := colourSGR(v); len(bad) > 0 {
			t.Errorf("%s: the mono theme drew colour (SGR %s):\n%q", p.name, strings.Join(bad, ","), v)
		}
		for _, e := range emphasisSGR(v) {
			emphasis[e] = true
		}
		closeHarness(hs)
	}
	for _, e := range []string{"1", "2", "4", "7"} {
		if !emphasis[e] {
			t.Errorf("no place drew SGR %s: the mono theme lost its emphasis", e)
		}
	}
}

// fixTimes gives every run of the session the same timings, so that
// goldens do not depend on the machine's speed.
func fixTimes(hs *harness) {
	for _, r := range hs.a.history {
		r.Wall = time.Second
		if res := r.Result; res != nil {
			res.WallSecs, res.FitSecs, res.ScoreSecs = 1, 0.5, 0.25
		}
	}
}

// linesWith are the lines of view that contain s.
func linesWith(view, s string) []string {
	var out []string
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

// The main screens in the mono theme as NO_COLOR draws them (emphasis,
// no colour), escapes kept, against goldens; and what must be seen is
// checked in so many words, so that an -update cannot make them pass
// vacuously.
func TestMonoGoldens(t *testing.T) {
	withNoColor(t)
	const w, h = 120, 40
	check := func(t *testing.T, hs *harness) string {
		t.Helper()
		fixTimes(hs)
		v := hs.a.View()
		if bad := colourSGR(v); len(bad) > 0 {
			t.Errorf("colour drawn (SGR %s)", strings.Join(bad, ","))
		}
		checkFrame(t, ansi.Strip(v), w, h)
		// testdata/TestMonoGoldens/<name>.golden (-update rewrites it),
		// compared after the checks that say what is wrong.
		t.Cleanup(func() { golden.RequireEqual(t, v) })
		return v
	}

	t.Run("data", func(t *testing.T) {
		v := check(t, newHarness(t, Options{}, w, h))
		if len(linesWith(v, reverse)) == 0 {
			t.Errorf("no line of the data list is reversed:\n%q", v)
		}
	})
	t.Run("models", func(t *testing.T) {
		hs := newHarness(t, Options{Data: "iris"}, w, h)
		hs.press("enter")
		v := check(t, hs)
		if len(linesWith(v, reverse)) == 0 {
			t.Errorf("no model is under a reversed cursor:\n%q", v)
		}
	})
	t.Run("summary", func(t *testing.T) {
		hs := newHarness(t, Options{Data: "iris", Model: "logistic", Eval: cv(5), Train: true}, w, h)
		v := check(t, hs)
		// Better than the baseline (higher accuracy, lower error): a glyph
		// as well as bold.
		for _, m := range []string{" accuracy ", " error "} {
			if l := metricLine(v, m); !strings.Contains(l, "▲") {
				t.Errorf("%s, better than its baseline, is not marked ▲: %q", m, l)
			}
		}
	})
	t.Run("tree", func(t *testing.T) {
		hs := newHarness(t, Options{Data: "iris", Model: "tree", Train: true}, w, h)
		hs.resultTab("Tree")
		hs.press("down", "down")
		v := check(t, hs)
		cur := linesWith(v, "\x1b[7m▶")
		if len(cur) != 1 {
			t.Fatalf("want one tree line in reverse video starting ▶, got %d:\n%q", len(cur), v)
		}
		node := hs.a.results.Active().(*views.TreeView)
		if want := node.T.Nodes[node.Cur].Cond.String(); !strings.Contains(ansi.Strip(cur[0]), want) {
			t.Errorf("the reversed line %q is not the cursor's node %q", ansi.Strip(cur[0]), want)
		}
	})
	t.Run("features", func(t *testing.T) {
		hs := newHarness(t, Options{Data: "wine", Model: "lda"}, w, h)
		hs.press("esc", "esc", "F")
		v := check(t, hs)
		// The focused method is marked by a glyph, not by colour alone.
		if !strings.Contains(ansi.Strip(v), "▸ information gain (bits)") {
			t.Errorf("the focused method is not marked ▸:\n%s", ansi.Strip(v))
		}
	})
	for _, mode := range []string{"table", "bars"} {
		t.Run("coefficients "+mode, func(t *testing.T) {
			hs := newHarness(t, Options{Data: "iris", Model: "logistic", Train: true}, w, h)
			hs.resultTab("Coefficients")
			if mode == "bars" {
				hs.press("m") // one class at a time
			}
			mustSigns(t, ansi.Strip(check(t, hs)))
		})
	}
	t.Run("margin", func(t *testing.T) {
		hs := svmResults(t, "moons", "Map", w, h)
		hs.runUntil(func() bool { return strings.Contains(hs.View(), "refit on all") })
		v := ansi.Strip(check(t, hs))
		mustContain(t, v, "· boundary f=0", "blank: margin |f|≤1", "◉◎ 71 support vectors")
		if !regexp.MustCompile(`░[^░▒\n]*·[^░▒\n]*▒`).MatchString(v) {
			t.Errorf("no blank band with a dotted boundary between the regions:\n%s", v)
		}
	})
	t.Run("compare", func(t *testing.T) {
		hs := newHarness(t, Options{Data: "iris", Model: "tree", Params: paramsOf("tree", map[string]string{"max_depth": "1"}), Eval: cv(10), Train: true}, w, h)
		hs.press("esc", "esc")
		hs.pickModel("logistic")
		hs.press("enter")
		hs.runUntil(func() bool { return hs.a.cur == screenResults && len(hs.a.history) == 2 && hs.a.history[1].Done() })
		hs.press("R", "space", "down", "space", "enter") // the runs open on the newest
		v := ansi.Strip(check(t, hs))
		mustContain(t, v, "▲ better", "▼ worse", "identical splits")
		// Run #1 (a tree of depth 1) against run #2 (logistic regression).
		if l := metricLine(v, " accuracy "); !regexp.MustCompile(`0\.\d+ ▼ worse +0\.\d+ ▲ better`).MatchString(l) {
			t.Errorf("the accuracies have no verdict in words: %q", l)
		}
	})
}

// metricLine is the line of view (escapes removed) that starts with
// metric's label, "" when there is none.
func metricLine(view, metric string) string {
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.HasPrefix(l, metric) {
			return l
		}
	}
	return ""
}

// reverse is the SGR of reverse video alone: the cursor of a list.
const reverse = "\x1b[7m"

// mustSigns fails unless the weights in v carry their signs: a + before
// positive ones, a - before negative ones.
func mustSigns(t *testing.T, v string) {
	t.Helper()
	if !regexp.MustCompile(`\+\d+\.\d+`).MatchString(v) || !regexp.MustCompile(`-\d+\.\d+`).MatchString(v) {
		t.Errorf("weights without + and - signs:\n%s", v)
	}
}

// A tie is said in words, and runs on other data or other folds
// get no winner, only the reason.
func TestCompareVerdictsInWords(t *testing.T) {
	t.Parallel()
	c, err := kit.NewCommon("mono", colorprofile.NoTTY, false) // no emphasis at all: the words must do
	if err != nil {
		t.Fatal(err)
	}
	spec := mustSpec(t, "gnb")
	rec := func(id int, source string, seed uint64, acc ...float64) *kit.RunRecord {
		d, err := runs.Data{Source: source}.Open()
		if err != nil {
			t.Fatal(err)
		}
		res := &eval.Result{Metrics: map[string]float64{"accuracy": stat.Mean(acc, nil)}}
		for _, a := range acc {
			res.Folds = append(res.Folds, map[string]float64{"accuracy": a})
		}
		return newRun(t, id, source, "", d, spec, eval.Options{Folds: len(acc), Seed: seed}, res)
	}
	good := []float64{0.96, 0.94, 0.98, 0.96, 0.95}
	poor := []float64{0.60, 0.62, 0.58, 0.64, 0.61}
	for _, tc := range []struct {
		name string
		a, b *kit.RunRecord
		want string
	}{
		{"a tie", rec(1, "iris", 1, good...), rec(2, "iris", 1, 0.95, 0.95, 0.97, 0.95, 0.96), "≈ within noise: tie"},
		{"a winner", rec(1, "iris", 1, good...), rec(2, "iris", 1, poor...), "▲ better"},
		{"other data", rec(1, "iris", 1, good...), rec(2, "wine", 1, poor...), "runs on different data: iris vs wine: no winner declared"},
		{"other folds", rec(1, "iris", 1, good...), rec(2, "iris", 2, poor...),
			"different evaluation: seed 1 vs seed 2 draw other folds: no winner declared"},
	} {
		s := runlist.New(c)
		s.SetSize(120, 30)
		s.SetRuns([]*kit.RunRecord{tc.a, tc.b})
		s.Picked, s.Compare = []int{1, 2}, true
		v := ansi.Strip(s.View())
		mustContain(t, v, tc.want)
		acc := metricLine(v, " accuracy ")
		if winner := strings.Contains(acc, "better") || strings.Contains(acc, "worse"); winner != (tc.name == "a winner") {
			t.Errorf("%s: a winner declared: %v, want %v:\n%s", tc.name, winner, !winner, v)
		}
	}
}

// A generator's knob in error is marked ✗, not only coloured, once the
// focus has left it (its message shows only while it has the focus).
func TestKnobErrorMarked(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{}, 120, 40)
	for hs.a.data.SelectedEntry().Name != "moons" {
		hs.press("down")
	}
	hs.press("e")
	for range 5 {
		hs.press("backspace")
	}
	hs.typeText("abc")
	hs.press("tab") // to the next knob
	if l := linesWith(hs.View(), "[abc"); len(l) != 1 || !strings.Contains(l[0], "]✗") {
		t.Errorf("the knob in error is not marked ✗: %q", l)
	}
}

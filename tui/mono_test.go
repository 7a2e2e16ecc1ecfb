package tui

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/muesli/termenv"
)

// Issue 19: readable without colour. Under NO_COLOR the lab draws the mono
// theme on a profile that keeps emphasis (themes.KeepEmphasis): bold,
// faint, underline and reverse carry the cursor and the verdicts, and no
// colour is drawn anywhere.

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

func TestColourSGR(t *testing.T) {
	s := "\x1b[1;7mx\x1b[0m\x1b[38;5;12my\x1b[m\x1b[4;41mz\x1b[2;97m"
	if got := strings.Join(colourSGR(s), ","); got != "38,41,97" {
		t.Errorf("colourSGR = %s, want 38,41,97", got)
	}
	if got := strings.Join(emphasisSGR(s), ","); got != "1,2,4,7" {
		t.Errorf("emphasisSGR = %s, want 1,2,4,7", got)
	}
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
	withLook(t, "mono", termenv.ANSI)
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

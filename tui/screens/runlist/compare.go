package runlist

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

// compareView shows the two picked runs side by side: settings, then every
// metric either has with its verdict in words (better, worse, tie), or,
// for runs on other data or other folds, why no winner can be declared.
func (s *Screen) compareView() string {
	st := s.c.Styles
	var a, b *kit.RunRecord // the older on the left, in whichever order they were picked
	first, second := min(s.Picked[0], s.Picked[1]), max(s.Picked[0], s.Picked[1])
	for _, r := range s.Runs {
		switch r.ID {
		case first:
			a = r
		case second:
			b = r
		}
	}
	if a == nil || b == nil {
		return st.Muted.Render(" the picked runs are gone")
	}
	label := 16
	colW := max((s.w-label-4-ansi.StringWidth(verdictTie))/2, 20) // room for the verdict
	cell := func(text string, style lipgloss.Style) string {
		return style.Render(kit.FitWidth(kit.Clip(text, colW-1), colW))
	}
	row := func(name, x, y string, sx, sy lipgloss.Style) string {
		return " " + st.Muted.Render(kit.FitWidth(name, label)) + cell(x, sx) + cell(y, sy)
	}
	why := runs.Incomparable(a.Record, b.Record)
	// Whether a winner can be declared comes first, where a short screen
	// still shows it.
	fair := st.Muted.Render(kit.Clip(" same data, target, evaluation and seed: identical splits, a fair comparison", s.w))
	if why != "" {
		fair = st.Warn.Render(kit.Clip(" "+why+": no winner declared", s.w))
	}
	lines := []string{
		st.Title.Render(fmt.Sprintf(" Run #%d vs run #%d", a.ID, b.ID)) + st.Muted.Render("   (esc: back to the runs)"),
		fair,
		"",
		row("dataset", a.DataLabel(), b.DataLabel(), st.Text, st.Text),
		row("source", a.SourceDesc(), b.SourceDesc(), st.Text, st.Text),
		row("target", a.TargetDesc(), b.TargetDesc(), st.Text, st.Text),
		row("model", a.Spec.Title, b.Spec.Title, st.Text, st.Text),
		row("parameters", kit.KeyParams(a.Spec, a.Params), kit.KeyParams(b.Spec, b.Params), st.Text, st.Text),
		row("evaluation", a.EvalDesc(), b.EvalDesc(), st.Text, st.Text),
		row("seed", fmt.Sprint(a.Options.Seed), fmt.Sprint(b.Options.Seed), st.Text, st.Text),
		row("status", a.StatusText(), b.StatusText(), st.Text, st.Text),
		row("wall time", numfmt.Seconds(a.WallSeconds()), numfmt.Seconds(b.WallSeconds()), st.Text, st.Text),
		"",
	}
	if a.Title != "" || b.Title != "" { // a name said first, as the runs were picked by it
		lines = slices.Insert(lines, 3, row("name", a.Title, b.Title, st.Text, st.Text))
	}
	names := map[string]bool{}
	for _, r := range []*kit.RunRecord{a, b} {
		if r.Result != nil {
			for k := range r.Result.Metrics {
				names[k] = true
			}
		}
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	get := func(r *kit.RunRecord, k string) float64 {
		if r.Result == nil {
			return math.NaN()
		}
		if v, ok := r.Result.Metrics[k]; ok {
			return v
		}
		return math.NaN()
	}
	for _, k := range keys {
		x, y := get(a, k), get(b, k)
		tx, ty := numfmt.Score(x), numfmt.Score(y)
		sx, sy := st.Text, st.Text
		verdict := ""
		switch {
		case why != "" || math.IsNaN(x) || math.IsNaN(y):
		case x == y:
			verdict = "= equal: tie"
		default:
			// Said in words as well as shown, and only beyond the folds'
			// noise (the corrected resampled t-test on identical folds).
			switch runs.Versus(k, a.Record, b.Record) {
			case runs.Better:
				tx, ty, sx, sy = tx+" ▲ better", ty+" ▼ worse", st.Good, st.Muted
			case runs.Worse:
				tx, ty, sx, sy = tx+" ▼ worse", ty+" ▲ better", st.Muted, st.Good
			case runs.Tie:
				verdict = verdictTie
			default:
				verdict = "? no spread"
			}
		}
		lines = append(lines, row(metrics.Lookup(k).Label, tx, ty, sx, sy)+st.Muted.Render(verdict))
	}
	if why == "" {
		lines = append(lines, "")
		for _, l := range strings.Split(kit.Wrap("▲ better, ▼ worse: beyond the folds' noise (corrected resampled t-test, 5%) · "+
			verdictTie+" · ?: no spread", s.w-2), "\n") {
			lines = append(lines, st.Muted.Render(" "+l))
		}
	}
	return strings.Join(lines, "\n")
}

// verdictTie is the comparison's word for a difference within noise.
const verdictTie = "≈ within noise: tie"

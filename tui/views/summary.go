package views

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

const TabSummary = "Summary"

func init() {
	Register(Spec{Name: TabSummary, Order: 0, Make: func(env Env, r *kit.RunRecord) View {
		return &summaryView{c: env.C, r: r, charts: summaryCharts(r, env.C.Styles),
			up: kit.Bind("↑", "scroll", "up", "k"), down: kit.Bind("↓", "scroll", "down", "j")}
	}})
}

// summaryView lists every metric with its baseline, the run's settings,
// and the per-fold scores under cross-validation.
type summaryView struct {
	c        *kit.Common
	r        *kit.RunRecord
	off      int                 // first line shown when the summary is taller than the view
	scrolls  bool                // it was, at the last View
	charts   []widgets.LineChart // the curves beside a wide summary, drawn once; nil: none
	up, down key.Binding
	w, h     int
}

func (v *summaryView) Update(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, v.up):
			v.off = max(v.off-1, 0)
		case key.Matches(km, v.down):
			v.off++ // View clamps it
		}
	}
	return nil
}

func (v *summaryView) SetSize(w, h int) { v.w, v.h = w, h }

func (v *summaryView) Keys() []key.Binding {
	if v.scrolls {
		return []key.Binding{kit.Bind("↑/↓", "scroll", "up", "down")}
	}
	return nil
}

// window shows the lines from the scroll offset on; a summary taller than
// the view (80x24) scrolls, saying how much more there is, so that
// nothing is lost.
func (v *summaryView) window(out []string) string {
	v.scrolls = len(out) > v.h
	if !v.scrolls {
		v.off = 0
		return strings.Join(out, "\n")
	}
	body := max(v.h-1, 1)
	v.off = min(v.off, len(out)-body)
	shown := out[v.off : v.off+body]
	more := fmt.Sprintf(" lines %d-%d of %d (↑/↓ scroll)", v.off+1, v.off+body, len(out))
	return strings.Join(shown, "\n") + "\n" + v.c.Styles.Muted.Render(more)
}

func (v *summaryView) View() string {
	st := v.c.Styles
	r := v.r
	res := r.Result
	task := r.Task()
	var left []string
	cv := res != nil && len(res.Folds) > 1
	loo := res != nil && r.Options.LOO && len(res.Std) > 0
	valueHead, sdHead := "value", "± folds"
	switch {
	case cv:
		valueHead = "mean"
	case loo:
		valueHead, sdHead = "pooled", "± rows"
	}
	// 19 cells hold the longest metric label ("reconstruction RMSE").
	// Two cells after the value for ▲/▼; baseline and spread take 9 each,
	// so that the table stays 52 cells wide.
	head := fmt.Sprintf("%-19s %10s   %9s", "metric", valueHead, "baseline")
	if cv || loo {
		head += fmt.Sprintf(" %9s", sdHead)
	}
	left = append(left, st.Header.Render(head))
	marked := false // a metric has a verdict against its baseline: the legend says what it means
	if res != nil {
		for _, k := range metrics.Ordered(task, res.Metrics) {
			info := metrics.Lookup(k)
			val := res.Metrics[k]
			base, hasBase := res.Baseline[k]
			// Better or worse than the baseline beyond noise, as the runs
			// screen and a comparison judge it: a glyph as well as colour.
			vs, mark := st.Value, "  "
			if hasBase && !math.IsNaN(val) && !math.IsNaN(base) {
				switch runs.VersusBaseline(k, r.Record) {
				case runs.Better:
					vs, mark = st.Good, " ▲"
					marked = true
				case runs.Worse:
					vs, mark = st.Bad, " ▼"
					marked = true
				case runs.Tie:
					mark = " ≈"
					marked = true
				}
			}
			bs, sd := "", ""
			if hasBase {
				bs = numfmt.Score(base)
			}
			if x, ok := res.Std[k]; ok && (cv || loo) {
				sd = numfmt.Score(x)
			}
			line := st.Text.Render(fmt.Sprintf("%-19s ", kit.Clip(info.Label, 19))) +
				vs.Render(fmt.Sprintf("%10s", info.Format(val))+mark) + st.Muted.Render(fmt.Sprintf(" %9s", bs))
			if cv || loo {
				line += st.Muted.Render(fmt.Sprintf(" %9s", sd))
			}
			left = append(left, line)
		}
		if len(res.Metrics) == 0 {
			left = append(left, st.Muted.Render("no scores (the run did not finish)"))
		} else if f := r.Figures(); f != "" {
			for _, l := range strings.Split(kit.Wrap("scores "+f+" (the baseline's too)", 50), "\n") {
				left = append(left, st.Muted.Render(l))
			}
		}
		if marked {
			for _, l := range strings.Split(kit.Wrap(baselineLegend, 50), "\n") {
				left = append(left, st.Muted.Render(l))
			}
		}
	}
	var right []string
	kv := func(k, val string) {
		right = append(right, st.Muted.Render(fmt.Sprintf("%-12s ", k))+st.Text.Render(val))
	}
	// kvWrapped is a long value wrapped under its label.
	kvWrapped := func(k, val string) {
		for i, line := range strings.Split(kit.Wrap(val, 44), "\n") {
			kv(k, line)
			if i == 0 {
				k = ""
			}
		}
	}
	d := r.Dataset
	kv("dataset", d.Name+" ("+numfmt.Count(d.Rows(), "row")+", "+numfmt.Count(len(d.Features), "feature")+")")
	switch {
	case d.Target == nil:
		kv("target", "none · "+task.String())
	case task.Supervised():
		kv("target", d.Target.Name+" · "+task.String())
	default:
		kv("target", d.Target.Name+" (known classes, not learned) · "+task.String())
	}
	kv("model", r.Spec.Title+" ("+r.Spec.Name+")")
	desc := r.Spec.Describe(r.Params)
	if desc == "" {
		desc = "none"
	}
	kvWrapped("parameters", desc)
	kvWrapped("evaluation", r.EvalDesc())
	kv("seed", fmt.Sprint(r.Options.Seed))
	if res != nil && res.Positive != "" {
		how := "as asked"
		if p, err := eval.PositiveClass(d, ""); err == nil && p >= 0 && d.Classes[p] == res.Positive {
			how = "the rarer"
		}
		kv("positive", res.Positive+" ("+how+"; precision, recall, F1, the curves)")
	}
	if res != nil && res.Threshold != nil {
		kv("threshold", numfmt.Fixed(*res.Threshold, 3)+" (least cost, "+res.Costs.Source+")")
	}
	if res != nil {
		kv("wall time", numfmt.Seconds(r.WallSeconds())) // the one time the runs table and the comparison give
		if total, parts := res.Timing(); total > 0 {     // its parts, when the result kept them
			for _, p := range parts {
				kv("  "+p.What, numfmt.Seconds(p.Secs))
			}
		}
		if len(res.Parts) > 0 { // the shown model's part: the hold-out's, or the refit's on all rows
			kvWrapped("trained on", partLine(res.Parts[len(res.Parts)-1]))
		}
		if f := res.PreparedFeatures(); f != nil && len(f) != len(d.Features) {
			kv("model saw", numfmt.Count(len(f), "feature")+" after preprocessing")
		}
		if res.FittedOn != "" {
			for i, line := range strings.Split(kit.Wrap(res.FittedOn, 44), "\n") {
				label := ""
				if i == 0 {
					label = "shown model"
				}
				kv(label, line)
			}
		}
	}
	// Per-fold figures under leave-one-out: each fold is one row.
	if loo {
		left = append(left, "", st.Header.Render("per fold (one row each)"))
		left = append(left, st.Text.Render(kit.Clip(looFigures(r), 52)))
	}
	// Per-fold scores under cross-validation.
	if cv {
		main := metrics.Primary(task, res.Metrics)
		left = append(left, "", st.Header.Render(fmt.Sprintf("%s per fold", metrics.Lookup(main).Label)))
		var row []string
		for i, f := range res.Folds {
			row = append(row, fmt.Sprintf("%d:%s", i+1, numfmt.Score(f[main])))
		}
		left = append(left, wrapItems(row, 46)...)
	}
	lw := 52
	narrow := v.w < lw+2+60 // too narrow for two columns: the settings go below
	// What a run without its model cannot do comes first, where it is seen.
	var lacks []string
	if note := r.NoModel(); note != "" {
		width := 57
		if narrow {
			width = v.w - 2
		}
		for _, l := range strings.Split(kit.Wrap(note, width), "\n") {
			lacks = append(lacks, st.Warn.Render(l))
		}
		if !narrow {
			right = append(append(lacks, ""), right...)
		}
	}
	if narrow {
		out := make([]string, 0, len(lacks)+len(left)+len(right)+1)
		for _, l := range lacks {
			out = append(out, " "+l)
		}
		for _, l := range left {
			out = append(out, " "+l)
		}
		out = append(out, "")
		for _, rr := range right {
			out = append(out, " "+rr)
		}
		return v.window(out)
	}
	rw := v.w - lw - 3
	chart := ""
	if v.w >= kit.WideW && rw-62 >= 50 {
		// Room to spare: the validation curves beside the figures.
		rw = 62
		chart = v.chart(v.w-lw-3-rw-1, min(v.h, max(len(left), len(right), 20)))
	}
	out := make([]string, 0, max(len(left), len(right)))
	for i := range max(len(left), len(right)) {
		l, rr := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			rr = right[i]
		}
		out = append(out, " "+kit.FitWidth(l, lw)+"  "+kit.FitWidth(rr, rw))
	}
	if chart != "" {
		return lipgloss.JoinHorizontal(lipgloss.Top, v.window(out), " ", chart)
	}
	return v.window(out)
}

// baselineLegend says what the summary's marks against the baseline mean:
// what the runs screen's "vs baseline" and a comparison's marks mean.
const baselineLegend = "▲ better, ▼ worse than the baseline beyond noise (a 5% test); ≈ within noise; unmarked: no spread"

// chart lays the run's curves out in w x h for the wide summary; "" when
// it has none.
func (v *summaryView) chart(w, h int) string {
	if v.charts == nil {
		return ""
	}
	kit.Stack(v.charts, w, h)
	return kit.JoinColumn(v.charts)
}

// summaryCharts are a run's curves for the wide summary, drawn once: the
// validation charts of a supervised run (its folds overlaid), else the
// training loss; nil for a one-step fit, which has no curve.
func summaryCharts(r *kit.RunRecord, st *themes.Styles) []widgets.LineChart {
	res := r.Result
	if res == nil {
		return nil
	}
	folds := res.FoldHistories
	if len(folds) == 0 {
		folds = [][]eval.Point{res.History}
	}
	if len(folds[0]) < 2 || kit.OneStep(folds) {
		return nil
	}
	fc := kit.NewFoldCharts(r, st)
	fc.Draw(folds, 0)
	if len(folds) > 1 {
		fc.SetNote(" · fold 1, others faint")
	}
	if r.Task().Supervised() {
		return fc.Charts[1:]
	}
	return fc.Charts[:1]
}

// wrapItems joins items with spaces into lines of at most w cells.
func wrapItems(items []string, w int) []string {
	var out []string
	line := ""
	for _, it := range items {
		if line != "" && len(line)+1+len(it) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += "  "
		}
		line += it
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// looFigures sums up leave-one-out's one-row folds: how many rows were
// predicted right (a classifier), or how large the per-row errors are (a
// regressor).
func looFigures(r *kit.RunRecord) string {
	res := r.Result
	n := len(res.Actual)
	if r.Task() == datasets.Classification {
		right := 0
		for i := range res.Actual {
			if res.Actual[i] == res.Predicted[i] {
				right++
			}
		}
		return fmt.Sprintf("%s right, %s wrong", numfmt.Count(right, "row"), numfmt.Count(n-right, "row"))
	}
	errs := make([]float64, n)
	for i := range errs {
		errs[i] = math.Abs(res.Actual[i] - res.Predicted[i])
	}
	sort.Float64s(errs)
	q := func(p float64) float64 { return errs[min(int(p*float64(n)), n-1)] }
	return fmt.Sprintf("absolute error: median %s · 90%% below %s · largest %s",
		numfmt.Score(q(0.5)), numfmt.Score(q(0.9)), numfmt.Score(errs[n-1]))
}

// partLine says what a training part looked like after resampling, class
// weights or a selection: its rows per class, their weights, the features
// it kept.
func partLine(p eval.Part) string {
	ints := func(xs []int) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = fmt.Sprint(x)
		}
		return strings.Join(s, "/")
	}
	var out []string
	if p.Rows != nil {
		line := "rows per class " + ints(p.Rows)
		if p.Before != nil {
			line += " (was " + ints(p.Before) + ")"
		}
		out = append(out, line)
	}
	if p.Weights != nil {
		w := make([]string, len(p.Weights))
		for i, x := range p.Weights {
			w[i] = numfmt.Sig(x, 3)
		}
		out = append(out, "class weights "+strings.Join(w, "/"))
	}
	if p.Features != nil {
		out = append(out, "features "+strings.Join(p.Features, ", "))
	}
	return strings.Join(out, "; ")
}

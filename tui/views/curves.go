package views

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

// The curves a practitioner reads beside the ROC, pooled over the folds
// as the confusion matrix is: precision against recall, with the
// threshold that turns scores into decisions moved along the curve;
// predicted against observed frequency; the share of a class found in the
// top-scored rows.
func init() {
	Register(Spec{Name: "PR", Order: 210,
		Needs: func(r *kit.RunRecord) bool { return r.Result != nil && len(r.Result.PR) > 0 },
		Make: func(env Env, r *kit.RunRecord) View {
			return newPRView(env.C.Styles, r)
		}})
	Register(Spec{Name: "Calibration", Order: 220,
		Needs: func(r *kit.RunRecord) bool { return r.Result != nil && len(r.Result.Calibration) > 0 },
		Make: func(env Env, r *kit.RunRecord) View {
			note := "observed share of the class against the mean predicted probability, in bins of about equal counts; on the diagonal: calibrated"
			m := widgets.NewCurves(widgets.Axes{X: "predicted", Y: "obs", Diagonal: true}, calibrationCurves(r.Result.Calibration), env.C.Styles)
			m.SetFaint(foldCurves(r, func(c metrics.Curves) []widgets.Curve { return calibrationCurves(c.Calibration) }))
			return &curvesView{m: m, st: env.C.Styles, note: note, side: calibrationTable(r.Result.Calibration)}
		}})
	Register(Spec{Name: "Gains", Order: 230,
		Needs: func(r *kit.RunRecord) bool { return r.Result != nil && len(r.Result.Lift) > 0 },
		Make: func(env Env, r *kit.RunRecord) View {
			note := "share of the class found in the top-scored rows; the diagonal is a random order; lift@10%: how many times chance in the top tenth"
			m := widgets.NewCurves(widgets.Axes{X: "rows", Y: "hit", Value: "lift@10%", Diagonal: true}, gainCurves(r.Result.Lift), env.C.Styles)
			m.SetFaint(foldCurves(r, func(c metrics.Curves) []widgets.Curve { return gainCurves(c.Lift) }))
			return &curvesView{m: m, st: env.C.Styles, note: note, side: gainsTable(r.Result.Lift)}
		}})
}

// foldCurves are each fold's curves of one kind (pick makes them), drawn
// faintly behind the pooled ones; none for a single split.
func foldCurves(r *kit.RunRecord, pick func(metrics.Curves) []widgets.Curve) []widgets.Curve {
	var out []widgets.Curve
	for _, f := range r.Result.FoldCurves {
		out = append(out, pick(f)...)
	}
	return out
}

func calibrationCurves(cs []metrics.Calibration) []widgets.Curve {
	var out []widgets.Curve
	for _, c := range cs {
		cv := widgets.Curve{Name: c.Class, Value: math.NaN(), Mark: -1}
		for _, b := range c.Bins {
			cv.X, cv.Y = append(cv.X, b.MeanPredicted), append(cv.Y, b.Observed)
		}
		out = append(out, cv)
	}
	return out
}

func gainCurves(ls []metrics.Lift) []widgets.Curve {
	var out []widgets.Curve
	for _, l := range ls {
		top := math.NaN()
		if len(l.Deciles) > 0 {
			top = metrics.LiftAt(l.Deciles[0], 0.1)
		}
		out = append(out, widgets.Curve{Name: l.Class, X: l.Depth, Y: l.Gain, Value: top, Mark: -1})
	}
	return out
}

func prCurves(ps []metrics.PR) []widgets.Curve {
	var out []widgets.Curve
	for _, c := range ps {
		out = append(out, widgets.Curve{Name: c.Class, X: c.Recall, Y: c.Precision, Value: c.AP, Mark: -1})
	}
	return out
}

// curvesView is a plot of curves in the unit square, with a table beside
// it when there is room.
type curvesView struct {
	m     widgets.ROC
	st    *themes.Styles
	note  string
	side  []string // the table beside the plot
	sideW int
	w, h  int
}

func (v *curvesView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(tea.KeyPressMsg); ok {
		v.m, cmd = v.m.Update(msg)
	}
	return cmd
}

func (v *curvesView) View() string {
	body := v.m.View()
	if v.sideW > 0 {
		body = lipgloss.JoinHorizontal(lipgloss.Top, body, "  ", v.st.Text.Render(strings.Join(v.side, "\n")))
	}
	return withNote(v.st, kit.Clip(v.note, v.w), body)
}

func (v *curvesView) SetSize(w, h int) {
	v.w, v.h = w, h
	h -= noteLines(v.note)
	v.sideW = sideRoom(v.side, w, h)
	if v.sideW > 0 {
		w = min(w-v.sideW-2, 2*h+6) // a square plot
	}
	v.m.SetSize(w, h)
}

func (v *curvesView) Keys() []key.Binding { return v.m.KeyMap.ShortHelp() }

// sideRoom is the width a table beside a plot of h rows gets within w: its
// widest line, when the plot keeps a square aspect beside it; 0 for none.
func sideRoom(table []string, w, h int) int {
	tw := 0
	for _, l := range table {
		tw = max(tw, lipgloss.Width(l))
	}
	if tw == 0 || w-(2*h+6)-2 < tw {
		return 0
	}
	return tw
}

func calibrationTable(cs []metrics.Calibration) []string {
	if len(cs) != 1 { // one table, the positive class's
		return nil
	}
	lines := []string{fmt.Sprintf("%-13s %5s %9s %8s", "predicted", "rows", "mean", "observed")}
	for _, b := range cs[0].Bins {
		lines = append(lines, fmt.Sprintf("%-13s %5d %9s %8s", numfmt.Fixed(b.Lo, 3)+"–"+numfmt.Fixed(b.Hi, 3), b.Count,
			numfmt.Fixed(b.MeanPredicted, 3), numfmt.Fixed(b.Observed, 3)))
	}
	return lines
}

func gainsTable(ls []metrics.Lift) []string {
	if len(ls) != 1 || len(ls[0].Deciles) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("%-8s %6s %6s", "top", "found", "lift")}
	for i, g := range ls[0].Deciles {
		d := float64(i+1) / float64(len(ls[0].Deciles))
		lines = append(lines, fmt.Sprintf("%-8s %6s %6s", numfmt.Fixed(100*d, 0)+"%", numfmt.Fixed(g, 3), numfmt.Fixed(metrics.LiftAt(g, d), 2)))
	}
	return lines
}

// prView is the precision-recall curve. With two classes and the run's
// scores at hand it has an operating point: the threshold the scores are
// cut at, which < and > move along the curve, and the confusion of the
// positive class there, so that the precision and recall a threshold buys
// read off at once.
type prView struct {
	m        widgets.ROC
	st       *themes.Styles
	r        *kit.RunRecord
	note     string
	prs      []metrics.PR        // the curves shown: the run's, or the other class's
	positive string              // the class they are about, of two; "" for more
	ops      []metrics.Operating // nil: no operating point
	at       int                 // index into ops (and the curve's points)
	keys     prKeys
	sideW    int
	w, h     int
}

type prKeys struct{ lower, higher, flip key.Binding }

func newPRView(st *themes.Styles, r *kit.RunRecord) *prView {
	res := r.Result
	v := &prView{st: st, r: r, at: -1, prs: res.PR, positive: res.Positive, keys: prKeys{
		lower:  kit.Bind("<", "lower threshold", "<", ","),
		higher: kit.Bind(">", "higher threshold", ">", "."),
		flip:   kit.Bind("p", "other positive class", "p"),
	}}
	v.setPositive(res.Positive)
	v.note = "precision against recall of each class, every threshold; chance is the class's share of the rows"
	if note := r.PooledNote(); note != "" {
		v.note = "curves " + note
	}
	v.m = widgets.NewCurves(widgets.Axes{X: "recall", Y: "pre", Value: "AP"}, v.curves(), st)
	v.m.SetFaint(foldCurves(r, func(c metrics.Curves) []widgets.Curve { return prCurves(c.PR) }))
	v.keys.lower.SetEnabled(v.ops != nil)
	v.keys.higher.SetEnabled(v.ops != nil)
	v.keys.flip.SetEnabled(v.ops != nil)
	return v
}

// setPositive makes the curve and the operating point about class name,
// one of two, from the run's scores (the run's own curve when it is the
// run's positive class); at the model's own decision.
func (v *prView) setPositive(name string) {
	res := v.r.Result
	pos := slices.Index(res.Confusion.Labels, name)
	if pos < 0 || res.Scores == nil || len(res.Actual) == 0 || len(res.Confusion.Labels) != 2 {
		return
	}
	v.positive = name
	v.ops = metrics.OperatingPoints(res.Actual, res.Scores, 2, pos)
	v.at = defaultPoint(v.ops, res.Proba)
	if name != res.Positive {
		v.prs = metrics.PRs(res.Actual, res.Scores, res.Confusion.Labels, pos)
	} else {
		v.prs = res.PR
	}
}

// defaultPoint is the point of the model's own decision: a probability of
// at least one half, or a decision score of at least 0.
func defaultPoint(ops []metrics.Operating, proba bool) int {
	cut := 0.0
	if proba {
		cut = 0.5
	}
	at := 0
	for i, o := range ops {
		if o.Threshold >= cut {
			at = i
		}
	}
	return at
}

func (v *prView) curves() []widgets.Curve {
	cs := prCurves(v.prs)
	for i := range cs {
		if v.ops != nil && cs[i].Name == v.positive {
			cs[i].Mark = v.at
		}
	}
	return cs
}

func (v *prView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case v.ops != nil && key.Matches(km, v.keys.lower):
		v.at = min(v.at+1, len(v.ops)-1) // later points have lower thresholds
	case v.ops != nil && key.Matches(km, v.keys.higher):
		v.at = max(v.at-1, 0)
	case v.ops != nil && key.Matches(km, v.keys.flip):
		labels := v.r.Result.Confusion.Labels
		v.setPositive(labels[1-slices.Index(labels, v.positive)])
		v.m.SetFaint(nil) // the folds' curves are the run's positive class's
		if v.positive == v.r.Result.Positive {
			v.m.SetFaint(foldCurves(v.r, func(c metrics.Curves) []widgets.Curve { return prCurves(c.PR) }))
		}
	default:
		var cmd tea.Cmd
		v.m, cmd = v.m.Update(msg)
		return cmd
	}
	v.m.SetCurves(v.curves())
	return nil
}

// operating is the confusion at the threshold, as a small table.
func (v *prView) operating() []string {
	if v.ops == nil {
		return nil
	}
	o := v.ops[v.at]
	res := v.r.Result
	posName := v.positive
	neg := res.Confusion.Labels[0]
	if neg == posName {
		neg = res.Confusion.Labels[1]
	}
	cut := "none called " + posName
	if !math.IsInf(o.Threshold, 1) {
		cut = posName + " at a score ≥ " + numfmt.Fixed(o.Threshold, 3)
	}
	own := ""
	if v.at == defaultPoint(v.ops, res.Proba) {
		own = "the model's own decision"
	}
	w := max(len([]rune(posName)), len([]rune(neg)), 9)
	row := func(name string, a, b int) string {
		return fmt.Sprintf("%-*s %*d %*d", w, kit.Clip(name, w), w, a, w, b)
	}
	precision, recall := ratio(o.TP, o.TP+o.FP), ratio(o.TP, o.TP+o.FN)
	var cost []string
	if c := res.Costs; c != nil {
		line := "cost " + numfmt.Fixed(c.AtOperating(o, slices.Index(c.Classes, posName)), 3) + " a row"
		if res.Threshold != nil && posName == res.Positive {
			line += " (the run's " + numfmt.Fixed(res.Metrics["cost"], 3) + " at " + numfmt.Fixed(*res.Threshold, 3) + ")"
		}
		cost = []string{line}
	}
	return append([]string{
		"threshold (< >)",
		kit.Clip(cut, 3*w+2),
		own,
		fmt.Sprintf("%-*s %*s %*s", w, "actual", w, kit.Clip(posName, w), w, kit.Clip(neg, w)),
		row(posName, o.TP, o.FN),
		row(neg, o.FP, o.TN),
		"",
		"precision " + numfmt.Fixed(precision, 3) + "  recall " + numfmt.Fixed(recall, 3),
	}, cost...)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func (v *prView) View() string {
	body := v.m.View()
	if side := v.operating(); v.sideW > 0 {
		body = lipgloss.JoinHorizontal(lipgloss.Top, body, "  ", v.st.Text.Render(strings.Join(side, "\n")))
	} else if side != nil {
		body = v.st.Text.Render(kit.Clip(side[1]+" · "+side[len(side)-1], v.w)) + "\n" + body
	}
	return withNote(v.st, kit.Clip(v.note, v.w), body)
}

func (v *prView) SetSize(w, h int) {
	v.w, v.h = w, h
	h -= noteLines(v.note)
	v.sideW = sideRoom(v.operating(), w, h)
	switch {
	case v.sideW > 0:
		w = min(w-v.sideW-2, 2*h+6) // a square plot
	case v.ops != nil:
		h-- // the threshold's line above the plot
	}
	v.m.SetSize(w, h)
}

func (v *prView) Keys() []key.Binding {
	return append([]key.Binding{v.keys.lower, v.keys.higher, v.keys.flip}, v.m.KeyMap.ShortHelp()...)
}

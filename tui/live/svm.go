package live

import (
	"fmt"
	"math"

	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/svm"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

// The SVM solvers' live view: the primal objective and the dual climbing
// to meet it, and the duality gap between them on a log axis, which falls
// by decades as the solver converges (zero at the optimum); a solver with
// no dual (SGD) shows the primal alone. The support vectors so far are a
// number under the charts.
func init() {
	Register(Spec{Order: 20, Applies: Carries[svm.Progress],
		Make: func(c *kit.Common, r *kit.RunRecord) View {
			gap := widgets.NewLineChart(svmGapTitle, kit.UnitOf(r.Spec), c.Styles)
			gap.SetLogY(true)
			return &SvmLiveView{C: c, Objective: widgets.NewLineChart(svmObjectiveTitle, kit.UnitOf(r.Spec), c.Styles), Gap: gap}
		}})
}

const (
	svmObjectiveTitle = "objective"
	svmGapTitle       = "duality gap"
)

// SvmLiveView draws the objectives of the fold being fitted.
type SvmLiveView struct {
	C              *kit.Common
	Objective, Gap widgets.LineChart
	hasGap         bool         // the solver reports a dual
	last           svm.Progress // the latest step's
	// evaluated is the latest step whose primal was evaluated (solvers
	// evaluate it on some steps only while it costs a pass over the rows)
	// and evaluatedAt its step number; 0 when none.
	evaluated   svm.Progress
	evaluatedAt int
	w, h        int
}

func (v *SvmLiveView) Show(folds [][]eval.Point, cur int, note string) {
	if cur < 0 || cur >= len(folds) || len(folds[cur]) == 0 {
		return
	}
	h := folds[cur]
	primal, dx := kit.FoldSeries(h, detailOf(func(p svm.Progress) float64 { return p.Primal }))
	dual, _ := kit.FoldSeries(h, detailOf(func(p svm.Progress) float64 { return p.Dual }))
	gap, _ := kit.FoldSeries(h, detailOf(func(p svm.Progress) float64 { return p.Gap }))
	v.hasGap = anyFinite(gap)
	names, ys := []string{"primal"}, [][]float64{primal}
	if anyFinite(dual) {
		names, ys = append(names, "dual"), append(ys, dual)
	}
	v.Objective.SetSeries(names, ys)
	v.Objective.SetTitle(svmObjectiveTitle + note)
	v.Gap.SetSeries([]string{"gap"}, [][]float64{gap})
	v.Gap.SetTitle(svmGapTitle + note)
	for _, c := range []*widgets.LineChart{&v.Objective, &v.Gap} {
		c.SetXScale(float64(h[0].Step), dx)
	}
	for i := len(h) - 1; i >= 0; i-- {
		if p, ok := h[i].Detail.(svm.Progress); ok {
			v.last = p
			break
		}
	}
	v.evaluatedAt = 0
	for i := len(h) - 1; i >= 0; i-- {
		if p, ok := h[i].Detail.(svm.Progress); ok && !math.IsNaN(p.Primal) {
			v.evaluated, v.evaluatedAt = p, h[i].Step
			break
		}
	}
	v.layout()
}

// anyFinite reports whether y has a finite value.
func anyFinite(y []float64) bool {
	for _, v := range y {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			return true
		}
	}
	return false
}

func (v *SvmLiveView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.layout()
}

// layout gives the objective the rows, or half of them beside the gap
// when the solver has one, under a line of figures.
func (v *SvmLiveView) layout() {
	rows := max(v.h-1, 2)
	if !v.hasGap {
		v.Objective.SetSize(v.w, rows)
		return
	}
	v.Objective.SetSize(v.w/2, rows)
	v.Gap.SetSize(v.w-v.w/2, rows)
}

func (v *SvmLiveView) Panes() int { return 2 }

func (v *SvmLiveView) View() string {
	charts := v.Objective.View()
	if v.hasGap {
		charts = lipgloss.JoinHorizontal(lipgloss.Top, charts, v.Gap.View())
	}
	return kit.Fit(lipgloss.JoinVertical(lipgloss.Left, v.Figures(), charts), v.w, v.h)
}

// Figures is the line of the latest step's support vectors and dual, and
// the latest evaluated primal and gap, with their step when it is an
// earlier one.
func (v *SvmLiveView) Figures() string {
	st := v.C.Styles
	p := v.last
	line := " " + st.Value.Render(fmt.Sprint(p.SupportVectors)) + st.Muted.Render(" support vectors")
	if e := v.evaluated; v.evaluatedAt > 0 {
		if !math.IsNaN(e.Gap) {
			line += st.Muted.Render(" · gap ") + st.Value.Render(numfmt.Sig(e.Gap, 3))
		}
		line += st.Muted.Render(" · primal ") + st.Value.Render(numfmt.Sig(e.Primal, 4))
		if math.IsNaN(p.Primal) {
			line += st.Muted.Render(fmt.Sprintf(" (step %d)", v.evaluatedAt))
		}
	}
	if !math.IsNaN(p.Dual) {
		line += st.Muted.Render(" · dual ") + st.Value.Render(numfmt.Sig(p.Dual, 4))
	} else {
		line += st.Muted.Render(" · primal only: this solver has no dual")
	}
	return kit.Clip(line, v.w)
}

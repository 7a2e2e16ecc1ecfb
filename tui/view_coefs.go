package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	registerView(viewSpec{name: "Coefficients", order: 40, needs: hasLearned(engine.CapCoefficients.Name),
		make: func(env viewEnv, r *runRecord) resultView {
			c, _ := eval.LearnedAs[*engine.Coefficients](r.Result, engine.CapCoefficients.Name)
			v := &coefsView{c: env.c, r: r, co: c, output: bind("o", "next output", "o")}
			v.setOutput(0)
			return v
		}})
}

// coefsView shows a linear model's weights as bars, one output (class) at
// a time.
type coefsView struct {
	c      *common
	r      *runRecord
	co     *engine.Coefficients
	bars   widgets.Bars
	out    int // output shown
	output key.Binding
	w, h   int
}

func (v *coefsView) outputs() int {
	r, _ := v.co.Weights.Dims()
	return r
}

func (v *coefsView) setOutput(i int) {
	rows, p := v.co.Weights.Dims()
	v.out = min(max(i, 0), rows-1)
	vals := make([]float64, p)
	mat.Row(vals, v.out, v.co.Weights)
	labels := make([]string, p)
	for j := range p {
		if j < len(v.co.Features) {
			labels[j] = v.co.Features[j]
		} else {
			labels[j] = fmt.Sprintf("x%d", j)
		}
	}
	sorted := v.bars.Sorted()
	v.bars = widgets.NewBars(labels, vals, v.c.styles)
	v.bars.SetSorted(sorted)
	v.bars.SetSize(v.w, max(v.h-1, 1))
}

func (v *coefsView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if key.Matches(km, v.output) {
		v.setOutput((v.out + 1) % v.outputs())
		return nil
	}
	var cmd tea.Cmd
	v.bars, cmd = v.bars.Update(msg)
	return cmd
}

func (v *coefsView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.bars.SetSize(w, max(h-1, 1))
}

func (v *coefsView) Keys() []key.Binding {
	ks := v.bars.KeyMap.ShortHelp()
	if v.outputs() > 1 {
		ks = append(ks, v.output)
	}
	return ks
}

func (v *coefsView) View() string {
	st := v.c.styles
	name := "the target"
	if v.out < len(v.co.Outputs) {
		name = v.co.Outputs[v.out]
	}
	t := fmt.Sprintf(" weights for %s", name)
	if v.out < len(v.co.Intercept) {
		t += fmt.Sprintf(" · intercept %s", numfmt.Score(v.co.Intercept[v.out]))
	}
	if n := v.outputs(); n > 1 {
		t += fmt.Sprintf(" · output %d of %d (o: next)", v.out+1, n)
	}
	if res := v.r.Result; res != nil && res.FittedOn != "" {
		t += " · model fitted on " + res.FittedOn
	}
	return st.Title.Render(clip(t, v.w)) + "\n" + v.bars.View()
}

package tui

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	registerView(viewSpec{name: "Try", order: 58, // before the map, which is last
		needs: canTry,
		make:  func(env viewEnv, r *kit.RunRecord) resultView { return newTryView(env.c, r) }})
}

// canTry says whether a run's shown model can be tried on a typed row: it
// predicts, the preprocessing fitted with it is known, and the data are at
// hand to fill the inputs from (a run read from a file has neither model
// nor data).
func canTry(r *kit.RunRecord) bool {
	if r.Result == nil || r.Result.Prep == nil || r.Dataset == nil || r.Dataset.X == nil || r.Dataset.Rows() == 0 {
		return false
	}
	_, ok := r.Result.Fitted.(engine.Predictor)
	return ok
}

// tryView lets a person type the feature values of one row and see, as
// they type, what the run's model makes of it: the prediction, the class
// probabilities, and for a tree the path through its rules. The row goes
// through the preprocessing fitted with the model, as its rows did.
type tryView struct {
	c      *kit.Common
	r      *kit.RunRecord
	in     []*tryInput
	focus  int
	off    int // first input shown
	row    int // the data row the inputs were filled from
	edited bool
	out    tryOutcome
	bars   widgets.Bars
	tree   *engine.Tree
	keys   tryKeys
	w, h   int
}

type tryKeys struct {
	Up, Down, Level, PrevRow, NextRow key.Binding
}

// tryInput is one feature's value: a number typed (empty for missing), or
// a nominal level chosen (len(Levels) for missing).
type tryInput struct {
	col   datasets.Column
	text  kit.TextField
	level int
	err   error
}

// tryOutcome is what the model made of the row.
type tryOutcome struct {
	pred  string
	proba []float64 // per class; nil without probabilities
	path  []int     // through the tree; nil without one
	x     []float64 // the row as the tree saw it (NaN: missing)
	err   error
}

func newTryView(c *kit.Common, r *kit.RunRecord) *tryView {
	v := &tryView{c: c, r: r, keys: tryKeys{
		Up: kit.Bind("↑", "previous value", "up"), Down: kit.Bind("↓", "next value", "down"),
		Level:   kit.Bind("←/→", "change level", "left", "right"),
		PrevRow: kit.Bind("[", "previous row", "["), NextRow: kit.Bind("]", "next row", "]"),
	}}
	v.tree, _ = eval.LearnedAs[*engine.Tree](r.Result, engine.CapTree.Name)
	for _, col := range r.Dataset.Features {
		in := &tryInput{col: col}
		if col.Kind == datasets.Numeric {
			in.text = kit.NewInput()
			in.text.CharLimit = 32
		}
		v.in = append(v.in, in)
	}
	v.bars = widgets.NewBars(nil, nil, c.Styles)
	v.bars.SetClassColors(true)
	v.fill(0)
	v.setFocus(0)
	return v
}

// Typing: the inputs take every key but tab, shift+tab and esc.
func (v *tryView) Typing() bool { return true }

// fill puts data row i's values in the inputs.
func (v *tryView) fill(i int) {
	d := v.r.Dataset
	v.row, v.edited = i, false
	for j, in := range v.in {
		x := d.X.At(i, j)
		if in.col.Kind == datasets.Nominal {
			in.level = len(in.col.Levels)
			if !math.IsNaN(x) {
				in.level = int(x)
			}
			continue
		}
		text := ""
		if !math.IsNaN(x) {
			text = strconv.FormatFloat(x, 'g', -1, 64)
		}
		in.text.SetValue(text)
		in.text.CursorEnd()
		in.err = nil
	}
	v.predict()
}

func (v *tryView) setFocus(k int) {
	v.focus = min(max(k, 0), len(v.in)-1)
	for j, in := range v.in {
		if in.col.Kind == datasets.Numeric {
			if j == v.focus {
				in.text.Focus()
			} else {
				in.text.Blur()
			}
		}
	}
}

// value is the input's value as the data code it: a number, a level's
// index, NaN for missing.
func (in *tryInput) value() (float64, error) {
	if in.col.Kind == datasets.Nominal {
		if in.level >= len(in.col.Levels) {
			return math.NaN(), nil
		}
		return float64(in.level), nil
	}
	text := strings.TrimSpace(in.text.Value())
	if text == "" || text == "?" {
		return math.NaN(), nil
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("%q is not a number (leave it empty for a missing value)", text)
	}
	return x, nil
}

// predict runs the typed row through the preprocessing and the model.
func (v *tryView) predict() {
	res, d := v.r.Result, v.r.Dataset
	x := make([]float64, len(v.in))
	for j, in := range v.in {
		var err error
		if x[j], in.err = in.value(); in.err != nil {
			err = fmt.Errorf("%s: %v", in.col.Name, in.err)
			v.out = tryOutcome{err: err}
			return
		}
	}
	var out tryOutcome
	out.err = recovered(func() error {
		X, err := res.Prep.Apply(mat.NewDense(1, len(x), x))
		if err != nil {
			return err
		}
		pred, err := res.Fitted.(engine.Predictor).Predict(X)
		if err != nil || len(pred) != 1 {
			return errors.Join(err, errors.New("the model gave no prediction"))
		}
		out.pred = v.outcomeText(pred[0])
		if p, ok := res.Fitted.(engine.Prober); ok && d.Classes != nil && v.r.Task() == datasets.Classification {
			if P, err := p.PredictProba(X); err == nil {
				out.proba = mat.Row(nil, 0, P)
			}
		}
		return nil
	})
	if v.tree != nil && out.err == nil {
		out.path, out.x = treePath(res, v.tree, x)
	}
	v.out = out
	if out.proba != nil {
		v.bars.SetData(d.Classes, out.proba)
	}
}

// missingRoute says, under the test leading from node parent to its child
// (which names the feature), how a row missing that feature went that
// way: the tree sends it down the branch that took more training weight,
// whether or not the training rows had missing values there; "" when the
// row has the value.
func missingRoute(t *engine.Tree, parent, child int, x []float64) string {
	c := t.Nodes[child].Cond
	if c.Feature >= len(x) || !math.IsNaN(x[c.Feature]) {
		return ""
	}
	also := ""
	if c.Missing {
		also = ", as in training"
	}
	return fmt.Sprintf("missing: sent with most training weight (%d of %d rows)%s", t.Nodes[child].Samples, t.Nodes[parent].Samples, also)
}

// outcomeText names a prediction: its class, its value or its cluster.
func (v *tryView) outcomeText(p float64) string {
	d := v.r.Dataset
	switch v.r.Task() {
	case datasets.Classification:
		if c := int(p); p >= 0 && c < len(d.Classes) {
			return d.Classes[c]
		}
	case datasets.Clustering:
		return fmt.Sprintf("cluster %d", int(p)+1)
	}
	return numfmt.Sig(p, 6)
}

// recovered calls f, turning a panic of the model into an error: a bug in
// a model must not take the lab down.
func recovered(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the model panicked: %v (a bug in the model)", p)
		}
	}()
	return f()
}

func (v *tryView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || len(v.in) == 0 {
		return nil
	}
	n := v.r.Dataset.Rows()
	in := v.in[v.focus]
	switch {
	case key.Matches(km, v.keys.Up):
		v.setFocus(v.focus - 1)
	case key.Matches(km, v.keys.Down):
		v.setFocus(v.focus + 1)
	case key.Matches(km, v.keys.PrevRow):
		v.fill((v.row - 1 + n) % n)
	case key.Matches(km, v.keys.NextRow):
		v.fill((v.row + 1) % n)
	case in.col.Kind == datasets.Nominal && key.Matches(km, v.keys.Level):
		k := len(in.col.Levels) + 1 // the levels, then missing
		step := 1
		if km.String() == "left" {
			step = -1
		}
		in.level = (in.level + step + k) % k
		v.edited = true
		v.predict()
	case in.col.Kind == datasets.Numeric:
		before := in.text.Value()
		var cmd tea.Cmd
		in.text, cmd = in.text.Update(msg)
		if in.text.Value() != before {
			v.edited = true
			v.predict()
		}
		return cmd
	}
	return nil
}

func (v *tryView) SetSize(w, h int) { v.w, v.h = w, h }

func (v *tryView) Keys() []key.Binding {
	ks := []key.Binding{v.keys.Down, v.keys.Up}
	if len(v.in) > 0 && v.in[v.focus].col.Kind == datasets.Nominal {
		ks = append(ks, v.keys.Level)
	}
	return append(ks, v.keys.PrevRow, v.keys.NextRow)
}

func (v *tryView) View() string {
	st := v.c.Styles
	head := st.Title.Render(kit.Clip(" Try a row: type its feature values and see what the model predicts", v.w))
	from := fmt.Sprintf(" filled from row %d of %d", v.row+1, v.r.Dataset.Rows())
	if names := v.r.Dataset.RowNames; v.row < len(names) {
		from += fmt.Sprintf(" (%q)", names[v.row])
	}
	if v.edited {
		from += ", edited"
	}
	from += " · [ ] other rows · empty or ? is missing · prepared as the model's rows were"
	lines := []string{head, st.Muted.Render(kit.Clip(from, v.w)), ""}
	body := max(v.h-len(lines), 3)
	leftW := min(max(v.w*2/5, 30), 56)
	left := v.inputsView(leftW, body)
	right := v.outcomeView(max(v.w-leftW-2, 10), body)
	return strings.Join(lines, "\n") + "\n" + lipgloss.JoinHorizontal(lipgloss.Top, kit.Fit(left, leftW, body), "  ", kit.Fit(right, max(v.w-leftW-2, 10), body))
}

// inputsView lists one input per feature, scrolled to keep the focused one
// in sight.
func (v *tryView) inputsView(w, h int) string {
	st := v.c.Styles
	if v.focus < v.off {
		v.off = v.focus
	}
	if v.focus >= v.off+h {
		v.off = v.focus - h + 1
	}
	nameW := min(max(w/2, 8), 24)
	ctlW := max(w-nameW-3, 6)
	var out []string
	for j := v.off; j < min(len(v.in), v.off+h); j++ {
		in := v.in[j]
		mark, name := "  ", st.Text.Render(kit.FitWidth(kit.Clip(in.col.Name, nameW), nameW))
		if j == v.focus {
			mark, name = st.Accent.Render("▸ "), st.Accent.Render(kit.FitWidth(kit.Clip(in.col.Name, nameW), nameW))
		}
		out = append(out, mark+name+" "+v.control(in, j == v.focus, ctlW))
	}
	return strings.Join(out, "\n")
}

// control draws an input ctlW cells wide.
func (v *tryView) control(in *tryInput, focused bool, ctlW int) string {
	st := v.c.Styles
	if in.col.Kind == datasets.Nominal {
		level := "? (missing)"
		if in.level < len(in.col.Levels) {
			level = in.col.Levels[in.level]
		}
		if focused {
			return st.SelectedRow.Render(kit.FitWidth("‹ "+kit.Clip(level, ctlW-4)+" ›", ctlW))
		}
		return st.Value.Render(kit.FitWidth("  "+kit.Clip(level, ctlW-4), ctlW))
	}
	box := "[" + kit.FitWidth(in.text.View(st, ctlW-3), ctlW-2) + "]"
	switch {
	case in.err != nil:
		return st.Bad.Render(box)
	case focused:
		return st.Accent.Render(box)
	}
	return st.Value.Render(box)
}

// outcomeView is what the model made of the row: the prediction, the
// class probabilities as bars, the path through a tree.
func (v *tryView) outcomeView(w, h int) string {
	st := v.c.Styles
	o := v.out
	if o.err != nil {
		return st.Error.Render(kit.Wrap(errText(o.err), w))
	}
	d := v.r.Dataset
	line := st.Header.Render("predicted ") + st.Accent.Render(o.pred)
	if !v.edited && v.row < len(d.Y) && v.r.Task().Supervised() {
		line += st.Muted.Render(" · the row's actual " + v.outcomeText(d.Y[v.row]))
	}
	out := []string{kit.Clip(line, w)}
	if o.proba != nil {
		out = append(out, "", st.Header.Render("class probabilities"))
		bh := min(len(o.proba), max(h-len(out)-3, 2))
		v.bars.SetSize(w, bh)
		out = append(out, v.bars.View())
	}
	if len(o.path) > 0 {
		t := v.tree
		out = append(out, "", st.Header.Render("path through the tree"))
		for k, n := range o.path[1:] {
			indent := strings.Repeat("  ", k)
			out = append(out, st.Text.Render(kit.Clip(indent+"└ "+t.Nodes[n].Cond.String(), w)))
			if note := missingRoute(t, o.path[k], n, o.x); note != "" {
				out = append(out, st.Muted.Render(kit.Clip(indent+"  "+note, w)))
			}
		}
		last := o.path[len(o.path)-1]
		indent := strings.Repeat("  ", len(o.path)-1)
		if nd := t.Nodes[last]; nd.Leaf() {
			out = append(out, st.Accent.Render(kit.Clip(fmt.Sprintf("%s→ %s (a leaf of %s)", indent,
				t.Outcome(last), numfmt.Count(nd.Samples, "training row")), w)))
		} else { // a tree that does not say where missing values go (saved before it did)
			out = append(out, st.Muted.Render(kit.Clip(fmt.Sprintf("%s→ stops: %s is missing and this tree does not say where missing values go",
				indent, t.Nodes[nd.Children[0]].Cond.Name), w)))
		}
	}
	return strings.Join(out, "\n")
}

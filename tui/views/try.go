package views

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
	Register(Spec{Name: "Try", Order: 580, // before the map, which is last
		Needs: canTry,
		Make:  func(env Env, r *kit.RunRecord) View { return newTryView(env.C, r) }})
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

// TryView lets a person type the feature values of one row and see, as
// they type, what the run's model makes of it: the prediction, the class
// probabilities, and for a tree the path through its rules. The row goes
// through the preprocessing fitted with the model, as its rows did.
type TryView struct {
	c      *kit.Common
	R      *kit.RunRecord
	In     []*tryInput
	focus  int
	off    int // first input shown
	row    int // the data row the inputs were filled from
	edited bool
	Out    tryOutcome
	bars   widgets.Bars
	Tree   *engine.Tree
	keys   tryKeys
	w, h   int
}

type tryKeys struct {
	up, down, level, PrevRow, NextRow key.Binding
}

// tryInput is one feature's value: a number typed (empty for missing), or
// a nominal level chosen (len(Levels) for missing).
type tryInput struct {
	Col   datasets.Column
	Text  kit.TextField
	Level int
	err   error
}

// tryOutcome is what the model made of the row.
type tryOutcome struct {
	Pred  string
	Proba []float64 // per class; nil without probabilities
	Path  []int     // through the tree; nil without one
	x     []float64 // the row as the tree saw it (NaN: missing)
	Err   error
}

func newTryView(c *kit.Common, r *kit.RunRecord) *TryView {
	v := &TryView{c: c, R: r, keys: tryKeys{
		up: kit.Bind("↑", "previous value", "up"), down: kit.Bind("↓", "next value", "down"),
		level:   kit.Bind("←/→", "change level", "left", "right"),
		PrevRow: kit.Bind("[", "previous row", "["), NextRow: kit.Bind("]", "next row", "]"),
	}}
	v.Tree, _ = eval.LearnedAs[*engine.Tree](r.Result, engine.CapTree.Name)
	for _, col := range r.Dataset.Features {
		in := &tryInput{Col: col}
		if col.Kind == datasets.Numeric {
			in.Text = kit.NewInput()
			in.Text.CharLimit = 32
		}
		v.In = append(v.In, in)
	}
	v.bars = widgets.NewBars(nil, nil, c.Styles)
	v.bars.SetClassColors(true)
	v.Fill(0)
	v.setFocus(0)
	return v
}

// Typing: the inputs take every key but tab, shift+tab and esc.
func (v *TryView) Typing() bool { return true }

// Fill puts data row i's values in the inputs.
func (v *TryView) Fill(i int) {
	d := v.R.Dataset
	v.row, v.edited = i, false
	for j, in := range v.In {
		x := d.X.At(i, j)
		if in.Col.Kind == datasets.Nominal {
			in.Level = len(in.Col.Levels)
			if !math.IsNaN(x) {
				in.Level = int(x)
			}
			continue
		}
		text := ""
		if !math.IsNaN(x) {
			text = strconv.FormatFloat(x, 'g', -1, 64)
		}
		in.Text.SetValue(text)
		in.Text.CursorEnd()
		in.err = nil
	}
	v.Predict()
}

func (v *TryView) setFocus(k int) {
	v.focus = min(max(k, 0), len(v.In)-1)
	for j, in := range v.In {
		if in.Col.Kind == datasets.Numeric {
			if j == v.focus {
				in.Text.Focus()
			} else {
				in.Text.Blur()
			}
		}
	}
}

// value is the input's value as the data code it: a number, a level's
// index, NaN for missing.
func (in *tryInput) value() (float64, error) {
	if in.Col.Kind == datasets.Nominal {
		if in.Level >= len(in.Col.Levels) {
			return math.NaN(), nil
		}
		return float64(in.Level), nil
	}
	text := strings.TrimSpace(in.Text.Value())
	if text == "" || text == "?" {
		return math.NaN(), nil
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("%q is not a number (leave it empty for a missing value)", text)
	}
	return x, nil
}

// Predict runs the typed row through the preprocessing and the model.
func (v *TryView) Predict() {
	res, d := v.R.Result, v.R.Dataset
	x := make([]float64, len(v.In))
	for j, in := range v.In {
		var err error
		if x[j], in.err = in.value(); in.err != nil {
			err = fmt.Errorf("%s: %v", in.Col.Name, in.err)
			v.Out = tryOutcome{Err: err}
			return
		}
	}
	var out tryOutcome
	out.Err = recovered(func() error {
		x, err := res.Prep.Apply(mat.NewDense(1, len(x), x))
		if err != nil {
			return err
		}
		pred, err := res.Fitted.(engine.Predictor).Predict(x)
		if err != nil || len(pred) != 1 {
			return errors.Join(err, errors.New("the model gave no prediction"))
		}
		out.Pred = v.outcomeText(pred[0])
		if p, ok := res.Fitted.(engine.Prober); ok && d.Classes != nil && v.R.Task() == datasets.Classification {
			if p, err := p.PredictProba(x); err == nil {
				out.Proba = mat.Row(nil, 0, p)
			}
		}
		return nil
	})
	if v.Tree != nil && out.Err == nil {
		out.Path, out.x = treePath(res, v.Tree, x)
	}
	v.Out = out
	if out.Proba != nil {
		v.bars.SetData(d.Classes, out.Proba)
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
func (v *TryView) outcomeText(p float64) string {
	d := v.R.Dataset
	switch v.R.Task() {
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

func (v *TryView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || len(v.In) == 0 {
		return nil
	}
	n := v.R.Dataset.Rows()
	in := v.In[v.focus]
	switch {
	case key.Matches(km, v.keys.up):
		v.setFocus(v.focus - 1)
	case key.Matches(km, v.keys.down):
		v.setFocus(v.focus + 1)
	case key.Matches(km, v.keys.PrevRow):
		v.Fill((v.row - 1 + n) % n)
	case key.Matches(km, v.keys.NextRow):
		v.Fill((v.row + 1) % n)
	case in.Col.Kind == datasets.Nominal && key.Matches(km, v.keys.level):
		k := len(in.Col.Levels) + 1 // the levels, then missing
		step := 1
		if km.String() == "left" {
			step = -1
		}
		in.Level = (in.Level + step + k) % k
		v.edited = true
		v.Predict()
	case in.Col.Kind == datasets.Numeric:
		before := in.Text.Value()
		var cmd tea.Cmd
		in.Text, cmd = in.Text.Update(msg)
		if in.Text.Value() != before {
			v.edited = true
			v.Predict()
		}
		return cmd
	}
	return nil
}

func (v *TryView) SetSize(w, h int) { v.w, v.h = w, h }

func (v *TryView) Keys() []key.Binding {
	ks := []key.Binding{v.keys.down, v.keys.up}
	if len(v.In) > 0 && v.In[v.focus].Col.Kind == datasets.Nominal {
		ks = append(ks, v.keys.level)
	}
	return append(ks, v.keys.PrevRow, v.keys.NextRow)
}

func (v *TryView) View() string {
	st := v.c.Styles
	head := st.Title.Render(kit.Clip(" Try a row: type its feature values and see what the model predicts", v.w))
	from := fmt.Sprintf(" filled from row %d of %d", v.row+1, v.R.Dataset.Rows())
	if names := v.R.Dataset.RowNames; v.row < len(names) {
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
func (v *TryView) inputsView(w, h int) string {
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
	for j := v.off; j < min(len(v.In), v.off+h); j++ {
		in := v.In[j]
		mark, name := "  ", st.Text.Render(kit.FitWidth(kit.Clip(in.Col.Name, nameW), nameW))
		if j == v.focus {
			mark, name = st.Accent.Render("▸ "), st.Accent.Render(kit.FitWidth(kit.Clip(in.Col.Name, nameW), nameW))
		}
		out = append(out, mark+name+" "+v.control(in, j == v.focus, ctlW))
	}
	return strings.Join(out, "\n")
}

// control draws an input ctlW cells wide.
func (v *TryView) control(in *tryInput, focused bool, ctlW int) string {
	st := v.c.Styles
	if in.Col.Kind == datasets.Nominal {
		level := "? (missing)"
		if in.Level < len(in.Col.Levels) {
			level = in.Col.Levels[in.Level]
		}
		if focused {
			return st.SelectedRow.Render(kit.FitWidth("‹ "+kit.Clip(level, ctlW-4)+" ›", ctlW))
		}
		return st.Value.Render(kit.FitWidth("  "+kit.Clip(level, ctlW-4), ctlW))
	}
	box := "[" + kit.FitWidth(in.Text.View(st, ctlW-3), ctlW-2) + "]"
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
func (v *TryView) outcomeView(w, h int) string {
	st := v.c.Styles
	o := v.Out
	if o.Err != nil {
		return st.Error.Render(kit.Wrap(v.c.ErrText(o.Err), w))
	}
	d := v.R.Dataset
	line := st.Header.Render("predicted ") + st.Accent.Render(o.Pred)
	if !v.edited && v.row < len(d.Y) && v.R.Task().Supervised() {
		line += st.Muted.Render(" · the row's actual " + v.outcomeText(d.Y[v.row]))
	}
	out := []string{kit.Clip(line, w)}
	if o.Proba != nil {
		out = append(out, "", st.Header.Render("class probabilities"))
		bh := min(len(o.Proba), max(h-len(out)-3, 2))
		v.bars.SetSize(w, bh)
		out = append(out, v.bars.View())
	}
	if len(o.Path) > 0 {
		t := v.Tree
		out = append(out, "", st.Header.Render("path through the tree"))
		for k, n := range o.Path[1:] {
			indent := strings.Repeat("  ", k)
			out = append(out, st.Text.Render(kit.Clip(indent+"└ "+t.Nodes[n].Cond.String(), w)))
			if note := missingRoute(t, o.Path[k], n, o.x); note != "" {
				out = append(out, st.Muted.Render(kit.Clip(indent+"  "+note, w)))
			}
		}
		last := o.Path[len(o.Path)-1]
		indent := strings.Repeat("  ", len(o.Path)-1)
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

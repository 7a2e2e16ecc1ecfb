package views

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

func init() {
	Register(Spec{Name: "Coefficients", Order: engine.CapCoefficients.Order, Needs: HasLearned(engine.CapCoefficients.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			c, _ := eval.LearnedAs[*engine.Coefficients](r.Result, engine.CapCoefficients.Name)
			v := &coefsView{c: env.C, r: r, co: c, scale: weightScale(c), output: kit.Bind("o", "next output", "o"),
				modeKey: kit.Bind("m", "bars/table/pictures", "m"),
				up:      kit.Bind("↑", "scroll", "up", "k"), down: kit.Bind("↓", "scroll", "down", "j")}
			v.setOutput(0)
			if v.outputs() > 1 {
				v.mode = coefTable // all classes at once
				if v.image() > 0 {
					v.mode = coefPictures
				}
			}
			return v
		}})
}

// coefsView shows a linear model's weights: as bars, one output (class)
// at a time; as a feature × class heat table, every class at once; or, for
// image data (digits), each class's weights drawn as a picture. m cycles.
type coefsView struct {
	c        *kit.Common
	r        *kit.RunRecord
	co       *engine.Coefficients
	bars     widgets.Bars
	out      int // output shown
	mode     coefMode
	scale    float64 // weightScale of co, computed once
	off      int     // first row of the table
	scrolls  bool    // the table has more rows than it shows (as last drawn)
	output   key.Binding
	modeKey  key.Binding
	up, down key.Binding
	w, h     int
}

type coefMode int

const (
	coefBars coefMode = iota
	coefTable
	coefPictures
)

// image is the side of the square picture the dataset's features make
// (8 for digits' 64 pixels), 0 when they are not an image: at least 16
// numeric features, a perfect square in number.
func (v *coefsView) image() int {
	fs := v.r.Dataset.Features
	side := int(math.Round(math.Sqrt(float64(len(fs)))))
	if len(fs) < 16 || side*side != len(fs) {
		return 0
	}
	for _, f := range fs {
		if f.Kind != datasets.Numeric {
			return 0
		}
	}
	return side
}

// modes are the views the weights have: bars always; the table and the
// pictures with several outputs (pictures for image data only).
func (v *coefsView) modes() []coefMode {
	m := []coefMode{coefBars}
	if v.outputs() > 1 {
		m = append(m, coefTable)
		if v.image() > 0 {
			m = append(m, coefPictures)
		}
	}
	return m
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
	for j := range vals {
		vals[j] = numfmt.Denoise(vals[j], v.scale)
	}
	labels := make([]string, p)
	for j := range p {
		if j < len(v.co.Features) {
			labels[j] = v.co.Features[j]
		} else {
			labels[j] = fmt.Sprintf("x%d", j)
		}
	}
	sorted := v.bars.Sorted()
	v.bars = widgets.NewBars(labels, vals, v.c.Styles)
	v.bars.SetSigned(true)
	v.bars.SetSorted(sorted)
	v.bars.SetSize(v.w, max(v.h-1, 1))
}

func (v *coefsView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(km, v.modeKey) && len(v.modes()) > 1 {
		ms := v.modes()
		v.mode = ms[(slices.Index(ms, v.mode)+1)%len(ms)]
		return nil
	}
	if v.mode == coefTable {
		_, p := v.co.Weights.Dims()
		switch {
		case key.Matches(km, v.up):
			v.off = max(v.off-1, 0)
		case key.Matches(km, v.down):
			v.off = min(v.off+1, max(p-1, 0))
		}
		return nil
	}
	if v.mode == coefPictures {
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
	var ks []key.Binding
	switch v.mode {
	case coefBars:
		ks = v.bars.KeyMap.ShortHelp()
		if v.outputs() > 1 {
			ks = append(ks, v.output)
		}
	case coefTable:
		if v.scrolls {
			ks = []key.Binding{v.up, v.down}
		}
	}
	if len(v.modes()) > 1 {
		ks = append(ks, v.modeKey)
	}
	return ks
}

func (v *coefsView) View() string {
	switch v.mode {
	case coefTable:
		return v.tableView()
	case coefPictures:
		return v.picturesView()
	}
	st := v.c.Styles
	name := "the target"
	if v.out < len(v.co.Outputs) {
		name = v.co.Outputs[v.out]
	}
	t := fmt.Sprintf(" weights for %s", name)
	if v.out < len(v.co.Intercept) {
		t += fmt.Sprintf(" · intercept %s", numfmt.Score(numfmt.Denoise(v.co.Intercept[v.out], v.scale)))
	}
	if n := v.outputs(); n > 1 {
		t += fmt.Sprintf(" · output %d of %d (o: next)", v.out+1, n)
	}
	if res := v.r.Result; res != nil && res.FittedOn != "" {
		t += " · model fitted on " + res.FittedOn
	}
	return st.Title.Render(kit.Clip(t, v.w)) + "\n" + v.bars.View()
}

// fittedNote says which rows the weights were fitted on.
func (v *coefsView) fittedNote() string {
	if res := v.r.Result; res != nil && res.FittedOn != "" {
		return " · model fitted on " + res.FittedOn
	}
	return ""
}

// weightScale is the weight magnitude drawn at full strength: the 95th
// percentile of |w|, so that one outlying weight does not leave every
// other faint (1 when all are zero).
func weightScale(co *engine.Coefficients) float64 {
	rows, p := co.Weights.Dims()
	abs := make([]float64, 0, rows*p)
	for i := range rows {
		for j := range p {
			if w := math.Abs(co.Weights.At(i, j)); !math.IsNaN(w) {
				abs = append(abs, w)
			}
		}
	}
	if len(abs) == 0 {
		return 1
	}
	sort.Float64s(abs)
	m := abs[min(int(0.95*float64(len(abs))), len(abs)-1)]
	if m == 0 {
		m = abs[len(abs)-1]
	}
	if m == 0 {
		return 1
	}
	return m
}

// tableView is every weight at once: a row per feature, a column per
// output (class), each cell shaded by its magnitude and coloured by its
// sign (good: positive, bad: negative).
func (v *coefsView) tableView() string {
	st := v.c.Styles
	rows, p := v.co.Weights.Dims()
	nameW := len("(intercept)")
	for _, f := range v.co.Features {
		nameW = max(nameW, min(ansi.StringWidth(f), 20))
	}
	// One number format for the table, decimals by the weights' scale,
	// and cells as wide as the widest number or class name (to 12).
	m := v.scale
	dec := 2
	switch {
	case m >= 100:
		dec = 0
	case m >= 10:
		dec = 1
	}
	num := func(x float64) string { return signed(numfmt.Fixed(x, dec)) }
	cellW := 4
	for i := range rows {
		for j := range p {
			cellW = max(cellW, len(num(v.co.Weights.At(i, j))))
		}
		if i < len(v.co.Intercept) {
			cellW = max(cellW, len(num(v.co.Intercept[i])))
		}
		if i < len(v.co.Outputs) {
			cellW = max(cellW, min(ansi.StringWidth(v.co.Outputs[i]), 12))
		}
	}
	cellW += 2
	fitCols := max((v.w-nameW-2)/cellW, 1)
	if fitCols < rows { // narrow: names cut, numbers whole
		cellW = max(cellW-2, 7)
		fitCols = max((v.w-nameW-2)/cellW, 1)
	}
	shown := min(rows, fitCols)
	sign := "+ or - and colour = sign"
	if st.Colorless {
		sign = "+ or - = sign"
	}
	top := st.Title.Render(kit.Clip(fmt.Sprintf(" weights: %d features × %d classes · shade = size, %s%s",
		p, rows, sign, v.fittedNote()), v.w))
	head := kit.FitWidth("", nameW+1)
	for i := range shown {
		name := fmt.Sprint(i)
		if i < len(v.co.Outputs) {
			name = v.co.Outputs[i]
		}
		head += padCell(kit.Clip(name, cellW-1), cellW)
	}
	lines := []string{top, st.Header.Render(head)}
	if len(v.co.Intercept) == rows {
		l := st.Muted.Render(kit.FitWidth(kit.Clip("(intercept)", nameW), nameW+1))
		for i := range shown {
			l += st.Muted.Render(padCell(num(numfmt.Denoise(v.co.Intercept[i], m)), cellW))
		}
		lines = append(lines, l)
	}
	body := max(v.h-len(lines)-1, 1)
	v.off, v.scrolls = min(v.off, max(p-body, 0)), p > body
	for j := v.off; j < min(v.off+body, p); j++ {
		name := fmt.Sprintf("x%d", j)
		if j < len(v.co.Features) {
			name = v.co.Features[j]
		}
		l := st.Text.Render(kit.FitWidth(kit.Clip(name, nameW), nameW+1))
		for i := range shown {
			w := v.co.Weights.At(i, j)
			fg := st.Good
			if w < 0 {
				fg = st.Bad
			}
			l += fg.Inherit(st.HeatStyle(math.Abs(w) / m)).Render(padCell(num(w), cellW))
		}
		lines = append(lines, l)
	}
	var notes []string
	if p > body {
		notes = append(notes, fmt.Sprintf("features %d-%d of %d (↑/↓)", v.off+1, min(v.off+body, p), p))
	}
	if shown < rows {
		notes = append(notes, fmt.Sprintf("first %d of %d classes (widen the terminal)", shown, rows))
	}
	if len(notes) > 0 {
		lines = append(lines, st.Muted.Render(" "+strings.Join(notes, " · ")))
	}
	return strings.Join(lines, "\n")
}

// signed puts a + before a formatted number above zero, so that a weight's
// sign reads without colour ("-" is there already; zero has none).
func signed(num string) string {
	if strings.Trim(num, "0.") == "" || strings.HasPrefix(num, "-") || strings.HasPrefix(num, "+") {
		return num
	}
	return "+" + num
}

// padCell right-aligns s in a cell w wide with a space after it.
func padCell(s string, w int) string {
	return strings.Repeat(" ", max(w-1-ansi.StringWidth(s), 0)) + s + " "
}

// picturesView draws each class's weights as a side x side picture, in
// the dataset's feature order (pixel by pixel): a block's density is the
// weight's size, its colour the sign; features the model did not see
// (constant pixels) are blank.
func (v *coefsView) picturesView() string {
	st := v.c.Styles
	side := v.image()
	rows, _ := v.co.Weights.Dims()
	col := map[string]int{}
	for j, f := range v.co.Features {
		col[f] = j
	}
	px := 2 // cells per pixel: two across make it square
	perRow := max((v.w-1)/(side*px+2), 1)
	if (rows+perRow-1)/perRow*(side+1) > v.h-2 {
		px = 1
		perRow = max((v.w-1)/(side*px+2), 1)
	}
	m := v.scale
	shades := []string{" ", "░", "▒", "▓", "█"}
	neg := []string{" ", "·", ":", "=", "#"} // without colour, negative weights read apart
	signs := "good colour = positive, bad = negative"
	if st.Colorless {
		signs = "░▒▓█ = positive, ·:=# = negative"
	}
	lines := []string{st.Title.Render(kit.Clip(" each class's weights as a picture · dense = large, "+signs+v.fittedNote(), v.w))}
	for start := 0; start < rows; start += perRow {
		end := min(start+perRow, rows)
		head := " "
		for i := start; i < end; i++ {
			name := fmt.Sprint(i)
			if i < len(v.co.Outputs) {
				name = v.co.Outputs[i]
			}
			head += kit.FitWidth(kit.Clip(name, side*px), side*px) + "  "
		}
		lines = append(lines, st.Header.Render(head))
		for y := range side {
			l := " "
			for i := start; i < end; i++ {
				for x := range side {
					j, ok := col[v.r.Dataset.Features[y*side+x].Name]
					if !ok {
						l += strings.Repeat(" ", px)
						continue
					}
					w := v.co.Weights.At(i, j)
					k := min(int(math.Abs(w)/m*float64(len(shades)-1)+0.5), len(shades)-1)
					g, sty := shades[k], st.Good
					if w < 0 {
						sty = st.Bad
						if st.Colorless {
							g = neg[k]
						}
					}
					l += sty.Render(strings.Repeat(g, px))
				}
				l += "  "
			}
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

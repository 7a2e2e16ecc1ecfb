package widgets

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/themes"
)

// ROCKeyMap are the keys of a ROC view.
type ROCKeyMap struct {
	Cycle key.Binding // show one curve at a time, then all again
}

// DefaultROCKeyMap returns the default ROC keys.
func DefaultROCKeyMap() ROCKeyMap {
	return ROCKeyMap{Cycle: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "next curve"))}
}

// ShortHelp implements help.KeyMap.
func (k ROCKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Cycle} }

// FullHelp implements help.KeyMap.
func (k ROCKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Curve is one curve of a unit-square plot: its name, its points, and the
// number that sums it up (an area under it, an average precision).
type Curve struct {
	Name  string
	X, Y  []float64
	Value float64 // NaN: none to say
	// Mark is the index in X and Y of a point drawn apart (an operating
	// point); -1 for none.
	Mark int
}

// Axes say what a unit-square plot shows.
type Axes struct {
	X, Y     string // the axes' names ("FPR", "TPR"; Y stands in a 3-cell gutter)
	Value    string // what a curve's Value is ("AUC", "AP")
	Diagonal bool   // the dotted y = x line: chance, or perfect calibration
}

// ROCAxes are a ROC curve's: FPR across, TPR up, the chance diagonal.
var ROCAxes = Axes{X: "FPR", Y: "TPR", Value: "AUC", Diagonal: true}

type rocCurve struct {
	name     string
	fpr, tpr []float64 // x and y
	auc      float64   // Value
	mark     int       // index into fpr and tpr; -1 none
}

// ROC plots curves in the unit square with braille dots, over the dotted
// diagonal when its Axes ask for it, and a legend with each curve's value:
// receiver operating characteristic curves (FPR across, TPR up, AUC), and
// any other curve whose axes run from 0 to 1 (precision against recall,
// observed against predicted frequency). With several curves (one-vs-rest)
// each carries its class marker on the plot and in the legend, and key c
// shows them one at a time. Points with a non-finite coordinate are
// dropped and the rest clamped to [0, 1].
type ROC struct {
	KeyMap ROCKeyMap

	st     *themes.Styles
	axes   Axes
	curves []rocCurve
	faint  []rocCurve // drawn faintly behind (each fold's)
	sel    int        // -1: all curves
	w, h   int
}

// NewROC builds the view from metrics' curves.
func NewROC(curves []metrics.ROC, st *themes.Styles) ROC {
	cs := make([]Curve, len(curves))
	for i, c := range curves {
		cs[i] = Curve{Name: c.Class, X: c.FPR, Y: c.TPR, Value: c.AUC, Mark: -1}
	}
	return NewCurves(ROCAxes, cs, st)
}

// NewCurves builds a plot of curves in the unit square, drawn on axes.
func NewCurves(axes Axes, curves []Curve, st *themes.Styles) ROC {
	r := ROC{KeyMap: DefaultROCKeyMap(), st: defaultStyles(st), axes: axes, sel: -1}
	r.SetCurves(curves)
	return r
}

// SetCurves replaces the curves (and shows all of them).
func (r *ROC) SetCurves(curves []Curve) {
	r.curves = clampCurves(curves)
	r.sel = -1
	r.KeyMap.Cycle.SetEnabled(len(r.curves) > 1)
}

// SetFaint sets curves drawn faintly behind the others (each fold's behind
// the pooled one), those of the curve shown alone or, with one curve, all.
func (r *ROC) SetFaint(curves []Curve) { r.faint = clampCurves(curves) }

// clampCurves keeps the finite points of curves, clamped to the square.
func clampCurves(curves []Curve) []rocCurve {
	out := make([]rocCurve, len(curves))
	for i, c := range curves {
		rc := rocCurve{name: oneLine(c.Name), auc: c.Value, mark: -1}
		for j := 0; j < len(c.X) && j < len(c.Y); j++ {
			x, y := c.X[j], c.Y[j]
			if !finite(x) || !finite(y) {
				continue
			}
			if j == c.Mark {
				rc.mark = len(rc.fpr)
			}
			rc.fpr = append(rc.fpr, math.Min(math.Max(x, 0), 1))
			rc.tpr = append(rc.tpr, math.Min(math.Max(y, 0), 1))
		}
		out[i] = rc
	}
	return out
}

// Selected is the curve shown alone, or -1 when all are shown.
func (r ROC) Selected() int { return r.sel }

// SetSize sets the size of the view.
func (r *ROC) SetSize(w, h int) { r.w, r.h = w, h }

// Update handles the curve cycling key.
func (r ROC) Update(msg tea.Msg) (ROC, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, r.KeyMap.Cycle) && len(r.curves) > 1 {
		r.sel++
		if r.sel >= len(r.curves) {
			r.sel = -1
		}
	}
	return r, nil
}

func (r ROC) curveStyle(i int) lipgloss.Style {
	if len(r.curves) == 1 {
		return r.st.Accent
	}
	return r.st.ClassStyle(i)
}

// fmtCurveValue says a curve's value under its name ("AUC 0.998").
func fmtCurveValue(name string, v float64) string {
	if name == "" {
		return ""
	}
	if !finite(v) {
		return name + " n/a"
	}
	return name + " " + fmtFixed(v, 3)
}

// legendItems are "● name AUC 0.998" texts and their styles.
func (r ROC) legend(w, maxLines int) []string {
	var lines []string
	cur, curW := "", 0
	for i, c := range r.curves {
		mk := ClassMarker(i)
		if len(r.curves) == 1 {
			mk = "━"
		}
		text := strings.TrimSpace(c.name + " " + fmtCurveValue(r.axes.Value, c.auc))
		textStyle := r.st.Text
		if r.sel >= 0 && r.sel != i {
			textStyle = r.st.Muted
		}
		item := r.curveStyle(i).Render(mk) + " " + textStyle.Render(text)
		iw := 2 + lipgloss.Width(text)
		if curW > 0 && curW+3+iw > w {
			lines = append(lines, cur)
			cur, curW = "", 0
		}
		if curW > 0 {
			cur += "   "
			curW += 3
		}
		cur += item
		curW += iw
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
	}
	return lines
}

// View renders the plot in exactly the size set.
func (r ROC) View() string {
	if r.w <= 0 || r.h <= 0 {
		return ""
	}
	r.st = defaultStyles(r.st) // a zero-value widget still renders
	st := r.st
	if len(r.curves) == 0 {
		return fitBlock(placeholder(st, "no ROC curve", r.w, r.h), r.w, r.h)
	}
	const gutter = 4 // "1.0┤"
	legend := r.legend(r.w-gutter, max(r.h/3, 1))
	ph := r.h - 2 - len(legend)
	pw := r.w - gutter
	if ph < 2 || pw < 2 {
		// No room for a plot: the AUCs alone.
		lines := make([]string, 0, len(r.curves))
		for i, c := range r.curves {
			lines = append(lines, r.curveStyle(i).Render(ClassMarker(i))+" "+strings.TrimSpace(c.name+" "+fmtCurveValue(r.axes.Value, c.auc)))
		}
		return fitBlock(lines, r.w, r.h)
	}

	cv := newCanvas(pw, ph)
	diag := newBraille(pw, ph)
	sx := func(x float64) int { return int(math.Round(x * float64(2*pw-1))) }
	sy := func(y float64) int { return int(math.Round((1 - y) * float64(4*ph-1))) }
	if r.axes.Diagonal {
		diag.line(sx(0), sy(0), sx(1), sy(1), 3, nil)
	}
	for _, c := range r.faint {
		if len(r.curves) > 1 && (r.sel < 0 || r.curves[r.sel].name != c.name) {
			continue // several classes: a class's folds only when it is shown alone
		}
		for j := 1; j < len(c.fpr); j++ {
			diag.line(sx(c.fpr[j-1]), sy(c.tpr[j-1]), sx(c.fpr[j]), sy(c.tpr[j]), 1, nil)
		}
	}
	subtle := cv.addStyle(st.Subtle)
	for y := 0; y < ph; y++ {
		for x := 0; x < pw; x++ {
			if b := diag.at(x, y); b != 0 {
				cv.set(x, y, brailleGlyph(b), subtle)
			}
		}
	}

	// Curves: union of dots per cell, coloured by the last curve there.
	dots := newBraille(pw, ph)
	owner := make([]int, pw*ph)
	for i := range owner {
		owner[i] = -1
	}
	paths := make([][][2]int, len(r.curves))
	for i, c := range r.curves {
		if r.sel >= 0 && r.sel != i || len(c.fpr) == 0 {
			continue
		}
		visit := func(px, py int) {
			cx, cy := px/2, py/4
			if cx >= 0 && cy >= 0 && cx < pw && cy < ph {
				owner[cy*pw+cx] = i
				paths[i] = append(paths[i], [2]int{cx, cy})
			}
		}
		if len(c.fpr) == 1 {
			dots.line(sx(c.fpr[0]), sy(c.tpr[0]), sx(c.fpr[0]), sy(c.tpr[0]), 1, visit)
		}
		for j := 1; j < len(c.fpr); j++ {
			dots.line(sx(c.fpr[j-1]), sy(c.tpr[j-1]), sx(c.fpr[j]), sy(c.tpr[j]), 1, visit)
		}
	}
	styleOf := make([]int, len(r.curves))
	for i := range r.curves {
		styleOf[i] = cv.addStyle(r.curveStyle(i))
	}
	for y := 0; y < ph; y++ {
		for x := 0; x < pw; x++ {
			if o := owner[y*pw+x]; o >= 0 {
				cv.set(x, y, brailleGlyph(dots.at(x, y)), styleOf[o])
			}
		}
	}
	// A marked point stands apart from its curve.
	for i, c := range r.curves {
		if c.mark < 0 || r.sel >= 0 && r.sel != i {
			continue
		}
		x, y := min(sx(c.fpr[c.mark])/2, pw-1), min(sy(c.tpr[c.mark])/4, ph-1)
		cv.set(x, y, "◆", styleOf[i])
	}
	// Markers name the curves where several share the plot.
	if len(r.curves) > 1 {
		taken := map[[2]int]bool{}
		n := len(r.curves)
		for i, p := range paths {
			if len(p) == 0 {
				continue
			}
			f := 0.15 + 0.7*(float64(i)+0.5)/float64(n)
			for k := int(f * float64(len(p))); k < len(p); k++ {
				if !taken[p[k]] {
					taken[p[k]] = true
					cv.set(p[k][0], p[k][1], ClassMarker(i), styleOf[i])
					break
				}
			}
		}
	}

	lines := make([]string, 0, r.h)
	muted := newPaint(st.Muted)
	for y := 0; y < ph; y++ {
		label := "   "
		switch {
		case y == 0:
			label = "1.0"
		case y == ph-1:
			label = "0.0"
		case y == (ph-1)/2 && ph >= 5:
			label = "0.5"
		case y == (ph-1)/4 && ph >= 9:
			label = fmt.Sprintf("%-3.3s", r.axes.Y)
		}
		axis := "┤"
		if label == "   " {
			axis = "│"
		}
		lines = append(lines, muted.render(label+axis)+cv.row(y))
	}
	lines = append(lines, muted.render("   └"+strings.Repeat("─", pw)))
	xl := []rune(strings.Repeat(" ", r.w))
	put := func(at int, s string) {
		for i, ch := range []rune(s) {
			if at+i >= 0 && at+i < len(xl) {
				xl[at+i] = ch
			}
		}
	}
	// Labels keep a space between them at any width: 0.5 from 10
	// columns, the axis name from 20.
	put(gutter-1, "0")
	if pw >= 10 {
		put(gutter+pw/2-1, "0.5")
	}
	if pw >= 20 {
		put(gutter+pw/4-1, r.axes.X)
	}
	put(gutter+pw-1, "1")
	lines = append(lines, muted.render(string(xl)))
	lines = append(lines, legend...)
	return fitBlock(lines, r.w, r.h)
}

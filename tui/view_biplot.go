package tui

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

func init() {
	registerView(viewSpec{name: "Biplot", order: 35, // after Components, which it draws from
		needs: func(r *runRecord) bool {
			if !hasLearned(engine.CapComponents.Name)(r) || r.Result.Embedding == nil {
				return false
			}
			_, k := r.Result.Embedding.Dims()
			c, _ := r.Result.Learned[engine.CapComponents.Name].(*engine.Components)
			return k >= 2 && c != nil && c.Vectors != nil
		},
		make: func(env viewEnv, r *runRecord) resultView { return &biplotView{c: env.c, r: r} }})
}

// biplotView draws a reduction's rows in its first two components, with
// each feature's loadings on them as an arrow from the origin, labelled:
// the rows' spread and what drives it in one picture. The arrows are
// scaled together so that the longest reaches most of the way to the
// farthest row; only their directions and relative lengths mean anything.
type biplotView struct {
	c    *common
	r    *runRecord
	w, h int
}

// maxArrows bounds the arrows drawn: the longest, so that labels stay
// readable.
const maxArrows = 10

func (v *biplotView) Update(tea.Msg) tea.Cmd { return nil }
func (v *biplotView) SetSize(w, h int)       { v.w, v.h = w, h }
func (v *biplotView) Keys() []key.Binding    { return nil }

func (v *biplotView) View() string {
	st := v.c.styles
	comps := v.r.Result.Learned[engine.CapComponents.Name].(*engine.Components)
	E := v.r.Result.Embedding
	n, _ := E.Dims()
	w, h := max(v.w-2, 20), max(v.h-3, 8)
	// The scores' extent, symmetric about the origin so that the arrows
	// start at the centre.
	ext := 0.0
	for i := range n {
		ext = math.Max(ext, math.Max(math.Abs(E.At(i, 0)), math.Abs(E.At(i, 1))))
	}
	if ext == 0 || math.IsNaN(ext) || math.IsInf(ext, 0) {
		ext = 1
	}
	cv := newCharGrid(w, h)
	col := func(x float64) int { return int(math.Round((x/ext + 1) / 2 * float64(w-1))) }
	row := func(y float64) int { return int(math.Round((1 - y/ext) / 2 * float64(h-1))) }
	for i := range n {
		cv.set(col(E.At(i, 0)), row(E.At(i, 1)), '·', 0)
	}
	arrows := v.longestLoadings(comps)
	longest := 0.0
	for _, j := range arrows {
		longest = math.Max(longest, math.Hypot(comps.Vectors.At(0, j), comps.Vectors.At(1, j)))
	}
	scale := 0.85 * ext / math.Max(longest, 1e-300)
	for _, j := range arrows {
		x, y := comps.Vectors.At(0, j)*scale, comps.Vectors.At(1, j)*scale
		cv.line(col(0), row(0), col(x), row(y), 1)
		cv.set(col(x), row(y), '●', 1)
	}
	for _, j := range arrows { // labels last: over the points and strokes
		x, y := comps.Vectors.At(0, j)*scale, comps.Vectors.At(1, j)*scale
		cv.label(col(x), row(y), x < 0, comps.Features[j], 2)
	}
	head := fmt.Sprintf("rows: %s (%s of the variance) across, %s (%s) up · arrows: feature loadings, scaled together",
		comps.Names[0], numfmt.Percent(comps.Ratio[0]), comps.Names[1], numfmt.Percent(comps.Ratio[1]))
	if len(arrows) < len(comps.Features) {
		head += fmt.Sprintf(" · %d longest of %d", len(arrows), len(comps.Features))
	}
	body := cv.render([]lipgloss.Style{st.Muted, st.Accent, st.Text})
	return st.Muted.Render(clip(" "+head, v.w)) + "\n" + body
}

// longestLoadings are the features with the longest arrows in the first
// two components, at most maxArrows of them.
func (v *biplotView) longestLoadings(c *engine.Components) []int {
	idx := make([]int, len(c.Features))
	for j := range idx {
		idx[j] = j
	}
	length := func(j int) float64 { return math.Hypot(c.Vectors.At(0, j), c.Vectors.At(1, j)) }
	sort.SliceStable(idx, func(a, b int) bool { return length(idx[a]) > length(idx[b]) })
	return idx[:min(len(idx), maxArrows)]
}

// charGrid is a w x h grid of characters, each with a style index.
type charGrid struct {
	w, h  int
	cells [][]rune
	style [][]int
}

func newCharGrid(w, h int) *charGrid {
	g := &charGrid{w: w, h: h, cells: make([][]rune, h), style: make([][]int, h)}
	for r := range h {
		g.cells[r] = []rune(strings.Repeat(" ", w))
		g.style[r] = make([]int, w)
	}
	return g
}

func (g *charGrid) set(x, y int, c rune, style int) {
	if x >= 0 && x < g.w && y >= 0 && y < g.h {
		g.cells[y][x], g.style[y][x] = c, style
	}
}

// line strokes from (x0, y0) to (x1, y1) with the character of its slope.
func (g *charGrid) line(x0, y0, x1, y1, style int) {
	dx, dy := x1-x0, y1-y0
	steps := max(absInt(dx), absInt(dy))
	c := '─'
	switch {
	case absInt(dy)*2 > absInt(dx)*2 && absInt(dx)*3 < absInt(dy):
		c = '│'
	case absInt(dy)*3 >= absInt(dx) && dx*dy < 0:
		c = '╱' // up and right on the screen: y grows downwards
	case absInt(dy)*3 >= absInt(dx):
		c = '╲'
	}
	for s := 1; s < steps; s++ {
		g.set(x0+dx*s/steps, y0+dy*s/steps, c, style)
	}
}

// label writes text beside (x, y): to its left when left, else to its right.
func (g *charGrid) label(x, y int, left bool, text string, style int) {
	r := []rune(text)
	start := x + 1
	if left {
		start = x - len(r)
	}
	start = min(max(start, 0), max(g.w-len(r), 0))
	for i, c := range r {
		if x := start + i; x < 0 || x >= g.w || y < 0 || y >= g.h || g.cells[y][x] != '●' { // heads stay
			g.set(x, y, c, style)
		}
	}
}

// render draws the grid, each run of one style through its renderer.
func (g *charGrid) render(styles []lipgloss.Style) string {
	lines := make([]string, g.h)
	for r := range g.h {
		var b strings.Builder
		for x := 0; x < g.w; {
			s := g.style[r][x]
			end := x
			for end < g.w && g.style[r][end] == s {
				end++
			}
			b.WriteString(styles[s].Render(string(g.cells[r][x:end])))
			x = end
		}
		lines[r] = " " + b.String()
	}
	return strings.Join(lines, "\n")
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

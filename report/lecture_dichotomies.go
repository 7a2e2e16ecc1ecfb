package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

// Experiment dichotomies' picture: for each point set a row of small
// panels, one per labelling a halfplane makes (the set S as ●, the rest
// as ○, a separating line as ·), then, in dashed boxes marked ×, the
// labellings no halfplane makes. Each panel maps the points' bounding box
// onto its cells, x and y scaled apart: an affine map keeps lines lines,
// so what is separable stays separable.

const (
	dcIn   = '●'
	dcOut  = '○'
	dcLine = '·'
	dcNo   = '×'
)

var dcInks = map[rune]int{dcIn: 0, dcOut: 1, dcLine: 2, dcNo: 3}

// dcSizes are the panels' inner sizes, smallest first: a set takes the
// first in which no two of its points share a cell.
var dcSizes = [][2]int{{7, 3}, {9, 3}, {9, 4}, {11, 4}, {13, 5}, {15, 6}, {17, 7}}

func init() {
	RegisterLecture("dichotomies", LectureDrawing{Draw: dcDraw, Tables: dcTables})
}

func dcResult(result any) *lecture.DichotomiesResult {
	return resultAs[lecture.DichotomiesResult](result)
}

// dcLayoutName says where the points lie, for the headers.
func dcLayoutName(layout string) string {
	switch layout {
	case "convex":
		return "on a circle"
	case "collinear":
		return "on a line"
	}
	return "general position"
}

var dcSuper = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

func dcPow2(n int) string {
	s := ""
	for _, d := range fmt.Sprint(n) {
		s += string(dcSuper[d-'0'])
	}
	return "2" + s
}

// dcPanel is one labelling's box: mask's points as ●, the others as ○,
// line's cells as ·; a dashed box with × for a labelling no halfplane
// makes.
type dcPanel struct {
	mask int
	line *lecture.DichoLine
	no   bool
}

// dcPlace maps each point to a cell of an iw × ih panel; ok is false when
// two share one.
func dcPlace(pts [][2]float64, iw, ih int) (cells [][2]int, ok bool) {
	x0, x1, y0, y1 := dcBox(pts)
	seen := map[[2]int]bool{}
	ok = true
	for _, p := range pts {
		c := [2]int{int(math.Round((p[0] - x0) / (x1 - x0) * float64(iw-1))), ih - 1 - int(math.Round((p[1]-y0)/(y1-y0)*float64(ih-1)))}
		if seen[c] {
			ok = false
		}
		seen[c] = true
		cells = append(cells, c)
	}
	return cells, ok
}

// dcBox is the points' bounding box, widened where it is flat.
func dcBox(pts [][2]float64) (x0, x1, y0, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, x1 = math.Min(x0, p[0]), math.Max(x1, p[0])
		y0, y1 = math.Min(y0, p[1]), math.Max(y1, p[1])
	}
	if !(x1 > x0) {
		x0, x1 = x0-1, x0+1
	}
	if !(y1 > y0) {
		y0, y1 = y0-1, y0+1
	}
	return
}

// dcSize is the inner size of s's panels: from dcSizes[from] on, the
// first without two points in a cell that fits in w, else the largest
// that fits.
func dcSize(s lecture.DichotomySet, w, from int) (int, int) {
	best := dcSizes[0]
	for _, sz := range dcSizes[from:] {
		if sz[0]+2 > w {
			break
		}
		best = sz
		if _, ok := dcPlace(s.Points, sz[0], sz[1]); ok {
			break
		}
	}
	return best[0], best[1]
}

// dcBoxLines draws panel p of set s in an iw × ih box.
func dcBoxLines(s lecture.DichotomySet, p dcPanel, iw, ih int) []string {
	grid := make([][]rune, ih)
	for r := range grid {
		grid[r] = []rune(strings.Repeat(" ", iw))
	}
	x0, x1, y0, y1 := dcBox(s.Points)
	at := func(col, row float64) (float64, float64) {
		return x0 + col/float64(max(iw-1, 1))*(x1-x0), y0 + (float64(ih-1)-row)/float64(max(ih-1, 1))*(y1-y0)
	}
	if p.line != nil { // the cells the line crosses: corners on both sides
		for r := range ih {
			for c := range iw {
				pos, neg := false, false
				for _, d := range [][2]float64{{-.5, -.5}, {-.5, .5}, {.5, -.5}, {.5, .5}} {
					x, y := at(float64(c)+d[0], float64(r)+d[1])
					if f := p.line.Normal[0]*x + p.line.Normal[1]*y - p.line.Offset; f > 0 {
						pos = true
					} else {
						neg = true
					}
				}
				if pos && neg {
					grid[r][c] = dcLine
				}
			}
		}
	}
	cells, _ := dcPlace(s.Points, iw, ih)
	taken := map[[2]int]bool{}
	for i, c := range cells {
		for d := 0; taken[c] && d < iw; d++ { // a shared cell: the nearest free one in the row
			for _, dc := range []int{d, -d} {
				if cc := [2]int{c[0] + dc, c[1]}; cc[0] >= 0 && cc[0] < iw && !taken[cc] {
					c = cc
					break
				}
			}
		}
		taken[c] = true
		g := dcOut
		if p.mask>>i&1 == 1 {
			g = dcIn
		}
		grid[c[1]][c[0]] = g
	}
	h, v, tl, tr, bl, br := "─", "│", "┌", "┐", "└", "┘"
	top := strings.Repeat(h, iw)
	if p.no {
		h, v = "┄", "┆"
		top = string(dcNo) + strings.Repeat(h, iw-1)
	}
	out := []string{tl + top + tr}
	for _, row := range grid {
		out = append(out, v+string(row)+v)
	}
	return append(out, bl+strings.Repeat(h, iw)+br)
}

func dcDraw(result any, v LectureView) Picture {
	r := dcResult(result)
	if r == nil || len(r.Sets) == 0 {
		return Picture{Lines: []string{"(nothing to draw yet)"}}
	}
	w, h := max(v.Width, 10), max(v.Height, 1)
	var lines []string
	if h >= 10 {
		lines = append(lines, hfFit(w,
			string(dcIn)+" in S  "+string(dcOut)+" not in S  "+string(dcLine)+" a line separating them (widest found)  "+string(dcNo)+" dashed: no halfplane makes it",
			string(dcIn)+" in S  "+string(dcOut)+" not  "+string(dcLine)+" separating line  "+string(dcNo)+" no halfplane",
			string(dcIn)+" in  "+string(dcOut)+" out  "+string(dcNo)+" none"))
	}
	// the largest panels with which every set fits the height
	var plans []dcPlan
	for from := len(dcSizes) - 1; from >= 0; from-- {
		plans = dcPlans(r, w, from)
		need := len(lines)
		for _, p := range plans {
			need += 1 + p.rows*(p.ih+2)
		}
		if need <= h {
			break
		}
	}
	remaining := h - len(lines)
	for i, s := range r.Sets {
		if remaining < 1 {
			break
		}
		p := plans[i]
		bh := p.ih + 2
		reserve := 0
		for _, q := range plans[i+1:] {
			reserve += 1 + q.ih + 2
		}
		avail := remaining - reserve
		if avail < 1+bh {
			avail = remaining
		}
		rows := min(p.rows, max(0, (avail-1)/bh))
		shown := p.panels
		if capacity := rows * p.perRow; capacity < len(shown) {
			// keep some of the labellings no halfplane makes in view
			no := min(len(s.ImpossibleMasks), max(min(2, capacity/2), capacity/3))
			shown = append(append([]dcPanel{}, p.panels[:capacity-no]...), p.panels[s.Count:s.Count+no]...)
		}
		more := ""
		if hidden := len(p.panels) - len(shown); hidden > 0 {
			more = fmt.Sprintf(" (+%d more)", hidden)
		}
		m := s.N - 1
		lines = append(lines, hfFit(w,
			fmt.Sprintf("n = %d, %s: Π(%d) = %d of %s = %d labellings; Cover's 2·Σ C(%d, i≤2) = %d%s", s.N, dcLayoutName(r.Layout), s.N, s.Count, dcPow2(s.N), s.All, m, s.Cover, more),
			fmt.Sprintf("n = %d: Π(%d) = %d of %s = %d; Cover %d%s", s.N, s.N, s.Count, dcPow2(s.N), s.All, s.Cover, more),
			fmt.Sprintf("Π(%d) = %d of %d%s", s.N, s.Count, s.All, more),
			fmt.Sprintf("Π(%d)=%d/%d%s", s.N, s.Count, s.All, strings.Replace(strings.TrimSuffix(more, " more)"), " (", " ", 1))))
		remaining--
		for row := 0; row*p.perRow < len(shown) && remaining >= bh; row++ {
			block := make([]string, bh)
			for _, panel := range shown[row*p.perRow : min(len(shown), (row+1)*p.perRow)] {
				for k, l := range dcBoxLines(s, panel, p.iw, p.ih) {
					if block[k] != "" {
						block[k] += " "
					}
					block[k] += l
				}
			}
			lines = append(lines, block...)
			remaining -= bh
		}
	}
	for i := range lines {
		lines[i] = strings.TrimRight(gdCut(lines[i], w), " ")
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return Picture{Lines: lines, Inks: dcInks}
}

func dcTables(result any) []Table {
	r := dcResult(result)
	if r == nil {
		return nil
	}
	t := Table{Columns: []string{"n", "points", "Π(n) halfplanes make", "Cover 2·Σ C(n−1, i≤2)", "2^n", "not made", "shattered", "a labelling not made"}}
	for _, s := range r.Sets {
		shattered := "yes"
		if s.Count < s.All {
			shattered = "no"
		}
		example := "—"
		if len(s.Impossible) > 0 {
			example = "S = " + dcIndexSet(s.Impossible[0])
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(s.N), dcLayoutName(r.Layout), fmt.Sprint(s.Count), fmt.Sprint(s.Cover), fmt.Sprint(s.All), fmt.Sprint(s.All - s.Count), shattered, example})
	}
	pts := Table{Columns: []string{"n", "point", "x", "y"}}
	for _, s := range r.Sets {
		for i, p := range s.Points {
			pts.Rows = append(pts.Rows, []string{fmt.Sprint(s.N), fmt.Sprint(i), numfmt.Value(p[0]), numfmt.Value(p[1])})
		}
	}
	return []Table{t, pts}
}

// dcIndexSet writes indices as {0, 2}.
func dcIndexSet(ix []int) string {
	parts := make([]string, len(ix))
	for i, k := range ix {
		parts[i] = fmt.Sprint(k)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// dcPlan is how a set's panels are laid out: their inner size, how many
// to a row, the rows all of them take.
type dcPlan struct {
	iw, ih, perRow, rows int
	panels               []dcPanel
}

// dcPlans lays out every set's panels in w cells, sizes from dcSizes[from].
func dcPlans(r *lecture.DichotomiesResult, w, from int) []dcPlan {
	plans := make([]dcPlan, len(r.Sets))
	for i, s := range r.Sets {
		iw, ih := dcSize(s, w, from)
		p := dcPlan{iw: iw, ih: ih, perRow: max(1, (w+1)/(iw+3))}
		for d, m := range s.Masks {
			var l *lecture.DichoLine
			if d < len(s.Lines) {
				l = s.Lines[d]
			}
			p.panels = append(p.panels, dcPanel{mask: m, line: l})
		}
		for _, m := range s.ImpossibleMasks {
			p.panels = append(p.panels, dcPanel{mask: m, no: true})
		}
		p.rows = (len(p.panels) + p.perRow - 1) / p.perRow
		plans[i] = p
	}
	return plans
}

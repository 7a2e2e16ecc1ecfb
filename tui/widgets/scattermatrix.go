package widgets

import (
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/themes"
)

// ScatterMatrixKeyMap are the keys of a ScatterMatrix: the cursor moves
// over the cells, and the window scrolls to keep it in view.
type ScatterMatrixKeyMap struct {
	Up, Down, Left, Right key.Binding
}

// DefaultScatterMatrixKeyMap returns the default ScatterMatrix keys: the
// arrows and h/j/k/l.
func DefaultScatterMatrixKeyMap() ScatterMatrixKeyMap {
	return ScatterMatrixKeyMap{
		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "cell up")),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "cell down")),
		Left:  key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "cell left")),
		Right: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "cell right")),
	}
}

// ShortHelp implements help.KeyMap.
func (k ScatterMatrixKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Left, k.Right}
}

// FullHelp implements help.KeyMap.
func (k ScatterMatrixKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ScatterMatrix draws every pair of a few columns at once: the cell in row
// i and column j is a small scatter of column j (across) against column i
// (up), each character showing the marker of the class most of its points
// belong to (markers, not colour alone, tell the classes apart); the
// diagonal holds column i's histogram stacked by class. Names run along
// the top and the left; a cursor, framed in heavy lines, moves over the
// cells and the window scrolls to keep it in view when not every column
// fits.
//
// Cells are drawn once per size and kept: moving the cursor redraws the
// frame, not the points. The caller bounds the rows (a sample of large
// data): a cell has a few dozen characters, and every point is visited.
type ScatterMatrix struct {
	KeyMap ScatterMatrixKeyMap

	st         *themes.Styles
	names      []string
	cols       [][]float64
	lo, hi     []float64 // each column's finite range (lo > hi: none)
	class      []int
	classNames []string
	ncls       int // colour classes; 0: one colour
	notes      []string
	row, col   int // the cursor
	r0, c0     int // the first row and column shown
	w, h       int
	cells      map[[2]int]*matrixCell // drawn at cellW × cellH, with or without colour
	cellW      int
	cellH      int
	cellMono   bool
}

// matrixCell is a drawn cell: a glyph and a colour class (-1: blank; for
// one colour, 0 for points and 1 for bars) per character.
type matrixCell struct {
	glyphs []rune
	class  []int16
}

// NewScatterMatrix returns an empty matrix.
func NewScatterMatrix(st *themes.Styles) ScatterMatrix {
	return ScatterMatrix{KeyMap: DefaultScatterMatrixKeyMap(), st: defaultStyles(st)}
}

// SetData replaces the columns (each the same rows, NaN for missing),
// their names, each row's colour class (nil: one colour; negative: no
// class) and the classes' names. The cursor stays where it can.
func (m *ScatterMatrix) SetData(names []string, cols [][]float64, class []int, classNames []string) {
	m.names, m.cols, m.class, m.classNames = oneLines(names), cols, class, oneLines(classNames)
	m.ncls = 0
	if class != nil {
		m.ncls = len(classNames)
		for _, c := range class {
			m.ncls = max(m.ncls, c+1)
		}
		m.ncls = max(m.ncls, 1)
	}
	m.lo, m.hi = make([]float64, len(cols)), make([]float64, len(cols))
	for j, col := range cols {
		m.lo[j], m.hi[j] = math.Inf(1), math.Inf(-1)
		for _, v := range col {
			if finite(v) {
				m.lo[j], m.hi[j] = math.Min(m.lo[j], v), math.Max(m.hi[j], v)
			}
		}
	}
	m.cells = nil
	m.SetCursor(m.row, m.col)
}

// SetNotes are said after the legend (rows drawn, columns left out).
func (m *ScatterMatrix) SetNotes(notes ...string) { m.notes = oneLines(notes) }

// SetSize sets the size of the matrix, names and legend included.
func (m *ScatterMatrix) SetSize(w, h int) { m.w, m.h = w, h }

// Cursor is the cell under the cursor: its row and column, indices of the
// columns given to SetData.
func (m ScatterMatrix) Cursor() (row, col int) { return m.row, m.col }

// SetCursor moves the cursor to a cell (clamped to the matrix).
func (m *ScatterMatrix) SetCursor(row, col int) {
	n := len(m.cols)
	m.row, m.col = min(max(row, 0), max(n-1, 0)), min(max(col, 0), max(n-1, 0))
}

// Window is what the matrix shows at its size: the first row and column
// shown, how many of each, of n columns in all (rows = cols = 0: too
// small for a cell).
func (m *ScatterMatrix) Window() (r0, rows, c0, cols, n int) {
	g := m.geometry()
	return m.r0, g.kr, m.c0, g.kc, len(m.cols)
}

// Update moves the cursor.
func (m ScatterMatrix) Update(msg tea.Msg) (ScatterMatrix, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.KeyMap.Up):
		m.SetCursor(m.row-1, m.col)
	case key.Matches(k, m.KeyMap.Down):
		m.SetCursor(m.row+1, m.col)
	case key.Matches(k, m.KeyMap.Left):
		m.SetCursor(m.row, m.col-1)
	case key.Matches(k, m.KeyMap.Right):
		m.SetCursor(m.row, m.col+1)
	}
	return m, nil
}

// Cell sizes, in characters: the size a cell is read at when it can be,
// the least it is drawn at to show at least three columns, and the least
// at all.
var matrixCellSizes = [...][2]int{{10, 4}, {8, 3}, {3, 1}}

// matrixGeom is the layout at the current size: the row names' width,
// each cell's, how many rows and columns of cells show, and the legend.
type matrixGeom struct {
	lw, cw, ch, kr, kc int
	legend             []string
}

func (m *ScatterMatrix) geometry() matrixGeom {
	var g matrixGeom
	n := len(m.cols)
	if n == 0 || m.w <= 0 || m.h <= 0 {
		return g
	}
	longest := 0
	for _, s := range m.names {
		longest = max(longest, width(s))
	}
	g.lw = min(longest+1, 12, max(m.w/5, 4))
	g.legend = m.legend(m.w, 2)
	gridH := m.h - 1 - len(g.legend) // the names along the top
	gridW := m.w - g.lw - 1          // a rule closes the last column
	for i, size := range matrixCellSizes {
		kc := min(n, gridW/(size[0]+1))
		kr := min(n, (gridH+1)/(size[1]+1))
		if min(kc, kr) >= min(n, 3) || i == len(matrixCellSizes)-1 {
			g.kc, g.kr = max(kc, 0), max(kr, 0)
			break
		}
	}
	if g.kc < 1 || g.kr < 1 {
		g.kc, g.kr = 0, 0
		return g
	}
	// The room shared out, cells kept about as tall as wide (a character
	// is about twice as tall as wide).
	g.cw = gridW/g.kc - 1
	g.ch = (gridH - (g.kr - 1)) / g.kr
	g.cw, g.ch = min(g.cw, 3*g.ch+4), min(g.ch, max(g.cw/2, 1))
	// The window follows the cursor.
	m.r0 = min(max(m.r0, m.row-g.kr+1, 0), m.row)
	m.c0 = min(max(m.c0, m.col-g.kc+1, 0), m.col)
	m.r0, m.c0 = min(m.r0, n-g.kr), min(m.c0, n-g.kc)
	return g
}

// cell is cell (i, j) drawn at cw × ch, from the cache when it was.
func (m *ScatterMatrix) cell(i, j, cw, ch int) *matrixCell {
	// The theme can change under the matrix (t): without colour the
	// histograms are drawn in other glyphs.
	if mono := m.st.Colorless; m.cells == nil || m.cellW != cw || m.cellH != ch || m.cellMono != mono {
		m.cells, m.cellW, m.cellH, m.cellMono = map[[2]int]*matrixCell{}, cw, ch, mono
	}
	if c, ok := m.cells[[2]int{i, j}]; ok {
		return c
	}
	var c *matrixCell
	if i == j {
		c = m.drawHistogram(j, cw, ch)
	} else {
		c = m.drawPairs(i, j, cw, ch)
	}
	m.cells[[2]int{i, j}] = c
	return c
}

func newMatrixCell(cw, ch int) *matrixCell {
	c := &matrixCell{glyphs: make([]rune, cw*ch), class: make([]int16, cw*ch)}
	for k := range c.glyphs {
		c.glyphs[k], c.class[k] = ' ', -1
	}
	return c
}

// bin is where v falls in n equal parts of column j's range (the middle
// for a constant column); ok is false for a missing value.
func (m *ScatterMatrix) bin(j int, v float64, n int) (int, bool) {
	if !finite(v) {
		return 0, false
	}
	lo, hi := m.lo[j], m.hi[j]
	if hi <= lo {
		return n / 2, true
	}
	return min(int((v-lo)/(hi-lo)*float64(n)), n-1), true
}

// classOf is row r's colour class (0 with one colour).
func (m *ScatterMatrix) classOf(r int) int {
	if m.class == nil || r >= len(m.class) || m.class[r] < 0 {
		return 0
	}
	return m.class[r]
}

// drawPairs is column j against column i: each character the marker of
// the class with most points there (the lower class on a tie).
func (m *ScatterMatrix) drawPairs(i, j, cw, ch int) *matrixCell {
	c := newMatrixCell(cw, ch)
	k := max(m.ncls, 1)
	counts := make([]int32, cw*ch*k)
	xs, ys := m.cols[j], m.cols[i]
	for r := range min(len(xs), len(ys)) {
		x, okx := m.bin(j, xs[r], cw)
		y, oky := m.bin(i, ys[r], ch)
		if !okx || !oky {
			continue
		}
		if m.class != nil && r < len(m.class) && m.class[r] < 0 {
			continue
		}
		counts[((ch-1-y)*cw+x)*k+m.classOf(r)]++
	}
	for p := range cw * ch {
		best, n := -1, int32(0)
		for cls := range k {
			if v := counts[p*k+cls]; v > n {
				best, n = cls, v
			}
		}
		if best < 0 {
			continue
		}
		if m.ncls == 0 {
			c.glyphs[p], c.class[p] = []rune(ClassMarker(-1))[0], 0
			continue
		}
		c.glyphs[p], c.class[p] = []rune(ClassMarker(best))[0], int16(best)
	}
	return c
}

// histGlyphs fill a histogram's class shares without colour, one per
// class (wrapping around), as the data screen's histograms do.
var histGlyphs = []rune("█▓▒░▚▞▙▟")

// upEighths are the partial blocks that top a column in colour.
var upEighths = []rune(" ▁▂▃▄▅▆▇█")

// drawHistogram is column j in equal bins, each bar stacked by class from
// the bottom; in colour the bar's top is drawn to an eighth of a
// character, without colour each class's share in its own shade. Bins
// are as many as Sturges' rule gives the rows (a bin a character would
// be noise on a wide cell), each a whole number of characters wide.
func (m *ScatterMatrix) drawHistogram(j, cw, ch int) *matrixCell {
	c := newMatrixCell(cw, ch)
	k := max(m.ncls, 1)
	rows := 0
	for _, v := range m.cols[j] {
		if finite(v) {
			rows++
		}
	}
	if rows == 0 {
		return c
	}
	sturges := int(math.Ceil(math.Log2(float64(rows)))) + 1
	per := (cw + sturges - 1) / sturges // characters a bin
	nb := cw / per
	left := (cw - nb*per) / 2
	counts := make([]float64, nb*k)
	for r, v := range m.cols[j] {
		if b, ok := m.bin(j, v, nb); ok && (m.class == nil || r >= len(m.class) || m.class[r] >= 0) {
			counts[b*k+m.classOf(r)]++
		}
	}
	peak := 0.0
	for b := range nb {
		t := 0.0
		for _, v := range counts[b*k : (b+1)*k] {
			t += v
		}
		peak = math.Max(peak, t)
	}
	if peak == 0 {
		return c
	}
	colourless := m.st.Colorless
	for b := range nb {
		bar := counts[b*k : (b+1)*k]
		total := 0.0
		for _, v := range bar {
			total += v
		}
		if total == 0 {
			continue
		}
		// The bar's height in eighths of a character (whole ones without
		// colour), at least a sliver for any count.
		h8 := max(int(math.Round(total/peak*float64(ch*8))), 1)
		if colourless {
			h8 = max(int(math.Round(total/peak*float64(ch))), 1) * 8
		}
		for y := 0; y*8 < h8 && y < ch; y++ {
			// The class whose share of the bar covers this character's
			// middle (or the top's, for a partial one).
			top := min(h8-y*8, 8)
			mid := (float64(y*8) + float64(top)/2) / float64(h8) * total
			cls, cum := k-1, 0.0
			for ci, v := range bar {
				cum += v
				if mid < cum {
					cls = ci
					break
				}
			}
			g := upEighths[top]
			if colourless && m.ncls > 1 {
				g = histGlyphs[cls%len(histGlyphs)]
			}
			code := int16(cls)
			if m.ncls == 0 {
				code = 1
			}
			for x := left + b*per; x < left+(b+1)*per; x++ {
				p := (ch-1-y)*cw + x
				c.glyphs[p], c.class[p] = g, code
			}
		}
	}
	return c
}

// junction is the box-drawing glyph of a rule crossing with arms up,
// down, left and right, each 0 (none), 1 (light) or 2 (heavy: the
// cursor's frame).
func junction(up, down, left, right int) rune {
	switch [4]int{up, down, left, right} {
	case [4]int{1, 1, 1, 1}:
		return '┼'
	case [4]int{1, 1, 0, 1}:
		return '├'
	case [4]int{1, 1, 1, 0}:
		return '┤'
	case [4]int{1, 2, 1, 2}:
		return '╆'
	case [4]int{1, 2, 0, 2}:
		return '┢'
	case [4]int{1, 2, 2, 1}:
		return '╅'
	case [4]int{1, 2, 2, 0}:
		return '┪'
	case [4]int{2, 1, 1, 2}:
		return '╄'
	case [4]int{2, 1, 0, 2}:
		return '┡'
	case [4]int{2, 1, 2, 1}:
		return '╃'
	case [4]int{2, 1, 2, 0}:
		return '┩'
	}
	return '┼'
}

// View renders the matrix in exactly the size set.
func (m *ScatterMatrix) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	m.st = defaultStyles(m.st)
	st := m.st
	g := m.geometry()
	if len(m.cols) == 0 {
		return fitBlock(placeholder(st, "no columns", m.w, m.h), m.w, m.h)
	}
	if g.kr == 0 {
		return fitBlock(placeholder(st, "too small", m.w, m.h), m.w, m.h)
	}
	n := len(m.cols)
	gw := g.kc*(g.cw+1) + 1
	gh := g.kr*(g.ch+1) - 1
	cv := newCanvas(gw, gh)
	const rule, frame = 0, 1
	cv.addStyle(st.Subtle)
	cv.addStyle(st.Accent.Bold(true))
	classStyle := func(cls int16) int { return int(cls) + 2 }
	if m.ncls == 0 {
		cv.addStyle(st.Accent)
		cv.addStyle(st.SeriesStyle(0))
	}
	for c := range m.ncls {
		cv.addStyle(st.ClassStyle(c))
	}
	cr, cc := m.row-m.r0, m.col-m.c0 // the cursor in the window
	// Vertical rules, heavy beside the cursor's cell.
	for c := 0; c <= g.kc; c++ {
		x := c * (g.cw + 1)
		for r := range g.kr {
			glyph, sty := "│", rule
			if r == cr && (c == cc || c == cc+1) {
				glyph, sty = "┃", frame
			}
			for y := range g.ch {
				cv.set(x, r*(g.ch+1)+y, glyph, sty)
			}
		}
	}
	// Horizontal rules between rows of cells, heavy above and below the
	// cursor's cell, with their crossings.
	for r := 1; r < g.kr; r++ {
		y := r*(g.ch+1) - 1
		heavyRow := r == cr || r == cr+1
		for c := 0; c <= g.kc; c++ {
			x := c * (g.cw + 1)
			if c < g.kc {
				glyph, sty := "─", rule
				if heavyRow && c == cc {
					glyph, sty = "━", frame
				}
				for dx := 1; dx <= g.cw; dx++ {
					cv.set(x+dx, y, glyph, sty)
				}
			}
			arm := func(heavy bool, present bool) int {
				switch {
				case !present:
					return 0
				case heavy:
					return 2
				}
				return 1
			}
			side := c == cc || c == cc+1
			up := arm(r-1 == cr && side, true)
			down := arm(r == cr && side, true)
			left := arm(heavyRow && c-1 == cc, c > 0)
			right := arm(heavyRow && c == cc, c < g.kc)
			sty := rule
			if max(up, down, left, right) == 2 {
				sty = frame
			}
			cv.set(x, y, string(junction(up, down, left, right)), sty)
		}
	}
	// The cells.
	for r := range g.kr {
		for c := range g.kc {
			cell := m.cell(m.r0+r, m.c0+c, g.cw, g.ch)
			for y := range g.ch {
				for x := range g.cw {
					p := y*g.cw + x
					if cell.class[p] < 0 {
						continue
					}
					cv.set(c*(g.cw+1)+1+x, r*(g.ch+1)+y, string(cell.glyphs[p]), classStyle(cell.class[p]))
				}
			}
		}
	}
	// The names along the top, then each line with its row's name on the
	// middle line of its cells; ‹ › ▲ ▼ say there is more to scroll to.
	muted, sel := st.Muted, st.SelectedRow
	lines := make([]string, 0, m.h)
	var top strings.Builder
	lead := ""
	if m.c0 > 0 {
		lead = "‹"
	}
	top.WriteString(muted.Render(padRight(lead, g.lw+1)))
	for c := range g.kc {
		name := padRight(m.names[m.c0+c], g.cw)
		if m.c0+c == m.col {
			top.WriteString(sel.Render(name))
		} else {
			top.WriteString(st.Text.Render(name))
		}
		if c < g.kc-1 {
			top.WriteString(" ")
		}
	}
	if m.c0+g.kc < n {
		top.WriteString(muted.Render("›"))
	}
	lines = append(lines, top.String())
	for y := range gh {
		r, within := y/(g.ch+1), y%(g.ch+1)
		label := strings.Repeat(" ", g.lw)
		switch {
		case within == (g.ch-1)/2 && within < g.ch:
			name := padRight(m.names[m.r0+r], g.lw-1)
			if m.r0+r == m.row {
				label = sel.Render(name) + " "
			} else {
				label = st.Text.Render(name) + " "
			}
		case y == 0 && m.r0 > 0:
			label = muted.Render(padLeft("▲", g.lw-1)) + " "
		case y == gh-1 && m.r0+g.kr < n:
			label = muted.Render(padLeft("▼", g.lw-1)) + " "
		}
		lines = append(lines, label+cv.row(y))
	}
	lines = append(lines, g.legend...)
	return fitBlock(lines, m.w, m.h)
}

// legend names the classes by their markers (and, without colour, their
// histogram shades), then the notes, on at most maxLines lines of w;
// entries that do not fit are counted ("+3").
func (m *ScatterMatrix) legend(w, maxLines int) []string {
	st := defaultStyles(m.st)
	var entries []legendEntry
	for c := range m.ncls {
		name := strconv.Itoa(c)
		if c < len(m.classNames) && m.classNames[c] != "" {
			name = m.classNames[c]
		}
		glyph := ClassMarker(c)
		if st.Colorless && m.ncls > 1 {
			glyph += string(histGlyphs[c%len(histGlyphs)])
		}
		entries = append(entries, legendEntry{st.ClassStyle(c), glyph, name})
	}
	for _, n := range m.notes {
		entries = append(entries, legendEntry{st.Muted, "", n})
	}
	var lines []string
	var b strings.Builder
	used := 0
	for i, e := range entries {
		text := e.name
		ew := width(text)
		if e.glyph != "" {
			ew += width(e.glyph) + 1
		}
		sep := 1
		if used > 0 {
			sep = 3
		}
		if used > 0 && used+sep+ew > w {
			if len(lines) == maxLines-1 {
				more := "  +" + strconv.Itoa(len(entries)-i)
				if used+len(more) <= w {
					b.WriteString(st.Muted.Render(more))
				}
				break
			}
			lines = append(lines, b.String())
			b.Reset()
			used, sep = 0, 1
		}
		b.WriteString(strings.Repeat(" ", sep))
		if e.glyph != "" {
			b.WriteString(e.marker.Render(e.glyph) + " ")
		}
		textStyle := st.Text
		if e.glyph == "" {
			textStyle = e.marker
		}
		b.WriteString(textStyle.Render(text))
		used += sep + ew
	}
	if used > 0 {
		lines = append(lines, b.String())
	}
	return lines
}

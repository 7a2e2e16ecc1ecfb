package widgets

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/themes"
)

// ScatterKeyMap are the keys of a Scatter.
type ScatterKeyMap struct {
	ToggleRegions key.Binding
}

// DefaultScatterKeyMap returns the default Scatter keys.
func DefaultScatterKeyMap() ScatterKeyMap {
	return ScatterKeyMap{ToggleRegions: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "regions"))}
}

// ShortHelp implements help.KeyMap.
func (k ScatterKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.ToggleRegions} }

// FullHelp implements help.KeyMap.
func (k ScatterKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Bounds is the data rectangle a Scatter draws and its plot grid: Cols × Rows
// character cells, row 0 at the top (YMax).
type Bounds struct {
	XMin, XMax, YMin, YMax float64
	Cols, Rows             int
}

// Center is the data point at the centre of plot cell (col, row): where to
// evaluate a model for a decision-region grid.
func (b Bounds) Center(col, row int) (x, y float64) {
	x = b.XMin + (float64(col)+0.5)/float64(max(b.Cols, 1))*(b.XMax-b.XMin)
	y = b.YMax - (float64(row)+0.5)/float64(max(b.Rows, 1))*(b.YMax-b.YMin)
	return x, y
}

// Scatter is a 2-D character canvas: an optional background grid of
// decision regions (tinted by class colour, or shade characters without
// colour), points by true class with distinct markers (● ○ ◆ ▲ ■ ...),
// marked points (misclassified) as ×, and axes with min/max labels. Points
// without a class (regression: predicted vs actual, residuals) use a
// single marker; optional guides draw y = x and y = 0.
//
// To draw decision regions: SetPoints and SetSize, read Bounds, evaluate
// the model at each Bounds.Center, and SetRegions with the predicted class
// per cell (a grid of another size is resampled to the nearest cell).
// Points with a NaN or infinite coordinate are dropped.
type Scatter struct {
	KeyMap ScatterKeyMap

	st             *themes.Styles
	xs, ys         []float64
	class          []int
	marked         []bool
	regions        [][]int
	conf           [][]float64
	margin         [][]float64
	support        []bool
	supportOf      string // whose support vectors, after their count in the legend
	hideRegions    bool
	xName, yName   string
	classNames     []string
	fixed          bool
	fb             Bounds
	identity, zero bool
	curveX, curveY []float64
	w, h           int
}

// NewScatter returns an empty canvas.
func NewScatter(st *themes.Styles) Scatter {
	s := Scatter{KeyMap: DefaultScatterKeyMap(), st: defaultStyles(st)}
	s.KeyMap.ToggleRegions.SetEnabled(false)
	return s
}

// SetPoints replaces the points. class may be nil (unlabelled points) or
// give each point's true class (negative: unlabelled). Extra coordinates or
// classes beyond the shortest slice are ignored. Marks are cleared.
func (s *Scatter) SetPoints(xs, ys []float64, class []int) {
	n := min(len(xs), len(ys))
	s.xs = make([]float64, 0, n)
	s.ys = make([]float64, 0, n)
	s.class = nil
	if class != nil {
		s.class = make([]int, 0, n)
	}
	s.marked = nil
	for i := 0; i < n; i++ {
		// Keep indices aligned with the caller's for SetMarked: dropped
		// points become NaN and are skipped when drawing.
		x, y := clean(xs[i]), clean(ys[i])
		s.xs = append(s.xs, x)
		s.ys = append(s.ys, y)
		if class != nil {
			c := -1
			if i < len(class) {
				c = class[i]
			}
			s.class = append(s.class, c)
		}
	}
}

// SetMarked marks points by index (misclassified ones), drawn as ×;
// indices out of range are ignored.
func (s *Scatter) SetMarked(idx []int) {
	s.marked = make([]bool, len(s.xs))
	for _, i := range idx {
		if i >= 0 && i < len(s.marked) {
			s.marked[i] = true
		}
	}
}

// SetRegions sets the background grid of classes, grid[row][col] with row
// 0 at the top, spanning Bounds; a negative class leaves a cell empty. nil
// removes the regions.
func (s *Scatter) SetRegions(grid [][]int) {
	s.regions = make([][]int, len(grid))
	for i, r := range grid {
		s.regions[i] = append([]int(nil), r...)
	}
	s.KeyMap.ToggleRegions.SetEnabled(len(grid) > 0)
}

// SetConfidence shades the regions by the model's probability of the
// class predicted in each cell (same shape as the regions grid): faint where
// the model hesitates, strong where it is sure. nil draws flat regions.
func (s *Scatter) SetConfidence(grid [][]float64) {
	s.conf = make([][]float64, len(grid))
	for i, r := range grid {
		s.conf[i] = append([]float64(nil), r...)
	}
}

// SetMargin gives a margin classifier's decision value f in each cell of
// the regions grid (same shape): the band |f| <= 1 is drawn faint (blank
// without colour), the boundary f = 0 as dots. nil removes it.
func (s *Scatter) SetMargin(grid [][]float64) {
	s.margin = make([][]float64, len(grid))
	for i, r := range grid {
		s.margin[i] = append([]float64(nil), r...)
	}
	if grid == nil {
		s.margin = nil
	}
}

// SetSupport marks points by index as support vectors, drawn with their
// own markers (SupportMarker); indices out of range are ignored.
func (s *Scatter) SetSupport(idx []int) {
	s.support = make([]bool, len(s.xs))
	for _, i := range idx {
		if i >= 0 && i < len(s.support) {
			s.support[i] = true
		}
	}
}

// SetSupportOf says whose support vectors the marked points are, after
// their count in the legend ("of the map's model"); "" says nothing more.
func (s *Scatter) SetSupportOf(whose string) { s.supportOf = whose }

// supports counts the points marked as support vectors.
func (s Scatter) supports() int {
	n := 0
	for _, v := range s.support {
		if v {
			n++
		}
	}
	return n
}

// Confidence reports whether the regions are shaded by probability (never
// without colour, where a region's shade names its class).
func (s Scatter) Confidence() bool {
	return s.conf != nil && s.margin == nil && len(s.regions) > 0 && !s.hideRegions && !defaultStyles(s.st).Colorless
}

// SetAxes names the axes.
func (s *Scatter) SetAxes(xName, yName string) { s.xName, s.yName = oneLine(xName), oneLine(yName) }

// SetClassNames names the classes in the legend.
func (s *Scatter) SetClassNames(names []string) { s.classNames = oneLines(names) }

// SetBounds fixes the data rectangle (points outside are not drawn);
// a degenerate or non-finite rectangle returns to automatic bounds.
func (s *Scatter) SetBounds(xmin, xmax, ymin, ymax float64) {
	ok := finite(xmin) && finite(xmax) && finite(ymin) && finite(ymax) && xmax > xmin && ymax > ymin
	s.fixed = ok
	if ok {
		s.fb = Bounds{XMin: clean(xmin), XMax: clean(xmax), YMin: clean(ymin), YMax: clean(ymax)}
	}
}

// SetGuides draws the identity line y = x (predicted vs actual) and/or the
// zero line y = 0 (residuals).
func (s *Scatter) SetGuides(identity, zero bool) { s.identity, s.zero = identity, zero }

// SetCurve draws a function over the points: y = f(x) at increasing xs
// (a fitted regression), joined column by column; nil removes it.
func (s *Scatter) SetCurve(xs, ys []float64) {
	n := min(len(xs), len(ys))
	s.curveX, s.curveY = append([]float64(nil), xs[:n]...), append([]float64(nil), ys[:n]...)
}

// SetSize sets the size of the canvas, axes and legend included.
func (s *Scatter) SetSize(w, h int) { s.w, s.h = w, h }

// Update handles the region toggle.
func (s Scatter) Update(msg tea.Msg) (Scatter, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, s.KeyMap.ToggleRegions) {
		s.hideRegions = !s.hideRegions
	}
	return s, nil
}

// dataBounds is the automatic rectangle: the finite points' extent padded
// by 5% (or the fixed one).
func (s Scatter) dataBounds() Bounds {
	if s.fixed {
		return s.fb
	}
	b := Bounds{XMin: math.Inf(1), XMax: math.Inf(-1), YMin: math.Inf(1), YMax: math.Inf(-1)}
	for i := range s.xs {
		x, y := s.xs[i], s.ys[i]
		if math.IsNaN(x) || math.IsNaN(y) {
			continue
		}
		b.XMin, b.XMax = math.Min(b.XMin, x), math.Max(b.XMax, x)
		b.YMin, b.YMax = math.Min(b.YMin, y), math.Max(b.YMax, y)
	}
	pad := func(lo, hi float64) (float64, float64) {
		if lo > hi {
			return 0, 1
		}
		lo, hi = padRange(lo, hi)
		d := (hi - lo) * 0.05
		return lo - d, hi + d
	}
	b.XMin, b.XMax = pad(b.XMin, b.XMax)
	b.YMin, b.YMax = pad(b.YMin, b.YMax)
	return b
}

type scatterGeom struct {
	gutter, pw, ph int
	legend         []string
	stride         int // one point in stride is drawn
	b              Bounds
}

func (s Scatter) geometry() scatterGeom {
	var g scatterGeom
	g.b = s.dataBounds()
	g.gutter = 1 + max(len(fmtG(g.b.YMax, 3)), len(fmtG(g.b.YMin, 3)), min(len([]rune(s.yName)), 8))
	g.pw = s.w - g.gutter
	g.ph = s.h - 2
	g.stride = s.stride(g.pw * max(g.ph-1, 1))
	if s.h >= 6 && (s.class != nil || s.anyMarked() || g.stride > 1) {
		g.legend = s.legend(g.stride, 2)
	}
	g.ph -= len(g.legend)
	g.b.Cols, g.b.Rows = max(g.pw, 0), max(g.ph, 0)
	return g
}

// stride is one over the share of the points drawn on a plot of cells
// cells: all of them while there are fewer than half as many as cells,
// else about that many (so that a million rows neither flood the plot nor
// slow it down), chosen by drawn.
func (s Scatter) stride(cells int) int {
	limit := max(cells/2, 1)
	return max((len(s.xs)+limit-1)/limit, 1)
}

// drawn picks point i for a plot that draws one point in stride: by a hash
// of the index, so that data sorted by class (or alternating) still shows
// every class in its proportion, and the same points every time.
func drawn(i, stride int) bool {
	return stride <= 1 || (uint32(i)*2654435761)>>7%uint32(stride) == 0
}

// Bounds is the data rectangle and plot grid at the current size.
func (s Scatter) Bounds() Bounds { return s.geometry().b }

// marks counts the marked points.
func (s Scatter) marks() int {
	n := 0
	for _, m := range s.marked {
		if m {
			n++
		}
	}
	return n
}

// markShare is the share of the points that are marked.
func (s Scatter) markShare() float64 { return float64(s.marks()) / float64(max(len(s.xs), 1)) }

// Above maxMarkShare of the points, and more than maxMarks of them, ×
// marks would flood the plot: the points then keep their class markers
// (the region under a point of another class shows the mistake) and the
// legend says how many are wrong.
const (
	maxMarkShare = 0.2
	maxMarks     = 50
)

// showMarks reports whether marked points are drawn as ×.
func (s Scatter) showMarks() bool { return s.marks() <= maxMarks || s.markShare() <= maxMarkShare }

func (s Scatter) anyMarked() bool {
	for _, m := range s.marked {
		if m {
			return true
		}
	}
	return false
}

// View renders the canvas in exactly the size set.
func (s Scatter) View() string {
	if s.w <= 0 || s.h <= 0 {
		return ""
	}
	s.st = defaultStyles(s.st) // a zero-value widget still renders
	st := s.st
	g := s.geometry()
	if g.pw < 2 || g.ph < 1 {
		return fitBlock(placeholder(st, "too small", s.w, s.h), s.w, s.h)
	}
	b := g.b
	cv := newCanvas(g.pw, g.ph)
	col := func(x float64) (int, bool) {
		f := (x - b.XMin) / (b.XMax - b.XMin)
		if !(f >= 0 && f <= 1) {
			return 0, false
		}
		return min(int(f*float64(g.pw)), g.pw-1), true
	}
	row := func(y float64) (int, bool) {
		f := (y - b.YMin) / (b.YMax - b.YMin)
		if !(f >= 0 && f <= 1) {
			return 0, false
		}
		return g.ph - 1 - min(int(f*float64(g.ph)), g.ph-1), true
	}

	// Styles are combined lazily: foreground role × region background. A
	// region background is a class and a confidence level (bgKey).
	type styleKey struct {
		fg     int
		marked bool
		bg     int
	}
	bgStyle := func(bg int) lipgloss.Style {
		cls, level := bg/themes.RegionLevels, bg%themes.RegionLevels
		if (s.conf == nil && s.margin == nil) || (s.margin != nil && level == themes.RegionLevels-1) {
			return st.RegionStyle(cls)
		}
		return st.RegionShades[cls%max(len(st.RegionShades), 1)][level]
	}
	memo := map[styleKey]int{}
	styleFor := func(fg lipgloss.Style, fgID int, marked bool, region int) int {
		k := styleKey{fgID, marked, region}
		if id, ok := memo[k]; ok {
			return id
		}
		sty := fg
		if region >= 0 && !st.Colorless {
			sty = fg.Inherit(bgStyle(region))
		}
		id := cv.addStyle(sty)
		memo[k] = id
		return id
	}
	const subtleID, accentID, plainID, curveID, boundaryID = -2, -3, -4, -5, -6

	// Regions.
	regionAt := make([]int, g.pw*g.ph)
	for i := range regionAt {
		regionAt[i] = -1
	}
	if !s.hideRegions && len(s.regions) > 0 {
		gr := len(s.regions)
		fill := map[int]int{} // canvas style of each region background, made on first use
		f := s.marginAt(g.pw, g.ph)
		for r := 0; r < g.ph; r++ {
			gi := min(r*gr/g.ph, gr-1)
			gc := len(s.regions[gi])
			if gc == 0 {
				continue
			}
			for c := 0; c < g.pw; c++ {
				gj := min(c*gc/g.pw, gc-1)
				cls := s.regions[gi][gj]
				if cls < 0 {
					continue
				}
				// Tints wrap around like the theme's, so any class
				// number maps into a short table.
				level := themes.RegionLevels - 1
				band := f != nil && math.Abs(f(c, r)) <= 1
				switch {
				case band:
					level = 0
				case f == nil && s.conf != nil && gi < len(s.conf) && gj < len(s.conf[gi]):
					level = themes.RegionLevel(s.conf[gi][gj])
				}
				key := (cls%max(len(st.Regions), 1))*themes.RegionLevels + level
				regionAt[r*g.pw+c] = key
				if f != nil && onBoundary(f, c, r, g.pw, g.ph) {
					cv.set(c, r, boundaryMarker, styleFor(st.Text.Bold(true), boundaryID, false, key))
					continue
				}
				if st.Colorless {
					shade := regionShades[cls%len(regionShades)]
					if band {
						shade = " "
					}
					cv.set(c, r, shade, -1)
					continue
				}
				id, ok := fill[key]
				if !ok {
					id = styleFor(lipgloss.NewStyle(), plainID, false, key)
					fill[key] = id
				}
				cv.set(c, r, " ", id)
			}
		}
	}
	// Guides.
	if s.identity || s.zero {
		for c := 0; c < g.pw; c++ {
			x, _ := b.Center(c, 0)
			var ys []float64
			if s.identity {
				ys = append(ys, x)
			}
			if s.zero {
				ys = append(ys, 0)
			}
			for _, y := range ys {
				if r, ok := row(y); ok {
					cv.set(c, r, "·", styleFor(st.Subtle, subtleID, false, regionAt[r*g.pw+c]))
				}
			}
		}
	}
	// The curve, under the points.
	if len(s.curveX) > 1 {
		curve := styleFor(st.SeriesStyle(1).Bold(true), curveID, false, -1)
		prev := -1
		for c := 0; c < g.pw; c++ {
			x, _ := b.Center(c, 0)
			y, ok := interpolate(s.curveX, s.curveY, x)
			if !ok {
				prev = -1
				continue
			}
			r, ok := row(y)
			if !ok {
				prev = -1
				continue
			}
			if prev >= 0 && abs(r-prev) > 1 { // steep: join the rows
				step := 1
				if r < prev {
					step = -1
				}
				for k := prev + step; k != r; k += step {
					cv.set(c, k, "┃", curve)
				}
			}
			cv.set(c, r, "━", curve)
			prev = r
		}
	}
	// Points: unmarked first, then support vectors, then marked on top;
	// on large data a hashed subset (drawn).
	for pass := 0; pass < 3; pass++ {
		for i := range s.xs {
			if !drawn(i, g.stride) {
				continue
			}
			marked := i < len(s.marked) && s.marked[i] && s.showMarks()
			support := !marked && i < len(s.support) && s.support[i]
			if (pass == 1) != support || (pass == 2) != marked {
				continue
			}
			c, okc := col(s.xs[i])
			r, okr := row(s.ys[i])
			if !okc || !okr {
				continue
			}
			cls := -1
			if s.class != nil {
				cls = s.class[i]
			}
			glyph := ClassMarker(cls)
			fg, fgID := st.Accent, accentID
			if cls >= 0 {
				fg, fgID = st.ClassStyle(cls), cls
			}
			if support {
				glyph = SupportMarker(cls)
			}
			if marked {
				glyph = markedMarker
				fg = fg.Bold(true)
			}
			cv.set(c, r, glyph, styleFor(fg, fgID, marked, regionAt[r*g.pw+c]))
		}
	}

	// Assemble with the y axis gutter.
	lines := make([]string, 0, s.h)
	lw := g.gutter - 1
	muted := newPaint(st.Muted)
	for r := 0; r < g.ph; r++ {
		label, axis := "", "│"
		switch {
		case r == 0:
			label, axis = fmtG(b.YMax, 3), "┤"
		case r == g.ph-1:
			label, axis = fmtG(b.YMin, 3), "┤"
		case r == (g.ph-1)/2:
			label = s.yName
		}
		lines = append(lines, muted.render(padLeft(label, lw)+axis)+cv.row(r))
	}
	lines = append(lines, muted.render(strings.Repeat(" ", lw)+"└"+strings.Repeat("─", g.pw)))
	lo, hi := fmtG(b.XMin, 3), fmtG(b.XMax, 3)
	xl := padRight(lo, g.pw)
	if mid := g.pw - len(lo) - len(hi) - 2; mid > 0 {
		xl = lo + " " + center(s.xName, mid) + " " + hi
	}
	lines = append(lines, muted.render(strings.Repeat(" ", g.gutter)+xl))
	lines = append(lines, g.legend...)
	return fitBlock(lines, s.w, s.h)
}

// legend lists the classes present (and named) with their markers, then ×
// if points are marked, then how many points are drawn when not all are,
// on at most maxLines lines; entries that do not fit are counted ("+3").
func (s Scatter) legend(stride, maxLines int) []string {
	st := s.st
	seen := map[int]bool{}
	var classes []int
	if s.class != nil {
		for c := range s.classNames {
			seen[c] = true
			classes = append(classes, c)
		}
		for _, c := range s.class {
			if c >= 0 && !seen[c] {
				seen[c] = true
				classes = append(classes, c)
			}
		}
	}
	sort.Ints(classes)
	type entry = legendEntry
	var entries []entry
	for _, c := range classes {
		name := ""
		if c < len(s.classNames) {
			name = s.classNames[c]
		}
		if name == "" {
			name = strconv.Itoa(c)
		}
		entries = append(entries, entry{st.ClassStyle(c), ClassMarker(c), name})
	}
	entries = append(entries, s.marginLegend(classes)...)
	switch {
	case s.anyMarked() && s.showMarks():
		entries = append(entries, entry{st.Bad, markedMarker, "misclassified"})
	case s.anyMarked():
		entries = append(entries, entry{st.Muted, "", numfmt.Percent(s.markShare()) + " misclassified (unmarked: too many)"})
	}
	if stride > 1 {
		entries = append(entries, entry{st.Muted, "", "1 in " + strconv.Itoa(stride) + " points drawn"})
	}
	var lines []string
	var b strings.Builder
	used := 0
	for i, e := range entries {
		text := e.name
		w := lipgloss.Width(text)
		if e.glyph != "" {
			w += lipgloss.Width(e.glyph) + 1
		}
		sep := 1
		if used > 0 {
			sep = 3
		}
		if used > 0 && used+sep+w > s.w {
			if len(lines) == maxLines-1 {
				more := "  +" + strconv.Itoa(len(entries)-i)
				if used+len(more) <= s.w {
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
		b.WriteString(st.Text.Render(text))
		used += sep + w
	}
	if used > 0 {
		lines = append(lines, b.String())
	}
	return lines
}

// legendEntry is a glyph drawn in marker's style and what it means.
type legendEntry struct {
	marker lipgloss.Style
	glyph  string
	name   string
}

// interpolate is f(x) on the polyline (xs, ys), xs increasing; ok is false
// outside it or where f is not finite.
func interpolate(xs, ys []float64, x float64) (float64, bool) {
	i := sort.SearchFloat64s(xs, x)
	switch {
	case i == 0 && x == xs[0]:
		return ys[0], finite(ys[0])
	case i == 0 || i >= len(xs):
		return 0, false
	}
	t := (x - xs[i-1]) / (xs[i] - xs[i-1])
	y := ys[i-1] + t*(ys[i]-ys[i-1])
	return y, finite(y)
}

// marginAt is the margin's decision value at plot cell (c, r) of a
// pw × ph plot (the grid resampled to the nearest cell), or nil when no
// margin is set or the regions are hidden.
func (s Scatter) marginAt(pw, ph int) func(c, r int) float64 {
	gr := len(s.margin)
	if gr == 0 || s.hideRegions {
		return nil
	}
	return func(c, r int) float64 {
		row := s.margin[min(r*gr/ph, gr-1)]
		if len(row) == 0 {
			return math.NaN()
		}
		return row[min(c*len(row)/pw, len(row)-1)]
	}
}

// onBoundary says the sign of f changes between plot cell (c, r) and the
// cell to its right or below: the boundary f = 0 passes there.
func onBoundary(f func(c, r int) float64, c, r, pw, ph int) bool {
	here := f(c, r) > 0
	return (c+1 < pw && (f(c+1, r) > 0) != here) || (r+1 < ph && (f(c, r+1) > 0) != here)
}

// marginLegend are the legend's entries for the margin band, the boundary
// and the support vectors, those that are drawn.
func (s Scatter) marginLegend(classes []int) []legendEntry {
	st := s.st
	var out []legendEntry
	if s.marginAt(1, 1) != nil && len(s.regions) > 0 {
		band := legendEntry{st.Text, "", "blank: margin |f|≤1"}
		if !st.Colorless && len(st.RegionShades) > 0 {
			band.glyph, band.name = st.RegionShades[0][0].Render(" ")+st.RegionShades[1%len(st.RegionShades)][0].Render(" "), "margin |f|≤1"
		}
		out = append(out, legendEntry{st.Text.Bold(true), boundaryMarker, "boundary f=0"}, band)
	}
	if n := s.supports(); n > 0 {
		var glyphs strings.Builder
		for _, c := range classes[:min(len(classes), len(supportMarkers))] {
			glyphs.WriteString(st.ClassStyle(c).Render(SupportMarker(c)))
		}
		if len(classes) == 0 {
			glyphs.WriteString(SupportMarker(-1))
		}
		name := numfmt.Count(n, "support vector")
		if s.supportOf != "" {
			name += " " + s.supportOf
		}
		out = append(out, legendEntry{lipgloss.NewStyle(), glyphs.String(), name})
	}
	return out
}

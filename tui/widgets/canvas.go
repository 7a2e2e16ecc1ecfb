package widgets

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
)

// paint is a style reduced to the escape sequences around its text, for
// hot paths: lipgloss.Style.Render is general (wrapping, padding,
// alignment) and costs microseconds a call, while colour and attribute
// styles only wrap their text. Use it for single-line text and styles
// without layout properties only.
type paint struct{ pre, post string }

const paintProbe = "\uE000" // a private-use rune: never in real text

func newPaint(s lipgloss.Style) paint {
	out := s.Render(paintProbe)
	i := strings.Index(out, paintProbe)
	if i < 0 { // cannot happen for colour styles; degrade to no style
		return paint{}
	}
	return paint{out[:i], out[i+len(paintProbe):]}
}

func (p paint) render(s string) string {
	if p.pre == "" && p.post == "" {
		return s
	}
	return p.pre + s + p.post
}

// canvas is a grid of one-cell glyphs, each with an optional style,
// rendered row by row, one paint per run of equal style.
type canvas struct {
	w, h   int
	glyphs []rune
	style  []int16 // index into styles, -1 = unstyled
	styles []paint
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: max(w, 0), h: max(h, 0)}
	c.glyphs = make([]rune, c.w*c.h)
	c.style = make([]int16, c.w*c.h)
	for i := range c.glyphs {
		c.glyphs[i] = ' '
		c.style[i] = -1
	}
	return c
}

// addStyle registers a style and returns its index for set.
func (c *canvas) addStyle(s lipgloss.Style) int {
	c.styles = append(c.styles, newPaint(s))
	return len(c.styles) - 1
}

func (c *canvas) in(x, y int) bool { return x >= 0 && y >= 0 && x < c.w && y < c.h }

// set puts a one-cell glyph (the first rune of g) at (x, y) (outside is
// ignored); style -1 keeps the cell unstyled.
func (c *canvas) set(x, y int, g string, style int) {
	if !c.in(x, y) {
		return
	}
	r, _ := utf8.DecodeRuneInString(g)
	c.glyphs[y*c.w+x] = r
	c.style[y*c.w+x] = int16(style)
}

// row renders line y.
func (c *canvas) row(y int) string {
	var b, run strings.Builder
	b.Grow(c.w * 8)
	run.Grow(c.w * 3)
	cur := int16(-2)
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if cur >= 0 {
			p := c.styles[cur]
			b.WriteString(p.pre)
			b.WriteString(run.String())
			b.WriteString(p.post)
		} else {
			b.WriteString(run.String())
		}
		run.Reset()
	}
	for x := 0; x < c.w; x++ {
		i := y*c.w + x
		if c.style[i] != cur {
			flush()
			cur = c.style[i]
		}
		run.WriteRune(c.glyphs[i])
	}
	flush()
	return b.String()
}

// braille accumulates sub-cell dots: each cell is 2 dots wide and 4 high.
type braille struct {
	w, h int // in cells
	bits []uint8
}

func newBraille(w, h int) *braille {
	return &braille{w: w, h: h, bits: make([]uint8, max(w*h, 0))}
}

// brailleBit[y%4][x%2] is the Unicode braille dot for a sub-cell position.
var brailleBit = [4][2]uint8{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

// dot sets sub-cell dot (px, py); outside is ignored.
func (b *braille) dot(px, py int) {
	if px < 0 || py < 0 || px >= 2*b.w || py >= 4*b.h {
		return
	}
	b.bits[(py/4)*b.w+px/2] |= brailleBit[py%4][px%2]
}

// line draws a dotted segment between sub-cell points (Bresenham); every
// is 1 for solid lines, 2 for dotted ones. visit, if set, sees each dot.
func (b *braille) line(x0, y0, x1, y1, every int, visit func(px, py int)) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for n := 0; ; n++ {
		if n%every == 0 {
			b.dot(x0, y0)
			if visit != nil {
				visit(x0, y0)
			}
		}
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func (b *braille) at(x, y int) uint8 { return b.bits[y*b.w+x] }

func brailleGlyph(bits uint8) string { return string(rune(0x2800 + int(bits))) }

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

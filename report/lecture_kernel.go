package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/numfmt"
)

func init() {
	RegisterLecture("kernel", LectureDrawing{Draw: kernelDraw, Tables: kernelTables, Frames: kernelFrames})
}

const (
	kernelInner = '●' // a point of the inner circle
	kernelOuter = '○' // a point of the outer circle
	kernelPlane = '·' // the separator: the plane, its trace, its circle
)

// kernelTurns is how many frames a full turn of the lifted points takes.
const kernelTurns = 36

var kernelInks = map[rune]int{kernelInner: 0, kernelOuter: 1, kernelPlane: 2}

func kernelResult(result any) *lecture.KernelResult {
	switch r := result.(type) {
	case *lecture.KernelResult:
		return r
	case lecture.KernelResult:
		return &r
	}
	return nil
}

func kernelFrames(result any) int {
	if r := kernelResult(result); r != nil && r.View == "rotate" && r.Acc3D > 0 {
		return kernelTurns
	}
	return 0
}

func kernelDraw(result any, v LectureView) Picture {
	r := kernelResult(result)
	if r == nil || len(r.X) == 0 {
		return Picture{Lines: []string{"(no points yet)"}}
	}
	legend := fmt.Sprintf("● inner circle  ○ outer  · the plane and its trace (%s)", accText(r))
	h := v.Height - 1
	var body []string
	if r.View == "rotate" && v.Width >= 40 && h >= 8 {
		left := kernelTurning(r, min(v.Width*3/5, v.Width-22), h, v.Frame)
		lw := len([]rune(left[0]))
		if v.Width-lw-2 >= 20 {
			body = Beside(left, kernelPanel(r, -1, v.Width-lw-2, h), lw, 2)
		} else {
			body = left
		}
	} else {
		body = kernelProjections(r, v.Width, h)
	}
	lines := append(body, PadRight(legend, v.Width))
	if len(lines) > v.Height {
		lines = lines[len(lines)-v.Height:]
	}
	return Picture{Lines: lines, Inks: kernelInks}
}

func accText(r *lecture.KernelResult) string {
	if r.Acc3D == 0 {
		return "fitting"
	}
	return fmt.Sprintf("%s right; the best line in x-space %s", pct(r.Acc3D), pct(r.Acc2D))
}

func pct(x float64) string { return numfmt.Fixed(100*x, 0) + "%" }

// kernelProjections lays the data in x-space and the three projections of
// the lift in a grid that fits w × h.
func kernelProjections(r *lecture.KernelResult, w, h int) []string {
	// x-space, then the pairs of lifted coordinates (the parabolic map's
	// first two are x-space itself).
	panels := []int{-1, 0, 1}
	if r.Map == "quadratic" {
		panels = []int{-1, 2, 1, 0}
	}
	cols, rows := len(panels), 1
	switch {
	case w >= len(panels)*30 && h >= 10:
	case w >= 2*28 && h >= 20:
		cols, rows = 2, (len(panels)+1)/2
	case w >= 2*24:
		cols, rows, panels = 2, 1, []int{-1, 1}
	default:
		cols, rows, panels = 1, 1, []int{1}
	}
	pw, ph := (w-2*(cols-1))/cols, h/rows
	var out []string
	for i := 0; i < len(panels); i += cols {
		var block []string
		for j := i; j < i+cols && j < len(panels); j++ {
			p := kernelPanel(r, panels[j], pw, ph)
			if block == nil {
				block = p
				continue
			}
			block = Beside(block, p, len([]rune(block[0])), 2)
		}
		out = append(out, block...)
	}
	return out
}

// kernelPanel draws one view of w × h: the data in x-space with the
// separator's preimage (which -1), or the lifted coordinates other than
// which against each other with the plane's trace at which's mean.
func kernelPanel(r *lecture.KernelResult, which, w, h int) []string {
	var title, xl string
	var pts [][2]float64
	var side func(a, b float64) float64
	if which < 0 {
		title = "x-space"
		xl = "x1 across, x2 up"
		pts = r.X
		side = func(a, b float64) float64 {
			z := lecture.KernelLiftOf(r.Map, [2]float64{a, b})
			return r.Plane.W[0]*z[0] + r.Plane.W[1]*z[1] + r.Plane.W[2]*z[2] + r.Plane.B
		}
	} else {
		i, j := [3][2]int{{1, 2}, {0, 2}, {0, 1}}[which][0], [3][2]int{{1, 2}, {0, 2}, {0, 1}}[which][1]
		mean := 0.0
		for _, z := range r.Lifted {
			mean += z[which] / float64(len(r.Lifted))
		}
		title = r.Coords[i] + " · " + r.Coords[j]
		xl = fmt.Sprintf("%s across, %s up", r.Coords[i], r.Coords[j])
		for _, z := range r.Lifted {
			pts = append(pts, [2]float64{z[i], z[j]})
		}
		side = func(a, b float64) float64 {
			return r.Plane.W[i]*a + r.Plane.W[j]*b + r.Plane.W[which]*mean + r.Plane.B
		}
	}
	x0, x1, y0, y1 := kernelBounds(pts)
	lw := 6
	cw, ch := CanvasSize(w, h-1, lw, true)
	c := NewCanvas(cw, ch, x0, x1, y0, y1)
	if r.Acc3D > 0 {
		kernelBoundary(c, side)
	}
	for k, p := range pts {
		g := kernelInner
		if r.Labels[k] == 1 {
			g = kernelOuter
		}
		c.Point(p[0], p[1], g)
	}
	out := []string{PadRight(" "+title, w)}
	for _, l := range c.Lines(xl) {
		out = append(out, PadRight(l, w))
	}
	return out
}

// kernelBoundary marks the cells where side changes sign: a separator
// drawn the same way whatever its shape.
func kernelBoundary(c *Canvas, side func(a, b float64) float64) {
	for row := 0; row < c.H; row++ {
		for col := 0; col < c.W; col++ {
			a, b := c.At(col, row)
			s := side(a, b)
			for _, d := range [][2]int{{1, 0}, {0, 1}} {
				if col+d[0] >= c.W || row+d[1] >= c.H {
					continue
				}
				a2, b2 := c.At(col+d[0], row+d[1])
				if (s > 0) != (side(a2, b2) > 0) {
					c.Set(col, row, kernelPlane)
				}
			}
		}
	}
}

func kernelBounds(pts [][2]float64) (x0, x1, y0, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, x1 = math.Min(x0, p[0]), math.Max(x1, p[0])
		y0, y1 = math.Min(y0, p[1]), math.Max(y1, p[1])
	}
	padX, padY := 0.05*(x1-x0), 0.05*(y1-y0)
	return x0 - padX, x1 + padX, y0 - padY, y1 + padY
}

// kernelTurning draws the lifted points turned about the third axis by a
// frame's angle and tilted, with the plane as a grid of dots.
func kernelTurning(r *lecture.KernelResult, w, h, frame int) []string {
	var lo, hi [3]float64
	for k := range 3 {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	for _, z := range r.Lifted {
		for k := range 3 {
			lo[k], hi[k] = math.Min(lo[k], z[k]), math.Max(hi[k], z[k])
		}
	}
	unit := func(z [3]float64) [3]float64 { // each coordinate to [-1, 1]
		var u [3]float64
		for k := range 3 {
			u[k] = 2*(z[k]-lo[k])/math.Max(hi[k]-lo[k], 1e-300) - 1
		}
		return u
	}
	theta := 2 * math.Pi * float64((frame%kernelTurns+kernelTurns)%kernelTurns) / kernelTurns
	tilt := 25 * math.Pi / 180
	project := func(u [3]float64) (float64, float64) {
		a := u[0]*math.Cos(theta) - u[1]*math.Sin(theta)
		depth := u[0]*math.Sin(theta) + u[1]*math.Cos(theta)
		return a, u[2]*math.Cos(tilt) - depth*math.Sin(tilt)
	}
	c := NewCanvas(max(w, 4), max(h-1, 2), -1.5, 1.5, -1.6, 1.6)
	if r.Acc3D > 0 {
		// The plane within the box: solved for its steepest coordinate.
		k := 0
		for j := 1; j < 3; j++ {
			if math.Abs(r.Plane.W[j]) > math.Abs(r.Plane.W[k]) {
				k = j
			}
		}
		a, b := (k+1)%3, (k+2)%3
		const steps = 24
		for p := 0; p <= steps; p++ {
			for q := 0; q <= steps; q++ {
				var z [3]float64
				z[a] = lo[a] + (hi[a]-lo[a])*float64(p)/steps
				z[b] = lo[b] + (hi[b]-lo[b])*float64(q)/steps
				z[k] = -(r.Plane.W[a]*z[a] + r.Plane.W[b]*z[b] + r.Plane.B) / r.Plane.W[k]
				if z[k] < lo[k] || z[k] > hi[k] {
					continue
				}
				c.Point(tilted(project, unit(z)))
			}
		}
	}
	for k, z := range r.Lifted {
		g := kernelInner
		if r.Labels[k] == 1 {
			g = kernelOuter
		}
		x, y := project(unit(z))
		c.Point(x, y, g)
	}
	out := []string{PadRight(fmt.Sprintf(" lifted: (%s), turned %d°", strings.Join(r.Coords[:], ", "), 360*((frame%kernelTurns+kernelTurns)%kernelTurns)/kernelTurns), w)}
	for row := 0; row < c.H; row++ {
		var b strings.Builder
		for col := 0; col < c.W; col++ {
			b.WriteRune(c.Get(col, row))
		}
		out = append(out, b.String())
	}
	return out
}

// tilted is project's point with the plane's glyph, for Canvas.Point.
func tilted(project func([3]float64) (float64, float64), u [3]float64) (float64, float64, rune) {
	x, y := project(u)
	return x, y, kernelPlane
}

func kernelTables(result any) []Table {
	r := kernelResult(result)
	if r == nil || r.Acc3D == 0 {
		return nil
	}
	t := Table{Columns: []string{"separator", "in", "training accuracy", "equation"}}
	t.Rows = append(t.Rows,
		[]string{"line", "x-space", pct(r.Acc2D), fmt.Sprintf("%s·x1 %s·x2 %s = 0", sig(r.Line.W[0]), signed(r.Line.W[1]), signed(r.Line.B))},
		[]string{"plane", "lifted space", pct(r.Acc3D), fmt.Sprintf("%s·z1 %s·z2 %s·z3 %s = 0", sig(r.Plane.W[0]), signed(r.Plane.W[1]), signed(r.Plane.W[2]), signed(r.Plane.B))})
	out := []Table{t}
	if c := r.Circle; c != nil {
		ct := Table{Columns: []string{"the plane in x-space", "value"}}
		if r.Map == "parabolic" && c.Radius > 0 {
			ct.Rows = append(ct.Rows, []string{"circle: centre", fmt.Sprintf("(%s, %s)", sig(c.Center[0]), sig(c.Center[1]))},
				[]string{"circle: radius", sig(c.Radius)})
		} else {
			ct.Rows = append(ct.Rows, []string{"conic", fmt.Sprintf("%s·x1² %s·x1x2 %s·x2² %s·x1 %s·x2 %s = 0",
				sig(c.A), signed(c.B), signed(c.C), signed(c.D), signed(c.E), signed(c.F))})
		}
		out = append(out, ct)
	}
	return out
}

func sig(x float64) string { return numfmt.Sig(x, 4) }

func signed(x float64) string {
	if x < 0 {
		return "− " + sig(-x)
	}
	return "+ " + sig(x)
}

package widgets

import (
	"math"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// BenchmarkLineChartView draws a chart filling a 200x60 screen with 1,000
// steps of three series in true colour. Target: well under 2 ms per View
// (the UI redraws at up to 60 fps while training).
func BenchmarkLineChartView(b *testing.B) {
	c := NewLineChart("training", "iteration", stylesFor("dark", colorprofile.TrueColor))
	ys := make([][]float64, 3)
	for s := range ys {
		ys[s] = make([]float64, 1000)
		for i := range ys[s] {
			ys[s][i] = math.Exp(-float64(i)/200)*float64(1+s) + 0.05*math.Sin(float64(i*(s+1)))
		}
	}
	c.SetSeries([]string{"train loss", "val loss", "val error"}, ys)
	c.SetSize(200, 60)
	b.ReportAllocs()
	for b.Loop() {
		_ = c.View()
	}
}

// BenchmarkConfusionView draws the digits matrix at 80x20 in true colour.
func BenchmarkConfusionView(b *testing.B) {
	_, sum := irisConfusion()
	c := NewConfusion(digitsConfusion(), nil, sum, stylesFor("dark", colorprofile.TrueColor))
	c.SetSize(80, 20)
	b.ReportAllocs()
	for b.Loop() {
		_ = c.View()
	}
}

// BenchmarkScatterView draws 1,000 points over decision regions at 200x60.
func BenchmarkScatterView(b *testing.B) {
	s := NewScatter(stylesFor("dark", colorprofile.TrueColor))
	xs, ys, cls := make([]float64, 1000), make([]float64, 1000), make([]int, 1000)
	for i := range xs {
		a := float64(i) * 0.1
		xs[i], ys[i], cls[i] = math.Cos(a)*float64(i%17), math.Sin(a)*float64(i%13), i%3
	}
	s.SetPoints(xs, ys, cls)
	s.SetSize(200, 60)
	s.SetRegions(moonsRegions(s.Bounds()))
	b.ReportAllocs()
	for b.Loop() {
		_ = s.View()
	}
}

// A scatter matrix of 2,000 rows (the data screen's sample) over 30
// columns: the first frame draws the cells in view, the next only moves
// the cursor over the cells kept.
func BenchmarkScatterMatrix(b *testing.B) {
	names, cols, class := matrixData(30, 2000)
	m := NewScatterMatrix(asciiStyles())
	m.SetSize(79, 33)
	b.Run("first frame", func(b *testing.B) {
		for range b.N {
			m.SetData(names, cols, class, []string{"a", "b"})
			_ = m.View()
		}
	})
	b.Run("cursor move", func(b *testing.B) {
		m.SetData(names, cols, class, []string{"a", "b"})
		for i := range b.N {
			m.SetCursor(i%3, i%4)
			_ = m.View()
		}
	})
}

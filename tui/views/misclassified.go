package views

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

func init() {
	Register(Spec{Name: "Mistakes", Order: 480,
		Needs: func(r *kit.RunRecord) bool {
			return r.Result != nil && r.Task() == datasets.Classification && kit.ImageSide(r.Dataset) > 0 &&
				len(Misclassified(r)) > 0
		},
		Make: func(env Env, r *kit.RunRecord) View {
			return &mistakesView{c: env.C, r: r, rows: Misclassified(r), side: kit.ImageSide(r.Dataset),
				prev: kit.Bind("[", "previous page", "["), next: kit.Bind("]", "next page", "]")}
		}})
}

// mistake is a held-out row the model got wrong.
type mistake struct {
	Row             int
	Actual, Guessed int
}

// Misclassified lists the held-out rows of run r whose prediction is
// wrong, those of a supplied test set left out (their pixels are not in the
// run's data).
func Misclassified(r *kit.RunRecord) []mistake {
	res, d := r.Result, r.Dataset
	if len(res.TestRows) != len(res.Actual) || len(res.Predicted) != len(res.Actual) {
		return nil
	}
	var out []mistake
	for i, row := range res.TestRows {
		if res.Actual[i] != res.Predicted[i] && row < d.Rows() {
			out = append(out, mistake{Row: row, Actual: int(res.Actual[i]), Guessed: int(res.Predicted[i])})
		}
	}
	return out
}

// mistakesView draws the misclassified held-out images in a grid, each
// with its true and predicted class, a page at a time.
type mistakesView struct {
	c          *kit.Common
	r          *kit.RunRecord
	rows       []mistake
	side       int
	page       int
	prev, next key.Binding
	w, h       int
}

func (v *mistakesView) SetSize(w, h int)    { v.w, v.h = w, h }
func (v *mistakesView) Keys() []key.Binding { return []key.Binding{v.prev, v.next} }

func (v *mistakesView) Update(msg tea.Msg) tea.Cmd {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		pages := v.pages()
		switch {
		case key.Matches(km, v.prev):
			v.page = max(v.page-1, 0)
		case key.Matches(km, v.next):
			v.page = min(v.page+1, pages-1)
		}
	}
	return nil
}

// cell is the size of one image with its label: two characters a pixel
// across (a terminal cell is twice as tall as wide), or one character for
// two pixel rows in half blocks when rows are short (compact).
func (v *mistakesView) cell() (w, h int, compact bool) {
	w = max(2*v.side, 14) + 2
	if full := v.side + 1; (v.h-2)/full >= 2 {
		return w, full, false
	}
	return max(v.side, 14) + 2, (v.side+1)/2 + 1, true
}

// perPage is how many images a page holds.
func (v *mistakesView) perPage() (cols, rows int) {
	cw, ch, _ := v.cell()
	return max(v.w/cw, 1), max((v.h-2)/ch, 1)
}

func (v *mistakesView) pages() int {
	c, r := v.perPage()
	return (len(v.rows) + c*r - 1) / (c * r)
}

func (v *mistakesView) View() string {
	st := v.c.Styles
	cols, rows := v.perPage()
	n := cols * rows
	v.page = min(v.page, max(v.pages()-1, 0))
	lo, hi := imageRange(v.r.Dataset)
	title := fmt.Sprintf(" %d of %d held-out rows misclassified (true→predicted) · page %d of %d",
		len(v.rows), len(v.r.Result.Actual), v.page+1, v.pages())
	lines := []string{st.Title.Render(kit.Clip(title, v.w)), ""}
	_, _, compact := v.cell()
	page := v.rows[v.page*n : min((v.page+1)*n, len(v.rows))]
	for at := 0; at < len(page); at += cols {
		var imgs []string
		for _, m := range page[at:min(at+cols, len(page))] {
			imgs = append(imgs, v.image(m, lo, hi, compact))
		}
		lines = append(lines, lipgloss.JoinHorizontal(lipgloss.Top, imgs...))
	}
	return kit.Fit(strings.Join(lines, "\n"), v.w, v.h)
}

// imageRange is the lowest and highest value of the dataset's pixels, the
// ends of the shading.
func imageRange(d *datasets.Dataset) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range d.X.RawMatrix().Data {
		if !math.IsNaN(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	return lo, hi
}

// image draws one row as a picture with "true → predicted" under it.
func (v *mistakesView) image(m mistake, lo, hi float64, compact bool) string {
	d, s := v.r.Dataset, v.side
	cw, _, _ := v.cell()
	px := func(r, c int) float64 {
		x := d.X.At(m.Row, r*s+c)
		if hi <= lo || math.IsNaN(x) {
			return 0
		}
		return (x - lo) / (hi - lo)
	}
	var b strings.Builder
	for r := 0; r < s; r++ {
		b.WriteString(" ")
		if compact {
			for c := range s {
				b.WriteString(halfBlock(px(r, c) >= 0.5, r+1 < s && px(r+1, c) >= 0.5))
			}
			r++
		} else {
			for c := range s {
				sh := numfmt.Shade(px(r, c))
				if px(r, c) < 1/8.0 {
					sh = " "
				}
				b.WriteString(sh + sh)
			}
		}
		b.WriteString("\n")
	}
	label := fmt.Sprintf("%s→%s", className(d, m.Actual), className(d, m.Guessed))
	b.WriteString(" " + v.c.Styles.Bad.Render(kit.Clip(label, cw-2)))
	return lipgloss.NewStyle().Width(cw).Render(b.String())
}

// halfBlock is the character for two pixels one above the other.
func halfBlock(top, bottom bool) string {
	switch {
	case top && bottom:
		return "█"
	case top:
		return "▀"
	case bottom:
		return "▄"
	}
	return " "
}

// className names class code k of d.
func className(d *datasets.Dataset, k int) string {
	if k >= 0 && k < len(d.Classes) {
		return d.Classes[k]
	}
	return fmt.Sprint(k)
}

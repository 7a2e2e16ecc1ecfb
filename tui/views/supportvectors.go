package views

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/inspect"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

func init() {
	Register(Spec{Name: "Support vectors", Order: engine.CapSupportVectors.Order, Needs: HasLearned(engine.CapSupportVectors.Name),
		Make: func(env Env, r *kit.RunRecord) View {
			sv, _ := eval.LearnedAs[*engine.SupportVectors](r.Result, engine.CapSupportVectors.Name)
			v := &supportView{c: env.C, r: r, sv: sv,
				up: kit.Bind("↑", "scroll", "up", "k"), down: kit.Bind("↓", "scroll", "down", "j"),
				pgUp: kit.Bind("pgup", "page up", "pgup"), pgDown: kit.Bind("pgdn", "page down", "pgdown"),
				sortKey: kit.Bind("s", "sort by |α|/row", "s")}
			v.setOrder(false)
			return v
		}})
}

// supportView is a kernel machine's support vectors: how many, by class
// and at the bound C, its kernel, and a table of the vectors (row, class,
// coefficients y·α, at the bound, the first features), in the order of
// the rows or the heaviest first.
type supportView struct {
	c        *kit.Common
	r        *kit.RunRecord
	sv       *engine.SupportVectors
	order    []int // the vectors in the table's order
	byWeight bool
	off      int  // first row of the table shown
	scrolls  bool // the table has more vectors than it shows (as last drawn)

	up, down, pgUp, pgDown, sortKey key.Binding
	w, h                            int
}

// setOrder lists the vectors by row, or the heaviest first.
func (v *supportView) setOrder(byWeight bool) {
	v.byWeight, v.off = byWeight, 0
	if byWeight {
		v.order = inspect.ByWeight(v.sv)
		return
	}
	v.order = make([]int, len(v.sv.Rows))
	for i := range v.order {
		v.order[i] = i
	}
}

func (v *supportView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	page := max(v.bodyRows(), 1)
	switch {
	case key.Matches(km, v.sortKey):
		v.setOrder(!v.byWeight)
	case key.Matches(km, v.up):
		v.off--
	case key.Matches(km, v.down):
		v.off++
	case key.Matches(km, v.pgUp):
		v.off -= page
	case key.Matches(km, v.pgDown):
		v.off += page
	}
	v.off = min(max(v.off, 0), max(len(v.order)-page, 0))
	return nil
}

func (v *supportView) SetSize(w, h int) { v.w, v.h = w, h }

func (v *supportView) Keys() []key.Binding {
	ks := []key.Binding{v.sortKey}
	if v.scrolls {
		ks = append([]key.Binding{v.up, v.down, v.pgUp, v.pgDown}, ks...)
	}
	return ks
}

// supportHead is the lines above the table: the title, the counts and
// the table's header.
const supportHead = 4

// bodyRows is how many vectors the table shows, under its head and over
// its footer.
func (v *supportView) bodyRows() int { return v.h - supportHead - 1 }

func (v *supportView) View() string {
	st := v.c.Styles
	sv := v.sv
	perClass, atBound := inspect.SupportCounts(sv, v.r.Dataset.Classes)
	// The shown model's vectors: the Map counts those of its own model,
	// refit on two features and every row, which differ.
	title := fmt.Sprintf(" %s of the shown model · kernel k(a,b) = %s", numfmt.Count(len(sv.Rows), "support vector"), sv.Kernel)
	if res := v.r.Result; res != nil && res.FittedOn != "" {
		title += " · fitted on " + res.FittedOn
		if _, known := inspect.DataRow(res, 0); !known {
			title += " (row: its number among them)"
		}
	}
	var counts []string
	for _, c := range perClass {
		counts = append(counts, fmt.Sprintf("%d of class %s", c.N, c.Class))
	}
	counts = append(counts, fmt.Sprintf("%d at the bound α = C (margin errors)", atBound))
	lines := []string{st.Title.Render(kit.Clip(title, v.w)), st.Text.Render(kit.Clip(" "+strings.Join(counts, " · "), v.w))}
	cols := v.columns()
	lines = append(lines, st.Muted.Render(kit.Clip(" y·α: dual coefficient signed by the class · features as the model saw them (prepared)", v.w)),
		st.Header.Render(kit.Clip(v.rowText(cols, -1), v.w)))
	body := max(v.bodyRows(), 1)
	v.off = min(v.off, max(len(v.order)-body, 0))
	v.scrolls = len(v.order) > body
	for _, i := range v.order[v.off:min(v.off+body, len(v.order))] {
		style := st.Text
		if i < len(sv.AtBound) && sv.AtBound[i] {
			style = st.Muted
		}
		lines = append(lines, style.Render(kit.Clip(v.rowText(cols, i), v.w)))
	}
	order := "order: by row (s: heaviest |α| first)"
	if v.byWeight {
		order = "order: heaviest |α| first (s: by row)"
	}
	foot := order
	if v.scrolls {
		foot = fmt.Sprintf("vectors %d-%d of %d (↑/↓, pgup/pgdn) · %s", v.off+1, min(v.off+body, len(v.order)), len(v.order), order)
	}
	lines = append(lines, st.Muted.Render(kit.Clip(" "+foot, v.w)))
	return kit.Fit(strings.Join(lines, "\n"), v.w, v.h)
}

// supportColumns are the widths of the table's columns: the row, the
// class, each coefficient, the bound, and the features that fit.
type supportColumns struct {
	row, class, coefs, features int
}

// supportCell is the width of a number cell.
const supportCell = 10

func (v *supportView) columns() supportColumns {
	sv := v.sv
	c := supportColumns{row: len("row") + 1, class: len("class")}
	for i, r := range sv.Rows {
		n, _ := inspect.DataRow(v.r.Result, r)
		c.row = max(c.row, len(fmt.Sprint(n))+1)
		if i < len(sv.Class) {
			c.class = max(c.class, min(ansi.StringWidth(sv.Class[i]), 14))
		}
	}
	if len(sv.Class) == 0 {
		c.class = 0
	}
	for _, co := range sv.Coef {
		c.coefs = max(c.coefs, len(co))
	}
	used := c.row + c.class + 2 + c.coefs*supportCell + 6
	c.features = min(max((v.w-used)/supportCell, 0), len(sv.Features))
	return c
}

// rowText is vector i as a line of the table; i < 0 is the header.
func (v *supportView) rowText(c supportColumns, i int) string {
	sv := v.sv
	cell := func(s string) string { return padCell(kit.Clip(s, supportCell-1), supportCell) }
	var b strings.Builder
	if i < 0 {
		b.WriteString(fmt.Sprintf(" %*s ", c.row, "row"))
		if c.class > 0 {
			b.WriteString(kit.FitWidth("class", c.class) + " ")
		}
		for k := range c.coefs {
			name := "y·α"
			if c.coefs > 1 {
				name = fmt.Sprintf("y·α %d", k+1)
			}
			b.WriteString(cell(name))
		}
		b.WriteString(" at C ")
		for _, f := range sv.Features[:c.features] {
			b.WriteString(cell(f))
		}
		return b.String()
	}
	n, _ := inspect.DataRow(v.r.Result, sv.Rows[i])
	b.WriteString(fmt.Sprintf(" %*d ", c.row, n))
	if c.class > 0 {
		name := ""
		if i < len(sv.Class) {
			name = sv.Class[i]
		}
		b.WriteString(kit.FitWidth(kit.Clip(name, c.class), c.class) + " ")
	}
	for k := range c.coefs {
		s := ""
		if i < len(sv.Coef) && k < len(sv.Coef[i]) {
			s = signed(numfmt.Sig(sv.Coef[i][k], 4))
		}
		b.WriteString(cell(s))
	}
	bound := "      "
	if i < len(sv.AtBound) && sv.AtBound[i] {
		bound = "  yes "
	}
	b.WriteString(bound)
	if i < len(sv.X) {
		for j := range c.features {
			s := ""
			if j < len(sv.X[i]) {
				s = numfmt.Sig(sv.X[i][j], 3)
			}
			b.WriteString(cell(s))
		}
	}
	return b.String()
}

package widgets

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/themes"
)

// ConfusionKeyMap are the keys of a Confusion view.
type ConfusionKeyMap struct {
	Toggle key.Binding // counts <-> row-normalised percentages
	Up     key.Binding
	Down   key.Binding
	Left   key.Binding
	Right  key.Binding
}

// DefaultConfusionKeyMap returns the default Confusion keys. Horizontal
// scrolling avoids plain left/right, which tab bars use.
func DefaultConfusionKeyMap() ConfusionKeyMap {
	return ConfusionKeyMap{
		Toggle: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "counts/row %")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		Left:   key.NewBinding(key.WithKeys("h", "shift+left"), key.WithHelp("h", "scroll left")),
		Right:  key.NewBinding(key.WithKeys("l", "shift+right"), key.WithHelp("l", "scroll right")),
	}
}

// ShortHelp implements help.KeyMap.
func (k ConfusionKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Toggle, k.Up, k.Down, k.Left, k.Right}
}

// FullHelp implements help.KeyMap.
func (k ConfusionKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Toggle}, {k.Up, k.Down, k.Left, k.Right}}
}

// Confusion shows a confusion matrix: actual classes as rows, predicted as
// columns, counts or row-normalised percentages (key n), cells shaded on the
// theme's heat scale by their share of the row, the diagonal in the "good"
// colour and errors in the "bad" one (without colour: errors are prefixed
// with ×, zeros are ·). Recall and F1 end each row, precision each column,
// and a summary line lists the overall metrics. It scrolls in both
// directions when the classes do not fit (ten classes fit 80 columns).
type Confusion struct {
	KeyMap ConfusionKeyMap

	st             *themes.Styles
	labels         []string
	m              [][]int
	prec, rec, f1  []float64
	summary        map[string]float64
	normalized     bool
	rowOff, colOff int
	w, h           int
}

// NewConfusion builds the view. report gives per-class precision, recall
// and F1 (matched to conf.Labels by class name; classes missing from it are
// computed from the matrix). summary holds overall metrics by their JSON
// names (accuracy, baseline_accuracy, macro_f1, kappa, mcc, log_loss, ...).
// A ragged or negative matrix is repaired (missing cells are 0).
func NewConfusion(conf metrics.Confusion, report []metrics.ClassReport, summary map[string]float64, st *themes.Styles) Confusion {
	c := Confusion{KeyMap: DefaultConfusionKeyMap(), st: defaultStyles(st)}
	c.SetData(conf, report, summary)
	return c
}

// SetData replaces the matrix, report and summary.
func (c *Confusion) SetData(conf metrics.Confusion, report []metrics.ClassReport, summary map[string]float64) {
	k := len(conf.Labels)
	if k == 0 {
		k = len(conf.Matrix)
	}
	c.labels = make([]string, k)
	for i := range c.labels {
		if i < len(conf.Labels) && conf.Labels[i] != "" {
			c.labels[i] = oneLine(conf.Labels[i])
		} else {
			c.labels[i] = strconv.Itoa(i)
		}
	}
	c.m = make([][]int, k)
	for i := range c.m {
		c.m[i] = make([]int, k)
		if i < len(conf.Matrix) {
			for j := 0; j < k && j < len(conf.Matrix[i]); j++ {
				c.m[i][j] = max(conf.Matrix[i][j], 0)
			}
		}
	}
	byName := make(map[string]metrics.ClassReport, len(report))
	for _, r := range report {
		byName[oneLine(r.Class)] = r
	}
	c.prec, c.rec, c.f1 = make([]float64, k), make([]float64, k), make([]float64, k)
	for i := range k {
		if r, ok := byName[c.labels[i]]; ok {
			c.prec[i], c.rec[i], c.f1[i] = r.Precision, r.Recall, r.F1
			continue
		}
		var row, col int
		for j := range k {
			row += c.m[i][j]
			col += c.m[j][i]
		}
		tp := float64(c.m[i][i])
		c.prec[i], c.rec[i] = tp/float64(col), tp/float64(row) // NaN when 0/0
		c.f1[i] = 2 * c.prec[i] * c.rec[i] / (c.prec[i] + c.rec[i])
		if c.prec[i]+c.rec[i] == 0 {
			c.f1[i] = 0
		}
	}
	c.summary = make(map[string]float64, len(summary))
	for k, v := range summary {
		c.summary[oneLine(k)] = v
	}
	c.rowOff, c.colOff = 0, 0
	c.clampScroll()
}

// SetNormalized chooses row-normalised percentages (true) or counts.
func (c *Confusion) SetNormalized(on bool) { c.normalized = on }

// Normalized reports whether cells show row percentages.
func (c Confusion) Normalized() bool { return c.normalized }

// SetSize sets the size of the view.
func (c *Confusion) SetSize(w, h int) {
	c.w, c.h = w, h
	c.clampScroll()
}

// Update handles toggling and scrolling.
func (c Confusion) Update(msg tea.Msg) (Confusion, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil
	}
	switch {
	case key.Matches(k, c.KeyMap.Toggle):
		c.normalized = !c.normalized
	case key.Matches(k, c.KeyMap.Up):
		c.rowOff--
	case key.Matches(k, c.KeyMap.Down):
		c.rowOff++
	case key.Matches(k, c.KeyMap.Left):
		c.colOff--
	case key.Matches(k, c.KeyMap.Right):
		c.colOff++
	}
	c.clampScroll()
	return c, nil
}

// confLayout is where everything goes at the current size.
type confLayout struct {
	prefix   int  // "actual " before the row labels (0 or 7)
	labelW   int  // row label width
	cellW    int  // width of one column, separator included
	numW     int  // width of a cell's content
	cols     int  // visible columns
	right    bool // recall/F1 block shown
	rows     int  // visible rows
	title    bool
	sep      bool
	prec     bool
	summary  []string
	scrollsV bool
	scrollsH bool
}

const confRight = 15 // " │ " + recall(6) + F1(6)

func (c Confusion) layout() confLayout {
	c.st = defaultStyles(c.st)
	k := len(c.labels)
	var L confLayout
	maxCount := 0
	for _, row := range c.m {
		for _, v := range row {
			maxCount = max(maxCount, v)
		}
	}
	// Room for "100%" and, without colour, the × error marker.
	mark := 0
	if c.st.Colorless {
		mark = 1
	}
	L.numW = max(len(strconv.Itoa(maxCount))+mark, 4)
	if c.normalized {
		L.numW = 4 + mark
	}
	maxLabel := 1
	for _, l := range c.labels {
		maxLabel = max(maxLabel, lipgloss.Width(l))
	}
	// Try the most generous layout first, then give up comfort in order.
	type try struct{ prefix, labelW, cellW int }
	tries := []try{
		{7, min(maxLabel, 14), max(L.numW, min(maxLabel, 10)) + 2},
		{7, min(maxLabel, 12), L.numW + 2},
		{7, min(maxLabel, 10), L.numW + 1},
		{0, max(min(maxLabel, 8), 5), L.numW + 1},
	}
	L.right = true
	fits := func(t try, right bool) int {
		avail := c.w - t.prefix - t.labelW
		if right {
			avail -= confRight
		}
		return avail / t.cellW
	}
	chosen := tries[len(tries)-1]
	done := false
	for _, right := range []bool{true, false} {
		for _, t := range tries {
			if fits(t, right) >= k {
				chosen, L.right, done = t, right, true
				break
			}
		}
		if done {
			break
		}
	}
	if !done {
		// Scroll columns; keep recall/F1 if at least 3 columns still show.
		L.right = fits(chosen, true) >= min(3, k)
	}
	L.prefix, L.labelW, L.cellW = chosen.prefix, max(chosen.labelW, 5-chosen.prefix), chosen.cellW
	L.cols = max(min(fits(chosen, L.right), k), 1)
	L.scrollsH = L.cols < k

	L.summary = c.summaryLines(c.w)
	// Vertical: header and rows first, then precision, separator, title,
	// summary, as height allows.
	avail := c.h - 1 // header
	L.prec, L.sep, L.title = true, true, true
	need := func() int {
		n := len(L.summary)
		for _, b := range []bool{L.prec, L.sep, L.title} {
			if b {
				n++
			}
		}
		return n
	}
	// Give up optional lines, least useful first, until at least three rows
	// (or all of them) show; the rest scroll.
	want := min(k, 3)
	for avail-need() < want {
		switch {
		case L.title:
			L.title = false
		case L.sep:
			L.sep = false
		case len(L.summary) > 1:
			L.summary = L.summary[:len(L.summary)-1]
		case L.prec:
			L.prec = false
		case len(L.summary) == 1:
			L.summary = nil
		}
		if need() == 0 {
			break
		}
	}
	L.rows = max(min(avail-need(), k), 0)
	L.scrollsV = L.rows < k
	return L
}

func (c *Confusion) clampScroll() {
	if c.w <= 0 || c.h <= 0 {
		return
	}
	L := c.layout()
	k := len(c.labels)
	c.rowOff = max(min(c.rowOff, k-L.rows), 0)
	c.colOff = max(min(c.colOff, k-L.cols), 0)
	c.KeyMap.Up.SetEnabled(L.scrollsV)
	c.KeyMap.Down.SetEnabled(L.scrollsV)
	c.KeyMap.Left.SetEnabled(L.scrollsH)
	c.KeyMap.Right.SetEnabled(L.scrollsH)
}

// summaryNames are the display names and order of known summary metrics.
var summaryNames = []struct{ key, name string }{
	{"accuracy", "accuracy"},
	{"balanced_accuracy", "balanced acc."},
	{"macro_f1", "macro F1"},
	{"weighted_f1", "weighted F1"},
	{"kappa", "kappa"},
	{"mcc", "MCC"},
	{"log_loss", "log-loss"},
	{"auc", "AUC"},
	{"roc_auc", "AUC"},
}

// baselineKeys name the baseline accuracy in a summary, first found wins.
var baselineKeys = []string{"baseline_accuracy", "accuracy_baseline", "baseline"}

// summaryLines lays the summary items out in lines of at most w cells,
// joined by " · ".
func (c Confusion) summaryLines(w int) []string {
	if len(c.summary) == 0 || w <= 0 {
		return nil
	}
	var items []string
	used := map[string]bool{}
	base, hasBase := math.NaN(), false
	for _, k := range baselineKeys {
		if v, ok := c.summary[k]; ok {
			if !hasBase {
				base, hasBase = v, true
			}
			used[k] = true
		}
	}
	for _, sn := range summaryNames {
		v, ok := c.summary[sn.key]
		if !ok || used[sn.key] {
			continue
		}
		used[sn.key] = true
		item := sn.name + " " + fmtFixed(v, 3)
		if sn.key == "accuracy" && hasBase {
			item += " (baseline " + fmtFixed(base, 3) + ")"
		}
		items = append(items, item)
	}
	var rest []string
	for k := range c.summary {
		if !used[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		items = append(items, strings.ReplaceAll(k, "_", " ")+" "+fmtFixed(c.summary[k], 3))
	}
	var lines []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case lipgloss.Width(cur)+3+lipgloss.Width(it) <= w:
			cur += " · " + it
		default:
			lines = append(lines, cur)
			cur = it
		}
	}
	return append(lines, cur)
}

// cellText is what a cell shows, without marker.
func (c Confusion) cellText(i, j, rowTotal int) string {
	v := c.m[i][j]
	if v == 0 {
		return "·"
	}
	if !c.normalized {
		return strconv.Itoa(v)
	}
	p := 100 * float64(v) / float64(rowTotal)
	if p < 0.5 {
		return "<1%"
	}
	return strconv.Itoa(int(math.Round(p))) + "%"
}

func fmtRate(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return fmtFixed(v, 2)
}

// View renders the matrix in exactly the size set.
func (c Confusion) View() string {
	if c.w <= 0 || c.h <= 0 {
		return ""
	}
	c.st = defaultStyles(c.st) // a zero-value widget still renders
	st := c.st
	k := len(c.labels)
	if k == 0 {
		return fitBlock(placeholder(st, "no confusion matrix", c.w, c.h), c.w, c.h)
	}
	L := c.layout()
	lead := L.prefix + L.labelW // row label area
	c0, c1 := c.colOff, min(c.colOff+L.cols, k)
	r0, r1 := c.rowOff, min(c.rowOff+L.rows, k)
	gridW := (c1 - c0) * L.cellW
	var lines []string
	header, border, text, muted := newPaint(st.Header), newPaint(st.Border), newPaint(st.Text), newPaint(st.Muted)

	if L.title {
		mode := "counts"
		if c.normalized {
			mode = "row %"
		}
		var where []string
		if L.scrollsV {
			where = append(where, fmt.Sprintf("rows %d-%d/%d", r0+1, r1, k))
		}
		if L.scrollsH {
			where = append(where, fmt.Sprintf("cols %d-%d/%d", c0+1, c1, k))
		}
		hint := mode + " (n)"
		if len(where) > 0 {
			hint = strings.Join(where, " ") + " · " + hint
		}
		t := strings.Repeat(" ", lead) + muted.render(center("predicted", gridW))
		tableW := lead + gridW
		if L.right {
			tableW += confRight
		}
		pad := tableW - lead - gridW - lipgloss.Width(hint)
		if pad < 2 {
			pad = c.w - lead - gridW - lipgloss.Width(hint)
		}
		if pad >= 2 {
			t += strings.Repeat(" ", pad) + muted.render(hint)
		}
		lines = append(lines, t)
	}

	// Header: column labels.
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", lead))
	for j := c0; j < c1; j++ {
		b.WriteByte(' ')
		b.WriteString(header.render(padLeft(c.labels[j], L.cellW-1)))
	}
	if L.right {
		b.WriteString(border.render(" │ "))
		b.WriteString(header.render(padLeft("recall", 6) + padLeft("F1", 6)))
	}
	lines = append(lines, b.String())

	// Cell paints: foreground by role (zero, correct, error), background
	// by share of the row on the heat scale.
	levels := max(len(st.Heat), 1)
	if st.Colorless {
		levels = 1
	}
	cellPaint := make([][3]paint, levels)
	for l := range cellPaint {
		bg := lipgloss.NewStyle()
		if !st.Colorless && len(st.Heat) > 0 {
			bg = st.Heat[l]
		}
		for role, fg := range []lipgloss.Style{st.Subtle, st.Good.Bold(true), st.Bad} {
			cellPaint[l][role] = newPaint(bg.Inherit(fg))
		}
	}
	for i := r0; i < r1; i++ {
		b.Reset()
		if L.prefix > 0 {
			if i == r0 {
				b.WriteString(muted.render(padRight("actual", L.prefix)))
			} else {
				b.WriteString(strings.Repeat(" ", L.prefix))
			}
		}
		b.WriteString(header.render(padRight(c.labels[i], L.labelW)))
		total := 0
		for _, v := range c.m[i] {
			total += v
		}
		for j := c0; j < c1; j++ {
			v := c.m[i][j]
			text := c.cellText(i, j, total)
			role := 0
			switch {
			case v > 0 && i == j:
				role = 1
			case v > 0:
				role = 2
				if st.Colorless {
					text = "×" + text
				}
			}
			frac := 0.0
			if total > 0 {
				frac = float64(v) / float64(total)
			}
			p := cellPaint[themes.HeatIndex(frac, levels)][role]
			b.WriteString(p.render(" " + padLeft(text, L.cellW-1)))
		}
		if L.right {
			b.WriteString(border.render(" │ "))
			b.WriteString(text.render(padLeft(fmtRate(c.rec[i]), 6) + padLeft(fmtRate(c.f1[i]), 6)))
		}
		lines = append(lines, b.String())
	}

	if L.sep {
		line := strings.Repeat("─", lead+gridW)
		if L.right {
			line += "─┤"
		}
		lines = append(lines, border.render(line))
	}
	if L.prec {
		b.Reset()
		name := "precision"
		if lead < len(name) {
			name = "prec."
		}
		b.WriteString(header.render(padRight(name, lead)))
		for j := c0; j < c1; j++ {
			b.WriteString(text.render(" " + padLeft(fmtRate(c.prec[j]), L.cellW-1)))
		}
		if L.right {
			b.WriteString(border.render(" │"))
		}
		lines = append(lines, b.String())
	}
	for _, s := range L.summary {
		lines = append(lines, text.render(s))
	}
	return fitBlock(lines, c.w, c.h)
}

package views

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
)

// The evaluation row by row, as --predictions writes it: each held-out row
// with its fold, what it is, what the model said and how sure it was.
func init() {
	Register(Spec{Name: "Predictions", Order: 470, // after what the model learned, before its pictures
		Needs: func(r *kit.RunRecord) bool {
			return r.Result != nil && r.Task().Supervised() && len(r.Result.Actual) > 0 && len(r.Result.Predicted) == len(r.Result.Actual)
		},
		Make: func(env Env, r *kit.RunRecord) View { return newPredictionsView(env.C.Styles, r) }})
}

// predictionsView lists the held-out rows: m shows the mistakes alone (a
// regression's worst errors first), s sorts by confidence.
type predictionsView struct {
	st       *themes.Styles
	r        *kit.RunRecord
	rows     []predRow
	shown    []int // indices into rows, in the order shown
	mistakes bool
	byConf   bool
	offset   int
	keys     struct{ mistakes, sort, up, down, pgUp, pgDown key.Binding }
	w, h     int
}

// predRow is one held-out row.
type predRow struct {
	name, fold, actual, predicted string
	wrong                         bool
	conf                          float64 // the probability of what was predicted; a regression's |error|; NaN unknown
}

func newPredictionsView(st *themes.Styles, r *kit.RunRecord) *predictionsView {
	v := &predictionsView{st: st, r: r}
	v.keys.mistakes = kit.Bind("m", "mistakes only", "m")
	v.keys.sort = kit.Bind("s", "sort by confidence", "s")
	v.keys.up = kit.Bind("↑", "scroll", "up", "k")
	v.keys.down = kit.Bind("↓", "scroll", "down", "j")
	v.keys.pgUp = kit.Bind("pgup", "page up", "pgup")
	v.keys.pgDown = kit.Bind("pgdn", "page down", "pgdown")
	res := r.Result
	classify := r.Task() == datasets.Classification
	for i, a := range res.Actual {
		p := res.Predicted[i]
		row := predRow{name: strconv.Itoa(i + 1), fold: "–", conf: math.NaN()}
		switch {
		case len(res.TestNames) > i && res.TestNames[i] != "":
			row.name = res.TestNames[i]
		case len(res.TestRows) > i:
			row.name = strconv.Itoa(res.TestRows[i] + 1)
		}
		if len(res.TestFolds) > i {
			row.fold = strconv.Itoa(res.TestFolds[i])
		}
		if classify {
			row.actual, row.predicted = labelOf(res.Confusion.Labels, a), labelOf(res.Confusion.Labels, p)
			row.wrong = a != p
			if res.Proba && res.Scores != nil {
				if _, c := res.Scores.Dims(); int(p) >= 0 && int(p) < c {
					row.conf = res.Scores.At(i, int(p))
				}
			}
		} else {
			row.actual, row.predicted = numfmt.Value(a), numfmt.Value(p)
			row.conf = math.Abs(p - a)
			row.wrong = true // every regression row has an error to sort by
		}
		v.rows = append(v.rows, row)
	}
	v.refresh()
	return v
}

// labelOf names class code of labels.
func labelOf(labels []string, code float64) string {
	if i := int(code); i >= 0 && i < len(labels) {
		return labels[i]
	}
	return numfmt.Value(code)
}

// classify says whether the rows are a classifier's.
func (v *predictionsView) classify() bool { return v.r.Task() == datasets.Classification }

// refresh chooses the rows shown and their order.
func (v *predictionsView) refresh() {
	v.shown = v.shown[:0]
	for i, r := range v.rows {
		if !v.mistakes || !v.classify() || r.wrong {
			v.shown = append(v.shown, i)
		}
	}
	if v.byConf || (v.mistakes && !v.classify()) {
		// The surest first: the confident mistakes are the ones to read;
		// a regression's largest errors. Unknown confidence last.
		slices.SortStableFunc(v.shown, func(a, b int) int {
			ca, cb := v.rows[a].conf, v.rows[b].conf
			switch {
			case math.IsNaN(ca) && math.IsNaN(cb):
				return 0
			case math.IsNaN(ca):
				return 1
			case math.IsNaN(cb):
				return -1
			case ca > cb:
				return -1
			case ca < cb:
				return 1
			}
			return 0
		})
	}
	v.offset = 0
	v.enableScroll()
}

// enableScroll offers the scroll keys when the rows do not fit.
func (v *predictionsView) enableScroll() {
	more := len(v.shown) > max(v.h-3, 1)
	for _, k := range []*key.Binding{&v.keys.up, &v.keys.down, &v.keys.pgUp, &v.keys.pgDown} {
		k.SetEnabled(more)
	}
}

func (v *predictionsView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	page := max(v.h-3, 1)
	switch {
	case key.Matches(km, v.keys.mistakes):
		v.mistakes = !v.mistakes
		v.refresh()
	case key.Matches(km, v.keys.sort):
		v.byConf = !v.byConf
		v.refresh()
	case key.Matches(km, v.keys.up):
		v.offset--
	case key.Matches(km, v.keys.down):
		v.offset++
	case key.Matches(km, v.keys.pgUp):
		v.offset -= page
	case key.Matches(km, v.keys.pgDown):
		v.offset += page
	}
	v.offset = min(max(v.offset, 0), max(len(v.shown)-page, 0))
	return nil
}

func (v *predictionsView) View() string {
	st := v.st
	confName := "p(predicted)"
	if !v.classify() {
		confName = "|error|"
	}
	nameW := 4
	for _, r := range v.rows {
		nameW = max(nameW, len([]rune(r.name)))
	}
	nameW = min(nameW, 24)
	valW := 10
	for _, r := range v.rows {
		valW = max(valW, len([]rune(r.actual)), len([]rune(r.predicted)))
	}
	valW = min(valW, 20)
	wrong := 0
	for _, r := range v.rows {
		if r.wrong {
			wrong++
		}
	}
	what := fmt.Sprintf("%s held out", numfmt.Count(len(v.rows), "row"))
	if v.classify() {
		what += fmt.Sprintf(", %d wrong", wrong)
		if v.mistakes {
			what += ": the mistakes"
		}
	}
	if v.byConf || (v.mistakes && !v.classify()) {
		what += ", the surest first"
	}
	head := fmt.Sprintf("%-*s %4s  %-*s %-*s %12s", nameW, "row", "fold", valW, "actual", valW, "predicted", confName)
	lines := []string{st.Muted.Render(kit.Clip(" "+what, v.w)), st.Header.Render(kit.Clip(" "+head, v.w))}
	page := max(v.h-3, 1)
	for _, i := range v.shown[v.offset:min(v.offset+page, len(v.shown))] {
		r := v.rows[i]
		conf := "–"
		if !math.IsNaN(r.conf) {
			conf = numfmt.Fixed(r.conf, 3)
		}
		line := fmt.Sprintf("%-*s %4s  %-*s %-*s %12s", nameW, kit.Clip(r.name, nameW), r.fold, valW, kit.Clip(r.actual, valW), valW, kit.Clip(r.predicted, valW), conf)
		sty := st.Text
		if r.wrong && v.classify() {
			sty = st.Bad
			line += "  ✗"
		}
		lines = append(lines, sty.Render(kit.Clip(" "+line, v.w)))
	}
	if rest := len(v.shown) - v.offset - page; rest > 0 {
		lines = append(lines, st.Muted.Render(fmt.Sprintf(" ↓ %d more", rest)))
	}
	return strings.Join(lines, "\n")
}

func (v *predictionsView) SetSize(w, h int) {
	v.w, v.h = w, h
	v.offset = min(v.offset, max(len(v.shown)-max(h-3, 1), 0))
	v.enableScroll()
}

func (v *predictionsView) Keys() []key.Binding {
	if !v.classify() {
		return []key.Binding{v.keys.up, v.keys.down, v.keys.mistakes}
	}
	return []key.Binding{v.keys.mistakes, v.keys.sort, v.keys.up, v.keys.down}
}

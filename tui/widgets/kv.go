package widgets

import (
	"math"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/tealab/tealab/themes"
)

// KVRow is one row of a KV table.
type KVRow struct {
	Key      string
	Value    string
	Baseline string // "" when there is none
	// Better is +1 when Value beats Baseline, -1 when it is worse, 0 when
	// neutral or unknown; it colours Value and adds ▲ or ▼.
	Better int
}

// KVKeyMap are the keys of a KV table.
type KVKeyMap struct {
	Up, Down key.Binding
}

// DefaultKVKeyMap returns the default KV keys.
func DefaultKVKeyMap() KVKeyMap {
	return KVKeyMap{
		Up:   key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KVKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down} }

// FullHelp implements help.KeyMap.
func (k KVKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// KV is a compact aligned table of key | value | baseline (the baseline
// column only when some row has one), with a header line when there is
// room. It scrolls when the rows do not fit.
type KV struct {
	KeyMap KVKeyMap

	st      *themes.Styles
	headers [3]string
	rows    []KVRow
	off     int
	w, h    int
}

// NewKV builds a table with headers "metric", "value", "baseline".
func NewKV(rows []KVRow, st *themes.Styles) KV {
	t := KV{KeyMap: DefaultKVKeyMap(), st: defaultStyles(st), headers: [3]string{"metric", "value", "baseline"}}
	t.SetRows(rows)
	return t
}

// SetRows replaces the rows.
func (t *KV) SetRows(rows []KVRow) {
	t.rows = make([]KVRow, len(rows))
	for i, r := range rows {
		t.rows[i] = KVRow{Key: oneLine(r.Key), Value: oneLine(r.Value), Baseline: oneLine(r.Baseline), Better: r.Better}
	}
	t.off = 0
	t.clamp()
}

// SetHeaders renames the columns; all empty hides the header line.
func (t *KV) SetHeaders(key, value, baseline string) {
	t.headers = [3]string{oneLine(key), oneLine(value), oneLine(baseline)}
}

// SetSize sets the size of the table.
func (t *KV) SetSize(w, h int) {
	t.w, t.h = w, h
	t.clamp()
}

func (t *KV) visible() int {
	if t.header() && t.h >= 3 {
		return t.h - 1
	}
	return t.h
}

func (t KV) header() bool { return t.headers != [3]string{} }

func (t *KV) clamp() {
	v := t.visible()
	scroll := t.h > 0 && len(t.rows) > v
	t.KeyMap.Up.SetEnabled(scroll)
	t.KeyMap.Down.SetEnabled(scroll)
	t.off = max(min(t.off, len(t.rows)-v), 0)
}

// Update handles scrolling.
func (t KV) Update(msg tea.Msg) (KV, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, t.KeyMap.Up):
			t.off--
		case key.Matches(k, t.KeyMap.Down):
			t.off++
		}
		t.clamp()
	}
	return t, nil
}

// View renders the table in exactly the size set.
func (t KV) View() string {
	if t.w <= 0 || t.h <= 0 {
		return ""
	}
	t.st = defaultStyles(t.st) // a zero-value widget still renders
	st := t.st
	kw := lipgloss.Width(t.headers[0])
	vw := lipgloss.Width(t.headers[1])
	bw := 0
	for _, r := range t.rows {
		kw = max(kw, lipgloss.Width(r.Key))
		vw = max(vw, lipgloss.Width(r.Value))
		if r.Baseline != "" {
			bw = max(bw, lipgloss.Width(r.Baseline), lipgloss.Width(t.headers[2]))
		}
	}
	kw = min(kw, max(t.w/2, 4))
	const gap = 2
	mark := 2 // " ▲"
	var lines []string
	if t.header() && t.h >= 3 {
		h := padRight(t.headers[0], kw) + strings.Repeat(" ", gap) + padLeft(t.headers[1], vw) + strings.Repeat(" ", mark)
		if bw > 0 {
			h += strings.Repeat(" ", gap) + padLeft(t.headers[2], bw)
		}
		lines = append(lines, st.Header.Render(h))
	}
	rows := t.rows[t.off:min(t.off+t.visible(), len(t.rows))]
	for _, r := range rows {
		vs, m := st.Value, "  "
		switch {
		case r.Better > 0:
			vs, m = st.Good.Bold(true), " ▲"
		case r.Better < 0:
			vs, m = st.Bad.Bold(true), " ▼"
		}
		line := st.Text.Render(padRight(r.Key, kw)) + strings.Repeat(" ", gap) +
			vs.Render(padLeft(r.Value, vw)+m)
		if bw > 0 {
			line += strings.Repeat(" ", gap) + st.Muted.Render(padLeft(r.Baseline, bw))
		}
		lines = append(lines, line)
	}
	if len(t.rows) == 0 {
		lines = append(lines, st.Muted.Render("no metrics"))
	}
	return fitBlock(lines, t.w, t.h)
}

// metricInfo orders and names known metrics; lower marks those where
// smaller is better.
var metricInfo = []struct {
	key, name string
	lower     bool
}{
	{"accuracy", "accuracy", false},
	{"balanced_accuracy", "balanced accuracy", false},
	{"macro_f1", "macro F1", false},
	{"weighted_f1", "weighted F1", false},
	{"macro_precision", "macro precision", false},
	{"macro_recall", "macro recall", false},
	{"kappa", "kappa", false},
	{"mcc", "MCC", false},
	{"auc", "AUC", false},
	{"roc_auc", "AUC", false},
	{"log_loss", "log-loss", true},
	{"error", "error", true},
	{"r2", "R²", false},
	{"rmse", "RMSE", true},
	{"mae", "MAE", true},
	{"mse", "MSE", true},
	{"ari", "ARI", false},
	{"silhouette", "silhouette", false},
}

// fmtMetric formats a metric value: 3 decimals in the usual range, 4
// significant digits outside it.
func fmtMetric(v float64) string {
	a := math.Abs(v)
	if finite(v) && v != 0 && (a >= 1000 || a < 0.001) {
		return fmtG(v, 4)
	}
	return fmtFixed(v, 3)
}

// MetricRows turns evaluation metrics into KV rows: known metrics first in
// a fixed order with display names, the others sorted by key. std (may be
// nil) adds "± s" under cross-validation; baseline (may be nil) fills the
// baseline column and sets Better (higher is better except for losses and
// errors such as log_loss, rmse, mae, mse, *_loss, *error).
func MetricRows(metrics, std, baseline map[string]float64) []KVRow {
	known := map[string]bool{}
	var rows []KVRow
	add := func(k, name string, lower bool) {
		v := metrics[k]
		r := KVRow{Key: name, Value: fmtMetric(v)}
		if s, ok := std[k]; ok && finite(s) {
			r.Value += " ± " + fmtMetric(s)
		}
		if b, ok := baseline[k]; ok {
			r.Baseline = fmtMetric(b)
			if finite(v) && finite(b) && v != b {
				r.Better = 1
				if (v < b) != lower {
					r.Better = -1
				}
			}
		}
		rows = append(rows, r)
	}
	for _, mi := range metricInfo {
		if _, ok := metrics[mi.key]; ok && !known[mi.key] {
			known[mi.key] = true
			add(mi.key, mi.name, mi.lower)
		}
	}
	var rest []string
	for k := range metrics {
		if !known[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		lower := strings.HasSuffix(k, "loss") || strings.HasSuffix(k, "error")
		add(k, strings.ReplaceAll(k, "_", " "), lower)
	}
	return rows
}

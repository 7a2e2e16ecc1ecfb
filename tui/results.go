package tui

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/widgets"
)

// Result tabs. Which ones a run gets depends on its task and on what the
// fitted model offers (interfaces, never model names).
const (
	tabSummary   = "Summary"
	tabConfusion = "Confusion"
	tabROC       = "ROC"
	tabHistory   = "History"
	tabCoefs     = "Coefficients"
	tabMap       = "Map"
	tabPredicted = "Predicted vs actual"
	tabResiduals = "Residuals"
)

type resultsKeys struct {
	Output key.Binding // next output of the coefficients
	Retry  key.Binding
}

func defaultResultsKeys() resultsKeys {
	return resultsKeys{
		Output: bind("o", "next output", "o"),
		Retry:  bind("e", "edit & retrain", "e"),
	}
}

// resultsScreen shows what a finished (or cancelled) run learned.
type resultsScreen struct {
	c        *common
	ctx      context.Context
	keys     resultsKeys
	run      *runRecord
	fromRuns bool // opened from the runs table: esc goes back there

	tabs      widgets.Tabs
	confusion widgets.Confusion
	roc       widgets.ROC
	histLoss  widgets.LineChart
	histVal   widgets.LineChart
	coefs     widgets.Bars
	output    int // coefficient output shown
	scatter   widgets.Scatter
	resid     widgets.Scatter
	regions   widgets.Scatter

	mapCancel context.CancelFunc
	mapState  string // "", "computing", "ready", or the reason there is no map
	mapTitle  string
	mapKey    string // run and widget size of the map shown
	mapWant   string // run and widget size of the map being computed; "" when none
	mapW      int    // size of the regions widget
	mapH      int
	w, h      int
}

// mapResizeDelay lets a burst of resizes settle before the map is refit.
const mapResizeDelay = 150 * time.Millisecond

func newResultsScreen(c *common, ctx context.Context) *resultsScreen {
	st := c.styles
	return &resultsScreen{c: c, ctx: ctx, keys: defaultResultsKeys(), tabs: widgets.NewTabs(nil, st),
		confusion: widgets.NewConfusion(metrics.Confusion{}, nil, nil, st), roc: widgets.NewROC(nil, st),
		histLoss: widgets.NewLineChart("", "", st), histVal: widgets.NewLineChart("", "", st),
		coefs: widgets.NewBars(nil, nil, st), scatter: widgets.NewScatter(st), resid: widgets.NewScatter(st),
		regions: widgets.NewScatter(st)}
}

// show builds the views of run r.
func (s *resultsScreen) show(r *runRecord) {
	if s.mapCancel != nil {
		s.mapCancel()
		s.mapCancel = nil
	}
	s.run, s.output, s.mapState, s.mapTitle, s.mapKey, s.mapWant = r, 0, "", "", "", ""
	st := s.c.styles
	res := r.result
	var names []string
	names = append(names, tabSummary)
	task := r.data.Task
	if res != nil && res.Confusion != nil && len(res.Confusion.Labels) > 0 {
		names = append(names, tabConfusion)
		sum := map[string]float64{}
		for k, v := range res.Metrics {
			sum[k] = v
		}
		if b, ok := res.Baseline["accuracy"]; ok {
			sum["baseline_accuracy"] = b
		}
		s.confusion = widgets.NewConfusion(*res.Confusion, res.Classes, sum, st)
	}
	if res != nil && len(res.ROC) > 0 {
		names = append(names, tabROC)
		s.roc = widgets.NewROC(res.ROC, st)
	}
	if res != nil && len(res.History) > 0 {
		names = append(names, tabHistory)
		unit := r.spec.Unit
		if unit == "" {
			unit = "step"
		}
		s.histLoss = widgets.NewLineChart("training loss", unit, st)
		s.histVal = widgets.NewLineChart("validation on held-out rows", unit, st)
		tl, vl, ve := make([]float64, len(res.History)), make([]float64, len(res.History)), make([]float64, len(res.History))
		for i, p := range res.History {
			tl[i], vl[i], ve[i] = p.TrainLoss, p.ValLoss, p.ValError
		}
		ln, en := valNames(task)
		tl, dx := reduceSeries(tl, chartPoints)
		vl, _ = reduceSeries(vl, chartPoints)
		ve, _ = reduceSeries(ve, chartPoints)
		s.histLoss.SetSeries([]string{"train loss"}, [][]float64{tl})
		s.histVal.SetSeries([]string{ln, en}, [][]float64{vl, ve})
		s.histLoss.SetXScale(float64(res.History[0].Step), dx)
		s.histVal.SetXScale(float64(res.History[0].Step), dx)
		if len(res.Folds) > 1 || r.opts.Folds > 1 || r.opts.LOO {
			f := max(r.histFold, 1) // the first fold's, unless abandoned later
			s.histLoss.SetTitle(fmt.Sprintf("training loss · fold %d", f))
			s.histVal.SetTitle(fmt.Sprintf("validation · fold %d", f))
		}
	}
	if c := s.coefficients(); c != nil {
		names = append(names, tabCoefs)
		s.setCoefs(c)
	}
	if res != nil && task == datasets.Regression && len(res.Actual) > 0 && len(res.Actual) == len(res.Predicted) {
		names = append(names, tabPredicted, tabResiduals)
		s.scatter = widgets.NewScatter(st)
		s.scatter.SetPoints(res.Actual, res.Predicted, nil)
		s.scatter.SetAxes("actual", "predicted")
		s.scatter.SetGuides(true, false)
		resid := make([]float64, len(res.Actual))
		for i := range resid {
			resid[i] = res.Actual[i] - res.Predicted[i]
		}
		s.resid = widgets.NewScatter(st)
		s.resid.SetPoints(res.Predicted, resid, nil)
		s.resid.SetAxes("predicted", "residual")
		s.resid.SetGuides(false, true)
	}
	if res != nil && task != datasets.Regression && !res.Cancelled && r.err == nil {
		names = append(names, tabMap)
		s.regions = widgets.NewScatter(st)
		s.mapState = "computing"
	}
	s.tabs = widgets.NewTabs(names, st)
	// A cancelled run opens on what it has: its history.
	if res != nil && res.Cancelled && slices.Contains(names, tabHistory) {
		s.tabs.SetActive(slices.Index(names, tabHistory))
	}
	s.SetSize(s.w, s.h)
}

// coefficients returns the fitted model's coefficients if it has them.
func (s *resultsScreen) coefficients() *engine.Coefficients {
	res := s.run.result
	if res == nil {
		return nil
	}
	if res.Coefs != nil && res.Coefs.Weights != nil {
		return res.Coefs
	}
	if c, ok := res.Fitted.(engine.Coefficienter); ok {
		co := c.Coefficients()
		if co.Weights != nil {
			return &co
		}
	}
	return nil
}

func (s *resultsScreen) setCoefs(c *engine.Coefficients) {
	r, p := c.Weights.Dims()
	s.output = min(max(s.output, 0), r-1)
	vals := make([]float64, p)
	mat.Row(vals, s.output, c.Weights)
	labels := make([]string, p)
	for j := range p {
		if j < len(c.Features) {
			labels[j] = c.Features[j]
		} else {
			labels[j] = fmt.Sprintf("x%d", j)
		}
	}
	s.coefs = widgets.NewBars(labels, vals, s.c.styles)
}

func (s *resultsScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.tabs.SetSize(w, 1)
	bh := max(h-3, 3)
	s.confusion.SetSize(w, bh)
	s.roc.SetSize(w, bh)
	half := w / 2
	s.histLoss.SetSize(half, bh)
	s.histVal.SetSize(w-half, bh)
	s.coefs.SetSize(w, bh-1)
	s.scatter.SetSize(w, bh)
	s.resid.SetSize(w, bh)
	s.mapW, s.mapH = w, bh-1 // under the map's title
	s.regions.SetSize(s.mapW, s.mapH)
}

func (s *resultsScreen) shownRun() *runRecord { return s.run }

func (s *resultsScreen) Typing() bool { return false }
func (s *resultsScreen) Back() bool   { return false }

func (s *resultsScreen) activeKeys() []key.Binding {
	switch s.tabs.ActiveName() {
	case tabConfusion:
		return s.confusion.KeyMap.ShortHelp()
	case tabROC:
		return s.roc.KeyMap.ShortHelp()
	case tabHistory:
		return s.histLoss.KeyMap.ShortHelp()
	case tabCoefs:
		ks := s.coefs.KeyMap.ShortHelp()
		if c := s.coefficients(); c != nil {
			if r, _ := c.Weights.Dims(); r > 1 {
				ks = append(ks, s.keys.Output)
			}
		}
		return ks
	case tabMap:
		return s.regions.KeyMap.ShortHelp()
	}
	return nil
}

func (s *resultsScreen) ShortHelp() []key.Binding {
	ks := []key.Binding{s.tabs.KeyMap.Next}
	ks = append(ks, s.activeKeys()...)
	return append(ks, s.keys.Retry)
}

func (s *resultsScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.tabs.KeyMap.Next, s.tabs.KeyMap.Prev}, s.activeKeys(), {s.keys.Retry}}
}

func (s *resultsScreen) headerInfo() string {
	if s.run == nil {
		return ""
	}
	return fmt.Sprintf("run %d · seed %d · %s", s.run.id, s.run.opts.Seed, s.run.evalDesc())
}

func (s *resultsScreen) Update(msg tea.Msg) tea.Cmd {
	if s.run == nil {
		return nil
	}
	switch msg := msg.(type) {
	case regionsMsg:
		// Only the map last asked for: an older run's, or one computed for
		// a size the terminal no longer has, is dropped.
		if msg.run != s.run.id || msg.key != s.mapWant {
			return nil
		}
		s.mapWant = ""
		if msg.err != nil {
			if s.mapState != "ready" {
				s.mapState = msg.err.Error()
			}
			return nil
		}
		showRegions(&s.regions, msg.m)
		s.mapTitle = msg.m.Title
		s.mapState, s.mapKey = "ready", msg.key
		return nil
	case regionsResizeMsg:
		// Refit only if the size is still the one that asked.
		if msg.run == s.run.id && msg.key == s.regionsKey() && s.staleMap() {
			return s.regionsCmd()
		}
		return nil
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, s.keys.Retry):
			id := s.run.id
			return func() tea.Msg { return retrainMsg{run: id} }
		case key.Matches(msg, s.tabs.KeyMap.Next, s.tabs.KeyMap.Prev):
			var cmd tea.Cmd
			s.tabs, cmd = s.tabs.Update(msg)
			return cmd
		}
		var cmd tea.Cmd
		switch s.tabs.ActiveName() {
		case tabConfusion:
			s.confusion, cmd = s.confusion.Update(msg)
		case tabROC:
			s.roc, cmd = s.roc.Update(msg)
		case tabHistory:
			s.histLoss, _ = s.histLoss.Update(msg)
			s.histVal, cmd = s.histVal.Update(msg)
		case tabCoefs:
			if key.Matches(msg, s.keys.Output) {
				if c := s.coefficients(); c != nil {
					r, _ := c.Weights.Dims()
					s.output = (s.output + 1) % r
					s.setCoefs(c)
					s.SetSize(s.w, s.h)
				}
				return nil
			}
			s.coefs, cmd = s.coefs.Update(msg)
		case tabMap:
			s.regions, cmd = s.regions.Update(msg)
		case tabPredicted:
			s.scatter, cmd = s.scatter.Update(msg)
		case tabResiduals:
			s.resid, cmd = s.resid.Update(msg)
		}
		return cmd
	}
	return nil
}

// showRegions puts map rm on sc: points by true class (misclassified ones
// marked) or, for clustering, by cluster; the bounds, axes and regions.
func showRegions(sc *widgets.Scatter, rm *regionMap) {
	xs, ys := mat.Col(nil, 0, rm.Plane.XY), mat.Col(nil, 1, rm.Plane.XY)
	if rm.Truth == nil {
		sc.SetPoints(xs, ys, rm.Pred)
	} else {
		sc.SetPoints(xs, ys, rm.Truth)
		var wrong []int
		for i, p := range rm.Pred {
			if p != rm.Truth[i] {
				wrong = append(wrong, i)
			}
		}
		sc.SetMarked(wrong)
	}
	sc.SetBounds(rm.XMin, rm.XMax, rm.YMin, rm.YMax)
	sc.SetRegions(rm.Grid)
	sc.SetAxes(rm.Plane.XLabel, rm.Plane.YLabel)
	sc.SetClassNames(rm.Classes)
}

// regionsKey names the map the screen needs now: its run and the size of
// the widget that draws it.
func (s *resultsScreen) regionsKey() string {
	if s.run == nil {
		return ""
	}
	return fmt.Sprintf("%d:%dx%d", s.run.id, s.mapW, s.mapH)
}

// hasMap says the run has a Map tab whose map is (being) computed.
func (s *resultsScreen) hasMap() bool {
	return s.run != nil && (s.mapState == "computing" || s.mapState == "ready")
}

// staleMap says the run has a map, made (or being made) for another size.
func (s *resultsScreen) staleMap() bool {
	if !s.hasMap() {
		return false
	}
	key := s.regionsKey()
	return key != s.mapWant && (s.mapWant != "" || key != s.mapKey)
}

// regionsCmd computes the decision-region map for the current size off the
// UI goroutine, cancelling any computation in flight (whose result would
// be dropped anyway).
func (s *resultsScreen) regionsCmd() tea.Cmd {
	if !s.hasMap() {
		return nil
	}
	if s.mapCancel != nil {
		s.mapCancel()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.mapCancel = cancel
	s.mapWant = s.regionsKey()
	// Everything the command needs is copied here: it runs on another
	// goroutine while Update may change the screen.
	id, d, spec, values, seed := s.run.id, s.run.data, s.run.spec, maps.Clone(s.run.values), s.run.opts.Seed
	key, w, h := s.mapWant, s.mapW, s.mapH
	// The grid is the plot area the map will have: a private Scatter of the
	// same size, with the same points and bounds, measures it. Its styles
	// are a copy, since cycling the theme rewrites the shared ones.
	st := *s.c.styles
	size := func(rm *regionMap) (int, int) {
		sc := widgets.NewScatter(&st)
		sc.SetSize(w, h)
		showRegions(&sc, rm)
		b := sc.Bounds()
		return max(b.Cols, 8), max(b.Rows, 4)
	}
	return func() tea.Msg {
		defer cancel()
		rm, err := computeRegions(ctx, d, spec, values, seed, size)
		return regionsMsg{run: id, key: key, m: rm, err: err}
	}
}

// resized asks for a new map once the size has settled, when the map shown
// (or being computed) was made for another size.
func (s *resultsScreen) resized() tea.Cmd {
	if !s.staleMap() {
		return nil
	}
	run, key := s.run.id, s.regionsKey()
	return tea.Tick(mapResizeDelay, func(time.Time) tea.Msg { return regionsResizeMsg{run: run, key: key} })
}

func (s *resultsScreen) View() string {
	st := s.c.styles
	if s.run == nil {
		return st.Muted.Render(" No results yet.")
	}
	var top string
	res := s.run.result
	switch {
	case res != nil && res.Cancelled:
		top = st.Warn.Render(clip(" "+s.run.cancelNote(), s.w))
	case s.run.err != nil:
		top = st.Error.Render(" " + clip(s.run.err.Error(), s.w-2))
	default:
		top = s.scoreLine()
	}
	body := ""
	bh := max(s.h-3, 3)
	switch s.tabs.ActiveName() {
	case tabSummary:
		body = s.summaryView(bh)
	case tabConfusion:
		body = s.confusion.View()
	case tabROC:
		body = s.roc.View()
	case tabHistory:
		body = lipgloss.JoinHorizontal(lipgloss.Top, s.histLoss.View(), s.histVal.View())
	case tabCoefs:
		body = s.coefsTitle() + "\n" + s.coefs.View()
	case tabMap:
		body = s.mapView(bh)
	case tabPredicted:
		body = s.scatter.View()
	case tabResiduals:
		body = s.resid.View()
	}
	return s.tabs.View() + "\n" + top + "\n\n" + body
}

func unitOf(sp *engine.Spec) string {
	if sp.Unit == "" {
		return "step"
	}
	return sp.Unit
}

// scoreLine is the headline: the main metrics beside the baseline.
func (s *resultsScreen) scoreLine() string {
	st := s.c.styles
	res := s.run.result
	if res == nil {
		return ""
	}
	var keys []string
	switch s.run.data.Task {
	case datasets.Classification:
		keys = []string{"accuracy", "macro_f1", "auc"}
	case datasets.Regression:
		keys = []string{"r2", "rmse", "mae"}
	default:
		keys = []string{"ari", "silhouette", "clusters"}
	}
	var parts []string
	for _, k := range keys {
		v, ok := res.Metrics[k]
		if !ok {
			continue
		}
		p := st.Muted.Render(metrics.Lookup(k).Label+" ") + st.Value.Render(metrics.Lookup(k).Format(v))
		if sd, ok := res.Std[k]; ok && len(res.Folds) > 1 {
			p += st.Muted.Render(" ±" + numfmt.Score(sd))
		}
		if b, ok := res.Baseline[k]; ok {
			p += st.Muted.Render(" (baseline " + numfmt.Score(b) + ")")
		}
		parts = append(parts, p)
	}
	return " " + strings.Join(parts, st.Muted.Render(" · "))
}

// summaryView lists every metric with its baseline and the run's settings.
func (s *resultsScreen) summaryView(h int) string {
	st := s.c.styles
	r := s.run
	res := r.result
	var left []string
	cv := res != nil && len(res.Folds) > 1
	head := fmt.Sprintf("%-18s %10s %10s", "metric", "value", "baseline")
	if cv {
		head += fmt.Sprintf(" %10s", "± folds")
	}
	left = append(left, st.Header.Render(head))
	if res != nil {
		keys := make([]string, 0, len(res.Metrics))
		for k := range res.Metrics {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		main := metrics.Primary(r.data.Task, res.Metrics)
		slices.SortStableFunc(keys, func(a, b string) int {
			switch {
			case a == main:
				return -1
			case b == main:
				return 1
			}
			return 0
		})
		for _, k := range keys {
			v := res.Metrics[k]
			base, hasBase := res.Baseline[k]
			vs := st.Value
			if hasBase && !math.IsNaN(v) && !math.IsNaN(base) && v != base {
				if metrics.Lookup(k).Compare(v, base) > 0 {
					vs = st.Good
				} else {
					vs = st.Bad
				}
			}
			bs, sd := "", ""
			if hasBase {
				bs = numfmt.Score(base)
			}
			if x, ok := res.Std[k]; ok && len(res.Folds) > 1 {
				sd = numfmt.Score(x)
			}
			line := st.Text.Render(fmt.Sprintf("%-18s ", clip(metrics.Lookup(k).Label, 18))) +
				vs.Render(fmt.Sprintf("%10s", metrics.Lookup(k).Format(v))) + st.Muted.Render(fmt.Sprintf(" %10s", bs))
			if cv {
				line += st.Muted.Render(fmt.Sprintf(" %10s", sd))
			}
			left = append(left, line)
		}
		if len(res.Metrics) == 0 {
			left = append(left, st.Muted.Render("no scores (the run did not finish)"))
		}
	}
	var right []string
	kv := func(k, v string) {
		right = append(right, st.Muted.Render(fmt.Sprintf("%-12s ", k))+st.Text.Render(v))
	}
	kv("dataset", fmt.Sprintf("%s (%d rows, %d features)", r.data.Name, r.data.Rows(), len(r.data.Features)))
	if r.data.Target != nil {
		kv("target", r.data.Target.Name+" · "+r.data.Task.String())
	} else {
		kv("target", "none · clustering")
	}
	kv("model", r.spec.Title+" ("+r.spec.Name+", notes "+r.spec.Notes+")")
	desc := r.spec.Describe(r.values)
	if desc == "" {
		desc = "none"
	}
	for i, line := range strings.Split(wrap(desc, 44), "\n") {
		label := ""
		if i == 0 {
			label = "parameters"
		}
		kv(label, line)
	}
	kv("evaluation", r.evalDesc())
	kv("seed", fmt.Sprint(r.opts.Seed))
	if res != nil {
		kv("fit time", numfmt.Seconds(res.FitSecs)+" (wall "+numfmt.Seconds(r.wall.Seconds())+")")
		if res.Prep != nil && len(res.Prep.Features) != len(r.data.Features) {
			kv("model saw", fmt.Sprintf("%d features after preprocessing", len(res.Prep.Features)))
		}
	}
	// Per-fold scores under cross-validation.
	if res != nil && len(res.Folds) > 1 {
		main := metrics.Primary(r.data.Task, res.Metrics)
		left = append(left, "", st.Header.Render(fmt.Sprintf("%s per fold", metrics.Lookup(main).Label)))
		var row []string
		for i, f := range res.Folds {
			row = append(row, fmt.Sprintf("%d:%s", i+1, numfmt.Score(f[main])))
		}
		left = append(left, wrapItems(row, 46)...)
	}
	lw := 52
	if s.w < lw+2+60 { // too narrow for two columns: the settings go below
		out := make([]string, 0, len(left)+len(right)+1)
		for _, l := range left {
			out = append(out, " "+l)
		}
		out = append(out, "")
		for _, r := range right {
			out = append(out, " "+r)
		}
		if len(out) > h {
			out = out[:h]
		}
		return strings.Join(out, "\n")
	}
	out := make([]string, 0, max(len(left), len(right)))
	for i := range max(len(left), len(right)) {
		l, rr := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			rr = right[i]
		}
		out = append(out, " "+fitWidth(l, lw)+"  "+rr)
	}
	if len(out) > h {
		out = out[:h]
	}
	return strings.Join(out, "\n")
}

// wrapItems joins items with spaces into lines of at most w cells.
func wrapItems(items []string, w int) []string {
	var out []string
	line := ""
	for _, it := range items {
		if line != "" && len(line)+1+len(it) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += "  "
		}
		line += it
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

func (s *resultsScreen) coefsTitle() string {
	st := s.c.styles
	c := s.coefficients()
	if c == nil {
		return ""
	}
	r, _ := c.Weights.Dims()
	out := "the target"
	if s.output < len(c.Outputs) {
		out = c.Outputs[s.output]
	}
	t := fmt.Sprintf(" weights for %s", out)
	if s.output < len(c.Intercept) {
		t += fmt.Sprintf(" · intercept %s", numfmt.Score(c.Intercept[s.output]))
	}
	if r > 1 {
		t += fmt.Sprintf(" · output %d of %d (o: next)", s.output+1, r)
	}
	if s.run.result != nil && s.run.result.Prep != nil {
		t += " · on the features as the model saw them"
	}
	return st.Title.Render(clip(t, s.w))
}

func (s *resultsScreen) mapView(h int) string {
	st := s.c.styles
	switch s.mapState {
	case "computing":
		return st.Muted.Render(" drawing the decision regions…")
	case "ready":
		title := " " + s.mapTitle
		if s.mapKey != s.regionsKey() { // being refit for a new size
			title = " redrawing for the new size… · " + s.mapTitle
		}
		return st.Title.Render(clip(title, s.w)) + "\n" + s.regions.View()
	}
	return st.Muted.Render(" no map: " + s.mapState)
}

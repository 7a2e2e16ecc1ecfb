package sweep

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/report"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/widgets"
)

// The sweep screen cross-validates a grid of hyperparameters (or random
// draws of them)
// (or, as a learning curve, growing shares of the training rows) in the
// background and draws the validation curve as the points arrive: the
// training and validation means with their ±1 sd bands as faint lines, or
// a heat table for a grid of two parameters (more: the points numbered
// along the chart, the table beside it). enter trains the selected point in
// full.

type mode int

const (
	Editing mode = iota // the range field has the keyboard
	Running
	Done
)

type keys struct {
	start, cancel, prev, next, train, edit, export, confirm, stay key.Binding
}

// DefaultKeys are the sweep screen's key bindings.
func DefaultKeys() keys {
	return keys{
		start:  kit.Bind("enter", "start", "enter"),
		cancel: kit.Bind("c/esc", "cancel, keep finished points", "c", "esc"),
		prev:   kit.Bind("←/→", "select point", "left"),
		next:   kit.Bind("→", "next point", "right"),
		train:  kit.Bind("enter", "train selected", "enter"),
		edit:   kit.Bind("e", "edit ranges", "e"),
		export: kit.Bind("x", "export .md and .csv", "x"),
		// Asked before quitting a running sweep, as the training screen does.
		confirm: kit.Bind("y", "quit (the sweep is lost)", "y", "enter"),
		stay:    kit.Bind("n/esc", "keep sweeping", "n", "esc"),
	}
}

// sweepFolds is the cross-validation a sweep uses when the form asks for
// a hold-out or leave-one-out: every point needs folds to spread over.
const sweepFolds = 5

// Screen is the sweep screen: the ranges typed, the points as they finish,
// and the best.
type Screen struct {
	c        *kit.Common
	keys     keys
	ctx      context.Context
	ds       *datasets.Dataset
	spec     *engine.Spec
	base     engine.Values
	opts     eval.Options
	Learning bool
	Input    kit.TextField
	err      error
	Mode     mode
	data     runs.Data    // the session's data, for the command that trains a point
	Live     *tune.Result // the points so far, in Search's order
	note     string       // what the last key did (an export)
	asking   bool         // whether to quit while the sweep runs is being asked
	Sel      int
	pick     string // the rule that picks the point, from the range field
	nested   int    // outer folds of a nested cross-validation, from the range field (0: none)
	Job      *sweepJob
	jobs     int
	started  time.Time
	took     time.Duration
	chart    widgets.LineChart
	w, h     int
}

// New is the sweep screen, drawn with c.
func New(c *kit.Common, ctx context.Context) *Screen {
	in := kit.NewInput()
	in.CharLimit = 200
	in.SetWidth(60)
	return &Screen{c: c, keys: DefaultKeys(), ctx: ctx, Input: in}
}

// Open prepares a sweep of the request's parameter on the session's data
// (d, as a run records them; ds loaded), its range taken from the spec, or
// starts a learning curve at once.
func (s *Screen) Open(d runs.Data, ds *datasets.Dataset, spec *engine.Spec, msg kit.SweepRequestMsg) tea.Cmd {
	s.Stop()
	s.data, s.ds, s.spec, s.base, s.Learning, s.err, s.Live = d, ds, spec, msg.Values, msg.Learning, nil, nil
	s.opts = msg.Opts
	if s.opts.LOO || s.opts.Folds < 2 {
		s.opts.LOO, s.opts.Folds = false, sweepFolds
	}
	if s.Learning {
		return s.start()
	}
	if p, ok := spec.Param(msg.Param); ok {
		s.Input.SetValue(p.Name + "=" + tune.DefaultRange(p))
	}
	s.Input.CursorEnd()
	s.edit()
	return nil
}

func (s *Screen) edit() {
	s.Mode = Editing
	s.Input.Focus()
}

// axes reads the range field: one name=range setting or more and,
// optionally, random=N, the number of settings to draw instead of the grid
// (0 when absent).
func (s *Screen) axes() ([]tune.Axis, int, error) {
	var parts []string
	random := 0
	s.pick, s.nested = tune.PickBest, 0
	for _, part := range strings.Fields(s.Input.Value()) {
		if k, ok := strings.CutPrefix(part, nestedKey+"="); ok {
			if _, clash := s.spec.Param(nestedKey); !clash {
				var err error
				if s.nested, err = strconv.Atoi(k); err != nil || s.nested < 2 {
					return nil, 0, fmt.Errorf("%s=%s: give how many outer folds, a whole number of at least 2 (e.g. %s=5)", nestedKey, k, nestedKey)
				}
				continue
			}
		}
		if rule, ok := strings.CutPrefix(part, pickKey+"="); ok {
			if _, clash := s.spec.Param(pickKey); !clash {
				s.pick = rule
				continue
			}
		}
		n, ok := strings.CutPrefix(part, randomKey+"=")
		if _, clash := s.spec.Param(randomKey); !ok || clash {
			parts = append(parts, part)
			continue
		}
		var err error
		if random, err = strconv.Atoi(n); err != nil || random < 1 {
			return nil, 0, fmt.Errorf("%s=%s: give how many settings to draw, a whole number of at least 1 (e.g. %s=8)", randomKey, n, randomKey)
		}
	}
	if len(parts) == 0 {
		return nil, 0, fmt.Errorf("give a range or more, e.g. k=1..30 or k=1..30 metric=l1,l2, and random=N to draw N of them")
	}
	var axes []tune.Axis
	for _, part := range parts {
		a, err := tune.ParseAxis(s.spec, part)
		if err != nil {
			return nil, 0, err
		}
		axes = append(axes, a)
	}
	if err := tune.CheckAxes(axes, random); err != nil {
		return nil, 0, fmt.Errorf("%v (%s=N)", err, randomKey)
	}
	if err := tune.CheckPick(axes, s.pick); err != nil {
		return nil, 0, fmt.Errorf("%s=%v", pickKey, err)
	}
	return axes, random, nil
}

// randomKey, written key=N in the range field, asks for a random search;
// pickKey, written pick=1se, the rule that picks the point (tune.Picks).
// nestedKey, written nested=K, also scores the search by nested
// cross-validation over K outer folds (tune.Nested).
const (
	randomKey = "random"
	pickKey   = "pick"
	nestedKey = "nested"
)

// start launches the search (or the learning curve) in the background.
func (s *Screen) start() tea.Cmd {
	var axes []tune.Axis
	var settings [][]any
	opt := tune.Options{Eval: s.opts, Jobs: 2}
	if s.Learning {
		s.pick, s.nested = tune.PickBest, 0
		axes = []tune.Axis{{Param: engine.Param{Name: "train_size", Kind: engine.Float}, Values: anys(tune.DefaultSizes)}}
		for _, v := range tune.DefaultSizes {
			settings = append(settings, []any{v})
		}
	} else {
		var err error
		if axes, opt.Random, err = s.axes(); err != nil {
			s.err = err
			return nil
		}
		settings = tune.Settings(axes, opt)
	}
	info, err := tune.MetricFor(s.ds.Task, "")
	if err != nil {
		s.err = err
		return nil
	}
	s.Live = &tune.Result{Model: s.spec.Name, Dataset: s.ds.Name, Task: s.ds.Task, Metric: info, Axes: axes, Base: s.base, Best: -1,
		Eval: fmt.Sprintf("%d-fold CV", s.opts.Folds), Random: opt.Random > 0, Pick: s.pick}
	opt.Pick = s.pick
	for _, v := range settings {
		s.Live.Points = append(s.Live.Points, tune.Point{Values: v})
	}
	s.err, s.note, s.Sel, s.Mode, s.started = nil, "", 0, Running, time.Now()
	s.Input.Blur()
	ds, spec, base, nested := s.ds, s.spec, s.base, s.nested
	c := s.c
	fn := func(ctx context.Context, progress func(int, tune.Point)) (*tune.Result, error) {
		release, err := c.HoldSlot(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
		if s.Learning {
			return tune.LearningCurve(ctx, ds, spec, base, nil, opt, progress)
		}
		res, err := tune.Search(ctx, ds, spec, base, axes, opt, progress)
		if err != nil || nested == 0 {
			return res, err
		}
		// The outer folds' points are not this sweep's: none is shown
		// until the nested score arrives with the end.
		n, err := tune.Nested(ctx, ds, spec, base, axes, opt, nested, nil)
		if n != nil {
			res.Nested = n
			res.Cancelled = res.Cancelled || n.Cancelled
		}
		if err != nil && n != nil && !n.Cancelled && n.Scored() > 0 {
			err = nil // the folds that failed say why in the export
		}
		return res, err
	}
	s.jobs++
	s.Job = startSweep(s.ctx, s.jobs, fn, s.c.Logf)
	s.redraw()
	return waitSweep(s.Job)
}

func anys(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// Stop cancels a sweep in flight; its messages are dropped from now on.
func (s *Screen) Stop() {
	if s.Job != nil {
		s.Job.cancel()
		s.Job = nil
	}
}

func (s *Screen) arrived(points []IndexedPoint) {
	for _, ip := range points {
		if ip.i < len(s.Live.Points) {
			s.Live.Points[ip.i] = ip.p
		}
	}
	s.Live.UpdateBest()
	s.redraw()
}

func (s *Screen) finish(msg DoneMsg) {
	s.arrived(msg.tail)
	s.Job, s.Mode, s.took, s.asking = nil, Done, time.Since(s.started), false
	if msg.res != nil {
		s.Live.Eval, s.Live.Cancelled, s.Live.Nested = msg.res.Eval+msg.res.Prep, msg.res.Cancelled, msg.res.Nested
	}
	if msg.err != nil && (msg.res == nil || !msg.res.Cancelled) {
		s.err = msg.err
	}
	if s.Live.Best >= 0 {
		s.Sel = s.Live.Best
	}
	s.redraw()
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case PointsMsg:
		if s.Job == nil || msg.Job != s.Job.id {
			return nil
		}
		s.arrived(msg.Points)
		return waitSweep(s.Job)
	case DoneMsg:
		if s.Job == nil || msg.Job != s.Job.id {
			return nil
		}
		s.finish(msg)
		return nil
	case tea.KeyPressMsg:
		return s.Key(msg)
	}
	return nil
}

// Key handles a key press on the sweep screen.
func (s *Screen) Key(km tea.KeyPressMsg) tea.Cmd {
	if s.Mode == Editing {
		if key.Matches(km, s.keys.start) {
			return s.start()
		}
		var cmd tea.Cmd
		s.Input, cmd = s.Input.Update(km)
		s.err = nil
		return cmd
	}
	if s.asking {
		switch {
		case key.Matches(km, s.keys.confirm):
			return func() tea.Msg { return kit.QuitMsg{} }
		case key.Matches(km, s.keys.stay):
			s.asking = false
		}
		return nil
	}
	n := len(s.Live.Points)
	switch {
	case key.Matches(km, s.keys.export) && s.Live.Finished() > 0:
		s.note = s.export()
		return nil
	case key.Matches(km, s.keys.prev):
		s.Sel = (s.Sel - 1 + n) % n
	case key.Matches(km, s.keys.next):
		s.Sel = (s.Sel + 1) % n
	case s.Mode == Running && key.Matches(km, s.keys.cancel):
		s.Job.cancel() // the points that finished stay; the end still arrives
		return nil
	case s.Mode == Done && key.Matches(km, s.keys.edit) && !s.Learning:
		s.edit()
		return nil
	case s.Mode == Done && key.Matches(km, s.keys.train):
		if p := s.Live.Points[s.Sel]; p.OK() {
			v := p.Params
			if s.Learning {
				v = s.base
			}
			o := s.opts
			return func() tea.Msg { return kit.SweepTrainMsg{Values: v, Opts: o} }
		}
		s.err = fmt.Errorf("%s has no scores to train from; select a scored point", s.Live.Label(s.Live.Points[s.Sel]))
		return nil
	default:
		return nil
	}
	s.redraw()
	return nil
}

func (s *Screen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.redraw()
}

func (s *Screen) Typing() bool { return s.Mode == Editing }

// Back cancels a running sweep, keeping the points that finished (a second
// esc leaves); while quitting is asked, it keeps sweeping.
func (s *Screen) Back() bool {
	switch {
	case s.asking:
		s.asking = false
		return true
	case s.Mode == Running:
		s.Job.cancel() // the end arrives with what finished
		return true
	}
	return false
}

// AskQuit asks before quitting while the sweep runs; false lets q quit.
func (s *Screen) AskQuit() bool {
	if s.Mode == Running && !s.asking {
		s.asking = true
		return true
	}
	return false
}

// askView is the question asked before quitting a running sweep.
func (s *Screen) askView() string {
	q := fmt.Sprintf("Quit while sweeping? The %d points that finished are lost (ctrl+c quits at once).", s.Live.Finished())
	return kit.AskPanel(s.c.Styles, s.w, "a sweep is running", q, "y quit", "n keep sweeping")
}

// export writes the report as Markdown and every fold's scores as CSV in
// the working directory, next to any earlier export rather than over it.
func (s *Screen) export() string {
	var md, csv strings.Builder
	if err := report.SweepMarkdown(&md, s.Live, s.command()); err != nil {
		return "export: " + err.Error()
	}
	if err := report.SweepCSV(&csv, s.Live); err != nil {
		return "export: " + err.Error()
	}
	return s.c.WriteReports("tealab-sweep-"+s.ds.Name+"-"+s.spec.Name, kit.Report{Ext: "md", Text: md.String()}, kit.Report{Ext: "csv", Text: csv.String()})
}

// command is the `tealab train` line that runs the best point in full.
func (s *Screen) command() string {
	best, ok := s.Live.BestPoint()
	if !ok {
		return ""
	}
	rec := runs.Record{Data: s.data, Model: s.spec.Name, Params: best.Params, Options: s.opts}
	return rec.Command()
}

func (s *Screen) ShortHelp() []key.Binding {
	export := s.keys.export
	export.SetEnabled(s.Live != nil && s.Live.Finished() > 0)
	switch {
	case s.Mode == Editing:
		return []key.Binding{s.keys.start}
	case s.asking:
		return []key.Binding{s.keys.confirm, s.keys.stay}
	case s.Mode == Running:
		return []key.Binding{s.keys.cancel, s.keys.prev, export}
	}
	ks := []key.Binding{s.keys.train, s.keys.prev, export}
	if !s.Learning {
		ks = append(ks, s.keys.edit)
	}
	return ks
}

func (s *Screen) FullHelp() [][]key.Binding {
	if s.Mode == Editing || s.asking {
		return kit.HelpOf(s.ShortHelp())
	}
	return kit.HelpOf(s.ShortHelp(), []key.Binding{s.keys.next})
}

// HeaderInfo is what the header says on the right while the screen shows.
func (s *Screen) HeaderInfo() string {
	if s.Live == nil {
		return fmt.Sprintf("%d-fold CV · seed %d", s.opts.Folds, s.opts.Seed)
	}
	return fmt.Sprintf("%s · seed %d · %d of %d points", s.Live.Eval, s.opts.Seed, s.Live.Finished(), len(s.Live.Points))
}

// redraw feeds the chart the points so far.
func (s *Screen) redraw() {
	r := s.Live
	if r == nil || s.heatTable() {
		return
	}
	n := len(r.Points)
	train, val := nanSeries(n), nanSeries(n)
	bands := [][]float64{nanSeries(n), nanSeries(n), nanSeries(n), nanSeries(n)}
	for i, p := range r.Points {
		if !p.OK() {
			continue
		}
		train[i], val[i] = p.TrainMean, p.ValMean
		bands[0][i], bands[1][i] = p.ValMean-p.ValStd, p.ValMean+p.ValStd
		bands[2][i], bands[3][i] = p.TrainMean-p.TrainStd, p.TrainMean+p.TrainStd
	}
	a := r.Axes[0]
	unit := a.Param.Name
	if !s.evenX() {
		unit = "point"
	}
	title := "validation curve: " + r.Metric.Label + " against " + strings.Join(axisNames(r), ", ")
	if r.Random {
		title = "random search: " + r.Metric.Label + " of the drawn settings, in order of " + strings.Join(axisNames(r), ", ")
	}
	if s.Learning {
		title, unit = "learning curve: "+r.Metric.Label+" against the share of each training part", "share"
	}
	s.chart = widgets.NewLineChart(title, unit, s.c.Styles)
	s.chart.SetSeries([]string{"training", "validation"}, [][]float64{train, val})
	s.chart.SetGhosts(bands)
	s.chart.SetLogY(false)
	if s.evenX() {
		x0 := a.Position(a.Values[0])
		s.chart.SetXScale(x0, a.Position(a.Values[1])-x0)
	}
	switch best, ok := r.BestPoint(); {
	case s.Sel != r.Best && r.Points[s.Sel].OK():
		s.chart.SetMark(s.xOf(s.Sel), r.Label(r.Points[s.Sel]))
	case ok && !s.Learning:
		s.chart.SetMark(s.xOf(r.Best), "best "+r.Label(best))
	}
	s.chart.SetSize(s.chartWidth(), max(s.h-4, 6))
}

// xOf is point i's place on the chart's x axis.
func (s *Screen) xOf(i int) float64 {
	a := s.Live.Axes[0]
	if s.evenX() {
		x0 := a.Position(a.Values[0])
		return x0 + float64(i)*(a.Position(a.Values[1])-x0)
	}
	return float64(i + 1)
}

// evenX says whether the chart's x axis is the swept value itself: a grid
// of one evenly spaced parameter; otherwise the points are numbered.
func (s *Screen) evenX() bool {
	return !s.Live.Random && len(s.Live.Axes) == 1 && evenlySpaced(s.Live.Axes[0])
}

// heatTable says whether the sweep is drawn as a heat table: a grid of two
// parameters.
func (s *Screen) heatTable() bool {
	return len(s.Live.Axes) == 2 && !s.Live.Random
}

// evenlySpaced says whether the axis's values are numbers a constant step
// apart, so that the chart's x axis can be the value itself.
func evenlySpaced(a tune.Axis) bool {
	if len(a.Values) < 2 || !a.Numeric() {
		return false
	}
	step := a.Position(a.Values[1]) - a.Position(a.Values[0])
	for i := 2; i < len(a.Values); i++ {
		if math.Abs(a.Position(a.Values[i])-a.Position(a.Values[i-1])-step) > 1e-9*math.Max(1, math.Abs(step)) {
			return false
		}
	}
	return step > 0
}

func nanSeries(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

func (s *Screen) chartWidth() int { return max(s.w-s.tableWidth()-1, 30) }

// tableWidth is what the point table needs, at most half the screen.
func (s *Screen) tableWidth() int { return min(s.labelWidth()+30, max(s.w/2, 34)) }

// labelWidth is the width of the table's first column: the widest label.
func (s *Screen) labelWidth() int {
	w := 4
	if s.Live == nil {
		return w
	}
	w = max(w, len([]rune(strings.Join(axisNames(s.Live), " "))))
	for _, p := range s.Live.Points {
		w = max(w, len([]rune(strings.Join(pointValues(p), " "))))
	}
	return min(w, 16)
}

func (s *Screen) View() string {
	st := s.c.Styles
	if s.spec == nil {
		return st.Muted.Render(" Choose a model first.")
	}
	what := "Sweep of " + s.spec.Title + " (" + s.spec.Name + ")"
	if s.Learning {
		what = "Learning curve of " + s.spec.Title + " (" + s.spec.Name + ")"
	}
	lines := []string{st.Title.Render(kit.Clip(" "+what, s.w))}
	if s.Mode == Editing {
		lines = append(lines,
			st.Muted.Render(kit.Clip(" Ranges: name=lo..hi (every whole number), lo..hi:N (N points, log-spaced for a log parameter or with log:), or a,b,c.", s.w)),
			st.Muted.Render(kit.Clip(" Names and numbers mix where a parameter takes both: gamma=scale,auto,0.01..10:7; choices: kernel=linear,rbf.", s.w)),
			st.Muted.Render(kit.Clip(fmt.Sprintf(" More ranges, after spaces, make a grid. Every point is scored by %d-fold CV on the same folds.", s.opts.Folds), s.w)),
			st.Muted.Render(kit.Clip(fmt.Sprintf(" Add %s=N to draw N settings from the ranges (seed %d) instead of the whole grid.", randomKey, s.opts.Seed), s.w)),
			st.Muted.Render(kit.Clip(fmt.Sprintf(" Add %s=1se to pick the simplest point within one standard error of the best, %s=K to score the whole search by nested CV.", pickKey, nestedKey), s.w)),
			"", " "+s.Input.View(st, 0))
		if s.err != nil {
			lines = append(lines, "", st.Error.Render(kit.Clip(" "+s.err.Error(), s.w)))
		}
		return strings.Join(lines, "\n")
	}
	var body string
	if s.heatTable() {
		body = s.heat(s.w - s.tableWidth() - 1)
	} else {
		body = s.chart.View()
	}
	table := s.pointTable(s.tableWidth(), max(s.h-4, 6))
	// The title, the status and the note take three lines: a tall heat
	// table is cut to the rest, so that the status and a question show.
	lines = append(lines, kit.Fit(joinColumns(body, table, s.chartWidth()), s.w, max(s.h-3, 6)))
	if s.asking {
		lines[len(lines)-1] = kit.OverlayBottom(lines[len(lines)-1], s.askView(), s.w)
	}
	lines = append(lines, s.Status())
	if s.note != "" {
		lines = append(lines, " "+s.c.Styles.Accent.Render(kit.Clip(s.note, s.w-2)))
	}
	return strings.Join(lines, "\n")
}

// joinColumns sets b to the right of a (a padded to width w).
func joinColumns(a, b string, w int) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	out := make([]string, max(len(al), len(bl)))
	for i := range out {
		l, r := "", ""
		if i < len(al) {
			l = al[i]
		}
		if i < len(bl) {
			r = bl[i]
		}
		out[i] = kit.FitWidth(l, w) + " " + r
	}
	return strings.Join(out, "\n")
}

// Status is the line under the chart: progress, the best so far, the
// selected point, what enter does.
func (s *Screen) Status() string {
	st := s.c.Styles
	r := s.Live
	var parts []string
	switch {
	case s.Mode == Running:
		parts = append(parts, fmt.Sprintf("running: %d of %d points · %s", r.Finished(), len(r.Points), numfmt.Seconds(time.Since(s.started).Seconds())))
		if s.nested > 0 && r.Finished() == len(r.Points) {
			parts = append(parts, fmt.Sprintf("nested cross-validation over %d outer folds…", s.nested))
		}
	case r.Cancelled:
		parts = append(parts, fmt.Sprintf("cancelled: %d of %d points kept", r.Finished(), len(r.Points)))
	default:
		parts = append(parts, fmt.Sprintf("done: %d points in %s", len(r.Points), numfmt.Seconds(s.took.Seconds())))
	}
	if best, ok := r.BestPoint(); ok && !s.Learning {
		what := "best "
		if r.Pick == tune.PickOneSE {
			what = "picked by 1se "
		}
		parts = append(parts, what+r.Label(best)+" "+r.Metric.Format(best.ValMean)+" ± "+r.Metric.Format(best.ValStd))
	}
	if n := r.Nested; n != nil && n.Scored() > 0 {
		parts = append(parts, fmt.Sprintf("nested score %s ± %s over %d outer folds", r.Metric.Format(n.Mean), r.Metric.Format(n.Std), n.Scored()))
	}
	line := " " + strings.Join(parts, " · ")
	if s.err != nil {
		return st.Error.Render(kit.Clip(line+" · "+s.err.Error(), s.w))
	}
	return st.Muted.Render(kit.Clip(line, s.w))
}

// pointTable lists the points (value, training, validation), the
// selected one highlighted and kept in view, the best starred.
func (s *Screen) pointTable(w, h int) string {
	st := s.c.Styles
	r := s.Live
	lw := s.labelWidth()
	head := strings.Join(axisNames(r), " ")
	rows := []string{st.Header.Render(kit.Clip(fmt.Sprintf(" %-*s %-13s %s", lw, kit.Clip(head, lw), "training", "validation"), w))}
	first := min(max(s.Sel-(h-2)/2, 0), max(len(r.Points)-(h-1), 0))
	for i := first; i < len(r.Points) && len(rows) < h; i++ {
		p := r.Points[i]
		label := kit.Clip(strings.Join(pointValues(p), " "), lw)
		tr, va := "…", ""
		switch {
		case p.Err != nil:
			tr = "failed"
		case p.OK():
			tr, va = r.Metric.Format(p.TrainMean)+"±"+r.Metric.Format(p.TrainStd), r.Metric.Format(p.ValMean)+"±"+r.Metric.Format(p.ValStd)
		case s.Mode == Done:
			tr = "-"
		}
		mark := " "
		switch {
		case i == s.Sel:
			mark = "▸"
		case i == r.Best && !s.Learning:
			mark = "*"
		}
		line := kit.Clip(fmt.Sprintf("%s%-*s %-13s %s", mark, lw, label, tr, va), w)
		if i == s.Sel {
			line = st.SelectedRow.Render(kit.FitWidth(line, w))
		}
		rows = append(rows, line)
	}
	return strings.Join(rows, "\n")
}

func axisNames(r *tune.Result) []string {
	var out []string
	for _, a := range r.Axes {
		out = append(out, a.Param.Name)
	}
	return out
}

func pointValues(p tune.Point) []string {
	var out []string
	for _, v := range p.Values {
		out = append(out, engine.Format(v))
	}
	return out
}

// heat lays out a two-parameter grid: the first parameter down, the second
// across, each cell its validation mean on the theme's heat scale (and a
// shade glyph, so it reads without colour); the selected cell in brackets,
// the best starred.
func (s *Screen) heat(w int) string {
	st := s.c.Styles
	r := s.Live
	a, b := r.Axes[0], r.Axes[1]
	cellW := 10
	lines := []string{st.Muted.Render(kit.Clip(fmt.Sprintf(" validation %s: %s down, %s across", r.Metric.Label, a.Param.Name, b.Param.Name), w))}
	head := fmt.Sprintf(" %-8s", "")
	for _, v := range b.Values {
		head += fmt.Sprintf("%*s", cellW, kit.Clip(engine.Format(v), cellW-1))
	}
	lines = append(lines, st.Header.Render(kit.Clip(head, w)))
	for i, va := range a.Values {
		var row strings.Builder
		row.WriteString(fmt.Sprintf(" %-8s", kit.Clip(engine.Format(va), 8)))
		for j := range b.Values {
			k := i*len(b.Values) + j
			p := r.Points[k]
			text := "…"
			if p.Err != nil {
				text = "failed"
			} else if p.OK() {
				text = numfmt.Shade(r.Standing(k)) + r.Metric.Format(p.ValMean)
				if k == r.Best {
					text += "*"
				}
			}
			if k == s.Sel {
				text = "[" + text + "]"
			}
			cell := fmt.Sprintf("%*s", cellW, text)
			if !st.Colorless && len(st.Heat) > 0 && p.OK() {
				cell = st.Heat[min(int(r.Standing(k)*float64(len(st.Heat))), len(st.Heat)-1)].Render(cell)
			}
			row.WriteString(cell)
		}
		lines = append(lines, kit.FitWidth(row.String(), w))
	}
	return strings.Join(lines, "\n")
}

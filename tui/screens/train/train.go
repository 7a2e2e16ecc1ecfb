package train

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/live"
)

type keys struct {
	cancel  key.Binding
	logY    key.Binding
	page    key.Binding
	confirm key.Binding
	stay    key.Binding
}

// DefaultKeys are the training screen's key bindings.
func DefaultKeys() keys {
	return keys{
		cancel:  kit.Bind("c", "cancel (keeps what finished)", "c"),
		logY:    kit.Bind("L", "log/linear y", "L"),
		page:    kit.Bind("tab", "charts", "tab"), // its help says which page (pageKey)
		confirm: kit.Bind("y", "stop, keep what finished", "y", "enter"),
		stay:    kit.Bind("n/esc", "keep training", "n", "esc"),
	}
}

// Screen draws a run while it trains: its live views (the training
// loss and the validation curves, the current fold bright and the folds
// before it faint, and its family's own pictures; see live.go), a progress
// bar with step, fold, elapsed time and ETA, the latest values
// beside the baseline. All of its state comes from messages (progressMsg,
// trainDoneMsg) handled in Update. Leaving it (esc) or quitting (q) while
// the fit runs asks first, and stopping keeps what finished.
type Screen struct {
	c      *kit.Common
	keys   keys
	Run    *kit.RunRecord
	queued int // the run's place in line for a training slot; 0 training

	// Hist holds each fold's history so far, one entry per step (NaN
	// where validation was not computed); the last is the current fold.
	Hist    [][]eval.Point
	Fold    int // the current fold, 1-based
	folds   int
	Last    eval.Progress
	lastVal eval.Point // the latest step that had validation
	got     bool

	baseErr  float64 // error of the majority class / mean predictor on all rows
	stopping bool    // cancel pressed, waiting for the partial result
	asking   string  // "leave" or "quit" while the person is asked to confirm; "" otherwise
	Finished bool
	err      error
	Live     live.Set
	bar      progress.Model
	barTheme string
	w, h     int
}

// New is the training screen, drawn with c.
func New(c *kit.Common) *Screen {
	return &Screen{c: c, keys: DefaultKeys()}
}

// Start resets the screen for run r.
func (s *Screen) Start(r *kit.RunRecord) {
	s.Run = r
	s.Fold, s.folds = 1, 1
	s.Hist = [][]eval.Point{nil}
	s.Last, s.lastVal, s.got = eval.Progress{}, eval.Point{ValLoss: math.NaN(), ValError: math.NaN()}, false
	s.stopping, s.Finished, s.err, s.asking, s.queued = false, false, nil, "", 0
	s.baseErr = eval.BaselineError(r.Dataset)
	s.Live = live.NewSet(s.c, r)
	s.SetSize(s.w, s.h)
	s.refreshCharts()
}

// Progress appends the steps of a message of the current run.
func (s *Screen) Progress(m kit.ProgressMsg) {
	if s.Run == nil || m.Run != s.Run.ID || len(m.Steps) == 0 {
		return
	}
	relayout := false
	for _, p := range m.Steps {
		if p.Within > 0 { // a long step's progress: the bar and the clock move, no chart does
			s.Last = p
			continue
		}
		relayout = s.Live.Observe(p.Point) || relayout
		if p.Fold != s.Fold && p.Fold > 0 {
			s.Fold = p.Fold
			s.Hist = append(s.Hist, nil)
		}
		s.folds = max(p.Folds, 1)
		cur := len(s.Hist) - 1
		s.Hist[cur] = append(s.Hist[cur], p.Point)
		if !math.IsNaN(p.Point.ValLoss) || !math.IsNaN(p.Point.ValError) {
			s.lastVal = p.Point
		}
		s.Last = p
		s.got = true
		s.Run.Observe(p)
	}
	if relayout {
		s.SetSize(s.w, s.h)
	}
	s.refreshCharts()
}

func (s *Screen) refreshCharts() {
	if s.Run == nil {
		return
	}
	foldNote := ""
	switch {
	case s.Fold > s.folds:
		foldNote = " · final fit on all rows"
	case s.folds > 1:
		foldNote = fmt.Sprintf(" · fold %d/%d", s.Fold, s.folds)
		if s.Fold > 1 {
			foldNote += " (earlier folds faint)"
		}
	}
	s.Live.Show(s.Hist, len(s.Hist)-1, foldNote)
}

// Partial is the history of run id received so far (the current fold's)
// and that fold (1-based), for a run abandoned before its result came.
func (s *Screen) Partial(id int) ([]eval.Point, int) {
	if s.Run == nil || s.Run.ID != id || len(s.Hist) == 0 {
		return nil, 0
	}
	return append([]eval.Point(nil), s.Hist[len(s.Hist)-1]...), s.Fold
}

// Done shows how the run ended (the root then switches to the results).
func (s *Screen) Done(r *kit.RunRecord) {
	if s.Run == nil || r.ID != s.Run.ID {
		return
	}
	s.Finished, s.stopping, s.asking = true, false, ""
	if r.Err != nil && !r.Cancelled() {
		s.err = r.Err
	}
}

func (s *Screen) wide() bool { return s.w >= kit.WideW && s.h >= kit.WideH }

// sideWidth is the width of the live figures' column in the wide layout.
func (s *Screen) sideWidth() int { return min(max(s.w/4, 44), 64) }

func (s *Screen) SetSize(w, h int) {
	s.w, s.h = w, h
	if s.Run == nil {
		return
	}
	ch := max(h-3, 5)
	if s.wide() {
		s.Live.SetSize(w-s.sideWidth(), ch, true)
		return
	}
	s.Live.SetSize(w, ch, false)
}

// ShownRun is the run the screen shows (the help offers its keys).
func (s *Screen) ShownRun() *kit.RunRecord { return s.Run }

func (s *Screen) Typing() bool { return false }

// Back asks before leaving a running fit; while asking, esc keeps training.
func (s *Screen) Back() bool {
	switch {
	case s.asking != "":
		s.asking = ""
		return true
	case s.running() && !s.stopping:
		s.asking = "leave"
		return true
	}
	return false
}

// AskQuit asks before quitting while the fit runs; false lets q quit.
func (s *Screen) AskQuit() bool {
	if s.running() && s.asking == "" {
		s.asking = "quit"
		return true
	}
	return false
}

func (s *Screen) running() bool { return s.Run != nil && !s.Finished }

func (s *Screen) ShortHelp() []key.Binding {
	if s.asking != "" {
		confirm := s.keys.confirm
		if s.asking == "quit" {
			confirm.SetHelp("y", "quit (the run is lost)")
		}
		return []key.Binding{confirm, s.keys.stay}
	}
	c := s.keys.cancel
	c.SetEnabled(s.running() && !s.stopping)
	return []key.Binding{c, s.pageKey(), s.keys.logY}
}

// pageKey is the key to the next page of charts, saying which is shown
// ("charts 1/3"); disabled when they all fit.
func (s *Screen) pageKey() key.Binding {
	k := s.keys.page
	page, pages := s.Live.PageOf()
	k.SetHelp("tab", fmt.Sprintf("charts %d/%d", page, pages))
	k.SetEnabled(pages > 1 && !s.oneStepCard())
	return k
}

func (s *Screen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.ShortHelp()}
}

// HeaderInfo is what the header says on the right while the screen shows.
func (s *Screen) HeaderInfo() string {
	if s.Run == nil {
		return ""
	}
	return fmt.Sprintf("run %d · seed %d · %s", s.Run.ID, s.Run.Options.Seed, s.Run.EvalDesc())
}

func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if s.asking != "" {
		switch {
		case key.Matches(km, s.keys.confirm):
			asked := s.asking
			s.asking = ""
			if asked == "quit" {
				return func() tea.Msg { return kit.QuitMsg{} }
			}
			return s.cancel()
		case key.Matches(km, s.keys.stay):
			s.asking = ""
		}
		return nil
	}
	switch {
	case key.Matches(km, s.keys.cancel) && s.running() && !s.stopping:
		return s.cancel()
	case key.Matches(km, s.keys.logY):
		s.Live.SetLogY(!s.Live.LogY)
	case key.Matches(km, s.pageKey()):
		s.Live.NextPage()
	}
	return nil
}

// cancel stops the run; its partial result (the folds that finished, every
// history) still arrives and is shown.
func (s *Screen) cancel() tea.Cmd {
	if !s.running() || s.stopping {
		return nil
	}
	s.stopping = true
	id := s.Run.ID // the command runs on another goroutine: no screen state in it
	return func() tea.Msg { return kit.CancelRunMsg{Run: id} }
}

func (s *Screen) View() string {
	st := s.c.Styles
	if s.Run == nil {
		return st.Muted.Render(" Nothing is training. Choose a model and press enter on its parameters.")
	}
	if s.err != nil {
		return s.errorView()
	}
	var body string
	if s.oneStepCard() {
		body = kit.OneStepCard(s.c, s.Run, s.Hist, s.Last.Elapsed.Seconds(), s.w)
		body = kit.Fit(body, s.w, max(s.h-3, 5))
	} else if s.wide() {
		body = lipgloss.JoinHorizontal(lipgloss.Top, s.Live.View(), s.liveFigures(s.sideWidth(), max(s.h-3, 5)))
	} else {
		body = s.Live.View()
	}
	if s.asking != "" {
		body = kit.OverlayBottom(body, s.askView(), s.w)
	}
	return body + "\n" + s.statusLines()
}

// oneStepCard says the run is drawn as a card, not as charts: every fold
// was fitted in one step.
func (s *Screen) oneStepCard() bool { return s.got && s.Last.Total == 1 && kit.OneStep(s.Hist) }

// liveFigures is the wide layout's column: the latest values against the
// baseline, each finished fold's last validation figures, and the run's
// settings.
func (s *Screen) liveFigures(w, h int) string {
	st := s.c.Styles
	r := s.Run
	// The names are as wide as the longest the step reports ("dense 1
	// |grad| min" beside "dense 1 |grad| max"), with a space after them,
	// as far as the column leaves room for a value.
	figures := engine.FiguresOf(s.Last.Point.Detail)
	keyW := len("out-of-bag error") + 1
	for _, f := range figures {
		keyW = max(keyW, lipgloss.Width(figureName(f))+1)
	}
	keyW = min(keyW, max(w-4-10, 17))
	kv := func(k, v string) string {
		return st.Muted.Render(kit.FitWidth(k, keyW)) + st.Value.Render(v)
	}
	lossName, errName := kit.ValNames(r.Task())
	lines := []string{st.Header.Render("now"), kv(kit.LossTitle(r), numfmt.Score(s.Last.Point.TrainLoss))}
	// What the model reports besides (a tree's nodes, a forest's
	// out-of-bag rows, a boosting round's weighted error and vote).
	for _, f := range figures {
		lines = append(lines, kv(figureName(f), figureValue(f)))
	}
	if r.Task().Supervised() {
		lines = append(lines, kv(lossName, numfmt.Score(s.lastVal.ValLoss)), kv(errName, numfmt.Score(s.lastVal.ValError)))
		if !math.IsNaN(s.baseErr) {
			what := "baseline error"
			if r.Task() == datasets.Regression {
				what = "baseline RMSE"
			}
			lines = append(lines, kv(what, numfmt.Score(s.baseErr)))
		}
	}
	if len(s.Hist) > 1 {
		lines = append(lines, "", st.Header.Render("folds finished (last step)"))
		for f, h := range s.Hist[:len(s.Hist)-1] {
			if len(h) == 0 {
				continue
			}
			p := h[len(h)-1]
			lines = append(lines, kv(fmt.Sprintf("fold %d", f+1), errName+" "+numfmt.Score(p.ValError)))
		}
	}
	lines = append(lines, "", st.Header.Render("settings"))
	for _, l := range strings.Split(kit.Wrap(kit.KeyParams(r.Spec, r.Params), w-4), "\n") {
		lines = append(lines, st.Text.Render(l))
	}
	lines = append(lines, st.Muted.Render(kit.Clip(r.EvalDesc()+" · seed "+fmt.Sprint(r.Options.Seed), w-4)))
	return kit.Panel(st, "live figures", strings.Join(lines, "\n"), w, h, false)
}

// askView is the question asked before leaving or quitting a running fit.
func (s *Screen) askView() string {
	st := s.c.Styles
	q := "Stop training? The folds that finished keep their scores, and every history is kept."
	yes := "y stop and show what finished"
	if s.asking == "quit" {
		q = "Quit while training? This run is lost (ctrl+c quits at once)."
		yes = "y quit"
	}
	return kit.AskPanel(st, s.w, "training is running", q, yes, "n keep training")
}

// statusLines are the progress bar and the latest values.
func (s *Screen) statusLines() string {
	st := s.c.Styles
	p := s.Last
	unit := s.Run.Spec.Unit
	if unit == "" {
		unit = "step"
	}
	frac := math.NaN()
	// The final fit on all rows after cross-validation counts as one
	// more fold.
	folds := max(p.Folds, 1)
	if folds > 1 {
		folds++
	}
	if p.Total > 0 {
		frac = (float64(p.Fold-1) + (float64(p.Point.Step)+p.Within)/float64(p.Total)) / float64(folds)
	} else if p.Folds > 1 {
		frac = float64(p.Fold-1) / float64(folds)
	}
	if s.Finished {
		frac = 1
	}
	var info []string
	switch {
	case s.queued > 0:
		info = append(info, "waiting for a training slot ("+numfmt.Ordinal(s.queued)+" in line)")
	case !s.got:
		info = append(info, "starting…")
	case p.Total > 0:
		info = append(info, fmt.Sprintf("%d/%d %ss", p.Point.Step, p.Total, unit))
	default:
		info = append(info, fmt.Sprintf("%s %d", unit, p.Point.Step))
	}
	switch {
	case p.Final:
		info = append(info, "final fit on all rows")
	case p.Folds > 1:
		info = append(info, fmt.Sprintf("fold %d/%d", p.Fold, p.Folds))
	}
	elapsed := p.Elapsed
	if s.Finished {
		elapsed = s.Run.Wall
	}
	info = append(info, numfmt.Seconds(elapsed.Seconds()))
	if !math.IsNaN(frac) && frac > 0 && frac < 1 && !s.Finished {
		eta := time.Duration(float64(elapsed) * (1 - frac) / frac)
		info = append(info, "ETA "+numfmt.Seconds(eta.Seconds()))
	}
	switch {
	case s.stopping:
		info = append(info, st.Warn.Render("cancelling…"))
	case s.Finished:
		info = append(info, "done")
	}
	barW := min(max(s.w/3, 20), 50)
	var barView string
	if math.IsNaN(frac) {
		barView = st.Muted.Render(strings.Repeat("░", barW))
	} else {
		barView = s.progressBar(barW).ViewAs(frac)
	}
	line1 := " " + barView + "  " + st.Text.Render(strings.Join(info, " · "))

	lossName, errName := kit.ValNames(s.Run.Task())
	vals := []string{st.Muted.Render(kit.LossTitle(s.Run)+" ") + st.Value.Render(numfmt.Score(p.Point.TrainLoss))}
	for _, f := range engine.FiguresOf(p.Point.Detail) {
		vals = append(vals, st.Muted.Render(figureName(f)+" ")+st.Value.Render(figureValue(f)))
	}
	if s.Run.Task().Supervised() {
		vals = append(vals,
			st.Muted.Render(lossName+" ")+st.Value.Render(numfmt.Score(s.lastVal.ValLoss)),
			st.Muted.Render(errName+" ")+st.Value.Render(numfmt.Score(s.lastVal.ValError)))
		if !math.IsNaN(s.baseErr) {
			what := "baseline error"
			if s.Run.Task() == datasets.Regression {
				what = "baseline RMSE"
			}
			vals = append(vals, st.Muted.Render(fmt.Sprintf("(%s %s)", what, numfmt.Score(s.baseErr))))
		}
	}
	line2 := " " + strings.Join(vals, "   ")
	line3 := " " + st.Muted.Render(kit.Clip(s.Run.Spec.Title+" · "+kit.KeyParams(s.Run.Spec, s.Run.Params), s.w-2))
	return line1 + "\n" + line2 + "\n" + line3
}

// progressBar is a bubbles progress bar in the theme's accent colour, drawn
// with ViewAs (no animation: the bar follows the messages).
func (s *Screen) progressBar(w int) progress.Model {
	if s.barTheme != s.c.ThemeName() || s.bar.Width() != w {
		s.bar = progress.New(progress.WithWidth(w), progress.WithoutPercentage(), progress.WithFillCharacters('█', '░'))
		s.bar.FullColor, s.bar.EmptyColor = s.c.Styles.Theme.Accent, s.c.Styles.Theme.Subtle
		if s.c.Styles.Colorless { // bubbles' own colours would show even in the mono theme
			s.bar.FullColor, s.bar.EmptyColor = nil, nil
		}
		s.barTheme = s.c.ThemeName()
	}
	return s.bar
}

// errorView explains a failed run and the way back.
func (s *Screen) errorView() string {
	st := s.c.Styles
	var hint string
	var de *eval.DivergedError
	switch {
	case errors.As(s.err, &de):
		hint = "The loss stopped being a number. Lower the learning rate or standardise the features, then train again."
	case errors.Is(s.err, eval.ErrPanic):
		hint = "This is a bug in the model; other models still work."
	case errors.Is(s.err, engine.ErrNotFitted):
		hint = "The model could not be fitted on this data."
	default:
		hint = "Change the parameters or the data and train again."
	}
	body := st.Error.Render("training failed") + "\n\n" +
		st.Text.Render(kit.Wrap(s.c.ErrText(s.err), s.w-8)) + "\n\n" +
		st.Muted.Render(kit.Wrap(hint, s.w-8)) + "\n\n" +
		st.Key.Render("esc") + st.Muted.Render(" back to the parameters")
	return kit.Panel(st, fmt.Sprintf("run %d · %s", s.Run.ID, s.Run.Spec.Title), body, s.w, min(s.h, 14), true)
}

// figureName is how a step's figure is labelled: its name in words.
func figureName(f engine.Figure) string { return strings.ReplaceAll(f.Name, "_", " ") }

// figureValue is a step's figure as shown: a count (a tree's nodes, a
// sweep's non-zero weights) exactly, any other value as a score.
func figureValue(f engine.Figure) string {
	if f.Value == math.Trunc(f.Value) {
		return numfmt.Value(f.Value)
	}
	return numfmt.Score(f.Value)
}

// SetQueued shows the run waiting for a training slot at place (1: next;
// 0: training).
func (s *Screen) SetQueued(place int) { s.queued = place }

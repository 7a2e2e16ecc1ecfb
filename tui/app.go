// Package tui is tealab's interactive lab: a bubbletea program with a small
// root router (app) and one package per screen under screens/ (data, model,
// parameters, training, results, runs, Experimenter, sweep) that share the
// kit's Common (size, styles, theme, the session's files). The result views
// (views) and the live views (live) register themselves; widgets draws.
// The root only routes: global keys, size fan-out, app-wide messages, then
// hand-off to the focused screen, whose state it changes only through the
// screen's methods.
//
// Training never runs in Update: see jobs.go.
package tui

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/tealab/tealab/advice"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/themes"
	"github.com/tealab/tealab/tui/kit"
	"github.com/tealab/tealab/tui/screens/data"
	"github.com/tealab/tealab/tui/screens/experimenter"
	"github.com/tealab/tealab/tui/screens/features"
	"github.com/tealab/tealab/tui/screens/lectures"
	"github.com/tealab/tealab/tui/screens/model"
	"github.com/tealab/tealab/tui/screens/params"
	"github.com/tealab/tealab/tui/screens/results"
	"github.com/tealab/tealab/tui/screens/runlist"
	"github.com/tealab/tealab/tui/screens/sweep"
	"github.com/tealab/tealab/tui/screens/train"
	"github.com/tealab/tealab/tui/views"
	"github.com/tealab/tealab/tui/widgets"
)

// Options are the lab's start-up choices (the CLI flags of `tealab`).
type Options struct {
	Data   string        // data source as datasets.Open reads it; "" starts on the data screen
	Target string        // target column; "" is the last column, "-" none
	Model  string        // model name; "" starts on the model screen (or the data screen)
	Params engine.Values // Model's hyperparameters, parsed and valid (nil: its defaults)
	Train  bool          // start training at once (needs Data and Model)
	// Eval is how runs are scored (the evaluation settings, eval.Settings);
	// nil: the declared defaults.
	Eval *eval.Options
	Task string   // "" infers it from the target; else as datasets.ParseTask reads it
	Drop []string // columns to leave out
	// Test is a supplied test set to score on (as datasets.Open reads it):
	// the evaluation starts as "supplied test set"; "" a split.
	Test  string
	Theme string // dark, light, high-contrast or mono; "" picks from the terminal

	// The terminal: Run fills these in for the process's own.
	Profile colorprofile.Profile // its colour profile (NoTTY, ASCII: no colour)
	NoColor bool                 // its NO_COLOR

	// For a lab on another terminal than the process's (session.go):
	Context   context.Context    // ends the lab's runs when done; nil: never
	Files     *Files             // confines its files; nil: the process's
	TrainSlot TrainSlot          // waits for a slot before each run; nil: none
	Memory    *engine.Accountant // shares the memory with other labs' runs; nil: none
}

// evalOptions are the start-up evaluation settings, defaults filled in.
func (o Options) evalOptions() eval.Options {
	if o.Eval == nil {
		return eval.DefaultOptions()
	}
	return *o.Eval
}

// saveWait is how long the end of the lab waits for files being written.
const saveWait = 5 * time.Second

// Run opens the lab on the terminal and returns when the person quits. The
// error is non-nil only for failures (an unknown theme, a terminal error, a
// panic: crash.go).
func Run(opt Options) error {
	var logf func(string, ...any)
	if os.Getenv("DEBUG") != "" {
		f, err := tea.LogToFile("tealab-debug.log", "tealab")
		if err != nil {
			return err
		}
		defer f.Close()
		logf = log.Printf
	}
	opt.NoColor = themes.NoColor(os.Getenv)
	opt.Profile = colorprofile.Detect(os.Stdout, os.Environ())
	if opt.NoColor { // any value: colorprofile reads only NO_COLOR=1, true...
		opt.Profile = min(opt.Profile, colorprofile.ASCII)
	}
	a, err := newApp(opt)
	if err != nil {
		return err
	}
	a.c.Logf = logf
	g := &guarded{a: a}
	_, err = g.program(tea.WithColorProfile(opt.Profile)).Run()
	if err = g.end(err); errors.Is(err, tea.ErrInterrupted) {
		return nil
	}
	return err
}

// screenID names the screens, in the order a person goes through them.
type screenID int

const (
	screenData screenID = iota
	screenModel
	screenParams
	screenTrain
	screenResults
	screenRuns
	screenExperiment
	screenSweep
	screenFeatures
	screenLectures
	numScreens
)

var screenNames = [numScreens]string{"data", "model", "parameters", "training", "results", "runs", "experimenter", "sweep", "features", "lectures' experiments"}

// screen is one page of the lab. Screens are pointers mutated only in Update.
type screen interface {
	Update(tea.Msg) tea.Cmd
	View() string
	SetSize(w, h int)
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
	// Typing reports whether a text field has the keyboard: letter keys then
	// go to it, not to the global bindings.
	Typing() bool
	// Back closes an inner mode (a picker, a form, a comparison) and reports
	// whether it did; if not, esc goes to the previous screen.
	Back() bool
}

// app is the root model.
type app struct {
	c      *kit.Common
	keys   kit.GlobalKeys
	help   help.Model
	full   bool // full help shown
	w, h   int  // terminal size
	cur    screenID
	prev   screenID // where esc goes from the runs screen
	ctx    context.Context
	cancel context.CancelFunc

	screens [numScreens]screen
	data    *data.Screen
	model   *model.Screen
	params  *params.Screen
	train   *train.Screen
	results *results.Screen
	runs    *runlist.Screen
	exp     *experimenter.Screen
	sweep   *sweep.Screen
	feats   *features.Screen
	lect    *lectures.Screen
	lectOf  screenID // where the experiments were opened from: esc goes back there

	// The session: what has been chosen so far.
	ds     *datasets.Dataset
	source string
	target string   // as chosen on the data screen: "" the last column, NoTarget none
	task   string   // as forced at start-up (--task); "" inferred
	drop   []string // columns dropped on the data screen or with --drop
	spec   *engine.Spec

	job     *trainJob // the run in flight, nil when none
	quitJob *trainJob // the run quit() stopped (Run waits for it too)
	nextRun int
	history []*kit.RunRecord
	store   *runs.History // the run history; nil when off (history.go)

	startup     *Options      // start-up choices not applied yet
	replayOf    *runs.Data    // the data of the run being replayed, until its new run starts
	startupTask datasets.Task // Options.Task parsed (datasets.Auto: infer)
}

func newApp(opt Options) (*app, error) {
	c, err := kit.NewCommon(opt.Theme, opt.Profile, opt.NoColor)
	if err != nil {
		return nil, err
	}
	task := datasets.Auto
	if opt.Task != "" {
		if task, err = datasets.ParseTask(opt.Task); err != nil {
			return nil, err
		}
	}
	c.Files, c.Slot, c.Memory, c.Remedy = opt.Files, opt.TrainSlot, opt.Memory, remedyText
	parent := opt.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	a := &app{c: c, keys: kit.DefaultGlobalKeys(), help: help.New(), ctx: ctx, cancel: cancel, nextRun: 1, startupTask: task}
	a.help.Styles = widgets.HelpStyles(c.Styles)
	a.help.ShortSeparator = " · "
	evalOpts := opt.evalOptions()
	a.data = data.New(c)
	a.model = model.New(c)
	a.params = params.New(c, evalOpts)
	a.params.ScoreOn(opt.Test)
	a.train = train.New(c)
	a.results = results.New(c, ctx)
	a.runs = runlist.New(c)
	a.exp = experimenter.New(c, ctx)
	a.sweep = sweep.New(c, ctx)
	a.feats = features.New(c, ctx)
	a.lect = lectures.New(c, ctx)
	a.screens = [numScreens]screen{a.data, a.model, a.params, a.train, a.results, a.runs, a.exp, a.sweep, a.feats, a.lect}
	a.store = c.Store()
	if opt.Data != "" || opt.Model != "" {
		o := opt // with a model but no data: applied once the data are chosen
		a.startup = &o
	}
	return a, nil
}

// Init asks the terminal its background colour, when the theme follows it,
// and reads the run history first (history.go), then applies the start-up
// choice, so that the session's runs are numbered after the earlier
// sessions'. The first frame does not wait for the background: it is drawn
// dark, and redrawn light if the terminal says so.
func (a *app) Init() tea.Cmd {
	var ask tea.Cmd
	if a.c.FollowsBackground() {
		ask = tea.RequestBackgroundColor
	}
	if cmd := a.loadHistory(); cmd != nil {
		return tea.Batch(ask, cmd)
	}
	return tea.Batch(ask, a.openStartup())
}

// openStartup opens the start-up choice of data, if any.
func (a *app) openStartup() tea.Cmd {
	if a.startup != nil && a.startup.Data != "" {
		// With a model, go straight on to it; with data alone, stay on
		// the data's preview (its picture) until the person goes on.
		auto := a.startup.Model != ""
		return a.data.Open(a.startup.Data, a.startup.Target, a.startupTask, a.startup.Drop, auto)
	}
	return nil
}

func (a *app) Update(msg tea.Msg) (*app, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		a.c.SetBackground(msg.IsDark())
		return a, nil
	case tea.ColorProfileMsg:
		a.c.SetProfile(msg.Profile)
		return a, nil
	case tea.PasteMsg:
		// A paste is text for the field being typed in, never commands:
		// it reaches the field as one key press that types it all (the way
		// every field takes typed text), and is dropped when none is.
		if !a.screens[a.cur].Typing() || msg.Content == "" {
			return a, nil
		}
		return a, a.screens[a.cur].Update(tea.KeyPressMsg{Text: msg.Content})
	case tea.WindowSizeMsg:
		a.w, a.h = msg.Width, msg.Height
		a.c.Width, a.c.Height = max(msg.Width, kit.MinWidth), max(msg.Height-2, kit.MinHeight-2)
		a.help.SetWidth(a.c.Width)
		for _, s := range a.screens {
			s.SetSize(a.c.Width, a.c.Height)
		}
		return a, a.results.Resized()
	case tea.KeyPressMsg:
		if cmd, done := a.globalKey(msg); done {
			return a, cmd
		}
	case kit.ProgressMsg:
		if a.job == nil || msg.Run != a.job.id {
			return a, nil // a stale run: drop it and stop listening
		}
		a.train.Progress(msg)
		return a, waitFor(a.job)
	case queuedMsg:
		if a.job == nil || msg.run != a.job.id {
			return a, nil
		}
		a.train.SetQueued(msg.place)
		return a, waitFor(a.job)
	case trainDoneMsg:
		if a.job == nil || msg.run != a.job.id {
			return a, nil
		}
		return a, a.finishRun(msg)
	case kit.DatasetChosenMsg:
		return a, a.chooseDataset(msg)
	case kit.ModelChosenMsg:
		return a, a.chooseModel(msg.Spec, nil)
	case kit.TrainRequestMsg:
		return a, a.startRun(msg.Values, msg.Opts)
	case kit.SweepRequestMsg:
		cmd := a.sweep.Open(a.runData(), a.ds, a.spec, msg)
		a.goTo(screenSweep)
		return a, cmd
	case sweep.PointsMsg, sweep.DoneMsg: // the sweep's, whichever screen shows
		return a, a.sweep.Update(msg)
	case kit.SweepTrainMsg:
		a.params.SetModel(a.ds, a.spec, msg.Values, &msg.Opts)
		return a, a.startRun(msg.Values, msg.Opts)
	case views.RegionsMsg, views.RegionsResizeMsg: // views work in the background whichever screen shows
		return a, a.results.Update(msg)
	case results.ModelSavedMsg: // a save started on the results screen ends wherever the lab is
		return a, a.results.Update(msg)
	case kit.TableLoadedMsg, data.DirReadMsg, data.FileChosenMsg: // the data screen's, whichever screen shows
		return a, a.data.Update(msg)
	case kit.QuitMsg:
		return a, a.quit()
	case kit.OpenFeaturesMsg:
		cmd := a.openFeatures(msg.Ds)
		a.goTo(screenFeatures)
		return a, cmd
	case features.ProgressMsg, features.RankedMsg, features.DoneMsg: // the ranking's, whichever screen shows
		return a, a.feats.Update(msg)
	case kit.OpenLecturesMsg:
		if a.cur != screenLectures {
			a.lectOf = a.cur
		}
		a.goTo(screenLectures)
		return a, nil
	case lectures.FrameMsg, lectures.DoneMsg, lectures.SavedMsg, lectures.TickMsg: // the experiment's, whichever screen shows
		return a, a.lect.Update(msg)
	case kit.OpenExperimentMsg:
		a.exp.SetData(a.ds)
		a.goTo(screenExperiment)
		return a, nil
	case experimenter.Msg: // the Experimenter's, whichever screen shows
		return a, a.exp.Update(msg)
	case kit.CancelRunMsg:
		if a.job != nil && msg.Run == a.job.id {
			a.job.cancel() // the partial result still arrives
		}
		return a, nil
	case kit.ShowRunMsg:
		switch r := a.run(msg.Run); {
		case r == nil || !r.Done():
		case r.Dataset == nil:
			return a, openPast(r, a.c)
		default:
			return a, a.showRun(r)
		}
		return a, nil
	case historyLoadedMsg:
		a.historyLoaded(msg)
		return a, a.openStartup()
	case historySavedMsg:
		return a, a.historySaved(msg)
	case pastDataMsg:
		return a, a.showPast(msg)
	case kit.RunsNoteMsg:
		if msg.Note != "" {
			a.runs.SetNote(a.c.Hide(msg.Note))
		}
		return a, nil
	case runlist.ActionMsg:
		return a, a.runAction(msg)
	case kit.RetrainMsg:
		if r := a.run(msg.Run); r != nil && r.Spec != nil {
			a.ds, a.source, a.target, a.task, a.drop, a.spec = r.Dataset, r.Data.Source, r.Data.Target, r.Data.Task, r.Data.Drop, r.Spec
			a.model.SetData(r.Dataset, r.Spec.Name)
			if r.Data.Test != "" {
				a.params.KeepTest(r.Data.Test, r.Dataset, r.Options.Test)
			}
			a.params.SetModel(r.Dataset, r.Spec, r.Params, &r.Options)
			a.goTo(screenParams)
		}
		return a, nil
	}
	return a, a.screens[a.cur].Update(msg)
}

// globalKey handles the keys every screen shares; done says the key was used.
func (a *app) globalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	typing := a.screens[a.cur].Typing()
	switch {
	case msg.String() == "ctrl+c":
		return a.quit(), true
	case !typing && key.Matches(msg, a.keys.Quit):
		// A screen with work to lose (a running fit) asks first.
		if s, ok := a.screens[a.cur].(interface{ AskQuit() bool }); ok && s.AskQuit() {
			return nil, true
		}
		return a.quit(), true
	case typing && msg.String() != "esc":
		return nil, false
	case key.Matches(msg, a.keys.Help):
		a.full = !a.full
		return nil, true
	case key.Matches(msg, a.keys.Theme):
		a.c.CycleTheme()
		a.help.Styles = widgets.HelpStyles(a.c.Styles)
		return nil, true
	case key.Matches(msg, a.keys.Runs) && a.cur != screenRuns:
		a.prev = a.cur
		a.runs.SetRuns(a.history)
		a.goTo(screenRuns)
		return nil, true
	case key.Matches(msg, a.keys.Back):
		if a.full {
			a.full = false
			return nil, true
		}
		if a.screens[a.cur].Back() {
			return nil, true
		}
		return a.back(), true
	}
	return nil, false
}

// back goes to the previous screen; leaving the training screen abandons the
// run (its messages are dropped from now on).
func (a *app) back() tea.Cmd {
	switch a.cur {
	case screenModel:
		a.goTo(screenData)
	case screenParams:
		a.goTo(screenModel)
	case screenTrain:
		a.abandon()
		a.goTo(screenParams)
	case screenResults:
		if a.results.FromRuns {
			a.goTo(screenRuns)
		} else {
			a.goTo(screenParams)
		}
	case screenRuns:
		a.goTo(a.prev)
	case screenExperiment:
		a.exp.Stop()
		a.goTo(screenModel)
	case screenSweep:
		a.sweep.Stop()
		a.goTo(screenParams)
	case screenFeatures:
		a.feats.Stop()
		a.goTo(screenData)
	case screenLectures:
		a.goTo(a.lectOf) // an experiment computing goes on, and is recorded when it ends
	}
	return nil
}

// openFeatures ranks ds's features; permutation importance by the
// session's model (its form's values), when one is chosen and does the
// task, evaluated as the form says (a supplied test set or a cost matrix
// belong to the session's data, not to the preview's: a hold-out then).
func (a *app) openFeatures(ds *datasets.Dataset) tea.Cmd {
	opts, err := a.params.Options()
	if err != nil || opts.Test != nil {
		opts = eval.DefaultOptions()
	}
	opts.Costs = nil
	var v engine.Values
	if a.spec != nil && a.params.Spec == a.spec {
		v = a.params.ModelValues()
	}
	return a.feats.Open(ds, a.spec, v, opts)
}

func (a *app) goTo(s screenID) {
	a.cur = s
	a.full = false
}

// quit cancels a run in flight, waits briefly for it to stop, then quits.
func (a *app) quit() tea.Cmd {
	j, sw := a.job, a.sweep.Job
	a.job, a.quitJob = nil, j
	a.cancel()
	return func() tea.Msg {
		j.Stop(kit.QuitWait)
		sw.Stop()
		return tea.QuitMsg{}
	}
}

// abandon cancels the run in flight without waiting; its messages are
// dropped. The run keeps the history the training screen had received.
func (a *app) abandon() {
	if a.job != nil {
		a.job.cancel()
		if r := a.run(a.job.id); r != nil && !r.Done() {
			hist, fold := a.train.Partial(r.ID)
			r.Abandon(hist)
			r.HistFold = fold
		}
		a.job = nil
	}
}

func (a *app) chooseDataset(msg kit.DatasetChosenMsg) tea.Cmd {
	a.ds, a.source, a.target, a.task, a.drop = msg.Ds, msg.Source, msg.Target, msg.Task, msg.Drop
	keep := ""
	if a.spec != nil {
		keep = a.spec.Name
	}
	a.model.SetData(msg.Ds, keep)
	a.goTo(screenModel)
	if st := a.startup; st != nil {
		a.startup = nil
		if st.Model != "" {
			spec, err := engine.Lookup(st.Model)
			if err != nil {
				a.model.SetError(err)
				return nil
			}
			return a.chooseModel(spec, st)
		}
	}
	return nil
}

// chooseModel opens the hyperparameter form; with start-up options it applies
// their parameters and, with Train, starts the run.
func (a *app) chooseModel(spec *engine.Spec, st *Options) tea.Cmd {
	// A clustering or a reduction runs on any data (RunsOn), as the list
	// offers it: the target is then not learned but scores the result.
	if a.ds != nil {
		if _, ok := spec.RunsOn(a.ds.Task); !ok {
			a.model.SetError(fmt.Errorf("model %s does not do %s; pick one of the models listed", spec.Name, a.ds.Task))
			a.goTo(screenModel)
			return nil
		}
	}
	a.spec = spec
	a.model.Point(spec.Name)
	var v engine.Values
	var opt *eval.Options
	if st != nil {
		e := st.evalOptions()
		v, opt = st.Params, &e
	}
	a.params.SetModel(a.ds, spec, v, opt)
	a.goTo(screenParams)
	if st != nil && st.Train {
		return a.params.Submit()
	}
	return nil
}

// runData is the session's choice of data as a run records it.
func (a *app) runData() runs.Data {
	return runs.Data{Source: a.source, Target: a.target, Task: a.task, Drop: a.drop}
}

// startRun launches a run of the chosen model on the chosen dataset.
func (a *app) startRun(v engine.Values, opt eval.Options) tea.Cmd {
	if a.ds == nil || a.spec == nil {
		return nil
	}
	a.abandon()
	id := a.nextRun
	data := a.runData()
	if opt.Test != nil {
		data.Test = a.params.Test.Source
	}
	// The data's identity (fingerprint, and the target New resolves) is
	// the record's from its start, so that a run interrupted before its
	// end (recordInterrupted) is compared by content as a finished one is.
	// Cheap: a file's bytes were hashed as they were read.
	data.Hash, _ = runs.HashData(data, a.ds)
	rec := runs.New(id, data, a.ds, a.spec, v, opt)
	a.nextRun++
	r := &kit.RunRecord{Record: rec}
	if a.replayOf != nil {
		r.ReplayOf, a.replayOf = a.replayOf, nil
	}
	a.history = append(a.history, r)
	if r.Regions = kit.NewLiveRegions(r.Task(), a.ds, opt); r.Regions != nil {
		opt.Snapshot = r.Regions.Snapshot // the record keeps the options without it
	}
	ds, spec := a.ds, a.spec
	fn := func(ctx context.Context, progress func(eval.Progress)) (*eval.Result, error) {
		opt := opt
		opt.Tick = progress // a long epoch's progress, which the training screen keeps out of the charts
		return eval.Run(ctx, ds, spec, v, opt, progress)
	}
	if a.c.Memory != nil {
		fn = reserving(a.c.Memory, spec.Name+" on "+ds.Name, eval.MemoryNeed(ds, spec, v, opt), fn)
	}
	var queue chan int
	if a.c.Slot != nil {
		queue = make(chan int, 1)
		fn = slotted(a.c.Slot, queue, fn)
	}
	a.job = startJob(a.ctx, id, spec.Name, fn, progressEvery, a.c.Logf)
	a.job.queue = queue
	a.train.Start(r)
	a.goTo(screenTrain)
	return waitFor(a.job)
}

// finishRun records the end of the current run and shows its results, or
// its error on the training screen.
func (a *app) finishRun(msg trainDoneMsg) tea.Cmd {
	r := a.settleRun(msg)
	if r == nil {
		return nil // the training screen shows the error, esc goes back
	}
	a.runs.SetRuns(a.history)
	record := a.recordRun(r)
	if a.cur == screenTrain {
		cmd := a.results.Show(r, false)
		a.goTo(screenResults)
		return tea.Batch(cmd, record)
	}
	return record
}

// settleRun ends the current run with msg's result; it returns the run
// when it has a result to record.
func (a *app) settleRun(msg trainDoneMsg) *kit.RunRecord {
	a.job = nil
	a.train.Progress(kit.ProgressMsg{Run: msg.run, Steps: msg.tail})
	r := a.run(msg.run)
	if r == nil {
		return nil
	}
	r.Finish(msg.result, msg.err)
	if was := r.ReplayOf; was != nil && was.Hash != "" && r.Data.Hash != "" && was.Hash != r.Data.Hash && r.Result != nil {
		r.Result.Warnings = append(r.Result.Warnings, advice.Warning{Text: runs.HashChanged(was.Source, was.Hash, r.Data.Hash)})
	}
	a.train.Done(r)
	if r.Result == nil || (r.Err != nil && !r.Cancelled()) {
		return nil
	}
	return r
}

// recordInterrupted records the run still in flight once a lab has been
// ended from outside (its connection dropped, its server stopping) as a
// cancelled run, as cancelling it would have: with its partial result when
// it stopped in time, else with the history the training screen had. It
// runs after the program, on the caller's goroutine, once the run was
// told to stop; a run the person quit is not in flight.
func (a *app) recordInterrupted() {
	j := a.job
	if j == nil {
		return
	}
	var r *kit.RunRecord
	select {
	case <-j.finished: // its message may have been taken by a command the program never delivered
		r = a.settleRun(j.final)
	default:
		a.abandon()
		r = a.run(j.id)
	}
	if r == nil {
		return
	}
	if record := a.recordRun(r); record != nil {
		record()
	}
}

// showRun opens a finished run's results from the runs screen.
func (a *app) showRun(r *kit.RunRecord) tea.Cmd {
	cmd := a.results.Show(r, true)
	a.goTo(screenResults)
	return cmd
}

func (a *app) run(id int) *kit.RunRecord {
	for _, r := range a.history {
		if r.ID == id {
			return r
		}
	}
	return nil
}

func (a *app) View() string {
	if a.w == 0 {
		return ""
	}
	st := a.c.Styles
	if a.w < kit.MinWidth || a.h < kit.MinHeight {
		return st.PaintBackground(lipgloss.Place(a.w, a.h, lipgloss.Center, lipgloss.Center, st.Warn.Render(tooSmall(a.w, a.h)),
			lipgloss.WithWhitespaceChars(" ")))
	}
	s := a.screens[a.cur]
	body := kit.Fit(s.View(), a.c.Width, a.c.Height)
	if a.full {
		body = kit.OverlayBottom(body, a.fullHelp(s), a.c.Width)
	}
	status := kit.Footer(a.help.Styles, s.ShortHelp(), a.globals(), s.Typing(), a.c.Width)
	return st.PaintBackground(a.header() + "\n" + body + "\n" + kit.FitWidth(st.StatusBar.Render(status), a.c.Width))
}

// globals are the global keys as the footer and the help show them: the
// theme key names the theme in use; esc is not offered where it does
// nothing (the first screen with nothing open).
func (a *app) globals() kit.GlobalKeys {
	g := a.keys
	g.Theme.SetHelp("t", "theme: "+a.c.ThemeName())
	g.Runs.SetEnabled(a.cur != screenRuns) // there already
	g.Back.SetEnabled(a.cur != screenData || !a.data.Closed())
	return g
}

func (a *app) fullHelp(s screen) string {
	keys := kit.HelpKeys{Screen: s, Global: a.globals().Now(slices.Concat(s.FullHelp()...), s.Typing())}
	return a.c.Styles.Panel.Render(kit.FullHelpBlock(a.help.Styles, keys.FullHelp(), a.c.Width-4))
}

// header is the breadcrumb (tealab ▸ dataset ▸ model ▸ screen) and, on the
// right, what the screen says about itself.
func (a *app) header() string {
	st := a.c.Styles
	crumbs := []string{st.Title.Render("tealab")}
	dsName, model := "", ""
	if a.ds != nil && a.cur > screenData {
		dsName = a.ds.Name
	}
	if a.spec != nil && a.cur > screenModel && a.cur != screenRuns {
		model = a.spec.Title
	}
	// The training and results screens name their own run's data and model.
	if r, ok := a.screens[a.cur].(interface{ ShownRun() *kit.RunRecord }); ok && r.ShownRun() != nil {
		dsName, model = r.ShownRun().Dataset.Name, r.ShownRun().Spec.Title
	}
	if a.cur == screenFeatures {
		dsName, model = a.feats.DataName(), ""
	}
	if a.cur == screenLectures { // the experiments bring their own data
		dsName, model = "", ""
	}
	for _, c := range []string{dsName, model} {
		if c != "" {
			crumbs = append(crumbs, st.Text.Render(c))
		}
	}
	crumbs = append(crumbs, st.Accent.Render(screenNames[a.cur]))
	left := " " + strings.Join(crumbs, st.Muted.Render(" ▸ "))
	right := ""
	if h, ok := a.screens[a.cur].(interface{ HeaderInfo() string }); ok {
		right = h.HeaderInfo()
	}
	right = st.Muted.Render(right + " ")
	return kit.Spread(left, right, a.c.Width)
}

// tooSmall is the one line shown below the smallest usable size: the size
// needed and the size there is, as long a sentence as the width allows
// (never cut mid-word).
func tooSmall(w, h int) string {
	for _, msg := range []string{
		fmt.Sprintf("enlarge the terminal (need %dx%d, have %dx%d)", kit.MinWidth, kit.MinHeight, w, h),
		fmt.Sprintf("need %dx%d, have %dx%d", kit.MinWidth, kit.MinHeight, w, h),
		fmt.Sprintf("need %dx%d", kit.MinWidth, kit.MinHeight),
	} {
		if len(msg) <= w {
			return msg
		}
	}
	return ""
}

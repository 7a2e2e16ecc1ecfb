package tui

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tealab/tealab/confine"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/themes"
)

// A lab that is not the process's own (one SSH session of `tealab serve`)
// takes what would otherwise come from the process through Options: its
// terminal's renderer and NO_COLOR, a context that ends with the
// connection, its files and a slot to train in. Nothing here is global, so
// that many labs share one process without seeing each other.

// Files confines a session's files: data are opened under Data only; saved
// models, exports and the run history are written under Home only.
type Files struct {
	Data *confine.Root
	Home *confine.Root
}

// OwnFile reports whether rel, a name relative to a person's own
// directory, is a file the lab keeps there itself: the run history, its
// lock and the temporary file a rewrite of it goes through. A saved model,
// an export or an upload must never replace one.
func OwnFile(rel string) bool {
	rel = filepath.Clean(rel)
	base := runs.HistoryFile
	return rel == base || rel == "history.lock" ||
		strings.HasPrefix(rel, "."+base+".") && strings.HasSuffix(rel, ".tmp")
}

// TrainSlot waits for the right to train (a server's cap on concurrent
// runs), telling queued its place in line (1: next) while it waits, and
// returns what gives the slot back; an error when ctx ends first.
type TrainSlot func(ctx context.Context, queued func(place int)) (release func(), err error)

// NewProgram makes the lab a program on a terminal given by opts (input,
// output), drawn with opt.Renderer. Run the program, then call end with
// its error: end stops the session's runs and turns a crash into one line,
// as Run does for the local terminal, and records a run the lab was
// training when it was ended from outside (Kill: its connection dropped,
// its server stopping), as a cancelled run.
func NewProgram(opt Options, opts ...tea.ProgramOption) (p *tea.Program, end func(error) error, err error) {
	if opt.Renderer == nil {
		return nil, nil, errors.New("tui.NewProgram needs the terminal's renderer (Options.Renderer)")
	}
	themes.KeepEmphasisFor(opt.Renderer, opt.NoColor)
	if opt.Theme == "" {
		opt.Theme = themes.ForTerminal(opt.Renderer, opt.NoColor).Name
	}
	a, err := newApp(opt, opt.Renderer)
	if err != nil {
		return nil, nil, err
	}
	g := &guarded{a: a}
	end = func(runErr error) error {
		err := g.end(runErr) // the run in flight told to stop, and waited for briefly
		a.recordInterrupted()
		return err
	}
	return g.program(opts...), end, nil
}

// holdSlot waits for a training slot for a sweep or an experiment, as a
// run does (without telling its place: those screens show their own
// progress); release gives it back.
func (c *common) holdSlot(ctx context.Context) (release func(), err error) {
	if c.slot == nil {
		return func() {}, nil
	}
	return c.slot(ctx, func(int) {})
}

// dataSource is the file source names inside the session's data directory,
// resolved; built-in and generator names pass as they are.
func (c *common) dataSource(source string) (string, error) {
	if c.files == nil || datasets.IsName(source) {
		return source, nil
	}
	return c.files.Data.Path(source)
}

// writePath is where a file the person names is written: the name itself
// (a leading ~/ is their home), or, confined, inside their own directory.
func (c *common) writePath(name string) (string, error) {
	if c.files == nil {
		return expandHome(name), nil
	}
	return c.files.Home.Path(name)
}

// reportDir is the directory exports are written in: def, or, confined,
// the person's own directory.
func (c *common) reportDir(def string) string {
	if c.files == nil {
		return def
	}
	return c.files.Home.Dir()
}

// store is the run history the lab records in: the confined session's own,
// else the user's (nil when off).
func (c *common) store() *runs.History {
	if c.files != nil {
		return &runs.History{Dir: c.files.Home.Dir()}
	}
	return openStore()
}

// openData is runs.Data.Open with its source confined.
func (c *common) openData(d runs.Data) (*datasets.Dataset, error) {
	var err error
	if d.Source, err = c.dataSource(d.Source); err != nil {
		return nil, err
	}
	return d.Open()
}

package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/tealab/tealab/confine"
	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine/runs"
)

// A lab that is not the process's own (one SSH session of `tealab serve`)
// takes what would otherwise come from the process through Options: its
// terminal's colour profile and NO_COLOR, a context that ends with the
// connection, its files and a slot to train in. Nothing here is global, so
// that many labs share one process without seeing each other.

// Files confines a session's files: data are opened under Data, or under
// Home when named ~/ (the person's uploads), only; saved models, exports
// and the run history are written under Home only.
type Files struct {
	Data *confine.Root
	Home *confine.Root
}

// TrainSlot waits for the right to train (a server's cap on concurrent
// runs), telling queued its place in line (1: next) while it waits, and
// returns what gives the slot back; an error when ctx ends first.
type TrainSlot func(ctx context.Context, queued func(place int)) (release func(), err error)

// NewProgram makes the lab a program on a terminal given by opts (input,
// output, size), drawn for opt.Profile. Run the program, then call end
// with its error: end stops the session's runs and turns a crash into one
// line, as Run does for the local terminal, and records a run the lab was
// training when it was ended from outside (Kill: its connection dropped,
// its server stopping), as a cancelled run.
func NewProgram(opt Options, opts ...tea.ProgramOption) (p *tea.Program, end func(error) error, err error) {
	if opt.Profile == colorprofile.Unknown {
		return nil, nil, errors.New("tui.NewProgram needs the terminal's colour profile (Options.Profile)")
	}
	a, err := newApp(opt)
	if err != nil {
		return nil, nil, err
	}
	g := &guarded{a: a}
	end = func(runErr error) error {
		err := g.end(runErr) // the run in flight told to stop, and waited for briefly
		a.recordInterrupted()
		if err != nil && a.c.hide(err.Error()) != err.Error() { // a crash names where it was saved
			err = errors.New(a.c.hide(err.Error()))
		}
		return err
	}
	return g.program(append([]tea.ProgramOption{tea.WithColorProfile(opt.Profile)}, opts...)...), end, nil
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

// dataSource is the file source names inside the session's data
// directory, or, after ~/, inside the person's own (their uploads),
// resolved; built-in and generator names pass as they are.
func (c *common) dataSource(source string) (string, error) {
	if c.files == nil || datasets.IsName(source) {
		return source, nil
	}
	if own, ok := strings.CutPrefix(source, "~/"); ok {
		return c.files.Home.Path(own)
	}
	return c.files.Data.Path(source)
}

// writePath is where a file the person names is written: the name itself
// (a leading ~/ is their home), or, confined, inside their own directory.
// The lab's own files (its run history) are refused: a saved model must
// never replace them.
func (c *common) writePath(name string) (string, error) {
	path := c.typedPath(name)
	if c.files != nil {
		var err error
		if path, err = c.files.Home.Path(name); err != nil {
			return "", err
		}
	}
	if h := c.store(); h != nil {
		dir, _ := filepath.Abs(h.Dir)
		at, _ := filepath.Abs(path)
		if filepath.Dir(at) == dir && runs.OwnFile(filepath.Base(at)) {
			return "", fmt.Errorf("%s is the lab's own file (your run history): choose another name", c.shown(at))
		}
	}
	return path, nil
}

// typedPath is a path the person typed: a leading ~/ is their home
// directory, except in a confined lab, where the server's home is not
// theirs and names are relative to the directory they are confined to.
func (c *common) typedPath(p string) string {
	if c.files != nil {
		return p
	}
	return expandHome(p)
}

// shown is a path as the lab shows it: in a confined lab, relative to the
// person's own directory or to the data directory, never naming the
// server's directories; elsewhere p itself.
func (c *common) shown(p string) string {
	if c.files == nil || !filepath.IsAbs(p) {
		return p
	}
	for _, r := range []*confine.Root{c.files.Home, c.files.Data} {
		if r.Contains(p) {
			return r.Rel(p)
		}
	}
	return filepath.Base(p)
}

// hide is a message with the confined directories' places on the server
// taken out (an operating system's error names the full path); msg itself
// in a lab that is not confined.
func (c *common) hide(msg string) string {
	if c.files == nil {
		return msg
	}
	for _, r := range []struct {
		dir, name string
	}{{c.files.Home.Dir(), "your directory"}, {c.files.Data.Dir(), "the data directory"}} {
		msg = strings.ReplaceAll(msg, r.dir+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, r.dir, r.name)
	}
	return msg
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

// openData is runs.Data.Open with its source confined, and named as the
// data screen names it (shown).
func (c *common) openData(d runs.Data) (*datasets.Dataset, error) {
	var err error
	if d.Source, err = c.dataSource(d.Source); err != nil {
		return nil, err
	}
	ds, err := d.Open()
	if err != nil {
		return nil, errors.New(c.hide(err.Error()))
	}
	ds.Source = c.shown(ds.Source)
	return ds, nil
}

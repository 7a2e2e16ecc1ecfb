package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/tealab/tealab/tui/kit"
)

// A lab that is not the process's own (one SSH session of `tealab serve`)
// takes what would otherwise come from the process through Options: its
// terminal's colour profile and NO_COLOR, a context that ends with the
// connection, its files and a slot to train in. Nothing here is global, so
// that many labs share one process without seeing each other.

// Files confines a session's files (kit.Files): data are opened under
// Data, or under Home when named ~/; everything written goes under Home.
type Files = kit.Files

// TrainSlot waits for the right to train (kit.TrainSlot): a server's cap on
// concurrent runs.
type TrainSlot = kit.TrainSlot

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
		if err != nil && a.c.Hide(err.Error()) != err.Error() { // a crash names where it was saved
			err = errors.New(a.c.Hide(err.Error()))
		}
		return err
	}
	return g.program(append([]tea.ProgramOption{tea.WithColorProfile(opt.Profile)}, opts...)...), end, nil
}

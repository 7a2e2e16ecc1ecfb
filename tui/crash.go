package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/runs"
	"github.com/tealab/tealab/numfmt"
	"github.com/tealab/tealab/tui/kit"
)

// A panic in the lab must not leave the terminal raw nor lose the session's
// runs. bubbletea catches panics too, but prints a stack over the screen
// and forgets the model; here every panic in Init, Update, View or a
// command they return ends the program the ordinary way (bubbletea then
// restores the terminal), and Run reports it in one line that says where
// the session's finished runs were saved. (Training runs in a goroutine of
// its own, which turns a model's panic into the run's error: jobs.go.)

// crash is a panic the lab caught.
type crash struct {
	where string // "the results screen", "drawing the runs screen"...
	value any
	stack []byte
	home  string // where the session's runs are saved; "" the state directory
}

// crashMsg brings the panic of a command to Update.
type crashMsg struct{ c *crash }

// guarded is the program's model: the app, with its panics caught.
type guarded struct {
	a     *app
	crash *crash // the first panic; the program is ending
	quit  func() // ends the program from View, which returns no command
}

func newCrash(where string, value any) *crash {
	return &crash{where: where, value: value, stack: debug.Stack()}
}

// program makes the bubbletea program of the guarded app.
func (g *guarded) program(opts ...tea.ProgramOption) *tea.Program {
	p := tea.NewProgram(g, opts...)
	g.quit = p.Quit
	return p
}

func (g *guarded) Init() (cmd tea.Cmd) {
	defer g.catch("the lab's start-up", &cmd)
	return g.protect(g.a.Init(), "the lab's start-up")
}

func (g *guarded) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	if c, ok := msg.(crashMsg); ok && g.crash == nil {
		g.crash = c.c
	}
	if g.crash != nil {
		return g, tea.Quit
	}
	m, where := g, g.screenName()
	defer g.catch(where, &cmd)
	_, cmd = g.a.Update(msg)
	return g, g.protect(cmd, where)
}

// View is the app's frame on the alternate screen, so that the person's
// terminal is as it was once the lab ends.
func (g *guarded) View() tea.View {
	v := tea.NewView(g.frame())
	v.AltScreen = true
	return v
}

func (g *guarded) frame() (f string) {
	if g.crash != nil {
		return ""
	}
	defer func() {
		if r := recover(); r != nil {
			g.crash, f = newCrash("drawing "+g.screenName(), r), ""
			if g.quit != nil {
				go g.quit() // Quit waits for the loop that called View
			}
		}
	}()
	return g.a.View()
}

func (g *guarded) screenName() string { return "the " + screenNames[g.a.cur] + " screen" }

// catch, deferred by Init and Update, makes their panic the crash and their
// command the end of the program.
func (g *guarded) catch(where string, cmd *tea.Cmd) {
	if r := recover(); r != nil {
		g.crash, *cmd = newCrash(where, r), tea.Quit
	}
}

// protect makes cmd's panic a crashMsg. bubbletea runs the commands of a
// batch apart, so each of them is protected in turn. (The lab makes no
// tea.Sequence, whose commands are out of reach: TestNoSequence.)
func (g *guarded) protect(cmd tea.Cmd, where string) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = crashMsg{newCrash("a background task of "+where, r)}
			}
		}()
		msg = cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			protected := make(tea.BatchMsg, len(batch))
			for i, c := range batch {
				protected[i] = g.protect(c, where)
			}
			return protected
		}
		return msg
	}
}

// end stops the app's runs once the program has ended and turns a crash
// (or a panic bubbletea caught itself) into one line.
func (g *guarded) end(runErr error) error {
	a := g.a
	a.cancel()
	a.job.Stop(kit.QuitWait)
	a.quitJob.Stop(kit.QuitWait)
	a.c.WaitWrites(saveWait)
	c := g.crash
	if c == nil && errors.Is(runErr, tea.ErrProgramPanic) {
		c = &crash{where: "the lab", value: "bubbletea caught a panic (its report is above)"}
	}
	if c == nil {
		return runErr
	}
	if a.c.Logf != nil {
		a.c.Logf("panic in %s: %v\n%s", c.where, c.value, c.stack)
	}
	if a.c.Files != nil { // a served lab's crash is its person's
		c.home = a.c.Files.Home.Dir()
	}
	line := fmt.Sprintf("internal error in %s: %v; the lab closed; %s", c.where, c.value, saveSession(c, a.history))
	return errors.New(strings.Join(strings.Fields(line), " "))
}

// saveSession writes the session's finished runs (runs.Save: one JSON file
// each, as `tealab train --save` writes) and the panic's stack into a new
// folder of the state directory, and says where, or why not.
func saveSession(c *crash, history []*kit.RunRecord) string {
	var done []*runs.Record
	for _, r := range history {
		if r.Done() {
			done = append(done, r.Record)
		}
	}
	what := "the session's " + numfmt.Count(len(done), "finished run")
	dir, err := crashDir(c.home)
	if err == nil {
		err = runs.WriteFile(filepath.Join(dir, "panic.txt"), fmt.Appendf(nil, "panic in %s: %v\n\n%s", c.where, c.value, c.stack))
	}
	for _, r := range done {
		if err != nil {
			break
		}
		err = saveRun(filepath.Join(dir, fmt.Sprintf("run-%d.json", r.ID)), r)
	}
	switch {
	case err != nil && len(done) == 0:
		return "no run had finished (the details could not be saved: " + err.Error() + ")"
	case err != nil:
		return what + " could not be saved: " + err.Error()
	case len(done) == 0:
		return "no run had finished; the details are in " + filepath.Join(dir, "panic.txt")
	}
	return what + " and the details are in " + dir
}

// saveRun is runs.Save, with a panic (a record the crash left half made)
// as an error.
func saveRun(path string, r *runs.Record) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("run %d: %v", r.ID, p)
		}
	}()
	return runs.Save(path, r)
}

// crashDir makes a new folder for a crash in home or, when home is "", in
// the state directory: $XDG_STATE_HOME/tealab, else tealab in the user's
// cache directory.
func crashDir(home string) (string, error) {
	if home != "" {
		return os.MkdirTemp(home, "crash-"+time.Now().Format("20060102-150405")+"-")
	}
	base := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		var err error
		if base, err = os.UserCacheDir(); err != nil {
			return "", err
		}
	}
	base = filepath.Join(base, "tealab")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(base, "crash-"+time.Now().Format("20060102-150405")+"-")
}

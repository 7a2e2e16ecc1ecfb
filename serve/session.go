package serve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	bm "github.com/charmbracelet/wish/bubbletea"

	"github.com/tealab/tealab/tui"
)

// Why a lab was closed by the server rather than by the person.
const (
	closeNone = iota
	closeIdle
	closeShutdown
)

// lab is one session's lab while it runs.
type lab struct {
	log     *slog.Logger
	program *tea.Program
	reason  atomic.Int32 // closeIdle, closeShutdown
	input   *activity
	once    sync.Once
	ready   chan struct{} // closed once program is set
}

// close ends the lab for reason (the first reason given sticks).
func (l *lab) close(reason int32) {
	l.reason.CompareAndSwap(closeNone, reason)
	go func() {
		<-l.ready
		l.once.Do(l.program.Kill)
	}()
}

// activity is the session's input, noting when the person last typed.
type activity struct {
	r    io.Reader
	last atomic.Int64 // unix nanoseconds
}

func (a *activity) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.last.Store(time.Now().UnixNano())
	}
	return n, err
}

func (a *activity) idle() time.Duration { return time.Since(time.Unix(0, a.last.Load())) }

// serveLab is the session handler: it admits the session, opens its lab and
// runs it until the person quits, the connection drops, the lab is idle
// for too long or the server shuts down.
func (s *Server) serveLab(sess ssh.Session) {
	u, _ := sess.Context().Value(userKey{}).(user)
	log := s.log.With("user", u.name, "key", u.fingerprint, "remote", sess.RemoteAddr().String())
	pty, windows, ok := sess.Pty()
	if !ok {
		log.Info("session refused", "reason", "no terminal")
		s.refuse(sess, "the lab needs a terminal: connect with ssh -t")
		return
	}
	l := &lab{log: log, input: &activity{r: sess}, ready: make(chan struct{})}
	if why := s.admit(l); why != "" {
		log.Info("session refused", "reason", why)
		s.refuse(sess, why)
		return
	}
	defer s.sessions.Done()
	defer s.leave(l)
	home, err := s.home(u)
	if err != nil {
		log.Error("no directory for the user", "error", err.Error())
		s.refuse(sess, "your directory on the server could not be made; tell the server's keeper")
		return
	}
	noColor := sessionEnv(sess, "NO_COLOR") != ""
	renderer := bm.MakeRenderer(sess) // the client's TERM, NO_COLOR and background
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	l.input.last.Store(time.Now().UnixNano())
	p, end, err := tui.NewProgram(tui.Options{
		Renderer: renderer, NoColor: noColor, Context: ctx,
		Files: &tui.Files{Data: s.data, Home: home}, TrainSlot: s.slots.wait, Memory: &s.memory,
	}, tea.WithInput(l.input), tea.WithOutput(sess), tea.WithAltScreen(), tea.WithoutSignalHandler(),
		tea.WithEnvironment(slices.Concat(sess.Environ(), []string{"TERM=" + pty.Term})))
	if err != nil {
		log.Error("lab did not open", "error", err.Error())
		s.refuse(sess, err.Error())
		return
	}
	l.program = p
	close(l.ready)
	log.Info("session start", "term", pty.Term, "width", pty.Window.Width, "height", pty.Window.Height, "no_color", noColor, "sessions", s.Sessions())
	go s.watch(ctx, l, pty.Window, windows)
	start := time.Now()
	_, runErr := p.Run()
	cancel() // the run in flight stops, and its slot is given back
	err = end(runErr)
	s.leave(l)
	s.goodbye(sess, l, err, time.Since(start))
}

// watch sends the lab its size and each resize, and closes it when the
// connection ends or it is idle for longer than the timeout.
func (s *Server) watch(ctx context.Context, l *lab, size ssh.Window, windows <-chan ssh.Window) {
	l.program.Send(tea.WindowSizeMsg{Width: size.Width, Height: size.Height})
	var tick <-chan time.Time
	if d := s.cfg.IdleTimeout; d > 0 {
		t := time.NewTicker(max(d/10, 10*time.Millisecond))
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			l.close(closeNone)
			return
		case w, ok := <-windows:
			if !ok {
				windows = nil
				continue
			}
			l.program.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
		case <-tick:
			if l.input.idle() >= s.cfg.IdleTimeout {
				l.close(closeIdle)
				return
			}
		}
	}
}

// goodbye tells the person why their lab closed, when the server closed
// it or it failed, logs the end and ends the session.
func (s *Server) goodbye(sess ssh.Session, l *lab, err error, open time.Duration) {
	status, note := 0, ""
	switch l.reason.Load() {
	case closeIdle:
		note = fmt.Sprintf("tealab: this lab closed after %s without a key press; connect again to go on (finished runs are in your history)", s.cfg.IdleTimeout)
	case closeShutdown:
		note = "tealab: the server is shutting down; finished runs are in your history; connect again once it is back"
	}
	reason := [...]string{"quit", "idle", "shutdown"}[l.reason.Load()]
	if err != nil && l.reason.Load() == closeNone && sess.Context().Err() == nil {
		status, note = 1, "tealab: "+err.Error()
		l.log.Error("lab failed", "error", err.Error())
	}
	if sess.Context().Err() != nil {
		reason = "disconnected"
	}
	if note != "" {
		_, _ = io.WriteString(sess.Stderr(), "\r\n"+note+"\r\n")
	}
	l.log.Info("session end", "reason", reason, "seconds", open.Round(time.Millisecond).Seconds())
	_ = sess.Exit(status)
}

// refuse tells the client why there is no lab, on one line, and ends the
// session with status 1.
func (s *Server) refuse(sess ssh.Session, why string) {
	_, _ = io.WriteString(sess.Stderr(), "tealab: "+why+"\r\n")
	_ = sess.Exit(1)
}

// sessionEnv is the client's value of an environment variable it sent.
func sessionEnv(sess ssh.Session, name string) string {
	for _, kv := range sess.Environ() {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

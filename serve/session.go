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

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"

	"github.com/tealab/tealab/tui"
)

// Why a lab was closed by the server rather than by the person.
const (
	closeNone = iota
	closeIdle
	closeShutdown
)

// closeGrace is how long a closed lab has to end its program, and then to
// say goodbye, before its connection is cut: a client that reads nothing
// holds the lab's writes, and only a closed connection frees them. The
// lab's own end in between (its run stopped and recorded, its files
// written: up to 2 quitWait + saveWait) is not counted.
const closeGrace = 5 * time.Second

// lab is one session's lab while it runs.
type lab struct {
	log     *slog.Logger
	program *tea.Program
	reason  atomic.Int32 // closeIdle, closeShutdown
	input   *input
	conn    io.Closer // the session's connection
	grace   time.Duration
	kill    context.CancelFunc // ends the program (its context)
	ready   chan struct{}      // closed once program is set
	stopped chan struct{}      // closed once the program has ended
	saved   chan struct{}      // closed once the lab's own end is done
	ended   chan struct{}      // closed when the session's handler returns
	clamped atomic.Bool        // the terminal was larger than a lab is drawn for
}

// close ends the lab for reason (the first reason given sticks). A lab
// closed from outside (idle, shutdown) has the grace to end its program;
// any lab has the grace to say goodbye once its own end is done; past
// either, its connection is cut.
//
// The program is ended by its context, not by Kill: Kill returns only
// once the program's writes have (never, to a client that reads nothing,
// until its connection is cut), and may not come before Run.
func (l *lab) close(reason int32) {
	l.reason.CompareAndSwap(closeNone, reason)
	l.kill()
	go func() {
		if reason != closeNone && !l.within(l.stopped) {
			return
		}
		select {
		case <-l.saved:
			l.within(l.ended)
		case <-l.ended:
		}
	}()
}

// within waits for done for the grace; past it, it cuts the connection
// and says false. The lab's end counts as done.
func (l *lab) within(done <-chan struct{}) bool {
	t := time.NewTimer(l.grace)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-l.ended:
		return false
	case <-t.C:
		l.log.Warn("connection cut", "reason", "the lab did not end once closed (the client reads nothing)")
		_ = l.conn.Close()
		return false
	}
}

// serveLab is the session handler: it admits the session, opens its lab and
// runs it until the person quits, the connection drops, the lab is idle
// for too long or the server shuts down.
func (s *Server) serveLab(sess ssh.Session) {
	u, g, why := s.userOf(sess)
	log := s.log.With("user", u.name, "key", u.fingerprint, "remote", sess.RemoteAddr().String())
	if why != "" {
		log.Warn("session refused", "reason", why)
		s.refuse(sess, "this key may not connect now")
		return
	}
	pty, windows, ok := sess.Pty()
	if !ok {
		log.Info("session refused", "reason", "no terminal", "command", sess.RawCommand())
		switch {
		case g.noPty:
			s.refuse(sess, "this key may not open a terminal (no-pty or restrict in the server's authorized keys), and the lab needs one; sftp reaches your files")
		case strings.HasPrefix(sess.RawCommand(), "scp "):
			s.refuse(sess, "the server speaks SFTP only: use sftp, or scp without -O")
		default:
			s.refuse(sess, "the lab needs a terminal: connect with ssh -t")
		}
		return
	}
	conn, _ := sess.Context().Value(ssh.ContextKeyConn).(io.Closer)
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	run, kill := context.WithCancel(ctx)
	defer kill()
	l := &lab{log: log, conn: conn, grace: s.closeGrace, kill: kill, ready: make(chan struct{}),
		stopped: make(chan struct{}), saved: make(chan struct{}), ended: make(chan struct{})}
	defer close(l.ended)
	if why := s.admit(l); why != "" {
		log.Info("session refused", "reason", why)
		s.refuse(sess, why)
		return
	}
	defer s.sessions.Done()
	defer s.leave(l)
	l.input = newInput(ctx, sess) // the idle clock starts now
	width, height, _ := size(pty.Window)
	go s.watch(ctx, l, windows, tea.WindowSizeMsg{Width: width, Height: height}) // it logs a clamp
	home, err := s.home(u)
	if err != nil {
		log.Error("no directory for the user", "error", err.Error())
		s.refuse(sess, "your directory on the server could not be made; tell the server's keeper")
		return
	}
	env := slices.Concat(sess.Environ(), []string{"TERM=" + pty.Term})
	noColor := sessionEnv(sess, "NO_COLOR") != ""
	prof := profile(env, pty.Term, noColor)
	p, end, err := tui.NewProgram(tui.Options{
		Profile: prof, NoColor: noColor, Context: ctx,
		Files: &tui.Files{Data: s.data, Home: home}, TrainSlot: s.slots.wait, Memory: &s.memory,
	}, tea.WithContext(run), tea.WithInput(l.input), tea.WithOutput(sess), tea.WithoutSignalHandler(),
		tea.WithEnvironment(env), tea.WithWindowSize(width, height))
	if err != nil {
		log.Error("lab did not open", "error", err.Error())
		s.refuse(sess, err.Error())
		return
	}
	l.program = p
	close(l.ready)
	log.Info("session start", "term", pty.Term, "width", pty.Window.Width, "height", pty.Window.Height, "profile", prof.String(), "no_color", noColor, "sessions", s.Sessions())
	start := time.Now()
	_, runErr := p.Run()
	close(l.stopped)
	cancel() // the run in flight stops, and its slot is given back
	err = end(runErr)
	close(l.saved)
	s.leave(l)
	s.goodbye(sess, l, err, time.Since(start))
}

// watch passes the terminal's size on to the lab (it starts at first)
// and closes the lab when the connection ends or it is idle for longer
// than the timeout. It never waits on the lab: resizes are taken as they
// come (a connection's requests wait on them) and the latest is handed on
// by a goroutine of its own, so that a burst of them costs one redraw; a
// size the lab has, or is about to be given, costs none.
func (s *Server) watch(ctx context.Context, l *lab, windows <-chan ssh.Window, first tea.WindowSizeMsg) {
	var (
		mu     sync.Mutex
		latest = first
		resize = make(chan struct{}, 1)
	)
	go func() {
		select {
		case <-l.ready:
		case <-ctx.Done():
			return
		}
		for {
			select {
			case <-resize:
				mu.Lock()
				msg := latest
				mu.Unlock()
				l.program.Send(msg) // returns once the program has ended
			case <-ctx.Done():
				return
			}
		}
	}()
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
			width, height, clamped := size(w)
			if clamped && !l.clamped.Swap(true) {
				l.log.Warn("terminal size clamped", "width", w.Width, "height", w.Height, "drawn_width", width, "drawn_height", height)
			}
			mu.Lock()
			same := latest == tea.WindowSizeMsg{Width: width, Height: height}
			latest = tea.WindowSizeMsg{Width: width, Height: height}
			mu.Unlock()
			if same {
				continue
			}
			select {
			case resize <- struct{}{}:
			default: // one is on its way; it will take the latest
			}
		case <-tick:
			if l.input.idle() >= s.cfg.IdleTimeout {
				l.close(closeIdle)
				tick = nil // and go on taking resizes until the session ends
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
		note = fmt.Sprintf("tealab: this lab closed after %s without a key press; connect again to go on (your runs are in your history, one in progress as cancelled)", s.cfg.IdleTimeout)
	case closeShutdown:
		note = "tealab: the server is shutting down; your runs are in your history (one in progress as cancelled); connect again once it is back"
	}
	reason := [...]string{"quit", "idle", "shutdown"}[l.reason.Load()]
	if err != nil && l.reason.Load() == closeNone && sess.Context().Err() == nil {
		status, note = 1, "tealab: "+err.Error()
		l.log.Error("lab failed", "error", err.Error())
	}
	if sess.Context().Err() != nil {
		reason = "disconnected"
	}
	if l.clamped.Load() {
		note = strings.TrimPrefix(note+"\r\n", "\r\n") + fmt.Sprintf("tealab: your terminal was larger than a lab is drawn for; it was drawn at most %dx%d", maxWidth, maxHeight)
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

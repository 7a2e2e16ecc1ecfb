// Package serve serves the lab over SSH (`tealab serve`): one process on a
// strong machine, and a lab per connection. A connection is admitted only
// with a public key listed in the authorized-keys file; its lab is drawn
// for the client's own terminal (colour profile, background, NO_COLOR,
// size), opens data under the data directory and that key's own
// directory only, writes and keeps its run history in the latter, and
// trains in one of a limited number of slots shared by every session. The same key reaches
// that directory, and nothing else, over SFTP (sftp.go). The server holds
// against anyone before login (gate.go: a handshake timeout, caps on
// connections not logged in) and against any listed key (gate.go: a
// logged-in connection must open a session in time, and each key may
// hold only a few; keys.go: the authorized_keys options; terminal.go: a
// client's terminal is never waited on, its size clamped, a size of 0
// drawn 80x24). Events go to a log/slog logger as structured lines.
package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/tealab/tealab/confine"
	"github.com/tealab/tealab/engine"
	_ "github.com/tealab/tealab/engine/models" // every model in the lab
)

// Config is what `tealab serve` is given.
type Config struct {
	Listen         string        // host:port
	HostKey        string        // the server's private key; made when missing
	AuthorizedKeys string        // the public keys that may connect (OpenSSH format)
	DataDir        string        // what sessions may open
	StateDir       string        // users/<key hash>/ holds each person's files and run history
	MaxSessions    int           // labs open at once; more are refused
	MaxTraining    int           // runs training at once; more wait in line
	IdleTimeout    time.Duration // a lab with no key press for this long is closed; 0 never
	Log            *slog.Logger  // nil: discard

	// Zero for the defaults (gate.go, session.go); tests shorten them.
	handshakeTimeout                  time.Duration
	maxPendingPerAddr, maxPendingAll  int
	maxLoggedInPerKey, maxLoggedInAll int
	maxOwn                            int64 // bytes a person's directory may hold
	closeGrace                        time.Duration
}

// Server is a running `tealab serve`.
type Server struct {
	cfg    Config
	log    *slog.Logger
	ssh    *ssh.Server
	users  map[string]user
	data   *confine.Root
	slots  *slots
	memory engine.Accountant
	gate   *gate

	closeGrace time.Duration

	mu        sync.Mutex
	labs      map[*lab]struct{}
	transfers map[io.Closer]struct{} // SFTP sessions
	usage     map[string]*usage      // by user id: what their directory holds
	closing   bool
	sessions  sync.WaitGroup // the labs' handlers
}

// New checks cfg (the keys, the directories) and makes the server; nothing
// listens until Serve.
func New(cfg Config) (*Server, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxSessions < 1 || cfg.MaxTraining < 1 {
		return nil, errors.New("--max-sessions and --max-training must be at least 1")
	}
	users, err := readAuthorizedKeys(cfg.AuthorizedKeys, cfg.Log)
	if err != nil {
		return nil, err
	}
	signer, err := hostSigner(cfg.HostKey)
	if err != nil {
		return nil, err
	}
	data, err := confine.New(cfg.DataDir, "the data directory")
	if err != nil {
		return nil, fmt.Errorf("--data-dir: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(cfg.StateDir, "users"), 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	s := &Server{cfg: cfg, log: cfg.Log, users: users, data: data, slots: newSlots(cfg.MaxTraining),
		labs: map[*lab]struct{}{}, transfers: map[io.Closer]struct{}{}, usage: map[string]*usage{},
		gate: newGate(cfg.Log, cmp.Or(cfg.handshakeTimeout, handshakeTimeout), cmp.Or(cfg.maxPendingPerAddr, maxPendingPerAddr), cmp.Or(cfg.maxPendingAll, maxPendingOverall),
			// a person's labs and SFTP sessions, each on a connection of its
			// own or multiplexed; the server's labs and SFTP sessions in all
			cmp.Or(cfg.maxLoggedInPerKey, cfg.MaxSessions+4), cmp.Or(cfg.maxLoggedInAll, 2*cfg.MaxSessions+8)),
		closeGrace: cmp.Or(cfg.closeGrace, closeGrace)}
	s.ssh, err = wish.NewServer(
		wish.WithAddress(cfg.Listen),
		wish.WithPublicKeyAuth(s.authorise),
		wish.WithMiddleware(func(ssh.Handler) ssh.Handler { return s.serveLab }),
		func(srv *ssh.Server) error {
			srv.AddHostKey(signer)
			srv.ConnectionFailedCallback = s.connectionFailed
			srv.ConnCallback = s.gate.admit
			srv.ServerConfigCallback = s.gate.config
			srv.PtyCallback = s.mayHaveTerminal
			srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{"sftp": s.serveFiles}
			srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.gate.session}
			return nil
		},
	)
	if err != nil {
		return nil, err
	}
	s.log.Info("host key", "fingerprint", gossh.FingerprintSHA256(signer.PublicKey()), "file", cfg.HostKey, "users", len(users))
	return s, nil
}

// authorise admits a key listed in the authorized-keys file, from where
// and until when its line's options allow; it is the only way in (no
// password, no keyboard-interactive).
func (s *Server) authorise(ctx ssh.Context, key ssh.PublicKey) bool {
	u, ok := s.users[string(key.Marshal())]
	if !ok {
		s.log.Warn("authentication refused", "remote", ctx.RemoteAddr().String(), "login", ctx.User(), "key", gossh.FingerprintSHA256(key))
		return false
	}
	if _, why := u.admit(remoteIP(ctx.RemoteAddr()), time.Now()); why != "" {
		s.log.Warn("authentication refused", "remote", ctx.RemoteAddr().String(), "login", ctx.User(), "user", u.name, "key", u.fingerprint, "reason", why)
		return false
	}
	ctx.SetValue(acceptedKey{}, key) // for the gate's count of the key's connections
	return true
}

// userOf is who a session's key belongs to, and the grant that admits it
// from where it is now; why not when none does.
func (s *Server) userOf(sess ssh.Session) (u user, g grant, why string) {
	key := sess.PublicKey()
	if key == nil {
		return u, g, "no public key"
	}
	u, ok := s.users[string(key.Marshal())]
	if !ok {
		return u, g, "the key is not listed"
	}
	g, why = u.admit(remoteIP(sess.RemoteAddr()), time.Now())
	return u, g, why
}

// mayHaveTerminal is the PtyCallback: a key listed with no-pty (or
// restrict) gets no terminal, as in sshd.
func (s *Server) mayHaveTerminal(ctx ssh.Context, _ ssh.Pty) bool {
	key, _ := ctx.Value(ssh.ContextKeyPublicKey).(ssh.PublicKey)
	if key == nil {
		return false
	}
	u := s.users[string(key.Marshal())]
	g, why := u.admit(remoteIP(ctx.RemoteAddr()), time.Now())
	return why == "" && !g.noPty
}

// connectionFailed logs a connection that ended before a session: a failed
// authentication (a password tried, no key), a bad handshake.
func (s *Server) connectionFailed(conn net.Conn, err error) {
	s.log.Warn("connection failed", "remote", conn.RemoteAddr().String(), "error", err.Error())
}

// Serve accepts connections on ln until Shutdown; it returns nil then.
func (s *Server) Serve(ln net.Listener) error {
	s.log.Info("listening", "address", ln.Addr().String(), "data", s.data.Dir(), "max_sessions", s.cfg.MaxSessions, "max_training", s.cfg.MaxTraining)
	err := s.ssh.Serve(ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// ListenAndServe listens on Config.Listen and serves.
func (s *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", s.cfg.Listen, err)
	}
	return s.Serve(ln)
}

// Shutdown stops accepting connections, tells every open lab that the
// server is stopping and closes it (its run cancelled, its files being
// written waited for), and waits for them until ctx ends; then it closes
// what is left.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	open := len(s.labs)
	for l := range s.labs {
		l.close(closeShutdown)
	}
	for t := range s.transfers {
		_ = t.Close()
	}
	s.mu.Unlock()
	s.log.Info("shutting down", "sessions", open)
	done := make(chan struct{})
	go func() {
		s.sessions.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("shutdown: labs still open after the wait: %w", ctx.Err())
	}
	if cerr := s.ssh.Close(); err == nil && cerr != nil && !errors.Is(cerr, ssh.ErrServerClosed) {
		err = cerr
	}
	return err
}

// admit registers l, or says why it cannot open.
func (s *Server) admit(l *lab) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return "the server is shutting down; try again later"
	case len(s.labs) >= s.cfg.MaxSessions:
		return fmt.Sprintf("all %d labs of this server are in use; try again later", s.cfg.MaxSessions)
	}
	s.labs[l] = struct{}{}
	s.sessions.Add(1) // under mu, so never after Shutdown began waiting
	return ""
}

// leave gives an admitted lab's place back (again is harmless). It is
// called before the person is told that the lab has ended, so that they
// can connect again at once; the handler's end (sessions.Done) comes after,
// so that Shutdown waits until they have been told.
func (s *Server) leave(l *lab) {
	s.mu.Lock()
	delete(s.labs, l)
	s.mu.Unlock()
}

// Sessions is the number of labs open.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.labs)
}

// Training is the number of runs training and of runs waiting for a slot.
func (s *Server) Training() (training, queued int) { return s.slots.load(s.cfg.MaxTraining) }

// home is u's own directory, made when missing.
func (s *Server) home(u user) (*confine.Root, error) {
	dir := filepath.Join(s.cfg.StateDir, "users", u.id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return confine.New(dir, "your own directory")
}

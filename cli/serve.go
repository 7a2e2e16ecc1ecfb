package cli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/tealab/tealab/serve"
)

// shutdownWait is how long a stopping server waits for its labs to close.
const shutdownWait = 30 * time.Second

// runServe serves the lab over SSH until SIGTERM or SIGINT, then closes
// every lab (telling its person) and returns.
func runServe(args []string, out, stderr io.Writer) error {
	fs := newFlags("serve")
	listen := fs.String("listen", "127.0.0.1:2222", "address to listen on (host:port)")
	hostKey := fs.String("host-key", "", "the server's private key, made (0600) when missing (default STATE-DIR/host_ed25519)")
	authorized := fs.String("authorized-keys", "", "the public keys that may connect, one per line as in ~/.ssh/authorized_keys (required)")
	dataDir := fs.String("data-dir", ".", "the directory sessions may open data files in")
	stateDir := fs.String("state-dir", "", "where each person's files and run history are kept (default $XDG_STATE_HOME/tealab/serve)")
	maxSessions := fs.Int("max-sessions", 16, "labs open at once; more connections are refused")
	maxTraining := fs.Int("max-training", runtime.NumCPU(), "runs training at once over all labs; more wait in line")
	idle := fs.Duration("idle-timeout", 30*time.Minute, "close a lab after this long without a key press (0: never)")
	if err := parseFlags(fs, args, out); err != nil {
		return err
	}
	switch {
	case *authorized == "":
		return usagef("--authorized-keys FILE is required: only the public keys it lists may connect")
	case *maxSessions < 1:
		return usagef("--max-sessions must be at least 1 (got %d)", *maxSessions)
	case *maxTraining < 1:
		return usagef("--max-training must be at least 1 (got %d)", *maxTraining)
	case *idle < 0:
		return usagef("--idle-timeout must not be negative (got %s)", *idle)
	}
	if *stateDir == "" {
		dir, err := defaultStateDir()
		if err != nil {
			return err
		}
		*stateDir = dir
	}
	if *hostKey == "" {
		*hostKey = filepath.Join(*stateDir, "host_ed25519")
	}
	srv, err := serve.New(serve.Config{Listen: *listen, HostKey: *hostKey, AuthorizedKeys: *authorized, DataDir: *dataDir,
		StateDir: *stateDir, MaxSessions: *maxSessions, MaxTraining: *maxTraining, IdleTimeout: *idle,
		Log: slog.New(slog.NewTextHandler(stderr, nil))})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.ListenAndServe() }()
	select {
	case err := <-served: // it could not listen
		return err
	case <-ctx.Done():
	}
	wait, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	return errors.Join(srv.Shutdown(wait), <-served)
}

// defaultStateDir is $XDG_STATE_HOME/tealab/serve, else
// ~/.local/state/tealab/serve.
func defaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "tealab", "serve"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", usagef("no home directory for the server's state (%v): give --state-dir", err)
	}
	return filepath.Join(home, ".local", "state", "tealab", "serve"), nil
}

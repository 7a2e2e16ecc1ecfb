package serve

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"
)

// A session's terminal is the client's: the server never waits on it. Its
// input is read by one goroutine from the moment the session opens, so
// that the idle clock runs from then on; every byte goes to the lab, the
// terminal's answers to its questions (its background) included. Its size
// comes from the client's pty request: a size of 0 (a client without a
// terminal of its own, as ssh -tt from a script) is drawn at 80x24, and
// any size is clamped (maxWidth x maxHeight): the lab's screen is held in
// memory at that size, and a client could claim any. The lab draws on the
// session itself, which writes \n as \r\n (ssh's emulated pty), as
// bubbletea's renderer expects of an output that is not a tty it set raw.

// The largest terminal a lab is drawn for.
const (
	maxWidth  = 1000
	maxHeight = 500
)

// The size a lab is drawn at when the client says 0.
const (
	defaultWidth  = 80
	defaultHeight = 24
)

// input is a session's keyboard: read ahead on its own goroutine,
// noting when the person last typed.
type input struct {
	chunks  chan []byte
	ctx     context.Context
	pending []byte // read and not yet given out
	last    atomic.Int64
	mu      sync.Mutex // Read
}

// newInput starts reading r until it ends or ctx does.
func newInput(ctx context.Context, r io.Reader) *input {
	in := &input{chunks: make(chan []byte), ctx: ctx}
	in.last.Store(time.Now().UnixNano())
	go func() {
		defer close(in.chunks)
		for {
			buf := make([]byte, 4096)
			n, err := r.Read(buf)
			if n > 0 {
				in.last.Store(time.Now().UnixNano())
				select {
				case in.chunks <- buf[:n]:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return in
}

func (in *input) idle() time.Duration { return time.Since(time.Unix(0, in.last.Load())) }

// Read gives what the client sent, as it came; io.EOF once the session's
// input or ctx ends.
func (in *input) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for len(in.pending) == 0 {
		select {
		case chunk, ok := <-in.chunks:
			if !ok {
				return 0, io.EOF
			}
			in.pending = chunk
		case <-in.ctx.Done():
			return 0, io.EOF
		}
	}
	n := copy(p, in.pending)
	in.pending = in.pending[n:]
	return n, nil
}

// profile is the colour profile of the client's terminal, from env (the
// client's environment, TERM the pty's last): none without a TERM or on a
// dumb one; no colour, but bold and reverse, under NO_COLOR of any value.
func profile(env []string, term string, noColor bool) colorprofile.Profile {
	if term == "" || term == "dumb" {
		return colorprofile.NoTTY
	}
	p := colorprofile.Env(env)
	if noColor {
		p = min(p, colorprofile.ASCII)
	}
	return p
}

// size is the size a lab is drawn at in window w: 80x24 where w says 0,
// no larger than maxWidth x maxHeight; and whether w was larger.
func size(w ssh.Window) (width, height int, clamped bool) {
	width, height = w.Width, w.Height
	if width <= 0 {
		width = defaultWidth
	}
	if height <= 0 {
		height = defaultHeight
	}
	return min(width, maxWidth), min(height, maxHeight), width > maxWidth || height > maxHeight
}

package serve

import (
	"context"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// A session's terminal is the client's: the server never waits on it. Its
// input is read by one goroutine from the moment the session opens, so
// that the idle clock runs from then on and nothing the person types is
// lost to the question about the terminal's background (asked once, for
// at most backgroundWait, its answer picked out of the input). Its size
// is clamped (maxWidth x maxHeight): the lab's screen is held in memory at
// that size, and a client could claim any.

// backgroundWait is how long a new session waits for the terminal to say
// its background colour.
const backgroundWait = time.Second

// The largest terminal a lab is drawn for.
const (
	maxWidth  = 1000
	maxHeight = 500
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

// Read gives what the person typed, with the terminal's answers to the
// background question taken out (one that comes late would otherwise
// read as keys); io.EOF once the session's input or ctx ends.
func (in *input) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for len(in.pending) == 0 {
		select {
		case chunk, ok := <-in.chunks:
			if !ok {
				return 0, io.EOF
			}
			in.pending = answers.ReplaceAll(chunk, nil)
		case <-in.ctx.Done():
			return 0, io.EOF
		}
	}
	n := copy(p, in.pending)
	in.pending = in.pending[n:]
	return n, nil
}

// answers are a terminal's replies to OSC 11 (its background) and to the
// primary device attributes query.
var answers = regexp.MustCompile("\x1b\\]11;[^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b\\[\\?[0-9;]*c")

var deviceAttributes = regexp.MustCompile("\x1b\\[\\?[0-9;]*c")

var background = regexp.MustCompile("\x1b\\]11;rgb:([0-9a-fA-F]{1,4})/([0-9a-fA-F]{1,4})/([0-9a-fA-F]{1,4})")

// askBackground asks the terminal its background colour and waits up to
// wait for the answer (the device attributes, which every terminal
// answers, end it). What the person types meanwhile is kept for the lab.
// It reports whether the background is dark, and whether the terminal
// said.
func (in *input) askBackground(out io.Writer, wait time.Duration) (dark, known bool) {
	if _, err := io.WriteString(out, ansi.RequestBackgroundColor+ansi.RequestPrimaryDeviceAttributes); err != nil {
		return true, false
	}
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	var got []byte
	defer func() {
		in.mu.Lock()
		in.pending = append(in.pending, answers.ReplaceAll(got, nil)...)
		in.mu.Unlock()
	}()
	for {
		select {
		case chunk, ok := <-in.chunks:
			if !ok {
				return true, false
			}
			got = append(got, chunk...)
			if m := background.FindSubmatch(got); m != nil {
				dark, known = lightness(m[1:]) < 0.5, true
			}
			if deviceAttributes.Match(got) {
				return dark || !known, known
			}
		case <-timeout.C:
			return dark || !known, known
		case <-in.ctx.Done():
			return true, false
		}
	}
}

// lightness is the HSL lightness of an rgb: answer's three hex parts.
func lightness(parts [][]byte) float64 {
	lo, hi := 1.0, 0.0
	for _, p := range parts {
		v, _ := strconv.ParseUint(string(p), 16, 64)
		f := float64(v) / float64(uint64(1)<<(4*len(p))-1)
		lo, hi = min(lo, f), max(hi, f)
	}
	return (lo + hi) / 2
}

// renderer draws for the session's terminal: its TERM and NO_COLOR, and
// the background it said it has (dark when it did not say).
func renderer(sess ssh.Session, term string, dark bool) *lipgloss.Renderer {
	if term == "" || term == "dumb" {
		return lipgloss.NewRenderer(sess, termenv.WithProfile(termenv.Ascii))
	}
	env := environ(append(sess.Environ(), "TERM="+term))
	r := lipgloss.NewRenderer(sess, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
	r.SetHasDarkBackground(dark)
	return r
}

// environ is the client's environment as termenv reads it.
type environ []string

func (e environ) Environ() []string { return e }

func (e environ) Getenv(name string) string {
	for i := len(e) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(e[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// clamp is a window no larger than a lab is drawn for, and whether it was
// larger.
func clamp(w ssh.Window) (width, height int, clamped bool) {
	width, height = min(w.Width, maxWidth), min(w.Height, maxHeight)
	return width, height, width != w.Width || height != w.Height
}

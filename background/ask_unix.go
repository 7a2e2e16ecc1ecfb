//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package background

import (
	"errors"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
	"golang.org/x/sys/unix"
)

// Ask asks the terminal on tty for its background colour as termenv does
// (OSC 11, or COLORFGBG; dark when neither says), but gives it at most
// wait to answer, and says whether it is dark. A process in the background
// does not ask: reading the terminal would stop it.
func Ask(tty *os.File, wait time.Duration) bool {
	fd := int(tty.Fd())
	if pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err != nil || pgrp != unix.Getpgrp() {
		return true
	}
	state, err := term.MakeRaw(uintptr(fd)) // the answer must not echo nor wait for a newline
	if err != nil {
		return true
	}
	defer term.Restore(uintptr(fd), state)
	out := termenv.NewOutput(&boundedTTY{f: tty, deadline: time.Now().Add(wait)}, termenv.WithUnsafe())
	return out.HasDarkBackground()
}

// boundedTTY is a terminal whose reads give up at the deadline. termenv
// reads it directly (WithUnsafe) instead of waiting five seconds per byte.
type boundedTTY struct {
	f        *os.File
	deadline time.Time
}

var errNoAnswer = errors.New("the terminal did not answer in time")

func (t *boundedTTY) Write(p []byte) (int, error) { return t.f.Write(p) }

func (t *boundedTTY) Fd() uintptr { return t.f.Fd() }

func (t *boundedTTY) Read(p []byte) (int, error) {
	fd := int(t.f.Fd())
	for {
		left := time.Until(t.deadline)
		if left <= 0 {
			return 0, errNoAnswer
		}
		var ready unix.FdSet
		ready.Set(fd)
		tv := unix.NsecToTimeval(left.Nanoseconds())
		n, err := unix.Select(fd+1, &ready, nil, nil, &tv)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0:
			return 0, errNoAnswer
		}
		return t.f.Read(p)
	}
}

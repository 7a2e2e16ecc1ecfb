// Package background settles whether the terminal has a dark background
// before bubbletea's own start-up asks it.
//
// bubbletea v1 asks the terminal for its background colour in an init
// function (so that lipgloss knows it before a program takes the
// terminal), and termenv waits up to five seconds for the answer: on a
// terminal that never answers, every tealab command started five seconds
// late. Go initialises packages in the order of their import paths where
// dependencies allow, so this package, whose path sorts before
// github.com/charmbracelet/bubbletea and which does not depend on it,
// initialises first. Its init decides once, for the process: a command
// other than the lab, or the lab with a named theme (--theme), asks
// nothing; the lab without one asks, but waits at most Wait. The answer
// is set on lipgloss's default renderer, so bubbletea's init and every
// adaptive colour read it instead of asking again.
//
// It is a module of its own because a package path inside
// github.com/tealab/tealab sorts after bubbletea's.
package background

import (
	"os"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Wait bounds how long start-up waits for the terminal to say its
// background colour: a terminal answers in milliseconds, or never.
const Wait = 150 * time.Millisecond

// commands are tealab's sub-commands: none draws in colour.
var commands = []string{"datasets", "models", "describe", "bench", "train", "run", "runs", "predict",
	"compare", "sweep", "learning-curve", "serve", "version", "--version", "-version", "help"}

var dark = true // what start-up settled

func init() {
	if asksTerminal(os.Args[1:]) {
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			dark = Ask(tty, Wait)
			tty.Close()
		}
	}
	lipgloss.SetHasDarkBackground(dark)
}

// asksTerminal says whether the process is the lab without a named theme,
// on a terminal that shows colour: the one case that needs to ask.
func asksTerminal(args []string) bool {
	if len(args) > 0 && slices.Contains(commands, args[0]) {
		return false
	}
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && name == "theme" {
			return false
		}
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	out := termenv.NewOutput(os.Stdout)
	return out.TTY() != nil && out.EnvColorProfile() != termenv.Ascii
}

// Dark is what start-up settled: whether the terminal's background is
// dark (true when nothing was asked, or nothing answered).
func Dark() bool { return dark }

package themes

import (
	"os"
	"time"

	"github.com/charmbracelet/lipgloss"
)

// backgroundWait bounds how long start-up waits for the terminal to say its
// background colour: a local terminal answers in milliseconds; one that
// never answers would otherwise hold start-up for termenv's five seconds.
const backgroundWait = 150 * time.Millisecond

// SettleBackground decides, once and before the program reads its input,
// whether r draws on a dark background, so that nothing (ForRenderer, an
// adaptive colour) asks the terminal later with termenv's five-second
// wait. A named theme needs no answer, nor does a terminal without colour;
// otherwise the terminal is asked, and taken as dark if it does not answer
// within backgroundWait.
func SettleBackground(r *lipgloss.Renderer, theme string) {
	dark := true
	if theme == "" && !noColor() && !colorless(r) {
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			dark = askDark(tty, backgroundWait)
			tty.Close()
		}
	}
	r.SetHasDarkBackground(dark)
}

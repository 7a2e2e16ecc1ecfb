//go:build linux

package tui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"golang.org/x/sys/unix"
)

// The lab on a pseudo-terminal, started as the binary starts it (Run, in a
// process of its own: this test binary again, running TestStartUpChild).
// Asked for its background colour, a terminal answers with OSC 11 or not at
// all. The lab asks once it is drawn and takes the answer when it comes: the
// first frame never waits, a named theme asks nothing, and a terminal that
// never answers keeps the dark theme.

const startUpChild = "TEALAB_STARTUP_CHILD" // the theme the child starts with, "-" for none

// backgroundQuery is how bubbletea asks for the background colour.
const backgroundQuery = "\x1b]11;?"

// firstFrameWait is a hang guard, not a timing target (that is
// BenchmarkStartUpOnMuteTerminal): well beyond a start-up, well short of
// the five seconds bubbletea v1 waited for an answer.
const firstFrameWait = 3 * time.Second

func TestStartUpChild(t *testing.T) {
	t.Parallel()
	theme, ok := os.LookupEnv(startUpChild)
	if !ok {
		return
	}
	if theme == "-" {
		theme = ""
	}
	if err := Run(Options{Theme: theme}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func TestStartUpOnAnyTerminal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, theme string
		answer      string // what the terminal answers to the query; "" nothing
		asks        bool
		want        string // the theme the footer names
	}{
		{"a terminal that never answers", "-", "", true, "dark"},
		{"a light terminal", "-", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\", true, "light"},
		{"a named theme", "light", "", false, "light"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lab := startOnPTY(t, tc.theme, tc.answer)
			if !lab.waitFor("theme: ", firstFrameWait) {
				t.Fatalf("no frame within %v; output so far %q", firstFrameWait, tail(lab.output(), 200))
			}
			out := lab.output()
			if asked := strings.Contains(out, backgroundQuery); asked != tc.asks {
				t.Errorf("asked the terminal for its background: %v, want %v", asked, tc.asks)
			}
			if !lab.waitFor("theme: "+tc.want, firstFrameWait) {
				t.Errorf("the footer does not name theme %s: %q", tc.want, tail(lab.output(), 300))
			}
		})
	}
}

// Under NO_COLOR the lab once drew no escape at all (termenv's ASCII
// profile dropped reverse and bold with the colours), and the cursor was
// gone. A terminal that shows attributes gets them, and no colour; a dumb
// one gets no SGR at all.
func TestNoColorKeepsEmphasis(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		term     string
		emphasis []string
	}{
		{"xterm-256color", []string{"1", "7"}}, // the title, the cursor
		{"dumb", nil},
	} {
		t.Run(tc.term, func(t *testing.T) {
			lab := startOnPTY(t, "-", "", "NO_COLOR=1", "TERM="+tc.term)
			if !lab.waitFor("theme: mono", firstFrameWait) {
				t.Fatalf("no mono frame within %v; output so far %q", firstFrameWait, tail(lab.output(), 300))
			}
			out := lab.output()
			if bad := colourSGR(out); len(bad) > 0 {
				t.Errorf("NO_COLOR drew colour (SGR %s): %q", strings.Join(bad, ","), tail(out, 300))
			}
			for _, e := range tc.emphasis {
				if got := emphasisSGR(out); !slices.Contains(got, e) {
					t.Errorf("TERM=%s: emphasis SGR %v, want %s among them", tc.term, got, e)
				}
			}
			if tc.emphasis == nil && sgrRe.MatchString(out) {
				t.Errorf("TERM=dumb drew SGR: %q", sgrRe.FindAllString(out, 5))
			}
		})
	}
}

func BenchmarkStartUpOnMuteTerminal(b *testing.B) {
	for b.Loop() {
		lab := startOnPTY(b, "-", "")
		if !lab.waitFor("theme: ", 10*time.Second) {
			b.Fatal("no frame")
		}
		b.StopTimer()
		lab.quit()
		b.StartTimer()
	}
}

// ptyLab is the lab running on a pseudo-terminal the test holds the other
// end of.
type ptyLab struct {
	cmd    *exec.Cmd
	master *os.File
	mu     sync.Mutex
	out    bytes.Buffer  // every byte the lab wrote
	screen *termScreen   // what the terminal shows
	more   chan struct{} // a token each time output arrives
	done   chan struct{} // closed when the output ends
}

// startOnPTY starts the lab with theme ("-" none) on a 120x40 pseudo-
// terminal that answers the background query with answer ("" never), with
// env ("NAME=value") over its environment.
func startOnPTY(t testing.TB, theme, answer string, env ...string) *ptyLab {
	t.Helper()
	master, slave := openPTY(t)
	if err := unix.IoctlSetWinsize(int(master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 120}); err != nil {
		t.Fatal(err)
	}
	args := []string{"-test.run=^TestStartUpChild$"}
	if theme != "-" {
		args = append(args, "--", "--theme", theme)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(envWithout("TERM", "CI", "NO_COLOR", "COLORFGBG", "DEBUG", startUpChild),
		"TERM=xterm-256color", startUpChild+"="+theme)
	cmd.Env = append(cmd.Env, env...) // the last of a name counts
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	lab := &ptyLab{cmd: cmd, master: master, screen: &termScreen{emu: vt.NewEmulator(120, 40)},
		more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() { _, _ = io.Copy(io.Discard, lab.screen) }() // the emulator's own answers: this terminal gives only answer
	go lab.Read(answer)
	t.Cleanup(lab.quit)
	return lab
}

// read copies the lab's output, answering the background query once.
func (l *ptyLab) Read(answer string) {
	defer close(l.done)
	buf := make([]byte, 4096)
	for {
		n, err := l.master.Read(buf)
		l.mu.Lock()
		l.out.Write(buf[:n])
		ask := answer != "" && strings.Contains(l.out.String(), backgroundQuery)
		l.mu.Unlock()
		_, _ = l.screen.Write(buf[:n])
		if ask {
			l.master.WriteString(answer)
			answer = ""
		}
		select {
		case l.more <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

func (l *ptyLab) output() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out.String()
}

// waitFor waits up to d for the screen to show s.
func (l *ptyLab) waitFor(s string, d time.Duration) bool {
	deadline := time.After(d)
	for !strings.Contains(l.screen.Text(), s) {
		select {
		case <-l.more:
		case <-l.done:
			return strings.Contains(l.screen.Text(), s)
		case <-deadline:
			return false
		}
	}
	return true
}

// quit presses q, and kills the lab if it has not ended a second later.
func (l *ptyLab) quit() {
	if l.cmd.ProcessState == nil {
		l.master.WriteString("q")
		exited := make(chan struct{})
		go func() { l.cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(time.Second):
			l.cmd.Process.Kill()
			<-exited
		}
	}
	l.master.Close()
	<-l.done
	l.screen.close()
}

// openPTY opens a pseudo-terminal pair: the master end and the terminal.
func openPTY(t testing.TB) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return master, slave
}

// envWithout is the environment without the named variables.
func envWithout(names ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			env = append(env, kv)
		}
	}
	return env
}

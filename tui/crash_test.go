package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/runs"
)

// bomb is a screen that panics where told once it gets a boomMsg: in
// Update, in the command it returns (alone, in a batch within a batch), or
// in View from then on.
type bomb struct {
	screen
	where string
	armed bool
}

type boomMsg struct{}

func (b *bomb) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(boomMsg); !ok {
		return b.screen.Update(msg)
	}
	boom := func() tea.Msg { panic("boom\nsecond line") }
	nothing := func() tea.Msg { return nil }
	switch b.where {
	case "update":
		panic("boom\nsecond line")
	case "command":
		return boom
	case "batch":
		return tea.Batch(nothing, tea.Batch(nothing, boom))
	}
	b.armed = true
	return nil
}

func (b *bomb) View() string {
	if b.armed {
		panic("boom\nsecond line")
	}
	return b.screen.View()
}

// A panic anywhere in the lab ends the program the ordinary way (the
// terminal restored), and the error is one line that says where it
// happened and where the session's finished run was saved; the saved run
// loads back.
func TestPanicEndsTheLabInOneLine(t *testing.T) {
	for _, tc := range []struct{ where, says string }{
		{"update", "the results screen"},
		{"command", "a background task of the results screen"},
		{"batch", "a background task of the results screen"},
		{"view", "drawing the results screen"},
	} {
		t.Run(tc.where, func(t *testing.T) {
			state := t.TempDir()
			t.Setenv("XDG_STATE_HOME", state)
			hs := newHarness(t, Options{Data: "iris", Model: "gnb", Train: true}, 120, 40)
			a := hs.a
			// The harness ran the start-up (the data opened, the model
			// trained): the program's Init must not run it again, or the
			// lab may leave the screen the bomb is on before it goes off.
			a.startup = nil
			a.screens[a.cur] = &bomb{screen: a.screens[a.cur], where: tc.where}
			var out syncBuffer
			g := &guarded{a: a}
			// A size, as a terminal has one: without it the program's
			// first size (none) could reach the lab before the bomb went
			// off, and a lab of no size draws nothing, the bomb included.
			p := g.program(tea.WithInput(nil), tea.WithOutput(&out), tea.WithoutSignalHandler(), tea.WithWindowSize(120, 40))
			go p.Send(boomMsg{})
			ended := make(chan error)
			go func() {
				_, err := p.Run()
				if err != nil {
					t.Errorf("the program ended with %v: bubbletea caught a panic itself", err)
				}
				ended <- g.end(err)
			}()
			var err error
			select {
			case err = <-ended:
			case <-time.After(10 * time.Second):
				p.Kill()
				t.Fatal("the program did not end after the panic")
			}
			if err == nil {
				t.Fatal("the program ended without an error")
			}
			msg := err.Error()
			want := regexp.MustCompile(`^internal error in ` + regexp.QuoteMeta(tc.says) +
				`: boom second line; the lab closed; the session's 1 finished run and the details are in (\S+)$`)
			m := want.FindStringSubmatch(msg)
			if m == nil {
				t.Fatalf("error %q, want it to match %s", msg, want)
			}
			if !strings.HasPrefix(m[1], filepath.Join(state, "tealab")+string(filepath.Separator)) {
				t.Errorf("saved in %s, not in the state directory %s", m[1], state)
			}
			back, err := runs.Load(filepath.Join(m[1], "run-1.json"))
			if err != nil {
				t.Fatal(err)
			}
			if orig := a.history[0]; back.Model != "gnb" || back.Result == nil || back.Result.Metrics["accuracy"] != orig.Result.Metrics["accuracy"] {
				t.Errorf("the saved run is %s with %v, want gnb with accuracy %v", back.Model, back.Result, orig.Result.Metrics["accuracy"])
			}
			if details, err := os.ReadFile(filepath.Join(m[1], "panic.txt")); err != nil || !strings.Contains(string(details), "boom") || !strings.Contains(string(details), "goroutine") {
				t.Errorf("panic.txt: %v\n%s", err, details)
			}
			if s := out.String(); !strings.Contains(s, "\x1b[?1049l") {
				t.Errorf("the alternate screen was not left: output ends %q", tail(s, 80))
			}
		})
	}
}

// Where the runs could not be saved, or none had finished, the line says so.
func TestCrashLineWhenNothingSaved(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, Options{Data: "iris", Model: "gnb", Train: true}, 120, 40)
	c := newCrash("the results screen", "boom")
	t.Setenv("XDG_STATE_HOME", notDir)
	if got := saveSession(c, hs.a.history); !strings.HasPrefix(got, "the session's 1 finished run could not be saved: ") {
		t.Errorf("unwritable state directory: %q", got)
	}
	if got := saveSession(c, nil); !strings.HasPrefix(got, "no run had finished (the details could not be saved: ") {
		t.Errorf("no runs, unwritable state directory: %q", got)
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if got := saveSession(c, nil); !strings.HasPrefix(got, "no run had finished; the details are in ") {
		t.Errorf("no runs: %q", got)
	}
}

// protect reaches the commands of a batch, which bubbletea exports, but not
// those of a tea.Sequence, whose message type it keeps to itself: a panic
// there would be bubbletea's to catch (a stack over the screen). So the lab
// makes none.
func TestNoSequence(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "tea.Sequence(") {
			t.Errorf("%s makes a tea.Sequence, whose commands' panics the crash handler cannot catch: use tea.Batch, or one command that does both in order", f)
		}
	}
}

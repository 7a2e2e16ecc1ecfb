package tui

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/vt"
)

// Whole flows through a real tea.Program on a terminal emulator (x/vt):
// bytes in as a person types them, frames out as a terminal shows them.
//
// testProgram keeps what the screen shows (the emulator's cells, which the
// cell renderer updates in place) and everything the program has written
// (out: what was ever drawn, and the escapes it sent).
type testProgram struct {
	p    *tea.Program
	term *termScreen
	out  *syncBuffer
	done chan tea.Model
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// termScreen is a terminal emulator shared by the program's writer and the
// test's reads. The program reads the emulator's answers and the keys
// typed from it (Read is the emulator's own input pipe, which needs no lock).
// Its line discipline maps a newline to CR LF, as a pseudo-terminal's does
// (bubbletea counts on it when its input is not a terminal it set raw).
type termScreen struct {
	mu  sync.Mutex
	emu *vt.Emulator
}

func (s *termScreen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.emu.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (s *termScreen) Read(p []byte) (int, error) { return s.emu.Read(p) }

// close ends the terminal's input: its reader gets io.EOF. (The emulator's
// own Close races with a Read in progress.)
func (s *termScreen) close() { _ = s.emu.InputPipe().(io.Closer).Close() }

// text is what the screen shows, line by line, without styles.
func (s *termScreen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.String()
}

func newTestProgram(t *testing.T, a *app, w, h int, opts ...tea.ProgramOption) *testProgram {
	t.Helper()
	tp := &testProgram{term: &termScreen{emu: vt.NewEmulator(w, h)}, out: &syncBuffer{}, done: make(chan tea.Model, 1)}
	g := &guarded{a: a}
	tp.p = g.program(append([]tea.ProgramOption{tea.WithInput(tp.term), tea.WithOutput(io.MultiWriter(tp.term, tp.out)),
		tea.WithoutSignals(), tea.WithWindowSize(w, h), tea.WithColorProfile(a.c.Profile)}, opts...)...)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		m, err := tp.p.Run()
		if err = g.end(err); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
			t.Errorf("the lab ended with %v", err)
		}
		tp.done <- m
	}()
	t.Cleanup(func() {
		tp.p.Kill()
		<-ended
		tp.term.close()
	})
	return tp
}

func (tp *testProgram) Send(m tea.Msg) { tp.p.Send(m) }

// Type writes keys to the terminal's input as a person's keyboard does.
func (tp *testProgram) Type(keys string) {
	_, _ = io.WriteString(tp.term.emu.InputPipe(), keys)
}

// WaitFor polls what the screen shows until cond holds.
func (tp *testProgram) WaitFor(t *testing.T, cond func(string) bool, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond(tp.term.Text()) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("condition not met in %v; the screen:\n%s", d, tp.term.Text())
}

// FinalModel waits for the program to end and returns its model.
func (tp *testProgram) FinalModel(t *testing.T, d time.Duration) tea.Model {
	t.Helper()
	select {
	case m := <-tp.done:
		return m
	case <-time.After(d):
		t.Fatalf("the program did not end in %v; the screen:\n%s", d, tp.term.Text())
	}
	return nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func startFlow(t *testing.T, opt Options) *testProgram {
	t.Helper()
	opt.Theme = "dark"
	opt.Profile = colorprofile.NoTTY
	a, err := newApp(opt)
	if err != nil {
		t.Fatal(err)
	}
	return newTestProgram(t, a, 120, 40)
}

func waitScreen(t *testing.T, tm *testProgram, what ...string) {
	t.Helper()
	tm.WaitFor(t, func(s string) bool {
		for _, w := range what {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	}, 15*time.Second)
}

func sendKeys(tm *testProgram, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

func finalApp(t *testing.T, tm *testProgram) *app {
	t.Helper()
	fm := tm.FinalModel(t, 10*time.Second)
	g, ok := fm.(*guarded)
	if !ok {
		t.Fatalf("final model is %T", fm)
	}
	return g.a
}

// The main path: pick iris, pick logistic, train, see the confusion matrix, quit.
func TestFlowMainPath(t *testing.T) {
	t.Parallel()
	tm := startFlow(t, Options{})
	waitScreen(t, tm, "Built-in sets", "iris")
	sendKeys(tm, "enter") // load iris and preview it
	waitScreen(t, tm, "150 rows × 5 columns", "target species")
	sendKeys(tm, "enter") // use it
	waitScreen(t, tm, "Models for classification")
	sendKeys(tm, "/", "l", "o", "g", "i", "s", "t", "i", "c", "enter") // the filter: the cursor on logistic, not klogistic
	sendKeys(tm, "enter")                                              // logistic: the form
	waitScreen(t, tm, "Hyperparameters of logistic regression")
	sendKeys(tm, "enter") // train
	waitScreen(t, tm, "Summary", "Confusion", "accuracy")
	sendKeys(tm, "tab")
	waitScreen(t, tm, "predicted", "precision", "recall")
	sendKeys(tm, "q")
	a := finalApp(t, tm)
	if a.cur != screenResults || a.results.Tabs.ActiveName() != "Confusion" {
		t.Fatalf("ended on screen %v, tab %q", a.cur, a.results.Tabs.ActiveName())
	}
	v := view(a)
	mustContain(t, v, "setosa", "versicolor", "virginica", "precision")
	if r := a.history[0]; r.Err != nil || r.Result.Metrics["accuracy"] < 0.8 {
		t.Errorf("run: err %v, accuracy %v", r.Err, r.Result.Metrics["accuracy"])
	}
}

// tealab --data iris --model logistic --train: straight to the results.
func TestFlowStartupTrain(t *testing.T) {
	t.Parallel()
	tm := startFlow(t, Options{Data: "iris", Model: "logistic", Train: true})
	waitScreen(t, tm, "Summary", "accuracy", "baseline")
	sendKeys(tm, "q")
	a := finalApp(t, tm)
	if a.cur != screenResults || len(a.history) != 1 {
		t.Fatalf("screen %v, %d runs", a.cur, len(a.history))
	}
}

// Cancel mid-training: the partial history is kept and shown.
func TestFlowCancel(t *testing.T) {
	t.Parallel()
	tm := startFlow(t, Options{Data: "iris", Model: "tuitest_slow", Train: true,
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})})
	waitScreen(t, tm, "/1000000 epochs", "ETA")
	sendKeys(tm, "c")
	waitScreen(t, tm, "cancelled after", "partial history")
	sendKeys(tm, "q")
	a := finalApp(t, tm)
	r := a.history[0]
	if !r.Cancelled() || r.Result == nil || len(r.Result.History) == 0 {
		t.Fatalf("after cancel: err %v, result %v", r.Err, r.Result)
	}
	if a.job != nil {
		t.Error("a job is still attached after the run ended")
	}
}

// Quitting while training stops the run cleanly.
func TestFlowQuitWhileTraining(t *testing.T) {
	t.Parallel()
	tm := startFlow(t, Options{Data: "iris", Model: "tuitest_slow", Train: true,
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})})
	waitScreen(t, tm, "/1000000 epochs")
	sendKeys(tm, "ctrl+c")
	a := finalApp(t, tm)
	if !strings.Contains(tm.out.String(), "training loss") {
		t.Error("the training screen was never drawn")
	}
	if a.job != nil {
		t.Error("the job is still attached after quitting")
	}
	// quit() detached the job; the worker it stopped must have returned
	// before the program ended (quit waits for it).
	j := a.quitJob
	if j == nil {
		t.Fatal("quit did not keep the job it stopped")
	}
	select {
	case <-j.finished:
	default:
		t.Error("the program ended while the training goroutine was still running")
	}
	if r := a.history[0]; r.ID != j.id {
		t.Errorf("quit stopped run %d, the training run was %d", j.id, r.ID)
	}
}

package tui

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
)

// Whole flows through a real tea.Program driven by teatest: keys in,
// frames out.
//
// testProgram wraps teatest.TestModel and keeps everything the program has
// drawn: teatest.WaitFor consumes the output it reads, and the renderer only
// repaints lines that changed, so a wait for several strings must look at the
// whole output so far, not at what arrived since the last wait.
type testProgram struct {
	tm   *teatest.TestModel
	out  *syncBuffer
	stop chan struct{}
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

func newTestProgram(t *testing.T, m tea.Model, w, h int) *testProgram {
	t.Helper()
	tp := &testProgram{tm: teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h)),
		out: &syncBuffer{}, stop: make(chan struct{})}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		for {
			_, _ = io.Copy(tp.out, tp.tm.Output())
			select {
			case <-tp.stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() {
		close(tp.stop)
		<-copied
		tp.tm.GetProgram().Kill()
	})
	return tp
}

func (tp *testProgram) Send(m tea.Msg) { tp.tm.Send(m) }

// WaitFor polls everything drawn so far (escapes stripped) until cond holds.
func (tp *testProgram) WaitFor(t *testing.T, cond func(string) bool, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond(ansi.Strip(tp.out.String())) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("condition not met in %v; last output:\n%s", d, tail(ansi.Strip(tp.out.String()), 3000))
}

// FinalModel waits for the program to end and returns its model.
func (tp *testProgram) FinalModel(t *testing.T, d time.Duration) tea.Model {
	t.Helper()
	return tp.tm.FinalModel(t, teatest.WithFinalTimeout(d))
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
	a, err := newApp(opt, asciiRenderer())
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
	a, ok := fm.(*app)
	if !ok {
		t.Fatalf("final model is %T", fm)
	}
	return a
}

// The main path: pick iris, pick logistic, train, see the confusion matrix, quit.
func TestFlowMainPath(t *testing.T) {
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
	if a.cur != screenResults || a.results.tabs.ActiveName() != "Confusion" {
		t.Fatalf("ended on screen %v, tab %q", a.cur, a.results.tabs.ActiveName())
	}
	v := view(a)
	mustContain(t, v, "setosa", "versicolor", "virginica", "precision")
	if r := a.history[0]; r.Err != nil || r.Result.Metrics["accuracy"] < 0.8 {
		t.Errorf("run: err %v, accuracy %v", r.Err, r.Result.Metrics["accuracy"])
	}
}

// tealab --data iris --model logistic --train: straight to the results.
func TestFlowStartupTrain(t *testing.T) {
	tm := startFlow(t, Options{Data: "iris", Model: "logistic", Train: true, Seed: 1})
	waitScreen(t, tm, "Summary", "accuracy", "baseline")
	sendKeys(tm, "q")
	a := finalApp(t, tm)
	if a.cur != screenResults || len(a.history) != 1 {
		t.Fatalf("screen %v, %d runs", a.cur, len(a.history))
	}
}

// Cancel mid-training: the partial history is kept and shown.
func TestFlowCancel(t *testing.T) {
	tm := startFlow(t, Options{Data: "iris", Model: "tuitest_slow", Train: true,
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})})
	waitScreen(t, tm, "/1000000 epochs", "ETA")
	sendKeys(tm, "c")
	waitScreen(t, tm, "cancelled after", "partial history")
	sendKeys(tm, "q")
	a := finalApp(t, tm)
	r := a.history[0]
	if !r.cancelled() || r.Result == nil || len(r.Result.History) == 0 {
		t.Fatalf("after cancel: err %v, result %v", r.Err, r.Result)
	}
	if a.job != nil {
		t.Error("a job is still attached after the run ended")
	}
}

// Quitting while training stops the run cleanly.
func TestFlowQuitWhileTraining(t *testing.T) {
	tm := startFlow(t, Options{Data: "iris", Model: "tuitest_slow", Train: true,
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})})
	waitScreen(t, tm, "/1000000 epochs")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
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

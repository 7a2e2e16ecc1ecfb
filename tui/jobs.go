package tui

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
)

// Training runs as a stream of messages: a run is a goroutine; its progress
// reaches the UI through a one-slot channel read by a tea.Cmd (waitFor) that returns one
// message and is re-armed by Update; the final result travels on its own
// one-slot channel, written before the progress channel is closed, so it can
// never be lost and the worker can never block. Nothing here touches state
// that View reads: points are copied into messages.

// progressEvery is the throttle: at most one progress message per interval
// (about 25 a second), the rest coalesced into the next message.
const progressEvery = 40 * time.Millisecond

// runFunc is a blocking evaluation; eval.Run in the application, fakes in tests.
type runFunc func(ctx context.Context, progress func(eval.Progress)) (*eval.Result, error)

// trainDoneMsg ends run: its result (partial, Cancelled, when stopped), the
// error, and the steps not yet delivered by a progressMsg.
type trainDoneMsg struct {
	run    int
	result *eval.Result
	err    error
	tail   []eval.Progress
}

// trainJob is a run in flight. Its fields are set once by startJob.
type trainJob struct {
	id       int
	cancel   context.CancelFunc
	events   chan kit.ProgressMsg // one slot; closed after done is written
	done     chan trainDoneMsg    // one slot
	finished chan struct{}        // closed when the worker has returned
	final    trainDoneMsg         // what it sent on done; read once finished is closed
	queue    chan int             // its place in line for a slot (queuedMsg); nil when none is waited for
}

// queuedMsg: run is place-th in line for a training slot; 0 when it has
// one.
type queuedMsg struct{ run, place int }

// reserving is fn run with need reserved in acc for its duration, or
// acc's refusal when the memory, less what the other runs hold, is short.
func reserving(acc *engine.Accountant, subject string, need engine.Need, fn runFunc) runFunc {
	return func(ctx context.Context, progress func(eval.Progress)) (*eval.Result, error) {
		release, err := acc.Reserve(subject, need)
		if err != nil {
			return nil, err
		}
		defer release()
		return fn(ctx, progress)
	}
}

// slotted is fn run once a slot is free, its place in line told on queue
// (the latest place replacing one not yet read), and the slot given back
// when fn returns.
func slotted(slot kit.TrainSlot, queue chan int, fn runFunc) runFunc {
	tell := func(place int) {
		for {
			select {
			case queue <- place:
				return
			default:
				select {
				case <-queue: // an older place nobody read yet
				default:
				}
			}
		}
	}
	return func(ctx context.Context, progress func(eval.Progress)) (*eval.Result, error) {
		release, err := slot(ctx, tell)
		if err != nil {
			return nil, err
		}
		defer release()
		tell(0)
		return fn(ctx, progress)
	}
}

// throttle coalesces progress from the fitting goroutine(s).
type throttle struct {
	mu      sync.Mutex
	run     int
	every   time.Duration
	last    time.Time
	pending []eval.Progress
	out     chan kit.ProgressMsg
	closed  bool
	now     func() time.Time // the clock; nil is time.Now (tests inject one)
}

// Observe is the progress callback handed to the evaluation. eval.Run hands
// over a fresh Point on every call (its Detail a value the step owns), so
// the steps are kept as they are.
func (t *throttle) Observe(p eval.Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.pending = append(t.pending, p)
	var now time.Time
	if t.now != nil {
		now = t.now()
	} else {
		now = time.Now()
	}
	if now.Sub(t.last) < t.every {
		return
	}
	select {
	case t.out <- kit.ProgressMsg{Run: t.run, Steps: t.pending}:
		t.pending = nil
		t.last = now
	default: // the UI has not taken the previous message yet: keep coalescing
	}
}

// finish returns what was never sent and closes the channel.
func (t *throttle) finish() []eval.Progress {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.pending
	t.pending = nil
	t.closed = true
	return p
}

// startJob launches fn in a goroutine as run id. model names the model in
// the error a panic is turned into; logf (may be nil) gets the panic's stack.
func startJob(parent context.Context, id int, model string, fn runFunc, every time.Duration, logf func(string, ...any)) *trainJob {
	ctx, cancel := context.WithCancel(parent)
	j := &trainJob{
		id:       id,
		cancel:   cancel,
		events:   make(chan kit.ProgressMsg, 1),
		done:     make(chan trainDoneMsg, 1),
		finished: make(chan struct{}),
	}
	th := &throttle{run: id, every: every, out: j.events}
	go func() {
		defer close(j.finished)
		defer cancel()
		var (
			res *eval.Result
			err error
		)
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("model %s crashed while training: %v", model, r)
					if logf != nil {
						logf("panic in run %d: %v\n%s", id, r, debug.Stack())
					}
				}
			}()
			res, err = fn(ctx, th.Observe)
		}()
		tail := th.finish()
		j.final = trainDoneMsg{run: id, result: res, err: err, tail: tail}
		j.done <- j.final
		close(j.events)
	}()
	return j
}

// waitFor returns the job's next message: progress, or, once the progress
// channel is closed, the final message. Update re-arms it after each progress
// message of the current run.
func waitFor(j *trainJob) tea.Cmd {
	return func() tea.Msg {
		select {
		case place := <-j.queue:
			return queuedMsg{run: j.id, place: place}
		case m, ok := <-j.events:
			if ok {
				return m
			}
			return <-j.done
		}
	}
}

// Stop cancels the job and waits up to d for its goroutine to return.
func (j *trainJob) Stop(d time.Duration) {
	if j == nil {
		return
	}
	kit.Halt(j.cancel, j.finished, d)
}

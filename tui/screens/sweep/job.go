package sweep

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/tune"
	"github.com/tealab/tealab/tui/kit"
)

// A sweep runs as training does (jobs.go): a goroutine whose points reach
// the UI by a tea.Cmd re-armed after each message, the end on its own
// one-slot channel so that it is never lost. Points are few and each is a
// whole cross-validation, so they are queued rather than throttled: a
// one-slot signal says some are waiting, and the message takes them all.

// sweepFunc is a blocking search: tune.Search or tune.LearningCurve.
type sweepFunc func(ctx context.Context, progress func(int, tune.Point)) (*tune.Result, error)

// IndexedPoint is a finished point and its place in the grid.
type IndexedPoint struct {
	i int
	p tune.Point
}

// PointsMsg carries the points finished since the previous message.
type PointsMsg struct {
	Job    int
	Points []IndexedPoint
}

// DoneMsg ends a sweep: its result (partial when cancelled), the
// error, and the points no message carried yet.
type DoneMsg struct {
	Job  int
	res  *tune.Result
	err  error
	tail []IndexedPoint
}

type sweepJob struct {
	id       int
	cancel   context.CancelFunc
	mu       sync.Mutex
	pending  []IndexedPoint
	ready    chan struct{} // one slot: points are pending
	done     chan DoneMsg  // one slot
	finished chan struct{} // closed when the worker has returned
}

func startSweep(parent context.Context, id int, fn sweepFunc, logf func(string, ...any)) *sweepJob {
	ctx, cancel := context.WithCancel(parent)
	j := &sweepJob{id: id, cancel: cancel, ready: make(chan struct{}, 1), done: make(chan DoneMsg, 1), finished: make(chan struct{})}
	go func() {
		defer close(j.finished)
		defer cancel()
		var res *tune.Result
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("the sweep crashed: %v", r)
					if logf != nil {
						logf("panic in sweep %d: %v\n%s", id, r, debug.Stack())
					}
				}
			}()
			res, err = fn(ctx, j.observe)
		}()
		j.done <- DoneMsg{Job: id, res: res, err: err}
	}()
	return j
}

// observe is the search's progress callback (called one at a time).
func (j *sweepJob) observe(i int, p tune.Point) {
	j.mu.Lock()
	j.pending = append(j.pending, IndexedPoint{i, p})
	j.mu.Unlock()
	select {
	case j.ready <- struct{}{}:
	default: // a signal is already waiting
	}
}

func (j *sweepJob) take() []IndexedPoint {
	j.mu.Lock()
	defer j.mu.Unlock()
	p := j.pending
	j.pending = nil
	return p
}

// waitSweep is the job's next message: points, or its end.
func waitSweep(j *sweepJob) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-j.ready:
			return PointsMsg{Job: j.id, Points: j.take()}
		case d := <-j.done:
			d.tail = j.take()
			return d
		}
	}
}

// Stop cancels the job and waits up to quitWait for it to return.
func (j *sweepJob) Stop() {
	if j == nil {
		return
	}
	kit.Halt(j.cancel, j.finished, kit.QuitWait)
}

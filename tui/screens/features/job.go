package features

import (
	"context"
	"fmt"
	"runtime/debug"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine/rank"
	"github.com/tealab/tealab/tui/kit"
)

// A ranking runs as a sweep does: a goroutine whose messages reach the UI
// through a tea.Cmd re-armed after each one. Progress is coalesced in a
// one-slot channel (only the latest matters); each method's ranking and
// the end go on a channel with room for all of them, so the worker never
// blocks and nothing is lost.

// ProgressMsg is how far the slow method running has got.
type ProgressMsg struct {
	Job int
	P   rank.Progress
}

// RankedMsg is one method's ranking.
type RankedMsg struct {
	Job int
	R   rank.Ranking
}

// DoneMsg ends a job: nil, the cancellation, or what stopped it.
type DoneMsg struct {
	Job int
	Err error
}

type job struct {
	id       int
	cancel   context.CancelFunc
	progress chan rank.Progress // one slot: the latest
	out      chan tea.Msg       // rankings, then the end
	finished chan struct{}
}

// rankFunc ranks by one method, telling its progress.
type rankFunc func(ctx context.Context, method string, progress func(rank.Progress)) (rank.Ranking, error)

// startJob ranks by each method in turn with fn, after prepare (which
// waits for a training slot and returns what gives it back).
func startJob(parent context.Context, id int, methods []string, prepare func(context.Context) (func(), error), fn rankFunc, logf func(string, ...any)) *job {
	ctx, cancel := context.WithCancel(parent)
	j := &job{id: id, cancel: cancel, progress: make(chan rank.Progress, 1), out: make(chan tea.Msg, len(methods)+1), finished: make(chan struct{})}
	go func() {
		defer close(j.finished)
		defer cancel()
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("the ranking crashed: %v", r)
					if logf != nil {
						logf("panic in ranking %d: %v\n%s", id, r, debug.Stack())
					}
				}
			}()
			release, perr := prepare(ctx)
			if perr != nil {
				err = perr
				return
			}
			defer release()
			for _, m := range methods {
				r, rerr := fn(ctx, m, j.observe)
				if rerr != nil {
					err = fmt.Errorf("%s: %w", m, rerr)
					return
				}
				j.out <- RankedMsg{Job: id, R: r}
			}
		}()
		j.out <- DoneMsg{Job: id, Err: err}
	}()
	return j
}

func (j *job) observe(p rank.Progress) { kit.Offer(j.progress, p) }

// wait is the job's next message: a ranking or the end first, else
// progress.
func wait(j *job) tea.Cmd {
	return func() tea.Msg {
		select {
		case m := <-j.out:
			return m
		default:
		}
		select {
		case m := <-j.out:
			return m
		case p := <-j.progress:
			// A ranking sent before this progress comes first: the
			// progress is of the method after it (and only the latest
			// progress matters).
			select {
			case m := <-j.out:
				return m
			default:
			}
			return ProgressMsg{Job: j.id, P: p}
		}
	}
}

// Stop cancels the job and waits briefly for it to return.
func (j *job) Stop() {
	if j == nil {
		return
	}
	kit.Halt(j.cancel, j.finished, kit.QuitWait)
}

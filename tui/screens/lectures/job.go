package lectures

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/lecture"
	"github.com/tealab/tealab/tui/kit"
)

// An experiment runs as a ranking does: a goroutine whose frames reach
// the UI through a tea.Cmd re-armed after each one. Only the latest frame
// matters, so frames go through a one-slot channel; the end goes on its
// own channel, so the worker never blocks and the end is never lost.

// FrameMsg is a partial result of job Job.
type FrameMsg struct {
	Job int
	F   lecture.Frame
}

// DoneMsg ends job Job with its record.
type DoneMsg struct {
	Job int
	Rec *lecture.Record
}

// TickMsg advances a playing picture by a frame.
type TickMsg struct{ Play int }

type job struct {
	id       int
	cancel   context.CancelFunc
	frames   chan lecture.Frame
	done     chan *lecture.Record
	finished chan struct{}
}

// startJob runs e with the knobs v after prepare, which opens its data
// and waits for the training slot (returning what gives it back).
func startJob(parent context.Context, id int, e *lecture.Experiment, v engine.Values, prepare func(context.Context) (lecture.In, func(), error)) *job {
	ctx, cancel := context.WithCancel(parent)
	j := &job{id: id, cancel: cancel, frames: make(chan lecture.Frame, 1), done: make(chan *lecture.Record, 1), finished: make(chan struct{})}
	go func() {
		defer close(j.finished)
		defer cancel()
		in, release, err := prepare(ctx)
		if err != nil {
			rec := &lecture.Record{Experiment: e.Name, Args: e.Args(v), Status: lecture.Cancelled, Started: time.Now()}
			if ctx.Err() == nil {
				rec.Status, rec.Error = lecture.Failed, err.Error()
			}
			j.done <- rec
			return
		}
		defer release()
		j.done <- lecture.Start(ctx, e, in, j.observe)
	}()
	return j
}

func (j *job) observe(f lecture.Frame) { kit.Offer(j.frames, f) }

// wait is the job's next message: the end first, else the latest frame.
func wait(j *job) tea.Cmd {
	return func() tea.Msg {
		select {
		case rec := <-j.done:
			return DoneMsg{Job: j.id, Rec: rec}
		default:
		}
		select {
		case rec := <-j.done:
			return DoneMsg{Job: j.id, Rec: rec}
		case f := <-j.frames:
			return FrameMsg{Job: j.id, F: f}
		}
	}
}

// stop cancels the job and waits briefly for it to return.
func (j *job) stop() {
	if j == nil {
		return
	}
	kit.Halt(j.cancel, j.finished, kit.QuitWait)
}

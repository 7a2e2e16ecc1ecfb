package tui

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tealab/tealab/engine/eval"
)

// fakeRun reports steps as fast as it can (far above 100,000 a second) for
// dur, or n steps when n > 0, then returns a result with the steps it made.
func fakeRun(n int, dur time.Duration) runFunc {
	return func(ctx context.Context, progress func(eval.Progress)) (*eval.Result, error) {
		start := time.Now()
		res := &eval.Result{Model: "fake"}
		for i := 1; ; i++ {
			if n > 0 && i > n || n == 0 && time.Since(start) > dur {
				return res, nil
			}
			if err := ctx.Err(); err != nil {
				res.Cancelled = true
				return res, err
			}
			p := eval.Progress{Fold: 1, Folds: 1, Total: n, Point: eval.Point{Step: i, TrainLoss: 1 / float64(i)}}
			res.History = append(res.History, p.Point)
			progress(p)
		}
	}
}

// drain plays the UI's part: it runs waitFor, re-arming it after each progress
// message, until the final message, and returns the steps and message count.
func drain(t *testing.T, j *trainJob) (steps []eval.Progress, msgs int, done trainDoneMsg) {
	t.Helper()
	cmd := waitFor(j)
	for {
		switch m := cmd().(type) {
		case progressMsg:
			if m.run != j.id {
				t.Fatalf("message of run %d from job %d", m.run, j.id)
			}
			msgs++
			steps = append(steps, m.steps...)
			cmd = waitFor(j)
		case trainDoneMsg:
			return append(steps, m.tail...), msgs, m
		default:
			t.Fatalf("unexpected message %T", m)
		}
	}
}

func TestThrottleDeliversEveryStepInFewMessages(t *testing.T) {
	const dur = 300 * time.Millisecond
	start := time.Now()
	j := startJob(context.Background(), 7, "fake", fakeRun(0, dur), progressEvery, nil)
	steps, msgs, done := drain(t, j)
	elapsed := time.Since(start)
	if done.err != nil || done.run != 7 {
		t.Fatalf("done = %+v", done)
	}
	if len(steps) != len(done.result.History) {
		t.Fatalf("delivered %d steps, the run made %d", len(steps), len(done.result.History))
	}
	for i, s := range steps {
		if s.Point.Step != i+1 {
			t.Fatalf("step %d delivered as %d: out of order or lost", i+1, s.Point.Step)
		}
	}
	// A message leaves only when progressEvery has passed since the last one.
	if limit := int(elapsed/progressEvery) + 2; msgs > limit {
		t.Errorf("%d progress messages in %v (%d steps): more than %d", msgs, elapsed, len(steps), limit)
	}
	if msgs == 0 {
		t.Errorf("no progress message at all in %v", elapsed)
	}
}

func TestJobCancelKeepsPartialResult(t *testing.T) {
	j := startJob(context.Background(), 1, "fake", fakeRun(0, time.Hour), progressEvery, nil)
	cmd := waitFor(j)
	if _, ok := cmd().(progressMsg); !ok {
		t.Fatal("expected progress first")
	}
	j.cancel()
	var done trainDoneMsg
	for {
		if m, ok := waitFor(j)().(trainDoneMsg); ok {
			done = m
			break
		}
	}
	if !errors.Is(done.err, context.Canceled) || done.result == nil || !done.result.Cancelled {
		t.Fatalf("after cancel: err %v, result %+v", done.err, done.result)
	}
	select {
	case <-j.finished:
	case <-time.After(2 * time.Second):
		t.Fatal("worker did not return after cancel")
	}
}

func TestJobPanicBecomesErrorNamingModel(t *testing.T) {
	boom := func(ctx context.Context, progress func(eval.Progress)) (*eval.Result, error) {
		var m map[string]int
		m["x"]++ // a real runtime panic
		return nil, nil
	}
	j := startJob(context.Background(), 3, "perceptron", boom, progressEvery, nil)
	_, _, done := drain(t, j)
	if done.err == nil || !strings.Contains(done.err.Error(), "perceptron") {
		t.Fatalf("err = %v, want one naming the model", done.err)
	}
}

// An abandoned job (the UI stopped listening: a newer run, or esc) must not
// leak its goroutine: the worker never blocks on a send.
func TestAbandonedJobsDoNotLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for i := range 20 {
		j := startJob(context.Background(), i, "fake", fakeRun(0, time.Hour), time.Microsecond, nil)
		time.Sleep(time.Millisecond)
		j.stop(time.Second)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after stopping 20 unread jobs, %d before", n, before)
	}
}

// BenchmarkProgressThrottle: a fake model doing about 100,000 steps a second
// for a second; reports the messages the UI receives (target: ~25/s).
func BenchmarkProgressThrottle(b *testing.B) {
	paced := func(ctx context.Context, progress func(eval.Progress)) (*eval.Result, error) {
		start := time.Now()
		for i := 1; i <= 100_000; i++ {
			for time.Since(start) < time.Duration(i)*10*time.Microsecond {
			}
			progress(eval.Progress{Fold: 1, Folds: 1, Total: 100_000, Point: eval.Point{Step: i}})
		}
		return &eval.Result{}, nil
	}
	for b.Loop() {
		j := startJob(context.Background(), 1, "fake", paced, progressEvery, nil)
		cmd := waitFor(j)
		msgs, steps := 0, 0
	loop:
		for {
			switch m := cmd().(type) {
			case progressMsg:
				msgs++
				steps += len(m.steps)
				cmd = waitFor(j)
			case trainDoneMsg:
				steps += len(m.tail)
				break loop
			}
		}
		if steps != 100_000 {
			b.Fatalf("delivered %d of 100000 steps", steps)
		}
		b.ReportMetric(float64(msgs), "msgs/run")
	}
}

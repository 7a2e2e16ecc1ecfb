package tui

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/tui/kit"
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
		case kit.ProgressMsg:
			if m.Run != j.id {
				t.Fatalf("message of run %d from job %d", m.Run, j.id)
			}
			msgs++
			steps = append(steps, m.Steps...)
			cmd = waitFor(j)
		case trainDoneMsg:
			return append(steps, m.tail...), msgs, m
		default:
			t.Fatalf("unexpected message %T", m)
		}
	}
}

func TestThrottleDeliversEveryStepInOrder(t *testing.T) {
	t.Parallel()
	j := startJob(context.Background(), 7, "fake", fakeRun(0, 300*time.Millisecond), progressEvery, nil)
	steps, msgs, done := drain(t, j)
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
	// The first step always leaves at once (nothing was sent before it).
	if msgs == 0 {
		t.Error("no progress message at all")
	}
	// How many messages a second is measured by BenchmarkProgressThrottle;
	// the rule itself is checked on a fake clock below.
}

// TestThrottleRule drives the throttle on a fake clock: one message per
// interval however many steps come, the rest coalesced, nothing lost,
// and nothing sent while the UI has not taken the previous message.
func TestThrottleRule(t *testing.T) {
	t.Parallel()
	clock := time.Unix(1000, 0)
	out := make(chan kit.ProgressMsg, 1)
	th := &throttle{run: 3, every: 40 * time.Millisecond, out: out, now: func() time.Time { return clock }}
	var got []eval.Progress
	msgs := 0
	take := func() {
		select {
		case m := <-out:
			if m.Run != 3 {
				t.Fatalf("message of run %d", m.Run)
			}
			msgs++
			got = append(got, m.Steps...)
		default:
		}
	}
	// 1000 steps 1 ms apart, the UI reading after each: a message at
	// 0 ms, 40 ms, ..., 960 ms, that is 25.
	for i := 1; i <= 1000; i++ {
		th.Observe(eval.Progress{Point: eval.Point{Step: i}})
		take()
		clock = clock.Add(time.Millisecond)
	}
	if msgs != 25 {
		t.Errorf("%d messages for 1000 steps over 1 s at one per 40 ms, want 25", msgs)
	}
	got = append(got, th.finish()...)
	if len(got) != 1000 {
		t.Fatalf("%d of 1000 steps delivered", len(got))
	}
	for i, p := range got {
		if p.Point.Step != i+1 {
			t.Fatalf("step %d delivered as %d", i+1, p.Point.Step)
		}
	}

	// A UI that does not read: the slot holds one message, the rest waits
	// in pending, and the next due observe after a read sends it all.
	out2 := make(chan kit.ProgressMsg, 1)
	th2 := &throttle{run: 4, every: 40 * time.Millisecond, out: out2, now: func() time.Time { return clock }}
	for i := 1; i <= 200; i++ {
		th2.Observe(eval.Progress{Point: eval.Point{Step: i}})
		clock = clock.Add(time.Millisecond)
	}
	first := <-out2
	if len(first.Steps) != 1 || len(out2) != 0 {
		t.Fatalf("unread UI: first message has %d steps, %d more queued", len(first.Steps), len(out2))
	}
	th2.Observe(eval.Progress{Point: eval.Point{Step: 201}})
	second := <-out2
	if len(second.Steps) != 200 || second.Steps[0].Point.Step != 2 || second.Steps[199].Point.Step != 201 {
		t.Fatalf("after a read: %d steps coalesced, want steps 2..201", len(second.Steps))
	}
	// Within the interval nothing leaves.
	th2.Observe(eval.Progress{Point: eval.Point{Step: 202}})
	if len(out2) != 0 {
		t.Error("a message left before the interval had passed")
	}
	if tail := th2.finish(); len(tail) != 1 || tail[0].Point.Step != 202 {
		t.Errorf("finish returned %v, want step 202", tail)
	}
}

func TestJobCancelKeepsPartialResult(t *testing.T) {
	t.Parallel()
	j := startJob(context.Background(), 1, "fake", fakeRun(0, time.Hour), progressEvery, nil)
	cmd := waitFor(j)
	if _, ok := cmd().(kit.ProgressMsg); !ok {
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
	t.Parallel()
	boom := func(ctx context.Context, progress func(eval.Progress)) (*eval.Result, error) {
		var m map[string]int
		//lint:ignore SA5000 a real runtime panic is the point
		m["x"]++
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
	t.Parallel()
	before := runtime.NumGoroutine()
	for i := range 20 {
		j := startJob(context.Background(), i, "fake", fakeRun(0, time.Hour), time.Microsecond, nil)
		time.Sleep(time.Millisecond)
		j.Stop(time.Second)
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
			case kit.ProgressMsg:
				msgs++
				steps += len(m.Steps)
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

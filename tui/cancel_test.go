package tui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tealab/tealab/tui/kit"
)

// The cancel command read s.run on the command's goroutine: a run started
// in the meantime got the cancel.
func TestCancelCommandKeepsItsRun(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) > 0 }) {
		t.Fatal("no progress")
	}
	job := hs.a.job
	t.Cleanup(func() { job.Stop(5 * time.Second) })
	_, cmd := hs.a.Update(keyMsg("c"))
	if cmd == nil {
		t.Fatal("c gave no command")
	}
	// Update replaces the screen's run before the command runs.
	other := *hs.a.history[0]
	rec := *other.Record
	rec.ID = 99
	other.Record = &rec
	hs.a.train.Start(&other)
	if m, ok := cmd().(kit.CancelRunMsg); !ok || m.Run != job.id {
		t.Fatalf("the cancel command asked to cancel %#v, want run %d", m, job.id)
	}
}

// A run left with esc showed "context canceled" and nothing else when
// opened from the runs table.
func TestAbandonedRunKeepsPartialHistory(t *testing.T) {
	t.Parallel()
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) >= 5 }) {
		t.Fatal("no progress")
	}
	seen := trainSteps(hs)
	hs.queue = nil
	// A run is abandoned when another starts while it trains.
	hs.a.abandon()
	hs.a.goTo(screenParams)
	hs.press("esc", "R") // parameters (a text field has the keys) -> models
	mustContain(t, hs.View(), "abandoned")
	hs.press("enter")
	if hs.a.cur != screenResults {
		t.Fatalf("enter on the abandoned run: screen %v", hs.a.cur)
	}
	v := hs.View()
	mustContain(t, v, "abandoned (esc) after ", "epochs: partial history", "[History]")
	if strings.Contains(v, "context canceled") {
		t.Errorf("raw error shown:\n%s", v)
	}
	r := hs.a.history[0]
	if r.Result == nil || len(r.Result.History) != seen || r.Result.History[seen-1].Step != seen {
		t.Fatalf("kept history: %+v, want the %d steps received", r.Result, seen)
	}
	mustContain(t, v, "abandoned (esc) after "+strconv.Itoa(seen)+" epochs")
}

// A run still training when its lab is ended from outside (a dropped
// connection) is recorded knowing its data as a finished run does, by
// fingerprint and resolved target: compared by its source alone, it was
// never found to be on the same data as a finished run.
func TestInterruptedRunKnowsItsData(t *testing.T) {
	h := withHistory(t)
	hs := newHarness(t, Options{Data: "iris", Model: "tuitest_slow",
		Params: paramsOf("tuitest_slow", map[string]string{"steps": "1000000", "sleep_us": "100"})}, 120, 40)
	hs.queue = append(hs.queue, keyMsg("enter"))
	if !hs.runUntil(func() bool { return trainSteps(hs) > 0 }) {
		t.Fatal("no progress")
	}
	job := hs.a.job
	t.Cleanup(func() { job.Stop(5 * time.Second) })
	hs.a.recordInterrupted() // still training: abandoned, not settled
	es, _, err := h.Read()
	if err != nil || len(es) != 1 {
		t.Fatalf("history: %d entries, %v", len(es), err)
	}
	if d := es[0].Run.Data; d.Hash != "spec:iris" || d.TargetName != "species" {
		t.Errorf("interrupted run's data: hash %q, target %q; want spec:iris and species", d.Hash, d.TargetName)
	}
}

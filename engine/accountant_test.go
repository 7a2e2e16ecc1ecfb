package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// Two fits of 600 kB each fit in 1 MB one after the other, not at once: the
// second is refused while the first holds its reservation, saying so.
func TestAccountantCountsTheOtherFits(t *testing.T) {
	t.Setenv(MemoryEnv, "1MB")
	var a Accountant
	need := Need{Bytes: 600e3, What: "a 75000 x 1 test matrix"}
	release, err := a.Reserve("first", need)
	if err != nil {
		t.Fatalf("first fit refused: %v", err)
	}
	if _, err := a.Reserve("second", need); err == nil || !errors.Is(err, ErrLimit) ||
		!strings.Contains(err.Error(), "less 600 kB reserved by the runs in progress") {
		t.Fatalf("second fit while the first runs: %v, want a refusal counting the first", err)
	}
	release()
	release() // a second call gives nothing back twice
	if a.Held() != 0 {
		t.Fatalf("held %v after release, want 0", a.Held())
	}
	r2, err := a.Reserve("second", need)
	if err != nil {
		t.Fatalf("second fit after the first ended: %v", err)
	}
	r2()
}

// Reservations made at once never promise more than there is.
func TestAccountantIsAtomic(t *testing.T) {
	t.Setenv(MemoryEnv, "1MB")
	var a Accountant
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := a.Reserve("fit", Need{Bytes: 300e3, What: "a matrix"}); err == nil {
				mu.Lock()
				granted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if granted != 3 {
		t.Fatalf("%d reservations of 300 kB granted in 1 MB, want 3", granted)
	}
}

// ReserveWait waits for the fits in progress to give memory back rather
// than refuse; a need too large even alone is refused at once, and a
// cancelled wait returns the context's error.
func TestAccountantReserveWait(t *testing.T) {
	t.Setenv(MemoryEnv, "1MB")
	var a Accountant
	need := Need{Bytes: 600e3, What: "a matrix"}
	release, err := a.Reserve("first", need)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.ReserveWait(context.Background(), "huge", Need{Bytes: 2e6, What: "a huge matrix"}); !errors.Is(err, ErrLimit) {
		t.Errorf("a need larger than the memory: %v, want a refusal at once", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.ReserveWait(ctx, "cancelled", need); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled wait: %v", err)
	}
	got := make(chan error)
	go func() {
		r, err := a.ReserveWait(context.Background(), "second", need)
		if err == nil {
			r()
		}
		got <- err
	}()
	release() // the second may reserve only now
	if err := <-got; err != nil {
		t.Errorf("second after the first: %v", err)
	}
	if a.Held() != 0 {
		t.Errorf("held %v at the end", a.Held())
	}
}

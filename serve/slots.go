package serve

import (
	"context"
	"slices"
	"sync"
)

// slots caps the runs that train at once across every session; the others
// wait in line, first come first served, and are told their place as it
// changes.
type slots struct {
	mu      sync.Mutex
	free    int
	waiting []*waiter
}

type waiter struct {
	ready chan struct{} // closed when the slot is theirs
	tell  func(place int)
}

func newSlots(n int) *slots { return &slots{free: n} }

// wait is a tui.TrainSlot: it returns once a slot is free (telling queued
// its place meanwhile), or ctx's error when the session ends first.
func (s *slots) wait(ctx context.Context, queued func(place int)) (func(), error) {
	s.mu.Lock()
	if s.free > 0 && len(s.waiting) == 0 {
		s.free--
		s.mu.Unlock()
		return s.releaser(), nil
	}
	w := &waiter{ready: make(chan struct{}), tell: queued}
	s.waiting = append(s.waiting, w)
	queued(len(s.waiting))
	s.mu.Unlock()
	select {
	case <-w.ready:
		return s.releaser(), nil
	case <-ctx.Done():
		s.mu.Lock()
		i := slices.Index(s.waiting, w)
		if i >= 0 {
			s.waiting = slices.Delete(s.waiting, i, i+1)
			s.tellPlaces(i)
		}
		s.mu.Unlock()
		if i < 0 { // the slot was handed over as the session ended: pass it on
			s.release()
		}
		return nil, ctx.Err()
	}
}

// releaser gives the slot back once, however often it is called.
func (s *slots) releaser() func() {
	var once sync.Once
	return func() { once.Do(s.release) }
}

// release hands the slot to the first in line, or frees it.
func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.waiting) == 0 {
		s.free++
		return
	}
	w := s.waiting[0]
	s.waiting = s.waiting[1:]
	close(w.ready)
	s.tellPlaces(0)
}

// tellPlaces tells those in line from index from on their new place.
func (s *slots) tellPlaces(from int) {
	for i := from; i < len(s.waiting); i++ {
		s.waiting[i].tell(i + 1)
	}
}

// load is the number of runs holding a slot and of those waiting for one.
func (s *slots) load(capacity int) (training, queued int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return capacity - s.free, len(s.waiting)
}

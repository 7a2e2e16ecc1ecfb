package kit

import (
	"context"
	"time"
)

// What the lab's background workers (a run, a sweep, a ranking, an
// experiment) share in reaching the UI.

// Offer puts v in c, a channel of one slot, in place of a value nobody
// has read yet: a worker reporting its progress never blocks, and the
// reader gets the latest.
func Offer[T any](c chan T, v T) {
	for {
		select {
		case c <- v:
			return
		default:
			select {
			case <-c: // an older one nobody read
			default:
			}
		}
	}
}

// Halt cancels a worker and waits up to d for it to return (finished
// closed): long enough for a cancelled fit to stop, never for one that
// will not.
func Halt(cancel context.CancelFunc, finished <-chan struct{}, d time.Duration) {
	cancel()
	select {
	case <-finished:
	case <-time.After(d):
	}
}

package nn

import (
	"math"
	"time"

	"github.com/tealab/tealab/engine"
)

// liveShare is the share of a fit's time the live validation curve may
// take: scoring the held-out rows after every epoch would cost a network
// more (an epoch is cheap next to scoring many rows).
const liveShare = 0.04

// The cost of an epoch per training row, in forward passes of one row:
// an MLP's backward pass is two products to the forward's one, with the
// optimiser's steps on top (about 6 measured on digits, batch 32); a
// CNN's backward pass skips the gradient of its inputs (about 1.8).
const (
	mlpEpochCost = 4
	cnnEpochCost = 1.5
)

// pace is what an epoch passes through the network: the rows it trains
// on, and those early stopping holds back and scores.
type pace struct{ train, held int }

// validateEvery is how many epochs pass between two scorings of rows
// held-out rows, so that they cost at most liveShare of a fit whose epoch
// costs cost forward passes a training row.
func (p pace) validateEvery(rows int, cost float64) int {
	epoch := cost*float64(p.train) + float64(p.held)
	return max(1, int(math.Ceil(float64(rows)/(liveShare*epoch))))
}

// tickEvery is the least time between two ticks of a long epoch (a
// variable so that tests can tick every time).
var tickEvery = 250 * time.Millisecond

// epochTicks tells a Ticker how far a long epoch has got: an epoch that
// has run for tickEvery ticks, and again every tickEvery after that.
type epochTicks struct {
	rec         engine.Ticker // nil: the recorder hears whole epochs only
	step, total int
	last        time.Time
}

func newEpochTicks(rec engine.Recorder, total int) *epochTicks {
	t, _ := rec.(engine.Ticker)
	return &epochTicks{rec: t, total: total}
}

// begin starts epoch step (a nil epochTicks never ticks).
func (t *epochTicks) begin(step int) {
	if t != nil && t.rec != nil {
		t.step, t.last = step, time.Now()
	}
}

// at says the epoch has done share done; a non-nil error (a cancel) stops
// the fit.
func (t *epochTicks) at(done float64) error {
	if t == nil || t.rec == nil || time.Since(t.last) < tickEvery {
		return nil
	}
	t.last = time.Now()
	return t.rec.Tick(t.step, t.total, done)
}

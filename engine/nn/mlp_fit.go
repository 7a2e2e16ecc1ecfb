package nn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// mlpExplode is the training loss past which a fit counts as diverged
// before it reaches infinity: no loss of standardised targets or
// probabilities gets near it while it is learning.
const mlpExplode = 1e10

// mlpPoll is how many mini-batches pass between two looks at the context,
// so that a long epoch (stochastic steps on many rows) stops promptly.
const mlpPoll = 64

// mlpTol is the least fall of the held-back loss that counts as an
// improvement (scikit-learn's tol).
const mlpTol = 1e-4

// mlpFit is one fit: the rows, the network, the optimiser and every buffer
// the epochs reuse, so that an epoch allocates nothing.
type mlpFit struct {
	m          *MLP
	net        *mlpNet
	X          *mat.Dense
	y, w       []float64 // targets, and sample weights (nil: all 1)
	train, val []int
	rng        *rand.Rand
	opt        *Optimizer
	grads      *gradNorms // the epoch's gradient norms, per layer
	batch      int
	b          *mlpBatch
	g, yb, wb  []float64 // the gradient, a batch's targets and weights
	good, best []float64 // the weights of the last good epoch, and of the best (early stopping)
	ticks      *epochTicks
}

func newMLPFit(m *MLP, X *mat.Dense, y, w []float64, train, val []int, sizes []int, act Activation, out int, rng *rand.Rand) *mlpFit {
	net := newMLPNet(sizes, act, out)
	batch := min(m.Batch, len(train))
	opt, _ := NewOptimizer(m.Optimizer, len(net.w)) // the spec's choices are the optimisers
	f := &mlpFit{m: m, net: net, X: X, y: y, w: w, train: train, val: val, rng: rng, opt: opt, batch: batch,
		b: newMLPBatch(net, batch, m.Dropout > 0), g: make([]float64, len(net.w)), yb: make([]float64, batch),
		good: make([]float64, len(net.w))}
	ranges := make([][2]int, net.layers())
	for l := range ranges {
		ranges[l] = [2]int{net.woff[l+1], net.boff[l+1]}
	}
	f.grads = newGradNorms(ranges)
	if w != nil {
		f.wb = make([]float64, batch)
	}
	if len(val) > 0 {
		f.best = make([]float64, len(net.w))
	}
	return f
}

// gather copies the rows idx into the input batch, their targets into yb
// and their weights into wb.
func (f *mlpFit) gather(idx []int) {
	pad := f.net.pads[0]
	for i, r := range idx {
		copy(f.b.acts[0][i*pad:], f.X.RawRowView(r))
		f.yb[i] = f.y[r]
		if f.wb != nil {
			f.wb[i] = f.w[r]
		}
	}
}

// epoch trains on every training row once, in a fresh order, and returns
// the mean mini-batch loss, or the error of the context (or of the
// recorder's tick) that ended it midway.
func (f *mlpFit) epoch(ctx context.Context, lr float64) (float64, error) {
	f.rng.Shuffle(len(f.train), func(i, j int) { f.train[i], f.train[j] = f.train[j], f.train[i] })
	f.grads.reset()
	var drop *rand.Rand
	if f.m.Dropout > 0 {
		drop = f.rng
	}
	sum := 0.0
	for k, start := 0, 0; start < len(f.train); k, start = k+1, start+f.batch {
		if k > 0 && k%mlpPoll == 0 {
			if err := f.pause(ctx, start); err != nil {
				return 0, err
			}
		}
		rows := min(f.batch, len(f.train)-start)
		f.gather(f.train[start : start+rows])
		f.net.forward(f.b, rows, drop, f.m.Dropout)
		l := f.net.loss(f.b, rows, f.yb, f.wb) + f.net.penalty(f.m.L2, rows)
		f.net.backward(f.b, rows, f.g, f.m.L2)
		f.grads.add(f.g)
		f.opt.Step(f.net.w, f.g, lr)
		sum += l * float64(rows)
	}
	return sum / float64(len(f.train)), nil
}

// pause looks at the context and tells the recorder how far the epoch has
// got, start rows in.
func (f *mlpFit) pause(ctx context.Context, start int) error {
	if engine.Stopped(ctx.Done()) {
		return ctx.Err()
	}
	return f.ticks.at(float64(start) / float64(len(f.train)))
}

// valLoss is the mean loss of the held-back rows (no dropout, no penalty).
func (f *mlpFit) valLoss() float64 {
	sum := 0.0
	for start := 0; start < len(f.val); start += f.batch {
		rows := min(f.batch, len(f.val)-start)
		f.gather(f.val[start : start+rows])
		f.net.forward(f.b, rows, nil, 0)
		sum += f.net.loss(f.b, rows, f.yb, f.wb) * float64(rows)
	}
	return sum / float64(len(f.val))
}

// run trains epoch after epoch, reporting each. Whatever ends it (the last
// epoch, patience, a cancel, a divergence), the network is left with the
// best epoch's weights under early stopping, else with those of the last
// epoch reported whose loss was finite: what the step reporting a
// divergence shows, and what a fit stopped by its context keeps
// (StoppedEarly; engine.Fit unfits one that failed otherwise).
func (f *mlpFit) run(ctx context.Context, rec engine.Recorder) error {
	m, net := f.m, f.net
	he := m.Init == "he" || m.Init == "auto" && (net.act.kind == actReLU || net.act.kind == actLeaky)
	net.initialise(f.rng, he)
	copy(f.good, net.w)
	bestLoss, bad := math.Inf(1), 0
	keep := func() { // the weights a stopped fit keeps
		if f.best != nil && m.best > 0 {
			copy(net.w, f.best)
		} else {
			copy(net.w, f.good)
		}
	}
	f.ticks = newEpochTicks(rec, m.Epochs)
	for e := 1; e <= m.Epochs; e++ {
		lr := m.LR / (1 + m.LRDecay*float64(e-1))
		f.ticks.begin(e)
		loss, err := f.epoch(ctx, lr)
		if err != nil {
			keep()
			return m.StoppedEarly(err)
		}
		diverged := math.IsNaN(loss) || math.IsInf(loss, 0) || loss > mlpExplode
		if diverged {
			copy(net.w, f.good)
		} else {
			copy(f.good, net.w)
			m.epochs = e
		}
		if f.best != nil && !diverged {
			if v := f.valLoss(); v < bestLoss-mlpTol {
				bestLoss, bad, m.best = v, 0, e
				copy(f.best, net.w)
			} else {
				bad++
			}
		}
		m.Fitted = true
		if err := rec.Step(engine.Step{Step: e, Total: m.Epochs, TrainLoss: loss, Detail: f.norms(lr)}); err != nil {
			if !diverged {
				keep()
			}
			return m.StoppedEarly(err)
		}
		if diverged {
			return fmt.Errorf("mlp: %w: the training loss is %s at epoch %d; lower the learning rate (lr=%s) or use optimizer=adam",
				engine.ErrDiverged, numfmt.Sig(loss, 2), e, numfmt.Param(m.LR))
		}
		if err := ctx.Err(); err != nil {
			keep()
			return m.StoppedEarly(err)
		}
		if f.best != nil && bad >= m.Patience {
			break
		}
	}
	if f.best != nil {
		copy(net.w, f.best)
	}
	return nil
}

// norms is the epoch's payload: the learning rate and every layer's
// weight norm and gradient norms over the epoch (biases left out).
func (f *mlpFit) norms(lr float64) Epoch {
	L := f.net.layers()
	e := Epoch{LR: lr, Layers: make([]LayerNorms, L)}
	for l := 1; l <= L; l++ {
		e.Layers[l-1] = f.grads.layer(l-1, layerName(l, L), f.net.w)
	}
	return e
}

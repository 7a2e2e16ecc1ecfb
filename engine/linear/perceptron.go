package linear

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// Perceptron is Rosenblatt's perceptron, as in Shewchuk, Concise Machine Learning, lectures 2-3:
// labels y = ±1, a point is misclassified when y·(w·x + α) <= 0, and the
// risk R(w) = Σ_{i misclassified} −y_i X_i·w is minimised by
//
//   - stochastic gradient descent, "the perceptron algorithm" (Mode
//     "stochastic", the default): visit the points in turn and, on each
//     mistake, w ← w + ε y_i X_i. One step is one pass (epoch) over the
//     points in a random order drawn from Train.Seed, unless NoShuffle. The
//     rows are copied once in a random order; every epoch then visits
//     blocks of percBlock consecutive copied rows in a new random order,
//     and the rows of each block in a new random order. Every row is still
//     visited once an epoch at a random moment, and the rows are read from
//     memory in sequence: visiting them in a fresh global order instead
//     reads each from a random address, four times slower on 50k x 20.
//     When that copy would be large (above percCopyMax bytes) it is not
//     made: each block's rows are gathered from X as the block comes up,
//     in the same order, so the fit is the same with half the memory;
//   - batch gradient descent (Mode "batch"): one step is
//     w ← w + ε Σ_{i misclassified} y_i X_i.
//
// The bias α is learned by lifting (lecture 3): a fictitious feature fixed at 1.
// Training starts from w = 0; a point on the boundary counts as a mistake,
// so the first update sets w to ε y_i X_i, the start Shewchuk suggests. It
// stops early after an epoch without a mistake (the data were separated).
//
// More than two classes: one-vs-rest, one perceptron per class trained on
// "this class" (+1) against the rest (−1); Predict picks the highest score.
// Sample weights scale each update (as scikit-learn's Perceptron does).
//
// Each step reports TrainLoss = the fraction of (point, perceptron) pairs
// misclassified during that epoch — with two classes simply the fraction of
// training points the epoch got wrong — and a PerceptronEpoch, their count.
type Perceptron struct {
	Mode      string  // "stochastic" or "batch"
	LR        float64 // step size ε
	Epochs    int     // most passes over the data
	NoBias    bool    // true: boundary through the origin (no lifting)
	NoShuffle bool    // true: stochastic mode visits points in row order
	Lift      int     // fit on the monomials of degree 1..Lift (see lifted); <= 1: none
	copyMax   int     // bytes of the shuffled copy; 0: percCopyMax (a test gathers blocks with -1)

	linearClassifier // one row of w per perceptron
}

const percName = "perceptron"

// percBlock is the number of consecutive rows (of the shuffled copy) that a
// stochastic epoch visits together: 256 rows of 20 features are 40 KB,
// which stay in the L1/L2 caches while they are visited.
const percBlock = 256

// percCopyMax is the size (bytes) of the largest shuffled copy of the
// training rows a stochastic fit makes; above it, blocks are gathered.
const percCopyMax = 64 << 20

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "perceptron",
		Title:    "perceptron",
		Family:   "linear models",
		Summary:  "Rosenblatt's mistake-driven linear classifier (one-vs-rest for more than two classes)",
		Notes:    "Shewchuk, Concise Machine Learning, lectures 2-3; Verma, COMS 4771 notes, Perceptron and Kernelization; Rosenblatt 1958",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "epoch",
		// Gradient descent: step sizes mean the same thing on every feature.
		Standardize: true,
		Params: []engine.Param{
			{Name: "mode", Kind: engine.Choice, Default: "stochastic", Choices: []string{"stochastic", "batch"},
				Help: "stochastic: update on each mistake in turn; batch: one step on all mistakes per epoch"},
			{Name: "lr", Kind: engine.Float, Default: 1.0, Min: 1e-6, Max: 1e6, Log: true,
				Help: "step size ε of each update"},
			{Name: "epochs", Kind: engine.Int, Default: 100, Min: 1, Max: 100000,
				Help: "most passes over the data; stops early after a pass without a mistake"},
			{Name: "bias", Kind: engine.Bool, Default: true,
				Help: "learn an offset α by lifting (a fictitious feature fixed at 1)"},
			{Name: "shuffle", Kind: engine.Bool, Default: true,
				When: &engine.Applies{Param: "mode", In: []string{"stochastic"}},
				Help: "stochastic mode: visit the points in a new seeded random order each epoch"},
			liftParam,
		},
		Memory: liftMemory(nil),
		Bench:  []engine.BenchCase{{Name: "perceptron", Data: "clf_50k_20", Task: datasets.Classification, Params: map[string]string{"epochs": "20"}}},
		New: func(v engine.Values) (engine.Model, error) {
			return &Perceptron{
				Mode:      v.String("mode"),
				LR:        v.Float("lr"),
				Epochs:    v.Int("epochs"),
				NoBias:    !v.Bool("bias"),
				NoShuffle: !v.Bool("shuffle"),
				Lift:      v.Int("lift"),
			}, nil
		},
	})
}

// Fit implements engine.Model.
func (m *Perceptron) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	mode, lr, epochs := m.Mode, m.LR, m.Epochs
	present, err := presentClasses(d, percName)
	if err != nil {
		return err
	}
	d, lift, err := liftTrain(d, m.Lift, true, percName)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	n, p := d.X.Dims()
	// One perceptron with two classes (positive = the larger code, as
	// scikit-learn), else one per class.
	np := len(present)
	if np == 2 {
		np = 1
	}
	pos := present
	if np == 1 {
		pos = present[1:]
	}
	// label[c][i] = ±1 for perceptron c.
	label := make([][]float64, np)
	for c := range label {
		label[c] = make([]float64, n)
		for i, v := range d.Y {
			if int(v) == pos[c] {
				label[c][i] = 1
			} else {
				label[c][i] = -1
			}
		}
	}
	sw := d.Weights // nil: every row weighs 1
	W := mat.NewDense(np, p, nil)
	b := make([]float64, np)
	bias := !m.NoBias

	var rng *rand.Rand
	order := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if sw == nil || sw[i] > 0 {
			order = append(order, i)
		}
	}
	// xs holds the rows in the random order of order (stride p), ys their
	// labels (np a row) and ws their weights, so that a block of rows is
	// all in one place; at and blocks are the visiting order of an epoch.
	var xs, ys, ws, blockBuf []float64
	var at, blocks []int
	if mode == "stochastic" {
		if !m.NoShuffle {
			rng = rand.New(rand.NewPCG(d.Seed, 0x9e3779b97f4a7c15))
			shuffleInts(rng, order)
			if copyMax := cmp.Or(m.copyMax, percCopyMax); len(order)*p*8 <= copyMax {
				xs = make([]float64, len(order)*p)
				for k, i := range order {
					copy(xs[k*p:k*p+p], d.X.RawRowView(i))
				}
			} else {
				blockBuf = make([]float64, percBlock*p)
			}
		}
		ys, ws = make([]float64, len(order)*np), make([]float64, len(order))
		for k, i := range order {
			for c := range np {
				ys[k*np+c] = label[c][i]
			}
			ws[k] = 1
			if sw != nil {
				ws[k] = sw[i]
			}
		}
		at = make([]int, len(order))
		for k := range at {
			at[k] = k
		}
		blocks = make([]int, (len(order)+percBlock-1)/percBlock)
		for b := range blocks {
			blocks[b] = b
		}
	}
	// Batch mode buffers: scores and the per-point coefficients y_i·weight_i
	// of the misclassified points.
	var Z, A *mat.Dense
	if mode == "batch" {
		Z = mat.NewDense(n, np, nil)
		A = mat.NewDense(np, n, nil)
	}
	G := mat.NewDense(np, p, nil)
	raw := d.X.RawMatrix()
	mistakes := make([]int, np)
	converged := make([]bool, np)
	// Predict reads W and b, which are updated in place: from the first step
	// on, the recorder sees the current perceptrons.
	m.nFeat, m.features, m.classes, m.present, m.lift = p, d.Features, d.Classes, present, lift
	m.w, m.b = W, b

	var touched float64
	defer func() { touchSink.Store(math.Float64bits(touched)) }()
	for epoch := 1; epoch <= epochs; epoch++ {
		for c := range mistakes {
			mistakes[c] = 0
		}
		if mode == "stochastic" {
			// visit is one row: k in order, x its features.
			wraw := W.RawMatrix().Data // np x p, stride p
			visit := func(k int, x []float64) {
				s := ws[k]
				yk := ys[k*np : k*np+np]
				for c := 0; c < np; c++ {
					if converged[c] {
						continue
					}
					wc := wraw[c*p : c*p+p][:len(x)]
					y := yk[c]
					if y*(b[c]+kernel.Dot(wc, x)) <= 0 {
						step := lr * y * s
						for j, v := range x {
							wc[j] += step * v
						}
						if bias {
							b[c] += step
						}
						mistakes[c]++
					}
				}
			}
			if rng == nil {
				for k, i := range order {
					visit(k, raw.Data[i*raw.Stride:i*raw.Stride+p])
				}
			} else {
				shuffleInts(rng, blocks)
				for _, blk := range blocks {
					lo, hi := blk*percBlock, min((blk+1)*percBlock, len(at))
					// Read the block in sequence first: the hardware
					// prefetcher streams it into the cache, where the
					// random visits below find it (visited at random
					// straight from memory, every row is a cache miss).
					var blk []float64 // the block's rows, row k at (k-lo)*p
					if xs != nil {
						var t float64
						blk = xs[lo*p : hi*p : hi*p]
						for o := 0; o < len(blk); o += 8 { // one load a cache line
							t += blk[o]
						}
						touched += t
					} else {
						// Independent row loads overlap their cache misses.
						blk = blockBuf[:(hi-lo)*p]
						for k := lo; k < hi; k++ {
							copy(blk[(k-lo)*p:(k-lo+1)*p], raw.Data[order[k]*raw.Stride:order[k]*raw.Stride+p])
						}
					}
					seg := at[lo:hi]
					shuffleInts(rng, seg)
					for _, k := range seg {
						visit(k, blk[(k-lo)*p:(k-lo+1)*p])
					}
				}
			}
		} else {
			// Z = X Wᵀ + b; A[c][i] = y_i·weight_i where misclassified, else 0.
			Z.Mul(d.X, W.T())
			for c := 0; c < np; c++ {
				ac := A.RawRowView(c)
				for i := range ac {
					ac[i] = 0
				}
				if converged[c] {
					continue
				}
				y := label[c]
				for _, i := range order {
					if y[i]*(Z.At(i, c)+b[c]) <= 0 {
						s := 1.0
						if sw != nil {
							s = sw[i]
						}
						ac[i] = y[i] * s
						mistakes[c]++
					}
				}
			}
			// W ← W + ε A X  (the gradient step on R for every perceptron).
			G.Mul(A, d.X)
			for c := 0; c < np; c++ {
				if mistakes[c] == 0 {
					continue
				}
				floats.AddScaled(W.RawRowView(c), lr, G.RawRowView(c))
				if bias {
					b[c] += lr * floats.Sum(A.RawRowView(c))
				}
			}
		}
		total := 0
		for c, k := range mistakes {
			total += k
			if k == 0 {
				// No update this epoch: w is final (every point is right).
				converged[c] = true
			}
		}
		m.Fitted = true
		if err := rec.Step(engine.Step{
			Step:      epoch,
			Total:     epochs,
			TrainLoss: float64(total) / float64(len(order)*np),
			Detail:    PerceptronEpoch{Mistakes: total},
		}); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if total == 0 {
			break
		}
		if !finiteSlice(W.RawMatrix().Data) || !finiteSlice(b) {
			return fmt.Errorf("perceptron: %w: the weights overflowed at epoch %d; try a smaller learning rate (lr=%g)", engine.ErrDiverged, epoch, lr)
		}
	}
	m.Fitted = true
	return nil
}

// touchSink keeps the block reads of stochastic epochs from being
// optimised away; atomic, as fits run side by side (a sweep's points).
var touchSink atomic.Uint64

// shuffleInts is Fisher-Yates, as rand.Shuffle but without a call per swap.
func shuffleInts(r *rand.Rand, a []int) {
	for i := len(a) - 1; i > 0; i-- {
		j := int(r.Uint64N(uint64(i + 1)))
		a[i], a[j] = a[j], a[i]
	}
}

// Predict implements engine.Model: class codes.
func (m *Perceptron) Predict(X mat.Matrix) ([]float64, error) { return m.predict(percName, X) }

// DecisionFunction implements engine.Scorer: w_c·x + α_c per class (n ×
// classes). With two classes the columns are −f(x) and f(x). Classes absent
// from training score -math.MaxFloat64.
func (m *Perceptron) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return m.decisionFunction(percName, X)
}

// Coefficients implements engine.Coefficienter: one row (two classes: the
// positive class's f) or one per class (one-vs-rest).
func (m *Perceptron) Coefficients() engine.Coefficients { return m.coefficients() }

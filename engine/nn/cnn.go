package nn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "cnn",
		Title:    "convolutional network",
		Family:   "neural networks",
		Summary:  "shared masks slid over an image, ReLU, max pooling and a dense softmax head, trained by backpropagation with early stopping",
		Notes:    "Shewchuk, Concise Machine Learning, lecture 19 (convolutional neural networks); Goodfellow, Bengio & Courville, Deep Learning, ch. 9",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "epoch",
		Loss:     "cross-entropy",
		// The model scales the pixels itself, by one mean and one standard
		// deviation over every pixel: a mask then means the same at every
		// position, where per-column z-scores would blow up the border
		// pixels that are almost always 0.
		Standardize: false,
		Input:       engine.Input{Constant: true},
		Params:      cnnParams(),
		Memory:      cnnMemory,
		New:         newCNN,
	})
}

// cnnMemory counts the weights five times (the weights, their gradient,
// the best, two optimiser moments), the scaled copy of the rows, and the
// patches and convolutions of a batch of images for training and another
// for scoring. Columns that are no image count as a 1 × cols strip: Fit
// refuses them anyway.
func cnnMemory(s engine.Shape, v engine.Values) engine.Need {
	h, w := 1, s.Cols
	if side := int(math.Round(math.Sqrt(float64(s.Cols)))); side*side == s.Cols {
		h, w = side, side
	}
	if hh, ww, err := parseShape(v.String("shape")); err == nil {
		h, w = hh, ww
	}
	f, k, p := v.Int("filters"), v.Int("kernel"), v.Int("pool")
	in := f * ((h + p - 1) / p) * ((w + p - 1) / p)
	weights := f*k*k + f
	for _, out := range append(v.Ints("hidden"), max(s.Classes, 2)) {
		if out > 0 {
			weights += in*out + out
			in = out
		}
	}
	pixels := h * w
	images := max(1, min(v.Int("batch"), max(s.Rows, 1), (1<<20)/max(pixels*max(k*k, f), 1)))
	need := engine.Matrix(weights, 5, "set of network weights")
	need.Advice = "use fewer filters or dense units, or a larger pool"
	return need.Plus(engine.Matrix(s.Rows, s.Cols, "copy of the scaled pixels")).
		Plus(engine.Matrices(2, images*pixels, k*k+2*f, "batch of patches and convolutions"))
}

func cnnParams() []engine.Param {
	return append(append([]engine.Param{
		{Name: "filters", Kind: engine.Int, Default: 16, Min: 1, Max: 128, Help: "number of convolution masks"},
		{Name: "kernel", Kind: engine.Int, Default: 3, Min: 1, Max: 7, Help: "mask size (kernel × kernel pixels)"},
		{Name: "pool", Kind: engine.Int, Default: 2, Min: 1, Max: 8, Help: "max-pooling window (pool × pool), 1 for none"},
		{Name: "shape", Kind: engine.Text, Default: "", Check: checkShape, Help: "image height x width, e.g. 8x8 (empty: a square number of columns)"},
		{Name: "hidden", Kind: engine.Ints, Default: []int{0}, Min: 0, Max: 4096, Help: "widths of dense ReLU layers after pooling, e.g. 64 (0: none)"},
	}, trainingParams(0.003, 60, 8)...),
		engine.Param{Name: "init", Kind: engine.Choice, Default: "he", Choices: []string{"he", "xavier"}, Help: "initial weights: he (for ReLU) or xavier",
			Detail: "Weights start uniform in ±sqrt(6/fan): he takes fan = the layer's inputs, xavier its inputs plus outputs."})
}

// checkShape accepts "" or "HxW" with whole numbers of at least 1.
func checkShape(s string) error {
	if s == "" {
		return nil
	}
	if _, _, err := parseShape(s); err != nil {
		return err
	}
	return nil
}

func parseShape(s string) (h, w int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if ok {
		h, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			w, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || h < 1 || w < 1 || h > 4096 || w > 4096 {
		return 0, 0, fmt.Errorf("%q is not HEIGHTxWIDTH, e.g. 8x8", s)
	}
	return h, w, nil
}

// CNN is the convolutional network. Its fields up to net are parameters;
// the rest is the fit, published (best weights so far) before each step.
type CNN struct {
	filters, kernel, pool int
	shapeH, shapeW        int // 0: infer from a square number of columns
	hidden                []int
	optimizer, init       string
	lr, lrDecay, l2       float64
	batch, epochs         int
	patience              int
	valFraction           float64

	engine.FitState
	net         *convNet  // nil until a first epoch is published
	best        []float64 // the weights Predict uses
	mean, scale float64   // pixel scaling: (x − mean)/scale
	rows        pace      // the rows an epoch trains on and holds back
}

func newCNN(v engine.Values) (engine.Model, error) {
	m := &CNN{filters: v.Int("filters"), kernel: v.Int("kernel"), pool: v.Int("pool"),
		optimizer: v.String("optimizer"), init: v.String("init"),
		lr: v.Float("lr"), lrDecay: v.Float("lr_decay"), l2: v.Float("l2"),
		batch: v.Int("batch"), epochs: v.Int("epochs"), patience: v.Int("patience"),
		valFraction: v.Float("validation_fraction")}
	if s := v.String("shape"); s != "" {
		var err error
		if m.shapeH, m.shapeW, err = parseShape(s); err != nil {
			return nil, fmt.Errorf("parameter shape: %v", err)
		}
	}
	hidden := v.Ints("hidden")
	for _, h := range hidden {
		if h == 0 && len(hidden) > 1 {
			return nil, fmt.Errorf("parameter hidden: 0 means no dense layer and cannot be one of several widths (%v)", engine.Format(hidden))
		}
		if h > 0 {
			m.hidden = append(m.hidden, h)
		}
	}
	return m, nil
}

// imageShape is the height and width of the data's images: the shape
// parameter, or the side of a square number of columns.
func (m *CNN) imageShape(cols int) (int, int, error) {
	if m.shapeH > 0 {
		if m.shapeH*m.shapeW != cols {
			return 0, 0, engine.Limitf("cnn: shape=%dx%d has %d pixels but the data have %d columns; give a shape whose height × width is %d",
				m.shapeH, m.shapeW, m.shapeH*m.shapeW, cols, cols)
		}
		return m.shapeH, m.shapeW, nil
	}
	side := int(math.Round(math.Sqrt(float64(cols))))
	if side*side != cols {
		return 0, 0, engine.Limitf("cnn: %d columns are not a square image; give shape=HxW with height × width = %d (e.g. shape=1x%d)", cols, cols, cols)
	}
	return side, side, nil
}

// Fit trains on mini-batches of the rows. With patience it holds a share
// of them out (validation_fraction, as holdBack rounds it) and stops
// after patience epochs without a better validation loss, keeping
// the best weights. Those are the weights Predict uses at every step, so a
// fit cancelled at a step keeps what that step showed.
func (m *CNN) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.net, m.best = nil, nil
	n, cols := d.X.Dims()
	if len(d.Classes) < 2 {
		return fmt.Errorf("cnn: %d class declared; a classifier needs at least two", len(d.Classes))
	}
	if n == 0 {
		return fmt.Errorf("cnn: no training rows")
	}
	if err := engine.CheckFinite(d.X, d.Features); err != nil {
		return fmt.Errorf("cnn: %w", err)
	}
	if err := engine.CheckWeights(d.Weights, n); err != nil {
		return fmt.Errorf("cnn: %w", err)
	}
	h, w, err := m.imageShape(cols)
	if err != nil {
		return err
	}
	net := newConvNet(h, w, m.filters, m.kernel, m.pool, m.hidden, len(d.Classes))
	mean, scale := pixelScale(d.X)
	X := make([]float64, n*cols) // the scaled rows, contiguous
	for i := range n {
		for j, v := range d.X.RawRowView(i) {
			X[i*cols+j] = (v - mean) / scale
		}
	}
	t, err := newTrainer(m, net, d, X, cols)
	if err != nil {
		return err
	}
	m.rows = pace{train: len(t.train), held: len(t.val)}
	return t.run(ctx, rec, func(best []float64) {
		m.net, m.best, m.mean, m.scale = net, best, mean, scale
		m.Fitted = true
	})
}

// pixelScale is the mean and standard deviation of every value of X (1
// when they are all equal).
func pixelScale(X *mat.Dense) (mean, scale float64) {
	n, c := X.Dims()
	var s, ss float64
	for i := range n {
		for _, v := range X.RawRowView(i) {
			s += v
		}
	}
	mean = s / float64(n*c)
	for i := range n {
		for _, v := range X.RawRowView(i) {
			ss += (v - mean) * (v - mean)
		}
	}
	scale = math.Sqrt(ss / float64(n*c))
	if !(scale > 0) || math.IsInf(scale, 0) {
		scale = 1
	}
	return mean, scale
}

// trainer is one fit's working state, every buffer made before the first
// epoch.
type trainer struct {
	m          *CNN
	net        *convNet
	X          []float64 // scaled rows, cols apart
	cols       int
	y, weight  []float64
	train, val []int
	wt, grad   []float64
	best       []float64
	opt        *Optimizer
	grads      *gradNorms // the epoch's gradient norms, per layer
	buf        *buffers
	maskT      mat.Matrix  // the working masks, transposed, for the convolution
	xs         [][]float64 // a batch's images
	rng        *rand.Rand
	ticks      *epochTicks
}

func newTrainer(m *CNN, net *convNet, d engine.Train, X []float64, cols int) (*trainer, error) {
	t := &trainer{m: m, net: net, X: X, cols: cols, y: d.Y, weight: d.Weights,
		wt: make([]float64, net.size()), grad: make([]float64, net.size()), best: make([]float64, net.size()),
		rng: rand.New(rand.NewPCG(d.Seed, 0x5bd1e9955bd1e995))}
	t.buf = net.newBuffers(net.bufferImages(min(m.batch, len(d.Y))))
	t.xs = make([][]float64, 0, t.buf.size)
	t.maskT = net.masks(t.wt).T()
	t.opt, _ = NewOptimizer(m.optimizer, net.size()) // the spec's choices are the optimisers
	t.grads = newGradNorms(net.weightRanges())
	net.initWeights(t.wt, m.init, t.rng)
	var err error
	t.train, t.val, err = holdBack("cnn", len(d.Y), m.patience, m.valFraction, t.rng)
	return t, err
}

// run trains epoch after epoch; publish makes best the model's weights.
func (t *trainer) run(ctx context.Context, rec engine.Recorder, publish func(best []float64)) error {
	m := t.m
	bestLoss, wait := math.Inf(1), 0
	t.ticks = newEpochTicks(rec, m.epochs)
	for epoch := 1; epoch <= m.epochs; epoch++ {
		lr := m.lr / (1 + m.lrDecay*float64(epoch-1))
		t.ticks.begin(epoch)
		loss, err := t.epoch(ctx, lr)
		if err != nil {
			return m.StoppedEarly(err) // the weights published stay
		}
		watch := loss
		if len(t.val) > 0 {
			watch = t.validationLoss()
		}
		if isFinite(watch) && (epoch == 1 || m.patience == 0 || watch < bestLoss-1e-4*math.Abs(bestLoss)) {
			bestLoss, wait = watch, 0
			copy(t.best, t.wt)
			publish(t.best)
		} else {
			wait++
		}
		total := m.epochs
		stop := m.patience > 0 && wait >= m.patience
		if stop || !isFinite(loss) {
			total = epoch
		}
		if err := rec.Step(engine.Step{Step: epoch, Total: total, TrainLoss: loss, Detail: t.detail(lr)}); err != nil {
			return m.StoppedEarly(err)
		}
		if !isFinite(loss) {
			return fmt.Errorf("cnn: the training loss became %s at epoch %d (%w); lower the learning rate lr (now %s)", numfmt.Sig(loss, 2), epoch, engine.ErrDiverged, numfmt.Param(m.lr))
		}
		if stop {
			break
		}
	}
	return nil
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// epoch is one pass over the training rows in a fresh order, a step of
// the optimiser per mini-batch; it returns the mean regularised loss of
// the batches.
func (t *trainer) epoch(ctx context.Context, lr float64) (float64, error) {
	m, net := t.m, t.net
	t.rng.Shuffle(len(t.train), func(i, j int) { t.train[i], t.train[j] = t.train[j], t.train[i] })
	t.grads.reset()
	total, seen := 0.0, 0
	for start := 0; start < len(t.train); start += m.batch {
		if engine.Stopped(ctx.Done()) {
			return 0, ctx.Err()
		}
		if start > 0 {
			if err := t.ticks.at(float64(start) / float64(len(t.train))); err != nil {
				return 0, err
			}
		}
		rows := t.train[start:min(start+m.batch, len(t.train))]
		clear(t.grad)
		inv := 1 / float64(len(rows))
		batchLoss := 0.0
		for sub := 0; sub < len(rows); sub += t.buf.size {
			part := rows[sub:min(sub+t.buf.size, len(rows))]
			net.convolve(t.maskT, t.wt, t.images(part), t.buf)
			for k, r := range part {
				y, wgt := int(t.y[r]), 1.0
				if t.weight != nil {
					wgt = t.weight[r]
				}
				p := net.head(t.wt, k, t.buf)
				batchLoss -= wgt * math.Log(max(p[y], 1e-300))
				net.backward(t.wt, k, y, wgt*inv, t.buf, t.grad)
			}
			net.convBackward(len(part), t.buf, t.grad)
		}
		batchLoss = (batchLoss + t.decay(len(rows))) * inv
		total += batchLoss * float64(len(rows))
		seen += len(rows)
		t.grads.add(t.grad)
		t.opt.Step(t.wt, t.grad, lr)
	}
	return total / float64(seen), nil
}

// decay adds l2·W/batch to the gradient of every weight (not the biases)
// and returns l2/2·‖W‖², the batch's penalty before it is shared out.
func (t *trainer) decay(batch int) float64 {
	if t.m.l2 == 0 {
		return 0
	}
	s := 0.0
	for _, r := range t.net.weightRanges() {
		for i := r[0]; i < r[1]; i++ {
			s += t.wt[i] * t.wt[i]
			t.grad[i] += t.m.l2 * t.wt[i] / float64(batch)
		}
	}
	return t.m.l2 / 2 * s
}

// validationLoss is the mean cross-entropy of the held-out rows under the
// current weights.
func (t *trainer) validationLoss() float64 {
	s := 0.0
	for start := 0; start < len(t.val); start += t.buf.size {
		rows := t.val[start:min(start+t.buf.size, len(t.val))]
		t.net.convolve(t.maskT, t.wt, t.images(rows), t.buf)
		for k, r := range rows {
			p := t.net.head(t.wt, k, t.buf)
			s -= math.Log(max(p[int(t.y[r])], 1e-300))
		}
	}
	return s / float64(len(t.val))
}

// images are the scaled rows' images, in t.xs.
func (t *trainer) images(rows []int) [][]float64 {
	t.xs = t.xs[:0]
	for _, r := range rows {
		t.xs = append(t.xs, t.X[r*t.cols:(r+1)*t.cols])
	}
	return t.xs
}

// detail is the epoch's rate and each layer's norms of weights and of the
// epoch's gradients.
func (t *trainer) detail(lr float64) Epoch {
	n := len(t.grads.ranges)
	e := Epoch{LR: lr, Layers: make([]LayerNorms, n)}
	for i := range n {
		name := fmt.Sprintf("dense %d", i)
		switch {
		case i == 0:
			name = "conv 1"
		case i == n-1:
			name = "output"
		}
		e.Layers[i] = t.grads.layer(i, name, t.wt)
	}
	return e
}

// ValidateEvery implements engine.Paced.
func (m *CNN) ValidateEvery(rows int) int { return m.rows.validateEvery(rows, cnnEpochCost) }

// PredictProba is each row's class probabilities.
func (m *CNN) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	return m.proba(X, nil)
}

// cnnScratch is what scoring needs besides the network: the convolution's
// buffers and the scaled images, kept by a scorer from step to step.
type cnnScratch struct {
	buf  *buffers
	xs   [][]float64
	out  *mat.Dense // the probabilities
	pred []float64
}

// proba is PredictProba with scratch s, made (or remade for another
// network) when it does not fit.
func (m *CNN) proba(X mat.Matrix, s *cnnScratch) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, cols := X.Dims()
	if cols != m.net.pixels() {
		return nil, fmt.Errorf("cnn: %d columns, but the network was fitted on %d×%d = %d pixels", cols, m.net.h, m.net.w, m.net.pixels())
	}
	if s == nil {
		s = &cnnScratch{}
	}
	if s.buf == nil || len(s.xs) == 0 || len(s.xs[0]) != cols {
		s.buf = m.net.newBuffers(m.net.bufferImages(min(n, 256)))
		s.xs = make([][]float64, s.buf.size)
		for i := range s.xs {
			s.xs[i] = make([]float64, cols)
		}
	}
	if s.out == nil || s.out.RawMatrix().Rows != n || s.out.RawMatrix().Cols != m.net.classes() {
		s.out = mat.NewDense(n, m.net.classes(), nil)
	}
	buf, xs, out := s.buf, s.xs, s.out
	maskT := m.net.masks(m.best).T()
	for start := 0; start < n; start += buf.size {
		batch := xs[:min(buf.size, n-start)]
		dense, isDense := X.(*mat.Dense)
		for k, x := range batch {
			if isDense {
				for j, v := range dense.RawRowView(start + k) {
					x[j] = (v - m.mean) / m.scale
				}
				continue
			}
			for j := range x {
				x[j] = (X.At(start+k, j) - m.mean) / m.scale
			}
		}
		m.net.convolve(maskT, m.best, batch, buf)
		for k := range batch {
			copy(out.RawRowView(start+k), m.net.head(m.best, k, buf))
		}
	}
	return out, nil
}

// Predict is each row's most probable class.
func (m *CNN) Predict(X mat.Matrix) ([]float64, error) {
	P, err := m.PredictProba(X)
	if err != nil {
		return nil, err
	}
	return mostProbable(P), nil
}

// Stages implements engine.Staged: the live validation convolves the
// held-out rows once a step for both the predictions and the
// probabilities, where Predict and PredictProba would do it twice.
func (m *CNN) Stages(X mat.Matrix) (engine.StageScorer, error) { return &cnnStages{m: m, X: X}, nil }

type cnnStages struct {
	m       *CNN
	X       mat.Matrix
	scratch cnnScratch
}

func (s *cnnStages) Scores() ([]float64, *mat.Dense, error) {
	P, err := s.m.proba(s.X, &s.scratch)
	if err != nil {
		return nil, nil, err
	}
	s.scratch.pred = mostProbableInto(s.scratch.pred, P)
	return s.scratch.pred, P, nil
}

// mostProbable is the class of each row's largest probability.
func mostProbable(P *mat.Dense) []float64 { return mostProbableInto(nil, P) }

// mostProbableInto is mostProbable into out, reused when it has the rows'
// length.
func mostProbableInto(out []float64, P *mat.Dense) []float64 {
	n, _ := P.Dims()
	if len(out) != n {
		out = make([]float64, n)
	}
	for i := range n {
		out[i] = float64(floats.MaxIdx(P.RawRowView(i)))
	}
	return out
}

// Network describes the layers and the first convolution's masks.
func (m *CNN) Network() Network {
	if m.net == nil {
		return Network{}
	}
	net := m.net
	out := Network{Inputs: net.pixels(), FilterH: net.k, FilterW: net.k, Layers: []Layer{
		{Kind: "conv", Units: net.f, Activation: "relu", Shape: []int{net.f, net.h, net.w}, Weights: net.f * (net.k*net.k + 1)},
		{Kind: "pool", Units: net.f, Shape: []int{net.f, net.ph, net.pw}},
	}}
	for i, l := range net.dense {
		kind, act := "dense", "relu"
		if i == len(net.dense)-1 {
			kind, act = "output", "softmax"
		}
		out.Layers = append(out.Layers, Layer{Kind: kind, Units: l.out, Activation: act, Weights: (l.in + 1) * l.out})
	}
	kk := net.k * net.k
	for c := range net.f {
		out.Filters = append(out.Filters, append([]float64(nil), m.best[c*kk:(c+1)*kk]...))
	}
	return out
}

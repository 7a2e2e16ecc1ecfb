package nn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// MLP is the multilayer perceptron, Shewchuk, Concise Machine Learning,
// lectures 16-18 (backpropagation, and the tricks that make it train):
// hidden layers of chosen widths and activation, softmax outputs with
// cross-entropy for classes, a linear output with squared error for
// regression (or, Loss "sigmoid", logistic outputs with squared error,
// Shewchuk's first network). Weights start He or Xavier uniform; each epoch
// visits the training rows in a seeded random order, in mini-batches whose
// mean loss (each row's weighted by Train.Weights when given), plus
// L2/(2·batch)·‖W‖² as scikit-learn's MLP adds it, one optimiser step
// lowers (nn.Optimizer). Dropout is inverted dropout on the
// hidden units. With Patience > 0 a seeded share of the training rows
// (ValidationFraction) is held back and the fit stops when their loss has
// not improved for Patience epochs, keeping the best epoch's weights.
// Regression targets are standardised inside the fit (scaled to [0, 1] for
// sigmoid outputs) and mapped back by Predict.
type MLP struct {
	Hidden             []int
	Activation         string
	Optimizer          string
	LR, LRDecay        float64
	Batch, Epochs      int
	L2, Dropout        float64
	Patience           int
	ValidationFraction float64
	Init               string // auto, he or xavier
	Loss               string // auto or sigmoid

	net *mlpNet
	engine.FitState
	classes      int     // output classes; 0 for regression
	shift, scale float64 // regression targets: y = shift + scale·output
	epochs       int     // epochs run
	best         int     // the epoch whose weights are kept (early stopping)
	rows         pace    // the rows an epoch trains on and holds back
}

const mlpName = "mlp"

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     mlpName,
		Title:    "multilayer perceptron",
		Family:   "neural networks",
		Summary:  "a feed-forward network of dense layers trained by backpropagation on mini-batches (SGD, momentum, RMSprop, Adam)",
		Notes:    "Shewchuk, Concise Machine Learning, lectures 16-18 (neural networks, backpropagation, training tricks)",
		Tasks:    []engine.Task{datasets.Classification, datasets.Regression},
		Unit:     "epoch",
		// Gradient descent wants features on one scale.
		Standardize: true,
		Params: append(append([]engine.Param{
			{Name: "hidden", Kind: engine.Ints, Default: []int{100}, Min: 1, Max: 4096,
				Help:   "widths of the hidden layers, comma-separated (\"64,32\": two layers)",
				Detail: "On XOR, two tanh units stick in a local minimum on 4 of seeds 1-10 with adam's defaults and on 1 of seeds 1-20 with optimizer=sgd lr=0.3; four learn it on seeds 1-20."},
			{Name: "activation", Kind: engine.Choice, Default: ReLU, Choices: Activations,
				Help: "hidden units' nonlinearity"},
		}, trainingParams(0.001, 200, 0)...), []engine.Param{
			{Name: "dropout", Kind: engine.Float, Default: 0.0, Min: 0, Max: 0.9,
				Help: "probability that a hidden unit is dropped in training"},
			{Name: "init", Kind: engine.Choice, Default: "auto", Choices: []string{"auto", "he", "xavier"},
				Help:   "initial weights: he, xavier, or auto (he for relu and leaky_relu, xavier otherwise)",
				Detail: "Weights start uniform in ±sqrt(6/fan): he takes fan = the layer's inputs, xavier its inputs plus outputs."},
			{Name: "loss", Kind: engine.Choice, Default: "auto", Choices: []string{"auto", "sigmoid"},
				Help:   "outputs and loss: auto (by the task) or sigmoid (logistic outputs, squared error)",
				Detail: "auto is softmax with cross-entropy for classes and a linear output with squared error for regression; sigmoid is logistic outputs with squared error, Shewchuk's first network."},
		}...),
		Bench: []engine.BenchCase{{Name: "mlp", Data: "digits", Task: datasets.Classification, Scale: true,
			Params: map[string]string{"hidden": "100", "optimizer": "adam", "lr": "0.001", "batch": "200", "epochs": "50"}}},
		Memory: mlpMemory,
		New: func(v engine.Values) (engine.Model, error) {
			return &MLP{
				Hidden: v.Ints("hidden"), Activation: v.String("activation"), Optimizer: v.String("optimizer"),
				LR: v.Float("lr"), LRDecay: v.Float("lr_decay"), Batch: v.Int("batch"), Epochs: v.Int("epochs"),
				L2: v.Float("l2"), Dropout: v.Float("dropout"), Patience: v.Int("patience"),
				ValidationFraction: v.Float("validation_fraction"), Init: v.String("init"), Loss: v.String("loss"),
			}, nil
		},
	})
}

// mlpMemory counts the weights six times (the weights, gradients, two
// optimiser moments, the best and the last good) and a mini-batch's four
// buffers a layer.
func mlpMemory(s engine.Shape, v engine.Values) engine.Need {
	sizes := append(append([]int{s.Cols}, v.Ints("hidden")...), max(s.Classes, 1))
	weights, units := 0, 0
	for l := 1; l < len(sizes); l++ {
		weights += (sizes[l-1] + 1) * sizes[l]
		units += sizes[l]
	}
	batch := min(v.Int("batch"), max(s.Rows, 1))
	return engine.Matrix(weights, 6, "set of network weights").Plus(engine.Matrix(batch, 4*units+s.Cols, "mini-batch of activations"))
}

// sizes is the network's widths for p inputs and k outputs.
func (m *MLP) sizes(p, k int) []int {
	return append(append([]int{p}, m.Hidden...), k)
}

func (m *MLP) outKind(classification bool) int {
	switch {
	case m.Loss == "sigmoid":
		return outSigmoid
	case classification:
		return outSoftmax
	}
	return outLinear
}

// Fit implements engine.Model.
func (m *MLP) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.net = nil
	n, p := d.X.Dims()
	if err := engine.CheckFinite(d.X, d.Features); err != nil {
		return fmt.Errorf("mlp: %w", err)
	}
	if err := engine.CheckWeights(d.Weights, n); err != nil {
		return fmt.Errorf("mlp: %w", err)
	}
	act, err := NewActivation(m.Activation)
	if err != nil {
		return fmt.Errorf("mlp: %w", err)
	}
	classification := len(d.Classes) > 0
	k := 1
	m.classes = 0
	if classification {
		m.classes, k = len(d.Classes), len(d.Classes)
	}
	out := m.outKind(classification)
	y, err := m.targets(d, out)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(d.Seed, 0x9e3779b97f4a7c15))
	train, val, err := holdBack(mlpName, n, m.Patience, m.ValidationFraction, rng)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	m.rows = pace{train: len(train), held: len(val)}
	f := newMLPFit(m, d.X, y, d.Weights, train, val, m.sizes(p, k), act, out, rng)
	m.net = f.net
	return f.run(ctx, rec)
}

// targets are the class codes, or the regression targets scaled as the
// output units want them (shift and scale kept for Predict).
func (m *MLP) targets(d engine.Train, out int) ([]float64, error) {
	if len(d.Y) != d.Rows() {
		return nil, fmt.Errorf("mlp: %d targets for %d rows", len(d.Y), d.Rows())
	}
	for i, v := range d.Y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("mlp: the target of row %d is %v; drop or impute it", i+1, v)
		}
	}
	m.shift, m.scale = 0, 1
	if m.classes > 0 {
		return d.Y, nil
	}
	lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range d.Y {
		lo, hi, mean = min(lo, v), max(hi, v), mean+v
	}
	mean /= float64(len(d.Y))
	ss := 0.0
	for _, v := range d.Y {
		ss += (v - mean) * (v - mean)
	}
	m.shift, m.scale = mean, math.Sqrt(ss/float64(len(d.Y)))
	if out == outSigmoid {
		m.shift, m.scale = lo, hi-lo
	}
	if m.scale == 0 || math.IsInf(m.scale, 0) {
		m.scale = 1
	}
	y := make([]float64, len(d.Y))
	for i, v := range d.Y {
		y[i] = (v - m.shift) / m.scale
	}
	return y, nil
}

// ValidateEvery implements engine.Paced.
func (m *MLP) ValidateEvery(rows int) int { return m.rows.validateEvery(rows, mlpEpochCost) }

// Predict implements engine.Predictor: the most probable class, or the
// regression output.
func (m *MLP) Predict(X mat.Matrix) ([]float64, error) {
	O, err := m.outputs(X)
	if err != nil {
		return nil, err
	}
	return m.decide(O), nil
}

// PredictProba implements engine.Prober: the softmax outputs (sigmoid
// outputs normalised to sum to one).
func (m *MLP) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	if m.Fitted && m.classes == 0 {
		return nil, fmt.Errorf("mlp: a regression has no class probabilities")
	}
	O, err := m.outputs(X)
	if err != nil {
		return nil, err
	}
	normaliseRows(O)
	return O, nil
}

// Stages implements engine.Staged: the live validation pushes the
// held-out rows through the network once a step for both the predictions
// and the probabilities, where Predict and PredictProba would push them
// twice, and into buffers kept from step to step, so that scoring
// allocates nothing after its first call.
func (m *MLP) Stages(X mat.Matrix) (engine.StageScorer, error) { return &mlpStages{m: m, X: X}, nil }

type mlpStages struct {
	m       *MLP
	X       mat.Matrix
	scratch mlpScratch
	pred    []float64
}

func (s *mlpStages) Scores() ([]float64, *mat.Dense, error) {
	O, err := s.m.outputsInto(s.X, &s.scratch)
	if err != nil {
		return nil, nil, err
	}
	s.pred = s.m.decideInto(s.pred, O)
	if s.m.classes == 0 {
		return s.pred, nil, nil
	}
	normaliseRows(O)
	return s.pred, O, nil
}

// decide turns output units into predictions: the largest unit's class,
// or the regression output in the target's units.
func (m *MLP) decide(O *mat.Dense) []float64 { return m.decideInto(nil, O) }

// decideInto is decide into pred, reused when it has the rows' length.
func (m *MLP) decideInto(pred []float64, O *mat.Dense) []float64 {
	n, _ := O.Dims()
	if len(pred) != n {
		pred = make([]float64, n)
	}
	for i := range n {
		row := O.RawRowView(i)
		if m.classes == 0 {
			pred[i] = m.shift + m.scale*row[0]
			continue
		}
		pred[i] = float64(floats.MaxIdx(row))
	}
	return pred
}

// normaliseRows makes each row of output units sum to one (softmax
// outputs already do; sigmoid outputs are scaled), uniform where all are 0.
func normaliseRows(O *mat.Dense) {
	n, _ := O.Dims()
	for i := range n {
		row := O.RawRowView(i)
		s := 0.0
		for _, v := range row {
			s += v
		}
		for c := range row {
			if s > 0 {
				row[c] /= s
			} else {
				row[c] = 1 / float64(len(row))
			}
		}
	}
}

// mlpChunk is how many rows a prediction pushes through at once.
const mlpChunk = 256

// mlpScratch is what pushing rows through a network needs besides it: a
// batch's buffers and the output units, kept by a scorer from step to step.
type mlpScratch struct {
	b   *mlpBatch
	net *mlpNet // the network b was made for
	O   *mat.Dense
}

// outputs are the output units for the rows of X.
func (m *MLP) outputs(X mat.Matrix) (*mat.Dense, error) { return m.outputsInto(X, &mlpScratch{}) }

// outputsInto is outputs with scratch s, (re)made when it does not fit;
// the result is s.O.
func (m *MLP) outputsInto(X mat.Matrix, s *mlpScratch) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, p := X.Dims()
	net := m.net
	if p != net.sizes[0] {
		return nil, fmt.Errorf("mlp: %d features, but the model was fitted on %d", p, net.sizes[0])
	}
	if n == 0 {
		return &mat.Dense{}, nil
	}
	k := net.sizes[net.layers()]
	if s.net != net || s.O == nil {
		s.b, s.net, s.O = newMLPBatch(net, min(n, mlpChunk), false), net, mat.NewDense(n, k, nil)
	}
	b, O := s.b, s.O
	pad0, padL := net.pads[0], net.pads[net.layers()]
	dense, isDense := X.(*mat.Dense)
	for start := 0; start < n; start += mlpChunk {
		rows := min(mlpChunk, n-start)
		for i := range rows {
			row := b.acts[0][i*pad0 : i*pad0+p]
			if isDense {
				copy(row, dense.RawRowView(start+i))
				continue
			}
			for j := range row {
				row[j] = X.At(start+i, j)
			}
		}
		net.forward(b, rows, nil, 0)
		for i := range rows {
			copy(O.RawRowView(start+i), b.acts[net.layers()][i*padL:i*padL+k])
		}
	}
	return O, nil
}

// Network implements Describer.
func (m *MLP) Network() Network {
	if m.net == nil {
		return Network{}
	}
	s := m.net.sizes
	nw := Network{Inputs: s[0]}
	for l := 1; l < len(s)-1; l++ {
		nw.Layers = append(nw.Layers, Layer{Kind: "dense", Units: s[l], Activation: m.net.act.Name(), Weights: (s[l-1] + 1) * s[l]})
	}
	outAct := [...]string{"softmax", "identity", "sigmoid"}[m.net.out]
	L := len(s) - 1
	nw.Layers = append(nw.Layers, Layer{Kind: "output", Units: s[L], Activation: outAct, Weights: (s[L-1] + 1) * s[L]})
	return nw
}

// layerName names layer l of L in the per-epoch norms.
func layerName(l, L int) string {
	if l == L {
		return "output"
	}
	return "dense " + strconv.Itoa(l)
}

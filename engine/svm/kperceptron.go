package svm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// KPerceptron is the kernel perceptron (Shewchuk, Concise Machine Learning,
// lecture 16; Verma, COMS 4771 notes, Kernelization): the perceptron
// algorithm with w = Σ_i α_i y_i Φ(x_i) never formed. α_i counts the
// mistakes made on row i (a row of sample weight w_i adds w_i), and
//
//	f(x) = Σ_i α_i y_i k(x_i, x) + b,
//
// where the bias b = Σ_i α_i y_i comes from lifting, as the linear
// perceptron does: a fictitious feature fixed at 1 adds 1 to every kernel
// value. Epochs visit the rows in a new seeded random order; a point on the
// boundary (y f(x) <= 0) counts as a mistake, so the first row visited is
// one. A fit stops after an epoch without a mistake. With more than two
// classes, one perceptron per class against the rest; Predict takes the
// highest f.
//
// The scores f(x_j) of every training row are kept up to date: a mistake
// on row i adds α's step times row i of the kernel matrix to them, so a
// visit costs nothing and a mistake costs one kernel row. A row is computed
// at its first mistake and kept while the kept rows fit kpCacheMax bytes
// (on small data, the whole kernel matrix); beyond that it is computed
// again at each mistake, so any number of rows can be fitted.
type KPerceptron struct {
	Epochs    int
	NoBias    bool
	NoShuffle bool
	kernelOf  engine.Values // the kernel's parameters, resolved on the rows by Fit
	cacheMax  int           // bytes of kept kernel rows; 0: kpCacheMax (a test keeps none with -1)

	kmClassifier
	index []int // of each kept row among the training rows
	label []int // class code of each kept row
}

const kpName = "kperceptron"

// kpCacheMax is the most memory (bytes) kept kernel rows take.
const kpCacheMax = 256 << 20

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     kpName,
		Title:    "kernel perceptron",
		Family:   "kernel methods",
		Summary:  "the perceptron with a kernel: α counts each row's mistakes (one-vs-rest for more than two classes)",
		Notes:    "Shewchuk, Concise Machine Learning, lecture 16; Verma, COMS 4771 notes, Perceptron and Kernelization",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "epoch",
		Loss:     "share misclassified",
		// Kernel values of unscaled features are dominated by the widest.
		Standardize: true,
		// RBF by default: its kernel matrix is positive definite on distinct
		// rows, so any consistent labelling is separable and the perceptron
		// stops; a polynomial kernel separates only what its degree can.
		Params: append(KernelParams(RBF, Poly, Sigmoid, Linear),
			engine.Param{Name: "epochs", Kind: engine.Int, Default: 100, Min: 1, Max: 100000,
				Help: "most passes over the data; stops early after a pass without a mistake"},
			engine.Param{Name: "bias", Kind: engine.Bool, Default: true,
				Help: "learn an offset b by lifting (k(a,b) + 1)"},
			engine.Param{Name: "shuffle", Kind: engine.Bool, Default: true,
				Help: "visit the rows in a new seeded random order each epoch"}),
		Memory: func(s engine.Shape, v engine.Values) engine.Need {
			rows := min(s.Rows, kpCacheMax/max(1, 8*s.Rows))
			return engine.Matrix(rows, s.Rows, "cache of kernel rows")
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &KPerceptron{Epochs: v.Int("epochs"), NoBias: !v.Bool("bias"), NoShuffle: !v.Bool("shuffle"), kernelOf: v}, nil
		},
	})
}

// kpRows are the kernel rows of a fit: kept while they fit, else computed
// into one buffer.
type kpRows struct {
	k       Kernel
	X       *mat.Dense
	norms   []float64
	kept    [][]float64
	room    int // rows that may still be kept
	scratch []float64
}

func (r *kpRows) row(i int) []float64 {
	if r.kept[i] != nil {
		return r.kept[i]
	}
	out := r.scratch
	if r.room > 0 {
		r.room--
		out = make([]float64, len(r.kept))
		r.kept[i] = out
	}
	kmRow(r.k, r.X, r.norms, i, out)
	return out
}

// Fit implements engine.Model.
func (m *KPerceptron) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	k, present, err := kmBegin(ctx, d, kpName, true, m.kernelOf, nil)
	if err != nil {
		return err
	}
	n, _ := d.X.Dims()
	labels := kmTargets(d, present)
	machines := len(labels)
	alpha := make([][]float64, machines)
	score := make([][]float64, machines) // f_c(x_j) of every training row
	for c := range alpha {
		alpha[c], score[c] = make([]float64, n), make([]float64, n)
	}
	rows := &kpRows{k: k, X: d.X, norms: kmNorms(d.X), kept: make([][]float64, n),
		room: m.cache() / (8 * n), scratch: make([]float64, n)}
	lift := 0.0
	if !m.NoBias {
		lift = 1
	}
	order := make([]int, 0, n)
	for i := range n {
		if kmWeight(d, i) > 0 {
			order = append(order, i)
		}
	}
	rng := rand.New(rand.NewPCG(d.Seed, 0x9e3779b97f4a7c15))
	converged := make([]bool, machines)
	mistakes := make([]int, machines)
	done := ctx.Done()
	for epoch := 1; epoch <= m.Epochs; epoch++ {
		if !m.NoShuffle {
			rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		clear(mistakes)
		for v, i := range order {
			if v%1024 == 1023 && engine.Stopped(done) {
				return ctx.Err()
			}
			var krow []float64
			for c := range machines {
				y := labels[c][i]
				if converged[c] || y*score[c][i] > 0 {
					continue
				}
				if krow == nil {
					krow = rows.row(i)
				}
				step := kmWeight(d, i) * y
				alpha[c][i] += kmWeight(d, i)
				mistakes[c]++
				sc := score[c]
				for j, kij := range krow {
					sc[j] += step * (kij + lift)
				}
			}
		}
		total := 0
		for c, e := range mistakes {
			total += e
			converged[c] = converged[c] || e == 0
		}
		m.keep(d, present, k, alpha, labels, lift)
		if err := kmStep(ctx, rec, engine.Step{Step: epoch, Total: m.Epochs,
			TrainLoss: float64(total) / float64(len(order)*machines),
			Detail:    engine.Figures{{Name: "mistakes", Value: float64(total)}, {Name: "support vectors", Value: float64(len(m.index))}}}); err != nil {
			return err
		}
		if total == 0 {
			break
		}
	}
	return nil
}

// keep makes the model predict with the α of now: the rows with a mistake
// on any perceptron, their coefficients α_i y_i and the lifted biases.
func (m *KPerceptron) keep(d engine.Train, present []int, k Kernel, alpha, labels [][]float64, lift float64) {
	n, p := d.X.Dims()
	machines := len(alpha)
	m.index, m.label = nil, nil // fresh: support vectors handed out earlier stay as they were
	var xs, coef []float64
	bias := make([]float64, machines)
	for i := range n {
		mistaken := false
		for c := range machines {
			mistaken = mistaken || alpha[c][i] > 0
		}
		if !mistaken {
			continue
		}
		m.index = append(m.index, i)
		m.label = append(m.label, int(d.Y[i]))
		xs = append(xs, d.X.RawRowView(i)...)
		for c := range machines {
			coef = append(coef, alpha[c][i]*labels[c][i])
			bias[c] += lift * alpha[c][i] * labels[c][i]
		}
	}
	s := len(m.index)
	rows := mat.NewDense(s, p, xs)
	m.features, m.classes, m.present = d.Features, d.Classes, present
	m.exp = kmExpansion{kernel: k, rows: rows, coef: mat.NewDense(s, machines, coef), bias: bias, norms: kmNorms(rows)}
	m.Fitted = true
}

// Predict implements engine.Predictor: class codes.
func (m *KPerceptron) Predict(X mat.Matrix) ([]float64, error) { return m.predict(kpName, X) }

// DecisionFunction implements engine.Scorer: f per class (with two
// classes −f and f).
func (m *KPerceptron) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return m.decisionFunction(kpName, X)
}

// Alpha is α_i, the mistakes of each kept row (its weight's worth), per
// perceptron: one row per kept row, in the order of SupportVectors.
func (m *KPerceptron) Alpha() [][]float64 {
	if !m.Fitted {
		return nil
	}
	s, machines := m.exp.coef.Dims()
	out := make([][]float64, s)
	for i := range out {
		out[i] = make([]float64, machines)
		for c := range machines {
			out[i][c] = math.Abs(m.exp.coef.At(i, c))
		}
	}
	return out
}

// SupportVectors implements engine.SupportVectorer: the rows with α > 0, with
// their coefficients α_i y_i, one per perceptron (one-vs-rest: one per
// class; two classes: one).
func (m *KPerceptron) SupportVectors() *engine.SupportVectors {
	if !m.Fitted {
		return nil
	}
	s, _ := m.exp.coef.Dims()
	sv := &engine.SupportVectors{Features: m.features, Rows: m.index, Class: make([]string, s),
		X: make([][]float64, s), Coef: make([][]float64, s), AtBound: make([]bool, s), Kernel: m.exp.kernel.String()}
	for i := range s {
		sv.Class[i] = fmt.Sprint(m.label[i])
		if m.label[i] < len(m.classes) {
			sv.Class[i] = m.classes[m.label[i]]
		}
		sv.X[i] = m.exp.rows.RawRowView(i)
		sv.Coef[i] = m.exp.coef.RawRowView(i)
	}
	return sv
}

// kpState is KPerceptron's model file state: the rows with α > 0, their
// index among the training rows and their class.
type kpState struct {
	kmClassState
	Index []int `json:"index"`
	Label []int `json:"label"`
}

// MarshalState implements engine.Persistent.
func (m *KPerceptron) MarshalState() ([]byte, error) {
	return engine.MarshalFitted(kpName, m.Fitted, func() any {
		return kpState{kmClassState: m.state(), Index: m.index, Label: m.label}
	})
}

// UnmarshalState implements engine.Persistent.
func (m *KPerceptron) UnmarshalState(data []byte) error {
	var s kpState
	if err := engine.DecodeState(kpName, data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck(kpName)
	c.Len("index", len(s.Index), len(s.Rows))
	c.Len("label", len(s.Label), len(s.Rows))
	for i := range s.Index {
		if !c.That(s.Index[i] >= 0 && (i == 0 || s.Index[i] > s.Index[i-1]), "index is not increasing from 0") ||
			!c.Range(fmt.Sprintf("label entry %d", i+1), s.Label[i], 0, len(s.Classes)-1) {
			break
		}
	}
	var fresh kmClassifier
	fresh.load(c, s.kmClassState, m.kernelOf)
	if err := c.Err(); err != nil {
		return err
	}
	m.kmClassifier, m.index, m.label = fresh, s.Index, s.Label
	return nil
}

// cache is the most memory (bytes) the fit's kept kernel rows take.
func (m *KPerceptron) cache() int {
	switch {
	case m.cacheMax < 0:
		return 0
	case m.cacheMax > 0:
		return m.cacheMax
	}
	return kpCacheMax
}

package svm

// What the kernel methods (kperceptron, kridge, klogistic) share: kernel
// matrices built from one product of the rows (the RBF through squared
// norms, ‖a − b‖² = ‖a‖² + ‖b‖² − 2a·b, as scikit-learn computes it), the
// expansion f(x) = Σ_i c_i k(x_i, x) + b they predict with, their checks of
// the training rows, and their classifiers' decisions. Names start with km
// so that they never meet the SMO solver's.

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

// kmNorms is ‖x_i‖² of every row of X.
func kmNorms(X *mat.Dense) []float64 {
	n, _ := X.Dims()
	out := make([]float64, n)
	for i := range out {
		out[i] = kernel.Dot(X.RawRowView(i), X.RawRowView(i))
	}
	return out
}

// kmApply turns the dot product g of rows with squared norms na and nb into
// the kernel's value; same says they are one row (the RBF's distance is then
// exactly 0, not a rounding of it).
func kmApply(k Kernel, g, na, nb float64, same bool) float64 {
	if same && k.Kind == RBF {
		return 1
	}
	return k.fromDot(g, na, nb)
}

// kmBlock is the side of the square blocks in which kmGram mirrors the
// upper triangle: 64 × 64 values are 32 KB, which stay in the L1 cache.
const kmBlock = 64

// kmGram is the full n × n kernel matrix of the rows of X, exactly
// symmetric. The dot products come from one syrk of Xᵀ (the fast kernel of
// engine/kernel), over the upper triangle; the kernel is applied there and
// mirrored below, block by block. It gives up, returning nil, when done
// closes (nil never does).
func kmGram(k Kernel, X *mat.Dense, done <-chan struct{}) *mat.Dense {
	n, d := X.Dims()
	if n == 0 {
		return &mat.Dense{}
	}
	pad := kernel.Pad(n)
	xt := make([]float64, d*pad) // Xᵀ, d rows of stride pad, the padding zero
	for i := range n {
		for j, v := range X.RawRowView(i) {
			xt[j*pad+i] = v
		}
	}
	g := make([]float64, pad*pad)
	kernel.SyrkUpper(g, pad, xt, pad, d, n)
	norms := make([]float64, n)
	for i := range norms {
		norms[i] = g[i*pad+i]
	}
	for i := range n {
		if i%256 == 255 && engine.Stopped(done) {
			return nil
		}
		row := g[i*pad : i*pad+n]
		for j := i; j < n; j++ {
			row[j] = kmApply(k, row[j], norms[i], norms[j], i == j)
		}
	}
	for bi := 0; bi < n; bi += kmBlock {
		for bj := bi; bj < n; bj += kmBlock {
			for i := bi; i < min(bi+kmBlock, n); i++ {
				for j := max(bj, i+1); j < min(bj+kmBlock, n); j++ {
					g[j*pad+i] = g[i*pad+j]
				}
			}
		}
	}
	var K mat.Dense
	K.SetRawMatrix(blas64.General{Rows: n, Cols: n, Stride: pad, Data: g})
	return &K
}

// kmRow sets out[j] = k(x_i, x_j) for every row j of X: one row of the
// kernel matrix, for a fit that cannot hold all of it.
func kmRow(k Kernel, X *mat.Dense, norms []float64, i int, out []float64) {
	xi := X.RawRowView(i)
	for j := range out {
		out[j] = kmApply(k, kernel.Dot(xi, X.RawRowView(j)), norms[i], norms[j], i == j)
	}
}

// kmGramNeed is the memory of a full kernel matrix of n rows, for
// Spec.Memory and for a fit called directly.
func kmGramNeed(n int) engine.Need {
	need := engine.Matrix(n, n, "kernel matrix")
	need.Advice = "sample the rows, or use kperceptron, which computes kernel rows as it needs them"
	return need
}

// kmExpansion is what a kernel method predicts with: the training rows it
// kept and their coefficients, f_c(x) = Σ_i coef[i][c] k(rows_i, x) + bias[c]
// for each output c.
type kmExpansion struct {
	kernel Kernel
	rows   *mat.Dense // s × d
	coef   *mat.Dense // s × outputs
	bias   []float64
	norms  []float64 // ‖rows_i‖²
}

// kmChunk is how many rows kmExpansion.decision scores at once: their
// kernel values against the kept rows are a chunk × s matrix.
const kmChunk = 256

// decision is f(X), n × outputs; X has the rows' number of features.
func (e *kmExpansion) decision(X *mat.Dense) *mat.Dense {
	n, _ := X.Dims()
	s, outs := e.coef.Dims()
	Z := mat.NewDense(n, outs, nil)
	G := mat.NewDense(min(kmChunk, n), s, nil)
	for lo := 0; lo < n; lo += kmChunk {
		hi := min(lo+kmChunk, n)
		Xc := X.Slice(lo, hi, 0, X.RawMatrix().Cols).(*mat.Dense)
		Gc := G.Slice(0, hi-lo, 0, s).(*mat.Dense)
		Gc.Mul(Xc, e.rows.T())
		for i := lo; i < hi; i++ {
			ni := kernel.Dot(X.RawRowView(i), X.RawRowView(i))
			row := Gc.RawRowView(i - lo)
			for j, g := range row {
				row[j] = kmApply(e.kernel, g, ni, e.norms[j], false)
			}
		}
		Zc := Z.Slice(lo, hi, 0, outs).(*mat.Dense)
		Zc.Mul(Gc, e.coef)
		for i := range hi - lo {
			row := Zc.RawRowView(i)
			for c := range row {
				row[c] += e.bias[c]
			}
		}
	}
	return Z
}

// kmWeight is row i's sample weight (1 without weights).
func kmWeight(d engine.Train, i int) float64 {
	if d.Weights == nil {
		return 1
	}
	return d.Weights[i]
}

// kmClasses validates a classifier's training rows (engine.CheckTrain) and returns
// its classes present (engine.PresentClasses).
func kmClasses(d engine.Train, model string) ([]int, error) {
	if err := engine.CheckTrain(d, model, true); err != nil {
		return nil, err
	}
	return engine.PresentClasses(d, model)
}

// kmBegin is how the fits of the kernel machines (KLogistic, KPerceptron,
// KRidge) begin: the rows checked (errors naming model), a classifier's
// classes present (kmClasses; nil for a regressor), the context looked
// at, what the fit's Gram matrices take refused if the machine cannot
// hold it (need of the rows; nil: nothing large), and the kernel of these
// rows.
func kmBegin(ctx context.Context, d engine.Train, model string, classify bool, kernelOf engine.Values, need func(n int) engine.Need) (Kernel, []int, error) {
	var present []int
	var err error
	if classify {
		present, err = kmClasses(d, model)
	} else {
		err = engine.CheckTrain(d, model, true)
	}
	if err != nil {
		return Kernel{}, nil, err
	}
	if err := ctx.Err(); err != nil {
		return Kernel{}, nil, err
	}
	if need != nil {
		if err := engine.CheckNeed(model, need(d.Rows())); err != nil {
			return Kernel{}, nil, err
		}
	}
	return KernelOf(kernelOf, d.X), present, nil
}

// kmStep reports a step of a kernel machine whose state the fit has
// published: the recorder's error, or the context's when the recorder
// cancelled without returning it.
func kmStep(ctx context.Context, rec engine.Recorder, s engine.Step) error {
	if err := rec.Step(s); err != nil {
		return err
	}
	return ctx.Err()
}

// kmTargets are the ±1 labels of each machine of a classifier, one row per
// machine: with two classes one machine (the second present class against
// the first, as scikit-learn), else one per class against the rest.
func kmTargets(d engine.Train, present []int) [][]float64 {
	pos := present
	if len(present) == 2 {
		pos = present[1:]
	}
	out := make([][]float64, len(pos))
	for c, code := range pos {
		out[c] = make([]float64, len(d.Y))
		for i, v := range d.Y {
			out[c][i] = -1
			if int(v) == code {
				out[c][i] = 1
			}
		}
	}
	return out
}

// kmClassifier is a fitted kernel classifier: one machine with two
// classes, one per class against the rest with more.
type kmClassifier struct {
	features []string
	classes  []string
	present  []int
	exp      kmExpansion
	warnings []string
	engine.FitState
}

// Warnings implements engine.Warner.
func (m *kmClassifier) Warnings() []string { return m.warnings }

// scores is f(X) per machine after checking X; nil for no rows.
func (m *kmClassifier) scores(model string, X mat.Matrix) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	D, err := kmInput(X, m.exp.rows, m.features, model)
	if err != nil || D == nil {
		return nil, err
	}
	return m.exp.decision(D), nil
}

// kmInput checks rows to predict against the d features of rows and returns
// them as a *mat.Dense; nil when there are none.
func kmInput(X mat.Matrix, rows *mat.Dense, features []string, model string) (*mat.Dense, error) {
	if X == nil {
		return nil, fmt.Errorf("%s: no data to predict", model)
	}
	r, c := X.Dims()
	if _, d := rows.Dims(); c != d {
		return nil, fmt.Errorf("%s: the data has %d features; the model was fitted on %d", model, c, d)
	}
	if r == 0 {
		return nil, nil
	}
	D := datasets.DenseOf(X)
	if err := engine.CheckFinite(D, features); err != nil {
		return nil, fmt.Errorf("%s: %w", model, err)
	}
	return D, nil
}

// predict is the class of the highest score; with one machine, the second
// class where f > 0 (a point on the boundary goes to the first, as
// scikit-learn).
func (m *kmClassifier) predict(model string, X mat.Matrix) ([]float64, error) {
	Z, err := m.scores(model, X)
	if err != nil || Z == nil {
		return []float64{}, err
	}
	n, _ := Z.Dims()
	out := make([]float64, n)
	for i := range out {
		row := Z.RawRowView(i)
		if len(row) == 1 {
			out[i] = float64(m.present[0])
			if row[0] > 0 {
				out[i] = float64(m.present[1])
			}
			continue
		}
		out[i] = float64(m.present[floats.MaxIdx(row)])
	}
	return out, nil
}

// decisionFunction is the score of every class (n × classes): with one
// machine −f and f; a class absent from training scores −MaxFloat64.
func (m *kmClassifier) decisionFunction(model string, X mat.Matrix) (*mat.Dense, error) {
	Z, err := m.scores(model, X)
	if err != nil || Z == nil {
		return &mat.Dense{}, err
	}
	n, _ := Z.Dims()
	out := mat.NewDense(n, len(m.classes), nil)
	for i := range n {
		row, z := out.RawRowView(i), Z.RawRowView(i)
		for c := range row {
			row[c] = -math.MaxFloat64
		}
		if len(z) == 1 {
			row[m.present[0]], row[m.present[1]] = -z[0], z[0]
			continue
		}
		for j, c := range m.present {
			row[c] = z[j]
		}
	}
	return out, nil
}

// kmKernelState is a resolved kernel in a model file.
type kmKernelState struct {
	Kind   string  `json:"kind"`
	Degree int     `json:"degree"`
	Gamma  float64 `json:"gamma"`
	Coef0  float64 `json:"coef0"`
}

// kmState is a kmExpansion in a model file: the kept training rows, their
// coefficients (one per output), the outputs' constants and the kernel.
type kmState struct {
	Kernel   kmKernelState `json:"kernel"`
	Features []string      `json:"features"`
	Rows     [][]float64   `json:"rows"`
	Coef     [][]float64   `json:"coef"`
	Bias     []float64     `json:"bias"`
}

func kmStateOf(features []string, e kmExpansion) kmState {
	k := e.kernel
	return kmState{Kernel: kmKernelState(k),
		Features: features, Rows: engine.StateRows(e.rows), Coef: engine.StateRows(e.coef), Bias: e.bias}
}

// expansion checks s against the parameters v of the model loading it and
// a model of the given outputs, and returns what it predicts with; the
// zero value after a problem, which c holds.
func (s *kmState) expansion(c *engine.StateCheck, v engine.Values, outputs int) kmExpansion {
	kind := v.String("kernel")
	want := KernelOf(v, &mat.Dense{})
	k := s.Kernel
	c.That(k.Kind == kind, "kernel kind is %q, but the model's kernel is %s", k.Kind, kind)
	c.That(k.Degree == want.Degree, "kernel degree is %d, but the model's is %d", k.Degree, want.Degree)
	c.That(k.Coef0 == want.Coef0, "kernel coef0 is %v, but the model's is %v", k.Coef0, want.Coef0)
	c.That(k.Gamma > 0 && !math.IsInf(k.Gamma, 0), "kernel gamma is %v; want a number above 0", k.Gamma)
	if g := v.String("gamma"); g != "scale" && g != "auto" {
		want = KernelOf(v, mat.NewDense(1, 1, nil))
		c.That(k.Gamma == want.Gamma, "kernel gamma is %v, but the model's gamma is %s", k.Gamma, g)
	}
	p := 0
	if len(s.Rows) > 0 {
		p = len(s.Rows[0])
	}
	c.Names("features", s.Features, p)
	rows := c.Matrix("rows", s.Rows, len(s.Rows), p)
	coef := c.Matrix("coef", s.Coef, len(s.Rows), outputs)
	c.Vector("bias", s.Bias, outputs)
	if !c.OK() {
		return kmExpansion{}
	}
	return kmExpansion{kernel: Kernel(k),
		rows: rows, coef: coef, bias: s.Bias, norms: kmNorms(rows)}
}

// kmClassState is a kernel classifier in a model file.
type kmClassState struct {
	kmState
	Classes  []string `json:"classes"`
	Present  []int    `json:"present"`
	Warnings []string `json:"warnings,omitempty"`
}

func (m *kmClassifier) state() kmClassState {
	return kmClassState{kmState: kmStateOf(m.features, m.exp), Classes: m.classes, Present: m.present, Warnings: m.warnings}
}

// load checks s (see kmState.expansion) and, when it is sound, makes m
// predict with it.
func (m *kmClassifier) load(c *engine.StateCheck, s kmClassState, v engine.Values) {
	c.That(len(s.Present) >= 2, "present has %d classes; want at least 2", len(s.Present))
	for i, code := range s.Present {
		if !c.Range(fmt.Sprintf("present entry %d", i+1), code, 0, len(s.Classes)-1) ||
			!c.That(i == 0 || code > s.Present[i-1], "present is not in increasing order") {
			break
		}
	}
	outputs := len(s.Present)
	if outputs == 2 {
		outputs = 1
	}
	e := s.expansion(c, v, outputs)
	for i, b := range s.Bias {
		if !c.That(v.Bool("bias") || b == 0, "bias entry %d is %v, but the model is fitted without one", i+1, b) {
			break
		}
	}
	if !c.OK() {
		return
	}
	m.features, m.classes, m.present, m.exp, m.warnings, m.Fitted = s.Features, s.Classes, s.Present, e, s.Warnings, true
}

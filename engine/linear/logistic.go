package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/numfmt"
)

// Logistic is L2-penalised logistic regression, notes §10-§11 (Shewchuk):
// the logistic function s(X_i·w + α) fitted with the logistic loss. It
// minimises, like scikit-learn's LogisticRegression,
//
//	J(w, α) = ½‖w‖² + C Σ_i ω_i L_i(w, α)
//
// where L_i is the log-loss of row i, ω_i its sample weight (1 without
// weights) and the intercept α is not penalised. With two classes L_i is the
// notes' −y ln s − (1−y) ln(1−s). With more, Multi chooses
//
//   - "multinomial" (default): softmax regression, one (w_c, α_c) per class
//     and L_i = −ln softmax_{y_i}(z_i) (the notes name it, Discussion 6); the
//     intercepts are kept summing to zero, as scikit-learn's are;
//   - "ovr": one binary model per class against the rest; probabilities are
//     the binary ones normalised to sum to one (as OneVsRestClassifier).
//
// Solvers (all start at w = 0, as the notes advise):
//
//   - "auto" (default): newton when its linear system has at most
//     logitAutoNewton unknowns (features+1, times the classes for
//     multinomial), where a few exact steps win; lbfgs above, where a Newton
//     step costs n·unknowns² and L-BFGS steps cost n·unknowns.
//   - "newton": Newton's method, i.e. iteratively reweighted least
//     squares (§11): solve (∇²J) e = −∇J by Cholesky and step w ← w + e,
//     halving the step only if it would not decrease J (rare). With more than
//     16384 rows the Hessian — not the gradient — is estimated on a random
//     subsample (seeded from Train.Seed) that grows every iteration, the
//     notes' speed-up for large n (§11): the iteration still converges to the
//     exact minimiser and its last steps use every row.
//   - "gd": batch gradient descent (§10), w ← w − lr ∇J/Σω. The gradient is
//     averaged over rows so that a good lr does not depend on n (the notes'
//     ε is lr/n).
//   - "sgd": stochastic gradient descent (§10), one row at a time in a seeded
//     random order, w ← w − lr (w/Σω + (n/Σω) C ω_i ∇L_i); constant lr. One
//     step is one epoch.
//   - "lbfgs": limited-memory BFGS (gonum/optimize, 10 correction pairs, a
//     Moré–Thuente line search), the quasi-Newton method scikit-learn uses by
//     default; not in the notes. It also stops when J stops decreasing
//     (relative change below 64ε, scikit-learn's ftol). One-vs-rest models
//     are fitted one after the other.
//
// Every solver stops when max|∇J| / (C Σω) <= Tol (the criterion
// scikit-learn's lbfgs applies to its scaled objective J/(C n)), or after
// MaxIter steps (then Warnings says so). Each step reports TrainLoss = J/Σω (the penalised objective
// per row: for ovr the sum of the per-class objectives) and Extra["grad"],
// the quantity compared with Tol. A loss that becomes NaN or infinite is
// reported, then ends the fit with an error wrapping engine.ErrDiverged.
type Logistic struct {
	Solver  string  // "auto" (default), "newton", "lbfgs", "gd" or "sgd"
	C       float64 // inverse penalty strength; 0 means 1
	Multi   string  // "multinomial" (default) or "ovr"; ignored with two classes
	MaxIter int     // most iterations (epochs for sgd); 0 means 100
	Tol     float64 // gradient tolerance; 0 means 1e-4
	LR      float64 // learning rate of gd and sgd; 0 means 0.1

	linearClassifier
	kind     int    // logitBinary, logitMultinomial or logitOvR
	used     string // the solver that ran (auto resolved)
	warnings []string
}

const logitName = "logistic regression"

const (
	logitBinary = iota
	logitMultinomial
	logitOvR
)

// Newton systems larger than this are refused (the Hessian would not fit
// comfortably in memory or time).
const logitMaxNewton = 3000

// logitAutoNewton is the largest Newton system solver=auto picks newton
// for; above it, lbfgs.
const logitAutoNewton = 200

// Rows from which the Hessian is subsampled (see the Logistic doc comment).
const logitHessMin = 8192

func init() {
	engine.Register(engine.Spec{
		Name:        "logistic",
		Title:       "logistic regression",
		Family:      "linear models",
		Summary:     "L2-penalised logistic (or softmax) regression by Newton/IRLS, L-BFGS, gradient descent or SGD",
		Notes:       "Shewchuk, Concise Machine Learning, lectures 10-11; Hocking, CS499 Optimization Algorithms for ML, section 9",
		Tasks:       []engine.Task{datasets.Classification},
		Unit:        "iteration",
		Standardize: true,
		Params: []engine.Param{
			{Name: "solver", Kind: engine.Choice, Default: "auto", Choices: []string{"auto", "newton", "lbfgs", "gd", "sgd"},
				Help: "auto: newton for small systems, else lbfgs; newton: Newton's method (IRLS); lbfgs: quasi-Newton; gd: batch gradient descent; sgd: stochastic gradient descent"},
			{Name: "C", Kind: engine.Float, Default: 1.0, Min: 1e-6, Max: 1e6, Log: true,
				Help: "inverse penalty strength: minimise ½‖w‖² + C·Σ log-loss (larger C, less shrinkage)"},
			{Name: "multi", Kind: engine.Choice, Default: "multinomial", Choices: []string{"multinomial", "ovr"},
				Help: "more than two classes: softmax over all classes, or one-vs-rest binary models"},
			{Name: "max_iter", Kind: engine.Int, Default: 100, Min: 1, Max: 100000,
				Help: "most iterations (epochs for sgd)"},
			{Name: "tol", Kind: engine.Float, Default: 1e-4, Min: 1e-14, Max: 1, Log: true,
				Help: "stop when max|gradient| of J/(C·n) falls below this"},
			{Name: "lr", Kind: engine.Float, Default: 0.1, Min: 1e-8, Max: 1e6, Log: true,
				When: &engine.Applies{Param: "solver", In: []string{"gd", "sgd"}},
				Help: "gd and sgd: learning rate (gradient averaged over rows)"},
		},
		Bench:  []engine.BenchCase{{Name: "logistic", Data: "clf_50k_20", Task: datasets.Classification, Params: map[string]string{"C": "1", "max_iter": "100"}}},
		Memory: logisticMemory,
		New: func(v engine.Values) (engine.Model, error) {
			return &Logistic{
				Solver:  v.String("solver"),
				C:       v.Float("C"),
				Multi:   v.String("multi"),
				MaxIter: v.Int("max_iter"),
				Tol:     v.Float("tol"),
				LR:      v.Float("lr"),
			}, nil
		},
	})
}

type logitSettings struct {
	solver, multi string
	C, tol, lr    float64
	maxIter       int
}

func (m *Logistic) settings() (logitSettings, error) {
	s := logitSettings{solver: m.Solver, multi: m.Multi, C: m.C, tol: m.Tol, lr: m.LR, maxIter: m.MaxIter}
	if s.solver == "" {
		s.solver = "auto"
	}
	switch s.solver {
	case "auto", "newton", "lbfgs", "gd", "sgd":
	default:
		return s, fmt.Errorf("logistic regression: solver %q is not one of auto, newton, lbfgs, gd, sgd", m.Solver)
	}
	if s.multi == "" {
		s.multi = "multinomial"
	}
	if s.multi != "multinomial" && s.multi != "ovr" {
		return s, fmt.Errorf("logistic regression: multi %q is not one of multinomial, ovr", m.Multi)
	}
	pos := func(name string, v *float64, def float64) error {
		if *v == 0 {
			*v = def
		}
		if !(*v > 0) || math.IsInf(*v, 0) {
			return fmt.Errorf("logistic regression: %s %v must be a positive number", name, *v)
		}
		return nil
	}
	if err := pos("C", &s.C, 1); err != nil {
		return s, err
	}
	if err := pos("tol", &s.tol, 1e-4); err != nil {
		return s, err
	}
	if err := pos("lr", &s.lr, 0.1); err != nil {
		return s, err
	}
	if s.maxIter == 0 {
		s.maxIter = 100
	}
	if s.maxIter < 0 {
		return s, fmt.Errorf("logistic regression: max_iter %d must be positive", m.MaxIter)
	}
	return s, nil
}

// logitData is the training data as the batch solvers read it: the rows of
// X in place (row-major, as prepared: no transposed or lifted copy, which
// would double the memory a large fit needs), with the intercept handled
// apart. X·w and Xᵀr are BLAS matrix-vector products.
type logitData struct {
	n, p, q int
	X       blas64.General // n × p, the training rows
	sw      []float64      // sample weights; nil = all 1
	wsum    float64
	C       float64
	// sample is the order in which the Newton Hessian takes rows: shuffled
	// when it is subsampled (its sample is then the leading entries), nil
	// when every row is used.
	sample []int
	b, v   []float64 // gramChunk × q scratch for the Hessian
	h      []float64 // n scratch for the Hessian's row weights, made on first use
}

// rowWeights is the shared n scratch of the Hessians (runs take turns).
func (d *logitData) rowWeights() []float64 {
	if d.h == nil {
		d.h = make([]float64, d.n)
	}
	return d.h
}

func newLogitData(X *mat.Dense, C float64, sw []float64) *logitData {
	n, p := X.Dims()
	q := p + 1
	d := &logitData{n: n, p: p, q: q, C: C, X: X.RawMatrix(), sw: sw, wsum: float64(n),
		b: make([]float64, gramChunk*q), v: make([]float64, gramChunk*q)}
	if sw != nil {
		d.wsum = floats.Sum(sw)
	}
	return d
}

// gramChunk is how many rows the Hessian gathers at a time.
const gramChunk = 1024

// linear sets z = X θ[:p] + θ[p], the logits of one output with weights and
// intercept θ.
func (d *logitData) linear(z, theta []float64) {
	for i := range z {
		z[i] = theta[d.p]
	}
	blas64.Gemv(blas.NoTrans, 1, d.X, blas64.Vector{N: d.p, Inc: 1, Data: theta[:d.p]}, 1, blas64.Vector{N: d.n, Inc: 1, Data: z})
}

// gradient sets grad[:p] = Xᵀr + θ[:p] and grad[p] = Σr.
func (d *logitData) gradient(grad, theta, r []float64) {
	copy(grad[:d.p], theta[:d.p])
	blas64.Gemv(blas.Trans, 1, d.X, blas64.Vector{N: d.n, Inc: 1, Data: r}, 1, blas64.Vector{N: d.p, Inc: 1, Data: grad[:d.p]})
	grad[d.p] = floats.Sum(r)
}

func (d *logitData) weight(i int) float64 {
	if d.sw == nil {
		return 1
	}
	return d.sw[i]
}

// hessRows is how many rows the Hessian of iteration it (0-based) uses:
// every row for small data, else a sample growing from logitHessMin by √2 an
// iteration (doubling was measured slower: the early iterations need little
// accuracy, and a Hessian from 10^4 rows already gives fast linear
// convergence on a few dozen features).
func (d *logitData) hessRows(it int) int {
	if d.n <= 2*logitHessMin || it >= 40 {
		return d.n
	}
	return min(d.n, int(logitHessMin*math.Pow(2, float64(it)/2)))
}

// hessIndex returns the rows a Hessian on rows rows uses, nil for all.
func (d *logitData) hessIndex(rows int) []int {
	if rows >= d.n || d.sample == nil {
		return nil
	}
	return d.sample[:rows]
}

// hessScale estimates a full-data sum from the rows idx (nil: all).
func (d *logitData) hessScale(idx []int) float64 {
	if idx == nil {
		return 1
	}
	if d.sw == nil {
		return float64(d.n) / float64(len(idx))
	}
	s := 0.0
	for _, i := range idx {
		s += d.sw[i]
	}
	if s == 0 {
		return 1
	}
	return d.wsum / s
}

// addWeightedGram adds scale·Σ_i a_i x_i x_iᵀ over the rows idx (nil: all),
// x_i lifted by a final 1, into the q × q block of the row-major matrix H
// (leading dimension ld) at (r0, c0). The rows go in chunks: a chunk B of
// lifted rows and its weighted copy V = diag(a) B, then one matrix product
// Bᵀ V. A diagonal block (upper) of a matrix stored as its upper triangle
// may have its lower triangle written too; nothing reads it.
func (d *logitData) addWeightedGram(H []float64, ld, r0, c0 int, a []float64, idx []int, scale float64, upper bool) {
	_ = upper
	q, p := d.q, d.p
	rows := d.n
	if idx != nil {
		rows = len(idx)
	}
	blk := blas64.General{Rows: q, Cols: q, Stride: ld, Data: H[r0*ld+c0:]}
	for i0 := 0; i0 < rows; i0 += gramChunk {
		m := min(rows, i0+gramChunk) - i0
		B := blas64.General{Rows: m, Cols: q, Stride: q, Data: d.b[:m*q]}
		V := blas64.General{Rows: m, Cols: q, Stride: q, Data: d.v[:m*q]}
		for r := 0; r < m; r++ {
			i := i0 + r
			if idx != nil {
				i = idx[i]
			}
			x := d.X.Data[i*d.X.Stride : i*d.X.Stride+p]
			br, vr := B.Data[r*q:(r+1)*q], V.Data[r*q:(r+1)*q]
			copy(br, x)
			br[p] = 1
			floats.ScaleTo(vr, a[i], br)
		}
		blas64.Gemm(blas.Trans, blas.NoTrans, scale, B, V, 1, blk)
	}
}

// logitObjective is J and its derivatives for one set of parameters θ.
type logitObjective interface {
	dim() int
	// eval returns J(θ) and writes ∇J(θ) into grad; it caches what hessian
	// needs at θ.
	eval(theta, grad []float64) float64
	// hessian writes the upper triangle of ∇²J at the last evaluated θ into
	// H (dim × dim, row-major), using the first rows rows.
	hessian(H []float64, rows int)
	// sgdStep does one stochastic gradient step on row i (data order) with
	// learning rate lr and the penalty share shrink = lr/Σω.
	sgdStep(theta []float64, x []float64, i int, lr, shrink float64)
}

// logitBin is the binary objective: θ = (w, α), y_i = 1 when row i's class
// index cls[i] is pos, else 0 (one-vs-rest runs share cls).
type logitBin struct {
	*logitData
	cls  []int
	pos  int
	z, r []float64
}

func newLogitBin(d *logitData, cls []int, pos int) *logitBin {
	return &logitBin{logitData: d, cls: cls, pos: pos, z: make([]float64, d.n), r: make([]float64, d.n)}
}

func (o *logitBin) y(i int) float64 {
	if o.cls[i] == o.pos {
		return 1
	}
	return 0
}

func (o *logitBin) dim() int { return o.q }

func (o *logitBin) eval(theta, grad []float64) float64 {
	p, z := o.p, o.z
	o.linear(z, theta)
	// The loss of row i is ln(1 + e^u) = max(u, 0) + ln(1 + e^−|t|), with
	// u = t for y = 0 and −t for y = 1. Without weights the logarithms are
	// taken of products of 256 factors 1 + e^−|t| (each in (1, 2], so no
	// overflow): one Log per block instead of one Log1p per row, a fifth of
	// the time of an evaluation, for an error below 1e-13 per block.
	loss, prod := 0.0, 1.0
	for i, t := range z {
		e := math.Exp(-math.Abs(t))
		y := o.y(i)
		u := t
		if y == 1 {
			u = -t
		}
		s := 1 / (1 + e) // s(t)
		if t < 0 {
			s = e / (1 + e)
		}
		w := 1.0
		if o.sw != nil {
			w = o.sw[i]
			loss += w * (max(u, 0) + math.Log1p(e))
		} else {
			loss += max(u, 0)
			prod *= 1 + e
			if i&255 == 255 {
				loss += math.Log(prod)
				prod = 1
			}
		}
		o.r[i] = o.C * w * (s - y)
	}
	loss += math.Log(prod)
	J := o.C*loss + 0.5*floats.Dot(theta[:p], theta[:p])
	o.gradient(grad, theta, o.r)
	return J
}

func (o *logitBin) hessian(H []float64, rows int) {
	q := o.q
	for i := range H {
		H[i] = 0
	}
	// The curvature C ω s(1−s) of each row, from the logits of the last
	// evaluation, into the scratch v (the gradient's residuals are in r).
	idx := o.hessIndex(rows)
	h := o.rowWeights()
	curv := func(i int) {
		s := 1 / (1 + math.Exp(-o.z[i]))
		h[i] = o.C * o.weight(i) * s * (1 - s)
	}
	if idx == nil {
		for i := range h {
			curv(i)
		}
	} else {
		for _, i := range idx {
			curv(i)
		}
	}
	o.addWeightedGram(H, q, 0, 0, h, idx, o.hessScale(idx), true)
	for j := 0; j < o.p; j++ {
		H[j*q+j]++
	}
}

func (o *logitBin) sgdStep(theta, x []float64, i int, lr, shrink float64) {
	p := o.p
	t := floats.Dot(theta[:p], x) + theta[p]
	s := 1 / (1 + math.Exp(-t))
	g := lr * o.C * o.weight(i) * float64(o.n) / o.wsum * (s - o.y(i))
	floats.Scale(1-shrink, theta[:p])
	floats.AddScaled(theta[:p], -g, x)
	theta[p] -= g
}

// logitMulti is the multinomial (softmax) objective: θ holds m rows
// (w_c, α_c) of length q; cls[i] is row i's class index 0..m-1.
type logitMulti struct {
	*logitData
	m       int
	cls     []int
	Z, P, R []float64 // m × n each, class-major
	zi, pi  []float64 // m scratch
}

func newLogitMulti(d *logitData, m int, cls []int) *logitMulti {
	return &logitMulti{logitData: d, m: m, cls: cls,
		Z: make([]float64, m*d.n), P: make([]float64, m*d.n), R: make([]float64, m*d.n),
		zi: make([]float64, m), pi: make([]float64, m)}
}

func (o *logitMulti) dim() int { return o.m * o.q }

func (o *logitMulti) eval(theta, grad []float64) float64 {
	n, p, q, m := o.n, o.p, o.q, o.m
	for c := 0; c < m; c++ {
		o.linear(o.Z[c*n:(c+1)*n], theta[c*q:(c+1)*q])
	}
	loss := 0.0
	for i := 0; i < n; i++ {
		mx := math.Inf(-1)
		for c := 0; c < m; c++ {
			mx = math.Max(mx, o.Z[c*n+i])
		}
		sum := 0.0
		for c := 0; c < m; c++ {
			e := math.Exp(o.Z[c*n+i] - mx)
			o.P[c*n+i] = e
			sum += e
		}
		lse := mx + math.Log(sum)
		w := o.weight(i)
		y := o.cls[i]
		loss += w * (lse - o.Z[y*n+i])
		for c := 0; c < m; c++ {
			pc := o.P[c*n+i] / sum
			o.P[c*n+i] = pc
			if c == y {
				pc--
			}
			o.R[c*n+i] = o.C * w * pc
		}
	}
	J := o.C * loss
	for c := 0; c < m; c++ {
		th := theta[c*q : (c+1)*q]
		J += 0.5 * floats.Dot(th[:p], th[:p])
		o.gradient(grad[c*q:(c+1)*q], th, o.R[c*n:(c+1)*n])
	}
	return J
}

// hessian: block (c, c') is Xᵀ diag(C ω P_c (δ_cc' − P_c')) X, plus the
// penalty on the weights. The objective does not change when every intercept
// moves by the same amount, so the Hessian is singular along u = (1,…,1)/√m
// on the intercepts; adding γuuᵀ makes it definite and, as the gradient is
// orthogonal to u, keeps Σ_c α_c where it started (zero).
func (o *logitMulti) hessian(H []float64, rows int) {
	n, p, q, m := o.n, o.p, o.q, o.m
	ld := m * q
	for i := range H {
		H[i] = 0
	}
	idx := o.hessIndex(rows)
	scale := o.hessScale(idx)
	a := o.rowWeights()
	for c := 0; c < m; c++ {
		pc := o.P[c*n : (c+1)*n]
		for c2 := c; c2 < m; c2++ {
			pc2 := o.P[c2*n : (c2+1)*n]
			weigh := func(i int) {
				if c == c2 {
					a[i] = o.C * o.weight(i) * pc[i] * (1 - pc[i])
				} else {
					a[i] = -o.C * o.weight(i) * pc[i] * pc2[i]
				}
			}
			if idx == nil {
				for i := range a {
					weigh(i)
				}
			} else {
				for _, i := range idx {
					weigh(i)
				}
			}
			o.addWeightedGram(H, ld, c*q, c2*q, a, idx, scale, c == c2)
		}
	}
	gamma := 0.0
	for c := 0; c < m; c++ {
		gamma += H[(c*q+p)*ld+c*q+p]
		for j := 0; j < p; j++ {
			H[(c*q+j)*ld+c*q+j]++
		}
	}
	gamma /= float64(m)
	if gamma <= 0 {
		gamma = 1
	}
	for c := 0; c < m; c++ {
		for c2 := c; c2 < m; c2++ {
			H[(c*q+p)*ld+c2*q+p] += gamma / float64(m)
		}
	}
}

func (o *logitMulti) sgdStep(theta, x []float64, i int, lr, shrink float64) {
	p, q, m := o.p, o.q, o.m
	mx := math.Inf(-1)
	for c := 0; c < m; c++ {
		th := theta[c*q : (c+1)*q]
		o.zi[c] = floats.Dot(th[:p], x) + th[p]
		mx = math.Max(mx, o.zi[c])
	}
	sum := 0.0
	for c := 0; c < m; c++ {
		o.pi[c] = math.Exp(o.zi[c] - mx)
		sum += o.pi[c]
	}
	base := lr * o.C * o.weight(i) * float64(o.n) / o.wsum
	for c := 0; c < m; c++ {
		r := o.pi[c] / sum
		if c == o.cls[i] {
			r--
		}
		th := theta[c*q : (c+1)*q]
		floats.Scale(1-shrink, th[:p])
		floats.AddScaled(th[:p], -base*r, x)
		th[p] -= base * r
	}
}

// logitRun is one objective being minimised.
type logitRun struct {
	obj                        logitObjective
	theta, grad, trial, gtrial []float64
	J                          float64
	done                       bool

	// Newton only.
	H    *mat.SymDense
	e    []float64
	chol mat.Cholesky
}

func newLogitRun(obj logitObjective, newton bool) *logitRun {
	k := obj.dim()
	r := &logitRun{obj: obj, theta: make([]float64, k), grad: make([]float64, k),
		trial: make([]float64, k), gtrial: make([]float64, k)}
	if newton {
		r.H = mat.NewSymDense(k, nil)
		r.e = make([]float64, k)
	}
	r.J = obj.eval(r.theta, r.grad)
	return r
}

// newton does one damped Newton step using a Hessian on rows rows.
func (r *logitRun) newton(rows int) error {
	k := r.obj.dim()
	raw := r.H.RawSymmetric().Data
	r.obj.hessian(raw, rows)
	if !r.chol.Factorize(r.H) {
		// Only rounding can make J's Hessian indefinite (the penalty makes it
		// definite): add a growing multiple of the identity.
		maxd := 0.0
		for j := 0; j < k; j++ {
			maxd = math.Max(maxd, raw[j*k+j])
		}
		ok := false
		for lam := 1e-10 * math.Max(maxd, 1); lam < 1e6*math.Max(maxd, 1) && !ok; lam *= 100 {
			for j := 0; j < k; j++ {
				raw[j*k+j] += lam
			}
			ok = r.chol.Factorize(r.H)
		}
		if !ok {
			return fmt.Errorf("logistic regression: the Hessian is not positive definite (are there NaN or huge feature values?)")
		}
	}
	ev := mat.NewVecDense(k, r.e)
	if err := r.chol.SolveVecTo(ev, mat.NewVecDense(k, r.grad)); err != nil {
		// A near-singular factor still gives a usable direction; only a
		// failed solve is fatal.
		if _, ok := err.(mat.Condition); !ok {
			return fmt.Errorf("logistic regression: Newton step: %v", err)
		}
	}
	floats.Scale(-1, r.e)
	slope := floats.Dot(r.grad, r.e) // < 0: a descent direction
	// Near the optimum the decrease Newton predicts is below the rounding of
	// J: then J cannot judge a step, the gradient can.
	flat := -slope <= 1e-10*math.Abs(r.J)
	gnorm := floats.Norm(r.grad, math.Inf(1))
	alpha := 1.0
	for try := 0; try < 40; try++ {
		floats.AddScaledTo(r.trial, r.theta, alpha, r.e)
		Jt := r.obj.eval(r.trial, r.gtrial)
		if Jt <= r.J+1e-4*alpha*slope || (flat && floats.Norm(r.gtrial, math.Inf(1)) < gnorm) {
			r.accept(Jt)
			return nil
		}
		if flat {
			break
		}
		alpha /= 2
	}
	// No decrease at all: θ is as good as rounding allows. Restore the cache.
	r.J = r.obj.eval(r.theta, r.grad)
	r.done = true
	return nil
}

func (r *logitRun) accept(J float64) {
	r.theta, r.trial = r.trial, r.theta
	r.grad, r.gtrial = r.gtrial, r.grad
	r.J = J
}

// gd does one gradient-descent step.
func (r *logitRun) gd(step float64) {
	floats.AddScaledTo(r.trial, r.theta, -step, r.grad)
	r.accept(r.obj.eval(r.trial, r.gtrial))
}

// Fit implements engine.Model.
func (m *Logistic) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	m.fitted, m.used, m.warnings = false, "", nil
	ok := false
	defer unfitUnless(&ok, &m.fitted)
	rec = orNop(rec)
	set, err := m.settings()
	if err != nil {
		return err
	}
	present, err := presentClasses(d, logitName)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	n, p := d.X.Dims()
	q := p + 1
	kind := logitBinary
	if len(present) > 2 {
		kind = logitMultinomial
		if set.multi == "ovr" {
			kind = logitOvR
		}
	}
	size := q // unknowns of one Newton system
	if kind == logitMultinomial {
		size = len(present) * q
	}
	if set.solver == "auto" {
		set.solver = "newton"
		if size > logitAutoNewton {
			set.solver = "lbfgs"
		}
	}
	m.used = set.solver
	newton := set.solver == "newton"
	if newton {
		if size > logitMaxNewton {
			return engine.Limitf("logistic regression: the newton solver would solve %d×%d systems (%d features, %d classes); use solver=gd or sgd, or multi=ovr",
				size, size, p, len(present))
		}
	}
	rng := rand.New(rand.NewPCG(d.Seed, 0x6a09e667f3bcc909))

	data := newLogitData(d.X, set.C, d.Weights)
	if newton && data.hessRows(0) < n {
		// The subsampled Hessian takes the leading rows of a shuffled order.
		data.sample = rng.Perm(n)
	}
	index := make([]int, len(d.Classes))
	for j, c := range present {
		index[c] = j
	}
	cls := make([]int, n) // class index of each row
	for i := range cls {
		// A row of a class absent from training has weight 0: index 0 is harmless.
		cls[i] = index[int(d.Y[i])]
	}

	var runs []*logitRun
	switch kind {
	case logitMultinomial:
		runs = append(runs, newLogitRun(newLogitMulti(data, len(present), cls), newton))
	default:
		targets := []int{1} // binary: the larger class code is positive
		if kind == logitOvR {
			targets = make([]int, len(present))
			for c := range targets {
				targets[c] = c
			}
		}
		for _, t := range targets {
			runs = append(runs, newLogitRun(newLogitBin(data, cls, t), newton))
		}
	}

	// W and b are what Predict reads: they are refreshed from θ before every
	// step, so that the recorder can validate the current iterate.
	outs := len(runs)
	if kind == logitMultinomial {
		outs = len(present)
	}
	W := mat.NewDense(outs, p, nil)
	b := make([]float64, outs)
	publish := func() {
		for o := 0; o < outs; o++ {
			var th []float64
			if kind == logitMultinomial {
				th = runs[0].theta[o*q : (o+1)*q]
			} else {
				th = runs[o].theta
			}
			copy(W.RawRowView(o), th[:p])
			b[o] = th[p]
		}
		m.fitted = true
	}
	m.nFeat, m.features, m.classes, m.present, m.kind = p, d.Features, d.Classes, present, kind
	m.w, m.b = W, b

	gradTol := set.tol * set.C * data.wsum
	var sgdOrder []int
	if set.solver == "sgd" {
		for r := 0; r < n; r++ {
			if data.weight(r) > 0 {
				sgdOrder = append(sgdOrder, r)
			}
		}
	}
	step := func(it int) error {
		J, gmax := 0.0, 0.0
		for _, r := range runs {
			J += r.J
			g := floats.Norm(r.grad, math.Inf(1))
			gmax = math.Max(gmax, g)
			if g <= gradTol {
				r.done = true
			}
		}
		loss := J / data.wsum
		publish()
		total := set.maxIter
		if set.solver == "lbfgs" {
			total *= len(runs)
		}
		if err := rec.Step(engine.Step{Step: it, Total: total, TrainLoss: loss,
			Extra: map[string]float64{"grad": gmax / (set.C * data.wsum)}}); err != nil {
			return err
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return fmt.Errorf("logistic regression: %w: the loss is %v at iteration %d; try a smaller learning rate (lr=%g)",
				engine.ErrDiverged, loss, it, set.lr)
		}
		return ctx.Err()
	}
	if set.solver == "lbfgs" {
		if err := logitLBFGS(runs, set.maxIter, gradTol, step); err != nil {
			return err
		}
	}
	for it := 1; it <= set.maxIter && set.solver != "lbfgs"; it++ {
		if set.solver == "sgd" {
			rng.Shuffle(len(sgdOrder), func(i, j int) { sgdOrder[i], sgdOrder[j] = sgdOrder[j], sgdOrder[i] })
		}
		for _, r := range runs {
			if r.done {
				continue
			}
			switch set.solver {
			case "newton":
				if err := r.newton(data.hessRows(it - 1)); err != nil {
					return err
				}
			case "gd":
				r.gd(set.lr / data.wsum)
			case "sgd":
				shrink := set.lr / data.wsum
				for _, row := range sgdOrder {
					r.obj.sgdStep(r.theta, d.X.RawRowView(row)[:p], row, set.lr, shrink)
				}
				r.J = r.obj.eval(r.theta, r.grad)
			}
		}
		if err := step(it); err != nil {
			return err
		}
		done := true
		for _, r := range runs {
			done = done && r.done
		}
		if done {
			break
		}
	}

	publish() // θ has not moved since the last step; this is its state
	if !finiteSlice(W.RawMatrix().Data) || !finiteSlice(b) {
		return fmt.Errorf("logistic regression: %w: the weights overflowed; try a smaller learning rate (lr=%g)", engine.ErrDiverged, set.lr)
	}
	gmax := 0.0
	for _, r := range runs {
		if !r.done {
			gmax = math.Max(gmax, floats.Norm(r.grad, math.Inf(1)))
		}
	}
	if gmax > gradTol {
		m.warnings = append(m.warnings, fmt.Sprintf("logistic regression (%s) stopped after max_iter=%d iterations before converging (gradient %s, tol %s): raise max_iter, or standardise the features",
			set.solver, set.maxIter, numfmt.Sig(gmax/(set.C*data.wsum), 2), numfmt.Sig(set.tol, 2)))
	}
	ok = true
	return nil
}

// logitLBFGS minimises each run with L-BFGS in turn, reporting every major
// iteration to step (numbered across the runs).
func logitLBFGS(runs []*logitRun, maxIter int, gradTol float64, step func(it int) error) error {
	it := 0
	for _, r := range runs {
		if floats.Norm(r.grad, math.Inf(1)) <= gradTol {
			r.done = true
			continue
		}
		// Func and Grad come at the same point: one evaluation serves both.
		var lastX []float64
		lastG := make([]float64, len(r.theta))
		lastJ := 0.0
		at := func(x []float64) {
			if lastX != nil && floats.Equal(x, lastX) {
				return
			}
			lastX = append(lastX[:0], x...)
			lastJ = r.obj.eval(x, lastG)
		}
		prob := optimize.Problem{
			Func: func(x []float64) float64 { at(x); return lastJ },
			Grad: func(g, x []float64) { at(x); copy(g, lastG) },
		}
		took := func(x []float64, J float64, g []float64) error {
			copy(r.theta, x)
			copy(r.grad, g)
			r.J = J
			it++
			return step(it)
		}
		settings := &optimize.Settings{
			GradientThreshold: gradTol,
			MajorIterations:   maxIter,
			Converger:         &optimize.FunctionConverge{Relative: 64 * 0x1p-52, Iterations: 1},
			Recorder:          lbfgsRecorder(took),
		}
		res, err := optimize.Minimize(prob, append([]float64(nil), r.theta...), settings, &optimize.LBFGS{Store: 10})
		if err != nil {
			return err
		}
		// The last iteration is not recorded when it converges.
		J := r.obj.eval(res.X, r.gtrial)
		if err := took(res.X, J, r.gtrial); err != nil {
			return err
		}
		r.done = true
		if floats.Norm(r.grad, math.Inf(1)) > gradTol && res.Status == optimize.IterationLimit {
			r.done = false
		}
	}
	return nil
}

// lbfgsRecorder passes gonum's major iterations to took.
type lbfgsRecorder func(x []float64, J float64, g []float64) error

func (lbfgsRecorder) Init() error { return nil }

func (f lbfgsRecorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op != optimize.MajorIteration {
		return nil
	}
	return f(loc.X, loc.F, loc.Gradient)
}

// Warnings says when the solver stopped before converging; nil otherwise.
func (m *Logistic) Warnings() []string { return m.warnings }

// SolverUsed is the solver the last fit ran (auto resolved).
func (m *Logistic) SolverUsed() string { return m.used }

// Predict implements engine.Model: the most probable class.
func (m *Logistic) Predict(X mat.Matrix) ([]float64, error) { return m.predict(logitName, X) }

// PredictProba implements engine.Prober (n × classes; classes absent from
// training get 0).
func (m *Logistic) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	Z, err := m.scores(logitName, X)
	if err != nil {
		return nil, err
	}
	if Z == nil {
		return &mat.Dense{}, nil
	}
	n, outs := Z.Dims()
	P := mat.NewDense(n, len(m.classes), nil)
	for i := 0; i < n; i++ {
		z, row := Z.RawRowView(i), P.RawRowView(i)
		switch {
		case outs == 1:
			s := logitSigmoid(z[0])
			row[m.present[0]], row[m.present[1]] = 1-s, s
		case m.kind == logitMultinomial:
			mx := floats.Max(z)
			sum := 0.0
			for j := range z {
				sum += math.Exp(z[j] - mx)
			}
			for j, c := range m.present {
				row[c] = math.Exp(z[j]-mx) / sum
			}
		default: // one-vs-rest: normalised binary probabilities
			sum := 0.0
			for j := range z {
				sum += logitSigmoid(z[j])
			}
			if sum == 0 { // every logit below -745: the largest wins
				row[m.present[argmaxRow(z)]] = 1
				continue
			}
			for j, c := range m.present {
				row[c] = logitSigmoid(z[j]) / sum
			}
		}
	}
	return P, nil
}

func logitSigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// DecisionFunction implements engine.Scorer: the logits w_c·x + α_c (n ×
// classes); with two classes −z and z. Absent classes score -math.MaxFloat64.
func (m *Logistic) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return m.decisionFunction(logitName, X)
}

// Coefficients implements engine.Coefficienter: one row with two classes
// (the positive class's logit), else one per class.
func (m *Logistic) Coefficients() engine.Coefficients { return m.coefficients() }

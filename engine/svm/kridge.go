package svm

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// KRidge is kernel ridge regression (Shewchuk, Concise Machine Learning,
// lecture 16; Recht, Malik & Tu, CS 189, section 10): ridge regression
// with w = Σ_i a_i Φ(x_i), whose coefficients solve
//
//	(K + λI) a = y,
//
// by Cholesky, and f(x) = Σ_i a_i k(x_i, x). Sample weights scale each
// row's squared error, as scikit-learn's KernelRidge: the system is
// (W½ K W½ + λI) b = W½ y and a = W½ b.
//
// scikit-learn's KernelRidge has no intercept: far from the data an RBF
// fit falls to 0, whatever the mean of y. By default (center_y) the model
// fits y − ȳ and adds ȳ back, a constant intercept that is not penalised;
// center_y=false is KernelRidge exactly. With the linear kernel and no
// centring it is ridge regression without an intercept.
type KRidge struct {
	Lambda   float64
	Center   bool
	kernelOf engine.Values

	features []string
	exp      kmExpansion // one output; bias is ȳ
	warnings []string
	engine.FitState
}

const krName = "kridge"

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     krName,
		Title:    "kernel ridge regression",
		Family:   "kernel methods",
		Summary:  "solves (K + λI) a = y and predicts Σ a_i k(x_i, x): ridge regression with a kernel",
		Notes:    "Shewchuk, Concise Machine Learning, lecture 16; Recht, Malik & Tu, CS 189, section 10",
		Tasks:    []engine.Task{datasets.Regression},
		Unit:     "solve",
		Loss:     "training MSE",
		// Kernel values of unscaled features are dominated by the widest.
		Standardize: true,
		// RBF by default, unlike scikit-learn's KernelRidge (linear): a
		// linear kernel is plain ridge regression, and a kernel method is
		// chosen to fit what a line cannot.
		Params: append(KernelParams(RBF, Poly, Sigmoid, Linear),
			engine.Param{Name: "lambda", Kind: engine.Float, Default: 1.0, Min: 1e-10, Max: 1e10, Log: true, Simpler: engine.SimplerHigher,
				Help: "λ added to K's diagonal: larger is smoother (scikit-learn's KernelRidge calls it alpha)"},
			engine.Param{Name: "center_y", Kind: engine.Bool, Default: true,
				Help: "fit y − mean(y) and add the mean back (an intercept); false: scikit-learn's KernelRidge, which has none"}),
		Memory: func(s engine.Shape, v engine.Values) engine.Need { return krNeed(s.Rows, v.String("kernel")) },
		New: func(v engine.Values) (engine.Model, error) {
			return &KRidge{Lambda: v.Float("lambda"), Center: v.Bool("center_y"), kernelOf: v}, nil
		},
	})
}

// krNeed is a fit's memory: the kernel matrix, factored in place; with the
// sigmoid kernel, which need not be positive definite, a second copy for
// the LU factors Cholesky may fall back to.
func krNeed(n int, kind string) engine.Need {
	need := kmGramNeed(n)
	if kind == Sigmoid {
		need = need.Times(2)
	}
	return need
}

// Fit implements engine.Model: one step, the solve.
func (m *KRidge) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	k, _, err := kmBegin(ctx, d, krName, false, m.kernelOf, func(n int) engine.Need { return krNeed(n, m.kernelOf.String("kernel")) })
	if err != nil {
		return err
	}
	n, _ := d.X.Dims()
	root := make([]float64, n) // √w_i
	mean, wsum := 0.0, 0.0
	for i := range n {
		w := kmWeight(d, i)
		root[i] = math.Sqrt(w)
		mean += w * d.Y[i]
		wsum += w
	}
	mean /= wsum
	if !m.Center {
		mean = 0
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = root[i] * (d.Y[i] - mean)
	}
	m.warnings = nil
	if ok, err := krCholesky(ctx, k, d.X, root, m.Lambda, b); err != nil {
		return err
	} else if !ok {
		m.warnings = []string{"K + λI is not positive definite (the " + k.Kind + " kernel need not be): solved by LU instead of Cholesky; a larger lambda may make it so"}
		if err := krLU(ctx, k, d.X, root, m.Lambda, b); err != nil {
			return err
		}
	}
	for i := range b {
		b[i] *= root[i]
	}
	m.features = d.Features
	m.exp = kmExpansion{kernel: k, rows: mat.DenseCopyOf(d.X), coef: mat.NewDense(n, 1, b), bias: []float64{mean}, norms: kmNorms(d.X)}
	m.Fitted = true
	fit := m.exp.decision(d.X)
	mse := 0.0
	for i := range n {
		r := fit.At(i, 0) - d.Y[i]
		mse += kmWeight(d, i) * r * r
	}
	return kmStep(ctx, rec, engine.Step{Step: 1, Total: 1, TrainLoss: mse / wsum})
}

// krSystem is W½ K W½ + λI, the matrix kernel ridge solves with; the
// context's error when it is cancelled first.
func krSystem(ctx context.Context, k Kernel, X *mat.Dense, root []float64, lambda float64) (*mat.Dense, error) {
	K := kmGram(k, X, ctx.Done())
	if K == nil {
		return nil, ctx.Err()
	}
	n, _ := K.Dims()
	for i := range n {
		row := K.RawRowView(i)
		for j := range row {
			row[j] *= root[i] * root[j]
		}
		row[i] += lambda
	}
	return K, nil
}

// krCholesky solves the system for b in place by Cholesky, factoring the
// kernel matrix in place; false when it is not positive definite.
func krCholesky(ctx context.Context, k Kernel, X *mat.Dense, root []float64, lambda float64, b []float64) (bool, error) {
	K, err := krSystem(ctx, k, X, root, lambda)
	if err != nil {
		return false, err
	}
	raw := K.RawMatrix()
	t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: raw.Rows, Stride: raw.Stride, Data: raw.Data})
	if !ok {
		return false, nil
	}
	lapack64.Potrs(t, blas64.General{Rows: raw.Rows, Cols: 1, Stride: 1, Data: b})
	return true, nil
}

// krLU solves the system for b in place by LU with pivoting.
func krLU(ctx context.Context, k Kernel, X *mat.Dense, root []float64, lambda float64, b []float64) error {
	K, err := krSystem(ctx, k, X, root, lambda)
	if err != nil {
		return err
	}
	var lu mat.LU
	lu.Factorize(K) // into a copy: the second matrix krNeed counts
	x := mat.NewVecDense(len(b), b)
	if err := lu.SolveVecTo(x, false, x); err != nil {
		if _, ill := err.(mat.Condition); !ill {
			return err
		}
	}
	for _, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return engine.Limitf("%s: K + λI is singular; raise lambda (lambda=%g)", krName, lambda)
		}
	}
	return nil
}

// Predict implements engine.Predictor.
func (m *KRidge) Predict(X mat.Matrix) ([]float64, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	D, err := kmInput(X, m.exp.rows, m.features, krName)
	if err != nil || D == nil {
		return []float64{}, err
	}
	return m.exp.decision(D).RawMatrix().Data, nil
}

// Coef is a, one coefficient per training row, and the intercept ȳ (0
// without center_y).
func (m *KRidge) Coef() (a []float64, intercept float64) {
	if !m.Fitted {
		return nil, 0
	}
	return append([]float64(nil), m.exp.coef.RawMatrix().Data...), m.exp.bias[0]
}

// Warnings implements engine.Warner.
func (m *KRidge) Warnings() []string { return m.warnings }

// krState is KRidge's model file state: every training row, a, and the
// intercept ȳ as the one bias.
type krState struct {
	kmState
	Warnings []string `json:"warnings,omitempty"`
}

// MarshalState implements engine.Persistent.
func (m *KRidge) MarshalState() ([]byte, error) {
	return engine.MarshalFitted(krName, m.Fitted, func() any {
		return krState{kmState: kmStateOf(m.features, m.exp), Warnings: m.warnings}
	})
}

// UnmarshalState implements engine.Persistent.
func (m *KRidge) UnmarshalState(data []byte) error {
	var s krState
	if err := engine.DecodeState(krName, data, &s); err != nil {
		return err
	}
	c := engine.NewStateCheck(krName)
	e := s.expansion(c, m.kernelOf, 1)
	c.That(m.Center || len(s.Bias) != 1 || s.Bias[0] == 0, "bias is %v, but the model is fitted without center_y", s.Bias)
	if err := c.Err(); err != nil {
		return err
	}
	m.features, m.exp, m.warnings, m.Fitted = s.Features, e, s.Warnings, true
	return nil
}

// Package decomp holds tealab's reductions: principal component analysis,
// truncated SVD (latent factors of uncentred data) and random projection
// (Shewchuk, Concise Machine Learning, lectures 20-22; Verma, COMS 4771 notes, Unsupervised Learning, PCA).
//
// Each fits one Step whose training loss is the mean squared
// reconstruction error per row (what the kept directions miss), offers its
// components (loadings and the variance each explains) and transforms rows
// into the kept dimensions.
package decomp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/kernel"
)

const family = "dimensionality reduction"

func init() {
	engine.Register(engine.Spec{
		Name:    "pca",
		Title:   "principal component analysis",
		Family:  family,
		Summary: "the directions of greatest variance: scree, loadings, and the data projected onto them",
		Notes:   "Shewchuk, Concise Machine Learning, lectures 20-21 (PCA via the SVD); Verma, COMS 4771 notes, Unsupervised Learning; Recht, Malik & Tu, CS 189 notes, section 14.3",
		Tasks:   []engine.Task{datasets.Reduction},
		Unit:    "fit",
		Loss:    "reconstruction error",
		Params: []engine.Param{
			{Name: "k", Kind: engine.Int, Default: 0, Min: 0, Max: 1e5,
				Help: "components kept (0: as many as variance asks)"},
			// 95% by default, as scikit-learn's n_components=0.95: keeping
			// every component keeps the noise the reduction is for leaving out.
			{Name: "variance", Kind: engine.Float, Default: 0.95, Min: 0.01, Max: 1,
				Help: "with k=0, the fewest components whose explained variance reaches this share (1: all)"},
			{Name: "scale", Kind: engine.Bool, Default: false,
				Help: "divide each feature by its standard deviation first (PCA of the correlations), for features in different units"},
		},
		Bench:  []engine.BenchCase{{Name: "pca", Data: "dense_20k_100", Task: datasets.Reduction, Params: map[string]string{"k": "10"}}},
		Memory: pcaMemory,
		New: func(v engine.Values) (engine.Model, error) {
			return &PCA{K: v.Int("k"), Variance: v.Float("variance"), Scale: v.Bool("scale")}, nil
		},
	})
	engine.Register(engine.Spec{
		Name:    "svd",
		Title:   "truncated SVD (latent factors)",
		Family:  family,
		Summary: "the best rank-k fit of the uncentred data: latent factors, as in latent semantic indexing",
		Notes:   "Shewchuk, Concise Machine Learning, lectures 21-22 (the SVD, low-rank approximation, latent factors); Recht, Malik & Tu, CS 189 notes, section 14.2",
		Tasks:   []engine.Task{datasets.Reduction},
		Unit:    "fit",
		Loss:    "reconstruction error",
		Params: []engine.Param{
			{Name: "k", Kind: engine.Int, Default: 2, Min: 1, Max: 1e5, Help: "factors kept"},
		},
		Memory: pcaMemory,
		New: func(v engine.Values) (engine.Model, error) {
			return &PCA{K: v.Int("k"), Uncentred: true}, nil
		},
	})
	engine.Register(engine.Spec{
		Name:    "randproj",
		Title:   "random projection",
		Family:  family,
		Summary: "project onto k random directions: distances kept within 1±ε with high probability (Johnson–Lindenstrauss)",
		Notes:   "Shewchuk, Concise Machine Learning, lecture 22 (random projection, k = ⌈2 ln(1/δ)/(ε²/2 − ε³/3)⌉); Johnson & Lindenstrauss 1984",
		Tasks:   []engine.Task{datasets.Reduction},
		Unit:    "fit",
		Loss:    "mean distortion of squared distances",
		Params: []engine.Param{
			{Name: "k", Kind: engine.Int, Default: 0, Min: 0, Max: 1e5,
				Help: "dimensions (0: the Johnson–Lindenstrauss k for eps and delta)"},
			{Name: "eps", Kind: engine.Float, Default: 0.5, Min: 0.01, Max: 0.99, Help: "ε: the distortion allowed"},
			{Name: "delta", Kind: engine.Float, Default: 0.05, Min: 1e-12, Max: 0.5, Help: "δ: the chance of a larger one, per pair"},
		},
		New: func(v engine.Values) (engine.Model, error) {
			return &RandomProjection{K: v.Int("k"), Eps: v.Float("eps"), Delta: v.Float("delta")}, nil
		},
	})
}

// PCA centres the rows (unless Uncentred: truncated SVD), optionally
// scales each feature to unit variance, and keeps the top eigenvectors of
// the d × d covariance (the squared singular values of the centred data
// over n − 1, as scikit-learn): one pass to form X'X, one symmetric
// eigendecomposition, however many rows.
type PCA struct {
	K         int
	Variance  float64 // with K = 0: the share of variance to reach (0 or 1: every component)
	Scale     bool
	Uncentred bool

	mean, scale []float64
	comps       *engine.Components
	engine.FitState
	recon float64
}

// Fit implements engine.Model.
func (m *PCA) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	n, d := t.X.Dims()
	if n < 2 {
		return fmt.Errorf("pca: %d rows; a covariance needs at least 2", n)
	}
	if m.K > d {
		return engine.Limitf("parameter k: %d components but the data have %d features; use k at most %d", m.K, d, d)
	}
	if err := engine.CheckFinite(t.X, t.Features); err != nil {
		return err
	}
	m.mean, m.scale = make([]float64, d), make([]float64, d)
	for j := range d {
		m.scale[j] = 1
	}
	if !m.Uncentred {
		for i := range n {
			for j, v := range t.X.RawRowView(i)[:d] {
				m.mean[j] += v
			}
		}
		for j := range m.mean {
			m.mean[j] /= float64(n)
		}
	}
	if m.Scale {
		m.standardDeviations(t.X)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	vals, all, err := datasets.PrincipalAxes(datasets.Covariance(t.X, m.mean, m.scale), d)
	if err != nil {
		return fmt.Errorf("pca: %w", err)
	}
	total := 0.0
	for _, v := range vals {
		total += v
	}
	k := m.K
	if k == 0 {
		k = d
		if m.Variance > 0 && m.Variance < 1 && total > 0 {
			cum := 0.0
			for c, v := range vals {
				cum += v / total
				if cum >= m.Variance-1e-12 {
					k = c + 1
					break
				}
			}
		}
	}
	comps := &engine.Components{Features: slices.Clone(t.Features), Vectors: mat.DenseCopyOf(all.Slice(0, k, 0, d)),
		Variance: slices.Clone(vals[:k]), Ratio: make([]float64, k)}
	kept := 0.0
	for c := range k {
		if total > 0 {
			comps.Ratio[c] = vals[c] / total
		}
		comps.Names = append(comps.Names, m.componentName(c))
		kept += vals[c]
	}
	m.comps, m.Fitted = comps, true
	// What the kept directions miss, per row: the variance left over.
	m.recon = max(total-kept, 0) * float64(n-1) / float64(n)
	if err := rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: m.recon,
		Detail: Reduction{Components: k, WorstDistortion: math.NaN()}}); err != nil {
		return err
	}
	return ctx.Err()
}

// standardDeviations sets each scale to its column's standard deviation
// about the mean (n − 1), where that is not 0. The squares are summed in
// units of the column's largest centred magnitude, so that values near
// 1e160 or 1e-170 neither overflow nor underflow.
func (m *PCA) standardDeviations(X *mat.Dense) {
	n, d := X.Dims()
	top := make([]float64, d)
	for i := range n {
		for j, v := range X.RawRowView(i)[:d] {
			top[j] = max(top[j], math.Abs(v-m.mean[j]))
		}
	}
	unit := make([]float64, d)
	for j, t := range top {
		unit[j] = datasets.ScaleUnit(t)
	}
	ss := make([]float64, d)
	for i := range n {
		for j, v := range X.RawRowView(i)[:d] {
			z := (v - m.mean[j]) / unit[j]
			ss[j] += z * z
		}
	}
	for j := range d {
		if sd := math.Sqrt(ss[j]/float64(n-1)) * unit[j]; sd > 0 {
			m.scale[j] = sd
		}
	}
}

// Measures implements engine.Measurer: the root mean squared error of the
// training rows rebuilt from the kept directions (what the scree leaves
// out, per entry).
func (m *PCA) Measures() map[string]float64 {
	if !m.Fitted {
		return nil
	}
	return map[string]float64{"reconstruction_rmse": math.Sqrt(m.recon / float64(len(m.mean)))}
}

// componentName names component c (from 0): PC1, PC2... or, for a
// truncated SVD, the factors F1, F2...
func (m *PCA) componentName(c int) string {
	if m.Uncentred {
		return fmt.Sprintf("F%d", c+1)
	}
	return fmt.Sprintf("PC%d", c+1)
}

// Components implements engine.Componenter.
func (m *PCA) Components() *engine.Components {
	if !m.Fitted {
		return nil
	}
	return m.comps
}

// Transform implements engine.Transformer: rows centred (and scaled) as in
// training, onto the kept directions.
func (m *PCA) Transform(X mat.Matrix) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	_, d := X.Dims()
	if d != len(m.mean) {
		return nil, fmt.Errorf("pca: got %d features, fitted on %d", d, len(m.mean))
	}
	return datasets.Project(datasets.DenseOf(X), m.mean, m.scale, m.comps.Vectors), nil
}

// RandomProjection projects rows onto k random directions scaled by √(d/k)
// (Shewchuk, lecture 22): Gaussian directions, made orthonormal by Gram–Schmidt (the
// notes' recipe), so k is at most d. With k = 0 it takes the
// Johnson–Lindenstrauss k = ⌈2 ln(1/δ)/(ε²/2 − ε³/3)⌉, or half the
// features, saying so, when that is not below d. Its training loss is the
// mean distortion |‖Pa−Pb‖²/‖a−b‖² − 1| it caused on up to 2,000 random
// pairs of training rows; the worst is its distortion measure.
type RandomProjection struct {
	K          int
	Eps, Delta float64

	worst    float64
	warnings []string

	P *mat.Dense // k × d, scaled
	engine.FitState
}

// JLDimensions is the notes' k for distortion eps with failure chance delta.
func JLDimensions(eps, delta float64) int {
	return int(math.Ceil(2 * math.Log(1/delta) / (eps*eps/2 - eps*eps*eps/3)))
}

// halfOf is the k a random projection takes when the Johnson–Lindenstrauss
// k is not below the d features.
func halfOf(d int) int { return max((d+1)/2, 1) }

// Fit implements engine.Model.
func (m *RandomProjection) Fit(ctx context.Context, t engine.Train, rec engine.Recorder) error {
	m.warnings = nil
	n, d := t.X.Dims()
	if err := engine.CheckFinite(t.X, t.Features); err != nil {
		return err
	}
	k := m.K
	if k == 0 {
		k = JLDimensions(m.Eps, m.Delta)
		if k >= d {
			half := halfOf(d)
			m.warnings = append(m.warnings, fmt.Sprintf("eps=%g and delta=%g ask for %d dimensions (the Johnson–Lindenstrauss k), not fewer than the %d features: projected onto %d (half) instead, where the bound promises nothing; the measured distortion says what happened (set k to choose; the bound is meant for hundreds of features and more)",
				m.Eps, m.Delta, k, d, half))
			k = half
		}
	}
	if k > d {
		return engine.Limitf("parameter k: %d directions but the data have %d features, and a projection has at most as many orthonormal directions as features; use k at most %d", k, d, d)
	}
	r := rand.New(rand.NewPCG(t.Seed, 0x94d049bb133111eb))
	P := mat.NewDense(k, d, nil)
	for c := range k {
		row := P.RawRowView(c)
		for j := range row {
			row[j] = r.NormFloat64()
		}
		for e := range c { // Gram–Schmidt against the earlier directions
			prev := P.RawRowView(e)
			dot := 0.0
			for j := range row {
				dot += row[j] * prev[j]
			}
			for j := range row {
				row[j] -= dot * prev[j]
			}
		}
		norm := 0.0
		for _, v := range row {
			norm += v * v
		}
		norm = math.Sqrt(norm)
		for j := range row {
			row[j] /= norm
		}
	}
	// Scaled by √(d/k) the squared distances are kept on average.
	P.Scale(math.Sqrt(float64(d)/float64(k)), P)
	m.P, m.Fitted = P, true
	// The distortion on up to 2000 random pairs of training rows, each row
	// projected when drawn (not all rows: they may be as large as the data).
	var ya, yb mat.VecDense
	worst, sum, pairs := 0.0, 0.0, 0
	for range min(2000, n*(n-1)/2) {
		a, b := r.IntN(n), r.IntN(n)
		if a == b {
			continue
		}
		xa, xb := t.X.RawRowView(a)[:d], t.X.RawRowView(b)[:d]
		orig := kernel.SqDist(xa, xb)
		if orig == 0 {
			continue
		}
		ya.MulVec(P, mat.NewVecDense(d, xa))
		yb.MulVec(P, mat.NewVecDense(d, xb))
		ratio := kernel.SqDist(ya.RawVector().Data, yb.RawVector().Data) / orig
		worst = max(worst, math.Abs(ratio-1))
		sum += math.Abs(ratio - 1)
		pairs++
	}
	loss := 0.0
	if pairs > 0 {
		loss = sum / float64(pairs)
	}
	m.worst = worst
	if err := rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: loss,
		Detail: Reduction{Components: k, WorstDistortion: worst}}); err != nil {
		return err
	}
	return ctx.Err()
}

// Warnings implements engine.Warner.
func (m *RandomProjection) Warnings() []string { return m.warnings }

// Measures implements engine.Measurer: the worst distortion of a squared
// distance over the sampled pairs.
func (m *RandomProjection) Measures() map[string]float64 {
	if !m.Fitted {
		return nil
	}
	return map[string]float64{"distortion": m.worst}
}

// Transform implements engine.Transformer.
func (m *RandomProjection) Transform(X mat.Matrix) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	n, d := X.Dims()
	if _, pd := m.P.Dims(); pd != d {
		return nil, fmt.Errorf("random projection: got %d features, fitted on %d", d, pd)
	}
	k, _ := m.P.Dims()
	out := mat.NewDense(n, k, nil)
	out.Mul(X, m.P.T())
	return out, nil
}

// pcaMemory: the d x d covariance and its eigendecomposition, and the
// rows projected onto the components kept (all of them, at most).
func pcaMemory(s engine.Shape, v engine.Values) engine.Need {
	k := v.Int("k")
	if k <= 0 || k > s.Cols {
		k = s.Cols
	}
	return engine.Matrix(s.Rows, k, "projection of the rows").
		Plus(engine.Matrix(s.Cols, s.Cols, "covariance").Times(3))
}

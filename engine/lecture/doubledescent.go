package lecture

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/engine"
)

// Double descent in least squares on random features, as Shewchuk's
// lecture 19 names it ("even in linear regression where we add random
// features") after Nakkiran et al. and Belkin et al.: n noisy points of a
// linear truth in d dimensions, p random ReLU (or cosine) features of
// them, and the least-squares fit of least norm. As p grows to n the
// training error falls to 0 and the test error rises to a peak at p = n,
// the interpolation threshold, where a single solution must pass through
// every noisy label; beyond it, among the many interpolants the one of
// least norm generalises better and better: the second descent. A ridge
// penalty flattens the peak.

// DDResult is the test and training error at every number of features.
type DDResult struct {
	Truth      string  `json:"truth"`      // the truth and the inputs' law
	Activation string  `json:"activation"` // relu or cos
	Features   string  `json:"features"`   // the feature map, written out
	Points     int     `json:"points"`     // n training points
	Dim        int     `json:"dim"`        // d of x
	Noise      float64 `json:"noise"`      // σ of the label noise
	Ridge      float64 `json:"ridge"`      // λ (0: the least-norm fit)
	Trials     int     `json:"trials"`
	TestPoints int     `json:"test_points"`
	Threshold  int     `json:"threshold"` // the interpolation threshold p = n
	Rows       []DDRow `json:"rows"`      // one per p, ascending
}

// DDRow is the errors with p features, over the trials.
type DDRow struct {
	Features   int     `json:"features"`    // p
	TrainError float64 `json:"train_error"` // mean training MSE
	// TestError is the mean test MSE against fresh noisy labels (so σ² is
	// its floor), TestErrorSE its standard error over the trials and
	// TestErrorMedian the trials' median (the mean near p = n is ruled by
	// the worst trials).
	TestError       float64 `json:"test_error"`
	TestErrorSE     float64 `json:"test_error_se"`
	TestErrorMedian float64 `json:"test_error_median"`
	// WeightNorm is the mean norm ‖w‖ of the fitted weights: it peaks at
	// the threshold with the test error.
	WeightNorm float64 `json:"weight_norm"`
}

const (
	ddTestPoints = 500
	// ddMaxCells bounds the feature values kept (trials × (n + test
	// points) × largest p): 30 million, 240 MB.
	ddMaxCells = 30_000_000
)

var ddFeatures = ListKnob("features", "1..50,55,60,70,80,90,100,120,140,160", "numbers of random features p to fit (the complexity axis)", 1, 4000, true, false)

func init() {
	Register(Experiment{
		Name:    "double-descent",
		Title:   "double descent with random features",
		Summary: "least squares on p random features of n noisy points, fitted with the least-norm weights: the test error rises to a peak at the interpolation threshold p = n and falls again beyond it",
		Source:  "Shewchuk, Concise Machine Learning, lecture 19 (double descent); Nakkiran et al., Deep Double Descent; Belkin et al., Reconciling modern machine learning practice and the bias-variance trade-off",
		Knobs: []engine.Param{
			ddFeatures,
			{Name: "points", Kind: engine.Int, Default: 40, Min: 2, Max: 1000, Help: "training points n: the interpolation threshold is p = n"},
			{Name: "dim", Kind: engine.Int, Default: 10, Min: 1, Max: 200, Help: "dimension d of the inputs x ~ N(0, I)"},
			{Name: "activation", Kind: engine.Choice, Default: "relu", Choices: []string{"relu", "cos"},
				Help:   "the random features: relu max(0, wᵀx) or cos √2·cos(wᵀx + b)",
				Detail: "w ~ N(0, I/d), b ~ U[0, 2π); the features are scaled by 1/√p, which changes nothing without ridge and keeps λ's meaning as p grows"},
			{Name: "noise", Kind: engine.Float, Default: 0.3, Min: 0, Max: 5, Help: "σ of the label noise (the peak grows with it)"},
			{Name: "trials", Kind: engine.Int, Default: 20, Min: 2, Max: 1000, Help: "trials: fresh data and features, averaged"},
			{Name: "ridge", Kind: engine.Float, Default: 0.0, Min: 0, Max: 1000, Help: "ridge penalty λ on ‖w‖² (0: the least-norm fit; above 0 flattens the peak)"},
			SeedKnob(),
		},
		Run:    runDoubleDescent,
		Decode: DecodeAs[DDResult],
	})
}

// ddTrial is one trial's data: the features of the training and test
// points up to the largest p (the first p columns are the model with p
// features, so a trial's models are nested).
type ddTrial struct {
	train, test *mat.Dense
	y, yTest    []float64
}

func ddDraw(r *rand.Rand, n, d, pmax int, sigma float64, relu bool) ddTrial {
	beta := 1 / math.Sqrt(float64(d))
	w := make([]float64, d*pmax)
	for i := range w {
		w[i] = r.NormFloat64() / math.Sqrt(float64(d))
	}
	b := make([]float64, pmax)
	for j := range b {
		b[j] = 2 * math.Pi * r.Float64()
	}
	points := func(m int) (*mat.Dense, []float64) {
		phi, y := mat.NewDense(m, pmax, nil), make([]float64, m)
		x := make([]float64, d)
		for i := range m {
			var g float64
			for k := range x {
				x[k] = r.NormFloat64()
				g += beta * x[k]
			}
			y[i] = g + sigma*r.NormFloat64()
			row := phi.RawRowView(i)
			for j := range pmax {
				var z float64
				for k, xk := range x {
					z += w[j*d+k] * xk
				}
				if relu {
					row[j] = math.Max(0, z)
				} else {
					row[j] = math.Sqrt2 * math.Cos(z+b[j])
				}
			}
		}
		return phi, y
	}
	var t ddTrial
	t.train, t.y = points(n)
	t.test, t.yTest = points(ddTestPoints)
	return t
}

func runDoubleDescent(ctx context.Context, in In, show func(Frame)) (any, error) {
	v := in.Values
	ps := slices.Compact(slices.Sorted(slices.Values(Ints(v, ddFeatures))))
	n, d, trials := v.Int("points"), v.Int("dim"), v.Int("trials")
	sigma, lambda := v.Float("noise"), v.Float("ridge")
	relu := v.String("activation") == "relu"
	pmax := ps[len(ps)-1]
	if cells := trials * (n + ddTestPoints) * pmax; cells > ddMaxCells {
		return nil, engine.Limitf("%d trials × (%d points + %d test points) × %d features is %.3g feature values, above %.3g: lower trials, points or the largest p",
			trials, n, ddTestPoints, pmax, float64(cells), float64(ddMaxCells))
	}
	res := DDResult{
		Truth: "y = βᵀx + ε, β = (1, …, 1)/√d, x ~ N(0, I)", Activation: v.String("activation"),
		Points: n, Dim: d, Noise: sigma, Ridge: lambda, Trials: trials, TestPoints: ddTestPoints, Threshold: n,
	}
	res.Features = "max(0, wᵀx)/√p, w ~ N(0, I/d)"
	if !relu {
		res.Features = "√2·cos(wᵀx + b)/√p, w ~ N(0, I/d), b ~ U[0, 2π)"
	}
	r := rand.New(rand.NewPCG(uint64(v.Int("seed")), 0xdd))
	data := make([]ddTrial, trials)
	for i := range data {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		data[i] = ddDraw(r, n, d, pmax, sigma, relu)
	}
	for k, p := range ps {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		row, err := ddFit(ctx, data, p, lambda)
		if err != nil {
			return res, err
		}
		next := res
		next.Rows = append(slices.Clone(res.Rows), row)
		res = next
		show(Frame{Result: res, Done: k + 1, Total: len(ps)})
	}
	return res, nil
}

// ddFit fits p features in every trial. The features are scaled by 1/√p:
// fitting the unscaled columns with penalty λp gives the same predictions,
// with weights 1/√p of the scaled ones.
func ddFit(ctx context.Context, data []ddTrial, p int, lambda float64) (DDRow, error) {
	row := DDRow{Features: p}
	tests := make([]float64, len(data))
	for i, t := range data {
		if err := ctx.Err(); err != nil {
			return row, err
		}
		n, _ := t.train.Dims()
		a := t.train.Slice(0, n, 0, p).(*mat.Dense)
		w, err := bvSolve(a, t.y, lambda*float64(p))
		if err != nil {
			return row, err
		}
		row.TrainError += ddMSE(a, w, t.y) / float64(len(data))
		m, _ := t.test.Dims()
		tests[i] = ddMSE(t.test.Slice(0, m, 0, p).(*mat.Dense), w, t.yTest)
		row.WeightNorm += math.Sqrt(float64(p)) * math.Sqrt(bvDot(w, w)) / float64(len(data))
	}
	row.TestError, row.TestErrorSE = bvMeanSE(tests)
	sorted := slices.Sorted(slices.Values(tests))
	row.TestErrorMedian = (sorted[(len(sorted)-1)/2] + sorted[len(sorted)/2]) / 2
	for _, x := range []float64{row.TrainError, row.TestError, row.TestErrorSE, row.WeightNorm} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return row, engine.Limitf("the fit with %d features overflows: raise ridge", p)
		}
	}
	return row, nil
}

// ddMSE is the mean of (a·w − y)².
func ddMSE(a *mat.Dense, w, y []float64) float64 {
	var pred mat.VecDense
	pred.MulVec(a, mat.NewVecDense(len(w), w))
	var s float64
	for i, yi := range y {
		e := pred.AtVec(i) - yi
		s += e * e
	}
	return s / float64(len(y))
}

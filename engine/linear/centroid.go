package linear

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Centroid is the centroid method of Shewchuk, Concise Machine Learning, lecture 2, also called the
// nearest-mean classifier: it computes the mean μ_C of each class and assigns
// a point to the class whose mean is nearest (Euclidean distance). With two
// classes this is Shewchuk's decision function
//
//	f(x) = (μ_C − μ_X)·x − (μ_C − μ_X)·(μ_C + μ_X)/2,
//
// whose boundary bisects the segment μ_C–μ_X; with more classes it is the
// standard multiclass extension (a Voronoi diagram of the means, lecture 7).
// Shewchuk's optional refinement (moving α to minimise training mistakes) is not
// done. Sample weights give weighted means.
//
// It has no hyperparameters and reports one step: TrainLoss is the training
// error rate (weighted when there are weights).
type Centroid struct {
	nFeat    int
	features []string
	classes  []string
	present  []int
	mu       *mat.Dense // one row per present class
	// Linear scores s_c(x) = μ_c·x − ‖μ_c‖²/2 = −‖x−μ_c‖²/2 + ‖x‖²/2: the
	// nearest mean has the largest score.
	half []float64 // ‖μ_c‖²/2
	engine.FitState
}

const centName = "centroid method"

func init() {
	engine.Register(engine.Spec{
		Weighted: true,
		Name:     "centroid",
		Title:    "centroid method (nearest mean)",
		Family:   "linear models",
		Summary:  "assign each point to the class whose mean is nearest",
		Notes:    "Shewchuk, Concise Machine Learning, lecture 2 (the centroid method)",
		Tasks:    []engine.Task{datasets.Classification},
		Unit:     "fit",
		New:      func(engine.Values) (engine.Model, error) { return &Centroid{}, nil },
	})
}

// Fit implements engine.Model.
func (m *Centroid) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	present, err := presentClasses(d, centName)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	n, p := d.X.Dims()
	index := make([]int, len(d.Classes)) // class code -> row of mu
	for j, c := range present {
		index[c] = j
	}
	mu := mat.NewDense(len(present), p, nil)
	wsum := make([]float64, len(present))
	for i := 0; i < n; i++ {
		w := 1.0
		if d.Weights != nil {
			if w = d.Weights[i]; w == 0 {
				continue
			}
		}
		j := index[int(d.Y[i])]
		floats.AddScaled(mu.RawRowView(j), w, d.X.RawRowView(i)[:p])
		wsum[j] += w
	}
	for j := range present {
		floats.Scale(1/wsum[j], mu.RawRowView(j))
	}
	half := centroidHalves(mu)
	m.nFeat, m.features, m.classes, m.present = p, d.Features, d.Classes, present
	m.mu, m.half = mu, half
	m.Fitted = true

	// Training error rate for the one step.
	pred, err := m.Predict(d.X)
	if err != nil {
		return err
	}
	wrong, total := 0.0, 0.0
	for i, v := range pred {
		w := 1.0
		if d.Weights != nil {
			w = d.Weights[i]
		}
		total += w
		if v != d.Y[i] {
			wrong += w
		}
	}
	if err := rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: wrong / total}); err != nil {
		return err
	}
	// A recorder may cancel without returning the error itself.
	if err := ctx.Err(); err != nil {
		return err
	}
	return nil
}

// linearScores returns s_c(x) = μ_c·x − ‖μ_c‖²/2 (n × present classes).
func (m *Centroid) linearScores(X mat.Matrix) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	D, err := predictInput(X, m.nFeat, m.features, centName)
	if err != nil {
		return nil, err
	}
	n, _ := D.Dims()
	if n == 0 {
		return nil, nil
	}
	S := mat.NewDense(n, len(m.present), nil)
	S.Mul(D, m.mu.T())
	for i := 0; i < n; i++ {
		floats.Sub(S.RawRowView(i), m.half)
	}
	return S, nil
}

// Predict implements engine.Model: the class of the nearest mean (the first
// class on an exact tie).
func (m *Centroid) Predict(X mat.Matrix) ([]float64, error) {
	S, err := m.linearScores(X)
	if err != nil {
		return nil, err
	}
	if S == nil {
		return []float64{}, nil
	}
	n, _ := S.Dims()
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(m.present[floats.MaxIdx(S.RawRowView(i))])
	}
	return out, nil
}

// DecisionFunction implements engine.Scorer (n × classes). With two classes
// the columns are −f(x) and f(x), Shewchuk's decision function; with more, the
// column of class c is −‖x − μ_c‖²/2. Classes absent from training score
// -math.MaxFloat64.
func (m *Centroid) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	S, err := m.linearScores(X)
	if err != nil {
		return nil, err
	}
	if S == nil {
		return &mat.Dense{}, nil
	}
	n, _ := S.Dims()
	D := datasets.DenseOf(X)
	out := mat.NewDense(n, len(m.classes), nil)
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		for c := range row {
			row[c] = -math.MaxFloat64
		}
		s := S.RawRowView(i)
		if len(m.present) == 2 {
			f := s[1] - s[0] // = (μ1−μ0)·x − (μ1−μ0)·(μ1+μ0)/2
			row[m.present[0]], row[m.present[1]] = -f, f
			continue
		}
		x := D.RawRowView(i)
		xx := floats.Dot(x, x) / 2
		for j, c := range m.present {
			row[c] = s[j] - xx
		}
	}
	return out, nil
}

// Coefficients implements engine.Coefficienter. Two classes: one row,
// Shewchuk's f: weights μ1 − μ0 and intercept −(μ1−μ0)·(μ1+μ0)/2. More classes:
// one row per class, weights μ_c and intercept −‖μ_c‖²/2 (the linear part of
// −‖x−μ_c‖²/2; the dropped −‖x‖²/2 is the same for every class).
func (m *Centroid) Coefficients() engine.Coefficients {
	if !m.Fitted {
		return engine.Coefficients{}
	}
	if len(m.present) == 2 {
		w := make([]float64, m.nFeat)
		floats.SubTo(w, m.mu.RawRowView(1), m.mu.RawRowView(0))
		W := mat.NewDense(1, m.nFeat, w)
		return linearCoefficients(m.features, m.classes, m.present, W, []float64{m.half[0] - m.half[1]})
	}
	b := make([]float64, len(m.half))
	floats.ScaleTo(b, -1, m.half)
	return linearCoefficients(m.features, m.classes, m.present, m.mu, b)
}

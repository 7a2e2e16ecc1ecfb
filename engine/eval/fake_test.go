package eval

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// Fake models registered for eval's own tests, so that eval is tested without
// any model family. "evalfake" is an iterative nearest-centroid classifier
// (centroids walk from the origin to the class means over its steps) and an
// iterative least-squares regressor; "evalscorer" is the same classifier
// without probabilities; "evalcluster" splits rows on the sign of the first
// feature.

func init() {
	params := []engine.Param{
		{Name: "steps", Kind: engine.Int, Default: 5, Min: 1, Max: 100000, Help: "steps"},
		{Name: "diverge_at", Kind: engine.Int, Default: 0, Min: 0, Max: 100000, Help: "step whose loss is +Inf (0: never)"},
		{Name: "lr", Kind: engine.Float, Default: 1.0, Min: 0, Max: math.NaN(), Help: "learning rate"},
		{Name: "panic", Kind: engine.Bool, Default: false, Help: "panic in Fit"},
		{Name: "late", Kind: engine.Bool, Default: false, Help: "predictable only once Fit returns, like a one-step model"},
		{Name: "layers", Kind: engine.Ints, Default: []int{4, 2}, Min: 1, Max: 64, Help: "unused: a list parameter for the JSON tests"},
		{Name: "keep", Kind: engine.Bool, Default: false, Help: "keep the state of the last step when cancelled (a model stopped early)"},
	}
	newFake := func(v engine.Values) *fakeModel {
		return &fakeModel{steps: v.Int("steps"), divergeAt: v.Int("diverge_at"), panics: v.Bool("panic"), late: v.Bool("late"),
			keep: v.Bool("keep")}
	}
	engine.Register(engine.Spec{
		Name: "evalfake", Title: "fake", Family: "test", Unit: "epoch",
		Tasks:  []engine.Task{datasets.Classification, datasets.Regression},
		Params: params,
		New:    func(v engine.Values) (engine.Model, error) { return newFake(v), nil },
	})
	engine.Register(engine.Spec{
		Name: "evalscorer", Title: "fake scorer", Family: "test", Unit: "step",
		Tasks:  []engine.Task{datasets.Classification},
		Params: params,
		New:    func(v engine.Values) (engine.Model, error) { return &scorerModel{newFake(v)}, nil },
	})
	engine.Register(engine.Spec{
		Name: "evalstaged", Title: "fake staged", Family: "test", Unit: "member",
		Tasks:  []engine.Task{datasets.Classification, datasets.Regression},
		Params: params,
		New:    func(v engine.Values) (engine.Model, error) { return &stagedModel{fakeModel: newFake(v)}, nil },
	})
	engine.Register(engine.Spec{
		Name: "evalcluster", Title: "fake clustering", Family: "test",
		Tasks: []engine.Task{datasets.Clustering},
		New:   func(engine.Values) (engine.Model, error) { return &clusterModel{}, nil },
	})
}

type fakeModel struct {
	steps, divergeAt int
	panics, late     bool
	keep             bool

	classes  int
	centres  *mat.Dense // classification: class x feature
	coef     []float64  // regression: intercept then weights
	fitted   bool
	calls    int // Recorder.Step calls
	trainX   *mat.Dense
	frac     float64 // how far the fit has gone
	cancelAt int     // step at which the context was seen cancelled (test bookkeeping)
}

func (m *fakeModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	if m.panics {
		var p []int
		_ = p[3]
	}
	n, p := d.X.Dims()
	for i := range n {
		for _, v := range d.X.RawRowView(i) {
			if math.IsNaN(v) {
				return errors.New("fake: NaN in X")
			}
		}
	}
	m.trainX = d.X
	m.fitted = false
	var target *mat.Dense
	var coef []float64
	if d.Classes != nil {
		m.classes = len(d.Classes)
		target = mat.NewDense(m.classes, p, nil)
		count := make([]float64, m.classes)
		for i, y := range d.Y {
			c := int(y)
			count[c]++
			row := target.RawRowView(c)
			for j, v := range d.X.RawRowView(i) {
				row[j] += v
			}
		}
		for c := range count {
			if count[c] > 0 {
				row := target.RawRowView(c)
				for j := range row {
					row[j] /= count[c]
				}
			}
		}
		m.centres = mat.NewDense(m.classes, p, nil)
	} else {
		A := mat.NewDense(n, p+1, nil)
		for i := range n {
			A.Set(i, 0, 1)
			for j := range p {
				A.Set(i, j+1, d.X.At(i, j))
			}
		}
		var w mat.VecDense
		if err := w.SolveVec(A, mat.NewVecDense(n, append([]float64(nil), d.Y...))); err != nil {
			return err
		}
		coef = make([]float64, p+1)
		for j := range coef {
			coef[j] = w.AtVec(j)
		}
		m.coef = make([]float64, p+1)
	}
	m.fitted = !m.late // Predict works mid-fit, on the partial model
	for t := 1; t <= m.steps; t++ {
		m.frac = float64(t) / float64(m.steps)
		if target != nil {
			m.centres.Scale(m.frac, target)
		} else {
			for j := range coef {
				m.coef[j] = m.frac * coef[j]
			}
		}
		loss := 1 - m.frac + 0.01
		if t == m.divergeAt {
			loss = math.Inf(1)
		}
		m.calls++
		if ctx.Err() != nil && m.cancelAt == 0 {
			m.cancelAt = m.calls
		}
		if err := rec.Step(engine.Step{Step: t, Total: m.steps, TrainLoss: loss, Detail: engine.Figures{{Name: "frac", Value: m.frac}}}); err != nil {
			m.fitted = m.fitted && m.keep && ctx.Err() != nil
			return err
		}
	}
	m.fitted = true
	return nil
}

func (m *fakeModel) Predict(X mat.Matrix) ([]float64, error) {
	if !m.fitted {
		return nil, engine.ErrNotFitted
	}
	n, p := X.Dims()
	out := make([]float64, n)
	if m.centres == nil {
		for i := range n {
			v := m.coef[0]
			for j := range p {
				v += m.coef[j+1] * X.At(i, j)
			}
			out[i] = v
		}
		return out, nil
	}
	S, _ := m.DecisionFunction(X)
	for i := range n {
		best := 0
		for c := 1; c < m.classes; c++ {
			if S.At(i, c) > S.At(i, best) {
				best = c
			}
		}
		out[i] = float64(best)
	}
	return out, nil
}

// DecisionFunction is minus the squared distance to each centre.
func (m *fakeModel) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	if !m.fitted {
		return nil, engine.ErrNotFitted
	}
	n, p := X.Dims()
	S := mat.NewDense(n, m.classes, nil)
	for i := range n {
		for c := range m.classes {
			var s float64
			for j := range p {
				e := X.At(i, j) - m.centres.At(c, j)
				s += e * e
			}
			S.Set(i, c, -s)
		}
	}
	return S, nil
}

// PredictProba is the softmax of the decision function.
func (m *fakeModel) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	S, err := m.DecisionFunction(X)
	if err != nil {
		return nil, err
	}
	n, k := S.Dims()
	for i := range n {
		row := S.RawRowView(i)
		hi := row[0]
		for _, v := range row {
			hi = max(hi, v)
		}
		var z float64
		for c := range k {
			row[c] = math.Exp(row[c] - hi)
			z += row[c]
		}
		for c := range k {
			row[c] /= z
		}
	}
	return S, nil
}

func (m *fakeModel) Coefficients() engine.Coefficients {
	return engine.Coefficients{Weights: mat.DenseCopyOf(m.centres)}
}

// scorerModel has decision scores but no probabilities.
type scorerModel struct{ m *fakeModel }

func (s *scorerModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	return s.m.Fit(ctx, d, rec)
}
func (s *scorerModel) Predict(X mat.Matrix) ([]float64, error) { return s.m.Predict(X) }
func (s *scorerModel) DecisionFunction(X mat.Matrix) (*mat.Dense, error) {
	return s.m.DecisionFunction(X)
}

// stagedModel is the fake as a Staged model: its scorer predicts through
// the fake, and counts its calls, as do Predict and PredictProba.
type stagedModel struct {
	*fakeModel
	scores, predicts int
}

func (s *stagedModel) Stages(X mat.Matrix) (engine.StageScorer, error) {
	return stageScorer{s, X}, nil
}

func (s *stagedModel) Predict(X mat.Matrix) ([]float64, error) {
	s.predicts++
	return s.fakeModel.Predict(X)
}

func (s *stagedModel) PredictProba(X mat.Matrix) (*mat.Dense, error) {
	s.predicts++
	return s.fakeModel.PredictProba(X)
}

type stageScorer struct {
	s *stagedModel
	X mat.Matrix
}

func (st stageScorer) Scores() ([]float64, *mat.Dense, error) {
	st.s.scores++
	pred, err := st.s.fakeModel.Predict(st.X)
	if err != nil || st.s.classes == 0 {
		return pred, nil, err
	}
	P, err := st.s.fakeModel.PredictProba(st.X)
	return pred, P, err
}

type clusterModel struct{ fitted bool }

func (c *clusterModel) Fit(ctx context.Context, d engine.Train, rec engine.Recorder) error {
	if d.Y != nil {
		return errors.New("clustering got a target")
	}
	c.fitted = true
	return rec.Step(engine.Step{Step: 1, Total: 1, TrainLoss: 0})
}

func (c *clusterModel) Predict(X mat.Matrix) ([]float64, error) {
	if !c.fitted {
		return nil, engine.ErrNotFitted
	}
	n, _ := X.Dims()
	out := make([]float64, n)
	for i := range n {
		if X.At(i, 0) > 0 {
			out[i] = 1
		}
	}
	return out, nil
}

// blobs makes a classification dataset: k Gaussian blobs in 2-D with unit
// spread, centres 4 apart, plus a constant column and one missing value.
func blobs(n, k int, seed uint64) *datasets.Dataset {
	r := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	classes := make([]string, k)
	for c := range classes {
		classes[c] = string(rune('a' + c))
	}
	for i := range n {
		c := i % k
		y[i] = float64(c)
		X.Set(i, 0, 4*math.Cos(2*math.Pi*float64(c)/float64(k))+r.NormFloat64())
		X.Set(i, 1, 4*math.Sin(2*math.Pi*float64(c)/float64(k))+r.NormFloat64())
		X.Set(i, 2, 7)
	}
	X.Set(3, 1, math.NaN())
	return &datasets.Dataset{
		Name: "blobs", X: X, Y: y, Classes: classes, Task: datasets.Classification,
		Features: []datasets.Column{{Name: "x"}, {Name: "y", Missing: 1}, {Name: "const"}},
	}
}

// linear makes a regression dataset y = 3 + 2 x0 - x1 + noise.
func linear(n int, seed uint64) *datasets.Dataset {
	r := rand.New(rand.NewPCG(seed, 2))
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		a, b := r.NormFloat64()*2, r.NormFloat64()*2
		X.Set(i, 0, a)
		X.Set(i, 1, b)
		y[i] = 3 + 2*a - b + 0.5*r.NormFloat64()
	}
	return &datasets.Dataset{Name: "linear", X: X, Y: y, Task: datasets.Regression,
		Features: []datasets.Column{{Name: "a"}, {Name: "b"}}}
}

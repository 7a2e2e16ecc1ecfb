package linear

// Small helpers shared by every model of the package: input validation with
// errors that name the culprit, and conversions. Rows in messages are 1-based.

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// checkFinite is engine.CheckFinite.
func checkFinite(X *mat.Dense, features []string) error { return engine.CheckFinite(X, features) }

// presentClasses validates a classifier's training data (engine.CheckTrain) and
// returns its classes present (engine.PresentClasses).
func presentClasses(d engine.Train, model string) ([]int, error) {
	if err := engine.CheckTrain(d, model, true); err != nil {
		return nil, err
	}
	return engine.PresentClasses(d, model)
}

// predictInput validates X for a model fitted on p features and returns it as
// a *mat.Dense (not copied when it already is one).
func predictInput(X mat.Matrix, p int, features []string, model string) (*mat.Dense, error) {
	if X == nil {
		return nil, fmt.Errorf("%s: no data to predict", model)
	}
	r, c := X.Dims()
	if c != p {
		return nil, fmt.Errorf("%s: the data has %d features; the model was fitted on %d", model, c, p)
	}
	if r == 0 {
		return &mat.Dense{}, nil
	}
	D := datasets.DenseOf(X)
	if err := checkFinite(D, features); err != nil {
		return nil, fmt.Errorf("%s: %w", model, err)
	}
	return D, nil
}

// finiteSlice reports whether every value is finite.
func finiteSlice(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// linearClassifier is the fitted state of a linear classifier (Logistic,
// Perceptron) scoring X Wᵀ + b: with two classes one row of W, the positive
// class present[1]; with more, one row per present class.
type linearClassifier struct {
	nFeat    int
	features []string
	classes  []string
	present  []int      // class codes seen in training, increasing
	w        *mat.Dense // one row per output
	b        []float64
	engine.FitState
	lift *lifted // nil: none; nFeat and features are then the lifted columns
}

// scores returns X Wᵀ + b (n × outputs), or nil when X has no rows; model
// names the model in errors.
func (m *linearClassifier) scores(model string, X mat.Matrix) (*mat.Dense, error) {
	if !m.Fitted {
		return nil, engine.ErrNotFitted
	}
	D, err := m.lift.input(X, m.nFeat, m.features, model)
	if err != nil {
		return nil, err
	}
	n, _ := D.Dims()
	if n == 0 {
		return nil, nil
	}
	Z := mat.NewDense(n, len(m.b), nil)
	Z.Mul(D, m.w.T())
	for i := 0; i < n; i++ {
		floats.Add(Z.RawRowView(i), m.b)
	}
	return Z, nil
}

// predict returns the class codes of the highest scores.
func (m *linearClassifier) predict(model string, X mat.Matrix) ([]float64, error) {
	Z, err := m.scores(model, X)
	if err != nil {
		return nil, err
	}
	if Z == nil {
		return []float64{}, nil
	}
	n, _ := Z.Dims()
	out := make([]float64, n)
	for i := range out {
		row := Z.RawRowView(i)
		if len(row) == 1 {
			// Boundary points go to the negative class, like scikit-learn.
			if row[0] > 0 {
				out[i] = float64(m.present[1])
			} else {
				out[i] = float64(m.present[0])
			}
			continue
		}
		out[i] = float64(m.present[floats.MaxIdx(row)])
	}
	return out, nil
}

// decisionFunction returns the scores of every class (see spreadScores).
func (m *linearClassifier) decisionFunction(model string, X mat.Matrix) (*mat.Dense, error) {
	Z, err := m.scores(model, X)
	if err != nil {
		return nil, err
	}
	if Z == nil {
		return &mat.Dense{}, nil
	}
	return spreadScores(Z, m.present, len(m.classes)), nil
}

func (m *linearClassifier) coefficients() engine.Coefficients {
	if !m.Fitted {
		return engine.Coefficients{}
	}
	return linearCoefficients(m.features, m.classes, m.present, m.w, m.b)
}

// spreadScores places per-perceptron scores Z (one column, or one per present
// class) into an n × k matrix indexed by class code.
func spreadScores(Z *mat.Dense, present []int, k int) *mat.Dense {
	n, cols := Z.Dims()
	out := mat.NewDense(n, k, nil)
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		for c := range row {
			row[c] = -math.MaxFloat64
		}
		z := Z.RawRowView(i)
		if cols == 1 {
			row[present[0]] = -z[0]
			row[present[1]] = z[0]
			continue
		}
		for j, c := range present {
			row[c] = z[j]
		}
	}
	return out
}

// linearCoefficients builds engine.Coefficients for per-class (or, with one
// row, positive-class) weights.
func linearCoefficients(features, classes []string, present []int, W *mat.Dense, b []float64) engine.Coefficients {
	r, _ := W.Dims()
	outs := make([]string, r)
	for j := range outs {
		c := present[j]
		if r == 1 {
			c = present[1]
		}
		outs[j] = classes[c]
	}
	return engine.Coefficients{
		Features:  append([]string(nil), features...),
		Outputs:   outs,
		Weights:   mat.DenseCopyOf(W),
		Intercept: append([]float64(nil), b...),
	}
}

// gramMemory is the need of a least-squares model that solves from the
// Gram matrix of its features (and a copy being factorised).
func gramMemory(s engine.Shape, _ engine.Values) engine.Need {
	return engine.Matrix(s.Cols+1, s.Cols+1, "Gram matrix").Times(2)
}

// logisticMemory: Newton's method solves with the Hessian of every
// weight at once, (features+1) x classes unknowns square; the other
// solvers keep a few copies of the weights.
func logisticMemory(s engine.Shape, v engine.Values) engine.Need {
	u := s.Cols + 1
	if k := s.Classes; k > 2 && v.String("multi") != "ovr" {
		u *= k
	}
	if v.String("solver") != "newton" {
		return engine.Matrix(u, 24, "set of weight vectors") // 10 correction pairs, gradients
	}
	return engine.Matrix(u, u, "Newton Hessian").Times(2)
}

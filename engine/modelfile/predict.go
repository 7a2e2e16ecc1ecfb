package modelfile

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"gonum.org/v1/gonum/mat"
)

// ErrNoProba is wrapped by Predict's error when probabilities are asked of
// a model that gives none (a regressor, a clustering, an SVM...).
var ErrNoProba = errors.New("gives no probabilities")

// Prediction is what a model file says of new rows.
type Prediction struct {
	Task     string
	RowNames []string // the rows' names in the data, nil when none
	// Labels: classification, the predicted class of each row.
	Labels []string
	// Values: regression, the predicted value; clustering, the cluster
	// index (from 0).
	Values []float64
	// Classes names Proba's columns (classification).
	Classes []string
	// Proba: the class probabilities of each row, when asked for.
	Proba *mat.Dense
	// Names and Components: reduction, each row's coordinates.
	Names      []string
	Components *mat.Dense
}

// Rows is the number of rows predicted.
func (p *Prediction) Rows() int {
	switch {
	case p.Labels != nil:
		return len(p.Labels)
	case p.Values != nil:
		return len(p.Values)
	case p.Components != nil:
		r, _ := p.Components.Dims()
		return r
	}
	return 0
}

// Predict applies the model to the rows of t. Columns are matched by name,
// in any order; columns the model does not use are ignored. A missing
// column, a column of the wrong kind or a nominal level the model never saw
// is an error naming it. proba asks a classifier for its probabilities too.
func (m *Model) Predict(t *datasets.Table, proba bool) (*Prediction, error) {
	X, err := m.inputs(t)
	if err != nil {
		return nil, err
	}
	Z, err := m.Prep.Apply(X)
	if err != nil {
		return nil, err
	}
	out := &Prediction{Task: m.File.Task, RowNames: t.RowNames}
	if m.File.Task == datasets.Reduction.String() {
		if proba {
			return nil, fmt.Errorf("model %s is a reduction: it %w", m.Spec.Name, ErrNoProba)
		}
		if err := m.project(Z, out); err != nil {
			return nil, err
		}
		return out, m.finite("component", out.Components)
	}
	assign, _ := assigner(m.Fitted) // Load refused a model with neither
	pred, err := assign(Z)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", m.Spec.Name, err)
	}
	if err := m.finite("prediction", column(pred)); err != nil {
		return nil, err
	}
	if m.File.Task != datasets.Classification.String() {
		if proba {
			return nil, fmt.Errorf("model %s does %s: it %w", m.Spec.Name, m.File.Task, ErrNoProba)
		}
		out.Values = pred
		return out, nil
	}
	if out.Labels, err = m.labels(pred); err != nil {
		return nil, err
	}
	if err := m.finiteScores(Z, proba); err != nil {
		return nil, err
	}
	if proba {
		if err := m.probabilities(Z, out); err != nil {
			return nil, err
		}
		return out, m.finite("probability", out.Proba)
	}
	return out, nil
}

// finite refuses a prediction that is NaN or infinite: a state whose
// finite values overflow when used (a scale of 5e-324, a support vector of
// 1e308: an edited file, since the checksum is no signature) must not give
// a row a number with exit status 0.
func (m *Model) finite(what string, M rowViewer) error {
	rows, _ := M.Dims()
	for i := range rows {
		for _, v := range M.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("model %s gives %s %v for row %d: its state does not compute (a file edited and re-signed?); save the model again from a fit",
					m.Spec.Name, what, v, i+1)
			}
		}
	}
	return nil
}

// finiteScores checks a classifier's scores (its decision values, else
// its probabilities unless they are asked for, and so checked anyway): a
// class chosen from NaN scores is a label like any other, so the scores
// behind it are where an overflowing state shows.
func (m *Model) finiteScores(Z *mat.Dense, proba bool) error {
	var S *mat.Dense
	var err error
	switch f := m.Fitted.(type) {
	case engine.Scorer:
		S, err = f.DecisionFunction(Z)
	case engine.Prober:
		if proba {
			return nil
		}
		S, err = f.PredictProba(Z)
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("model %s: %w", m.Spec.Name, err)
	}
	return m.finite("score", S)
}

// rowViewer is a table of figures, a row each: a *mat.Dense or a column.
type rowViewer interface {
	Dims() (r, c int)
	RawRowView(i int) []float64
}

// column is one figure a row.
type column []float64

func (c column) Dims() (int, int)           { return len(c), 1 }
func (c column) RawRowView(i int) []float64 { return c[i : i+1] }

// labels names the predicted class codes.
func (m *Model) labels(pred []float64) ([]string, error) {
	classes := m.File.Classes
	out := make([]string, len(pred))
	for i, c := range pred {
		k := int(c)
		if float64(k) != c || k < 0 || k >= len(classes) {
			return nil, fmt.Errorf("model %s predicted class %v for row %d, which the file's %d classes do not name", m.Spec.Name, c, i+1, len(classes))
		}
		out[i] = classes[k]
	}
	return out, nil
}

func (m *Model) probabilities(Z *mat.Dense, out *Prediction) error {
	pr, ok := m.Fitted.(engine.Prober)
	if !ok {
		return fmt.Errorf("model %s %w", m.Spec.Name, ErrNoProba)
	}
	P, err := pr.PredictProba(Z)
	if err != nil {
		return fmt.Errorf("model %s: %w", m.Spec.Name, err)
	}
	if _, c := P.Dims(); c != len(m.File.Classes) {
		return fmt.Errorf("model %s gave %d probabilities a row for %d classes", m.Spec.Name, c, len(m.File.Classes))
	}
	out.Classes, out.Proba = m.File.Classes, P
	return nil
}

func (m *Model) project(Z *mat.Dense, out *Prediction) error {
	C, err := m.Fitted.(engine.Transformer).Transform(Z)
	if err != nil {
		return fmt.Errorf("model %s: %w", m.Spec.Name, err)
	}
	_, k := C.Dims()
	var names []string
	if c, ok := m.Fitted.(engine.Componenter); ok && c.Components() != nil && len(c.Components().Names) == k {
		names = c.Components().Names
	} else {
		for j := range k {
			names = append(names, "dim"+strconv.Itoa(j+1))
		}
	}
	out.Names, out.Components = names, C
	return nil
}

// inputs gathers the model's features from t by name (datasets.Align),
// recoding nominal levels to the codes the model learned; a feature the
// preprocessing does not use is read as missing, whatever t holds.
func (m *Model) inputs(t *datasets.Table) (*mat.Dense, error) {
	feats := m.File.Features
	var used []datasets.Column
	var at []int
	for j, f := range feats {
		if !f.Unused {
			used = append(used, f.column())
			at = append(at, j)
		}
	}
	a, err := (&datasets.Dataset{Features: used}).Align(t)
	if err != nil {
		return nil, err
	}
	n := a.Rows()
	X := mat.NewDense(n, len(feats), nil)
	for i := range n {
		row := X.RawRowView(i)
		for j := range row {
			row[j] = math.NaN()
		}
		for k, j := range at {
			row[j] = a.X.At(i, k)
		}
	}
	return X, nil
}

// column is the feature as the training data described it.
func (f Feature) column() datasets.Column {
	if f.Kind == "nominal" {
		return datasets.Column{Name: f.Name, Kind: datasets.Nominal, Levels: f.Levels}
	}
	return datasets.Column{Name: f.Name}
}

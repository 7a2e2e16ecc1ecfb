package modelfile

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

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
		return out, m.project(Z, out)
	}
	pred, err := m.Fitted.(engine.Predictor).Predict(Z)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", m.Spec.Name, err)
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
	if proba {
		return out, m.probabilities(Z, out)
	}
	return out, nil
}

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

// inputs gathers the model's features from t by name, recoding nominal
// levels to the codes the model learned.
func (m *Model) inputs(t *datasets.Table) (*mat.Dense, error) {
	n := t.Rows()
	if n == 0 {
		return nil, fmt.Errorf("%s: no rows to predict", t.Name)
	}
	feats := m.File.Features
	X := mat.NewDense(n, len(feats), nil)
	for j, f := range feats {
		if f.Unused { // dropped by the preprocessing: read as missing, whatever it holds
			for i := range n {
				X.Set(i, j, math.NaN())
			}
			continue
		}
		src := t.ColumnIndex(f.Name)
		if src < 0 {
			return nil, fmt.Errorf("%s: no column %q, which the model needs (it needs %s)", t.Name, f.Name, featureList(feats))
		}
		recode, err := recoder(t.Name, f, t.Columns[src])
		if err != nil {
			return nil, err
		}
		for i := range n {
			v, err := recode(t.Data.At(i, src))
			if err != nil {
				return nil, fmt.Errorf("%s: column %q, row %d: %w", t.Name, f.Name, i+1, err)
			}
			X.Set(i, j, v)
		}
	}
	return X, nil
}

// recoder maps a value of the data's column c to the value the model takes
// for feature f: a number as it is; a level to its code in training.
func recoder(name string, f Feature, c datasets.Column) (func(float64) (float64, error), error) {
	if f.Kind == "numeric" {
		if c.Kind == datasets.Nominal {
			return nil, fmt.Errorf("%s: column %q holds text (levels such as %q) where the model was trained on numbers", name, f.Name, firstLevel(c.Levels))
		}
		return func(v float64) (float64, error) { return v, nil }, nil
	}
	code := make(map[string]float64, len(f.Levels))
	for k, l := range f.Levels {
		code[l] = float64(k)
	}
	lookup := func(level string) (float64, error) {
		if k, ok := code[level]; ok {
			return k, nil
		}
		return 0, fmt.Errorf("level %q was not seen in training (levels: %s)", level, strings.Join(f.Levels, ", "))
	}
	return func(v float64) (float64, error) {
		if math.IsNaN(v) {
			return v, nil // missing: the preprocessing fills it in
		}
		if c.Kind == datasets.Numeric {
			return lookup(strconv.FormatFloat(v, 'g', -1, 64))
		}
		k := int(v)
		if float64(k) != v || k < 0 || k >= len(c.Levels) {
			return 0, fmt.Errorf("level code %v has no level", v)
		}
		return lookup(c.Levels[k])
	}, nil
}

func firstLevel(levels []string) string {
	if len(levels) == 0 {
		return ""
	}
	return levels[0]
}

// featureList names the features the model uses, the first few.
func featureList(feats []Feature) string {
	var names []string
	for _, f := range feats {
		if !f.Unused {
			names = append(names, f.Name)
		}
	}
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + fmt.Sprintf(", ... %d more", len(names)-8)
	}
	return strings.Join(names, ", ")
}

package modelfile

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
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
	// Warnings says, row by row, what predicting the row had to assume
	// ("unseen level \"x\" in colour", "missing size"; "" for none); nil
	// when no row had to.
	Warnings []string
	// Missing and Unseen count the values missing and the levels the
	// model never saw; Warned the rows with either.
	Missing, Unseen, Warned int

	prepared *mat.Dense // the rows as the model took them (Score)
	codes    []float64  // classification: the predicted class codes
	own      []float64  // classification: the model's own decisions, before the costs' (Score's cost_default)
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
// in any order; columns the model does not use are ignored. A nominal
// level the model never saw, or a missing value, is taken as the model
// takes it in training (inputs says how) and said in the row's Warnings;
// a missing column, a column of the wrong kind, or a value no model can
// use is an error naming it (and the row). proba asks a classifier for
// its probabilities too.
func (m *Model) Predict(t *datasets.Table, proba bool) (*Prediction, error) {
	X, warn, c, err := m.inputs(t)
	if err != nil {
		return nil, err
	}
	Z, err := m.Prep.ApplyOwned(X)
	if err != nil {
		return nil, err
	}
	out := &Prediction{Task: m.File.Task, RowNames: t.RowNames, Warnings: warn,
		Missing: c.missing, Unseen: c.unseen, Warned: c.rows, prepared: Z}
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
	out.own = pred
	if pred, err = m.decide(out, pred); err != nil {
		return nil, err
	}
	if out.Labels, err = m.labels(pred); err != nil {
		return nil, err
	}
	out.codes = pred
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

// inputs gathers the model's features from t by name, in any order,
// recoding nominal levels to the codes the model learned; a feature the
// preprocessing does not use is read as missing, whatever t holds. A value
// the model can take is never an error: a level it never saw becomes a
// code past its levels, which it treats as a level unseen in a training
// part (one-hot encoded as all zeros, sent by a tree with the levels no
// split names, ignored by naive Bayes), and a missing value stays missing
// (imputed with the training value, or routed by a model that takes
// missing values); each is said in its row's warnings. A column t lacks
// or holds as another kind, and a value no model can use (text where the
// model learned numbers, an infinite number), are errors naming them.
func (m *Model) inputs(t *datasets.Table) (*mat.Dense, []string, counts, error) {
	var c counts
	n := t.Rows()
	if n == 0 {
		return nil, nil, c, fmt.Errorf("%s: no data rows", where(t))
	}
	feats := m.File.Features
	X := mat.NewDense(n, len(feats), nil)
	for i := range n {
		row := X.RawRowView(i)
		for j := range row {
			row[j] = math.NaN()
		}
	}
	var warn []string
	note := func(i int, msg string) {
		if warn == nil {
			warn = make([]string, n)
		}
		if warn[i] != "" {
			warn[i] += "; "
		}
		warn[i] += msg
	}
	for j, f := range feats {
		if f.Unused {
			continue
		}
		k := t.ColumnIndex(f.Name)
		if k < 0 {
			return nil, nil, c, fmt.Errorf("%s: no column %q, which the training data have (columns: %s)", where(t), f.Name, columnNames(t.Columns))
		}
		got := t.Columns[k]
		var code map[string]float64
		if f.Kind == "nominal" {
			code = make(map[string]float64, len(f.Levels))
			for l, name := range f.Levels {
				code[name] = float64(l)
			}
		}
		for i := range n {
			v := t.Data.At(i, k)
			switch {
			case math.IsNaN(v):
				c.missing++
				note(i, fmt.Sprintf("missing %s", quoted(f.Name)))
				continue
			case f.Kind == "nominal":
				name := valueName(got, v)
				l, ok := code[name]
				if !ok {
					c.unseen++
					note(i, fmt.Sprintf("unseen level %q in %s", name, quoted(f.Name)))
					l = float64(len(f.Levels))
				}
				v = l
			case got.Kind == datasets.Nominal:
				// Numbers in training, text here: the level may still be a
				// number (a column of "3" and "n/a" read as words).
				name := valueName(got, v)
				x, err := strconv.ParseFloat(strings.TrimSpace(name), 64)
				if err != nil {
					return nil, nil, c, fmt.Errorf("%s: row %d, column %q: %q is not a number, and the model learnt numbers there; fix the value, or mark it missing with ?, NA or an empty field",
						where(t), i+1, f.Name, name)
				}
				v = x
			}
			if math.IsNaN(v) { // "NaN" as a level: missing
				c.missing++
				note(i, fmt.Sprintf("missing %s", quoted(f.Name)))
				continue
			}
			if math.IsInf(v, 0) {
				return nil, nil, c, fmt.Errorf("%s: row %d, column %q: %v is not a finite number, which no model can use; replace it, or mark it missing (NaN)", where(t), i+1, f.Name, v)
			}
			X.Set(i, j, v)
		}
	}
	for _, w := range warn {
		if w != "" {
			c.rows++
		}
	}
	return X, warn, c, nil
}

// counts are what predicting had to assume: the values missing and the
// levels unseen, and the rows with either.
type counts struct{ missing, unseen, rows int }

// valueName is the text of value v of column c: its level, or the number.
func valueName(c datasets.Column, v float64) string {
	if c.Kind == datasets.Nominal && v >= 0 && int(v) < len(c.Levels) && float64(int(v)) == v {
		return c.Levels[int(v)]
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// quoted is a column's name as a message gives it: bare when it is
// plain, quoted when it is empty or holds a space, a comma, a quote or
// what Go would escape (as datasets' messages do).
func quoted(name string) string {
	if name == "" || strings.ContainsAny(name, " ,\"'") || strconv.Quote(name) != `"`+name+`"` {
		return strconv.Quote(name)
	}
	return name
}

// where names the table in an error: its file, else its name.
func where(t *datasets.Table) string {
	if t.Source != "" {
		return t.Source
	}
	return t.Name
}

// columnNames lists a table's columns, the first dozen.
func columnNames(cols []datasets.Column) string {
	names := make([]string, 0, min(len(cols), 13))
	for i, c := range cols {
		if i == 12 && len(cols) > 14 {
			names = append(names, fmt.Sprintf("... %d more", len(cols)-12))
			break
		}
		names = append(names, quoted(c.Name))
	}
	return strings.Join(names, ", ")
}

// decide makes the decisions the run that saved the model made under its
// cost matrix (eval's costs.go): two classes, the positive class when its
// score is at least the kept threshold; more classes with probabilities,
// Bayes's decision of least expected cost; else the model's own, own.
func (m *Model) decide(p *Prediction, own []float64) ([]float64, error) {
	f := m.File
	if f.Threshold == nil && (f.Costs == nil || len(f.Classes) < 3) {
		return own, nil
	}
	all := make([]int, len(own))
	for i := range all {
		all[i] = i
	}
	S, proba, err := m.scores(p, all)
	switch {
	case err != nil:
		return nil, err
	case S != nil && f.Threshold != nil:
		pos := f.positive()
		return metrics.Threshold(metrics.PositiveScores(S, pos), *f.Threshold, pos), nil
	case S != nil && proba:
		return f.Costs.BayesDecision(S), nil
	}
	return own, nil // decision values of more classes: the model's own, as in the run
}

// Decision says how Predict decides a class beyond the model's own rule,
// for a person: "" when it does not.
func (m *Model) Decision() string {
	f := m.File
	costs := "its cost matrix"
	if f.Costs != nil && f.Costs.Source != "" {
		costs = "the cost matrix of " + f.Costs.Source
	}
	score := "p(" + f.Positive + ")"
	if _, ok := m.Fitted.(engine.Prober); !ok {
		score = "its decision value"
	}
	switch {
	case f.Threshold != nil:
		return fmt.Sprintf("%s when %s ≥ %s, the threshold the run chose under %s", f.Positive, score, strconv.FormatFloat(*f.Threshold, 'g', 4, 64), costs)
	case f.Costs != nil && len(f.Classes) > 2:
		return "the class of least expected cost under " + costs
	}
	return ""
}

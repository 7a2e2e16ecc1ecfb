package modelfile

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
	"github.com/tealab/tealab/engine/metrics"
)

// ErrNoTarget is wrapped by Score's error when the rows cannot be scored:
// the model learns no target (a clustering, a reduction), or the table
// lacks the target column.
var ErrNoTarget = errors.New("no target to score against")

// Scores are a model file's predictions scored against the target column
// of the rows predicted: the metrics `tealab train` reports for held-out
// rows, computed the same way (eval's metrics), so that scoring a saved
// model on a test file gives what `tealab train --test` gave.
type Scores struct {
	Target  string // the target column
	Rows    int    // rows scored: those with a target value
	Dropped int    // rows left out of the scores: no target value
	// Metrics are the model's; Baseline the same metrics of the majority
	// class (with its training share as probabilities) or the training
	// mean, from the rows the model was fitted on; nil when the file does
	// not keep them (a version 1 file).
	Metrics   map[string]float64
	Baseline  map[string]float64
	Confusion *metrics.Confusion    // classification
	Classes   []metrics.ClassReport // classification, per class
}

// Score scores p, m's predictions for the rows of t, against t's target
// column. Rows whose target is missing are left out (counted in Dropped); a
// class the model does not know is an error naming the row, as it is for
// `tealab train --test`.
func (m *Model) Score(t *datasets.Table, p *Prediction) (*Scores, error) {
	f := m.File
	if f.Target == "" {
		return nil, fmt.Errorf("model %s does %s: it learns no target: %w", m.Spec.Name, f.Task, ErrNoTarget)
	}
	j := t.ColumnIndex(f.Target)
	if j < 0 {
		return nil, fmt.Errorf("%s has no column %q, the target of model %s: %w", where(t), f.Target, m.Spec.Name, ErrNoTarget)
	}
	if p == nil || p.prepared == nil || p.Rows() != t.Rows() {
		return nil, errors.New("score: the predictions are not this table's")
	}
	actual, keep, err := m.target(t, j)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%s: target column %q has no values to score against", where(t), f.Target)
	}
	s := &Scores{Target: f.Target, Rows: len(keep), Dropped: t.Rows() - len(keep)}
	task, err := datasets.ParseTask(f.Task)
	if err != nil {
		return nil, err
	}
	classify := task == datasets.Classification
	var pred []float64
	if classify {
		pred = gather(p.codes, keep)
	} else {
		pred = gather(p.Values, keep)
	}
	var scores *mat.Dense
	proba := false
	if classify {
		if scores, proba, err = m.scores(p, keep); err != nil {
			return nil, err
		}
	}
	s.Metrics = eval.Metrics(task, f.Classes, f.positive(), actual, pred, scores, proba)
	if classify {
		c := metrics.ConfusionMatrix(actual, pred, f.Classes)
		s.Confusion, s.Classes = &c, metrics.Report(c)
	}
	if base := f.Baseline; base != nil {
		basePred, baseProba := base.predict(len(keep), classify)
		if basePred != nil {
			b := eval.Metrics(task, f.Classes, f.positive(), actual, basePred, baseProba, true)
			for key := range b {
				if _, ok := s.Metrics[key]; !ok {
					delete(b, key)
				}
			}
			s.Baseline = b
		}
	}
	if c := f.Costs; c != nil && classify { // as eval scores a supplied test set
		s.Metrics["cost"] = c.Mean(actual, pred)
		s.Metrics["cost_default"] = c.Mean(actual, gather(p.own, keep))
		if s.Baseline != nil {
			if basePred, _ := f.Baseline.predict(len(keep), true); basePred != nil {
				base := c.Mean(actual, basePred)
				s.Baseline["cost"], s.Baseline["cost_default"] = base, base
			}
		}
	}
	return s, nil
}

// target reads t's column j as the model's target: class codes of the
// file's classes, or values; keep lists the rows that have one.
func (m *Model) target(t *datasets.Table, j int) (actual []float64, keep []int, err error) {
	f := m.File
	col := t.Columns[j]
	classify := f.Task == datasets.Classification.String()
	var code map[string]float64
	if classify {
		code = make(map[string]float64, len(f.Classes))
		for k, name := range f.Classes {
			code[name] = float64(k)
		}
	} else if col.Kind == datasets.Nominal {
		return nil, nil, fmt.Errorf("%s: target column %q is nominal here (%s...) but numeric in the training data; check that it is the same column",
			where(t), col.Name, valueName(col, 0))
	}
	for i := range t.Rows() {
		v := t.Data.At(i, j)
		if math.IsNaN(v) {
			continue
		}
		if classify {
			name := valueName(col, v)
			k, ok := code[name]
			if !ok {
				return nil, nil, fmt.Errorf("%s: target column %q has class %q (row %d), which model %s does not know (classes: %s); it cannot predict a class it never saw: remove those rows to score the others",
					where(t), col.Name, name, i+1, m.Spec.Name, listFirst(f.Classes, 12))
			}
			v = k
		} else if math.IsInf(v, 0) {
			return nil, nil, fmt.Errorf("%s: row %d, target column %q: %v is not a finite number", where(t), i+1, col.Name, v)
		}
		actual = append(actual, v)
		keep = append(keep, i)
	}
	return actual, keep, nil
}

// scores are the class probabilities (a Prober) or decision scores (a
// Scorer; with two classes one column, class 1's score minus class 0's)
// of the rows keep, as eval scores held-out rows; nil when the model gives
// neither.
func (m *Model) scores(p *Prediction, keep []int) (*mat.Dense, bool, error) {
	Z := datasets.GatherRows(p.prepared, keep)
	k := len(m.File.Classes)
	var S *mat.Dense
	var err error
	proba := false
	switch f := m.Fitted.(type) {
	case engine.Prober:
		proba = true
		if p.Proba != nil {
			S = datasets.GatherRows(p.Proba, keep)
		} else {
			S, err = f.PredictProba(Z)
		}
	case engine.Scorer:
		S, err = f.DecisionFunction(Z)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("model %s: %w", m.Spec.Name, err)
	}
	r, c := S.Dims()
	if r != len(keep) || (c != k && !(k == 2 && c == 1 && !proba)) {
		return nil, false, fmt.Errorf("model %s gave %dx%d scores for %d rows and %d classes", m.Spec.Name, r, c, len(keep), k)
	}
	if k == 2 && c == 2 && !proba {
		diff := mat.NewDense(r, 1, nil)
		for i := range r {
			diff.Set(i, 0, S.At(i, 1)-S.At(i, 0))
		}
		S = diff
	}
	return S, proba, m.finite("score", S)
}

// gather is xs at the indices idx.
func gather(xs []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for r, i := range idx {
		out[r] = xs[i]
	}
	return out
}

// listFirst lists the first most names, and how many more.
func listFirst(names []string, most int) string {
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s ... %d more", strings.Join(names[:most], ", "), len(names)-most)
}

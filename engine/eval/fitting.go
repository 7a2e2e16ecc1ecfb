package eval

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/metrics"
	"github.com/tealab/tealab/numfmt"
	"gonum.org/v1/gonum/mat"
)

// A fold's model: its rows prepared (the pipeline fitted on the training
// part alone), the model fitted through engine.Fit under the recorder, and
// its predictions and scores of other rows.

// splitInPlace reorders the rows of d the caller gave up (Options.Consume)
// so that the hold-out's training rows come first, in order, then its test
// rows, and renumbers the fold to match: its parts are then views of the
// table, prepared in place, not copies beside it.
func (rn *runner) splitInPlace(f *Fold) {
	order := append(append(make([]int, 0, rn.d.Rows()), f.Train...), f.Test...)
	rn.d.Permute(order)
	rn.moved = slices.Clone(order)
	for r := range order {
		order[r] = r // the fold's own lists may be a caller's plan: renumber a copy
	}
	f.Train, f.Test = order[:len(f.Train)], order[len(f.Train):]
	rn.inPlace = true
}

// rowsView is the consecutive rows idx of X, as a view.
func rowsView(X *mat.Dense, idx []int) *mat.Dense {
	_, c := X.Dims()
	return X.Slice(idx[0], idx[0]+len(idx), 0, c).(*mat.Dense)
}

// prepare fits the preprocessing on the rows idx and returns it with the
// training set the model learns from.
func (rn *runner) prepare(idx []int) (*datasets.Prep, engine.Train, error) {
	d := rn.d
	var y []float64
	if rn.task.Supervised() {
		y = make([]float64, len(idx))
		for r, i := range idx {
			y[r] = d.Y[i]
		}
	}
	opt, err := rn.prepOptions(y)
	if err != nil {
		return nil, engine.Train{}, err
	}
	pl := rn.opt.Pipeline
	part := Part{Fold: max(rn.inFit, 0)}
	if pl.Select != "" && rn.task.Supervised() {
		if opt.Select, err = rn.selectFeatures(idx); err != nil {
			return nil, engine.Train{}, err
		}
		for _, j := range opt.Select {
			part.Features = append(part.Features, d.Features[j].Name)
		}
	}
	var prep *datasets.Prep
	var X *mat.Dense
	if rn.inPlace { // idx are consecutive rows the runner owns
		prep, X, err = datasets.FitApplyPrepOwned(rowsView(d.X, idx), d.Features, opt)
	} else {
		prep, X, err = datasets.FitApplyPrepRows(d.X, idx, d.Features, opt)
	}
	if ce := (*datasets.ComponentsError)(nil); errors.As(err, &ce) {
		return nil, engine.Train{}, engine.Limitf("reduce first: %d principal components but there are %d features to reduce; use at most %d", ce.K, ce.Features, ce.Features)
	}
	if err != nil {
		return nil, engine.Train{}, err
	}
	rn.warn(prep.Warnings()...)
	cols := prep.Columns()
	if rn.spec.Input.Missing {
		n, _ := X.Dims()
		for i := range n {
			for j, v := range X.RawRowView(i) {
				if math.IsNaN(v) {
					cols[j].Missing++
				}
			}
		}
	}
	tr := engine.Train{X: X, Features: prep.Features(), Columns: cols, Seed: rn.opt.Seed}
	if rn.task.Supervised() {
		tr.Classes, tr.Y = d.Classes, y
	} else if d.Classes != nil && rn.truth() != nil {
		tr.KnownClasses = len(d.Classes)
	}
	if tr, err = rn.rebalance(tr, &part); err != nil {
		return nil, engine.Train{}, err
	}
	if part.Features != nil || part.Rows != nil {
		rn.res.Parts = append(rn.res.Parts, part)
	}
	if rn.spec.Input.Missing && tr.X != X { // resampled: count its rows' missing values again
		tr.Columns = prep.Columns()
		n, _ := tr.X.Dims()
		for i := range n {
			for j, v := range tr.X.RawRowView(i) {
				if math.IsNaN(v) {
					tr.Columns[j].Missing++
				}
			}
		}
	}
	return prep, tr, nil
}

// fitOne builds a fresh model and fits it. When timed is set, the fit's
// time (without the scoring the recorder does) joins Result.FitSecs and the
// scoring's joins Result.ScoreSecs. A fit cancelled after some step, whose
// model kept that step's state and scores the held-out rows, is a model
// stopped early: it is returned with the cancellation error.
func (rn *runner) fitOne(tr engine.Train, rec *recorder, timed bool) (engine.Model, error) {
	var model engine.Model
	err := safely(rn.spec.Name, "New", func() (err error) {
		model, err = rn.spec.New(rn.v)
		return err
	})
	if err != nil {
		return nil, err
	}
	rec.model = model
	t0 := time.Now()
	err = safely(rn.spec.Name, "Fit", func() error { return engine.Fit(rn.ctx, model, tr, rec) })
	fit := max(time.Since(t0)-rec.scoreTime, 0)
	stopped := false
	if err == nil {
		rec.finish()
	} else if rn.ctx.Err() != nil && rec.xval != nil && rec.steps > 0 && !errors.Is(err, ErrPanic) {
		rec.finish()
		stopped = rec.pred != nil
	}
	if timed {
		rn.res.FitSecs += fit.Seconds()
		rn.res.ScoreSecs += rec.scoreTime.Seconds()
	}
	if stopped {
		return model, err
	}
	if err != nil {
		if rn.ctx.Err() == nil {
			if huge := hugeValue(tr); huge != nil {
				return nil, fmt.Errorf("%w (the fit failed: %v)", huge, err)
			}
		}
		return nil, err
	}
	if w, ok := model.(engine.Warner); ok {
		_ = safely(rn.spec.Name, "Warnings", func() error { rn.warn(w.Warnings()...); return nil })
	}
	return model, nil
}

// hugeValue names the first training value too large to square, the real
// cause of a fit that overflowed (a NaN loss, an infinite variance) on
// finite data; nil when there is none.
func hugeValue(tr engine.Train) error {
	n, _ := tr.X.Dims()
	for i := 0; i < n; i++ {
		for j, v := range tr.X.RawRowView(i) {
			if math.Abs(v) > maxSquarable && !math.IsInf(v, 0) {
				name := fmt.Sprint(j + 1)
				if j < len(tr.Features) {
					name = fmt.Sprintf("%q", tr.Features[j])
				}
				return fmt.Errorf("feature %s holds %s (training row %d), too large for the arithmetic of this model: squares above %s overflow; rescale the feature (divide it by a power of ten) or use a model that standardises it",
					name, numfmt.Sig(v, 4), i+1, numfmt.Sig(maxSquarable, 2))
			}
		}
	}
	return nil
}

// predict returns the model's predictions for X, checked: one per row, and
// class codes for classification.
func (rn *runner) predict(model engine.Model, X *mat.Dense) ([]float64, error) {
	p, ok := model.(engine.Predictor)
	if !ok {
		return nil, fmt.Errorf("model %s cannot predict new rows (a bug: it registers for %s)", rn.spec.Name, rn.task)
	}
	rows, _ := X.Dims()
	var pred []float64
	err := safely(rn.spec.Name, "Predict", func() (err error) {
		pred, err = p.Predict(X)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(pred) != rows {
		return nil, fmt.Errorf("model %s returned %d predictions for %d rows (a bug in the model)", rn.spec.Name, len(pred), rows)
	}
	if rn.task == datasets.Classification {
		if err := metrics.CheckCodes(pred, len(rn.d.Classes)); err != nil {
			return nil, fmt.Errorf("model %s predicted an invalid class: %v (a bug in the model)", rn.spec.Name, err)
		}
	}
	return pred, nil
}

// scores returns class probabilities (Prober) or decision scores (Scorer;
// with two classes, one column: class 1's score minus class 0's), or nil.
func (rn *runner) scores(model engine.Model, X *mat.Dense) (*mat.Dense, bool, error) {
	rows, _ := X.Dims()
	k := len(rn.d.Classes)
	var S *mat.Dense
	proba := false
	err := safely(rn.spec.Name, "PredictProba", func() (err error) {
		switch m := model.(type) {
		case engine.Prober:
			proba = true
			S, err = m.PredictProba(X)
		case engine.Scorer:
			S, err = m.DecisionFunction(X)
		}
		return err
	})
	if err != nil || S == nil {
		return nil, false, err
	}
	r, c := S.Dims()
	if r != rows || (c != k && !(k == 2 && c == 1 && !proba)) {
		return nil, false, fmt.Errorf("model %s returned %dx%d scores for %d rows and %d classes (a bug in the model)", rn.spec.Name, r, c, rows, k)
	}
	if k == 2 && c == 2 && !proba {
		diff := mat.NewDense(rows, 1, nil)
		for i := range rows {
			diff.Set(i, 0, S.At(i, 1)-S.At(i, 0))
		}
		S = diff
	}
	return S, proba, nil
}

// trainMetrics scores a fitted model on the rows it was trained on.
func (rn *runner) trainMetrics(model engine.Model, tr engine.Train) (map[string]float64, error) {
	pred, err := rn.predict(model, tr.X)
	if err != nil {
		return nil, err
	}
	var scores *mat.Dense
	proba := false
	if rn.task == datasets.Classification {
		if scores, proba, err = rn.scores(model, tr.X); err != nil {
			return nil, err
		}
	}
	return rn.metricsOf(tr.Y, pred, scores, proba), nil
}

package models_test

// The conformance suite: one set of checks run over every registered model
// (the rules in engine/model.go's package comment). It ranges over
// engine.Specs(), so a family added to models.go is checked with no change
// here. Each check recovers panics and fails naming the model.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
	_ "github.com/tealab/tealab/engine/models"
)

// The checks of a fit's steps: cancellation, stopping early, predicting
// inside a step, and fits side by side.

// countRecorder cancels the context at step cancelAt (0: never) and counts
// the calls it receives once the context is done. It returns ctx.Err(), or
// with quiet always nil, as a recorder that cancels a fit through its
// context without reporting it does.
type countRecorder struct {
	ctx      context.Context
	cancel   context.CancelFunc
	cancelAt int
	quiet    bool
	calls    int
	after    int
}

func (r *countRecorder) Step(engine.Step) error {
	r.calls++
	if r.ctx.Err() != nil {
		r.after++
	}
	if r.calls == r.cancelAt {
		r.cancel()
	}
	if r.quiet {
		return nil
	}
	return r.ctx.Err()
}

// checkCancel: a cancelled context stops Fit within one step. Cancelled
// before Fit, at most one step is reported; cancelled during a step (its
// Recorder then returns the error), no further step is; cancelled during a
// step whose Recorder returns nil, the model must notice the context itself
// and report at most one further step.
func checkCancel(t *testing.T, s *engine.Spec) {
	for _, task := range s.Tasks {
		for _, c := range []struct {
			at    int
			quiet bool
		}{{0, false}, {1, false}, {1, true}} {
			at := c.at
			ctx, cancel := context.WithCancel(context.Background())
			rec := &countRecorder{ctx: ctx, cancel: cancel, cancelAt: at, quiet: c.quiet}
			if at == 0 {
				cancel()
			}
			m := newModel(t, s)
			tr := train(t, task, 0)
			var err error
			guard(t, s.Name, "Fit with a cancelled context", func() {
				err = engine.Fit(ctx, m, tr, rec)
			})
			cancel()
			when := fmt.Sprintf("cancelled at step %d", at)
			if at == 0 {
				when = "cancelled before Fit"
			}
			if c.quiet {
				when += " by a recorder that returns nil"
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("model %s (%s), %s: Fit returned %v, want context.Canceled", s.Name, task, when, err)
			}
			if (at == 0 || c.quiet) && rec.after > 1 || at == 1 && !c.quiet && rec.after > 0 {
				t.Errorf("model %s (%s), %s: %d steps reported after the cancel", s.Name, task, when, rec.after)
			}
		}
	}
}

// stopRecorder cancels at step stopAt after predicting the rows X there,
// keeping the predictions (nil if the model could not predict).
type stopRecorder struct {
	m      engine.Predictor
	X      mat.Matrix
	cancel context.CancelFunc
	ctx    context.Context
	stopAt int
	steps  int
	pred   []float64
}

func (r *stopRecorder) Step(engine.Step) error {
	r.steps++
	if r.steps == r.stopAt {
		r.pred, _ = r.m.Predict(r.X)
		r.cancel()
	}
	return r.ctx.Err()
}

// checkStoppedEarly: a fit cancelled at a step either leaves the model
// unfitted or keeps exactly the state of that step (engine/model.go): its
// predictions after Fit returns are those it gave inside the step, so that
// a run stopped early is scored as the model it reported.
func checkStoppedEarly(t *testing.T, s *engine.Spec) {
	for _, task := range s.Tasks {
		p, ok := newModel(t, s).(engine.Predictor)
		if !ok || !task.Supervised() {
			continue
		}
		tr := train(t, task, 0)
		X := tr.X.Slice(0, 30, 0, tr.Cols())
		// How many steps does a whole fit report? Stop at the second, or
		// at the only one.
		count := &stopRecorder{m: p, X: X, ctx: context.Background(), cancel: func() {}}
		if err := engine.Fit(context.Background(), p, tr, count); err != nil {
			t.Fatalf("model %s (%s): Fit: %v", s.Name, task, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		rec := &stopRecorder{m: p, X: X, ctx: ctx, cancel: cancel, stopAt: min(2, count.steps)}
		var err error
		guard(t, s.Name, "Fit stopped early", func() { err = engine.Fit(ctx, p, tr, rec) })
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("model %s (%s): Fit cancelled at step %d returned %v", s.Name, task, rec.stopAt, err)
			continue
		}
		after, err := p.Predict(X)
		switch {
		case errors.Is(err, engine.ErrNotFitted):
		case err != nil:
			t.Errorf("model %s (%s): Predict after a fit stopped early: %v, want predictions or ErrNotFitted", s.Name, task, err)
		case rec.pred == nil:
			t.Errorf("model %s (%s): predicts after a fit stopped at step %d, though it could not inside that step", s.Name, task, rec.stopAt)
		case !slices.Equal(after, rec.pred):
			t.Errorf("model %s (%s): stopped at step %d of %d, it predicts otherwise than inside that step: it must keep that step's state or none",
				s.Name, task, rec.stopAt, count.steps)
		}
	}
}

// predictRecorder predicts from inside every Step, as eval does to draw the
// live validation curve, and keeps the first error.
type predictRecorder struct {
	m     engine.Predictor
	X     mat.Matrix
	probs bool // a classification: probabilities and scores exist
	steps int
	err   error
}

func (r *predictRecorder) Step(st engine.Step) error {
	r.steps++
	if r.err != nil {
		return nil
	}
	if _, err := r.m.Predict(r.X); err != nil {
		r.err = fmt.Errorf("step %d: Predict: %w", st.Step, err)
	} else if p, ok := r.m.(engine.Prober); ok && r.probs {
		if _, err := p.PredictProba(r.X); err != nil {
			r.err = fmt.Errorf("step %d: PredictProba: %w", st.Step, err)
		}
	} else if p, ok := r.m.(engine.Scorer); ok && r.probs {
		if _, err := p.DecisionFunction(r.X); err != nil {
			r.err = fmt.Errorf("step %d: DecisionFunction: %w", st.Step, err)
		}
	}
	return nil
}

// checkPredictInStep: Predict (and PredictProba, DecisionFunction) called
// from inside every Step succeed (contract 4 in engine/model.go), for
// one-step models too, whose single step liveValidation cannot see in a
// history because eval fills in the last step after Fit returns.
func checkPredictInStep(t *testing.T, s *engine.Spec) {
	for _, task := range s.Tasks {
		tr := train(t, task, 0)
		m := newModel(t, s)
		p, ok := m.(engine.Predictor)
		if !ok || !task.Supervised() {
			continue // no live validation without predictions
		}
		// Probabilities and scores are a classifier's: a model that also
		// regresses (a tree) may refuse them then.
		rec := &predictRecorder{m: p, X: tr.X.Slice(0, 5, 0, tr.Cols()), probs: task == datasets.Classification}
		var err error
		guard(t, s.Name, "Predict inside Step", func() {
			err = engine.Fit(context.Background(), m, tr, rec)
		})
		switch {
		case err != nil:
			t.Errorf("model %s (%s): Fit: %v", s.Name, task, err)
		case rec.steps == 0:
			t.Errorf("model %s (%s): Fit reported no step", s.Name, task)
		case rec.err != nil:
			t.Errorf("model %s (%s): predicting from inside Recorder.Step failed (%v): publish the fitted state "+
				"before calling Step (engine/model.go, contract 4)", s.Name, task, rec.err)
		}
	}
}

// checkConcurrent: two fits of the model at once (a sweep runs its points
// side by side) share no state: under -race nothing races, and each gives
// what a fit alone gives.
func checkConcurrent(t *testing.T, s *engine.Spec) {
	tr := train(t, s.Tasks[0], 60)
	fit := func() (engine.Model, error) {
		m := newModel(t, s)
		var err error
		guard(t, s.Name, "Fit", func() { err = engine.Fit(context.Background(), m, tr, engine.NopRecorder{}) })
		return m, err
	}
	alone, errAlone := fit()
	models, errs := make([]engine.Model, 2), make([]error, 2)
	var wg sync.WaitGroup
	for i := range models {
		wg.Add(1)
		go func() {
			defer wg.Done()
			models[i], errs[i] = fit()
		}()
	}
	wg.Wait()
	for i, m := range models {
		if (errs[i] == nil) != (errAlone == nil) {
			t.Fatalf("model %s: alone %v, beside another %v", s.Name, errAlone, errs[i])
		}
		p, ok := m.(engine.Predictor)
		if !ok || errAlone != nil {
			continue
		}
		got, err1 := p.Predict(tr.X)
		want, err2 := alone.(engine.Predictor).Predict(tr.X)
		if err1 != nil || err2 != nil || !sameFloats(got, want) {
			t.Errorf("model %s: fitted beside another, it predicts otherwise (%v, %v)", s.Name, err1, err2)
		}
	}
}

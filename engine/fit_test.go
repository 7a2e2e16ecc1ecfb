package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// stepper is a model that embeds FitState and does what it is told: it
// publishes a state and reports steps, then fails, panics, or stops early.
type stepper struct {
	FitState
	steps int   // steps to report
	fail  error // returned after the steps
	panic bool
	keep  bool // say StoppedEarly when failing

	gotCtx context.Context
	gotRec Recorder
}

func (m *stepper) Fit(ctx context.Context, d Train, rec Recorder) error {
	m.gotCtx, m.gotRec = ctx, rec
	for s := 1; s <= m.steps; s++ {
		m.Fitted = true
		if err := rec.Step(Step{Step: s, Total: m.steps}); err != nil {
			if m.keep {
				return m.StoppedEarly(err)
			}
			return err
		}
	}
	if m.panic {
		panic("boom")
	}
	if m.fail != nil {
		if m.keep {
			return m.StoppedEarly(m.fail)
		}
		return m.fail
	}
	return nil
}

// cancelAt cancels its context at step at and returns the context's error.
type cancelAt struct {
	ctx    context.Context
	cancel context.CancelFunc
	at     int
}

func (r cancelAt) Step(s Step) error {
	if s.Step == r.at {
		r.cancel()
	}
	return r.ctx.Err()
}

func rows() Train {
	return Train{X: mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}), Y: []float64{0, 1, 0}}
}

func TestFitSuppliesContextAndRecorder(t *testing.T) {
	m := &stepper{steps: 2}
	var none context.Context // a careless caller's
	if err := Fit(none, m, rows(), nil); err != nil {
		t.Fatal(err)
	}
	if m.gotCtx == nil || m.gotRec == nil || !m.Fitted {
		t.Errorf("context %v, recorder %v, fitted %v", m.gotCtx, m.gotRec, m.Fitted)
	}
	// The recorder it supplies stops a fit whose context is done.
	ctx, cancel := context.WithCancel(context.Background())
	m = &stepper{steps: 3}
	if err := Fit(ctx, m, rows(), nil); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := m.gotRec.Step(Step{Step: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("the supplied recorder returned %v once cancelled", err)
	}
}

func TestFitChecksRows(t *testing.T) {
	for _, c := range []struct {
		edit func(*Train)
		want string
	}{
		{func(d *Train) { d.X = nil }, "no training data"},
		{func(d *Train) { d.X, d.Y = &mat.Dense{}, nil }, "no training rows"},
		{func(d *Train) { d.Y = d.Y[:2] }, "2 targets for 3 rows"},
		{func(d *Train) { d.Weights = []float64{1} }, "1 sample weights for 3 rows"},
	} {
		d := rows()
		c.edit(&d)
		m := &stepper{steps: 1, FitState: FitState{Fitted: true}}
		err := Fit(context.Background(), m, d, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
		if m.gotRec != nil || m.Fitted {
			t.Errorf("%s: the model was fitted (%v) or called", c.want, m.Fitted)
		}
	}
	d := rows()
	d.Y = nil // a clustering's rows
	if err := Fit(context.Background(), &stepper{}, d, nil); err != nil {
		t.Errorf("rows without targets: %v", err)
	}
}

// A fit that fails, or panics, leaves the model unfitted, whatever state
// it published and whatever an earlier fit left; one stopped by its
// context keeps its last step only when the model says StoppedEarly.
func TestFitUnfitsOnFailure(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		name   string
		m      *stepper
		cancel int // cancel at this step (0: never)
		kept   bool
	}{
		{"error", &stepper{steps: 2, fail: boom}, 0, false},
		{"error, stopped early said", &stepper{steps: 2, fail: boom, keep: true}, 0, false},
		{"cancelled", &stepper{steps: 3}, 2, false},
		{"cancelled, stopped early", &stepper{steps: 3, keep: true}, 2, true},
		{"a recorder's cancel, stopped early", &stepper{steps: 3, keep: true, fail: context.Canceled}, 0, true},
		{"succeeds", &stepper{steps: 2}, 0, true},
	} {
		// An earlier fit that succeeded.
		if err := Fit(context.Background(), c.m, rows(), nil); err != nil && c.m.fail == nil {
			t.Fatal(err)
		}
		c.m.Fitted = true
		ctx, cancel := context.WithCancel(context.Background())
		var rec Recorder = ContextRecorder{Ctx: ctx}
		if c.cancel > 0 {
			rec = cancelAt{ctx, cancel, c.cancel}
		}
		err := Fit(ctx, c.m, rows(), rec)
		cancel()
		if c.m.Fitted != c.kept {
			t.Errorf("%s (%v): fitted %v, want %v", c.name, err, c.m.Fitted, c.kept)
		}
		if c.m.kept {
			t.Errorf("%s: the mark of a model stopped early outlived its fit", c.name)
		}
	}
	m := &stepper{steps: 1, panic: true}
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Errorf("recovered %v, want the model's panic", p)
			}
		}()
		_ = Fit(context.Background(), m, rows(), nil)
	}()
	if m.Fitted {
		t.Error("a fit that panicked left the model fitted")
	}
}

// Cancelled before it starts, a fit does not reach the model.
func TestFitCancelledBefore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := &stepper{steps: 1}
	if err := Fit(ctx, m, rows(), nil); !errors.Is(err, context.Canceled) || m.gotRec != nil {
		t.Errorf("got %v, model called %v", err, m.gotRec != nil)
	}
}
